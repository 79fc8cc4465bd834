// GET /scrape/homes/property end to end in real Chromium over replay archives of real 2026
// pages: redfin.ca pages (of the fixtures, and two saved whole by a browser), a redfin.com page
// saved whole, and the PerimeterX wall of the fixtures.
#include <gtest/gtest.h>

#include "extract/sites/redfin/property.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::redfin {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::requested;
using testing::run_in_chromium;

TEST(RedfinPropertyInChromium, EightTwentyNineEastFourteenth) {
  TempReplayArchive archive;
  archive.file("https://www.redfin.ca/bc/vancouver/829-E-14th-Ave-V5T-2N5/home/155809679",
               gleaner::testing::site_page(
                   "redfin", "homes-property/redfin-home-829-e14th-vancouver-2026.html"));
  auto replay = archive.load();
  auto result = run_in_chromium(
      property_endpoint(), replay,
      {{"url", "https://redfin.ca/bc/vancouver/829-E-14th-Ave-V5T-2N5/home/155809679/"}});
  EXPECT_EQ(requested(*replay, "https://www.redfin.ca/bc").front(),
            "https://www.redfin.ca/bc/vancouver/829-E-14th-Ave-V5T-2N5/home/155809679");
  const auto& p = result.body["property"];
  EXPECT_EQ(p["address"]["street"], "829 E 14th Ave");
  EXPECT_EQ(p["mlsId"], "R3090427");
  EXPECT_EQ(p["extractedPrice"], 2198000);
  EXPECT_EQ(p["currency"], "CAD");
  EXPECT_EQ(p["beds"], 5);
  EXPECT_EQ(p["yearBuilt"], 1911);
  EXPECT_EQ(p["agents"][0]["name"], "Jen Hickey");
  EXPECT_TRUE(p["description"].get<std::string>().starts_with("CHARACTER! Beautiful pre-WW1 home"));
}

// The answer for a page saved whole by a browser ("Save as complete": its sub-resources are
// `<page>_files/...` beside it), asked for by its URL.
nlohmann::json property_of(const std::string& url, const std::string& file) {
  TempReplayArchive archive;
  archive.file(url, gleaner::testing::site_page("redfin", "homes-property/" + file));
  return run_in_chromium(property_endpoint(), archive.load(), {{"url", url}}).body["property"];
}

TEST(RedfinPropertyInChromium, ThreeTwoOhSixEastTwentyFifthSavedWhole2026) {
  // "$1,799,000 · 5 beds 3 baths 2,225 sq ft · MLS# R3093182 · Built in 1986 · Listed
  // Feb 24, 2026 · Sold (Public Records) Dec 15, 1981 $90,000".
  const auto p =
      property_of("https://www.redfin.ca/bc/vancouver/3206-E-25th-Ave-V5R-1J6/home/154634866",
                  "redfin-ca-3206-e-25th-vancouver-2026-02.html");
  EXPECT_EQ(p["propertyId"], "154634866");
  EXPECT_EQ(p["mlsId"], "R3093182");
  EXPECT_EQ(p["price"], "$1,799,000");
  EXPECT_EQ(p["currency"], "CAD");
  EXPECT_EQ(p["beds"], 5);
  EXPECT_EQ(p["baths"], 3);
  EXPECT_EQ(p["sqft"], 2225);
  EXPECT_EQ(p["lotSize"], 3432);
  EXPECT_EQ(p["yearBuilt"], 1986);
  EXPECT_EQ(p["status"], "Active");
  EXPECT_EQ(p["propertyType"], "Single-family");
  EXPECT_EQ(p["address"]["street"], "3206 E 25th Ave");
  EXPECT_EQ(p["address"]["postalCode"], "V5R 1J6");
  EXPECT_EQ(p["agents"][0]["name"], "Aaron Cheng PREC*");
  EXPECT_EQ(p["agents"][0]["brokerage"], "Sutton Group - 1st West Realty");
  ASSERT_EQ(p["priceHistory"].size(), 2u);
  EXPECT_EQ(p["priceHistory"][0], nlohmann::json({{"date", "2026-02-24"},
                                                  {"event", "Listed"},
                                                  {"price", 1799000},
                                                  {"source", "GVR #R3093182"}}));
  EXPECT_EQ(p["priceHistory"][1]["price"], 90000);
  EXPECT_EQ(p["taxHistory"][0]["landValue"], 1469000);
  EXPECT_EQ(p["schools"][1]["name"], "Renfrew Community Elementary School");
  EXPECT_EQ(p["features"]["Tax Information"][0], "Tax Annual Amount: $7,814.03");
  EXPECT_TRUE(p["description"].get<std::string>().starts_with("VIEW! VIEW! VIEW!"));
}

