// GET /scrape/indeed/listing: one Indeed search results page. listing.js reads the job cards the
// page embeds (the mosaic job cards provider's model), its related searches, job count and pager;
// this shapes them as the hosted service answers (hosted.md #19).

#include <chrono>
#include <cmath>

#include "core/error.h"
#include "core/time_text.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/url.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::indeed {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

const Parameters& listing_parameters() {
  static const Parameters params{
      {Param::string("keyword").required().max_length(512),
       Param::string("location").required().max_length(512),
       Param::string("sort").one_of({"relevance", "date"}).default_value("relevance"),
       Param::integer("start").range(0, 1000).multiple_of(10).default_value(0),
       Param::string("domain")
           .one_of({"ar.indeed.com", "au.indeed.com",       "at.indeed.com",  "bh.indeed.com",
                    "be.indeed.com", "br.indeed.com",       "ca.indeed.com",  "cl.indeed.com",
                    "cn.indeed.com", "co.indeed.com",       "cr.indeed.com",  "cz.indeed.com",
                    "dk.indeed.com", "ec.indeed.com",       "eg.indeed.com",  "fi.indeed.com",
                    "fr.indeed.com", "de.indeed.com",       "gr.indeed.com",  "hk.indeed.com",
                    "hu.indeed.com", "in.indeed.com",       "id.indeed.com",  "ie.indeed.com",
                    "il.indeed.com", "it.indeed.com",       "jp.indeed.com",  "kw.indeed.com",
                    "lu.indeed.com", "malaysia.indeed.com", "mx.indeed.com",  "ma.indeed.com",
                    "nl.indeed.com", "nz.indeed.com",       "ng.indeed.com",  "no.indeed.com",
                    "om.indeed.com", "pk.indeed.com",       "pa.indeed.com",  "pe.indeed.com",
                    "ph.indeed.com", "pl.indeed.com",       "pt.indeed.com",  "qa.indeed.com",
                    "ro.indeed.com", "sa.indeed.com",       "sg.indeed.com",  "za.indeed.com",
                    "kr.indeed.com", "es.indeed.com",       "se.indeed.com",  "ch.indeed.com",
                    "tw.indeed.com", "th.indeed.com",       "tr.indeed.com",  "ua.indeed.com",
                    "ae.indeed.com", "uk.indeed.com",       "www.indeed.com", "uy.indeed.com",
                    "ve.indeed.com", "vn.indeed.com"})
           .default_value("www.indeed.com")}};
  return params;
}

// The labels of one group of the card's taxonomy attributes ("job-types", "benefits", ...).
json labels_of(const json& taxonomy, const std::string& group) {
  json out = json::array();
  for (const json& t : taxonomy) {
    if (str(at(t, {"label"})) != group) continue;
    for (const json& a : at(t, {"attributes"})) {
      if (std::string l = str(at(a, {"label"})); !l.empty()) out.push_back(l);
    }
  }
  return out;
}

