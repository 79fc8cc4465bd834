// GET /scrape/stays/search end to end in real Chromium over replay archives of real results pages:
// the whole Ruidera page of 2025 in English and in Spanish, the Belgrade excerpt as the English-
// and the Spanish-language site write it, pages priced in taka and rupiah (2025), the mobile
// site's page in Spanish (2025), the Zandvoort page of 2026 and two pages the site served without
// the search.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::booking {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::prefix_entry;
using testing::requested;
using testing::run_in_chromium;

// The results of `page` (stays-search/) for `keyword` (2 adults, 1 room, in `currency` if any).
nlohmann::json search_page(const std::string& keyword, const std::string& page,
                           const std::string& currency = "") {
  TempReplayArchive archive;
  archive.add(prefix_entry("https://www.booking.com/searchresults.html?",
                           gleaner::testing::site_page("booking", "stays-search/" + page)));
  QueryParams query = {{"keyword", keyword},   {"checkInDate", "2030-03-29"},
                       {"checkOutDate", "2030-03-30"}, {"rooms", "1"},
                       {"adults", "2"},        {"children", "0"}};
  if (!currency.empty()) query.emplace("currency", currency);
  return run_in_chromium(search_endpoint(), archive.load(), query).body;
}

// How many results have a price before a discount; each such price is above the price paid.
int discounted_cards(const nlohmann::json& results) {
  int discounted = 0;
  for (const nlohmann::json& r : results) {
    if (!r.contains("price") || !r["price"].contains("original")) continue;
    ++discounted;
    EXPECT_GT(r["price"]["extractedOriginal"], r["price"]["extractedTotal"]) << r["name"];
  }
  return discounted;
}

TEST(BookingSearchInChromium, Ruidera) {
  TempReplayArchive archive;
  archive.add(prefix_entry(
      "https://www.booking.com/searchresults.html?",
      gleaner::testing::site_page(
          "booking", "stays-search/booking-searchresults-ruidera-en-dom-2025-04.html")));
  auto replay = archive.load();
  auto result = run_in_chromium(search_endpoint(), replay,
                                {{"keyword", "Ruidera"},
                                 {"checkInDate", "2030-06-01"},
                                 {"checkOutDate", "2030-06-03"},
                                 {"rooms", "1"},
                                 {"adults", "2"},
                                 {"children", "1"},
                                 {"childrenAges", "6"},
                                 {"rating[]", "3"}});
  EXPECT_EQ(
      requested(*replay, "https://www.booking.com/searchresults").front(),
      "https://www.booking.com/searchresults.html?ss=Ruidera&checkin=2030-06-01&checkout=2030-06-03"
      "&group_adults=2&group_children=1&age=6&no_rooms=1&nflt=class%3D3");
  EXPECT_EQ(result.body["searchInformation"]["totalResults"], 251);
  EXPECT_EQ(result.body["results"][0]["name"], "Hotel Rural Albamanjon");
  EXPECT_EQ(result.body["results"].size(), 25u);
}

// The Ruidera search as the Spanish-language site shows it (2025-04, lang="es", scrolled to 75
// cards with "Cargar más resultados"): "…: 244 alojamientos encontrados", "Puntuación: 9,0",
// "Fantástico", "150 comentarios", "a 9,6 m del centro del mapa".
TEST(BookingSearchInChromium, RuideraInSpanishScrolledTo75Cards) {
  const nlohmann::json b =
      search_page("Ruidera", "booking-searchresults-ruidera-es-scrolled-dom-2025-04.html");
  EXPECT_EQ(b["searchInformation"]["totalResults"], 244);
  ASSERT_EQ(b["results"].size(), 75u);
  const nlohmann::json& first = b["results"][0];
  EXPECT_EQ(first["name"], "Hotel Rural Albamanjon");
  EXPECT_EQ(first["address"], "Ruidera");
  EXPECT_EQ(first["distanceFromCenter"], "a 9,6 m del centro del mapa");
  EXPECT_EQ(first["reviewScore"], 9.0);
  EXPECT_EQ(first["reviewScoreLabel"], "Fantástico");
  EXPECT_EQ(first["reviews"], 150);
  EXPECT_EQ(b["results"][25]["name"], "Villa Tranquila Lagunas de Ruidera");
  EXPECT_EQ(b["results"][25]["address"], "Ossa de Montiel");
  const nlohmann::json& last = b["results"][74];
  EXPECT_EQ(last["name"], "Casa Rural Maria Belen");
  EXPECT_EQ(last["distanceFromCenter"], "a 6,6 km del centro del mapa");
  EXPECT_EQ(last["reviewScore"], 9.2);
  EXPECT_EQ(last["reviews"], 51);
  EXPECT_EQ(last["position"], 75);
}

