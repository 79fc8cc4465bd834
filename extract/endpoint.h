#pragma once
// A data endpoint is one small unit: its path and cost key, its parameters (declared once, see
// params.h), the request a person would make on the site, the in-page script that reads the page
// (a .js file embedded at build time), and the C++ that shapes the script's output into the
// documented JSON. The HTTP layer does: validate → reserve credits → run → commit, for every
// endpoint of registry.h, without knowing any of them.
//
// In-page scripts: each .js file is ONE function expression, `(args) => { ...; return {...}; }`
// (may be async), called with PageRequest::script_args and returning plain JSON. Keep selectors in
// one place at the top of the script. The framework runs the shared block check first and wraps
// the call in try/catch (see page_reader.h).
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "extract/params.h"
#include "extract/tab.h"

namespace gleaner::extract {

/// The one page load an endpoint asks for.
struct PageRequest {
  /// Exactly the URL a person would load on the site.
  std::string url;
  BrowserProfile profile;
  WaitFor wait;
  /// Handed to the in-page script as its argument.
  nlohmann::json script_args = nlohmann::json::object();
  /// Where the script runs: World::Page only when it reads the page's own variables.
  World world = World::Isolated;
};

/// A successful run: the body without the envelope (api/ adds requestMetadata) and the URL loaded.
struct EndpointResult {
  nlohmann::json body;
  std::string url;
};

class Endpoint {
 public:
  virtual ~Endpoint() = default;

  /// The endpoint's one name, e.g. "search/serp": it serves GET /scrape/<route> and is charged
  /// the cost of <route> in the costs table (store/costs.h).
  virtual std::string_view route() const = 0;
  /// GET path of the endpoint: "/scrape/" + route().
  std::string path() const { return "/scrape/" + std::string(route()); }
  /// The documented fields of the answer, for field health (`gleaner_extract_field_total`):
  /// top-level keys ("title"), keys of a nested object ("rating.value") and keys of the items of
  /// a list ("results[].price"). Each must be documented in the endpoint's doc.
  virtual std::vector<std::string> fields() const = 0;
  /// Everything the endpoint accepts; validate() applies it.
  virtual const Parameters& parameters() const = 0;
  /// The page to load for a valid request.
  virtual PageRequest build_request(const ValidatedParams& params) const = 0;
  /// The in-page script (embedded .js text).
  virtual std::string_view script() const = 0;
  /// Shapes the script's output into the documented JSON. Pure: unit-tested on recorded output.
  virtual nlohmann::json shape(const nlohmann::json& script_output,
                               const ValidatedParams& params) const = 0;
  /// Whether the script read the page's data although the page shows no text: a page whose text
  /// the site's scripts draw from inline data reads as empty before they run. When true, the
  /// framework's empty-page signal does not apply to this reading; every other block signal
  /// (vendor walls, captchas, consent) still does. Default: false.
  virtual bool data_without_text(const nlohmann::json& script_output) const;
  /// Whether a shaped body holds what every real page of this type shows. A page without it is
  /// an empty shell and is reported as 502 upstream_blocked, never as an empty success.
  /// Default: the body has at least one non-empty field.
  virtual bool has_content(const nlohmann::json& body) const;

  /// Checks a request's query; throws gleaner::Error (400) naming the parameter at fault.
  ValidatedParams validate(const QueryParams& query) const { return parameters().validate(query); }

  /// Runs the endpoint on tabs from `tabs` (extract/pool_tabs.h in the service): open a tab with
  /// the request's profile, read the page (page_reader.h), shape, check has_content(). Throws
  /// gleaner::Error: UpstreamBlocked (captcha, consent wall, unusual-traffic page, empty shell),
  /// UpstreamError (network error, 5xx), NotFound (the page does not exist), Timeout,
  /// Unavailable. Endpoints that need more than one page (fallbacks) override it.
  virtual EndpointResult fetch(const ValidatedParams& params, TabSource& tabs,
                               Deadline deadline) const;
};

}  // namespace gleaner::extract
