// The site kit's in-page prelude (extract/sites/common/prelude.js) in real Chromium, in the
// isolated world site scripts run in: each reader on real fixture pages where one carries the form
// (Booking's JSON-LD, Walmart's __NEXT_DATA__, Yellow Pages' window.__INITIAL_STATE__, Redfin's
// {}&&-prefixed API answers, Google Finance's AF_initDataCallback blobs, Glassdoor's Apollo cache
// and its App Router pages' server components' payload, character references in Redfin's JSON-LD
// and Walmart's __NEXT_DATA__),
// and on a page written here for the forms no fixture has (@graph, )]}' strings).
#include <gtest/gtest.h>

#include "core/error.h"
#include "extract/page_reader.h"
#include "extract/pool_tabs.h"
#include "tests/support/chromium.h"
#include "tests/support/pages.h"
#include "tests/support/replay_archive.h"

namespace gleaner::extract {
namespace {

using gleaner::testing::max_wait;
using gleaner::testing::shared_pool;
using gleaner::testing::TempReplayArchive;
using nlohmann::json;

// Runs `script` (a site script: `(args, kit) => ...`) on `url` answered by `archive`.
json run(TempReplayArchive& archive, const std::string& url, const std::string& script) {
  PoolTabs tabs(shared_pool(), {archive.load()});
  // The readers read what the server sent; the replayed pages' own scripts (their resources
  // missing) would only rewrite it while it is read.
  BrowserProfile profile;
  profile.run_scripts = false;
  auto tab = tabs.open(profile, max_wait());
  PageRequest request;
  request.url = url;
  request.wait = WaitFor::dom_content_loaded();
  try {
    return read_page(*tab, request, script, max_wait()).data;
  } catch (const Error& e) {
    ADD_FAILURE() << e.what() << ": " << e.detail();
    return nullptr;
  }
}

TEST(KitPrelude, JsonLdOfABookingHotelPage) {
  TempReplayArchive archive;
  archive.file(
      "https://www.booking.com/hotel/in/the-taj-mahal-palace-mumbai.html",
      gleaner::testing::site_page(
          "booking", "stays-place/booking-hotel-taj-mahal-palace-mumbai-dom-2026-02.html"));
  json out = run(archive, "https://www.booking.com/hotel/in/the-taj-mahal-palace-mumbai.html",
                 "(args, kit) => { const h = kit.jsonLd('Hotel'); return {n: h.length, "
                 "name: h[0].name, rating: h[0].aggregateRating.ratingValue, "
                 "canonical: kit.meta().canonical, title: kit.text('title')}; }");
  EXPECT_EQ(out["n"], 1);
  EXPECT_EQ(out["name"], "The Taj Mahal Palace, Mumbai");
  EXPECT_EQ(out["rating"], 9.2);
  EXPECT_EQ(out["canonical"], "https://www.booking.com/hotel/in/the-taj-mahal-palace-mumbai.html");
}

TEST(KitPrelude, NextDataOfAWalmartPage) {
  TempReplayArchive archive;
  const std::string url = "https://www.walmart.com/ip/Great-Value-Whole-Vitamin-D-Milk/10450114";
  archive.file(url, gleaner::testing::site_page(
                        "walmart", "mart-reviews/walmart-ip-great-value-milk-10450114-2026.html"));
  json out = run(archive, url,
                 "(args, kit) => { const r = kit.nextData().props.pageProps.initialData.data."
                 "reviews; return {avg: r.averageOverallRating, total: r.totalReviewCount}; }");
  EXPECT_EQ(out["avg"], 4.6);
  EXPECT_EQ(out["total"], 350534);
}

TEST(KitPrelude, WindowAssignmentsAndPrefixedJson) {
  TempReplayArchive archive;
  archive.file("https://www.yellowpages.com.au/search/listings?clue=plumber",
               gleaner::testing::site_page(
                   "yellowpages", "bizdir/yellowpages-com-au-search-plumber-cairns-2025-04.html"));
  json out = run(archive, "https://www.yellowpages.com.au/search/listings?clue=plumber",
                 "(args, kit) => { const s = kit.windowObject('__INITIAL_STATE__'); "
                 "return {results: s.model.inAreaResultViews.length, "
                 "first: s.model.inAreaResultViews[0].name}; }");
  EXPECT_GT(out["results"].get<int>(), 0);
  EXPECT_FALSE(out["first"].get<std::string>().empty());

  TempReplayArchive redfin;
  const std::string home = "https://www.redfin.ca/bc/vancouver/788-W-8th-Ave/home/1";
  redfin.file(home, gleaner::testing::site_page(
                        "redfin", "homes-property/redfin-home-788-w8th-vancouver-2026.html"));
  out = run(redfin, home,
            "(args, kit) => { const c = kit.windowObject('__reactServerState.InitialContext'); "
            "const cache = c['ReactServerAgent.cache'].dataCache; const parsed = Object.keys(cache)"
            ".map((k) => kit.prefixedJson(cache[k].res && cache[k].res.text)).filter((v) => v); "
            "return {entries: Object.keys(cache).length, parsed: parsed.length, "
            "version: parsed.find((p) => p.version).version}; }");
  EXPECT_GT(out["entries"].get<int>(), 0);
  EXPECT_GT(out["parsed"].get<int>(), 0);
  EXPECT_EQ(out["version"], 629);
}

TEST(KitPrelude, AfInitDataOfAFinancePage) {
  TempReplayArchive archive;
  const std::string url = "https://www.google.com/finance/quote/PETR4:BVMF?hl=pt";
  archive.file(
      url, gleaner::testing::site_page("google", "finance/sisacao8_quote_PETR4-BVMF_ptBR.html"));
  json out = run(archive, url, "(args, kit) => Object.keys(kit.afInitData()).sort()");
  ASSERT_TRUE(out.is_array());
  EXPECT_GE(out.size(), 2u);
  EXPECT_TRUE(out[0].get<std::string>().starts_with("ds:"));
}

TEST(KitPrelude, ApolloCacheReferencesResolved) {
  TempReplayArchive archive;
  const std::string url =
      "https://www.glassdoor.com/Reviews/Tata-Consultancy-Services-Reviews-E13461.htm";
  archive.file(url, gleaner::testing::site_page(
                        "glassdoor",
                        "careers/glassdoor-company-reviews-tcs-nextdata-apollocache-2025-10.html"));
  json out = run(archive, url,
                 "(args, kit) => { const cache = kit.apolloCache(); const root = "
                 "kit.resolveRefs(cache, cache.ROOT_QUERY, 2); const employer = "
                 "Object.values(root).find((v) => v && v.__typename === 'Employer'); "
                 "return {keys: Object.keys(cache).length, employer: employer && employer.id}; }");
  EXPECT_EQ(out["keys"], 108);
  EXPECT_EQ(out["employer"], 13461);
}

// The server components' payload of a Next.js App Router page (Glassdoor's search pages, 2025
// on): rows by id, objects found in them, references resolved. The French page's saved text row
// before row "c7" is shorter than it states: "c7" is found all the same (and row "56", after a
// text ending in the digits "58", keeps its id); "$$" is a literal "$"; a page of the Pages
// Router has no payload.
TEST(KitPrelude, NextFlightOfGlassdoorAppRouterPages) {
  TempReplayArchive archive;
  archive.file(
      "https://www.glassdoor.fr/Emploi/x.htm",
      gleaner::testing::site_page(
          "glassdoor", "careers/glassdoor-fr-data-scientist-intern-paris-app-router-2025-11.html"));
  archive.file("https://www.glassdoor.co.in/Job/x.htm",
               gleaner::testing::site_page(
                   "glassdoor",
                   "careers/glassdoor-co-in-software-qa-engineer-pune-app-router-2026-07.html"));
  archive.file(
      "https://www.glassdoor.com/Reviews/x.htm",
      gleaner::testing::site_page(
          "glassdoor", "careers/glassdoor-company-reviews-tcs-nextdata-apollocache-2025-10.html"));
  json fr = run(archive, "https://www.glassdoor.fr/Emploi/x.htm",
                "(args, kit) => { const f = kit.nextFlight(); const found = f.objects((o) => "
                "o.totalJobsCount !== undefined); const search = f.resolve(found[0], 8); "
                "return {found: found.length, total: search.totalJobsCount, listings: "
                "search.jobListings.length, rating: search.jobListings[0].jobview.header.employer"
                ".ratings.overallRating, c7: f.row('c7'), apply: f.row('56').slice(0, 24)}; }");
  EXPECT_EQ(fr["found"], 2);  // the same results, inline and by reference
  EXPECT_EQ(fr["total"], 266);
  EXPECT_EQ(fr["listings"], 30);
  EXPECT_EQ(fr["rating"], 3.7);
  EXPECT_EQ(fr["c7"], (json{{"overallRating", 3.7}}));
  EXPECT_EQ(fr["apply"], "/partner/jobListing.htm?");
  json in = run(archive, "https://www.glassdoor.co.in/Job/x.htm",
                "(args, kit) => { const f = kit.nextFlight(); const d = f.resolve(f.objects((o) "
                "=> o.jobOverview !== undefined)[0], 4); return {revenue: d.employerOverview"
                ".revenue, ratings: d.employerOverview.ratings.overallRating, description: "
                "d.jobOverview.description.slice(0, 3)}; }");
  EXPECT_EQ(in["revenue"], "$1 to $5 million (USD)");
  EXPECT_EQ(in["ratings"], 3.5);  // "$5f:companyRatings": a path into a row
  EXPECT_EQ(in["description"], "<p>");
  EXPECT_EQ(run(archive, "https://www.glassdoor.com/Reviews/x.htm",
                "(args, kit) => kit.nextFlight() === null"),
            true);
}

// Character references in strings sites embed in their JSON are decoded once by the kit, for
// every site: Redfin's JSON-LD descriptions ("Granville Island, &amp; rapid transit",
// "Orl&eacute;ans") and a URL in Walmart's __NEXT_DATA__ ("?native=false&amp;type=").
TEST(KitPrelude, CharacterReferencesInEmbeddedJsonAreDecodedOnEverySite) {
  const std::string ld_description =
      "(args, kit) => kit.jsonLd().map((o) => o.description).find((d) => typeof d === 'string' "
      "&& d.length > 100)";
  TempReplayArchive redfin;
  const std::string unit = "https://www.redfin.ca/bc/vancouver/788-W-8th-Ave/home/1";
  redfin.file(unit, gleaner::testing::site_page(
                        "redfin", "homes-property/redfin-home-788-w8th-vancouver-2026.html"));
  const json unit_text = run(redfin, unit, ld_description);
  ASSERT_TRUE(unit_text.is_string());
  EXPECT_NE(unit_text.get<std::string>().find("Granville Island, & rapid transit. 2 parking "
                                              "stalls & 1 storage locker"),
            std::string::npos)
      << unit_text;
  EXPECT_EQ(unit_text.get<std::string>().find("&amp;"), std::string::npos);

  TempReplayArchive ottawa;
  const std::string townhouse =
      "https://www.redfin.ca/on/ottawa/2083-Breezewood-St-K4A-4R7/home/149567261";
  ottawa.file(townhouse,
              gleaner::testing::site_page(
                  "redfin", "homes-property/redfin-ca-2083-breezewood-ottawa-raw-2026-02.html"));
  const json townhouse_text = run(ottawa, townhouse, ld_description);
  ASSERT_TRUE(townhouse_text.is_string());
  EXPECT_NE(townhouse_text.get<std::string>().find("East Village community of Orl\u00e9ans"),
            std::string::npos)
      << townhouse_text;

  TempReplayArchive walmart;
  const std::string milk = "https://www.walmart.com/ip/Great-Value-Whole-Vitamin-D-Milk/10450114";
  walmart.file(milk, gleaner::testing::site_page(
                         "walmart", "mart-reviews/walmart-ip-great-value-milk-10450114-2026.html"));
  const json url = run(walmart, milk,
                       "(args, kit) => kit.nextData().props.pageProps.bootstrapData.cv.account."
                       "_all_.ccpaNewRequestUrl");
  ASSERT_TRUE(url.is_string());
  EXPECT_NE(url.get<std::string>().find("?native=false&type="), std::string::npos) << url;
}

// The rules of that decoding, on a page written for the test: once (a reference to a reference
// stays one), numeric and named references, unknown names and references without ";" as written,
// and strings that are markup or JSON text left to whoever reads them as such.
TEST(KitPrelude, CharacterReferencesAreDecodedOnceAndOnlyInText) {
  TempReplayArchive archive;
  archive.page(
      "https://site.test/e",
      "<html><head><script type='application/ld+json'>{\"@type\":\"Restaurant\","
      "\"name\":\"Chimi&apos;s\",\"alternateName\":\"&amp;lt;3 &#233;&#xE9; &bogus; AT&amp T\","
      "\"description\":\"<p>A &amp; B</p>\",\"sameAs\":[\"https://x.test/?a=1&amp;b=2\"],"
      "\"nested\":\"{\\\"k\\\":\\\"&quot;\\\"}\"}</script>"
      "<script>window.STATE = {\"title\": \"Caf&eacute; &ndash; Bar\"};</script>"
      "</head><body><p>x</p></body></html>");
  json out = run(archive, "https://site.test/e",
                 "(args, kit) => { const r = kit.jsonLd('Restaurant')[0]; return {name: r.name, "
                 "alt: r.alternateName, description: r.description, sameAs: r.sameAs[0], "
                 "nested: r.nested, inner: kit.parseJson(r.nested).k, "
                 "title: kit.windowObject('STATE').title}; }");
  EXPECT_EQ(out["name"], "Chimi's");
  EXPECT_EQ(out["alt"], "&lt;3 \u00e9\u00e9 &bogus; AT&amp T");
  EXPECT_EQ(out["description"], "<p>A &amp; B</p>");
  EXPECT_EQ(out["sameAs"], "https://x.test/?a=1&b=2");
  EXPECT_EQ(out["nested"], "{\"k\":\"&quot;\"}");
  EXPECT_EQ(out["inner"], "\"");
  EXPECT_EQ(out["title"], "Caf\u00e9 \u2013 Bar");
}

TEST(KitPrelude, GraphArraysAndAntiHijackingPrefixes) {
  TempReplayArchive archive;
  // Written for this test, in schema.org's and the sites' documented forms.
  archive.page(
      "https://site.test/p",
      "<html><head><script type='application/ld+json'>{\"@context\":\"https://schema.org\","
      "\"@graph\":[{\"@type\":\"Organization\",\"name\":\"O\"},{\"@type\":[\"Restaurant\","
      "\"LocalBusiness\"],\"name\":\"R\"}]}</script><script type='application/ld+json'>"
      "[{\"@type\":\"BreadcrumbList\"},{\"@type\":\"Restaurant\",\"name\":\"S\"}]</script>"
      "<meta property='og:title' content='OG'></head><body><p>x</p>"
      "<a href='/rel'>r</a></body></html>");
  json out = run(archive, "https://site.test/p",
                 "(args, kit) => ({all: kit.jsonLd().length, "
                 "restaurants: kit.jsonLd(['Restaurant']).map((r) => r.name), og: kit.meta()"
                 "['og:title'], google: kit.prefixedJson(\")]}'\\n[1,2]\"), redfin: "
                 "kit.prefixedJson('{}&&{\"a\":1}'), none: kit.prefixedJson('x'), "
                 "abs: kit.abs(document.querySelector('a').getAttribute('href'))})");
  EXPECT_EQ(out["all"], 4);
  EXPECT_EQ(out["restaurants"], (json{"R", "S"}));
  EXPECT_EQ(out["og"], "OG");
  EXPECT_EQ(out["google"], (json{1, 2}));
  EXPECT_EQ(out["redfin"], (json{{"a", 1}}));
  EXPECT_EQ(out["none"], nullptr);
  EXPECT_EQ(out["abs"], "https://site.test/rel");
}

}  // namespace
}  // namespace gleaner::extract