TEST(RedfinPropertyInChromium, TwentySevenFortyEightEastTwentyThirdWithTwoAgents2026) {
  // "$1,898,000 · 5 beds 3.5 baths 2,234 sq ft · Listed by Danny Chow PREC* and Salina Kai
  // PREC*, Rennie & Associates Realty Ltd.".
  const auto p =
      property_of("https://www.redfin.ca/bc/vancouver/2748-E-23rd-Ave-V5R-1A7/home/154849597",
                  "redfin-ca-2748-e-23rd-vancouver-2026-02.html");
  EXPECT_EQ(p["propertyId"], "154849597");
  EXPECT_EQ(p["mlsId"], "R3088944");
  EXPECT_EQ(p["extractedPrice"], 1898000);
  EXPECT_EQ(p["beds"], 5);
  EXPECT_EQ(p["baths"], 3.5);
  EXPECT_EQ(p["sqft"], 2234);
  EXPECT_EQ(p["address"]["street"], "2748 E 23rd Ave");
  ASSERT_EQ(p["agents"].size(), 2u);
  EXPECT_EQ(p["agents"][0]["name"], "Danny Chow PREC*");
  EXPECT_EQ(p["agents"][1]["name"], "Salina Kai PREC*");
  EXPECT_EQ(p["agents"][1]["brokerage"], "Rennie & Associates Realty Ltd.");
  EXPECT_EQ(p["priceHistory"][0]["date"], "2026-02-11");
  EXPECT_EQ(p["highlights"][0], "TERRACED YARD");
}

