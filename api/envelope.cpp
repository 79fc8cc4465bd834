#include "api/envelope.h"

#include "core/error.h"
#include "core/log.h"

namespace gleaner::api {

namespace {

/// render_json's text, cut before the value of `cut` (when the body has it) and resumed after it.
std::pair<std::string, std::string> render_cut(const Request& request, const Response& response,
                                               const std::string* cut) {
  nlohmann::json meta = {{"id", request.id}, {"status", response.status < 300 ? "ok" : "error"}};
  if (response.url) meta["url"] = *response.url;
  std::string before = "{\"requestMetadata\":" + meta.dump();
  std::string after;
  std::string* out = &before;
  const auto& body = response.body;
  if (body.is_object()) {
    for (auto it = body.begin(); it != body.end(); ++it) {
      if (it.key() == "requestMetadata") continue;
      *out += ',';
      *out += nlohmann::json(it.key()).dump();
      *out += ':';
      if (cut && it.key() == *cut) {
        out = &after;
        continue;
      }
      *out += it.value().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
  }
  *out += '}';
  return {std::move(before), std::move(after)};
}

}  // namespace

std::string render_json(const Request& request, const Response& response) {
  return render_cut(request, response, nullptr).first;
}

std::pair<std::string, std::string> render_json_around(const Request& request,
                                                       const Response& response,
                                                       const std::string& key) {
  return render_cut(request, response, &key);
}

Response error_response(const Request& request, const gleaner::Error& error) {
  Response r;
  r.status = http_status(error.code());
  nlohmann::json e = {{"code", code_name(error.code())}, {"message", error.what()}};
  if (error.code() == ErrorCode::Internal) {
    e["message"] = std::string(error.what()) + " (request " + request.id + ")";
  }
  if (error.parameter()) e["parameter"] = *error.parameter();
  if (error.step()) e["step"] = *error.step();
  r.body = {{"error", std::move(e)}};
  if (auto after = error.retry_after()) r.headers["Retry-After"] = std::to_string(after->count());
  auto line = r.status >= 500 ? log::error("api") : log::info("api");
  line << request.id << ' ' << request.method << ' ' << request.path << " failed: "
       << code_name(error.code()) << ": " << error.what();
  if (!error.detail().empty()) line << " [" << error.detail() << ']';
  return r;
}

Response error_response(const Request& request, std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const gleaner::Error& e) {
    return error_response(request, e);
  } catch (const std::exception& e) {
    return error_response(request, gleaner::Error(ErrorCode::Internal, "internal error",
                                                  std::string("uncaught: ") + e.what()));
  } catch (...) {
    return error_response(request, gleaner::Error(ErrorCode::Internal, "internal error",
                                                  "uncaught non-standard exception"));
  }
}

}  // namespace gleaner::api
