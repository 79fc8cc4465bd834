// GET /scrape/zillow/property end to end in real Chromium over the real saved property pages kept
// in pages/zillow-property. The 2025 page is in a mixed state: its title, canonical and h1 are
// 1064 E Rich St, but its property cache (`__NEXT_DATA__` → gdpClientCache), which the endpoint
// reads, holds 515-517 N Champion Ave (the page changed client-side before it was saved). The
// test asserts the cache's property, the one source the endpoint reads. The two 2026 pages hold
// the first query of the new pages (`ForSalePriorityQuery`): a Vancouver home in Canadian dollars
// and a McKinney, TX home saved with PerimeterX's challenge frame laid over it.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::zillow {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::requested;
using testing::run_in_chromium;

// The answer for the saved page `file` of `url`, asked for by its URL alone (a prefix entry would
// also answer the page's saved sub-resources with the page itself).
nlohmann::json property_of(const std::string& url, const std::string& file) {
  TempReplayArchive archive;
  TempReplayArchive::Entry page;
  page.url = url;
  page.source = gleaner::testing::site_page("zillow", "zillow-property/" + file);
  archive.add(std::move(page));
  return run_in_chromium(property_endpoint(), archive.load(), {{"url", url}}).body["property"];
}

const std::string kUrl =
    "https://www.zillow.com/homedetails/1064-E-Rich-St-Columbus-OH-43205/448533631_zpid/";

TEST(ZillowPropertyInChromium, ThePropertyCacheAsAPersonReadsIt) {
  // The page's URL only: a prefix entry would also answer its saved sub-resources
  // (`listing_without_bed_bath2_files/...`, some 300 of them) with the 1.5 MB page itself.
  TempReplayArchive archive;
  TempReplayArchive::Entry page;
  page.url = kUrl;
  page.source = gleaner::testing::site_page(
      "zillow", "zillow-property/zillow-homedetails-1064-e-rich-columbus-mixed-state-dom-2025.html");
  archive.add(std::move(page));
  auto replay = archive.load();
  auto result = run_in_chromium(property_endpoint(), replay,
                                {{"url", kUrl + "?utm=x"}, {"extractAgentEmails", "true"}});
  EXPECT_EQ(requested(*replay, "https://www.zillow.com/").front(), kUrl);
  const auto& p = result.body["property"];
  EXPECT_EQ(p["id"], 33855921);
  EXPECT_EQ(p["url"],
            "https://www.zillow.com/homedetails/515-517-N-Champion-Ave-Columbus-OH-43203/"
            "33855921_zpid/");
  EXPECT_EQ(p["status"], "FOR_SALE");
  EXPECT_EQ(p["homeType"], "MULTI_FAMILY");
  EXPECT_EQ(p["price"], 249900);
  EXPECT_EQ(p["currency"], "USD");
  EXPECT_EQ(p["lastSoldPrice"], 175000);
  EXPECT_EQ(p["beds"], 6);
  EXPECT_EQ(p["baths"], 6);
  EXPECT_EQ(p["yearBuilt"], 1920);
  EXPECT_EQ(p["address"]["street"], "515-517 N Champion Ave");
  EXPECT_EQ(p["address"]["city"], "Columbus");
  EXPECT_EQ(p["address"]["zipcode"], "43203");
  EXPECT_EQ(p["address"]["county"], "Franklin County");
  EXPECT_EQ(p["address"]["subdivision"], "Wetmore");
  EXPECT_EQ(p["geo"]["latitude"], 39.976776);
  EXPECT_EQ(p["area"]["lotAreaUnits"], "Square Feet");
  EXPECT_EQ(p["mlsId"], "5102031");
  EXPECT_EQ(p["daysOnZillow"], 102);
  EXPECT_EQ(p["views"], 364);
  EXPECT_EQ(p["saves"], 25);
  EXPECT_EQ(p["agentInfo"]["agentName"], "Kimberlee A McClellan");
  EXPECT_EQ(p["agentInfo"]["brokerName"], "Ai Brokers LLC");
  // Not among the attribution's fields but on its contact line, "800-933-1991 kimberlee@…".
  EXPECT_EQ(p["agentEmails"], nlohmann::json::array({"kimberlee@theaibrokers.com"}));
  ASSERT_EQ(p["priceHistory"].size(), 8u);
  EXPECT_EQ(
      p["priceHistory"][0],
      nlohmann::json({{"date", "2025-05-22"}, {"price", 249900}, {"event", "Listed for sale"}}));
  ASSERT_EQ(p["taxHistory"].size(), 22u);
  EXPECT_EQ(p["taxHistory"][0]["year"], 2023);
  EXPECT_EQ(p["taxHistory"][0]["taxPaid"], 3177.86);
  EXPECT_EQ(p["schools"]["highSchool"]["district"], "Columbus CSD - 2503");
  EXPECT_EQ(p["nearbySchools"][0]["name"], "Trevitt Elementary School");
  EXPECT_EQ(p["photos"].size(), 34u);
  EXPECT_EQ(p["parcelData"]["parcelId"], "01005290400");
  EXPECT_EQ(p["resoData"]["taxAnnualAmount"], 3590);
  EXPECT_TRUE(p["description"].get<std::string>().starts_with(
      "Seize the opportunity to own this exceptional duplex"));
}