TEST(RedfinPropertyInChromium, ADahlonegaHomeOnTwoMlssOfRedfinCom2026) {
  // A redfin.com page of March 2026: "Contingent $298,500 · 4 bd · 2 ba · 1,791 sq ft · 2025 Year
  // Built · Redfin Estimate $296,878 · Listed by Brandon Cruz • Berkshire Hathaway HomeServices
  // Georgia Properties". Its sale history is the two MLSs' ("FMLS #7652074 Feb 26, 2026
  // Contingent — Jan 18, 2026 Price Changed $298,500 …", then "GAMLS #10607853 …"), each day as
  // the page writes it in Georgia (the price change was at 01:25 UTC on Jan 19).
  const auto p =
      property_of("https://www.redfin.com/GA/Dahlonega/94-King-Arthur-Ct-30533/home/137774138",
                  "redfin-com-94-king-arthur-ct-dahlonega-ga-2026-03.html");
  EXPECT_EQ(p["propertyId"], "137774138");
  EXPECT_EQ(p["mlsId"], "7652074");
  EXPECT_EQ(p["price"], "$298,500");
  EXPECT_EQ(p["currency"], "USD");
  EXPECT_EQ(p["status"], "Active Under Contract");
  EXPECT_EQ(p["beds"], 4);
  EXPECT_EQ(p["baths"], 2);
  EXPECT_EQ(p["sqft"], 1791);
  EXPECT_EQ(p["lotSize"], 43560);  // "1 acres"
  EXPECT_EQ(p["yearBuilt"], 2025);
  EXPECT_EQ(p["address"]["street"], "94 King Arthur Ct");
  EXPECT_EQ(p["address"]["state"], "GA");
  EXPECT_EQ(p["address"]["postalCode"], "30533");
  EXPECT_EQ(p["estimate"]["value"], 296877.98);
  EXPECT_EQ(p["estimate"]["currency"], "USD");
  ASSERT_EQ(p["agents"].size(), 2u);
  EXPECT_EQ(p["agents"][0]["name"], "Brandon Cruz");
  EXPECT_EQ(p["agents"][1]["name"], "Wayne Upshaw");
  EXPECT_EQ(p["agents"][0]["brokerage"], "Berkshire Hathaway HomeServices Georgia Properties");
  // "Contact: 770-844-8484" under the listing agents: their brokerage's number. The MLS's
  // listing agent is Brandon Cruz, with his own number; Wayne Upshaw has none in the data.
  EXPECT_EQ(p["agents"][0]["phone"], "470-533-3730");
  EXPECT_EQ(p["agents"][0]["brokeragePhone"], "770-844-8484");
  EXPECT_FALSE(p["agents"][1].contains("phone"));
  EXPECT_EQ(p["agents"][1]["brokeragePhone"], "770-844-8484");
  EXPECT_FALSE(p.contains("soldDate"));  // its data's last sale (Jul 2024) is not this listing's
  const auto& h = p["priceHistory"];
  ASSERT_EQ(h.size(), 20u);
  EXPECT_EQ(h[1],
            nlohmann::json(
                {{"date", "2026-02-26"}, {"event", "Contingent"}, {"source", "FMLS #7652074"}}));
  EXPECT_EQ(h[2], nlohmann::json({{"date", "2026-01-18"},
                                  {"event", "Price Changed"},
                                  {"price", 298500},
                                  {"source", "GAMLS #10607853"}}));
  EXPECT_EQ(h[8]["date"], "2025-09-18");
  EXPECT_EQ(h[8]["source"], "FMLS #7652074");
  EXPECT_EQ(h[9]["date"], "2025-09-14");
  EXPECT_EQ(h[9]["source"], "GAMLS #10607853");
  EXPECT_EQ(h[10], nlohmann::json({{"date", "2024-07-09"},
                                   {"event", "Sold (Public Records)"},
                                   {"price", 67000},
                                   {"source", "Public Records"}}));
  EXPECT_EQ(
      p["taxHistory"][0],
      nlohmann::json(
          {{"year", 2025}, {"taxes", 317.77}, {"landValue", 8000}, {"improvementValue", 6308}}));
  EXPECT_EQ(p["features"]["School Information"][0], "Elementary School: Long Branch");
  // None serves the home in the site's data; the page shows three nearby: "Long Branch
  // Elementary School Public K-5 • 1.6mi 6/10 · Cottrell Elementary School Public PreK-5 • 4.2mi
  // 5/10 · Castle Creek Christian Academy Private N/A • 4.9mi".
  ASSERT_EQ(p["schools"].size(), 3u);
  EXPECT_EQ(p["schools"][0], nlohmann::json({{"name", "Long Branch Elementary School"},
                                             {"rating", 6},
                                             {"grades", "K-5"},
                                             {"distance", 1.6}}));
  EXPECT_EQ(p["schools"][1]["rating"], 5);
  EXPECT_EQ(p["schools"][2],
            nlohmann::json({{"name", "Castle Creek Christian Academy"}, {"distance", 4.9}}));
  EXPECT_TRUE(p["description"].get<std::string>().starts_with(
      "Charming New Home on a Spacious 1-Acre Lot"));
}

