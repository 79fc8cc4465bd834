// The crawler's pure parts: URL canonicalisation, robots.txt, sitemaps, and the page jobs'
// bodies (validated by /scrape/web's own parser for every /scrape/web field).
#include <gtest/gtest.h>
#include <zlib.h>

#include "core/error.h"
#include "jobs/crawl_url.h"
#include "jobs/page_job_request.h"
#include "jobs/page_worker.h"
#include "jobs/robots.h"
#include "jobs/sitemap.h"

namespace gleaner::jobs {
namespace {

using nlohmann::json;

std::string canonical(const std::string& url) {
  const auto u = parse_crawl_url(url);
  return u ? u->str() : "<none>";
}

TEST(CrawlUrl, CanonicalFormDropsWhatDoesNotNameAnotherPage) {
  EXPECT_EQ(canonical("HTTPS://Example.COM:443/a/b?x=1#part"), "https://example.com/a/b?x=1");
  EXPECT_EQ(canonical("http://example.com:80"), "http://example.com/");
  EXPECT_EQ(canonical("http://example.com:8080/"), "http://example.com:8080/");
  EXPECT_EQ(canonical("https://example.com:80/"), "https://example.com:80/");
  EXPECT_EQ(canonical("https://user:pw@example.com./p"), "https://example.com/p");
  EXPECT_EQ(canonical("https://[::1]:8443/p?q"), "https://[::1]:8443/p?q");
  // The path and the query are kept as they are: their case and order can matter to the site.
  EXPECT_EQ(canonical("https://example.com/A?b=2&a=1"), "https://example.com/A?b=2&a=1");
  EXPECT_EQ(canonical("ftp://example.com/"), "<none>");
  EXPECT_EQ(canonical("/relative"), "<none>");
  EXPECT_EQ(canonical("https://example.com:x/"), "<none>");
  const auto u = parse_crawl_url("https://Shop.Example.com:8443/p?q=1");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->origin(), "https://shop.example.com:8443");
  EXPECT_EQ(u->path_and_query(), "/p?q=1");
}

TEST(CrawlUrl, Subdomains) {
  EXPECT_TRUE(same_or_subdomain("example.com", "example.com"));
  EXPECT_TRUE(same_or_subdomain("blog.example.com", "example.com"));
  EXPECT_FALSE(same_or_subdomain("badexample.com", "example.com"));
  EXPECT_FALSE(same_or_subdomain("example.com", "blog.example.com"));
}

TEST(Robots, OurGroupElseStarLongestMatchWins) {
  const RobotsTxt robots = RobotsTxt::parse(
      "# comment\n"
      "User-agent: otherbot\n"
      "Disallow: /\n"
      "\n"
      "User-agent: *\n"
      "Disallow: /private\n"
      "Allow: /private/open\n"
      "Disallow: /*.pdf$\n"
      "Crawl-delay: 1.5\n"
      "Sitemap: https://example.com/sitemap_index.xml\n");
  EXPECT_TRUE(robots.allowed("/"));
  EXPECT_FALSE(robots.allowed("/private"));
  EXPECT_FALSE(robots.allowed("/private/x"));
  EXPECT_TRUE(robots.allowed("/private/open/x"));
  EXPECT_FALSE(robots.allowed("/docs/a.pdf"));
  EXPECT_TRUE(robots.allowed("/docs/a.pdf?download=1"));
  ASSERT_TRUE(robots.crawl_delay());
  EXPECT_EQ(robots.crawl_delay()->count(), 1500);
  EXPECT_EQ(robots.sitemaps(), std::vector<std::string>{"https://example.com/sitemap_index.xml"});

  const RobotsTxt ours = RobotsTxt::parse(
      "User-agent: *\nDisallow: /\n\nUser-agent: Gleaner\nUser-agent: other\nDisallow: /no\n");
  EXPECT_TRUE(ours.allowed("/yes"));
  EXPECT_FALSE(ours.allowed("/no/x"));
  EXPECT_FALSE(ours.crawl_delay());
  EXPECT_TRUE(RobotsTxt::parse("User-agent: *\nDisallow:\n").allowed("/anything"));
  EXPECT_TRUE(RobotsTxt::allow_all().allowed("/x"));
}

TEST(Robots, Wildcards) {
  EXPECT_TRUE(robots_pattern_matches("/a*b", "/a/x/b/c"));
  EXPECT_TRUE(robots_pattern_matches("/a*b$", "/a/x/b"));
  EXPECT_FALSE(robots_pattern_matches("/a*b$", "/a/x/b/c"));
  EXPECT_TRUE(robots_pattern_matches("*", "/"));
  EXPECT_FALSE(robots_pattern_matches("/b", "/a"));
  EXPECT_TRUE(robots_pattern_matches("/$", "/"));
  EXPECT_FALSE(robots_pattern_matches("/$", "/a"));
}

TEST(Sitemap, UrlsetAndIndex) {
  const Sitemap set = parse_sitemap(
      "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
      "<url><loc> https://example.com/a?x=1&amp;y=2 </loc><lastmod>2024-01-01</lastmod></url>"
      "<url><loc><![CDATA[https://example.com/b]]></loc></url></urlset>");
  EXPECT_FALSE(set.index);
  EXPECT_EQ(set.locations,
            (std::vector<std::string>{"https://example.com/a?x=1&y=2", "https://example.com/b"}));
  const Sitemap index = parse_sitemap(
      "<sitemapindex><sitemap><loc>https://example.com/s1.xml.gz</loc></sitemap></sitemapindex>");
  EXPECT_TRUE(index.index);
  EXPECT_EQ(index.locations, std::vector<std::string>{"https://example.com/s1.xml.gz"});
  EXPECT_TRUE(parse_sitemap("<html><body><loc>x</loc></body></html>").locations.empty());
}

/// `data` as a gzip file's bytes.
std::string gzip_of(const std::string& data) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY),
            Z_OK);
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

