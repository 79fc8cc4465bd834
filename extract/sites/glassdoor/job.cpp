// GET /scrape/careers/job (the hosted clients' /scrape/glassdoor/job): one Glassdoor job. The URL
// names the job by its listing id (`jl=`): a job page (`/job-listing/...?jl=`) or a search page
// that opens the job beside the list (`/Job/...htm?jl=`). job.js reads the job's `JobView` of the
// page's Apollo cache; this shapes it as the hosted service answers (hosted.md #4).

#include <utility>

#include "core/error.h"
#include "core/regex.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::glassdoor {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

struct JobUrl {
  std::string host;
  std::string path;
  std::string listing_id;
};

// Glassdoor's country sites (www.glassdoor.<tld>) and the second-language hosts of a country.
constexpr const char* kHost =
    R"((?:www\.)?glassdoor\.(?:com|co\.uk|ca|com\.au|co\.in|de|fr|ie|nl|be|at|ch|es|it|com\.mx|com\.br|sg|com\.hk|co\.nz|com\.ar)|(?:de|fr)\.glassdoor\.ch|(?:fr|nl)\.glassdoor\.be|fr\.glassdoor\.ca)";

// A job page (`/job-listing/<slug>.htm?jl=<id>`) or a search page with the job open
// (`/Job/<search>.htm?jl=<id>`, in the site's language on the sites that translate the word:
// `/Emploi/`, `/Empleo/`, `/Vaga/`, `/Lavoro/`, `/Vacature/`), on one of the sites; nullopt for
// anything else.
std::optional<JobUrl> parse_job_url(const std::string& url) {
  static const Regex kUrl(
      std::string(R"(https?://()") + kHost +
          R"()(/(?:job-listing|Job|Emploi|Empleo|Vaga|Lavoro|Vacature)/[^?#]*)\?([^#]*)(?:#.*)?)",
      {.ignore_case = true});
  static const Regex kJl(R"((?:^|&)jl=(\d{1,20})(?:&|$))");
  RegexMatch m;
  RegexMatch q;
  if (!kUrl.full_match(url, m)) return std::nullopt;
  const std::string query = m[3];
  if (!kJl.search(query, q)) return std::nullopt;
  std::string host = lower(m[1].str());
  if (!host.starts_with("www.") && host.find(".glassdoor.") == std::string::npos) {
    host = "www." + host;
  }
  return JobUrl{host, m[2], q[1]};
}

const Parameters& job_parameters() {
  static const Parameters params{
      {Param::string("url").required().max_length(2048)},
      {Rule::custom([](const ValidatedParams& p) {
        if (!parse_job_url(*p.string("url"))) {
          throw invalid_parameter(
              "url",
              "url must be a Glassdoor job URL that names the job with jl=<listing id>: a job "
              "page (/job-listing/...?jl=) or a search page with the job open (/Job/...htm?jl=), "
              "on one of Glassdoor's sites");
        }
      })}};
  return params;
}

json strings_of(const json& list) {
  json out = json::array();
  for (const json& v : list) {
    if (std::string s = str(v); !s.empty()) out.push_back(s);
  }
  return out;
}