// Searches with dates priced in other currencies (2025): Khulna, Bangladesh in taka (5 cards,
// "BDT 1,831", a card new to the site without a score), Dhaka in taka scrolled to 197 cards of
// 199 (a discounted card: "BDT 15,891" before "BDT 12,713"), and Batam, Indonesia in rupiah
// ("Rp 769,500", taxes included).
TEST(BookingSearchInChromium, KhulnaInTaka2025) {
  const nlohmann::json b =
      search_page("Khulna", "booking-searchresults-khulna-bdt-2025-03.html", "BDT");
  EXPECT_EQ(b["searchInformation"]["totalResults"], 5);
  ASSERT_EQ(b["results"].size(), 5u);
  const nlohmann::json& first = b["results"][0];
  EXPECT_EQ(first["name"], "The Hotel Golden Star");
  EXPECT_EQ(first["address"], "Khulna");
  EXPECT_EQ(first["distanceFromCenter"], "2.1 km from downtown");
  EXPECT_FALSE(first.contains("reviewScore"));  // "New to Booking.com"
  EXPECT_EQ(first["room"], "Double Room");
  EXPECT_EQ(first["price"]["total"], "BDT 1,831");
  EXPECT_EQ(first["price"]["extractedTotal"], 1831);
  EXPECT_EQ(first["price"]["currency"], "BDT");
  EXPECT_EQ(first["price"]["taxes"], "+BDT 485 taxes and fees");
  EXPECT_EQ(first["price"]["for"], "1 night, 2 adults");
  EXPECT_FALSE(first["price"].contains("original"));
  const nlohmann::json& last = b["results"][4];
  EXPECT_EQ(last["name"], "Nokshi Lakeshore: 03 Bed Room Apartment");
  EXPECT_EQ(last["reviewScore"], 8.0);
  EXPECT_EQ(last["reviews"], 4);
  EXPECT_EQ(last["price"]["extractedTotal"], 4956);
  EXPECT_FALSE(b["pagination"].contains("nextPage"));
}

TEST(BookingSearchInChromium, DhakaInTakaWithADiscountedCard2025) {
  const nlohmann::json b = search_page("Dhaka", "booking-searchresults-dhaka-bdt-scrolled-2025-03.html", "BDT");
  EXPECT_EQ(b["searchInformation"]["totalResults"], 199);
  ASSERT_EQ(b["results"].size(), 197u);
  EXPECT_EQ(b["results"][0]["name"], "Central Inn Dhaka");
  EXPECT_EQ(b["results"][0]["address"], "Motijheel, Dhaka");
  EXPECT_EQ(b["results"][0]["reviewScore"], 9.0);
  EXPECT_EQ(b["results"][0]["reviews"], 2);
  const nlohmann::json& last = b["results"][196];
  EXPECT_EQ(last["name"], "PMC Monir Garden");
  EXPECT_EQ(last["price"]["total"], "BDT 12,713");
  EXPECT_EQ(last["price"]["extractedTotal"], 12713);
  EXPECT_EQ(last["price"]["original"], "BDT 15,891");
  EXPECT_EQ(last["price"]["extractedOriginal"], 15891);
  EXPECT_EQ(last["price"]["currency"], "BDT");
  // The page says "Original price …" of 51 cards: those, and only those, have one.
  EXPECT_EQ(discounted_cards(b["results"]), 51);
}

