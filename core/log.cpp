#include "core/log.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

namespace gleaner::log {
namespace {

std::atomic<int> g_level{static_cast<int>(Level::Info)};
std::atomic<int> g_format{static_cast<int>(Format::Text)};
thread_local std::string t_request_id;  // the request this thread works for, "" when none
std::mutex g_mutex;  // guards g_sink and serialises writes to stderr
std::function<void(std::string_view)> g_sink;

std::string_view level_name(Level level) {
  switch (level) {
    case Level::Debug: return "DEBUG";
    case Level::Info: return "INFO ";
    case Level::Warn: return "WARN ";
    case Level::Error: return "ERROR";
  }
  return "?";
}

// The level as parse_level() reads it: "debug", "info", "warn", "error".
std::string_view parse_name(Level level) {
  switch (level) {
    case Level::Debug: return "debug";
    case Level::Info: return "info";
    case Level::Warn: return "warn";
    case Level::Error: return "error";
  }
  return "?";
}

std::string timestamp() {
  auto now = std::chrono::system_clock::now();
  auto secs = std::chrono::system_clock::to_time_t(now);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()) % 1000;
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(ms.count()));
  return buf;
}

// One event is one line: a control character (a decoded `%0a` in a path, a NUL in a header a
// client sent) would let whoever controls a logged value forge a line or cut one short, so each
// is written as a visible escape. Bytes from 0x80 up pass as they are (UTF-8 text).
void append_escaped(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (char ch : text) {
    auto byte = static_cast<unsigned char>(ch);
    if (byte >= 0x20 && byte != 0x7f) {
      out += ch;
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\r') {
      out += "\\r";
    } else if (ch == '\t') {
      out += "\\t";
    } else {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    }
  }
}

}  // namespace

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  append_escaped(out, text);
  return out;
}

void set_level(Level level) { g_level = static_cast<int>(level); }
void set_format(Format format) { g_format = static_cast<int>(format); }

Format parse_format(std::string_view name) {
  if (name == "text") return Format::Text;
  if (name == "json") return Format::Json;
  throw std::invalid_argument("unknown log format '" + std::string(name) + "' (text or json)");
}

RequestScope::RequestScope(std::string id) : previous_(std::exchange(t_request_id, std::move(id))) {}
RequestScope::~RequestScope() { t_request_id = std::move(previous_); }
bool enabled(Level level) { return static_cast<int>(level) >= g_level.load(); }

Level parse_level(std::string_view name) {
  if (name == "debug") return Level::Debug;
  if (name == "info") return Level::Info;
  if (name == "warn") return Level::Warn;
  if (name == "error") return Level::Error;
  throw std::invalid_argument("unknown log level '" + std::string(name) + "'");
}

void set_sink(std::function<void(std::string_view)> sink) {
  std::lock_guard lock(g_mutex);
  g_sink = std::move(sink);
}

void write(Level level, std::string_view component, std::string_view message) {
  std::string line;
  if (g_format.load() == static_cast<int>(Format::Json)) {
    nlohmann::ordered_json object = {{"time", timestamp()},
                                     {"level", parse_name(level)},
                                     {"component", component}};
    if (!t_request_id.empty()) object["requestId"] = t_request_id;
    object["message"] = message;
    // JSON escapes every control character itself; bytes that are not UTF-8 become U+FFFD.
    line = object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  } else {
    line = timestamp();
    line += ' ';
    line += level_name(level);
    line += ' ';
    append_escaped(line, component);
    line += "  ";
    append_escaped(line, message);
  }
  std::lock_guard lock(g_mutex);
  if (g_sink) {
    g_sink(line);
    return;
  }
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace gleaner::log
