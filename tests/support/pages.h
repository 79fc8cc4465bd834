#pragma once
// The real pages the tests read, copied into the project beside their site's tests
// (tests/sites/<site>/pages/<category>/<file>, with tests/sites/<site>/pages/provenance.json) so a
// clone of the project alone runs every suite. New pages arrive in ../shared/fixtures/pages and
// are copied in with scripts/copy-page.py.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/regex.h"
#include "tests/support/replay_archive.h"

namespace gleaner::testing {

/// tests/sites/<site>/ of the source tree: a site's tests, its `data/` and `pages/`.
inline std::string site_tests_dir(std::string_view site) {
  return std::string(GLEANER_SOURCE_DIR) + "/tests/sites/" + std::string(site) + "/";
}

/// A real page of `site`: `file` is its path under pages/ ("serp/serp-parser_desktop_google.html").
inline std::string site_page(std::string_view site, std::string_view file) {
  return site_tests_dir(site) + "pages/" + std::string(file);
}

/// Every block page kept for any site (tests/sites/*/pages/blocks/*), sorted: a wall is
/// recognised whatever the site that sent it.
inline std::vector<std::string> block_pages() {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const auto& site :
       fs::directory_iterator(std::string(GLEANER_SOURCE_DIR) + "/tests/sites")) {
    const fs::path blocks = site.path() / "pages" / "blocks";
    if (!fs::is_directory(blocks)) continue;
    for (const auto& f : fs::directory_iterator(blocks)) out.push_back(f.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// A real page with some of its text rewritten, everything else kept byte for byte: a page of
/// the same layout whose data was taken out, or written as another language's site writes it.
/// `replace` holds [from, to] pairs (every occurrence) or [pattern, format, "regex"] (RE2,
/// `\1` in the format); a pair that matches nothing fails the test, so a rewrite never silently
/// stops applying.
inline std::string rewritten_page(const std::string& path, const nlohmann::json& replace) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string body = ss.str();
  EXPECT_FALSE(body.empty()) << path;
  for (const nlohmann::json& pair : replace) {
    const std::string from = pair.at(0).get<std::string>();
    const std::string to = pair.at(1).get<std::string>();
    if (pair.size() > 2 && pair.at(2) == "regex") {
      const Regex pattern(from);
      EXPECT_TRUE(pattern.search(body)) << "'" << from << "' matches nothing";
      body = pattern.replace_all(body, to);
      continue;
    }
    EXPECT_NE(body.find(from), std::string::npos) << "'" << from << "' is not in the page";
    for (std::size_t at = body.find(from); at != std::string::npos;
         at = body.find(from, at + to.size())) {
      body.replace(at, from.size(), to);
    }
  }
  return body;
}

/// A replay entry answering every URL that starts with `url_prefix` with
/// rewritten_page(`path`, `replace`).
inline TempReplayArchive::Entry rewritten_entry(const std::string& url_prefix,
                                                const std::string& path,
                                                const nlohmann::json& replace) {
  TempReplayArchive::Entry entry;
  entry.match = "prefix";
  entry.url = url_prefix;
  entry.file_name = "rewritten-" + std::filesystem::path(path).filename().string();
  entry.body = rewritten_page(path, replace);
  return entry;
}

}  // namespace gleaner::testing
