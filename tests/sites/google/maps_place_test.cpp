// Shaping of the maps site's arrays into rows, on recorded responses
// (tests/sites/google/data/maps/, copied byte for byte from tests/sites/google/pages/maps/); and
// GET /scrape/google-maps/place without a browser: its parameters as the hosted client sends them
// (hosted.md #8), the URL built, and the shaping of maps_place.js output recorded on the real
// rendered place page (tests/sites/google/data/maps_place/).
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "core/error.h"
#include "extract/registry.h"
#include "extract/sites/google/maps/place.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::google::maps {
namespace {

using nlohmann::json;

std::string file_text(const std::string& path_in_tree) {
  std::ifstream in(std::string(GLEANER_SOURCE_DIR) + "/" + path_in_tree, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string read(const std::string& name) {
  return file_text("tests/sites/google/data/maps/" + name);
}

// A real page kept under tests/sites/google/pages/maps/ (provenance.json), read as it is there.
std::string page(const std::string& name) {
  return file_text("tests/sites/google/pages/maps/" + name);
}

// A search page of 2025 as served carries the site's search answer for its feed (the string at
// APP_INITIALIZATION_STATE[3][2]), its results at [64]: an ad's record at [5][15], a result's at [1].
TEST(MapsPlace, ASearchPageCarriesItsSearchAnswer) {
  const json answer = search_answer_in_page(file_text(
      "tests/sites/google/pages/google-maps-search/"
      "scraperdemo_search-dom_hospitals-in-delhi_enIN_2025-07.html"));
  const auto results = search_results(answer);
  ASSERT_EQ(results.size(), 22u);
  EXPECT_EQ(results[0].row["name"], "Dr. Gautam Banga - Urologist & Reconstructive Surgeon");
  EXPECT_TRUE(results[0].sponsored);
  EXPECT_EQ(results[0].row["placeId"], "ChIJ77GsrLLjDDkRTno0EIMPuqk");
  EXPECT_TRUE(results[1].sponsored);
  EXPECT_FALSE(results[2].sponsored);
  EXPECT_EQ(results[2].short_address, "Fortis Flt. Lt. Rajan Dhall Hospital, Aruna Asaf Ali Marg");
  EXPECT_EQ(results[2].row["address"],
            "Fortis Flt. Lt. Rajan Dhall Hospital, Aruna Asaf Ali Marg, Pocket 1, Sector B, Vasant "
            "Kunj, New Delhi, Delhi 110070");
  EXPECT_EQ(results[2].open_state, "Open 24 hours");
  EXPECT_EQ(results[2].kgmid, "/g/1tdqy301");
  EXPECT_EQ(places_from_search(answer).size(), 22u);
  // A page of 2026 carries none and names it instead.
  EXPECT_TRUE(search_answer_in_page(page("cocli_search-dom_griffith_en_2026-03.html")).is_null());
  EXPECT_TRUE(search_answer_in_page("<html><body>no state</body></html>").is_null());
}

TEST(MapsPlace, ASearchPageOf2026NamesTheSearchAnswerItsScriptsFetch) {
  const std::string link = search_answer_link(page("cocli_search-dom_griffith_en_2026-03.html"),
                                              "https://www.google.com/maps/search/griffith");
  EXPECT_EQ(link.rfind("https://www.google.com/search?tbm=map&authuser=0&hl=en&gl=us&q=griffith&pb="
                       "%211sgriffith%214m8%211m3%211d13212.492109076788",
                       0),
            0u)
      << link;
  EXPECT_EQ(link.find("&amp;"), std::string::npos);
  // The fr-MA page of 2025 preloads scripts only.
  EXPECT_EQ(search_answer_link(file_text("tests/sites/google/pages/google-maps-search/"
                                         "n8nscraper_search-dom_concepteur-sites-web-fes_frMA_2025-08.html"),
                               "https://www.google.com/maps/search/x"),
            "");
}

TEST(MapsPlace, ASearchResponseGivesOneRowPerListedPlace) {
  const auto places = places_from_search(
      parse_maps_body(read("gosom_search-tbm-map_coffee-ilion-athens_2024-12.json")));
  ASSERT_EQ(places.size(), 20u);
  const json& first = places[0];
  EXPECT_EQ(first["name"], "Dream Coffee");
  EXPECT_EQ(first["categories"], json({"Coffee shop"}));
  EXPECT_EQ(first["address"], "Eakou 74, Ilion 131 22, Greece");
  EXPECT_EQ(first["phone"], "+30 21 0261 6578");
  EXPECT_EQ(first["website"], "https://www.vrisko.gr/details/ag2e4fci67301a_44_3i4a4c_f341701");
  EXPECT_DOUBLE_EQ(first["rating"].get<double>(), 4.8);
  EXPECT_EQ(first["reviewCount"], 48);
  EXPECT_DOUBLE_EQ(first["latitude"].get<double>(), 38.0331931);
  EXPECT_DOUBLE_EQ(first["longitude"].get<double>(), 23.7094475);
  EXPECT_EQ(first["placeId"], "ChIJoRVrMS-joRQRkzrMbbRUnBY");
  ASSERT_GE(first["openingHours"].size(), 2u);
  // The site writes a narrow no-break space (U+202F) before AM and PM.
  EXPECT_EQ(first["openingHours"][0],
            json({{"day", "Saturday"}, {"hours", {"7\u202fAM–8:30\u202fPM"}}}));
  EXPECT_EQ(first["openingHours"][1], json({{"day", "Sunday"}, {"hours", {"Closed"}}}));
  EXPECT_EQ(first["mapsUrl"],
            "https://www.google.com/maps/search/?api=1&query=Dream%20Coffee&query_place_id="
            "ChIJoRVrMS-joRQRkzrMbbRUnBY");
  EXPECT_EQ(places[2]["categories"], json({"Coffee shop", "Cafe"}));
  EXPECT_EQ(places[19]["name"], "West Coffee Saloon");
  // Every place has its own key: none of the twenty is a duplicate of another.
  std::set<std::string> keys;
  for (const json& p : places) keys.insert(place_key(p));
  EXPECT_EQ(keys.size(), 20u);
}

// The same restaurant a year later, in Greek (2024-10): its name, category, town and days as the
// Greek page writes them, its hours with "π.μ."/"μ.μ." and their narrow no-break spaces.
TEST(MapsPlace, AGreekPlaceBodyOf2024) {
  auto place = place_from_place_body(
      parse_maps_body(page("gosom_place-appstate-3-6_kypriakon-limassol_el_2024-10.json")));
  ASSERT_TRUE(place.has_value());
  EXPECT_EQ((*place)["name"], "Κυπριακόν");
  EXPECT_EQ((*place)["categories"], json({"Εστιατόριο"}));
  EXPECT_EQ((*place)["address"], "Old port, Λεμεσός 3042");
  EXPECT_EQ((*place)["phone"], "25 101555");
  EXPECT_DOUBLE_EQ((*place)["rating"].get<double>(), 4.1);
  EXPECT_EQ((*place)["reviewCount"], 516);
  EXPECT_EQ((*place)["placeId"], "ChIJDdnwdv0y5xQRRytw1ihZQeU");  // the 2023 page's place
  EXPECT_DOUBLE_EQ((*place)["latitude"].get<double>(), 34.670595399999996);
  ASSERT_EQ((*place)["openingHours"].size(), 7u);
  EXPECT_EQ((*place)["openingHours"][0],
            json({{"day", "Σάββατο"}, {"hours", {"9:00\u202fπ.μ.–11:30\u202fμ.μ."}}}));
  EXPECT_FALSE(place->contains("website"));
}

// An English place body of 2023 whose hours change through the week ("12 am–10:45 pm" on
// Wednesday, "12–11 pm" from Friday).
TEST(MapsPlace, AnEnglishPlaceBodyWithHoursThatVary) {
  auto place = place_from_place_body(
      parse_maps_body(page("gosom_place-appstate-3-6_happy-island-paphos_en_2023-09.json")));
  ASSERT_TRUE(place.has_value());
  EXPECT_EQ((*place)["name"], "Happy Island Restaurant");
  EXPECT_EQ((*place)["address"], "65 Natalia Court, Poseidonos Ave, Paphos 8042");
  EXPECT_EQ((*place)["phone"], "26 937077");
  EXPECT_DOUBLE_EQ((*place)["rating"].get<double>(), 4.7);
  EXPECT_EQ((*place)["reviewCount"], 518);
  ASSERT_EQ((*place)["openingHours"].size(), 7u);
  EXPECT_EQ((*place)["openingHours"][1],
            json({{"day", "Wednesday"}, {"hours", {"12\u202fam–10:45\u202fpm"}}}));
  EXPECT_EQ((*place)["openingHours"][3], json({{"day", "Friday"}, {"hours", {"12–11\u202fpm"}}}));
}

// A place that lists no hours, with a plus code for its street: no hours are invented.
TEST(MapsPlace, APlaceBodyWithoutHoursAndAPlusCodeAddress) {
  auto place = place_from_place_body(
      parse_maps_body(page("gosom_place-appstate-3-6_island-beach-bar-polis_en-el_2023-09.json")));
  ASSERT_TRUE(place.has_value());
  EXPECT_EQ((*place)["name"], "Island Beach Bar and Restaurant");
  EXPECT_EQ((*place)["categories"], json({"Restaurant", "Cocktail bar"}));
  EXPECT_EQ((*place)["address"], "29RR+CPC, Λεοφόρος Ακάμαντος, Poli Crysochous");
  EXPECT_DOUBLE_EQ((*place)["rating"].get<double>(), 4.4);
  EXPECT_EQ((*place)["reviewCount"], 504);
  EXPECT_FALSE(place->contains("openingHours"));
  EXPECT_FALSE(place->contains("website"));
}

TEST(MapsPlace, APlaceBodyGivesItsPlaceWithoutInventingMissingFields) {
  auto place = place_from_place_body(
      parse_maps_body(read("gosom_place-appstate-3-6_kipriakon-limassol_en_2023-09.json")));
  ASSERT_TRUE(place.has_value());
  EXPECT_EQ((*place)["name"], "Kipriakon");
  EXPECT_EQ((*place)["categories"], json({"Restaurant"}));
  EXPECT_EQ((*place)["address"], "Old port, Limassol 3042");
  EXPECT_EQ((*place)["phone"], "25 101555");
  EXPECT_DOUBLE_EQ((*place)["rating"].get<double>(), 4.2);
  EXPECT_EQ((*place)["reviewCount"], 396);
  EXPECT_EQ((*place)["placeId"], "ChIJDdnwdv0y5xQRRytw1ihZQeU");
  EXPECT_FALSE(place->contains("website"));  // the place lists none
  EXPECT_EQ(place_key(*place), "place:ChIJDdnwdv0y5xQRRytw1ihZQeU");
}

TEST(MapsPlace, TheHijackingGuardIsSkippedAndOtherBodiesRefused) {
  EXPECT_EQ(parse_maps_body(")]}'\n[1,[2]]"), json::parse("[1,[2]]"));
  EXPECT_EQ(parse_maps_body("[1]"), json::parse("[1]"));
  try {
    parse_maps_body("<html>captcha</html>");
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::UpstreamError);
  }
  EXPECT_FALSE(place_from_business(json::array()).has_value());
  EXPECT_TRUE(places_from_search(json::object()).empty());
}

TEST(MapsPlace, PlacesWithoutAnIdAreKeyedByNameAndAddress) {
  EXPECT_EQ(place_key({{"name", "A"}, {"address", "1 Road"}}), "name:A|1 Road");
  EXPECT_EQ(place_key({{"name", "A"}, {"featureId", "0x1:0x2"}}), "feature:0x1:0x2");
}

}  // namespace
}  // namespace gleaner::extract::google::maps

