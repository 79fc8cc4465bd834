#include "tests/support/answer_log.h"

#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "api/envelope.h"
#include "core/error.h"
#include "tests/support/chromium.h"

namespace gleaner::testing {
namespace {

std::mutex& log_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

void record_answer(std::string_view method, std::string_view path, int status,
                   std::string_view content_type, std::string_view body) {
  const char* dir = std::getenv("GLEANER_ANSWERS_DIR");
  if (!dir || !*dir) return;
  nlohmann::json line = {{"method", method},
                         {"path", path.substr(0, path.find('?'))},
                         {"status", status},
                         {"contentType", content_type}};
  if (content_type.starts_with("application/json")) {
    // A JSON answer that does not parse is recorded as text: the check then fails on it.
    line["answer"] = nlohmann::json::parse(body, nullptr, false);
    if (line["answer"].is_discarded()) line["answer"] = std::string(body);
  }
  const std::string file = std::string(dir) + "/" + std::to_string(::getpid()) + ".jsonl";
  std::lock_guard lock(log_mutex());
  std::ofstream out(file, std::ios::app);
  out << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

void record_answers(httplib::Client& client) {
  client.set_logger([](const httplib::Request& req, const httplib::Response& res) {
    record_answer(req.method, req.path, res.status, res.get_header_value("Content-Type"),
                  res.body);
  });
}

api::Response answer_recorded(const api::Request& request,
                              const std::function<api::Response()>& handler) {
  try {
    api::Response response = handler();
    if (response.pieces) {
      // What the server sends of an answer in pieces: all of them, one after the other.
      std::string body;
      while (auto piece = response.pieces()) body += *piece;
      response.pieces = nullptr;
      response.raw_body = std::move(body);
    }
    if (response.raw_body) {
      record_answer(request.method, request.path, response.status, response.content_type,
                    *response.raw_body);
    } else {
      record_answer(request.method, request.path, response.status, "application/json",
                    api::render_json(request, response));
    }
    return response;
  } catch (...) {
    const api::Response response = api::error_response(request, std::current_exception());
    record_answer(request.method, request.path, response.status, "application/json",
                  api::render_json(request, response));
    throw;
  }
}

extract::EndpointResult fetch_recorded(const extract::Endpoint& endpoint, extract::TabSource& tabs,
                                       const extract::QueryParams& query) {
  api::Request request;
  request.id = "e2e-test";
  request.method = "GET";
  request.path = endpoint.path();
  extract::EndpointResult result;
  answer_recorded(request, [&] {
    result = endpoint.fetch(endpoint.validate(query), tabs, max_wait());
    api::Response response;
    response.body = result.body;
    response.url = result.url;
    return response;
  });
  return result;
}

}  // namespace gleaner::testing
