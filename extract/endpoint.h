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
#include <cstdint>
#include <functional>
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

/// Which road fetched what a request read.
enum class Road {
  Browser,  ///< a tab of a fresh browser context (the page opener, pool_tabs.h)
  Plain,    ///< the plain HTTP client, without a renderer (a document, TabSource::plain_road())
};

/// A successful run: the body without the envelope (api/ adds requestMetadata) and the URL loaded.
struct EndpointResult {
  nlohmann::json body;
  std::string url;
  Road road = Road::Browser;
};

struct PageReading;

class Endpoint {
 public:
  virtual ~Endpoint() = default;

  /// The endpoint's one name, e.g. "search/serp": it serves GET /scrape/<route> and is charged
  /// the cost of <route> in the costs table (store/costs.h).
  virtual std::string_view route() const = 0;
  /// GET path of the endpoint: "/scrape/" + route().
  std::string path() const { return "/scrape/" + std::string(route()); }
  /// Credits a successful answer costs unless configuration entry `costs` overrides them for
  /// route() (store/costs.h: the table holds only the service's own keys and overrides).
  virtual std::int64_t default_cost() const = 0;
  /// The documented fields of the answer, for field health (`gleaner_extract_field_total`):
  /// top-level keys ("title"), keys of a nested object ("rating.value") and keys of the items of
  /// a list ("results[].price"). Each must be documented in the endpoint's doc.
  virtual std::vector<std::string> fields() const = 0;
  /// Everything the endpoint accepts; validate() applies it.
  virtual const Parameters& parameters() const = 0;
  /// The page to load for a valid request.
  virtual PageRequest build_request(const ValidatedParams& params) const = 0;
  /// The in-page script (embedded .js text). Default: the script of the endpoint's registration
  /// (extract/sites/<site>/<name>.js, registry.h, or the framework's document.js for an endpoint
  /// that reads a document); an endpoint outside the registry overrides it.
  virtual std::string_view script() const;
  /// Whether the page is a document (a JSON API answer) rather than a page to render: fetch()
  /// then takes the plain road first (TabSource::plain_road(): no renderer, the same way out and
  /// the same device's headers), and the browser road only when the plain road's answer is not
  /// the document (a wall, an error status, not JSON; the log says why). script() is then
  /// document.js, and read_document() reads the text either road fetched. Default: false.
  virtual bool reads_document() const;
  /// For an endpoint that reads a document: what it is, JSON (default) or an HTML page read
  /// without running its scripts (the browser road hands over the DOM's outerHTML).
  virtual DocumentRoad::Media document_media() const;
  /// For an endpoint that reads a document: what shape() takes, read from `document` (fetched for
  /// `request`); a further document the page would fetch (Trends' widget call) comes from `road`,
  /// the road that fetched the first. Pure but for `road`. Default: throws Internal.
  virtual nlohmann::json read_document(const Document& document, const PageRequest& request,
                                       DocumentRoad& road, Deadline deadline) const;
  /// Shapes the script's output into the documented JSON. Pure: unit-tested on recorded output.
  virtual nlohmann::json shape(const nlohmann::json& script_output,
                               const ValidatedParams& params) const = 0;
  /// Whether the script read the page's data although the page shows no text: a page whose text
  /// the site's scripts draw from inline data reads as empty before they run. When true, the
  /// framework's empty-page signal does not apply to this reading; every other block signal
  /// (vendor walls, captchas, consent) still does. Default: false.
  virtual bool data_without_text(const nlohmann::json& script_output) const;
  /// Whether the script found what tells this endpoint's page apart from any other page (its
  /// data, or the page's own statement that it has none): a consent dialog over a short page (a
  /// search that found nothing, shown in the EU) is then no consent wall, and a weak marker of a
  /// wall (one ordinary pages carry too) decides nothing. Strong vendor markers, captchas and a
  /// consent host still decide. Default: false.
  virtual bool page_recognized(const nlohmann::json& script_output) const;
  /// Whether a shaped body holds what every real page of this type shows. A page without it
  /// (which the block check did not call a wall) is one whose data we cannot read: 502
  /// extraction_failed, never an empty success and never upstream_blocked.
  /// Default: the body has at least one non-empty field.
  virtual bool has_content(const nlohmann::json& body) const;

  /// A page token (page_token.h) a request of this endpoint carries: its parameter and kind.
  struct TakenPageToken {
    std::string parameter;
    std::string kind;
  };
  /// The page tokens this endpoint redeems. The API layer verifies each one a request carries
  /// for the caller (signature, kind, account, expiry) before anything is reserved: a token that
  /// fails is a 400 naming its parameter, uncharged. The endpoint then reads its claims
  /// (page_token_claims()). Default: none.
  virtual std::vector<TakenPageToken> page_tokens_taken() const;
  /// Signs a page token of `kind` with `claims` for the caller of the request being answered.
  using PageTokenMinter =
      std::function<std::string(std::string_view kind, const nlohmann::json& claims)>;
  /// Adds the page tokens an answer hands out (Shopping's `immersiveProductPageToken`) to a
  /// shaped body; they belong to the caller, so the API layer adds them, not shape(). Default:
  /// none.
  virtual void add_page_tokens(nlohmann::json& body, const ValidatedParams& params,
                               const PageTokenMinter& mint) const;
  /// Checks a request's query; throws gleaner::Error (400) naming the parameter at fault.
  ValidatedParams validate(const QueryParams& query) const { return parameters().validate(query); }

  /// Runs the endpoint on tabs from `tabs` (extract/pool_tabs.h in the service): open a tab with
  /// the request's profile and read_step() its request (for an endpoint that reads a document,
  /// the plain road's document first when `tabs` has that road and it answered it). Throws
  /// gleaner::Error: UpstreamBlocked (captcha, consent wall, unusual-traffic page, a page without
  /// text: the block check of page_reader.h, the one place that calls a page a wall),
  /// ExtractionFailed (no wall, but no data we can read), UpstreamError (network error, 5xx),
  /// NotFound (the page does not exist), Timeout, Unavailable. Endpoints that need more than one
  /// page override it and read each page with read_step().
  virtual EndpointResult fetch(const ValidatedParams& params, TabSource& tabs,
                               Deadline deadline) const;
};

/// The one instance of endpoint class `E`: what its `<name>_endpoint()` returns
/// (`const Endpoint& place_endpoint() { return the_endpoint<PlaceEndpoint>(); }`).
template <class E>
const Endpoint& the_endpoint() {
  static const E endpoint;
  return endpoint;
}

/// What `endpoint`'s reading of `request` in `tab` gives shape(): the script's output
/// (read_page()), or for an endpoint that reads a document, read_document() of the text
/// document.js read, further documents fetched from the page (the browser road).
PageReading read_in_tab(const Endpoint& endpoint, Tab& tab, const PageRequest& request,
                        Deadline deadline);

/// One page of an endpoint's flow: reads `request` in `tab` with `endpoint`'s script
/// (page_reader.h), shapes the output with `params` and checks has_content(); a page without
/// content is ExtractionFailed. Multi-page flows (fallbacks, a second endpoint's page) call it
/// for each page instead of re-spelling read → shape → check.
EndpointResult read_step(const Endpoint& endpoint, Tab& tab, const PageRequest& request,
                         const ValidatedParams& params, Deadline deadline);

}  // namespace gleaner::extract
