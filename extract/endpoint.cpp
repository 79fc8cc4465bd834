#include "extract/endpoint.h"

#include <optional>

#include "core/error.h"
#include "core/log.h"
#include "extract/document.h"
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

// A further document of a page read in a tab (the browser road): fetched by the page from its
// own origin with its cookies, as the page's own scripts fetch (a world of our own, which the
// page does not see, fetches as the page's origin).
class TabDocuments final : public DocumentRoad {
 public:
  explicit TabDocuments(Tab& tab) : tab_(tab) {}

  // `media` is not checked here: the endpoint reads what the page's fetch() got (an HTML
  // document's text decoded by its Content-Type's charset alone, as fetch() decodes).
  Document get(const std::string& url, Load, Media, Deadline deadline) override {
    const nlohmann::json got = tab_.evaluate(
        "(async () => { try { const r = await fetch(" + nlohmann::json(url).dump() +
            ", {credentials: 'include'}); return {url: r.url, status: r.status, contentType: "
            "r.headers.get('content-type') || '', text: await r.text()}; } catch (e) { return "
            "{error: String(e)}; } })()",
        deadline, World::Isolated);
    if (!got.is_object() || got.contains("error")) {
      throw Error(ErrorCode::UpstreamError, "could not load " + url,
                  got.is_object() ? got.value("error", std::string()) : got.dump().substr(0, 200));
    }
    Document document;
    document.url = got.value("url", url);
    document.status = got.value("status", 0);
    document.content_type = media_type(got.value("contentType", std::string()));
    document.text = got.value("text", std::string());
    return document;
  }

 private:
  Tab& tab_;
};

// The document a tab shows, from document.js's output.
Document document_in_tab(const PageReading& reading) {
  Document document;
  document.url = reading.navigation.url;
  document.status = reading.navigation.status;
  if (reading.data.is_object()) {
    document.content_type = media_type(reading.data.value("contentType", std::string()));
    document.title = reading.data.value("title", std::string());
    document.text = reading.data.value("text", std::string());
  }
  return document;
}

// shape() of what was read at `url`, checked with has_content().
EndpointResult shaped(const Endpoint& endpoint, const nlohmann::json& data, const std::string& url,
                      const ValidatedParams& params, Road road) {
  nlohmann::json body = endpoint.shape(data, params);
  if (!endpoint.has_content(body)) {
    log::warn("extract") << endpoint.path() << ": nothing to read at " << url;
    throw extraction_failed("the page holds none of the data this endpoint reads",
                            "no content recognised at " + url);
  }
  return {std::move(body), url, road};
}

// The request's document on the plain road, read and shaped; nullopt when `tabs` has no plain
// road or its answer is not the document (the request then takes the browser road).
std::optional<EndpointResult> read_on_plain_road(const Endpoint& endpoint,
                                                 const PageRequest& request,
                                                 const ValidatedParams& params, TabSource& tabs,
                                                 Deadline deadline) {
  const auto started = SteadyClock::now();
  std::unique_ptr<DocumentRoad> road = tabs.plain_road(request.profile, deadline);
  if (!road) return std::nullopt;
  try {
    const Document document = road->get(request.url, DocumentRoad::Load::Navigation,
                                        endpoint.document_media(), deadline);
    const nlohmann::json data = endpoint.read_document(document, request, *road, deadline);
    nlohmann::json body = endpoint.shape(data, params);
    // A page that answers 200 with none of the data (a consent page, a wall the site serves as
    // its page) is the browser road's to judge: it tells a wall from an empty page.
    if (!endpoint.has_content(body)) {
      throw NotTheDocument("none of the data this endpoint reads at " + document.url);
    }
    log::debug("extract") << endpoint.path() << ": read on the plain road in "
                          << elapsed_ms(started) << " ms";
    return EndpointResult{std::move(body), document.url, Road::Plain};
  } catch (const NotTheDocument& e) {
    log::info("extract") << endpoint.path() << ": the plain road did not get the document ("
                         << e.what() << "), taking the browser road";
    return std::nullopt;
  }
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

bool Endpoint::reads_document() const {
  return false;
}

DocumentRoad::Media Endpoint::document_media() const {
  return DocumentRoad::Media::Json;
}

nlohmann::json Endpoint::read_document(const Document&, const PageRequest&, DocumentRoad&,
                                       Deadline) const {
  throw Error(ErrorCode::Internal, "internal error",
              "endpoint " + std::string(route()) + " reads no document");
}

std::unique_ptr<DocumentRoad> TabSource::plain_road(const BrowserProfile&, Deadline) {
  return nullptr;
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
  if (reads_document()) {
    if (auto result = read_on_plain_road(*this, request, params, tabs, deadline)) return *result;
  }
  const auto started = SteadyClock::now();
  std::unique_ptr<Tab> tab = tabs.open(request.profile, deadline);
  log::debug("extract") << path() << ": tab opened in " << elapsed_ms(started) << " ms";
  return read_step(*this, *tab, request, params, deadline);
}

PageReading read_in_tab(const Endpoint& endpoint, Tab& tab, const PageRequest& request,
                        Deadline deadline) {
  PageReading reading = read_page(
      tab, request, endpoint.script(), deadline,
      [&endpoint](const nlohmann::json& data) { return endpoint.data_without_text(data); },
      [&endpoint](const nlohmann::json& data) { return endpoint.page_recognized(data); });
  if (endpoint.reads_document()) {
    TabDocuments more(tab);
    reading.data = endpoint.read_document(document_in_tab(reading), request, more, deadline);
  }
  return reading;
}

EndpointResult read_step(const Endpoint& endpoint, Tab& tab, const PageRequest& request,
                         const ValidatedParams& params, Deadline deadline) {
  const PageReading reading = read_in_tab(endpoint, tab, request, deadline);
  return shaped(endpoint, reading.data, reading.navigation.url, params, Road::Browser);
}

}  // namespace gleaner::extract