TEST(RedfinPropertyInChromium, AGrahamTexasHomeFetchedRawWithItsAgentsContacts2025) {
  // A redfin.com page of July 2025 as a plain HTTP fetch got it (NTREIS): "For Sale ($219,900)
  // · 3 beds 2 baths 1,690 sq ft · Built in 1966 · Listed by Arrenia Drennan-Pillans • Drennan
  // Realty · Contact: 940-549-8555 · Redfin checked: … (Jul 3, 2025 at 12:40pm) · Source: NTREIS
  // #20973745", the agent card "Contact listing agent · Arrenia Drennan-Pillans · Drennan Realty
  // · 214-683-8177" with her e-mail, "Redfin Estimate $218,008", history "Jun 17, 2025 Listed
  // $219,900", schools "4/10 Woodland Elementary School · Public, PreK-5 · 0.3mi".
  const auto p = property_of("https://www.redfin.com/TX/Graham/1441-Brazos-St-76450/home/73776111",
                             "redfin-com-1441-brazos-st-graham-tx-raw-2025-07.html");
  EXPECT_EQ(p["propertyId"], "73776111");
  EXPECT_EQ(p["listingId"], "204509134");
  EXPECT_EQ(p["mlsId"], "20973745");
  EXPECT_EQ(p["price"], "$219,900");
  EXPECT_EQ(p["currency"], "USD");
  EXPECT_EQ(p["status"], "Active");
  EXPECT_EQ(p["beds"], 3);
  EXPECT_EQ(p["baths"], 2);
  EXPECT_EQ(p["sqft"], 1690);
  EXPECT_EQ(p["lotSize"], 14810);
  EXPECT_EQ(p["yearBuilt"], 1966);
  EXPECT_EQ(p["propertyType"], "Single-family");
  EXPECT_EQ(p["address"], nlohmann::json({{"street", "1441 Brazos St"},
                                          {"city", "Graham"},
                                          {"state", "TX"},
                                          {"postalCode", "76450"},
                                          {"country", "US"}}));
  ASSERT_EQ(p["agents"].size(), 1u);
  EXPECT_EQ(p["agents"][0], nlohmann::json({{"name", "Arrenia Drennan-Pillans"},
                                            {"role", "listing"},
                                            {"brokerage", "Drennan Realty"},
                                            {"phone", "214-683-8177"},
                                            {"email", "arreniaa@yahoo.com"},
                                            {"brokeragePhone", "940-549-8555"}}));
  EXPECT_EQ(p["estimate"]["value"], 218007.5);
  ASSERT_EQ(p["priceHistory"].size(), 1u);
  EXPECT_EQ(p["priceHistory"][0], nlohmann::json({{"date", "2025-06-17"},
                                                  {"event", "Listed"},
                                                  {"price", 219900},
                                                  {"source", "NTREIS #20973745"}}));
  EXPECT_EQ(p["taxHistory"][0], nlohmann::json({{"year", 2024},
                                                {"taxes", 4094.19},
                                                {"landValue", 24620},
                                                {"improvementValue", 136220}}));
  ASSERT_EQ(p["schools"].size(), 3u);
  EXPECT_EQ(p["schools"][0], nlohmann::json({{"name", "Woodland Elementary School"},
                                             {"rating", 4},
                                             {"grades", "PreK-5"},
                                             {"distance", 0.3}}));
  EXPECT_EQ(p["highlights"][0], "WIDE DOORWAYS");
  EXPECT_EQ(p["photos"].size(), 38u);  // "Photos Count: 38"
  EXPECT_EQ(p["features"]["Listing Information"][0], "Attribution Contact: 940-549-8555");
  EXPECT_TRUE(p["description"].get<std::string>().starts_with(
      "Beautiful, affordable three bedroom, two bath, two car garage brick home"));
}

TEST(RedfinPropertyInChromium, AUnitsListingAgentAndBrokerageNumbersAsItsCourtesyLineShowsThem) {
  // "Listing provided courtesy of: Rennie & Associates Realty Ltd. (604-681-8898) · Listing
  // agent: Brandan Price PREC* (604-765-9555)": the MLS's lines, in the page's data only there.
  const auto p = property_of(
      "https://www.redfin.ca/bc/vancouver/788-W-8th-Ave-V5Z-1E1/unit-L01/home/156482034",
      "redfin-home-788-w8th-vancouver-2026.html");
  ASSERT_EQ(p["agents"].size(), 1u);
  EXPECT_EQ(p["agents"][0], nlohmann::json({{"name", "Brandan Price PREC*"},
                                            {"role", "listing"},
                                            {"brokerage", "Rennie & Associates Realty Ltd."},
                                            {"phone", "604-765-9555"},
                                            {"brokeragePhone", "604-681-8898"}}));
  EXPECT_EQ(p["status"], "Active");
  EXPECT_FALSE(p.contains("soldDate"));  // its data's last sale, Aug 28, 2017, is not this one's
}