json shape_listing(const json& output, const ValidatedParams& params) {
  const json& results = at(output, {"results"});
  if (!results.is_array() && at(output, {"noResults"}) == true) {
    // The site's own "did not match any jobs" page: an empty search, not an unread one.
    return {{"searchInformation",
             {{"keyword", *params.string("keyword")},
              {"location", *params.string("location")},
              {"totalResults", 0}}},
            {"jobs", json::array()},
            {"pagination", json::object()}};
  }
  if (!results.is_array()) {
    throw extraction_failed("could not find the job cards on the page",
                            "no mosaic-provider-jobcards model on the page");
  }
  const std::string origin = str(at(output, {"origin"})).empty()
                                 ? "https://" + *params.string("domain")
                                 : str(at(output, {"origin"}));
  json out = json::object();
  json info = {{"keyword", *params.string("keyword")}, {"location", *params.string("location")}};
  // "14,000+ jobs": the count the page shows (a floor when it ends in '+'); where the page hides
  // the line (2026 pages), the count its data carries.
  // The older layout's "Page 1 of 154 jobs" ("Halaman 1 dari 154 lowongan"): its last number.
  const std::vector<double> pages_line = parse_numbers(str(at(output, {"countPages"})));
  if (auto total = parse_count(str(at(output, {"count"})))) {
    info["totalResults"] = *total;
  } else if (const json& n = at(output, {"totalJobCount"}); n.is_number_integer()) {
    info["totalResults"] = n;
  } else if (!pages_line.empty() && pages_line.back() >= 0) {
    info["totalResults"] = std::llround(pages_line.back());
  }
  out["searchInformation"] = info;
  json jobs = json::array();
  for (const json& r : results) {
    const std::string key = str(at(r, {"jobkey"}));
    if (key.empty()) continue;
    json job = {{"title", str(at(r, {"title"}))},
                {"company", str(at(r, {"company"}))},
                {"location", str(at(r, {"location"}))},
                {"url", origin + "/viewjob?jk=" + key},
                {"jobKey", key},
                {"description", str(at(r, {"snippet"}))},
                {"sponsored", at(r, {"sponsored"}) == true}};
    if (std::string d = str(at(r, {"relative"})); !d.empty()) job["date"] = d;
    if (const json& pub = at(r, {"pubDate"}); pub.is_number()) {
      job["isoDate"] = iso8601_utc(
          std::chrono::system_clock::time_point(std::chrono::milliseconds(pub.get<long long>())));
    }
    const json& taxonomy = at(r, {"taxonomy"});
    json details = labels_of(taxonomy, "job-types");
    for (const char* group : {"shifts", "remote"}) {
      for (const json& l : labels_of(taxonomy, group)) details.push_back(l);
    }
    job["details"] = details;
    job["benefits"] = labels_of(taxonomy, "benefits");
    const json& salary = at(r, {"extractedSalary"});
    if (salary.is_object()) {
      json s = json::object();
      // Indeed writes -1 for the missing end of a range ("From $22.38 an hour") and 0 for the
      // missing start ("Up to ₹3,200 a month").
      const json& lo = at(salary, {"min"});
      const json& hi = at(salary, {"max"});
      const bool up_to =
          lo.is_number() && lo.get<double>() == 0 && hi.is_number() && hi.get<double>() > 0;
      if (lo.is_number() && lo.get<double>() >= 0 && !up_to) s["min"] = lo;
      if (hi.is_number() && hi.get<double>() >= 0) s["max"] = hi;
      if (std::string t = str(at(salary, {"type"})); !t.empty()) s["type"] = upper(t);
      const std::string text = str(at(r, {"salarySnippet", "text"}));
      if (std::string c = str(at(r, {"salarySnippet", "currency"})); !c.empty()) {
        s["currency"] = c;
      } else if (auto money = parse_money(text); money && !money->currency.empty()) {
        // Older cards (2022) name no currency: the one their text writes ("Rp. 6.000.000").
        s["currency"] = money->currency;
      }
      if (!text.empty()) s["text"] = text;
      job["salary"] = s;
    }
    jobs.push_back(std::move(job));
  }
  out["jobs"] = jobs;
  json related = json::array();
  for (const json& q : at(output, {"related"})) {
    const std::string query = str(at(q, {"query"}));
    if (query.empty()) continue;
    related.push_back(
        {{"query", query},
         {"link", origin + str(at(q, {"canonicalRelatedQueryUrl"})) + str(at(q, {"urlParams"}))}});
  }
  if (!related.empty()) out["peopleAlsoSearchFor"] = related;
  json pagination = json::object();
  if (std::string next = str(at(output, {"next"})); !next.empty()) pagination["nextPage"] = next;
  out["pagination"] = pagination;
  return out;
}

class ListingEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "indeed/listing"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"jobs[].title",   "jobs[].company", "jobs[].location",    "jobs[].url",
            "jobs[].isoDate", "jobs[].salary",  "pagination.nextPage"};
  }
  const Parameters& parameters() const override { return listing_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    UrlBuilder url("https://" + *p.string("domain") + "/jobs");
    url.add("q", *p.string("keyword"));
    url.add("l", *p.string("location"));
    if (*p.string("sort") == "date") url.add("sort", "date");
    if (auto start = p.integer("start"); start && *start > 0) {
      url.add("start", std::to_string(*start));
    }
    PageRequest request;
    request.url = url.str();
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    return shape_listing(output, params);
  }

  // A page without cards is one we could not read, unless it is the site's page of no matches.
  bool has_content(const json& body) const override {
    return !at(body, {"jobs"}).empty() || at(body, {"searchInformation", "totalResults"}) == 0;
  }
  bool page_recognized(const json& output) const override {
    return at(output, {"results"}).is_array() || at(output, {"noResults"}) == true;
  }
};

}  // namespace

const Endpoint& listing_endpoint() {
  return the_endpoint<ListingEndpoint>();
}

}  // namespace gleaner::extract::indeed
