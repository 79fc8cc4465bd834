// The plain road's side of a document endpoint, without a browser: the headers it sends are the
// identity the browser road's context has for the same device and Chromium version
// (browser/identity.h), the kinds of load Chrome tells apart (an address typed in, a fetch of the
// page from its origin), the profile's own headers; and the JSON it takes for a document.
#include <gtest/gtest.h>

#include "browser/identity.h"
#include "extract/document.h"
#include "extract/pool_tabs.h"

namespace gleaner::extract {
namespace {

using Load = DocumentRoad::Load;

const browser::ChromeVersion kChrome156{"156.0.8078.108", 156};

TEST(PlainRoadHeaders, TheDesktopIdentityOfTheBrowserRoadForAnAddressTypedIn) {
  const auto h = plain_road_headers(BrowserProfile{}, kChrome156, Load::Navigation);
  // What the browser road's context is told (Emulation.setUserAgentOverride), hence sends.
  const nlohmann::json identity =
      browser::user_agent_override(browser::Device::Desktop, kChrome156);
  EXPECT_EQ(h.at("User-Agent"), identity["userAgent"]);
  EXPECT_EQ(h.at("User-Agent"),
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/156.0.0.0 Safari/537.36");
  // Chromium 156's own brand list, in its order.
  EXPECT_EQ(h.at("Sec-CH-UA"),
            "\"Not:A-Brand\";v=\"8\", \"Chromium\";v=\"156\", \"Google Chrome\";v=\"156\"");
  EXPECT_EQ(h.at("Sec-CH-UA-Mobile"), "?0");
  EXPECT_EQ(h.at("Sec-CH-UA-Platform"), "\"Linux\"");
  EXPECT_EQ(h.at("Accept-Language"), "en-US,en;q=0.9");
  EXPECT_EQ(h.at("Sec-Fetch-Site"), "none");
  EXPECT_EQ(h.at("Sec-Fetch-Mode"), "navigate");
  EXPECT_EQ(h.at("Sec-Fetch-User"), "?1");
  EXPECT_EQ(h.at("Sec-Fetch-Dest"), "document");
  EXPECT_EQ(h.at("Upgrade-Insecure-Requests"), "1");
  EXPECT_EQ(h.at("Accept").rfind("text/html,application/xhtml+xml,", 0), 0u);
  EXPECT_EQ(h.count("Referer"), 0u);
}

TEST(PlainRoadHeaders, APhonesIdentityAndItsLanguages) {
  BrowserProfile phone;
  phone.device = BrowserProfile::Device::Mobile;
  phone.headers["accept-language"] = "de-DE,de;q=0.9,en;q=0.5";
  const auto h = plain_road_headers(phone, kChrome156, Load::Navigation);
  EXPECT_EQ(h.at("User-Agent"), browser::chrome_user_agent(browser::Device::Phone, kChrome156));
  EXPECT_NE(h.at("User-Agent").find("Android 10; K"), std::string::npos);
  EXPECT_EQ(h.at("Sec-CH-UA-Mobile"), "?1");
  EXPECT_EQ(h.at("Sec-CH-UA-Platform"), "\"Android\"");
  // The profile's own header goes as the browser sends it (an extra header), replacing ours.
  EXPECT_EQ(h.at("accept-language"), "de-DE,de;q=0.9,en;q=0.5");
  EXPECT_EQ(h.count("Accept-Language"), 0u);

  BrowserProfile tablet;
  tablet.device = BrowserProfile::Device::Tablet;
  const auto t = plain_road_headers(tablet, kChrome156, Load::Navigation);
  EXPECT_EQ(t.at("Sec-CH-UA-Mobile"), "?0");  // a tablet's Chrome says it is no phone
  EXPECT_EQ(t.at("User-Agent"), browser::chrome_user_agent(browser::Device::Tablet, kChrome156));
}

TEST(PlainRoadHeaders, AFetchOfThePageFromItsOrigin) {
  const auto h = plain_road_headers(BrowserProfile{}, kChrome156, Load::Fetch,
                                    "https://trends.google.com/trends/api/explore?hl=en-US");
  EXPECT_EQ(h.at("Accept"), "*/*");
  EXPECT_EQ(h.at("Sec-Fetch-Site"), "same-origin");
  EXPECT_EQ(h.at("Sec-Fetch-Mode"), "cors");
  EXPECT_EQ(h.at("Sec-Fetch-Dest"), "empty");
  EXPECT_EQ(h.at("Referer"), "https://trends.google.com/trends/api/explore?hl=en-US");
  EXPECT_EQ(h.count("Sec-Fetch-User"), 0u);
  EXPECT_EQ(h.count("Upgrade-Insecure-Requests"), 0u);
  EXPECT_EQ(h.at("Sec-CH-UA-Platform"), "\"Linux\"");
}

TEST(DocumentJson, GuardsAndWhatIsNoDocument) {
  EXPECT_EQ(json_of_document(")]}'\n{\"a\":1}")["a"], 1);
  EXPECT_EQ(json_of_document(")]}',\n[1]")[0], 1);
  EXPECT_EQ(json_of_document(" {\"products\":[]}")["products"], nlohmann::json::array());
  EXPECT_TRUE(json_of_document("<html><title>Just a moment...</title></html>").is_discarded());
  EXPECT_TRUE(json_of_document("").is_discarded());
  EXPECT_TRUE(json_of_document(std::string(100, '[') + std::string(100, ']')).is_discarded());
  // The road's check says the same without building the value.
  for (const char* text : {")]}'\n{\"a\":1}", ")]}',\n[1]", " {\"products\":[]}"}) {
    EXPECT_TRUE(is_json_document(text)) << text;
  }
  EXPECT_FALSE(is_json_document("<html><title>Just a moment...</title></html>"));
  EXPECT_FALSE(is_json_document(""));
  EXPECT_FALSE(is_json_document(std::string(100, '[') + std::string(100, ']')));
  // The site's key order kept where it is handed back to the site.
  EXPECT_EQ(json_of_document<nlohmann::ordered_json>("{\"z\":1,\"a\":2}").dump(),
            "{\"z\":1,\"a\":2}");
}

}  // namespace
}  // namespace gleaner::extract
