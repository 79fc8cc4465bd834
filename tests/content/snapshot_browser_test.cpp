// snapshot.js in real Chromium: each page of tests/content/data/ served from a replay archive under
// its real URL, the script evaluated as the /scrape/web endpoint will, and its output compared with
// the recording the unit tests convert. A change to snapshot.js that changes what it returns fails
// here until the recordings are made again (tools/capture_snapshot.cjs).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "extract/content/markdown.h"
#include "extract/content/snapshot.h"
#include "tests/support/chromium.h"
#include "tests/support/pages.h"
#include "tests/support/replay_archive.h"

namespace gleaner::content {
namespace {

using gleaner::testing::max_wait;
using gleaner::testing::shared_pool;
using gleaner::testing::TempReplayArchive;
using json = nlohmann::json;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string data_path(const std::string& name) {
  return std::string(GLEANER_SOURCE_DIR) + "/tests/content/data/" + name;
}

/// The snapshot of `url`, answered with the file at `page_path`, in the viewport the recordings
/// were made in.
json snapshot_in_chromium(const std::string& url, const std::string& page_path,
                          const SnapshotParts& parts) {
  TempReplayArchive archive;
  archive.file(url, page_path);
  browser::ContextOptions options;
  options.interceptors.push_back(archive.load());
  browser::Viewport viewport;
  viewport.width = 1366;
  viewport.height = 900;
  options.viewport = viewport;
  auto lease = shared_pool().lease(options, max_wait());
  lease->navigate(url, browser::WaitSpec::load(), max_wait());
  std::string expression =
      "(" + std::string(snapshot_script()) + ")(" + snapshot_args(parts).dump() + ")";
  return parse_snapshot(lease->evaluate(expression, max_wait()));
}

SnapshotParts recorded_parts() {
  SnapshotParts parts;
  parts.text = true;
  parts.tree = true;
  parts.links = true;
  parts.meta = true;
  return parts;
}

/// Compares the parts the recordings keep; with GLEANER_RECORD=1 in the environment, rewrites the
/// recording first (review its diff before committing it).
void expect_same_as_recorded(const json& live, const std::string& recording) {
  constexpr const char* kParts[] = {"url", "baseUrl", "text", "tree", "links", "meta"};
  const char* record = std::getenv("GLEANER_RECORD");
  if (record != nullptr && std::string(record) == "1") {
    json parts = json::object();
    for (const char* part : kParts) parts[part] = live[part];
    std::ofstream(data_path(recording), std::ios::binary) << parts.dump();
  }
  json recorded = json::parse(read_file(data_path(recording)));
  for (const char* part : kParts) {
    EXPECT_EQ(live[part], recorded[part]) << part << " differs from " << recording;
  }
  EXPECT_FALSE(live.contains("errors")) << live["errors"].dump();
  EXPECT_FALSE(live.contains("truncated"));
}

TEST(SnapshotInChromium, ConstructsPageGivesTheRecordedSnapshotAndMarkdown) {
  json live = snapshot_in_chromium("https://example.org/guide/constructs.html",
                                   data_path("constructs.html"), recorded_parts());
  expect_same_as_recorded(live, "constructs.snapshot.json");
  std::string expected = read_file(data_path("constructs.md"));
  while (!expected.empty() && expected.back() == '\n') expected.pop_back();
  EXPECT_EQ(to_markdown(live["tree"]), expected);
}

/// The markdown of a page answered with `html` at `url`, through snapshot.js's tree.
std::string markdown_of_page(const std::string& url, const std::string& html) {
  TempReplayArchive archive;
  archive.page(url, html);
  browser::ContextOptions options;
  options.interceptors.push_back(archive.load());
  auto lease = shared_pool().lease(options, max_wait());
  lease->navigate(url, browser::WaitSpec::load(), max_wait());
  SnapshotParts parts;
  parts.tree = true;
  const json live = parse_snapshot(lease->evaluate(
      "(" + std::string(snapshot_script()) + ")(" + snapshot_args(parts).dump() + ")", max_wait()));
  return to_markdown(live["tree"]);
}

// turndown's "img with no alt" and "elements with a (nested) single void element", html2text's
// images: an http image on an https page (which Chromium loads upgraded to https) is written with
// the URL the page wrote, http; an https one and a srcset candidate keep theirs.
TEST(SnapshotInChromium, AnHttpImageOnAnHttpsPageKeepsItsHttpUrl) {
  EXPECT_EQ(markdown_of_page(
                "https://example.org/images.html",
                "<html><body><p><img src=\"http://example.com/logo.png\" /></p>"
                "<p><span><img src=\"https://example.com/secure.png\" alt=\"secure\"></span></p>"
                "<p><img srcset=\"http://example.com/small.png 1x\" alt=\"set\"></p>"
                "</body></html>"),
            "![](http://example.com/logo.png)\n\n![secure](https://example.com/secure.png)\n\n"
            "![set](http://example.com/small.png)");
}

// html2text's "img tag with link" and "url escaping": Chromium loads URLs that differ only by their
// #fragment as one resource, and every such image's currentSrc names the first; each is written
// with the src its page wrote. html2text's "empty img src": an empty src names no image (the
// element's src property would be the page's own URL).
TEST(SnapshotInChromium, EachImageKeepsTheSrcItsPageWrote) {
  EXPECT_EQ(markdown_of_page("https://example.org/fragments.html",
                             "<html><body><p><img src=\"http://example.com/350x150#(a)\" alt=\"a\">"
                             "<br><img src=\"http://example.com/350x150#b\" alt=\"b\">"
                             "<br><img src=\"https://example.com/350x150#c\" alt=\"c\"></p>"
                             "<p><img alt src width=\"1234\">text</p></body></html>"),
            "![a](http://example.com/350x150#\\(a\\))\\\n![b](http://example.com/350x150#b)\\\n"
            "![c](https://example.com/350x150#c)\n\ntext");
}

// turndown's "blank block elements": an empty <div> after text ends that line in the browser, so
// the text after it is a paragraph of its own; an empty <div> with no text before it changes
// nothing and is not sent.
TEST(SnapshotInChromium, AnEmptyBlockAfterTextEndsItsLine) {
  EXPECT_EQ(markdown_of_page("https://example.org/empty.html",
                             "<html><body><div>Text before <div></div> text after</div>"
                             "<div><div></div><span>alone</span> <div></div></div></body></html>"),
            "Text before\n\ntext after\n\nalone");
}

TEST(SnapshotInChromium, FixturePagesGiveTheRecordedSnapshots) {
  expect_same_as_recorded(
      snapshot_in_chromium(
          "https://www.google.com/search?q=top+hotels+london",
          gleaner::testing::site_page("google", "serp/serp-parser_desktop_top-hotels-london.html"),
          recorded_parts()),
      "serp_top-hotels-london.snapshot.json");
  expect_same_as_recorded(
      snapshot_in_chromium(
          "https://www.google.com/finance/quote/PETR4:BVMF?hl=pt-BR",
          gleaner::testing::site_page("google", "finance/sisacao8_quote_PETR4-BVMF_ptBR.html"),
          recorded_parts()),
      "finance_PETR4.snapshot.json");
}

TEST(SnapshotInChromium, HtmlHasTheDoctypeAndPartsAreCutAtTheLimit) {
  SnapshotParts parts;
  parts.html = true;
  parts.text = true;
  parts.tree = true;
  parts.max_chars = 300;
  json live = snapshot_in_chromium("https://example.org/guide/constructs.html",
                                   data_path("constructs.html"), parts);
  std::string html = live["html"];
  EXPECT_EQ(html.rfind("<!DOCTYPE html>\n<html lang=\"en-GB\">", 0), 0U) << html.substr(0, 60);
  EXPECT_EQ(html.size(), 300U);
  EXPECT_EQ(live["truncated"], (json{"html", "text", "tree"}));
  EXPECT_FALSE(live.contains("links"));
  EXPECT_FALSE(live.contains("meta"));
  // The cut tree is the page's beginning, still convertible.
  EXPECT_EQ(to_markdown(live["tree"]).rfind("[Home](https://example.org/)", 0), 0U);
}

TEST(SnapshotInChromium, ObjectAndStringOutputsAreTheSame) {
  SnapshotParts parts = recorded_parts();
  parts.as_string = false;
  json as_object = snapshot_in_chromium("https://example.org/guide/constructs.html",
                                        data_path("constructs.html"), parts);
  parts.as_string = true;
  json as_string = snapshot_in_chromium("https://example.org/guide/constructs.html",
                                        data_path("constructs.html"), parts);
  EXPECT_EQ(as_object, as_string);
}

}  // namespace
}  // namespace gleaner::content
