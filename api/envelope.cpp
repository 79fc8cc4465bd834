#include "api/envelope.h"

#include "core/error.h"
#include "core/log.h"

namespace gleaner::api {
namespace {

constexpr long long kDefaultMaxAnswerBytes = 50'000'000;
constexpr long long kLeastMaxAnswerBytes = 64 * 1024;

/// Thrown by LimitedText when the text would pass its limit.
struct PastLimit {};

/// Where the serializer writes: a string that may not grow past `max` bytes.
class LimitedText final : public nlohmann::detail::output_adapter_protocol<char> {
 public:
  LimitedText(std::string& out, std::size_t max) : out_(out), max_(max) {}
  void write_character(char c) override {
    room(1);
    out_.push_back(c);
  }
  void write_characters(const char* s, std::size_t length) override {
    room(length);
    out_.append(s, length);
  }

 private:
  void room(std::size_t more) const {
    if (more > max_ || out_.size() > max_ - more) throw PastLimit{};
  }
  std::string& out_;
  const std::size_t max_;
};

/// The envelope's text, with the body's `cut` value (when given and present) left out: returns
/// the text and where the value would go (npos without one). Stops at `max_bytes`.
std::pair<std::string, std::size_t> render_cut(const Request& request, const Response& response,
                                               const std::string* cut, std::size_t max_bytes) {
  nlohmann::json meta = {{"id", request.id}, {"status", response.status < 300 ? "ok" : "error"}};
  if (response.url) meta["url"] = *response.url;
  std::string out;
  std::size_t cut_at = std::string::npos;
  // json::dump() as it is written, into a text that stops at the limit (nlohmann's serializer is
  // what dump() uses; invalid UTF-8 from pages is replaced rather than refused).
  const auto text = std::make_shared<LimitedText>(out, max_bytes);
  nlohmann::detail::serializer<nlohmann::json> writer(text, ' ',
                                                      nlohmann::json::error_handler_t::replace);
  const auto write = [&](const nlohmann::json& value) { writer.dump(value, false, false, 0); };
  try {
    constexpr std::string_view kOpen = "{\"requestMetadata\":";
    text->write_characters(kOpen.data(), kOpen.size());
    write(meta);
    const auto& body = response.body;
    if (body.is_object()) {
      for (auto it = body.begin(); it != body.end(); ++it) {
        if (it.key() == "requestMetadata") continue;
        text->write_character(',');
        write(nlohmann::json(it.key()));
        text->write_character(':');
        if (cut && it.key() == *cut) {
          cut_at = out.size();
          continue;
        }
        write(it.value());
      }
    }
    text->write_character('}');
  } catch (const PastLimit&) {
    throw Error(ErrorCode::AnswerTooLarge,
                "the answer would be larger than the " + std::to_string(max_bytes) +
                    " bytes an answer may take: ask for fewer outputs (or, for job results, "
                    "fewer rows with 'limit')",
                "render_json stopped at " + std::to_string(out.size()) + " bytes");
  }
  return {std::move(out), cut_at};
}

}  // namespace

std::string render_json(const Request& request, const Response& response, std::size_t max_bytes) {
  return render_cut(request, response, nullptr, max_bytes).first;
}

std::pair<std::string, std::string> render_json_around(const Request& request,
                                                       const Response& response,
                                                       const std::string& key) {
  auto [text, at] = render_cut(request, response, &key, std::numeric_limits<std::size_t>::max());
  if (at == std::string::npos) return {std::move(text), std::string()};
  std::string after = text.substr(at);
  text.resize(at);
  return {std::move(text), std::move(after)};
}

std::size_t max_answer_bytes(const Config& config) {
  const long long max = config.get_int("max_answer_bytes", kDefaultMaxAnswerBytes);
  if (max < kLeastMaxAnswerBytes) {
    Config::refuse("max_answer_bytes", "must be at least " + std::to_string(kLeastMaxAnswerBytes));
  }
  return static_cast<std::size_t>(max);
}

void render_within(const Request& request, Response& response, std::size_t max_bytes) {
  if (response.raw_body || response.pieces) return;
  response.raw_body = render_json(request, response, max_bytes);
  response.content_type = "application/json";
  response.body = nlohmann::json::object();  // the text holds it now
}

Response error_response(const Request& request, const gleaner::Error& error) {
  Response r;
  r.status = http_status(error.code());
  r.error_code = code_name(error.code());
  nlohmann::json e = {{"code", r.error_code}, {"message", error.what()}};
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