TEST(ZillowPropertyInChromium, AVancouverHomeInCanadianDollars2026) {
  // "C$2,098,000 · 5 beds 3 baths 2,424 sqft · Built in 1930 · 1 day on Zillow | 39 views |
  // 4 saves": the year is in the listing's facts only on the 2026 pages.
  const auto p = property_of(
      "https://www.zillow.com/homedetails/3545-King-Edward-Ave-W-Vancouver-BC-V6S-1M4/"
      "460652473_zpid/",
      "zillow-homedetails-3545-king-edward-vancouver-canada-2026-02.html");
  EXPECT_EQ(p["id"], 460652473);
  EXPECT_EQ(p["status"], "FOR_SALE");
  EXPECT_EQ(p["homeType"], "SINGLE_FAMILY");
  EXPECT_EQ(p["price"], 2098000);
  EXPECT_EQ(p["currency"], "CAD");
  EXPECT_EQ(p["beds"], 5);
  EXPECT_EQ(p["baths"], 3);
  EXPECT_EQ(p["yearBuilt"], 1930);
  EXPECT_EQ(p["area"]["livingArea"], 2424);
  EXPECT_EQ(p["area"]["lotAreaValue"], 3920.4);
  EXPECT_EQ(p["address"]["street"], "3545 King Edward Ave W");
  EXPECT_EQ(p["address"]["city"], "Vancouver");
  EXPECT_EQ(p["address"]["state"], "BC");
  EXPECT_EQ(p["address"]["zipcode"], "V6S1M4");
  EXPECT_EQ(p["address"]["country"], "CAN");
  EXPECT_EQ(p["mlsId"], "R3092688");
  EXPECT_EQ(p["daysOnZillow"], 1);
  EXPECT_EQ(p["views"], 39);
  EXPECT_EQ(p["saves"], 4);
  EXPECT_EQ(p["agentInfo"]["agentName"], "Tom Gradecak");
  EXPECT_EQ(p["agentInfo"]["brokerName"], "WESTSIDE Tom Gradecak Realty Brokerage");
  EXPECT_EQ(p["photos"].size(), 40u);  // "See all 40 photos"
  EXPECT_TRUE(p["description"].get<std::string>().starts_with(
      "Charming 5 bed 2.5 bath located in the heart of Dunbar."));
}

