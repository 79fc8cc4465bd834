#include "api/router.h"

#include <gtest/gtest.h>

using namespace gleaner::api;

TEST(Router, MatchesLiteralAndCapturedSegments) {
  Router router;
  router.add("GET", "/scrapers/jobs/{id}", [](Request&) { return Response{}; });
  router.add("DELETE", "/scrapers/jobs/{id}", [](Request&) { return Response{}; });
  router.add("GET", "/scrapers/jobs/{id}/results", [](Request&) { return Response{}; });

  auto m = router.match("GET", "/scrapers/jobs/abc");
  ASSERT_NE(m.handler, nullptr);
  EXPECT_EQ(m.params.at("id"), "abc");
  EXPECT_EQ(m.pattern, "/scrapers/jobs/{id}");

  auto results = router.match("GET", "/scrapers/jobs/abc/results");
  ASSERT_NE(results.handler, nullptr);
  EXPECT_EQ(results.pattern, "/scrapers/jobs/{id}/results");
}

TEST(Router, KnownPathWithOtherMethodIsNotAMatchButKnown) {
  Router router;
  router.add("POST", "/scrape/web", [](Request&) { return Response{}; });
  auto m = router.match("GET", "/scrape/web");
  EXPECT_EQ(m.handler, nullptr);
  EXPECT_TRUE(m.path_known);
  auto unknown = router.match("GET", "/scrape/nothing");
  EXPECT_FALSE(unknown.path_known);
}

TEST(Router, HeadIsServedByGetAndTrailingSlashIsTheSamePath) {
  Router router;
  router.add("GET", "/health", [](Request&) { return Response{}; });
  EXPECT_NE(router.match("HEAD", "/health").handler, nullptr);
  EXPECT_NE(router.match("GET", "/health/").handler, nullptr);
  EXPECT_EQ(router.match("GET", "/health/x").handler, nullptr);
}
