// The browser identity of each device (browser/identity.h), without Chromium: the GREASE brand
// list against what real browsers send, the user agent strings, the metadata, the languages.
#include "browser/identity.h"

#include <gtest/gtest.h>

namespace gleaner::browser {
namespace {

using Json = nlohmann::json;

ChromeVersion v(const std::string& full) {
  return *parse_chrome_version(full);
}

TEST(ChromeVersion, ReadFromGetVersionAndFromTheCommandLine) {
  const auto product = parse_chrome_version("HeadlessChrome/156.0.8078.108");
  ASSERT_TRUE(product);
  EXPECT_EQ(product->full, "156.0.8078.108");
  EXPECT_EQ(product->major, 156);
  const auto line =
      parse_chrome_version("Chromium 156.0.8078.108 built on Debian GNU/Linux 12 (bookworm)\n");
  ASSERT_TRUE(line);
  EXPECT_EQ(line->full, "156.0.8078.108");
  EXPECT_FALSE(parse_chrome_version("Chromium, no version"));
}

TEST(ChromeBrands, AsChromiumDerivesThemFromTheMajorVersion) {
  // Chrome 138's own Sec-CH-UA: "Not)A;Brand";v="8", "Chromium";v="138", "Google Chrome";v="138".
  EXPECT_EQ(chrome_brands(v("138.0.7204.100"), false),
            Json::parse(R"([{"brand":"Not)A;Brand","version":"8"},
                            {"brand":"Chromium","version":"138"},
                            {"brand":"Google Chrome","version":"138"}])"));
  // Debian's Chromium 156 shows Not:A-Brand 8 first, then Chromium (measured); Google Chrome
  // comes third in the same permutation.
  EXPECT_EQ(chrome_brands(v("156.0.8078.108"), true),
            Json::parse(R"([{"brand":"Not:A-Brand","version":"8.0.0.0"},
                            {"brand":"Chromium","version":"156.0.8078.108"},
                            {"brand":"Google Chrome","version":"156.0.8078.108"}])"));
  // Another permutation: 157 % 6 = 1 puts Google Chrome second.
  const Json b157 = chrome_brands(v("157.0.1.2"), false);
  EXPECT_EQ(b157[1]["brand"], "Google Chrome");
  EXPECT_EQ(b157[2]["brand"], "Chromium");
  EXPECT_EQ(b157[0]["version"], "99");
}

TEST(ChromeIdentity, EachDeviceIsOneCoherentIdentity) {
  const ChromeVersion version = v("156.0.8078.108");
  const Json desktop = user_agent_override(Device::Desktop, version);
  EXPECT_EQ(desktop["userAgent"],
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/156.0.0.0 Safari/537.36");
  EXPECT_EQ(desktop["platform"], "Linux x86_64");
  EXPECT_EQ(desktop["acceptLanguage"], "en-US,en");
  EXPECT_EQ(desktop["userAgentMetadata"]["platform"], "Linux");
  EXPECT_EQ(desktop["userAgentMetadata"]["mobile"], false);
  EXPECT_EQ(desktop["userAgentMetadata"]["architecture"], "x86");
  EXPECT_EQ(desktop["userAgentMetadata"]["fullVersion"], "156.0.8078.108");

  const Json phone = user_agent_override(Device::Phone, version);
  EXPECT_NE(phone["userAgent"].get<std::string>().find("Android 10; K"), std::string::npos);
  EXPECT_NE(phone["userAgent"].get<std::string>().find("Mobile Safari"), std::string::npos);
  EXPECT_EQ(phone["userAgentMetadata"]["mobile"], true);
  EXPECT_EQ(phone["userAgentMetadata"]["platform"], "Android");
  EXPECT_EQ(phone["userAgentMetadata"]["model"], "Pixel 7");

  const Json tablet = user_agent_override(Device::Tablet, version);
  EXPECT_EQ(tablet["userAgent"].get<std::string>().find("Mobile"), std::string::npos);
  EXPECT_EQ(tablet["userAgentMetadata"]["mobile"], false);
  EXPECT_EQ(tablet["userAgentMetadata"]["platform"], "Android");

  for (const Json& identity : {desktop, phone, tablet}) {
    EXPECT_EQ(identity["userAgent"].get<std::string>().find("Headless"), std::string::npos);
    EXPECT_EQ(identity["userAgentMetadata"]["brands"], chrome_brands(version, false));
  }
  // A caller's own user agent string replaces the device's; the rest stays.
  EXPECT_EQ(
      user_agent_override(Device::Desktop, version, kDefaultLanguages, "agent/1.0")["userAgent"],
      "agent/1.0");
}

TEST(ChromeIdentity, ABrowserOfADeviceStartsAsThatDevice) {
  const ChromeVersion version = v("156.0.8078.108");
  // The browser-wide User-Agent (service workers') is the pages' own.
  for (Device device : {Device::Desktop, Device::Phone, Device::Tablet}) {
    EXPECT_EQ(browser_flags(device, version).front(),
              "--user-agent=" + user_agent_override(device, version)["userAgent"].get<std::string>());
  }
  EXPECT_EQ(browser_flags(Device::Desktop, version).size(), 1u);
  EXPECT_TRUE(browser_flags(Device::Desktop, std::nullopt).empty());
  EXPECT_TRUE(browser_preferences(Device::Desktop).is_null());
  // Android's Chrome: no PDF viewer, no SharedWorker, no audio output selection, orientation.
  for (Device device : {Device::Phone, Device::Tablet}) {
    EXPECT_EQ(browser_preferences(device)["plugins"]["always_open_pdf_externally"], true);
    const auto flags = browser_flags(device, std::nullopt);
    EXPECT_EQ(flags, (std::vector<std::string>{
                         "--disable-blink-features=SharedWorker,AudioOutputDevices",
                         "--enable-blink-features=OrientationEvent"}));
  }
}

TEST(ChromeIdentity, LanguagesComeFromAnAcceptLanguageWithoutWeights) {
  EXPECT_EQ(language_tags("de-DE,de;q=0.9,en;q=0.5"), "de-DE,de,en");
  EXPECT_EQ(language_tags(" fr-CH , fr;q=0.8, *;q=0.1"), "fr-CH,fr");
  EXPECT_EQ(language_tags(""), "");
  EXPECT_EQ(user_agent_override(Device::Phone, v("156.0.1.2"), "de-DE,de;q=0.9")["acceptLanguage"],
            "de-DE,de");
}

}  // namespace
}  // namespace gleaner::browser
