#include "extract/endpoint.h"

#include "core/error.h"
#include "core/log.h"
#include "extract/page_reader.h"
#include "extract/registry.h"

namespace gleaner::extract {
namespace {

bool non_empty(const nlohmann::json& v) {
  if (v.is_null()) return false;
  if (v.is_object() || v.is_array() || v.is_string()) return !v.empty();
  return true;
}

// What a device's screen shows a page: CSS pixels and device pixels per CSS pixel.
struct Screen {
  int width;
  int height;
  double scale;
};

// Phone: a Pixel 7; tablet: a Galaxy Tab S4 in portrait; both as Playwright's Chromium device list
// describes them. Desktop: a laptop screen.
Screen screen_of(BrowserProfile::Device device) {
  switch (device) {
    case BrowserProfile::Device::Mobile: return {412, 915, 2.625};
    case BrowserProfile::Device::Tablet: return {712, 1138, 2.25};
    case BrowserProfile::Device::Desktop: break;
  }
  return {1366, 900, 1.0};
}

}  // namespace

int BrowserProfile::viewport_width() const {
  return width.value_or(screen_of(device).width);
}

int BrowserProfile::viewport_height() const {
  return height.value_or(screen_of(device).height);
}

double BrowserProfile::device_scale_factor() const {
  return screen_of(device).scale;
}

std::string_view Endpoint::script() const {
  for (const RegisteredEndpoint& e : registered_endpoints()) {
    if (e.endpoint == this) return e.script;
  }
  throw Error(ErrorCode::Internal, "internal error",
              "endpoint " + std::string(route()) + " has no registered script");
}

bool Endpoint::page_recognized(const nlohmann::json&) const {
  return false;
}

bool Endpoint::data_without_text(const nlohmann::json&) const {
  return false;
}

bool Endpoint::has_content(const nlohmann::json& body) const {
  if (!body.is_object()) return false;
  for (const auto& [key, value] : body.items()) {
    if (non_empty(value)) return true;
  }
  return false;
}

std::vector<Endpoint::TakenPageToken> Endpoint::page_tokens_taken() const {
  return {};
}

void Endpoint::add_page_tokens(nlohmann::json&, const ValidatedParams&,
                               const PageTokenMinter&) const {}

EndpointResult Endpoint::fetch(const ValidatedParams& params, TabSource& tabs,
                               Deadline deadline) const {
  PageRequest request = build_request(params);
  const auto started = SteadyClock::now();
  std::unique_ptr<Tab> tab = tabs.open(request.profile, deadline);
  log::debug("extract") << path() << ": tab opened in " << elapsed_ms(started) << " ms";
  return read_step(*this, *tab, request, params, deadline);
}

EndpointResult read_step(const Endpoint& endpoint, Tab& tab, const PageRequest& request,
                         const ValidatedParams& params, Deadline deadline) {
  PageReading reading = read_page(
      tab, request, endpoint.script(), deadline,
      [&endpoint](const nlohmann::json& data) { return endpoint.data_without_text(data); },
      [&endpoint](const nlohmann::json& data) { return endpoint.page_recognized(data); });
  nlohmann::json body = endpoint.shape(reading.data, params);
  if (!endpoint.has_content(body)) {
    log::warn("extract") << endpoint.path() << ": nothing to read at " << reading.navigation.url;
    throw extraction_failed("the page holds none of the data this endpoint reads",
                            "no content recognised at " + reading.navigation.url);
  }
  return {std::move(body), reading.navigation.url};
}

}  // namespace gleaner::extract