TEST(ZillowPropertyInChromium, AHomeUnderPerimeterXsChallengeFrameIsRead2026) {
  // The page was saved with `iframe#px-captcha-modal` over it: the frame PerimeterX's client
  // lays over a real page, whose data is all there. "$450,000 · 3 beds 3 baths 2,285 sqft ·
  // Built in 1998 · $84/mo HOA · Zestimate $444,500 · Rent Zestimate $2,500/mo · Listed by:
  // Rich Milam 0531918 210-844-8683, Texas Premier Realty 210-844-8683".
  const auto p = property_of(
      "https://www.zillow.com/homedetails/304-Sparrow-Hawk-McKinney-TX-75072/53109906_zpid/",
      "zillow-homedetails-304-sparrow-hawk-mckinney-priority-query-2026-02.html");
  EXPECT_EQ(p["id"], 53109906);
  EXPECT_EQ(p["price"], 450000);
  EXPECT_EQ(p["currency"], "USD");
  EXPECT_EQ(p["beds"], 3);
  EXPECT_EQ(p["baths"], 3);
  EXPECT_EQ(p["area"]["livingArea"], 2285);
  EXPECT_EQ(p["yearBuilt"], 1998);
  EXPECT_EQ(p["fees"]["monthlyHoaFee"], 84);
  EXPECT_EQ(p["zestimate"]["zestimate"], 444500);
  EXPECT_EQ(p["zestimate"]["rentZestimate"], 2500);
  EXPECT_EQ(p["address"]["street"], "304 Sparrow Hawk");
  EXPECT_EQ(p["address"]["city"], "McKinney");
  EXPECT_EQ(p["address"]["zipcode"], "75072");
  EXPECT_EQ(p["address"]["parentRegion"], "Stonebridge Ranch");
  EXPECT_EQ(p["mlsId"], "21179033");
  EXPECT_EQ(p["views"], 372);
  EXPECT_EQ(p["saves"], 15);
  EXPECT_EQ(p["agentInfo"]["agentName"], "Rich Milam");
  EXPECT_EQ(p["agentInfo"]["agentPhoneNumber"], "210-844-8683");
  EXPECT_EQ(p["agentInfo"]["brokerName"], "Texas Premier Realty");
  EXPECT_EQ(p["agentInfo"]["brokerPhoneNumber"], "210-844-8683");
  EXPECT_EQ(p["photos"].size(), 29u);  // "See all 29 photos"
  // "Price history is unavailable. Tax history is unavailable."
  EXPECT_EQ(p["priceHistory"], nlohmann::json::array());
  EXPECT_EQ(p["taxHistory"], nlohmann::json::array());
}

