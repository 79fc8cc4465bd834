// GET /scrape/instagram/profile: one Instagram profile as a visitor who is not logged in sees
// it. profile.js reads the page's meta tags and the profile id it logs; this shapes them as the
// hosted service answers (fields at the top level), counts read by their order, not their words.


#include "core/error.h"
#include "core/regex.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/url.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::instagram {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

const Parameters& profile_parameters() {
  static const Parameters params{{Param::string("handle").required().pattern(
      "@?[A-Za-z0-9._]{1,30}", "an Instagram username: letters, digits, '.' and '_' (up to 30)")}};
  return params;
}

std::string handle_of(const ValidatedParams& p) {
  // Required, so present; read through a view (GCC 12 saw the copied string's starts_with() as a
  // read of uninitialized bytes).
  const std::optional<std::string> given = p.string("handle");
  std::string_view h = given ? std::string_view(*given) : std::string_view();
  if (!h.empty() && h.front() == '@') h.remove_prefix(1);
  return lower(h);
}

json shape_profile(const json& output, const ValidatedParams& params) {
  // Instagram sends a visitor it will not show the profile to its login page.
  if (str(at(output, {"path"})).starts_with("/accounts/login")) {
    throw Error(ErrorCode::UpstreamBlocked,
                "Instagram answered with its login page instead of the profile",
                "redirected to " + str(at(output, {"path"})));
  }
  json out = json::object();
  const std::string title = str(at(output, {"ogTitle"}));
  // og:title: "Full Name (@handle) • Instagram photos and videos"; "(@handle)" alone without a
  // name.
  static const Regex kTitle(R"(^(.*?)\s*\(@([A-Za-z0-9._]+)\))");
  RegexMatch m;
  std::string username;
  std::string full_name;
  if (kTitle.search(title, m)) {
    full_name = m[1].str();
    username = m[2].str();
  }
  // Or it serves its login form in place of the content, at the address asked for: no profile
  // and a password to give is the same wall.
  if (username.empty() && at(output, {"loginForm"}) == true) {
    throw Error(ErrorCode::UpstreamBlocked,
                "Instagram answered with its login page instead of the profile",
                "a login form and no profile at " + str(at(output, {"path"})));
  }
  if (username.empty()) return out;  // not a profile page: has_content() says so
  if (const std::string id = str(at(output, {"profileId"})); !id.empty()) out["id"] = id;
  out["username"] = username;
  if (!full_name.empty()) out["fullName"] = full_name;
  // og:description: "<followers> Followers, <following> Following, <posts> Posts - …", in this
  // order in every language the site writes it ("5,351", "1.2M", "12,5 mil").
  const std::string counts_text = str(at(output, {"ogDescription"}));
  const std::string counts_part = counts_text.substr(0, counts_text.find(" - "));
  std::vector<std::string> parts;
  for (std::size_t start = 0; start <= counts_part.size();) {
    const auto comma = counts_part.find(", ", start);
    parts.push_back(
        counts_part.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 2;
  }
  if (parts.size() == 3) {
    const char* keys[] = {"followersCount", "followsCount", "postsCount"};
    for (int i = 0; i < 3; ++i) {
      if (auto n = parse_count(parts[i])) out[keys[i]] = *n;
    }
  }
  // The header a rendered page draws is the profile's own data, fresher than og:description (a
  // server summary that rounds, "1M", and may lag: 15 following there, 0 in the header) and what
  // a person reads: its counts win where they are read.
  const json& header = at(output, {"header"});
  for (const auto& [from, key] :
       {std::pair{"posts", "postsCount"}, std::pair{"followers", "followersCount"},
        std::pair{"following", "followsCount"}}) {
    if (auto n = parse_count(str(at(header, {from})))) out[key] = *n;
  }
  // The description meta: the same counts, then `… on Instagram: "<biography>"`; else the
  // header's biography.
  const std::string description = str(at(output, {"description"}));
  if (const auto colon = description.find(": \"");
      colon != std::string::npos && description.ends_with("\"")) {
    std::string bio = description.substr(colon + 3, description.size() - colon - 4);
    if (!bio.empty()) out["biography"] = bio;
  }
  if (std::string bio = str(at(header, {"biography"}));
      !out.contains("biography") && !bio.empty()) {
    out["biography"] = bio;
  }
  if (const std::string pic = str(at(output, {"ogImage"})); !pic.empty()) {
    out["profilePicUrl"] = pic;
  }
  out["url"] = "https://www.instagram.com/" + username + "/";
  out["private"] = at(output, {"privateNotice"}) == true;
  (void)params;
  return out;
}

class ProfileEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "instagram/profile"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"id",           "username",   "fullName",     "biography", "followersCount",
            "followsCount", "postsCount", "profilePicUrl"};
  }
  const Parameters& parameters() const override { return profile_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    PageRequest request;
    request.url = "https://www.instagram.com/" + path_encode(handle_of(p)) + "/";
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    return shape_profile(output, params);
  }

  // A page served to a visitor who is not logged in is a script shell that shows no text before
  // its scripts draw it: its meta tags carry the profile all the same.
  bool data_without_text(const json& output) const override {
    return str(at(output, {"ogType"})) == "profile" && !str(at(output, {"ogTitle"})).empty();
  }

  // Every profile page names its account in og:title and counts its followers.
  bool has_content(const json& body) const override {
    return at(body, {"username"}).is_string() && at(body, {"followersCount"}).is_number();
  }
};

}  // namespace

const Endpoint& profile_endpoint() {
  return the_endpoint<ProfileEndpoint>();
}

}  // namespace gleaner::extract::instagram