TEST(RedfinPropertyInChromium, ASoldKenmoreHomeOfRedfinCom2025) {
  // A sold home's page of September 2025: "SOLD ON SEP 4, 2025 · $1,150,000 Sold Price · 3 Beds
  // 3 Baths 2,000 Sq Ft · 1996 Year Built · 2.15 acres · Listed by Carmen Guo • Kelly Right RE of
  // Seattle LLC · Bought with Jina Fiveash • Realty ONE Group Orca Gold · 6/10 Kenmore Elementary
  // School … Assigned • 0.7mi", its history headed "NWMLS as Distributed by MLS Grid # 2398635".
  const auto p = property_of("https://www.redfin.com/WA/Kenmore/7718-NE-183rd-St-98028/home/282664",
                             "redfin-com-7718-ne-183rd-kenmore-sold-2025-09.html");
  EXPECT_EQ(p["propertyId"], "282664");
  EXPECT_EQ(p["mlsId"], "2398635");
  // The page's word and day, where its data's status is the MLS's "Closed".
  EXPECT_EQ(p["status"], "Sold");
  EXPECT_EQ(p["soldDate"], "2025-09-04");
  EXPECT_EQ(p["price"], "$1,150,000");
  EXPECT_EQ(p["beds"], 3);
  EXPECT_EQ(p["baths"], 3);
  EXPECT_EQ(p["sqft"], 2000);
  EXPECT_EQ(p["yearBuilt"], 1996);
  EXPECT_EQ(p["lotSize"], 93654);
  EXPECT_EQ(p["address"]["street"], "7718 NE 183rd St");
  EXPECT_EQ(p["address"]["city"], "Kenmore");
  ASSERT_EQ(p["agents"].size(), 2u);
  // The MLS names the listing brokerage's number in the page's data, not the agent's.
  EXPECT_EQ(p["agents"][0], nlohmann::json({{"name", "Carmen Guo"},
                                            {"role", "listing"},
                                            {"brokerage", "Kelly Right RE of Seattle LLC"},
                                            {"brokeragePhone", "206-525-5235"}}));
  EXPECT_EQ(p["agents"][1], nlohmann::json({{"name", "Jina Fiveash"},
                                            {"role", "buying"},
                                            {"brokerage", "Realty ONE Group Orca Gold"}}));
  EXPECT_EQ(p["priceHistory"][0],
            nlohmann::json({{"date", "2025-09-04"},
                            {"event", "Sold (MLS)"},
                            {"price", 1150000},
                            {"source", "NWMLS as Distributed by MLS Grid #2398635"}}));
  EXPECT_EQ(p["priceHistory"][4]["event"], "Listed");
  EXPECT_EQ(p["priceHistory"][4]["price"], 1298000);
  ASSERT_EQ(p["schools"].size(), 3u);
  EXPECT_EQ(p["schools"][2], nlohmann::json({{"name", "Inglemoor High School"},
                                             {"rating", 10},
                                             {"grades", "9-12"},
                                             {"distance", 1.5}}));
  EXPECT_EQ(p["taxHistory"][0]["taxes"], 11381.9);
  EXPECT_EQ(p["features"]["Tax Information"][0], "Tax Annual Amount: $11,381.90");
}

// The answer for a real page with its `__reactServerState` taken out (every tag kept): what the
// page's JSON-LD alone gives.
nlohmann::json from_json_ld_of(const std::string& url, const std::string& file) {
  TempReplayArchive archive;
  archive.add(gleaner::testing::rewritten_entry(
      url, gleaner::testing::site_page("redfin", "homes-property/" + file),
      nlohmann::json::array({{"__reactServerState", "__removedServerState"}})));
  return run_in_chromium(property_endpoint(), archive.load(), {{"url", url}}).body["property"];
}