TEST(Sitemap, AGzipBombIsDecompressedUpToTheCapAndNoFurther) {
  // 64 MiB of spaces after a urlset's start: about 64 KiB compressed.
  const std::string head = "<urlset><url><loc>https://example.com/a</loc></url>";
  const std::string bomb = gzip_of(head + std::string(64 << 20, ' '));
  ASSERT_LT(bomb.size(), 1u << 20);
  bool truncated = false;
  const std::string text = gunzip_at_most(bomb, 1 << 20, truncated);
  EXPECT_TRUE(truncated);
  EXPECT_EQ(text.size(), 1u << 20);
  EXPECT_EQ(parse_sitemap(text).locations, std::vector<std::string>{"https://example.com/a"});
  // A small file whole; bytes that are not gzip as they are.
  EXPECT_EQ(gunzip_at_most(gzip_of(head), 1 << 20, truncated), head);
  EXPECT_FALSE(truncated);
  EXPECT_EQ(gunzip_at_most(head, 1 << 20, truncated), head);
  EXPECT_FALSE(truncated);
  // A stream cut short gives what decompressed before the cut.
  const std::string whole = gzip_of(std::string(100000, 'x'));
  EXPECT_LE(gunzip_at_most(whole.substr(0, whole.size() / 2), 1 << 20, truncated).size(), 100000u);
}

TEST(Sitemap, ReadsAtMostTheProtocolsFiftyThousandUrls) {
  std::string xml = "<urlset>";
  for (std::size_t i = 0; i < kMaxSitemapUrls + 10; ++i) {
    xml += "<url><loc>https://example.com/p" + std::to_string(i) + "</loc></url>";
  }
  xml += "</urlset>";
  const Sitemap map = parse_sitemap(xml);
  ASSERT_EQ(map.locations.size(), kMaxSitemapUrls);
  EXPECT_EQ(map.locations.back(), "https://example.com/p" + std::to_string(kMaxSitemapUrls - 1));
  // An empty location is no location, CDATA or not (found by fuzz_sitemap).
  EXPECT_TRUE(
      parse_sitemap("<urlset><url><loc><![CDATA[ ]]></loc></url><url><loc> </loc></url></urlset>")
          .locations.empty());
}

