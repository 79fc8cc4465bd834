// robots.txt as a crawl reads it from any origin (jobs/robots.h). The input's first line is a
// path to ask about, the rest the file. Any text parses; a rule without wildcards matches itself.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "jobs/robots.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto newline = input.find('\n');
  const std::string_view path = input.substr(0, newline);
  const std::string_view text =
      newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);
  using namespace gleaner::jobs;
  const RobotsTxt robots = RobotsTxt::parse(text);
  (void)robots.allowed(path);
  (void)robots.allowed("/");
  (void)robots.crawl_delay();
  if (robots.sitemaps().size() > text.size()) __builtin_trap();
  if (path.find_first_of("*$") == std::string_view::npos && !robots_pattern_matches(path, path)) {
    __builtin_trap();
  }
  (void)robots_pattern_matches(path, text.substr(0, 4096));
  return 0;
}