TEST(BookingSearchInChromium, BatamInRupiah2025) {
  const nlohmann::json b =
      search_page("Batam", "booking-searchresults-batam-idr-2025-07.html", "IDR");
  EXPECT_EQ(b["searchInformation"]["totalResults"], 72);
  ASSERT_EQ(b["results"].size(), 45u);
  const nlohmann::json& first = b["results"][0];
  EXPECT_EQ(first["name"],
            "SLEPTOPIA at formosa lvl27 budget unit city and sea view in nagoya jodoh");
  EXPECT_EQ(first["address"], "Jodoh");
  EXPECT_EQ(first["reviewScore"], 9.0);
  EXPECT_EQ(first["reviews"], 22);
  EXPECT_EQ(first["price"]["total"], "Rp 769,500");
  EXPECT_EQ(first["price"]["extractedTotal"], 769500);
  EXPECT_EQ(first["price"]["currency"], "IDR");
  EXPECT_EQ(first["price"]["taxes"], "Includes taxes and fees");
  EXPECT_EQ(b["results"][44]["price"]["extractedTotal"], 907500);
  EXPECT_EQ(discounted_cards(b["results"]), 5);  // "Original price Rp …" on 5 cards
  EXPECT_EQ(b["pagination"]["nextPage"], 2);
}

// The mobile site's results in Spanish (Tlaxcala, Mexico, December 2025), searched without dates:
// 220 cards scrolled in, without prices; the card's link is not a "title-link" and its place is a
// "location"; the page has no heading that counts them (its one h1 is in a template): no count.
TEST(BookingSearchInChromium, TheSpanishMobilePageOfTlaxcalaWithoutDates) {
  const nlohmann::json b =
      search_page("Tlaxcala", "booking-searchresults-tlaxcala-es-mobile-no-dates-2025-12.html");
  EXPECT_FALSE(b["searchInformation"].contains("totalResultsText"));
  EXPECT_FALSE(b["searchInformation"].contains("totalResults"));
  ASSERT_EQ(b["results"].size(), 220u);
  const nlohmann::json& first = b["results"][0];
  EXPECT_EQ(first["name"], "HB Express Hotel");
  EXPECT_EQ(first["link"], "https://www.booking.com/hotel/mx/hb-express.es.html");
  EXPECT_EQ(first["id"], "hb-express");
  EXPECT_EQ(first["address"], "Tlaxcala de Xicohténcatl");
  EXPECT_EQ(first["reviewScore"], 8.3);
  EXPECT_EQ(first["reviewScoreLabel"], "Muy bien");
  EXPECT_EQ(first["reviews"], 532);
  EXPECT_EQ(first["stars"], 3);
  EXPECT_FALSE(first.contains("price"));
  EXPECT_EQ(b["results"][3]["name"], "Molino de los Reyes");
  EXPECT_EQ(b["results"][3]["address"], "Totolac");
  EXPECT_EQ(b["results"][3]["stars"], 5);
  // Squares (the site's own quality rating of homes), "3 de 5".
  EXPECT_EQ(b["results"][6]["name"], "Hotel RioMiel Tlaxcala");
  EXPECT_EQ(b["results"][6]["stars"], 3);
  EXPECT_EQ(b["results"][6]["reviewScore"], 8.7);
  // New on the site, no score yet.
  EXPECT_EQ(b["results"][58]["name"], "Functional and nice house");
  EXPECT_EQ(b["results"][58]["address"], "Apizaco");
  EXPECT_FALSE(b["results"][58].contains("reviewScore"));
  // The last card: no stars, no score (the carousel of homes after it is not a result).
  EXPECT_EQ(b["results"][219]["name"], "La cabaña");
  EXPECT_EQ(b["results"][219]["address"], "San Bernabé Amaxac de Guerrero");
  EXPECT_FALSE(b["results"][219].contains("stars"));
  EXPECT_FALSE(b["results"][219].contains("reviewScore"));
}