namespace gleaner::extract::google {
namespace {

using nlohmann::json;

const Endpoint& endpoint() {
  return maps_place_endpoint();
}

std::string url_for(const QueryParams& query) {
  return endpoint().build_request(endpoint().validate(query)).url;
}

TEST(MapsPlaceEndpoint, AnswersAtTheClientsPathWithItsCost) {
  EXPECT_EQ(find_endpoint("/scrape/google-maps/place"), &endpoint());
  EXPECT_EQ(endpoint().default_cost(), 5);
}

TEST(MapsPlaceEndpoint, OpensThePlaceByItsId) {
  EXPECT_EQ(url_for({{"placeId", "ChIJywjU6WG_woAR3NrWwrEH_3M"}}),
            "https://www.google.com/maps/place/?q=place_id:ChIJywjU6WG_woAR3NrWwrEH_3M");
  EXPECT_EQ(
      url_for({{"placeId", "ChIJywjU6WG_woAR3NrWwrEH_3M"}, {"hl", "de"}, {"domain", "google.de"}}),
      "https://www.google.de/maps/place/?q=place_id:ChIJywjU6WG_woAR3NrWwrEH_3M&hl=de");
  const PageRequest request =
      endpoint().build_request(endpoint().validate({{"placeId", "ChIJywjU6WG_woAR3NrWwrEH_3M"}}));
  EXPECT_EQ(request.world, World::Page);  // the page's own ES5DGURL and APP_INITIALIZATION_STATE
  EXPECT_FALSE(request.profile.headers.contains("Accept-Language"));
}

TEST(MapsPlaceEndpoint, RefusesWhatHostedMdRefuses) {
  EXPECT_EQ(testing::rejection(endpoint(), {}),
            testing::refused(ErrorCode::MissingParameter, "placeId"));
  for (const char* id : {"ChIJ/../x", "short", "ChIJ ywjU6WG"}) {
    SCOPED_TRACE(id);
    EXPECT_THROW(endpoint().validate({{"placeId", id}}), Error);
  }
}

TEST(MapsPlaceEndpoint, ThePlacePageAsHostedMdShapesIt) {
  const json body =
      endpoint().shape(testing::recorded("google/data/maps_place/griffith-observatory.json"),
                       endpoint().validate({{"placeId", "ChIJywjU6WG_woAR3NrWwrEH_3M"}}));
  const json& place = body["placeResults"];
  EXPECT_EQ(place["title"], "Griffith Observatory");
  // Opened by its place id, the page's own link (ES5DGURL) gives its data segment.
  EXPECT_EQ(place["dataId"], "0x80c2bf61e9d408cb:0x73ff07b1c2d6dadc");
  EXPECT_EQ(place["kgmid"], "/m/02_4ml");
  EXPECT_EQ(place["gpsCoordinates"], json({{"latitude", 34.1184341}, {"longitude", -118.3003935}}));
  EXPECT_EQ(place["types"], json({"Observatory"}));
  EXPECT_EQ(place["openState"], "Closed · Opens 12 PM Fri");
  EXPECT_EQ(place["workingHours"]["days"][2], json({{"day", "Saturday"}, {"time", "10 AM–10 PM"}}));
  EXPECT_TRUE(endpoint().has_content(body));
  EXPECT_FALSE(endpoint().has_content(
      endpoint().shape(json{{"found", false}}, endpoint().validate({{"placeId", "ChIJywjU6WG"}}))));
}

}  // namespace
}  // namespace gleaner::extract::google