const UrlCheck kAnyWebhook = [](const std::string&, const std::string&) {};

std::pair<ErrorCode, std::string> refusal(const std::function<void()>& parse) {
  try {
    parse();
  } catch (const Error& e) {
    return {e.code(), e.parameter().value_or("")};
  }
  return {ErrorCode::Internal, "accepted"};
}

TEST(PageJobRequest, BatchTakesWebFieldsAndRefusesOrSkipsInvalidUrls) {
  const auto batch = PageJobRequest::parse_batch(
      json({{"urls", {"https://a.example/1", "https://b.example/2"}},
            {"outputFormat", {"markdown"}},
            {"timeout", 5000}})
          .dump(),
      Millis(60000), kAnyWebhook);
  EXPECT_EQ(batch.urls.size(), 2u);
  const web::WebRequest page = batch.page_request("https://a.example/1", Millis(60000));
  EXPECT_TRUE(page.markdown);
  EXPECT_FALSE(page.html);
  EXPECT_EQ(page.timeout, Millis(5000));

  const json bad = {{"urls", {"https://ok.example/", "notaurl", "file:///etc/passwd"}}};
  try {
    PageJobRequest::parse_batch(bad.dump(), Millis(60000), kAnyWebhook);
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidParameter);
    EXPECT_EQ(e.parameter(), "urls");
    const std::string message = e.what();
    EXPECT_NE(message.find("urls[1] 'notaurl'"), std::string::npos) << message;
    EXPECT_NE(message.find("urls[2] 'file:///etc/passwd'"), std::string::npos) << message;
    EXPECT_EQ(message.find("ok.example"), std::string::npos) << message;
  }
  json skip = bad;
  skip["ignoreInvalidURLs"] = true;
  const auto skipped = PageJobRequest::parse_batch(skip.dump(), Millis(60000), kAnyWebhook);
  EXPECT_EQ(skipped.urls, std::vector<std::string>{"https://ok.example/"});
  EXPECT_EQ(skipped.invalid_urls, (std::vector<std::string>{"notaurl", "file:///etc/passwd"}));
  const json stored = skipped.to_json();
  EXPECT_EQ(stored["invalidUrls"], json({"notaurl", "file:///etc/passwd"}));
  EXPECT_EQ(PageJobRequest::from_json(kind::kBatch, stored).to_json(), stored);

  // /scrape/web's own parser names the field; a jsScenario is refused; so is a lone `url`.
  EXPECT_EQ(refusal([] {
              PageJobRequest::parse_batch(
                  json({{"urls", {"https://a.example/"}}, {"outputFormat", {"pdf"}}}).dump(),
                  Millis(60000), kAnyWebhook);
            }),
            std::make_pair(ErrorCode::InvalidParameter, std::string("outputFormat")));
  EXPECT_EQ(refusal([] {
              PageJobRequest::parse_batch(
                  json({{"urls", {"https://a.example/"}},
                        {"headers", {{"X-Long", std::string(4097, 'v')}}}})
                      .dump(),
                  Millis(60000), kAnyWebhook);
            }),
            std::make_pair(ErrorCode::InvalidParameter, std::string("headers.X-Long")));
  EXPECT_EQ(refusal([] {
              PageJobRequest::parse_batch(
                  json({{"urls", {"https://a.example/"}}, {"colour", "red"}}).dump(),
                  Millis(60000), kAnyWebhook);
            }),
            std::make_pair(ErrorCode::InvalidParameter, std::string("colour")));
  EXPECT_EQ(refusal([] {
              PageJobRequest::parse_batch(
                  json({{"urls", {"https://a.example/"}}, {"jsScenario", json::array()}}).dump(),
                  Millis(60000), kAnyWebhook);
            }),
            std::make_pair(ErrorCode::InvalidParameter, std::string("jsScenario")));
  // A batch may run in a session (docs/sessions.md "Batches"), its fields checked as
  // /scrape/web checks them; a crawl may not.
  const json in_session = {{"urls", {"https://a.example/", "https://b.example/"}},
                           {"sessionId", "cart"},
                           {"sessionTtl", 600},
                           {"sessionQueue", 2}};
  const auto session_batch =
      PageJobRequest::parse_batch(in_session.dump(), Millis(60000), kAnyWebhook);
  EXPECT_TRUE(session_batch.in_session());
  const web::WebRequest row = session_batch.page_request("https://b.example/", Millis(60000));
  EXPECT_EQ(row.session_id, "cart");
  EXPECT_EQ(row.session_ttl, std::chrono::seconds(600));
  EXPECT_EQ(row.session_queue, 2);
  EXPECT_TRUE(PageJobRequest::from_json(kind::kBatch, session_batch.to_json()).in_session());
  EXPECT_FALSE(PageJobRequest::parse_batch(json({{"urls", {"https://a.example/"}}}).dump(),
                                           Millis(60000), kAnyWebhook)
                   .in_session());
  EXPECT_EQ(refusal([] {
              PageJobRequest::parse_batch(
                  json({{"urls", {"https://a.example/"}}, {"sessionId", "a/b"}}).dump(),
                  Millis(60000), kAnyWebhook);
            }),
            std::make_pair(ErrorCode::InvalidParameter, std::string("sessionId")));
  EXPECT_EQ(refusal([] {
              PageJobRequest::parse_batch(
                  json({{"urls", {"https://a.example/"}}, {"sessionTtl", 60}}).dump(),
                  Millis(60000), kAnyWebhook);
            }),
            std::make_pair(ErrorCode::InvalidParameter, std::string("sessionTtl")));
  EXPECT_EQ(refusal([] {
              PageJobRequest::parse_batch(json({{"urls", {"https://a.example/"}},
                                                {"sessionId", "cart"},
                                                {"jsRendering", false}})
                                              .dump(),
                                          Millis(60000), kAnyWebhook);
            }),
            std::make_pair(ErrorCode::InvalidParameter, std::string("sessionId")));
  for (const char* field : {"sessionId", "sessionTtl", "sessionQueue"}) {
    json crawl = {{"urls", {"https://a.example/"}}, {"sessionId", "cart"}};
    if (std::string(field) != "sessionId") crawl = {{"urls", {"https://a.example/"}}, {field, 5}};
    EXPECT_EQ(refusal([&] {
                PageJobRequest::parse_crawler(crawl.dump(), Millis(60000), kAnyWebhook);
              }),
              std::make_pair(ErrorCode::InvalidParameter, std::string(field)));
  }
  EXPECT_EQ(refusal([] {
              PageJobRequest::parse_batch(json({{"url", "https://a.example/"}}).dump(),
                                          Millis(60000), kAnyWebhook);
            }),
            std::make_pair(ErrorCode::InvalidParameter, std::string("url")));
  EXPECT_EQ(refusal([] {
              PageJobRequest::parse_batch(json({{"urls", json::array()}}).dump(), Millis(60000),
                                          kAnyWebhook);
            }),
            std::make_pair(ErrorCode::InvalidParameter, std::string("urls")));
  json too_many = {{"urls", json::array()}};
  for (std::size_t i = 0; i <= kMaxBatchUrls; ++i) {
    too_many["urls"].push_back("https://a.example/" + std::to_string(i));
  }
  EXPECT_EQ(refusal([&] { PageJobRequest::parse_batch(too_many.dump(), Millis(60000), kAnyWebhook); }),
            std::make_pair(ErrorCode::InvalidParameter, std::string("urls")));
}