json shape_job(const json& out, const JobUrl& asked) {
  // The job the page shows: the asked one's view when the script found it, else the first view.
  std::string shown = str(at(out, {"listingId"}));
  if (const json& ids = at(out, {"viewIds"}); shown.empty() && ids.is_array() && !ids.empty()) {
    shown = str(ids[0]);
  }
  if (!shown.empty() && shown != asked.listing_id) {
    throw Error(ErrorCode::UpstreamError, "the site showed another job than the one asked for",
                "asked " + asked.listing_id + ", the page's job is " + shown);
  }
  if (at(out, {"found"}) != true) {
    if (at(out, {"hasNextData"}) == true) {
      throw Error(ErrorCode::NotFound, "the job does not exist on the site (or was taken down)",
                  "the page's data has no job view for " + asked.listing_id);
    }
    throw extraction_failed("could not find the job's data on the page",
                            "no Apollo cache with a jobView on the page");
  }
  const std::string origin = "https://" + asked.host + "/";
  json job = json::object();
  job["id"] = asked.listing_id;
  job["title"] = str(at(out, {"title"}));
  std::string url = str(at(out, {"seoLink"}));
  job["url"] = url.empty() ? "https://" + asked.host + asked.path + "?jl=" + asked.listing_id
                           : absolute_url(origin, url);

  json employer = {{"name", str(at(out, {"employer", "name"}))}};
  if (std::string u = str(at(out, {"employer", "overviewUrl"})); !u.empty()) {
    employer["url"] = absolute_url(origin, u);
  }
  if (std::string id = text(at(out, {"employer", "id"})); !id.empty()) employer["id"] = id;
  if (std::string s = str(at(out, {"employer", "shortName"})); !s.empty())
    employer["shortName"] = s;
  // 0 is the site's "no rating": the page shows none.
  if (const json& r = at(out, {"employer", "rating"}); r.is_number() && r.get<double>() > 0) {
    employer["rating"] = r;
  }
  if (std::string l = str(at(out, {"employer", "logoUrl"})); !l.empty()) employer["logoUrl"] = l;
  job["employer"] = employer;

  if (std::string l = str(at(out, {"location"})); !l.empty()) job["location"] = l;
  json address = json::object();
  for (const char* k : {"country", "region", "city"}) {
    if (std::string v = str(at(out, {"address", k})); !v.empty()) address[k] = v;
  }
  for (const char* k : {"latitude", "longitude"}) {
    if (const json& v = at(out, {"address", k}); v.is_number()) address[k] = v;
  }
  job["address"] = address;

  // The pay estimate's 10th, 50th and 90th percentiles, in the site's period and currency.
  const json& pay = at(out, {"pay"});
  if (at(pay, {"p10"}).is_number() || at(pay, {"p50"}).is_number()) {
    json salary = json::object();
    if (std::string c = str(at(out, {"payCurrency"})); !c.empty()) salary["payCurrency"] = c;
    if (std::string p = str(at(out, {"payPeriod"})); !p.empty()) salary["period"] = p;
    constexpr std::pair<const char*, const char*> kPercentiles[] = {
        {"p10", "min"}, {"p50", "median"}, {"p90", "max"}};
    for (const auto& [key, name] : kPercentiles) {
      if (const json& v = at(pay, {key}); v.is_number()) salary[name] = v;
    }
    if (std::string s = str(at(out, {"salarySource"})); !s.empty()) salary["source"] = s;
    job["salary"] = salary;
  }
  job["description"] = str(at(out, {"description"}));
  job["descriptionHtml"] = str(at(out, {"descriptionHtml"}));
  job["requirements"] = {{"educationRequirements", strings_of(at(out, {"education"}))},
                         {"experienceRequirements", strings_of(at(out, {"experience"}))}};
  if (json types = strings_of(at(out, {"jobTypes"})); !types.empty()) job["jobTypes"] = types;
  // "2025-05-25T00:00:00": the day the site found the job (no time of day, no zone).
  if (std::string d = str(at(out, {"discoverDate"})); d.size() >= 10) {
    job["datePosted"] = d.substr(0, 10);
  }
  if (const json& age = at(out, {"ageInDays"}); age.is_number_integer()) job["ageInDays"] = age;
  job["expired"] = at(out, {"expired"}) == true;
  if (const json& easy = at(out, {"easyApply"}); easy.is_boolean()) job["easyApply"] = easy;
  if (json skills = strings_of(at(out, {"skills"})); !skills.empty()) job["skills"] = skills;
  if (std::string a = str(at(out, {"applyUrl"})); !a.empty()) {
    job["applyLink"] = absolute_url(origin, a);
  }
  return {{"job", job}};
}

class JobEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "careers/job"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"job.title",      "job.employer.name", "job.employer.rating",
            "job.location",   "job.salary",        "job.description",
            "job.datePosted", "job.ageInDays",     "job.applyLink"};
  }
  const Parameters& parameters() const override { return job_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    const JobUrl job = *parse_job_url(*p.string("url"));
    PageRequest request;
    // The page the URL names, without its tracking parameters.
    request.url = "https://" + job.host + job.path + "?jl=" + job.listing_id;
    request.script_args = {{"listingId", job.listing_id}};
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& out, const ValidatedParams& p) const override {
    return shape_job(out, *parse_job_url(*p.string("url")));
  }

  bool has_content(const json& body) const override {
    return !str(at(body, {"job", "title"})).empty();
  }
};

}  // namespace

const Endpoint& job_endpoint() {
  return the_endpoint<JobEndpoint>();
}

}  // namespace gleaner::extract::glassdoor