TEST(ZillowPropertyInChromium, AColumbusHomeWhosePageAndCacheAgree2025) {
  // A page saved whole in June 2025 whose title, h1 and cache are the same home: "$250,000 ·
  // 215 Stockbridge Rd, Columbus, OH 43207 · 4 beds 2 baths 1,861 sqft · Built in 1973 · 0.25
  // Acres Lot · $247,500 Zestimate · 4 days on Zillow | 2,128 views | 235 saves · Listed by:
  // Alexander Richard Mayle 740-632-4999, Keller Williams Greater Cols · MLS#: 225018443 · See
  // all 41 photos", its price history "5/30/2025 Listed for sale $250,000 · 3/11/2025 Sold
  // $137,000 · 6/18/2018 Sold $90,000 …" and tax history "2023 $2,441 $55,090 · 2022 $2,119 …".
  const auto p = property_of(
      "https://www.zillow.com/homedetails/215-Stockbridge-Rd-Columbus-OH-43207/33902101_zpid/",
      "zillow-homedetails-215-stockbridge-columbus-dom-2025-06.html");
  EXPECT_EQ(p["id"], 33902101);
  EXPECT_EQ(p["status"], "FOR_SALE");
  EXPECT_EQ(p["homeType"], "SINGLE_FAMILY");
  EXPECT_EQ(p["price"], 250000);
  EXPECT_EQ(p["currency"], "USD");
  EXPECT_EQ(p["beds"], 4);
  EXPECT_EQ(p["baths"], 2);
  EXPECT_EQ(p["yearBuilt"], 1973);
  EXPECT_EQ(p["area"]["livingArea"], 1861);
  EXPECT_EQ(p["area"]["lotAreaValue"], 0.25);
  EXPECT_EQ(p["area"]["lotAreaUnits"], "Acres");
  EXPECT_EQ(p["address"]["street"], "215 Stockbridge Rd");
  EXPECT_EQ(p["address"]["zipcode"], "43207");
  EXPECT_EQ(p["address"]["county"], "Franklin County");
  EXPECT_EQ(p["mlsId"], "225018443");
  EXPECT_EQ(p["zestimate"]["zestimate"], 247500);
  EXPECT_EQ(p["daysOnZillow"], 4);
  EXPECT_EQ(p["views"], 2128);
  EXPECT_EQ(p["saves"], 235);
  EXPECT_EQ(p["agentInfo"]["agentName"], "Alexander Richard Mayle");
  EXPECT_EQ(p["agentInfo"]["agentPhoneNumber"], "740-632-4999");
  EXPECT_EQ(p["agentInfo"]["brokerName"], "Keller Williams Greater Cols");
  ASSERT_EQ(p["priceHistory"].size(), 10u);
  EXPECT_EQ(
      p["priceHistory"][0],
      nlohmann::json({{"date", "2025-05-30"}, {"price", 250000}, {"event", "Listed for sale"}}));
  EXPECT_EQ(p["priceHistory"][1],
            nlohmann::json({{"date", "2025-03-11"}, {"price", 137000}, {"event", "Sold"}}));
  EXPECT_EQ(p["priceHistory"][2]["price"], 90000);
  EXPECT_EQ(p["taxHistory"][0],
            nlohmann::json({{"year", 2023}, {"taxPaid", 2440.8}, {"value", 55090}}));
  EXPECT_EQ(p["taxHistory"][1]["value"], 40850);
  EXPECT_EQ(p["nearbySchools"][0]["name"], "Parsons Elementary School");
  EXPECT_EQ(p["nearbySchools"][0]["rating"], 2);
  EXPECT_EQ(p["photos"].size(), 41u);
  EXPECT_TRUE(p["description"].get<std::string>().starts_with(
      "Completely remodeled 4 bedroom, 2 bathroom ranch"));
}

TEST(ZillowPropertyInChromium, AHoustonTownhouseOfTheOlderLayout2021) {
  // A page of January 2021 as its project's notebook saved it (re-indented): the property cache
  // is `script#hdpApolloPreloadedData` → apiCache, whose first entry (`VariantQuery`) holds 43
  // facts and whose full render (`ForSaleDoubleScrollFullRenderQuery`) 208. "4512 Inker St #B,
  // Houston, TX 77007 | MLS #81812164 · $499,500 · 4 bd 4 ba 2,560 sqft · Townhouse · Time on
  // Zillow 1 day · Views 123 · Saves 3"; its history "1/8/2021 Listed for sale $499,500 ·
  // 3/23/2020 Listing removed $3,400 · 3/10/2020 Listed for rent $3,400".
  const auto p = property_of(
      "https://www.zillow.com/homedetails/4512-Inker-St-B-Houston-TX-77007/122896334_zpid/",
      "zillow-homedetails-4512-inker-st-houston-townhouse-apollo-2021-01.html");
  EXPECT_EQ(p["id"], 122896334);
  EXPECT_EQ(p["status"], "FOR_SALE");
  EXPECT_EQ(p["homeType"], "TOWNHOUSE");
  EXPECT_EQ(p["price"], 499500);
  EXPECT_EQ(p["beds"], 4);
  EXPECT_EQ(p["baths"], 4);
  EXPECT_EQ(p["yearBuilt"], 2014);
  EXPECT_EQ(p["area"]["livingArea"], 2560);
  EXPECT_EQ(p["area"]["lotSize"], 2482);
  EXPECT_EQ(p["address"]["street"], "4512 Inker St #B");
  EXPECT_EQ(p["address"]["city"], "Houston");
  EXPECT_EQ(p["address"]["zipcode"], "77007");
  EXPECT_EQ(p["address"]["county"], "Harris County");
  EXPECT_EQ(p["mlsId"], "81812164");
  EXPECT_EQ(p["datePosted"], "2021-01-08");
  EXPECT_EQ(p["daysOnZillow"], 1);
  EXPECT_EQ(p["views"], 123);
  EXPECT_EQ(p["saves"], 3);
  EXPECT_EQ(p["zestimate"]["zestimate"], 490659);
  EXPECT_EQ(p["zestimate"]["rentZestimate"], 3211);
  // Its attribution is empty: the listing's brokerage and poster.
  EXPECT_EQ(p["agentInfo"], nlohmann::json({{"agentName", "Doug English"},
                                            {"brokerName", "Doug English Properties"}}));
  ASSERT_EQ(p["priceHistory"].size(), 3u);
  EXPECT_EQ(
      p["priceHistory"][0],
      nlohmann::json({{"date", "2021-01-08"}, {"price", 499500}, {"event", "Listed for sale"}}));
  EXPECT_EQ(
      p["priceHistory"][2],
      nlohmann::json({{"date", "2020-03-10"}, {"price", 3400}, {"event", "Listed for rent"}}));
  ASSERT_EQ(p["taxHistory"].size(), 20u);
  EXPECT_EQ(p["taxHistory"][0],
            nlohmann::json({{"year", 2019}, {"taxPaid", 10771.71}, {"value", 444822}}));
  EXPECT_EQ(p["nearbySchools"][0]["name"], "Memorial Elementary School");
  EXPECT_EQ(p["nearbySchools"][0]["rating"], 8);
  ASSERT_EQ(p["photos"].size(), 29u);
  EXPECT_EQ(p["photos"][0],
            "https://photos.zillowstatic.com/fp/477cd81e0521470a9c3c8b23719b1224-cc_ft_1536.jpg");
  EXPECT_TRUE(p["description"].get<std::string>().starts_with("recent 2014 build, 4 bedrooms"));
}

