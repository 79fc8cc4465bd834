#include "browser/identity.h"

#include <cstdio>
#include <map>
#include <mutex>

#include "core/regex.h"

namespace gleaner::browser {
namespace {

using Json = nlohmann::json;

struct DeviceFacts {
  const char* ua_platform;  // inside the User-Agent's parentheses
  bool mobile;              // "Mobile" in the User-Agent, userAgentData.mobile, Sec-CH-UA-Mobile
  const char* platform;     // userAgentData.platform, Sec-CH-UA-Platform
  const char* platform_version;
  const char* architecture;
  const char* bitness;
  const char* model;
  const char* navigator_platform;
};

// Chrome on Linux reports an empty platform version; on Android the OS version (the User-Agent
// keeps its frozen "Android 10; K"). The models are those of the devices whose screens
// extract/endpoint.cpp emulates.
DeviceFacts facts_of(Device device) {
  switch (device) {
    case Device::Phone:
      return {"Linux; Android 10; K", true, "Android", "14.0.0", "", "", "Pixel 7", "Linux armv81"};
    case Device::Tablet:
      return {"Linux; Android 10; K", false, "Android", "10.0.0", "", "", "SM-T830",
              "Linux armv81"};
    case Device::Desktop: break;
  }
  return {"X11; Linux x86_64", false, "Linux", "", "x86", "64", "", "Linux x86_64"};
}

}  // namespace

std::string_view device_name(Device device) {
  switch (device) {
    case Device::Phone: return "phone";
    case Device::Tablet: return "tablet";
    case Device::Desktop: break;
  }
  return "desktop";
}

std::optional<ChromeVersion> parse_chrome_version(std::string_view text) {
  static const Regex kVersion(R"((\d+)\.\d+\.\d+\.\d+)");
  RegexMatch m;
  if (!kVersion.search(text, m)) return std::nullopt;
  ChromeVersion v;
  v.full = m.str(0);
  v.major = std::stoi(m.str(1));
  return v;
}

std::optional<ChromeVersion> installed_chrome_version(const std::string& chromium_path) {
  static std::mutex mutex;
  static std::map<std::string, std::optional<ChromeVersion>> known;
  std::lock_guard lock(mutex);
  if (auto it = known.find(chromium_path); it != known.end()) return it->second;
  std::optional<ChromeVersion> version;
  // The path is configuration, not input: quoted for the shell all the same.
  std::string quoted = "'";
  for (char c : chromium_path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  quoted += "'";
  if (FILE* pipe = ::popen((quoted + " --version 2>/dev/null").c_str(), "r")) {
    std::string out;
    char buffer[256];
    while (std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
    ::pclose(pipe);
    version = parse_chrome_version(out);
  }
  known[chromium_path] = version;
  return version;
}

std::string chrome_user_agent(Device device, const ChromeVersion& version) {
  const DeviceFacts f = facts_of(device);
  return std::string("Mozilla/5.0 (") + f.ua_platform +
         ") AppleWebKit/537.36 (KHTML, like Gecko) Chrome/" + std::to_string(version.major) +
         ".0.0.0 " + (f.mobile ? "Mobile " : "") + "Safari/537.36";
}

std::vector<std::string> browser_flags(Device device,
                                       const std::optional<ChromeVersion>& version) {
  std::vector<std::string> flags;
  if (version) flags.push_back("--user-agent=" + chrome_user_agent(device, *version));
  if (device != Device::Desktop) {
    flags.push_back("--disable-blink-features=SharedWorker,AudioOutputDevices");
    flags.push_back("--enable-blink-features=OrientationEvent");
  }
  return flags;
}

Json browser_preferences(Device device) {
  if (device == Device::Desktop) return nullptr;
  return {{"plugins", {{"always_open_pdf_externally", true}}}};
}

Json chrome_brands(const ChromeVersion& version, bool full) {
  // Chromium's updated GREASE algorithm, seeded by the major version: "Not" and "A" followed by
  // characters of this list, a version of {8, 99, 24}, and the three brands (GREASE, Chromium,
  // the browser's brand) placed by the permutation seed % 6. Checked against Chromium 156's own
  // list (Not:A-Brand 8, Chromium) and Chrome 138's header ("Not)A;Brand";v="8", "Chromium",
  // "Google Chrome").
  static const char* const kGreaseChars[] = {" ", "(", ":", "-", ".", "/", ")", ";", "=", "?", "_"};
  static const char* const kGreaseVersions[] = {"8", "99", "24"};
  static const int kOrders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                    {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  const int seed = version.major;
  const std::string grease_brand =
      std::string("Not") + kGreaseChars[seed % 11] + "A" + kGreaseChars[(seed + 1) % 11] + "Brand";
  const std::string grease_version = kGreaseVersions[seed % 3];
  const std::string ours = full ? version.full : std::to_string(version.major);
  const Json listed[3] = {
      {{"brand", grease_brand}, {"version", full ? grease_version + ".0.0.0" : grease_version}},
      {{"brand", "Chromium"}, {"version", ours}},
      {{"brand", "Google Chrome"}, {"version", ours}},
  };
  Json brands = Json::array({nullptr, nullptr, nullptr});
  for (int i = 0; i < 3; ++i) brands[kOrders[seed % 6][i]] = listed[i];
  return brands;
}

std::string language_tags(std::string_view accept_language) {
  std::string out;
  std::size_t start = 0;
  while (start <= accept_language.size()) {
    std::size_t end = accept_language.find(',', start);
    if (end == std::string_view::npos) end = accept_language.size();
    std::string_view item = accept_language.substr(start, end - start);
    item = item.substr(0, item.find(';'));
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty() && item != "*") {
      if (!out.empty()) out += ",";
      out += item;
    }
    start = end + 1;
  }
  return out;
}

Json user_agent_override(Device device, const ChromeVersion& version, std::string_view languages,
                         const std::string& custom_user_agent) {
  const DeviceFacts f = facts_of(device);
  const Json metadata = {{"brands", chrome_brands(version, false)},
                         {"fullVersionList", chrome_brands(version, true)},
                         {"fullVersion", version.full},
                         {"platform", f.platform},
                         {"platformVersion", f.platform_version},
                         {"architecture", f.architecture},
                         {"model", f.model},
                         {"mobile", f.mobile},
                         {"bitness", f.bitness},
                         {"wow64", false}};
  const std::string tags = language_tags(languages);
  return {{"userAgent",
           custom_user_agent.empty() ? chrome_user_agent(device, version) : custom_user_agent},
          {"acceptLanguage", tags.empty() ? std::string(kDefaultLanguages) : tags},
          {"platform", f.navigator_platform},
          {"userAgentMetadata", metadata}};
}

}  // namespace gleaner::browser
