// Replay archives without a browser: matching rules, answers, the request log, broken archives.
#include "browser/replay.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "core/log.h"
#include "tests/support/pages.h"
#include "tests/support/replay_archive.h"

namespace gleaner::browser {
namespace {

using gleaner::testing::TempReplayArchive;

InterceptedRequest get(const std::string& url) {
  InterceptedRequest request;
  request.url = url;
  request.method = "GET";
  request.resource_type = "Document";
  return request;
}

TempReplayArchive::Entry entry(std::string match, std::string url, std::string body) {
  TempReplayArchive::Entry e;
  e.match = std::move(match);
  e.url = std::move(url);
  e.body = std::move(body);
  return e;
}

TEST(ReplayArchive, ExactMatchesOnlyTheWholeUrl) {
  TempReplayArchive archive;
  archive.page("https://example.com/a", "page a");
  auto replay = archive.load();
  auto hit = replay->answer("https://example.com/a");
  ASSERT_TRUE(hit.entry.has_value());
  EXPECT_EQ(*hit.entry, 0u);
  EXPECT_EQ(hit.response.status, 200);
  EXPECT_EQ(hit.response.body, "page a");
  EXPECT_FALSE(replay->answer("https://example.com/a?x=1").entry.has_value());
  EXPECT_FALSE(replay->answer("https://example.com/").entry.has_value());
}

TEST(ReplayArchive, PrefixMatchesUrlsThatStartWithIt) {
  TempReplayArchive archive;
  archive.add(entry("prefix", "https://www.youtube.com/watch?v=GJLlxj_dtq8", "watch"));
  auto replay = archive.load();
  EXPECT_TRUE(replay->answer("https://www.youtube.com/watch?v=GJLlxj_dtq8&hl=en").entry);
  EXPECT_TRUE(replay->answer("https://www.youtube.com/watch?v=GJLlxj_dtq8").entry);
  EXPECT_FALSE(replay->answer("https://www.youtube.com/watch?v=other").entry);
}

TEST(ReplayArchive, RegexMustMatchTheWholeUrl) {
  TempReplayArchive archive;
  archive.add(entry("regex", R"(https://www\.google\.com/search\?q=[^&]+&hl=en)", "serp"));
  auto replay = archive.load();
  EXPECT_TRUE(replay->answer("https://www.google.com/search?q=coffee&hl=en").entry);
  // A partial match is not enough: the pattern is anchored at both ends.
  EXPECT_FALSE(replay->answer("https://www.google.com/search?q=coffee&hl=en&gl=us").entry);
  EXPECT_FALSE(replay->answer("xhttps://www.google.com/search?q=coffee&hl=en").entry);
}

TEST(ReplayArchive, FirstMatchingEntryWins) {
  TempReplayArchive archive;
  archive.add(entry("prefix", "https://example.com/", "first"));
  archive.add(entry("exact", "https://example.com/page", "second"));
  auto replay = archive.load();
  auto hit = replay->answer("https://example.com/page");
  ASSERT_TRUE(hit.entry);
  EXPECT_EQ(*hit.entry, 0u);
  EXPECT_EQ(hit.response.body, "first");
}

TEST(ReplayArchive, UnmatchedRequestsGetTheArchivesStatus) {
  TempReplayArchive archive;
  archive.page("https://example.com/", "home").unmatched(410);
  auto replay = archive.load();
  auto miss = replay->answer("https://example.com/missing");
  EXPECT_FALSE(miss.entry.has_value());
  EXPECT_EQ(miss.response.status, 410);
}

TEST(ReplayArchive, UnmatchedDefaultsTo404) {
  TempReplayArchive archive;
  archive.page("https://example.com/", "home");
  EXPECT_EQ(archive.load()->answer("https://example.com/x").response.status, 404);
}

TEST(ReplayArchive, GzipFilesAreServedDecompressed) {
  TempReplayArchive archive;
  auto e = entry("exact", "https://example.com/data.json", R"({"big": "payload"})");
  e.file_name = "data.json";
  e.gzip = true;
  archive.add(e);
  auto hit = archive.load()->answer("https://example.com/data.json");
  EXPECT_EQ(hit.response.body, R"({"big": "payload"})");
  // The content type comes from the extension under the .gz.
  EXPECT_EQ(hit.response.headers.at("content-type"), "application/json; charset=utf-8");
}

TEST(ReplayArchive, ContentTypeFromTheFilesExtension) {
  EXPECT_EQ(ReplayArchive::content_type_for("pages/watch.html"), "text/html; charset=utf-8");
  EXPECT_EQ(ReplayArchive::content_type_for("a/b.JSON"), "application/json; charset=utf-8");
  EXPECT_EQ(ReplayArchive::content_type_for("feed.xml"), "text/xml; charset=utf-8");
  EXPECT_EQ(ReplayArchive::content_type_for("logo.png.gz"), "image/png");
  EXPECT_EQ(ReplayArchive::content_type_for("style.css"), "text/css; charset=utf-8");
  EXPECT_EQ(ReplayArchive::content_type_for("dir.v2/blob"), "application/octet-stream");
  EXPECT_EQ(ReplayArchive::content_type_for("blob.unknownext"), "application/octet-stream");
}

TEST(ReplayArchive, GivenStatusAndHeadersAreKept) {
  TempReplayArchive archive;
  auto e = entry("exact", "https://example.com/old", "");
  e.status = 301;
  e.headers = {{"Location", "https://example.com/new"}, {"Content-Type", "text/plain"}};
  archive.add(e);
  auto hit = archive.load()->answer("https://example.com/old");
  EXPECT_EQ(hit.response.status, 301);
  EXPECT_EQ(hit.response.headers.at("Location"), "https://example.com/new");
  // A content type given in any case is not doubled with one from the extension.
  EXPECT_EQ(hit.response.headers.count("content-type"), 0u);
  EXPECT_EQ(hit.response.headers.at("Content-Type"), "text/plain");
}

TEST(ReplayArchive, FixtureFilesAreServedByteForByte) {
  const std::string fixture = gleaner::testing::site_page(
      "google", "news/monument-watch_rss_search_bears-ears-monument_enUS.xml");
  std::ifstream in(fixture, std::ios::binary);
  std::string expected((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(expected.empty());
  TempReplayArchive archive;
  archive.file("https://news.google.com/rss/search?q=x", fixture);
  auto hit = archive.load()->answer("https://news.google.com/rss/search?q=x");
  EXPECT_EQ(hit.response.body, expected);
  EXPECT_EQ(hit.response.headers.at("content-type"), "text/xml; charset=utf-8");
}

TEST(ReplayArchive, DecideRecordsEachRequestWithItsEntry) {
  TempReplayArchive archive;
  archive.page("https://example.com/", "home");
  archive.page("https://example.com/about", "about");
  auto replay = archive.load();
  replay->decide(get("https://example.com/about"));
  replay->decide(get("https://example.com/nope"));
  auto decision = replay->decide(get("https://example.com/"));
  ASSERT_TRUE(decision.has_value());
  ASSERT_TRUE(std::holds_alternative<Fulfill>(*decision));
  EXPECT_EQ(std::get<Fulfill>(*decision).body, "home");

  auto log = replay->requests();
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0].url, "https://example.com/about");
  EXPECT_EQ(log[0].entry, std::optional<std::size_t>(1));
  EXPECT_EQ(log[1].url, "https://example.com/nope");
  EXPECT_FALSE(log[1].entry.has_value());
  EXPECT_EQ(log[1].status, 404);
  EXPECT_EQ(log[2].entry, std::optional<std::size_t>(0));
  replay->clear_requests();
  EXPECT_TRUE(replay->requests().empty());
}

TEST(ReplayArchive, RequestLogIsBounded) {
  TempReplayArchive archive;
  archive.page("https://example.com/", "home");
  auto replay = archive.load();
  log::set_level(log::Level::Warn);  // ten thousand request lines say nothing here
  for (std::size_t i = 0; i < ReplayArchive::kMaxRecorded + 5; ++i)
    replay->decide(get("https://example.com/" + std::to_string(i)));
  log::set_level(log::Level::Info);
  auto log = replay->requests();
  EXPECT_EQ(log.size(), ReplayArchive::kMaxRecorded);
  EXPECT_EQ(log.front().url, "https://example.com/5");  // the oldest went first
}

void expect_unusable(const std::string& dir, const std::string& why_contains) {
  try {
    ReplayArchive archive(dir);
    ADD_FAILURE() << "archive in " << dir << " was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Internal);
    EXPECT_NE(e.detail().find(why_contains), std::string::npos) << e.detail();
  }
}

TEST(ReplayArchive, BrokenArchivesAreRefusedNamingTheProblem) {
  TempReplayArchive archive;
  expect_unusable(archive.dir(), "index.json");  // not written yet

  const auto write_index = [&](const std::string& text) {
    std::ofstream(std::filesystem::path(archive.dir()) / "index.json") << text;
  };
  write_index(R"({"entries": [{"match": "exact", "url": "u", "file": "missing.html"}]})");
  expect_unusable(archive.dir(), "missing.html");
  write_index(R"({"entries": [{"match": "fuzzy", "url": "u", "file": "x"}]})");
  expect_unusable(archive.dir(), "entry 0");
  std::ofstream(std::filesystem::path(archive.dir()) / "x.html") << "x";
  write_index(R"({"entries": [{"match": "regex", "url": "(unclosed", "file": "x.html"}]})");
  expect_unusable(archive.dir(), "entry 0");
  write_index(R"({"entries": "no"})");
  expect_unusable(archive.dir(), "entries");
}

}  // namespace
}  // namespace gleaner::browser
