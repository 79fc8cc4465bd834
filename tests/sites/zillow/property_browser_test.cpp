// GET /scrape/zillow/property end to end in real Chromium over the real saved property page kept
// in pages/zillow-property (2025). The page is in a mixed state: its title, canonical and h1 are
// 1064 E Rich St, but its property cache (`__NEXT_DATA__` → gdpClientCache), which the endpoint
// reads, holds 515-517 N Champion Ave (the page changed client-side before it was saved). The
// test asserts the cache's property, the one source the endpoint reads.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::zillow {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::requested;
using testing::run_in_chromium;

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
  EXPECT_EQ(p["agentEmails"], nlohmann::json::array());  // the listing shows none
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

}  // namespace
}  // namespace gleaner::extract::zillow