TEST(ZillowPropertyInChromium, ANewHomeOfABuilderOfTheOlderLayout2021) {
  // A new home's page of January 2021 (the same notebook), whose cache has no history and no
  // attribution: "$249,515 · 3 bd 2 ba 1,596 sqft · 4707 Seabourne Landing Dr, Rosenberg, TX
  // 77471 · New construction · Zestimate: $244,125 · Time on Zillow 5 days · Views 214 · Saves
  // 14 · Year built: 2021 · Lot: 7,200 sqft", built by Chesmar Homes Houston.
  const auto p = property_of(
      "https://www.zillow.com/homedetails/4707-Seabourne-Landing-Dr-Rosenberg-TX-77471/"
      "305293521_zpid/",
      "zillow-homedetails-4707-seabourne-landing-rosenberg-new-construction-apollo-2021-01.html");
  EXPECT_EQ(p["id"], 305293521);
  EXPECT_EQ(p["status"], "FOR_SALE");
  EXPECT_EQ(p["homeType"], "SINGLE_FAMILY");
  EXPECT_EQ(p["price"], 249515);
  EXPECT_EQ(p["beds"], 3);
  EXPECT_EQ(p["baths"], 2);
  EXPECT_EQ(p["yearBuilt"], 2021);
  EXPECT_EQ(p["area"]["livingArea"], 1596);
  EXPECT_EQ(p["area"]["lotSize"], 7200);
  EXPECT_EQ(p["address"]["street"], "4707 Seabourne Landing Dr");
  EXPECT_EQ(p["address"]["subdivision"], "Seabourne Landing");
  EXPECT_EQ(p["zestimate"]["zestimate"], 244125);
  EXPECT_EQ(p["daysOnZillow"], 5);
  EXPECT_EQ(p["views"], 214);
  EXPECT_EQ(p["saves"], 14);
  EXPECT_EQ(p["agentInfo"], nlohmann::json({{"brokerName", "Chesmar Homes Houston"}}));
  EXPECT_EQ(p["photos"].size(), 7u);
  EXPECT_EQ(p["priceHistory"], nlohmann::json::array());
  EXPECT_TRUE(p["description"].get<std::string>().starts_with("Single-story ; 3 bedrooms"));
}

}  // namespace
}  // namespace gleaner::extract::zillow
