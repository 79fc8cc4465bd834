#pragma once
// Who a page's browser says it is: one coherent identity per device (docs/stealth.md). Everything a
// page or a server can read agrees with everything else: the User-Agent string (header,
// navigator.userAgent, workers), navigator.userAgentData and the Sec-CH-UA* headers (brands with
// "Google Chrome" and Chromium's GREASE brand for the real major version, the full version list,
// platform, model, mobile), navigator.platform, navigator.languages and Accept-Language. Applied
// with Chromium's own means: the launch flag --user-agent (the browser-wide default, which service
// workers use) and Emulation.setUserAgentOverride with userAgentMetadata per page (and per
// service worker, which the page's override does not reach), never by a script in the page.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gleaner::browser {

/// The device a page's browser is.
enum class Device {
  Desktop,  ///< Chrome on Linux (x86-64)
  Phone,    ///< Chrome on an Android phone (a Pixel 7)
  Tablet,   ///< Chrome on an Android tablet (a Galaxy Tab S4)
};

/// "desktop", "phone" or "tablet" (logs, GET /health).
std::string_view device_name(Device device);

/// Chromium's version, e.g. {"156.0.8078.108", 156}.
struct ChromeVersion {
  std::string full;
  int major = 0;
};

/// The version in Browser.getVersion's `product` ("HeadlessChrome/156.0.8078.108") or in the
/// output of `chromium --version` ("Chromium 156.0.8078.108 built on Debian ..."): the first
/// dotted number of four parts. Nullopt when there is none.
std::optional<ChromeVersion> parse_chrome_version(std::string_view text);

/// The version of the browser at `chromium_path`, from `<path> --version` (run once per path and
/// remembered). Nullopt when it cannot be run or says no version.
std::optional<ChromeVersion> installed_chrome_version(const std::string& chromium_path);

/// The reduced User-Agent string a current Chrome of `version` sends on `device` (Chrome reports
/// only its major version, and "Android 10; K" whatever the Android and the model).
std::string chrome_user_agent(Device device, const ChromeVersion& version);

/// What a browser whose pages are all `device` is started with, for what no page override reaches
/// (a browser of the pool is one device, browser/pool.h):
/// - the browser-wide User-Agent (--user-agent, when the version is known): what service workers
///   send and read in navigator.userAgent;
/// - for an Android device, Blink's runtime features as Chrome on Android has them: no
///   SharedWorker, no audio output selection (HTMLMediaElement.sinkId), window.orientation
///   (detectors such as BotD tell Android from a desktop by these, and judge a desktop without
///   plugins headless).
std::vector<std::string> browser_flags(Device device, const std::optional<ChromeVersion>& version);

/// The profile preferences (the Default/Preferences file) a browser whose pages are all `device`
/// starts with, as JSON; null when none. An Android device's: Chrome's PDF viewer off
/// (`plugins.always_open_pdf_externally`), so that navigator.plugins and mimeTypes are empty and
/// navigator.pdfViewerEnabled false, as Chrome on Android shows them. Chromium reads it per
/// profile, not per browser context, so no page override can do it (docs/stealth.md).
nlohmann::json browser_preferences(Device device);

/// navigator.userAgentData.brands (or, `full`, the fullVersionList) of Google Chrome `version`:
/// Chromium's GREASE brand, "Chromium" and "Google Chrome", in the order and with the GREASE
/// characters and version Chromium derives from the major version
/// (components/embedder_support/user_agent_utils.cc), as a JSON array of {brand, version}.
nlohmann::json chrome_brands(const ChromeVersion& version, bool full);

/// The language tags of an Accept-Language value, without weights: "de-DE,de;q=0.9" → "de-DE,de".
/// What Emulation.setUserAgentOverride's acceptLanguage takes (Chromium adds the weights back).
std::string language_tags(std::string_view accept_language);

/// The languages a page's browser prefers unless a request says otherwise (Accept-Language
/// "en-US,en;q=0.9", navigator.languages ["en-US", "en"]).
inline constexpr std::string_view kDefaultLanguages = "en-US,en";

/// The parameters of Emulation.setUserAgentOverride for `device`: the user agent (or
/// `custom_user_agent` when not empty), acceptLanguage `languages` (tags, see language_tags()),
/// navigator.platform and userAgentMetadata.
nlohmann::json user_agent_override(Device device, const ChromeVersion& version,
                                   std::string_view languages = kDefaultLanguages,
                                   const std::string& custom_user_agent = {});

}  // namespace gleaner::browser
