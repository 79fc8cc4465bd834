// GET /scrape/homes/property without a browser: property URLs of both sites, the page loaded for
// them, and the shaping of property.js's recorded output on the four real 2026 Redfin pages of the
// fixtures (redfin.ca: Ottawa raw HTML, three Vancouver pages), whose data is the site's own API
// answers embedded in the page.
#include "extract/sites/redfin/property.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::redfin {
namespace {

using nlohmann::json;
using testing::refused;
using testing::rejection;

const Endpoint& property() {
  return property_endpoint();
}
const std::string kOttawa =
    "https://www.redfin.ca/on/ottawa/2083-Breezewood-St-K4A-4R7/home/149567261";
const std::string kKingEdward =
    "https://www.redfin.ca/bc/vancouver/3545-W-King-Edward-Ave-V6S-1M4/home/155797202";
const std::string kUnit =
    "https://www.redfin.ca/bc/vancouver/788-W-8th-Ave-V5Z-1E1/unit-L01/home/156482034";

json shaped(const std::string& name, const std::string& url) {
  return property().shape(testing::recorded("redfin/data/property/" + name + "_script_output.json"),
                          property().validate({{"url", url}}))["property"];
}

TEST(RedfinPropertyParameters, PropertyUrlsOfBothSites) {
  EXPECT_EQ(rejection(property(), {}), refused(ErrorCode::MissingParameter, "url"));
  for (const char* bad : {"https://www.redfin.com/city/16163/WA/Seattle",
                          "http://www.redfin.com/WA/Seattle/1-Main-St-98101/home/1",
                          "https://www.redfin.com.evil.test/WA/Seattle/x/home/1",
                          "https://www.zillow.com/WA/Seattle/x/home/1",
                          "https://www.redfin.com/WA/Seattle/x/home/abc"}) {
    EXPECT_EQ(rejection(property(), {{"url", bad}}), refused(ErrorCode::InvalidParameter, "url"))
        << bad;
  }
  EXPECT_EQ(property()
                .build_request(property().validate(
                    {{"url", "https://redfin.com/WA/Seattle/1-Main-St-98101/home/12345?utm=x"}}))
                .url,
            "https://www.redfin.com/WA/Seattle/1-Main-St-98101/home/12345");
  EXPECT_EQ(property().build_request(property().validate({{"url", kUnit}})).url, kUnit);
  auto u = parse_property_url(kUnit);
  ASSERT_TRUE(u);
  EXPECT_EQ(u->domain, "redfin.ca");
  EXPECT_EQ(u->property_id, "156482034");
  EXPECT_EQ(property().route(), "homes/property");
}

TEST(RedfinPropertyShape, BreezewoodInOttawa) {
  const json p = shaped("2083-breezewood", kOttawa);
  EXPECT_EQ(p["propertyId"], "149567261");
  EXPECT_EQ(p["mlsId"], "X12793132");
  EXPECT_EQ(p["address"], (json{{"street", "2083 Breezewood St"},
                                {"city", "Ottawa"},
                                {"state", "ON"},
                                {"postalCode", "K4A 4R7"},
                                {"country", "CA"}}));
  EXPECT_EQ(p["price"], "$610,000");
  EXPECT_EQ(p["extractedPrice"], 610000);
  EXPECT_EQ(p["currency"], "CAD");
  EXPECT_EQ(p["status"], "Active");
  EXPECT_EQ(p["beds"], 3);
  EXPECT_EQ(p["baths"], 2);
  EXPECT_EQ(p["propertyType"], "Townhome");
  EXPECT_EQ(p["features"]["Heating & Cooling"][0], "Has Cooling");
  EXPECT_EQ(p["features"]["Parking/Garage Information"][0], "# of Parking Spaces Total: 3");
  EXPECT_TRUE(
      p["description"].get<std::string>().starts_with("Welcome to this meticulously maintained"));
  EXPECT_NE(p["description"].get<std::string>().find("East Village community of Orléans"),
            std::string::npos);
  EXPECT_EQ(p["photos"].size(), 38u);
  EXPECT_EQ(p["priceHistory"][0], (json{{"date", "2026-02-17"},
                                        {"event", "Listed"},
                                        {"price", 610000},
                                        {"source", "TREB #X12793132"}}));
  EXPECT_EQ(p["schools"][1],
            (json{{"name", "St Clare Elementary School"}, {"grades", "JK-6"}, {"distance", 1.0}}));
  EXPECT_DOUBLE_EQ(p["location"]["latitude"].get<double>(), 45.4762492);
}

// The King Edward page's recorded reading with its contacts rewritten: a number or e-mail is
// given only to the agent or brokerage it names, and an agent card the site hides gives none.
TEST(RedfinPropertyShape, ContactsGoOnlyToTheAgentAndBrokerageTheyName) {
  json out = testing::recorded("redfin/data/property/3545-w-king-edward_script_output.json");
  const auto shape = [&](const json& reading) {
    return property().shape(reading, property().validate({{"url", kKingEdward}}))["property"];
  };
  out["contact"] = {{"contactName", "Tom Gradecak"},
                    {"contactPhoneNumber", "604-000-1111"},
                    {"contactEmail", "tom@example.test"}};
  json agent = shape(out)["agents"][0];
  EXPECT_EQ(agent["phone"], "604-000-1111");  // the card's, before the MLS's line
  EXPECT_EQ(agent["email"], "tom@example.test");
  out["contact"]["doNotShowAgentContactInfo"] = true;
  agent = shape(out)["agents"][0];
  EXPECT_EQ(agent["phone"], "604-351-3750");
  EXPECT_FALSE(agent.contains("email"));
  out["contact"] = {{"contactName", "Someone Else"}, {"contactPhoneNumber", "604-000-1111"}};
  out["disclaimer"]["listingAgentName"] = "Someone Else";
  out["disclaimer"]["listingBrokerName"] = "Another Realty";
  agent = shape(out)["agents"][0];
  EXPECT_FALSE(agent.contains("phone"));
  EXPECT_FALSE(agent.contains("brokeragePhone"));
}

TEST(RedfinPropertyShape, KingEdwardIsInDollarsCanadianWhateverTheJsonLdSays) {
  const json p = shaped("3545-w-king-edward", kKingEdward);
  EXPECT_EQ(p["mlsId"], "R3092688");
  EXPECT_EQ(p["extractedPrice"], 2098000);
  EXPECT_EQ(p["currency"], "CAD");  // the page's JSON-LD says USD
  EXPECT_EQ(p["beds"], 5);
  EXPECT_EQ(p["baths"], 2.5);
  EXPECT_EQ(p["sqft"], 2424);
  EXPECT_EQ(p["yearBuilt"], 1930);
  EXPECT_TRUE(p["description"].get<std::string>().starts_with(
      "Charming 5 bed 2.5 bath located in the heart of Dunbar"));
  // The numbers are the MLS's lines for its listing agent and brokerage.
  EXPECT_EQ(p["agents"], (json{{{"name", "Tom Gradecak"},
                                {"role", "listing"},
                                {"brokerage", "WESTSIDE Tom Gradecak Realty"},
                                {"phone", "604-351-3750"},
                                {"brokeragePhone", "604-222-3750"}}}));
  EXPECT_EQ(p["taxHistory"][0],
            (json{{"year", 2023}, {"landValue", 2023000}, {"improvementValue", 80900}}));
  EXPECT_EQ(p["features"]["Tax Information"][0], "Tax Annual Amount: $9,584.04");
}

TEST(RedfinPropertyShape, ATownhomeUnitWithItsFeeAndHistory) {
  const json p = shaped("788-w-8th", kUnit);
  EXPECT_EQ(p["address"]["street"], "788 W 8th Ave Unit L01");
  EXPECT_EQ(p["price"], "$1,249,900");
  EXPECT_EQ(p["hoa"], "$1,137/mo");
  EXPECT_EQ(p["extractedHoa"], 1137);
  EXPECT_EQ(p["baths"], 3.5);
  EXPECT_EQ(p["yearBuilt"], 1991);
  ASSERT_EQ(p["priceHistory"].size(), 7u);
  EXPECT_EQ(p["priceHistory"][1], (json{{"date", "2017-08-28"},
                                        {"event", "Sold (Public Records)"},
                                        {"price", 1575000},
                                        {"source", "Public Records"}}));
  EXPECT_EQ(p["agents"][0]["brokerage"], "Rennie & Associates Realty Ltd.");
}

TEST(RedfinPropertyShape, AnotherPropertysStateIsNotMixedIn) {
  const json out = testing::recorded("redfin/data/property/788-w-8th_script_output.json");
  EXPECT_EQ(testing::error_of_shape(property(), out, property().validate({{"url", kKingEdward}})),
            ErrorCode::UpstreamError);
  EXPECT_EQ(testing::error_of_shape(property(), json{{"hasState", true}},
                                    property().validate({{"url", kKingEdward}})),
            ErrorCode::NotFound);
  EXPECT_EQ(testing::error_of_shape(property(), json{{"hasState", false}},
                                    property().validate({{"url", kKingEdward}})),
            ErrorCode::ExtractionFailed);
}

}  // namespace
}  // namespace gleaner::extract::redfin
