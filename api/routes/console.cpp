// GET /console: the web console (console/, docs/console.md), static files compiled into the
// binary (api/CMakeLists.txt embeds them), served without a key: the page asks for the key and
// sends it as x-api-key on each call it makes, from sessionStorage; no cookie is ever set.
// Every file goes with a Content-Security-Policy that allows only this origin's own files: no
// inline script or style, no other host, so a page rendered into the console (markdown, links)
// cannot run script or reach anywhere.
#include <string>
#include <string_view>

#include "api/routes/routes.h"
#include "console_embedded.h"
#include "core/error.h"

namespace gleaner::api {
namespace {

std::string content_type_of(std::string_view name) {
  auto ends_with = [&](std::string_view tail) {
    return name.size() >= tail.size() && name.substr(name.size() - tail.size()) == tail;
  };
  if (ends_with(".html")) return "text/html; charset=utf-8";
  if (ends_with(".css")) return "text/css; charset=utf-8";
  if (ends_with(".js")) return "text/javascript; charset=utf-8";
  if (ends_with(".svg")) return "image/svg+xml";
  return "text/plain; charset=utf-8";
}

Response console_file(std::string_view name) {
  for (const auto& [file, text] : console_files::files) {
    if (file != name) continue;
    Response r = Response::raw(std::string(text), content_type_of(name));
    r.headers["Content-Security-Policy"] = std::string(kConsoleContentSecurityPolicy);
    r.headers["X-Content-Type-Options"] = "nosniff";
    r.headers["Referrer-Policy"] = "no-referrer";
    r.headers["X-Frame-Options"] = "DENY";
    // The files change with the binary only; a restart may bring new ones.
    r.headers["Cache-Control"] = "no-cache";
    return r;
  }
  throw Error(ErrorCode::NotFound, "no console file " + std::string(name));
}

}  // namespace

void add_console_routes(Router& router) {
  router.add("GET", "/console", [](Request&) { return console_file("index.html"); });
  router.add("GET", "/console/{file}",
             [](Request& request) { return console_file(request.path_params.at("file")); });
  router.add("GET", "/console/{folder}/{file}", [](Request& request) {
    return console_file(request.path_params.at("folder") + "/" + request.path_params.at("file"));
  });
}

}  // namespace gleaner::api
