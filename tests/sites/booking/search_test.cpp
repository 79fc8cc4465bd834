// GET /scrape/stays/search without a browser: the search's parameters (the stay's rules, price
// bounds, filter arrays, paging), the results URL with `ss`, the stay, `offset`, `nflt` and
// `order`, and the shaping of search.js's recorded output on the real Booking pages of the
// fixtures: the whole Ruidera results page (25 cards, 251 properties, no dates so no prices) and
// the Belgrade excerpt (six cards with prices in EUR).
#include <gtest/gtest.h>

#include "core/error.h"
#include "extract/sites/common/clock.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::booking {
namespace {

using nlohmann::json;
using namespace std::chrono;
using testing::refused;
using testing::rejection;

const Endpoint& search() {
  return search_endpoint();
}
const QueryParams kBelgrade = {{"keyword", "Belgrade"},
                               {"checkInDate", "2026-12-14"},
                               {"checkOutDate", "2026-12-16"},
                               {"rooms", "1"},
                               {"adults", "2"},
                               {"children", "0"}};

class BookingSearch : public ::testing::Test {
 protected:
  FakeClock clock_{sys_days(2026y / November / 24)};
  ScopedSiteClock scoped_{clock_};
  static QueryParams with(QueryParams q, const std::string& k, const std::string& v) {
    q.emplace(k, v);
    return q;
  }
  static std::string url(const QueryParams& q) {
    return search().build_request(search().validate(q)).url;
  }
};

TEST_F(BookingSearch, ParametersOfTheSearch) {
  EXPECT_EQ(rejection(search(), kBelgrade), refused(ErrorCode::Internal, "accepted"));
  QueryParams no_keyword = kBelgrade;
  no_keyword.erase("keyword");
  EXPECT_EQ(rejection(search(), no_keyword), refused(ErrorCode::MissingParameter, "keyword"));
  // The stay's rules are place's (tests/sites/booking/place_test.cpp covers each).
  EXPECT_EQ(rejection(search(), with(kBelgrade, "childrenAges", "4")),
            refused(ErrorCode::InvalidParameter, "childrenAges"));
  EXPECT_EQ(rejection(search(), with(kBelgrade, "price[min]", "9")),
            refused(ErrorCode::InvalidParameter, "price[min]"));
  EXPECT_EQ(rejection(search(), with(kBelgrade, "price[max]", "19")),
            refused(ErrorCode::InvalidParameter, "price[max]"));
  EXPECT_EQ(rejection(search(), with(with(kBelgrade, "price[min]", "100"), "price[max]", "100")),
            refused(ErrorCode::InvalidParameter, "price[max]"));
  EXPECT_EQ(rejection(search(), with(kBelgrade, "price[max]", "20")),
            refused(ErrorCode::Internal, "accepted"));
  EXPECT_EQ(rejection(search(), with(kBelgrade, "bedrooms", "-1")),
            refused(ErrorCode::InvalidParameter, "bedrooms"));
  EXPECT_EQ(rejection(search(), with(kBelgrade, "page", "0")),
            refused(ErrorCode::InvalidParameter, "page"));
  EXPECT_EQ(rejection(search(), with(kBelgrade, "sort", "cheapest")),
            refused(ErrorCode::InvalidParameter, "sort"));
  EXPECT_EQ(rejection(search(), with(kBelgrade, "propertyType[]", "204;class=5")),
            refused(ErrorCode::InvalidParameter, "propertyType"));
}

TEST_F(BookingSearch, TheResultsPageAPersonOpens) {
  EXPECT_EQ(url(kBelgrade),
            "https://www.booking.com/"
            "searchresults.html?ss=Belgrade&checkin=2026-12-14&checkout=2026-12-16"
            "&group_adults=2&group_children=0&no_rooms=1");
  QueryParams q = with(
      with(with(with(with(with(kBelgrade, "page", "2"), "price[min]", "50"), "currency", "EUR"),
                "propertyType[]", "204"),
           "propertyType[]", "201"),
      "reviewScore[]", "80");
  q = with(with(with(q, "meals[]", "1"), "bedrooms", "2"), "sort", "priceLowest");
  EXPECT_EQ(
      url(q),
      "https://www.booking.com/"
      "searchresults.html?ss=Belgrade&checkin=2026-12-14&checkout=2026-12-16"
      "&group_adults=2&group_children=0&no_rooms=1&selected_currency=EUR&offset=25"
      "&nflt=price%3DEUR-50-max-1%3Bentire_place_bedroom_count%3D2%3Bht_id%3D204%3Bht_id%3D201"
      "%3Breview_score%3D80%3Bmealplan%3D1&order=price");
  EXPECT_TRUE(url(with(kBelgrade, "page", "3")).ends_with("&offset=50"));
  EXPECT_EQ(search().route(), "stays/search");
}

TEST_F(BookingSearch, RuideraResultsWithoutDates) {
  const json b = search().shape(testing::recorded("booking/data/search/ruidera_script_output.json"),
                                search().validate(kBelgrade));
  EXPECT_EQ(b["searchInformation"]["totalResults"], 251);
  EXPECT_EQ(b["pagination"], (json{{"currentPage", 1}, {"nextPage", 2}}));
  ASSERT_EQ(b["results"].size(), 25u);
  const json& first = b["results"][0];
  EXPECT_EQ(first["name"], "Hotel Rural Albamanjon");
  EXPECT_EQ(first["address"], "Ruidera");
  EXPECT_EQ(first["reviewScore"], 9.0);
  EXPECT_EQ(first["reviewScoreLabel"], "Wonderful");
  EXPECT_EQ(first["reviews"], 150);
  EXPECT_EQ(first["distanceFromCenter"], "30 feet from map center");
  EXPECT_EQ(first["link"], "https://www.booking.com/hotel/es/albamanjon.html");
  EXPECT_FALSE(first.contains("price"));  // "Check availability": no dates
  bool sole = false, caoba = false, emilia = false;
  for (const json& r : b["results"]) {
    sole |= r["name"] == "Casa Rural Sole" && r["reviewScore"] == 9.7 && r["reviews"] == 21;
    caoba |= r["name"] == "Casa La Caoba" && r["reviewScore"] == 8.3 && r["reviews"] == 47;
    emilia |= r["name"] == "Villa Emilia" && r["reviewScore"] == 10 && r["reviews"] == 8;
  }
  EXPECT_TRUE(sole && caoba && emilia);
  EXPECT_EQ(b["results"][24]["name"], "El Balcón del Rey");
  EXPECT_EQ(b["results"][24]["position"], 25);
}

TEST_F(BookingSearch, BelgradeCardsWithPrices) {
  const json b =
      search().shape(testing::recorded("booking/data/search/belgrade_script_output.json"),
                     search().validate(with(with(kBelgrade, "currency", "EUR"), "page", "2")));
  ASSERT_EQ(b["results"].size(), 6u);
  const json& sara = b["results"][0];
  EXPECT_EQ(sara["position"], 26);  // page 2 starts at 26
  EXPECT_EQ(sara["name"], "Rooms for rent \"SARA\"");
  EXPECT_EQ(sara["address"], "Voždovac, Belgrade");
  EXPECT_EQ(sara["distanceFromCenter"], "6.7 km from centre");
  EXPECT_EQ(sara["reviewScore"], 9.0);
  EXPECT_EQ(sara["reviews"], 252);
  EXPECT_EQ(sara["room"], "Twin Room");
  EXPECT_EQ(sara["beds"], (json{"2 single beds"}));
  EXPECT_EQ(sara["policies"],
            (json{"Extended free cancellation", "No prepayment needed – pay at the property"}));
  EXPECT_EQ(sara["price"]["total"], "€ 45");
  EXPECT_EQ(sara["price"]["extractedTotal"], 45);
  EXPECT_EQ(sara["price"]["currency"], "EUR");
  EXPECT_EQ(b["results"][5]["stars"], 3);
}

TEST_F(BookingSearch, NoResultsOnlyWhereTheSiteSaysSo) {
  EXPECT_EQ(search().shape(json{{"heading", "0 properties found"}, {"cards", json::array()}},
                           search().validate(kBelgrade))["results"],
            json::array());
  EXPECT_EQ(testing::error_of_shape(search(), json{{"cards", json::array()}},
                                    search().validate(kBelgrade)),
            ErrorCode::ExtractionFailed);
}

}  // namespace
}  // namespace gleaner::extract::booking