// The Belgrade excerpt and a page built from it as the Spanish-language site writes the same
// cards ("Puntuación: 7,9", "1.521 comentarios", "45 €", lang="es"; the rewrite is the
// "localised" case of data/search/cases.json): every score, count and price reads the same.
TEST(BookingSearchInChromium, ASpanishLanguagePageReadsAsTheEnglishOne) {
  const nlohmann::json cases = testing::read_json_file(gleaner::testing::site_tests_dir("booking") +
                                                       "data/search/cases.json")["localised"];
  const std::string page = gleaner::testing::site_page(
      "booking", "stays-search/booking-search-belgrade-cards-excerpt-2026.html");
  const QueryParams query = {{"keyword", "Belgrade"},
                             {"checkInDate", "2030-11-14"},
                             {"checkOutDate", "2030-11-16"},
                             {"rooms", "1"},
                             {"adults", "2"},
                             {"children", "0"},
                             {"currency", "EUR"}};
  TempReplayArchive english;
  english.add(prefix_entry("https://www.booking.com/searchresults.html?", page));
  const nlohmann::json en = run_in_chromium(search_endpoint(), english.load(), query).body;

  nlohmann::json rewrite;
  for (const nlohmann::json& c : cases) {
    if (c["name"].get<std::string>().starts_with("belgrade as the Spanish")) {
      rewrite = c["pages"][0]["replace"];
    }
  }
  ASSERT_TRUE(rewrite.is_array());
  TempReplayArchive spanish;
  spanish.add(gleaner::testing::rewritten_entry("https://www.booking.com/searchresults.html?", page,
                                                rewrite));
  const nlohmann::json es = run_in_chromium(search_endpoint(), spanish.load(), query).body;

  ASSERT_EQ(en["results"].size(), 6u);
  ASSERT_EQ(es["results"].size(), en["results"].size());
  for (std::size_t i = 0; i < en["results"].size(); ++i) {
    SCOPED_TRACE(i);
    const nlohmann::json& e = en["results"][i];
    const nlohmann::json& s = es["results"][i];
    ASSERT_TRUE(e.contains("reviewScore"));
    EXPECT_EQ(s.value("reviewScore", -1.0), e["reviewScore"]);
    ASSERT_TRUE(e.contains("reviews"));
    EXPECT_EQ(s.value("reviews", -1LL), e["reviews"]);
    EXPECT_EQ(s["price"]["extractedTotal"], e["price"]["extractedTotal"]);
    EXPECT_EQ(s["price"]["currency"], "EUR");
    EXPECT_FALSE(s.value("reviewScoreLabel", "").empty());
  }
  // Values a person reads on the English page: "Scored 7.9 Good 1,521 reviews", "€ 45".
  EXPECT_EQ(en["results"][4]["reviewScore"], 7.9);
  EXPECT_EQ(en["results"][4]["reviews"], 1521);
  EXPECT_EQ(es["results"][4]["reviews"], 1521);
  EXPECT_EQ(es["results"][0]["price"]["extractedTotal"], 45);
  EXPECT_EQ(es["results"][0]["reviewScoreLabel"], "Fantástico");
}

