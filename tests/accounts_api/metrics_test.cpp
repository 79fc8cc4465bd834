// api/metrics.h: the Prometheus text exposition (format 0.0.4): families with HELP and TYPE,
// cumulative histogram buckets, escaped label values, and the sampled gauges.
#include "api/metrics.h"

#include <gtest/gtest.h>

#include <cstring>
#include <sstream>
#include <string>

using namespace gleaner;
using namespace gleaner::api;

namespace {

bool has_line(const std::string& text, const std::string& line) {
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (l == line) return true;
  }
  return false;
}

}  // namespace

TEST(Metrics, CountsRequestsByRouteMethodAndStatus) {
  Metrics m;
  m.observe_request("/scrape/search/news", "GET", 200, Millis(120));
  m.observe_request("/scrape/search/news", "GET", 200, Millis(80));
  m.observe_request("/scrape/search/news", "GET", 402, Millis(3));
  m.observe_request("", "GET", 404, Millis(1));
  const std::string text = m.render({}, {});
  EXPECT_TRUE(has_line(text, "# TYPE gleaner_http_requests_total counter")) << text;
  EXPECT_TRUE(has_line(
      text, R"(gleaner_http_requests_total{route="/scrape/search/news",method="GET",status="200"} 2)"))
      << text;
  EXPECT_TRUE(has_line(
      text, R"(gleaner_http_requests_total{route="/scrape/search/news",method="GET",status="402"} 1)"));
  // Paths that matched no route share one label value.
  EXPECT_TRUE(has_line(text, R"(gleaner_http_requests_total{route="unmatched",method="GET",status="404"} 1)"));
}

TEST(Metrics, LatencyBucketsAreCumulative) {
  Metrics m({0.1, 1, 10});
  m.observe_request("/r", "GET", 200, Millis(50));     // ≤ 0.1
  m.observe_request("/r", "GET", 200, Millis(100));    // ≤ 0.1 (bounds are inclusive)
  m.observe_request("/r", "GET", 200, Millis(2000));   // ≤ 10
  m.observe_request("/r", "GET", 200, Millis(60000));  // only +Inf
  const std::string text = m.render({}, {});
  EXPECT_TRUE(has_line(text, "# TYPE gleaner_http_request_duration_seconds histogram")) << text;
  EXPECT_TRUE(has_line(text, R"(gleaner_http_request_duration_seconds_bucket{route="/r",le="0.1"} 2)"))
      << text;
  EXPECT_TRUE(has_line(text, R"(gleaner_http_request_duration_seconds_bucket{route="/r",le="1"} 2)"));
  EXPECT_TRUE(has_line(text, R"(gleaner_http_request_duration_seconds_bucket{route="/r",le="10"} 3)"));
  EXPECT_TRUE(has_line(text, R"(gleaner_http_request_duration_seconds_bucket{route="/r",le="+Inf"} 4)"));
  EXPECT_TRUE(has_line(text, R"(gleaner_http_request_duration_seconds_count{route="/r"} 4)"));
  const std::string sum_prefix = R"(gleaner_http_request_duration_seconds_sum{route="/r"} )";
  const auto at = text.find(sum_prefix);
  ASSERT_NE(at, std::string::npos) << text;
  EXPECT_NEAR(std::stod(text.substr(at + sum_prefix.size())), 62.15, 1e-9);
}

TEST(Metrics, CreditsAndUnchargedSuccesses) {
  Metrics m;
  m.observe_charge("search/news", 10);
  m.observe_charge("search/news", 10);
  m.observe_charge("web", 5);
  m.observe_uncharged("client_gone");
  const std::string text = m.render({}, {});
  EXPECT_TRUE(has_line(text, R"(gleaner_credits_charged_total{endpoint="search/news"} 20)")) << text;
  EXPECT_TRUE(has_line(text, R"(gleaner_credits_charged_total{endpoint="web"} 5)"));
  EXPECT_TRUE(has_line(text, R"(gleaner_charged_requests_total{endpoint="search/news"} 2)"));
  EXPECT_TRUE(has_line(text, R"(gleaner_uncharged_successes_total{reason="client_gone"} 1)"));
}

TEST(Metrics, GaugesComeFromTheSampledState) {
  Metrics m;
  AdmissionState admission;
  admission.running = 3;
  admission.queued = 5;
  admission.refused_queue_full = 2;
  browser::PoolState pool;
  pool.processes = 2;
  pool.busy_pages = 3;
  pool.free_pages = 5;
  pool.restarts = 1;
  pool.recycles = 4;
  pool.pages_served = 99;
  const std::string text = m.render(admission, pool);
  EXPECT_TRUE(has_line(text, "gleaner_admission_running 3")) << text;
  EXPECT_TRUE(has_line(text, "gleaner_admission_queue_length 5"));
  EXPECT_TRUE(has_line(text, R"(gleaner_admission_refused_total{reason="queue_full"} 2)"));
  EXPECT_TRUE(has_line(text, "gleaner_pool_processes 2"));
  EXPECT_TRUE(has_line(text, "gleaner_pool_busy_pages 3"));
  EXPECT_TRUE(has_line(text, "gleaner_pool_free_pages 5"));
  EXPECT_TRUE(has_line(text, "gleaner_browser_restarts_total 1"));
  EXPECT_TRUE(has_line(text, "gleaner_browser_recycles_total 4"));
  EXPECT_TRUE(has_line(text, "gleaner_pool_pages_served_total 99"));
  // The process's own memory, read when scraped: present and not zero.
  for (const char* name :
       {"gleaner_heap_allocated_bytes ", "gleaner_heap_held_bytes ", "gleaner_resident_bytes "}) {
    const auto at = text.find(std::string("\n") + name);
    ASSERT_NE(at, std::string::npos) << name;
    EXPECT_GT(std::stoll(text.substr(at + 1 + std::strlen(name))), 0) << name;
  }
}

TEST(Metrics, EveryLineIsACommentOrASample) {
  Metrics m;
  m.observe_request("/a\"b", "GET", 200, Millis(1));
  const std::string text = m.render({}, {});
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    ASSERT_FALSE(l.empty());
    if (l[0] == '#') {
      EXPECT_TRUE(l.rfind("# HELP gleaner_", 0) == 0 || l.rfind("# TYPE gleaner_", 0) == 0) << l;
    } else {
      EXPECT_EQ(l.rfind("gleaner_", 0), 0u) << l;
      EXPECT_NE(l.find(' '), std::string::npos) << l;
    }
  }
}

TEST(EscapeLabelValue, BackslashQuoteAndNewline) {
  EXPECT_EQ(escape_label_value("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
  EXPECT_EQ(escape_label_value("/scrape/search/news"), "/scrape/search/news");
}

TEST(Metrics, FieldHealthByEndpointFieldAndPresence) {
  Metrics m;
  m.observe_fields("stays/place", {{"name", true}, {"rating.value", false}});
  m.observe_fields("stays/place", {{"name", true}, {"rating.value", true}});
  const std::string text = m.render({}, {});
  EXPECT_TRUE(has_line(text, "# TYPE gleaner_extract_field_total counter")) << text;
  EXPECT_TRUE(has_line(
      text, R"(gleaner_extract_field_total{endpoint="stays/place",field="name",present="true"} 2)"));
  EXPECT_TRUE(has_line(
      text,
      R"(gleaner_extract_field_total{endpoint="stays/place",field="rating.value",present="false"} 1)"));
  EXPECT_TRUE(has_line(
      text,
      R"(gleaner_extract_field_total{endpoint="stays/place",field="rating.value",present="true"} 1)"));
}
