// The kit's schema.org reader on real JSON-LD objects of the fixtures (read unchanged from
// tests/sites/<site>/pages) and on the other forms schema.org allows (@graph references, arrays,
// numbers as strings, OpeningHoursSpecification), written here in schema.org's documented shapes.
#include "extract/sites/common/schema_org.h"

#include <gtest/gtest.h>

#include "tests/support/pages.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::schema_org {
namespace {

using nlohmann::json;

TEST(SchemaOrg, YellowPagesLocalBusiness) {
  // The first of 90 LocalBusiness objects kept from yellowpages.com search pages.
  const json all = extract::testing::read_json_file(gleaner::testing::site_page(
      "yellowpages",
      "bizdir/scrapfly-yellowpages-com-search-jsonld-localbusiness-extract-2023-11.json"));
  ASSERT_EQ(of_type(all, {"LocalBusiness"}).size(), 90u);
  const json& b = all[0];
  EXPECT_EQ(text(b, "name"), "Z &Y Restaurant");
  EXPECT_EQ(address(b["address"])["full"], "655 Jackson St, San Francisco, CA, 94133, US");
  EXPECT_EQ(address(b["address"])["addressLocality"], "San Francisco");
  EXPECT_EQ(rating(b["aggregateRating"]), (json{{"value", 4.5}, {"count", 5}}));
  const json hours = opening_hours(b);
  ASSERT_EQ(hours.size(), 7u);  // Mo-Th, Fr-Sa, Su
  EXPECT_EQ(hours[0], (json{{"day", "Monday"}, {"opens", "11:00"}, {"closes", "21:30"}}));
  EXPECT_EQ(hours[4], (json{{"day", "Friday"}, {"opens", "11:00"}, {"closes", "22:30"}}));
  EXPECT_EQ(hours[6]["day"], "Sunday");
}

TEST(SchemaOrg, TripadvisorLodgingBusiness) {
  // A hotel page's unchanged JSON-LD: the rating value is a string, the country an object.
  const json hotel = extract::testing::read_json_file(gleaner::testing::site_page(
      "tripadvisor",
      "travel/scrapfly-tripadvisor-hotel-jsonld-plus-parsed-2025-10.json"))["basic_data"];
  EXPECT_TRUE(is_type(hotel, "LodgingBusiness"));
  EXPECT_EQ(rating(hotel["aggregateRating"]), (json{{"value", 4.3}, {"count", 1215}}));
  EXPECT_EQ(address(hotel["address"])["addressCountry"], "Malta");
  EXPECT_EQ(address(hotel["address"])["full"], "Thornton Street, Sliema, SLM 3143, Malta");
  auto geo = coordinates(hotel["geo"]);
  ASSERT_TRUE(geo);
  EXPECT_DOUBLE_EQ(geo->first, 35.9096);
  EXPECT_DOUBLE_EQ(geo->second, 14.508747);
  EXPECT_EQ(images(hotel["image"]).size(), 1u);
}

TEST(SchemaOrg, ReferencesArraysAndSpecifications) {
  // Written here in schema.org's documented forms: a @graph whose business references its
  // address and rating by @id, types as arrays, a decimal comma, OpeningHoursSpecification.
  const json nodes = json::parse(R"([
    {"@type": ["Restaurant", "LocalBusiness"], "@id": "#r", "name": ["Chez A"],
     "address": {"@id": "#addr"}, "aggregateRating": {"@id": "#rating"},
     "image": [{"@type": "ImageObject", "url": "https://x.test/1.jpg"}, "https://x.test/2.jpg",
               "https://x.test/1.jpg"],
     "openingHoursSpecification": [
       {"@type": "OpeningHoursSpecification", "dayOfWeek": ["https://schema.org/Saturday",
        "Sunday"], "opens": "09:00:00", "closes": "14:30"}]},
    {"@type": "PostalAddress", "@id": "#addr", "streetAddress": "1 rue X", "addressLocality": "Paris"},
    {"@type": "AggregateRating", "@id": "#rating", "ratingValue": "4,5", "ratingCount": "1,024"}
  ])");
  auto restaurants = of_type(nodes, {"Restaurant"});
  ASSERT_EQ(restaurants.size(), 1u);
  const json& r = *restaurants[0];
  EXPECT_EQ(text(r, "name"), "Chez A");
  EXPECT_EQ(address(r["address"], nodes)["full"], "1 rue X, Paris");
  EXPECT_EQ(rating(r["aggregateRating"], nodes), (json{{"value", 4.5}, {"count", 1024}}));
  EXPECT_EQ(images(r["image"]),
            (std::vector<std::string>{"https://x.test/1.jpg", "https://x.test/2.jpg"}));
  EXPECT_EQ(opening_hours(r, nodes),
            json::parse(R"([{"day":"Saturday","opens":"09:00","closes":"14:30"},
                            {"day":"Sunday","opens":"09:00","closes":"14:30"}])"));
  EXPECT_EQ(rating(json{{"ratingValue", nullptr}}), nullptr);
  EXPECT_EQ(address(json()), nullptr);
}

}  // namespace
}  // namespace gleaner::extract::schema_org