TEST(PageJobRequest, CrawlerRulesValidatedAtCreation) {
  const auto crawl = PageJobRequest::parse_crawler(
      json({{"urls", {"https://example.com/"}},
            {"limit", 50},
            {"maxDepth", 2},
            {"includePaths", {"^/blog/"}},
            {"excludePaths", {"\\.pdf$"}},
            {"sitemap", "only"},
            {"delayMs", 100},
            {"maxConcurrency", 1},
            {"outputFormat", {"markdown"}}})
          .dump(),
      Millis(60000), kAnyWebhook);
  EXPECT_EQ(crawl.limit, 50);
  EXPECT_EQ(crawl.max_depth, 2);
  EXPECT_EQ(crawl.sitemap, "only");
  const json stored = crawl.to_json();
  EXPECT_EQ(PageJobRequest::from_json(kind::kCrawler, stored).to_json(), stored);
  EXPECT_EQ(stored["outputFormat"], json({"markdown"}));

  auto field_of = [](json body) {
    body["urls"] = {"https://example.com/"};
    return refusal([&] { PageJobRequest::parse_crawler(body.dump(), Millis(60000), kAnyWebhook); });
  };
  EXPECT_EQ(field_of({{"includePaths", {"(unclosed"}}}),
            std::make_pair(ErrorCode::InvalidParameter, std::string("includePaths[0]")));
  EXPECT_EQ(field_of({{"excludePaths", "x"}}),
            std::make_pair(ErrorCode::InvalidParameter, std::string("excludePaths")));
  EXPECT_EQ(field_of({{"limit", 0}}),
            std::make_pair(ErrorCode::InvalidParameter, std::string("limit")));
  EXPECT_EQ(field_of({{"limit", kMaxCrawlPages + 1}}),
            std::make_pair(ErrorCode::InvalidParameter, std::string("limit")));
  EXPECT_EQ(field_of({{"sitemap", "always"}}),
            std::make_pair(ErrorCode::InvalidParameter, std::string("sitemap")));
  EXPECT_EQ(field_of({{"maxConcurrency", 0}}),
            std::make_pair(ErrorCode::InvalidParameter, std::string("maxConcurrency")));
  EXPECT_EQ(field_of({{"waitFor", "a[["}}),
            std::make_pair(ErrorCode::InvalidParameter, std::string("waitFor")));
  EXPECT_EQ(refusal([] {
              PageJobRequest::parse_crawler(json({{"urls", {"javascript:alert(1)"}}}).dump(),
                                            Millis(60000), kAnyWebhook);
            }),
            std::make_pair(ErrorCode::InvalidParameter, std::string("urls[0]")));
}