// The Zandvoort page of 2026 (a rendered page scrolled to 75 cards, holiday homes with a garden,
// 4 adults, one week): its cards show the nightly price above the stay's ("Per night $374",
// "$2,790", "1 week, 4 adults") and name the place in `address-text`. The stay's price is the
// total, the nightly one `perNight` (the total was read as the first price before).
TEST(BookingSearchInChromium, Zandvoort2026ReadsTheStaysPriceAndTheNightlyOne) {
  TempReplayArchive archive;
  archive.add(prefix_entry(
      "https://www.booking.com/searchresults.html?",
      gleaner::testing::site_page(
          "booking", "stays-search/booking-searchresults-zandvoort-filtered-en-dom-2026-02.html")));
  const nlohmann::json b = run_in_chromium(search_endpoint(), archive.load(),
                                           {{"keyword", "Zandvoort"},
                                            {"checkInDate", "2030-03-15"},
                                            {"checkOutDate", "2030-03-22"},
                                            {"rooms", "1"},
                                            {"adults", "4"},
                                            {"children", "0"}})
                               .body;
  EXPECT_EQ(b["searchInformation"]["totalResultsText"], "Zandvoort: 5 properties found");
  ASSERT_EQ(b["results"].size(), 75u);
  const nlohmann::json& first = b["results"][0];
  EXPECT_EQ(first["name"], "Family Beach House Zandvoort City Center");
  EXPECT_EQ(first["id"], "family-beach-house-zandvoort-center");
  EXPECT_EQ(first["address"], "Zandvoort");
  EXPECT_EQ(first["distanceFromCenter"], "0.2 miles from downtown");
  EXPECT_EQ(first["reviewScore"], 8.9);
  EXPECT_EQ(first["reviewScoreLabel"], "Excellent");
  EXPECT_EQ(first["reviews"], 41);
  EXPECT_EQ(first["room"], "Two-Bedroom House");
  EXPECT_EQ(first["price"]["total"], "$2,790");
  EXPECT_EQ(first["price"]["extractedTotal"], 2790);
  EXPECT_EQ(first["price"]["perNight"], "$374");
  EXPECT_EQ(first["price"]["extractedPerNight"], 374);
  EXPECT_EQ(first["price"]["for"], "1 week, 4 adults");
  // A discounted card: "$2,214" before the "$1,992" for the week (read since the Dhaka page).
  int found = 0;
  for (const nlohmann::json& r : b["results"]) {
    if (r["name"] != "Zomerhuis Wonders") continue;
    ++found;
    EXPECT_EQ(r["price"]["total"], "$1,992");
    EXPECT_EQ(r["price"]["original"], "$2,214");
    EXPECT_EQ(r["price"]["perNight"], "$285");
  }
  EXPECT_EQ(found, 1);
  EXPECT_EQ(first["price"]["currency"], "USD");
  const nlohmann::json& oranje = b["results"][4];
  EXPECT_EQ(oranje["name"], "Pension Oranje");
  EXPECT_EQ(oranje["room"], "Two-Bedroom Apartment with Terrace");
  EXPECT_EQ(oranje["reviews"], 269);
  EXPECT_EQ(oranje["price"]["extractedTotal"], 1255);
  EXPECT_EQ(oranje["price"]["extractedPerNight"], 171);
  EXPECT_EQ(b["results"][5]["address"], "Bentveld");
  EXPECT_EQ(b["results"][74]["name"], "GreenFloat Boskoop - #1");
  EXPECT_EQ(b["results"][74]["position"], 75);
}

// Results pages the site served without the search asked for (fetched without a browser in 2025:
// "b_agent_is_robot": true, an empty destination box, no count and no card; one as the server
// sent it, one re-indented by BeautifulSoup): the site did not run the search, 502
// upstream_blocked, not a layout the endpoint failed to read.
TEST(BookingSearchInChromium, AResultsPageWithoutTheSearchIsUpstreamBlocked) {
  for (const char* file :
       {"stays-search/booking-searchresults-no-destination-robot-2025-06.html",
        "stays-search/booking-searchresults-no-destination-robot-prettified-2025-09.html"}) {
    SCOPED_TRACE(file);
    TempReplayArchive archive;
    archive.add(prefix_entry("https://www.booking.com/searchresults.html?",
                             gleaner::testing::site_page("booking", file)));
    const Error e = testing::error_in_chromium(search_endpoint(), archive.load(),
                                               {{"keyword", "Hyderabad"},
                                                {"checkInDate", "2030-06-30"},
                                                {"checkOutDate", "2030-07-01"},
                                                {"rooms", "1"},
                                                {"adults", "2"},
                                                {"children", "0"}});
    EXPECT_EQ(e.code(), ErrorCode::UpstreamBlocked) << e.what() << " / " << e.detail();
  }
}

}  // namespace
}  // namespace gleaner::extract::booking
