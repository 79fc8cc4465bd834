#pragma once
// One line per event on stderr: `2026-11-21T02:03:04.123Z INFO  pool  message`.
// Usage: `log::info("pool") << "restarted browser " << id;`. Never log an API key.
#include <functional>
#include <sstream>
#include <string>
#include <string_view>

namespace gleaner::log {

enum class Level { Debug = 0, Info = 1, Warn = 2, Error = 3 };
/// Text: `time LEVEL component  message`. Json: one object per line for log shippers,
/// {"time","level","component","message"} and "requestId" on every line of a request.
enum class Format { Text, Json };

void set_level(Level level);
bool enabled(Level level);
/// Parses `debug`, `info`, `warn`, `error`; throws std::invalid_argument otherwise.
Level parse_level(std::string_view name);
void set_format(Format format);
/// Parses `text`, `json` (GLEANER_LOG_FORMAT); throws std::invalid_argument otherwise.
Format parse_format(std::string_view name);

/// While it lives, every line the constructing thread writes belongs to request `id` (the JSON
/// format writes it as "requestId"). The HTTP server opens one around each request's handler.
class RequestScope {
 public:
  explicit RequestScope(std::string id);
  ~RequestScope();
  RequestScope(const RequestScope&) = delete;
  RequestScope& operator=(const RequestScope&) = delete;

 private:
  std::string previous_;
};

/// Replaces where lines go (default: stderr). Tests capture with it; pass {} to restore.
void set_sink(std::function<void(std::string_view line)> sink);
/// Writes one line. Control characters in `component` and `message` are escaped (`\n`, `\x00`),
/// so a value a client controls can never start a line of its own.
///
/// Repeated lines are limited: the same line (level, component and message alike) is written at
/// most kRepeatsPerSecond times a second; the repeats past that are counted, and the count is
/// written ("… repeated N more times") with the first line written after that second. A loop
/// that fails fast (an accept loop out of descriptors) thus costs a few lines a second, not
/// hundreds of thousands.
void write(Level level, std::string_view component, std::string_view message);
inline constexpr int kRepeatsPerSecond = 10;
/// The same limit for lines that differ (each names its request) but are of one kind, e.g.
/// "connection refused at accept": false once kRepeatsPerSecond lines of `kind` were allowed this
/// second; the rest are counted and the count written as for repeated lines.
bool allow(std::string_view kind);
/// The escaping `write` applies: `\n`, `\r`, `\t`, `\xNN` for the other control characters.
std::string escape(std::string_view text);

/// Collects one line and writes it when destroyed.
class Line {
 public:
  Line(Level level, std::string_view component) : level_(level), component_(component) {}
  Line(const Line&) = delete;
  Line& operator=(const Line&) = delete;
  ~Line() {
    if (enabled(level_)) write(level_, component_, out_.str());
  }
  template <typename T>
  Line& operator<<(const T& value) {
    if (enabled(level_)) out_ << value;
    return *this;
  }

 private:
  Level level_;
  std::string_view component_;
  std::ostringstream out_;
};

inline Line debug(std::string_view component) { return Line(Level::Debug, component); }
inline Line info(std::string_view component) { return Line(Level::Info, component); }
inline Line warn(std::string_view component) { return Line(Level::Warn, component); }
inline Line error(std::string_view component) { return Line(Level::Error, component); }

}  // namespace gleaner::log