// Issue 34: includePaths/excludePaths are a caller's patterns run over the paths of the pages a
// crawl finds. RE2 refuses what needs backtracking (lookaround, backreferences) at creation.
TEST(PageJobRequest, PathPatternsRE2RefusesAreA400NamingThem) {
  auto field_of = [](json body) {
    body["urls"] = {"https://example.com/"};
    return refusal([&] { PageJobRequest::parse_crawler(body.dump(), Millis(60000), kAnyWebhook); });
  };
  EXPECT_EQ(field_of({{"includePaths", {"^/blog/", "^/(?=docs)"}}}),
            std::make_pair(ErrorCode::InvalidParameter, std::string("includePaths[1]")));
  EXPECT_EQ(field_of({{"excludePaths", {"(?<!a)b"}}}),
            std::make_pair(ErrorCode::InvalidParameter, std::string("excludePaths[0]")));
  EXPECT_EQ(field_of({{"excludePaths", {"^/(a)\\1$"}}}),
            std::make_pair(ErrorCode::InvalidParameter, std::string("excludePaths[0]")));
  EXPECT_EQ(field_of({{"includePaths", {std::string(kMaxPathPatternLength + 1, 'a')}}}),
            std::make_pair(ErrorCode::InvalidParameter, std::string("includePaths[0]")));
  json too_many = json::array();
  for (std::size_t i = 0; i <= kMaxPathPatterns; ++i) too_many.push_back("/p" + std::to_string(i));
  EXPECT_EQ(field_of({{"excludePaths", too_many}}),
            std::make_pair(ErrorCode::InvalidParameter, std::string("excludePaths")));
  // The longest pattern is taken, and so is what RE2 reads as ECMAScript did.
  EXPECT_EQ(field_of({{"includePaths", {std::string(kMaxPathPatternLength, 'a'), "\\.pdf$",
                                        "^/(?:blog|news)/[0-9]{4}/", "(?i)^/docs/"}}}),
            std::make_pair(ErrorCode::Internal, std::string("accepted")));
}

