// GET /scrape/zillow/property without a browser: the url's rule, the page requested, and the
// shaping of property.js's recorded output on the real saved page.
#include <gtest/gtest.h>

#include "core/error.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::zillow {
namespace {

using nlohmann::json;
using testing::refused;
using testing::rejection;

const Endpoint& property() {
  return property_endpoint();
}
const std::string kUrl =
    "https://www.zillow.com/homedetails/1064-E-Rich-St-Columbus-OH-43205/448533631_zpid/";

TEST(ZillowPropertyParameters, AZillowPropertyUrl) {
  EXPECT_EQ(rejection(property(), {}), refused(ErrorCode::MissingParameter, "url"));
  EXPECT_EQ(rejection(property(), {{"url", "https://www.zillow.com/homes/Columbus,-OH_rb/"}}),
            refused(ErrorCode::InvalidParameter, "url"));
  EXPECT_EQ(rejection(property(), {{"url", "https://evil.example/homedetails/x/1_zpid/"}}),
            refused(ErrorCode::InvalidParameter, "url"));
  EXPECT_EQ(rejection(property(), {{"url", kUrl}, {"extractAgentEmails", "maybe"}}),
            refused(ErrorCode::InvalidParameter, "extractAgentEmails"));
  EXPECT_EQ(property().build_request(property().validate({{"url", kUrl + "?x=1#photos"}})).url,
            kUrl);
  EXPECT_EQ(property()
                .build_request(property().validate(
                    {{"url", "https://www.zillow.com/homedetails/33855921_zpid/"}}))
                .url,
            "https://www.zillow.com/homedetails/33855921_zpid/");
}

TEST(ZillowPropertyShape, TheRecordedPage) {
  const json out = testing::recorded("zillow/data/property/champion-ave_script_output.json");
  const json body = property().shape(out, property().validate({{"url", kUrl}}));
  EXPECT_EQ(body["property"]["id"], 33855921);
  EXPECT_FALSE(body["property"].contains("agentEmails"));  // only when asked for
  EXPECT_TRUE(property().has_content(body));
  json none = out;
  none["property"] = nullptr;
  EXPECT_EQ(testing::error_of_shape(property(), none, property().validate({{"url", kUrl}})),
            ErrorCode::ExtractionFailed);
}

}  // namespace
}  // namespace gleaner::extract::zillow
