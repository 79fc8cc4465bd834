// GET /scrape/google-maps/reviews without a browser: the reader of one entry of the Maps reviews
// RPC (extract/sites/google/maps/reviews.cpp) on the two real entries there are
// (tests/sites/google/pages/google-maps-reviews: single entries of a `listugcposts` answer, kept
// by gosom/google-maps-scraper, not a whole answer), the parameters as the hosted client sends
// them (hosted.md #9), the URLs built, and the shaping of the script's recorded output
// (tests/sites/google/data/maps_reviews/).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/error.h"
#include "extract/registry.h"
#include "extract/sites/google/maps/reviews.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::google {
namespace {

using nlohmann::json;

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string fragment_text(const std::string& file) {
  return bytes_of(gleaner::testing::site_page("google", "google-maps-reviews/" + file));
}

constexpr const char* kWithReply = "gosom_review-entry-fragment_with-reply_de_2026.json";
constexpr const char* kNoTranslation = "gosom_review-entry-fragment_no-translation_2026.json";
constexpr const char* kEnvelope =
    "google/data/maps_reviews/listugcposts-envelope-reconstructed_two-real-gosom-entries.json";

// Each fragment file is a list holding one entry, as the answer's list holds them.
json entry_of(const std::string& file) {
  return json::parse(fragment_text(file)).at(0);
}

TEST(MapsReviewEntry, AGermanReviewWithItsTranslationAndTheOwnersReply) {
  const auto review = maps::review_from_entry(entry_of(kWithReply));
  ASSERT_TRUE(review);
  EXPECT_EQ((*review)["reviewId"],
            "Ci9DQUlRQUNvZENodHljRjlvT2xGMmRraFdhSFowWW0xWVNURTBObEptU3pWWVgxRRAB");
  EXPECT_EQ((*review)["rating"], 1);
  EXPECT_EQ((*review)["date"], "2 months ago");
  EXPECT_EQ((*review)["isoDate"], "2026-02-27T10:02:02Z");  // 1772186522193853 µs
  EXPECT_EQ((*review)["language"], "de");
  // The reviewer's own words are the snippet; Google's English translation is beside them.
  const std::string snippet = (*review)["snippet"];
  EXPECT_EQ(
      snippet.rfind("Ich bin sehr enttäuscht vom Verhalten der Rezeption in dieser Praxis.\n", 0),
      0u)
      << snippet;
  EXPECT_NE(snippet.find("„Ich habe ja nur zwei Hände“"), std::string::npos);
  EXPECT_EQ((*review)["translation"]["language"], "en");
  const std::string translated = (*review)["translation"]["snippet"];
  EXPECT_EQ(
      translated.rfind("I am very disappointed with the reception staff at this practice.", 0), 0u);
  EXPECT_EQ((*review)["link"],
            "https://www.google.com/maps/reviews/data=!4m8!14m7!1m6!2m5!1sCi9DQUlRQUNvZENodHljRjlv"
            "T2xGMmRraFdhSFowWW0xWVNURTBObEptU3pWWVgxRRAB!2m1!1s0x0:0xa73f342ed9222e57!3m1!1s2@1:"
            "CAIQACodChtycF9oOlF2dkhWaHZ0Ym1YSTE0NlJmSzVYX1E%7C%7C?hl=en");
  EXPECT_EQ(
      (*review)["user"],
      json({{"name", "E. Ö."},
            {"contributorId", "116111130377271376564"},
            {"link", "https://www.google.com/maps/contrib/116111130377271376564/reviews?hl=en"},
            {"thumbnail",
             "https://lh3.googleusercontent.com/a/ACg8ocIiIJCE1nOhvrUjWGAU5TEEFEnwFacfUv-iNG1f"
             "EglkcSXazA=s120-c-rp-mo-br100"},
            {"reviews", 2},  // "2 reviews"
            {"localGuide", false}}));
  const json& response = (*review)["response"];
  EXPECT_EQ(response["date"], "2 months ago");
  EXPECT_EQ(response["isoDate"], "2026-02-28T08:22:27Z");  // 1772266947000000 µs
  EXPECT_EQ(response["language"], "de");
  EXPECT_EQ(response["snippet"].get<std::string>().rfind(
                "Es tut uns sehr leid, dass Sie sich in einer ohnehin belastenden", 0),
            0u);
  EXPECT_NE(response["snippet"].get<std::string>().find("Ihr Praxisteam"), std::string::npos);
  EXPECT_EQ(response["translation"]["language"], "en");
  EXPECT_NE(response["translation"]["snippet"].get<std::string>().find("Your Practice Team"),
            std::string::npos);
}

TEST(MapsReviewEntry, AnEnglishReviewByALocalGuideWithoutReply) {
  const auto review = maps::review_from_entry(entry_of(kNoTranslation));
  ASSERT_TRUE(review);
  EXPECT_EQ((*review)["reviewId"], "ChZDSUhNMG9nS0VJQ0FnSUNZemVhOFpREAE");
  EXPECT_EQ((*review)["rating"], 5);
  EXPECT_EQ((*review)["date"], "7 years ago");
  EXPECT_EQ((*review)["isoDate"], "2019-04-17T09:54:51Z");  // 1555494891197416 µs
  EXPECT_EQ((*review)["language"], "en");
  EXPECT_FALSE(review->contains("translation"));  // written in the asked language
  EXPECT_EQ((*review)["snippet"],
            "I had been recently in gynecologist Tatjana Mahnhardt and found that she is super "
            "nice and highly professional! Her German is perfect, well understandable for "
            "foreighners and luckily for me she is also russian-speaking doctor!\nThe only think I "
            "did not like that is not nice behavior of ladies on the receiption.");
  EXPECT_EQ((*review)["user"]["name"], "Olena Kuzhel");
  EXPECT_EQ((*review)["user"]["contributorId"], "110617501430675678911");
  EXPECT_EQ((*review)["user"]["reviews"], 46);  // "Local Guide · 46 reviews"
  EXPECT_EQ((*review)["user"]["localGuide"], true);
  // The entry carries the owner's reply links (reply, delete) but no reply.
  EXPECT_FALSE(review->contains("response"));
}

TEST(MapsReviewEntry, AnEntryWithoutItsIdOrAuthorIsNoReview) {
  json entry = entry_of(kNoTranslation);
  entry[0][0] = nullptr;
  EXPECT_FALSE(maps::review_from_entry(entry));
  entry = entry_of(kNoTranslation);
  entry[0][1][4][5][0] = nullptr;
  EXPECT_FALSE(maps::review_from_entry(entry));
  EXPECT_FALSE(maps::review_from_entry(json::array()));
}

// The answer the browser tests replay is the two real entries, unchanged, in the envelope the
// scrapers' parsers read: `)]}'`, then [null, next page token (none: null), [entries]].
TEST(MapsReviewEntry, TheReconstructedEnvelopeHoldsTheRealEntriesByteForByte) {
  const auto inner = [](std::string text) {
    EXPECT_EQ(text.front(), '[');
    EXPECT_EQ(text.back(), ']');
    return text.substr(1, text.size() - 2);
  };
  EXPECT_EQ(bytes_of(gleaner::testing::site_tests_dir("google") + "data/maps_reviews/" +
                     "listugcposts-envelope-reconstructed_two-real-gosom-entries.json"),
            ")]}'\n[null,null,[" + inner(fragment_text(kWithReply)) + "," +
                inner(fragment_text(kNoTranslation)) + "]]");
}

const Endpoint& endpoint() {
  return maps_reviews_endpoint();
}

PageRequest request_for(const QueryParams& query) {
  return endpoint().build_request(endpoint().validate(query));
}

TEST(MapsReviewsEndpoint, AnswersAtTheClientsPathWithItsCost) {
  EXPECT_EQ(find_endpoint("/scrape/google-maps/reviews"), &endpoint());
  EXPECT_EQ(endpoint().default_cost(), 5);
}

TEST(MapsReviewsEndpoint, OpensThePlaceAndAsksTheRpcForThePageSortAndLanguage) {
  const PageRequest by_data = request_for({{"dataId", "0x89c259af336b3341:0xa4969e07ce3108de"},
                                           {"hl", "en"},
                                           {"sortBy", "newestFirst"}});
  EXPECT_EQ(
      by_data.url,
      "https://www.google.com/maps/place/data=!4m2!3m1!1s0x89c259af336b3341:0xa4969e07ce3108de"
      "?hl=en");
  EXPECT_EQ(by_data.world, World::Page);  // the place reader reads the page's own variables
  EXPECT_EQ(by_data.script_args["dataId"], "0x89c259af336b3341:0xa4969e07ce3108de");
  EXPECT_EQ(by_data.script_args["rpc"],
            "https://www.google.com/maps/rpc/listugcposts?authuser=0&hl=en&pb=");
  EXPECT_EQ(by_data.script_args["pb"],
            "!1m6!1s{dataId}!6m4!4m1!1e1!4m1!1e3!2m2!1i10!2s!5m2!1s{session}!7e81!8m9!2b1!3b1!5b1!"
            "7b1!12m4!1b1!2b1!4m1!1e1!11m0!13m1!1e2");

  const PageRequest by_place = request_for({{"placeId", "ChIJywjU6WG_woAR3NrWwrEH_3M"},
                                            {"nextPageToken", "CAESBkVnSUlDQQ=="},
                                            {"sortBy", "ratingLow"}});
  EXPECT_EQ(by_place.url,
            "https://www.google.com/maps/place/?q=place_id:ChIJywjU6WG_woAR3NrWwrEH_3M");
  EXPECT_EQ(by_place.script_args["dataId"], "");  // read from the page's own link
  EXPECT_EQ(by_place.script_args["rpc"],
            "https://www.google.com/maps/rpc/listugcposts?authuser=0&pb=");
  const std::string pb = by_place.script_args["pb"];
  EXPECT_NE(pb.find("!2m2!1i10!2sCAESBkVnSUlDQQ%3D%3D!5m2"), std::string::npos) << pb;
  EXPECT_TRUE(pb.ends_with("!13m1!1e4")) << pb;
  // Most relevant first, as the pane opens.
  const std::string relevant = request_for({{"dataId", "0x1:0x2"}}).script_args["pb"];
  EXPECT_TRUE(relevant.ends_with("!13m1!1e1")) << relevant;
}

TEST(MapsReviewsEndpoint, RefusesWhatHostedMdRefusesAndTheTopicItCannotServe) {
  EXPECT_EQ(testing::rejection(endpoint(), {}).first, ErrorCode::MissingParameter);
  EXPECT_EQ(testing::rejection(endpoint(), {{"dataId", "0x1:0x2"}, {"sortBy", "oldest"}}),
            testing::refused(ErrorCode::InvalidParameter, "sortBy"));
  for (const char* id : {"ChIJywjU6WG_woAR3NrWwrEH_3M", "0x1", "0x1:0x2!3m1"}) {
    SCOPED_TRACE(id);
    EXPECT_THROW(endpoint().validate({{"dataId", id}}), Error);
  }
  try {
    endpoint().validate({{"dataId", "0x1:0x2"}, {"topicId", "/m/0cdn1"}});
    ADD_FAILURE() << "topicId accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidParameter);
    EXPECT_EQ(e.parameter().value_or(""), "topicId");
    EXPECT_NE(std::string(e.what()).find("'/m/0cdn1' cannot be served"), std::string::npos)
        << e.what();
  }
}

TEST(MapsReviewsEndpoint, ThePlaceAndItsReviewsAsHostedMdShapesThem) {
  const json recorded =
      testing::recorded("google/data/maps_reviews/griffith-page-two-entries.json");
  const json body =
      endpoint().shape(recorded, endpoint().validate({{"placeId", "ChIJywjU6WG_woAR3NrWwrEH_3M"}}));
  EXPECT_EQ(body["placeInfo"],
            json({{"title", "Griffith Observatory"},
                  {"address", "2800 E Observatory Rd, Los Angeles, CA 90027"},
                  {"rating", 4.7},
                  {"reviews", 17059},
                  {"gpsCoordinates", {{"latitude", 34.1184341}, {"longitude", -118.3003935}}}}));
  ASSERT_EQ(body["reviews"].size(), 2u);
  EXPECT_EQ(body["reviews"][0]["user"]["name"], "E. Ö.");
  EXPECT_EQ(body["reviews"][1]["user"]["name"], "Olena Kuzhel");
  EXPECT_EQ(body["pagination"], json::object());  // the envelope's [1] is null: the last page
  EXPECT_FALSE(body.contains("topics"));
  EXPECT_TRUE(endpoint().has_content(body));
}

TEST(MapsReviewsEndpoint, ARefusedOrFailedRpcIsNotAnEmptyPage) {
  const ValidatedParams params = endpoint().validate({{"dataId", "0x1:0x2"}});
  EXPECT_EQ(testing::error_of_shape(endpoint(), json{{"status", 429}}, params),
            ErrorCode::UpstreamBlocked);
  EXPECT_EQ(testing::error_of_shape(endpoint(), json{{"status", 200}, {"blocked", true}}, params),
            ErrorCode::UpstreamBlocked);
  EXPECT_EQ(testing::error_of_shape(endpoint(), json{{"status", 500}}, params),
            ErrorCode::UpstreamError);
  // An answer that is not the RPC's array, or whose entries none reads as a review: nothing read.
  EXPECT_FALSE(
      endpoint().has_content(endpoint().shape(json{{"status", 200}, {"answer", false}}, params)));
  const json place =
      testing::recorded("google/data/maps_reviews/griffith-page-two-entries.json")["place"];
  const json unknown = {{"status", 200},
                        {"answer", true},
                        {"place", place},
                        {"entries", json::array({json::array({"unknown layout"})})}};
  EXPECT_FALSE(endpoint().has_content(endpoint().shape(unknown, params)));
  // The same place with no entries: a page without reviews, which is an answer.
  EXPECT_TRUE(endpoint().has_content(endpoint().shape(
      json{{"status", 200}, {"answer", true}, {"place", place}, {"entries", json::array()}},
      params)));
}

}  // namespace
}  // namespace gleaner::extract::google