// Finding 1: std::regex searched a long path recursively and overflowed the stack (SIGSEGV of
// the whole service, again at every restart while the job stayed leased).
TEST(PathRules, LongPathsNeitherCrashNorMatchPastTheCap) {
  const PathRules rules({"(a|b)*c"}, {});
  std::string path = "/";
  while (path.size() < 100'000) path += "ab";
  EXPECT_FALSE(rules.allowed(path + "c"));  // 100 KB: past the cap, left out untried
  std::string at_cap = "/";
  while (at_cap.size() < kMaxMatchedPathLength - 2) at_cap += "ab";
  EXPECT_TRUE(rules.allowed(at_cap + "c"));
  EXPECT_FALSE(rules.allowed(at_cap + "d"));
  // No rules: every path, however long, as before.
  EXPECT_TRUE(PathRules({}, {}).allowed(path));
}

// Finding 3: `^/(a+)+$` against a 41-character path kept a thread busy for ever.
TEST(PathRules, BacktrackingPatternsFinish) {
  const PathRules include({"^/(a+)+$"}, {});
  const PathRules exclude({}, {"^/(a+)+$", "(x+x+)+y"});
  const std::string path = "/" + std::string(64, 'a') + "!";
  EXPECT_FALSE(include.allowed(path));
  EXPECT_TRUE(exclude.allowed(path));
  EXPECT_TRUE(exclude.allowed("/" + std::string(5'000, 'x')));
  EXPECT_TRUE(include.allowed("/" + std::string(64, 'a')));
  EXPECT_FALSE(exclude.allowed("/" + std::string(64, 'a')));
}

TEST(PathRules, IncludeAndExclude) {
  const PathRules rules({"^/blog/", "^/news/"}, {"\\.pdf$"});
  EXPECT_TRUE(rules.allowed("/blog/a"));
  EXPECT_TRUE(rules.allowed("/news/b"));
  EXPECT_FALSE(rules.allowed("/shop/c"));
  EXPECT_FALSE(rules.allowed("/blog/d.pdf"));
  // A stored pattern RE2 refuses (a job created before RE2) matches nothing.
  EXPECT_FALSE(PathRules({"^/(?=blog)"}, {}).allowed("/blog/a"));
  EXPECT_TRUE(PathRules({}, {"^/(?=blog)"}).allowed("/blog/a"));
}

TEST(PageJobRequest, SeedsAreCanonicalStartPagesAndSitemaps) {
  const auto crawl = PageJobRequest::parse_crawler(
      json({{"urls", {"https://Example.com:443/#top", "https://example.com/about"}}}).dump(),
      Millis(60000), kAnyWebhook);
  const auto seeds = seeds_of(crawl);
  ASSERT_EQ(seeds.size(), 3u);
  EXPECT_EQ(seeds[0].key, "https://example.com/");
  EXPECT_EQ(seeds[0].kind, "page");
  EXPECT_EQ(seeds[1].key, "sitemap:https://example.com/sitemap.xml");
  EXPECT_EQ(seeds[1].kind, "sitemap");
  EXPECT_EQ(seeds[2].key, "https://example.com/about");

  auto only = crawl;
  only.sitemap = sitemap_mode::kOnly;
  ASSERT_EQ(seeds_of(only).size(), 1u);
  EXPECT_EQ(seeds_of(only)[0].kind, "sitemap");
  auto skip = crawl;
  skip.sitemap = sitemap_mode::kSkip;
  EXPECT_EQ(seeds_of(skip).size(), 2u);

  // A batch keeps the URL as given (its row shows it) and fetches each canonical URL once.
  const auto batch = PageJobRequest::parse_batch(
      json({{"urls", {"https://A.example/x#1", "https://a.example/x#2"}}}).dump(), Millis(60000),
      kAnyWebhook);
  const auto batch_seeds = seeds_of(batch);
  ASSERT_EQ(batch_seeds.size(), 2u);
  EXPECT_EQ(batch_seeds[0].url, "https://A.example/x#1");
  EXPECT_EQ(batch_seeds[0].key, batch_seeds[1].key);
}

}  // namespace
}  // namespace gleaner::jobs