TEST(RedfinPropertyInChromium, WithoutItsDataCacheAListingIsReadFromItsJsonLdsHome) {
  // The Dahlonega page's JSON-LD: a RealEstateListing whose mainEntity is the home.
  const auto p =
      from_json_ld_of("https://www.redfin.com/GA/Dahlonega/94-King-Arthur-Ct-30533/home/137774138",
                      "redfin-com-94-king-arthur-ct-dahlonega-ga-2026-03.html");
  EXPECT_EQ(p["address"], nlohmann::json({{"street", "94 King Arthur Ct"},
                                          {"city", "Dahlonega"},
                                          {"state", "GA"},
                                          {"postalCode", "30533"},
                                          {"country", "US"}}));
  EXPECT_EQ(p["extractedPrice"], 298500);
  EXPECT_EQ(p["beds"], 4);
  EXPECT_EQ(p["baths"], 2);
  EXPECT_EQ(p["sqft"], 1791);
  EXPECT_EQ(p["yearBuilt"], 2025);
  EXPECT_EQ(p["location"]["latitude"], 34.5014887);
  EXPECT_EQ(p["photos"].size(), 52u);  // "52 photos"
  EXPECT_EQ(p["photos"][0], "https://ssl.cdn-redfin.com/photo/82/bigphoto/074/7652074_I.jpg");
  EXPECT_TRUE(p["description"].get<std::string>().starts_with("Charming New Home"));
}

TEST(RedfinPropertyInChromium, WithoutItsDataCacheASoldHomeIsReadFromItsJsonLd) {
  // The sold Kenmore page's JSON-LD: the home itself (Product, SingleFamilyResidence).
  const auto p =
      from_json_ld_of("https://www.redfin.com/WA/Kenmore/7718-NE-183rd-St-98028/home/282664",
                      "redfin-com-7718-ne-183rd-kenmore-sold-2025-09.html");
  EXPECT_EQ(p["address"]["street"], "7718 NE 183rd St");
  EXPECT_EQ(p["address"]["city"], "Kenmore");
  EXPECT_EQ(p["address"]["postalCode"], "98028");
  EXPECT_EQ(p["price"], "$1,150,000");
  EXPECT_EQ(p["location"]["longitude"], -122.2367863);
  EXPECT_EQ(p["photos"][0], "https://ssl.cdn-redfin.com/photo/1/bigphoto/635/2398635_0.jpg");
}

TEST(RedfinPropertyInChromium, TheSitesPageNotFoundIsNotFound) {
  // The site's "Page Not Found | Redfin" page of December 2025 (rendered, as headless Chrome saved
  // it for a mistyped city path): the site's data without a home.
  TempReplayArchive archive;
  archive.file("https://www.redfin.com/TN/Nashville/1-Main-St-37201/home/12345",
               gleaner::testing::site_page(
                   "redfin", "homes-listing/redfin-com-city-page-not-found-rendered-2025-12.html"));
  EXPECT_EQ(
      error_in_chromium(property_endpoint(), archive.load(),
                        {{"url", "https://www.redfin.com/TN/Nashville/1-Main-St-37201/home/12345"}})
          .code(),
      ErrorCode::NotFound);
}

TEST(RedfinPropertyInChromium, PerimeterXWallIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.file(
      "https://www.redfin.com/WA/Seattle/1-Main-St-98101/home/12345",
      gleaner::testing::site_page("zillow", "blocks/zillow-px-access-denied-small-2025-04.html"));
  EXPECT_EQ(
      error_in_chromium(property_endpoint(), archive.load(),
                        {{"url", "https://www.redfin.com/WA/Seattle/1-Main-St-98101/home/12345"}})
          .code(),
      ErrorCode::UpstreamBlocked);
}

}  // namespace
}  // namespace gleaner::extract::redfin
