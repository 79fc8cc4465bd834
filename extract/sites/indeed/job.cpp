#include "extract/sites/indeed/job.h"

#include <chrono>

#include "core/error.h"
#include "core/regex.h"
#include "core/time_text.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/url.h"

namespace gleaner::extract::indeed {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

// Indeed's country sites: <cc>.indeed.com, and the country domains it also answers on.
constexpr const char* kHost =
    R"((?:(?:www|[a-z]{2})\.)?indeed\.com|(?:www\.)?indeed\.(?:co\.uk|co\.in|co\.za|com\.au|com\.sg|com\.br|com\.mx|ca|de|fr|es|it|nl|ie|ch|at|be|jp|pl))";

const Parameters& job_parameters() {
  static const Parameters params{
      {Param::string("url").required()}, {Rule::custom([](const ValidatedParams& p) {
        if (!parse_job_url(*p.string("url"))) {
          throw invalid_parameter("url",
                                  "url must be an Indeed job URL (/viewjob?jk=..., /rc/clk?jk=..., "
                                  "or a search URL with vjk=...) on one of Indeed's sites");
        }
      })}};
  return params;
}

std::string period_of(const std::string& salary_type) {
  const std::string t = lower(salary_type);
  if (t == "hourly") return "hour";
  if (t == "daily") return "day";
  if (t == "weekly") return "week";
  if (t == "monthly") return "month";
  if (t == "yearly" || t == "annual") return "year";
  return "";
}

// Drops the tracking query of the site's links (tk, from, campaignid...): the page they name is
// the path.
std::string without_query(const std::string& link) {
  return link.substr(0, link.find('?'));
}

json salary_of(const json& out) {
  const json& s = at(out, {"salary"});
  const json& header = at(out, {"header"});
  std::string text = str(at(s, {"salaryText"}));
  json salary = json::object();
  const json& min =
      at(s, {"salaryMin"}).is_number() ? at(s, {"salaryMin"}) : at(header, {"salaryMin"});
  const json& max =
      at(s, {"salaryMax"}).is_number() ? at(s, {"salaryMax"}) : at(header, {"salaryMax"});
  std::string currency = str(at(s, {"salaryCurrency"}));
  if (currency.empty()) currency = str(at(header, {"salaryCurrency"}));
  std::string type = str(at(s, {"salaryType"}));
  if (type.empty()) type = str(at(header, {"salaryType"}));
  // The JSON-LD's baseSalary where the page has no view model.
  const json& base = at(out, {"posting", "baseSalary"});
  if (text.empty() && !min.is_number() && base.is_object()) {
    json v = at(base, {"value"});
    json r = json::object();
    if (auto a = at(v, {"minValue"}); a.is_number())
      r["min"] = a;
    else if (auto b = at(v, {"value"}); b.is_number())
      r["min"] = b;
    if (auto a = at(v, {"maxValue"}); a.is_number()) r["max"] = a;
    if (std::string c = str(at(base, {"currency"})); !c.empty()) r["currency"] = c;
    // schema.org's unitText: HOUR, DAY, WEEK, MONTH, YEAR.
    if (std::string u = lower(str(at(v, {"unitText"}))); !u.empty()) r["period"] = u;
    return r.empty() ? json() : r;
  }
  if (text.empty() && !min.is_number()) return nullptr;
  if (!text.empty()) salary["text"] = text;
  std::optional<Money> parsed =
      text.empty() ? std::nullopt : parse_money(text, DecimalMark::Unknown, currency);
  if (min.is_number())
    salary["min"] = min;
  else if (parsed)
    salary["min"] = parsed->min;
  if (max.is_number())
    salary["max"] = max;
  else if (parsed && parsed->max)
    salary["max"] = *parsed->max;
  if (!currency.empty())
    salary["currency"] = currency;
  else if (parsed && !parsed->currency.empty())
    salary["currency"] = parsed->currency;
  std::string period = period_of(type);
  if (period.empty() && parsed) period = parsed->period;
  if (!period.empty()) salary["period"] = period;
  return salary;
}

json shape_job(const json& out, const ValidatedParams& params) {
  const JobUrl asked = *parse_job_url(*params.string("url"));
  const std::string key = str(at(out, {"jobKey"}));
  const json& header = at(out, {"header"});
  const json& posting = at(out, {"posting"});
  if (!header.is_object() && !posting.is_object()) {
    if (at(out, {"siteData"}) == true) {
      throw Error(ErrorCode::NotFound, "the job does not exist on the site (or was taken down)",
                  "the page's data has no job model for " + asked.job_key);
    }
    throw extraction_failed("could not find the job's data on the page",
                            "no _initialData job model and no JobPosting on the page");
  }
  if (header.is_object() && !key.empty() && key != asked.job_key) {
    throw Error(ErrorCode::UpstreamError, "the site showed another job than the one asked for",
                "asked " + asked.job_key + ", the page's model is " + key);
  }
  json job = json::object();
  job["jobKey"] = asked.job_key;
  std::string title = str(at(header, {"jobTitle"}));
  if (title.empty()) title = str(at(posting, {"title"}));
  job["title"] = title;
  job["link"] = "https://" + asked.host + "/viewjob?jk=" + asked.job_key;

  json company = json::object();
  std::string name = str(at(header, {"companyName"}));
  if (name.empty()) name = text(at(posting, {"hiringOrganization", "name"}));
  company["name"] = name;
  if (std::string link = str(at(header, {"companyOverviewLink"})); !link.empty()) {
    company["link"] = without_query(link);
  }
  const json& ratings = at(header, {"companyReviewModel", "ratingsModel"});
  if (const json& r = at(ratings, {"rating"}); r.is_number()) company["rating"] = r;
  if (const json& c = at(ratings, {"count"}); c.is_number()) company["reviews"] = c;
  job["company"] = company;

  std::string location = str(at(header, {"formattedLocation"}));
  if (location.empty()) {
    location = text(at(posting, {"jobLocation", "address", "addressLocality"}));
  }
  job["location"] = location;
  if (const json& remote = at(header, {"remoteLocation"}); remote.is_boolean()) {
    job["remote"] = remote.get<bool>() || at(header, {"remoteWorkModel"}).is_object();
  } else if (str(at(posting, {"jobLocationType"})) == "TELECOMMUTE") {
    job["remote"] = true;
  }
  json types = json::array();
  for (const json& t : at(out, {"details", "jobTypes"})) {
    if (std::string l = str(at(t, {"label"})); !l.empty()) types.push_back(l);
  }
  if (types.empty()) {
    if (std::string t = str(at(out, {"metadata", "jobType"})); !t.empty()) {
      for (std::size_t i = 0; i < t.size();) {
        std::size_t j = t.find(',', i);
        std::string one = t.substr(i, j == std::string::npos ? std::string::npos : j - i);
        one.erase(0, one.find_first_not_of(' '));
        if (!one.empty()) types.push_back(one);
        if (j == std::string::npos) break;
        i = j + 1;
      }
    }
  }
  job["jobTypes"] = types;
  if (json salary = salary_of(out); salary.is_object() && !salary.empty()) job["salary"] = salary;
  json benefits = json::array();
  for (const json& b : at(out, {"benefits"})) {
    if (std::string l = str(at(b, {"label"})); !l.empty()) benefits.push_back(l);
  }
  if (!benefits.empty()) job["benefits"] = benefits;
  job["description"] = str(at(out, {"description"}));
  job["descriptionHtml"] = str(at(out, {"descriptionHtml"}));
  if (const json& published = at(out, {"record", "datePublished"}); published.is_number()) {
    job["postedAt"] = iso8601_utc(std::chrono::system_clock::time_point(
        std::chrono::milliseconds(published.get<long long>())));
  } else if (std::string d = str(at(posting, {"datePosted"})); !d.empty()) {
    job["postedAt"] = d;
  }
  const bool expired =
      at(out, {"record", "expired"}) == true || at(out, {"details", "isJobExpired"}) == true ||
      at(out, {"expired", "header"}) == true || at(out, {"expired", "metadata"}).is_object();
  job["expired"] = expired;
  if (const json& c = at(out, {"commute"}); c.is_object()) {
    if (at(c, {"jobLatitude"}).is_number() && at(c, {"jobLongitude"}).is_number() &&
        at(c, {"obscureEmployerLocation"}) != true) {
      job["coordinates"] = {{"latitude", at(c, {"jobLatitude"})},
                            {"longitude", at(c, {"jobLongitude"})}};
    }
    if (std::string a = str(at(c, {"formattedStreetAddress"})); !a.empty()) job["address"] = a;
  }
  if (std::string apply = str(at(out, {"record", "url"})); apply.starts_with("http")) {
    job["applyLink"] = apply;
  }
  return {{"job", job}};
}

class JobEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "jobs/job"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"job.title",    "job.company.name", "job.company.rating", "job.location",
            "job.jobTypes", "job.salary",       "job.description",    "job.descriptionHtml",
            "job.postedAt", "job.benefits"};
  }
  const Parameters& parameters() const override { return job_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    const JobUrl job = *parse_job_url(*p.string("url"));
    PageRequest request;
    request.url = "https://" + job.host + "/viewjob?jk=" + job.job_key;
    request.script_args = {{"jobKey", job.job_key}};
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    return shape_job(output, params);
  }

  bool has_content(const json& body) const override {
    return !str(at(body, {"job", "title"})).empty();
  }
};

}  // namespace

std::optional<JobUrl> parse_job_url(const std::string& url) {
  static const Regex kUrl(
      std::string(R"(https?://()") + kHost + R"()(/[^?#]*)?(?:\?([^#]*))?(?:#.*)?)",
      {.ignore_case = true});
  RegexMatch m;
  if (!kUrl.full_match(url, m)) return std::nullopt;
  std::string host = lower(m[1].str());
  if (host == "indeed.com") host = "www.indeed.com";
  const std::string path = m[2];
  const std::string query = m[3];
  static const Regex kJk(R"((?:^|&)jk=([0-9a-f]{16})(?:&|$))");
  static const Regex kVjk(R"((?:^|&)vjk=([0-9a-f]{16})(?:&|$))");
  static const Regex kJobPath(R"(/(?:m/)?(?:basecamp/)?viewjob|/rc/clk|/pagead/clk|/m/rc/clk)");
  RegexMatch q;
  if (kJobPath.full_match(path) && kJk.search(query, q)) {
    return JobUrl{host, q[1]};
  }
  if (kVjk.search(query, q)) return JobUrl{host, q[1]};
  return std::nullopt;
}

const Endpoint& job_endpoint() {
  return the_endpoint<JobEndpoint>();
}

}  // namespace gleaner::extract::indeed
