#include "core/log.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <unordered_map>
#include <vector>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

namespace gleaner::log {
namespace {

std::atomic<int> g_level{static_cast<int>(Level::Info)};
std::atomic<int> g_format{static_cast<int>(Format::Text)};
thread_local std::string t_request_id;  // the request this thread works for, "" when none
std::mutex g_mutex;  // guards g_sink and g_repeats, and serialises writes to stderr
std::function<void(std::string_view)> g_sink;

/// Lines (or kinds of line) written and suppressed in the current second.
struct Repeats {
  struct Count {
    int written = 0;
    long long suppressed = 0;
  };
  std::chrono::steady_clock::time_point second_began{};
  std::unordered_map<std::string, Count> counts;
};
Repeats g_repeats;
/// Distinct lines remembered per second; past it, new ones are written without counting (every
/// request's line differs, and a busy second must not grow the table without end).
constexpr std::size_t kRememberedLines = 4096;

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

/// The length of the UTF-8 C1 control or U+2028/U+2029 at the start of `text`, else 0.
std::size_t line_break_length(std::string_view text) {
  const auto at = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  if (text.size() >= 2 && at(0) == 0xc2 && at(1) >= 0x80 && at(1) <= 0x9f) return 2;
  if (text.size() >= 3 && at(0) == 0xe2 && at(1) == 0x80 && (at(2) == 0xa8 || at(2) == 0xa9)) {
    return 3;
  }
  return 0;
}

/// `\uXXXX` for one character line_break_length() found.
std::string unicode_escape(std::string_view character) {
  static constexpr char kHex[] = "0123456789abcdef";
  const unsigned code = character.size() == 2
                            ? static_cast<unsigned char>(character[1])
                            : 0x2000u + (static_cast<unsigned char>(character[2]) - 0x80u);
  std::string out = "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(code >> shift) & 0xf];
  return out;
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
// is written as a visible escape. Bytes from 0x80 up pass as they are (UTF-8 text), except the
// characters some readers take for line ends too: the C1 controls (U+0080 to U+009F, NEL among
// them) and U+2028, U+2029, written `\u0085`, `\u2028`.
void append_escaped(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    auto byte = static_cast<unsigned char>(ch);
    if (const std::size_t n = line_break_length(text.substr(i))) {
      out += unicode_escape(text.substr(i, n));
      i += n - 1;
    } else if (byte >= 0x20 && byte != 0x7f) {
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

namespace {

/// Writes a finished line (g_mutex held).
void emit(std::string line) {
  if (g_sink) {
    g_sink(line);
    return;
  }
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), stderr);
}

std::string format(Level level, std::string_view component, std::string_view message);

/// Whether a line under `key` may be written now (g_mutex held). When a new second begins, the
/// counts of the last one's suppressed lines are written first.
bool admit(const std::string& key) {
  const auto now = std::chrono::steady_clock::now();
  if (now - g_repeats.second_began >= std::chrono::seconds(1)) {
    std::vector<std::pair<std::string, long long>> suppressed;
    for (const auto& [k, count] : g_repeats.counts) {
      if (count.suppressed > 0) suppressed.emplace_back(k, count.suppressed);
    }
    g_repeats.counts.clear();
    g_repeats.second_began = now;
    for (const auto& [k, n] : suppressed) {
      emit(format(Level::Warn, "log",
                  "… repeated " + std::to_string(n) + " more times in a second: " + k));
    }
  }
  auto it = g_repeats.counts.find(key);
  if (it == g_repeats.counts.end()) {
    if (g_repeats.counts.size() < kRememberedLines) g_repeats.counts[key].written = 1;
    return true;
  }
  if (it->second.written < kRepeatsPerSecond) {
    ++it->second.written;
    return true;
  }
  ++it->second.suppressed;
  return false;
}

std::string format(Level level, std::string_view component, std::string_view message) {
  std::string line;
  if (g_format.load() == static_cast<int>(Format::Json)) {
    nlohmann::ordered_json object = {{"time", timestamp()},
                                     {"level", parse_name(level)},
                                     {"component", component}};
    if (!t_request_id.empty()) object["requestId"] = t_request_id;
    object["message"] = message;
    // JSON escapes every control character itself; bytes that are not UTF-8 become U+FFFD.
    const std::string dumped = object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    // JSON allows them raw in strings, but a reader splitting on them would cut the line.
    for (std::size_t i = 0; i < dumped.size(); ++i) {
      if (const std::size_t n = line_break_length(std::string_view(dumped).substr(i))) {
        line += unicode_escape(std::string_view(dumped).substr(i, n));
        i += n - 1;
      } else {
        line += dumped[i];
      }
    }
  } else {
    line = timestamp();
    line += ' ';
    line += level_name(level);
    line += ' ';
    append_escaped(line, component);
    line += "  ";
    append_escaped(line, message);
  }
  return line;
}

}  // namespace

void write(Level level, std::string_view component, std::string_view message) {
  std::string line = format(level, component, message);
  std::string key(parse_name(level));
  key += ' ';
  key += component;
  key += "  ";
  key += message;
  std::lock_guard lock(g_mutex);
  if (!admit(key)) return;
  emit(std::move(line));
}

bool allow(std::string_view kind) {
  std::lock_guard lock(g_mutex);
  return admit("lines of kind \"" + std::string(kind) + "\"");
}

}  // namespace gleaner::log
