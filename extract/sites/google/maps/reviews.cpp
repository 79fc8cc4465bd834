#include "extract/sites/google/maps/reviews.h"

#include <chrono>
#include <initializer_list>

#include "core/time_text.h"
#include "extract/sites/common/json_path.h"

namespace gleaner::extract::google::maps {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::Step;
using site_json::str;

// Positions in one entry of the answer's list, from the entry (`[review, null, cursor]`), in one
// place so they can be mended. Seen on the two real entries of
// tests/sites/google/pages/google-maps-reviews (shared/fixtures/README.md, "Maps reviews").
namespace pos {
using Path = std::initializer_list<Step>;
const Path kReviewId = {0, 0};
const Path kPostedMicros = {0, 1, 2};          // 1772186522193853 for "2 months ago" (2026-02)
const Path kRelativeDate = {0, 1, 6};          // "2 months ago"
const Path kProfileReviews = {0, 1, 4, 2, 0};  // .../maps/contrib/<id>/reviews?hl=en
const Path kAuthor = {0, 1, 4, 5};             // [name, photo, [profile], contributor id, ...]
const Path kRating = {0, 2, 0, 0};             // [1] (one star), [5]
const Path kLanguages = {0, 2, 14};            // ["de", "en", "German", "English", 1] or ["en"]
const Path kTexts = {0, 2, 15};                // [[original, null, span], [translation, ...]?]
const Path kLink = {0, 4, 3, 0};               // https://www.google.com/maps/reviews/data=!4m8...
const Path kReply = {0, 3};                    // the owner's reply, when [3][14] holds its text
// Within the author block.
constexpr int kAuthorName = 0;
constexpr int kAuthorPhoto = 1;
constexpr int kAuthorProfile = 2;  // [https://www.google.com/maps/contrib/<id>?hl=en]
constexpr int kAuthorId = 3;
constexpr int kAuthorReviewCount = 5;  // 2 for "2 reviews", 46 for "Local Guide · 46 reviews"
constexpr int kAuthorLocalGuide = 9;   // 1 for "Local Guide · 46 reviews", 0 for "2 reviews"
// Within the reply.
constexpr int kReplyPostedMicros = 1;
constexpr int kReplyRelativeDate = 3;
constexpr int kReplyLanguages = 13;
constexpr int kReplyTexts = 14;
}  // namespace pos

// A time in microseconds since the epoch as ISO 8601 UTC; "" for anything else.
std::string iso_of_micros(const json& v) {
  if (!v.is_number() || v.get<double>() <= 0) return "";
  const auto micros = std::chrono::microseconds(v.get<long long>());
  return iso8601_utc(std::chrono::system_clock::time_point(
      std::chrono::duration_cast<std::chrono::system_clock::duration>(micros)));
}

void put(json& out, const char* key, const std::string& value) {
  if (!value.empty()) out[key] = value;
}

// The text a review or reply carries: its original words and language, and Google's translation
// to the asked language when the answer holds one (languages [original, translated, ...], texts
// [[original, ...], [translated, ...]]).
void add_texts(json& out, const json& languages, const json& texts) {
  put(out, "snippet", str(at(texts, {0, 0})));
  put(out, "language", str(at(languages, {0})));
  const std::string translated = str(at(texts, {1, 0}));
  if (!translated.empty()) {
    json translation = json::object();
    put(translation, "language", str(at(languages, {1})));
    translation["snippet"] = translated;
    out["translation"] = std::move(translation);
  }
}

}  // namespace

std::optional<json> review_from_entry(const json& entry) {
  const std::string id = str(at(entry, pos::kReviewId));
  const json& author = at(entry, pos::kAuthor);
  const std::string name = str(at(author, {pos::kAuthorName}));
  if (id.empty() || name.empty()) return std::nullopt;

  json review = {{"reviewId", id}};
  if (const json& rating = at(entry, pos::kRating); rating.is_number()) {
    review["rating"] = rating;
  }
  add_texts(review, at(entry, pos::kLanguages), at(entry, pos::kTexts));
  put(review, "date", str(at(entry, pos::kRelativeDate)));
  put(review, "isoDate", iso_of_micros(at(entry, pos::kPostedMicros)));
  put(review, "link", str(at(entry, pos::kLink)));

  json user = {{"name", name}};
  put(user, "contributorId", str(at(author, {pos::kAuthorId})));
  std::string profile = str(at(entry, pos::kProfileReviews));
  if (profile.empty()) profile = str(at(author, {pos::kAuthorProfile, 0}));
  put(user, "link", profile);
  put(user, "thumbnail", str(at(author, {pos::kAuthorPhoto})));
  if (const json& count = at(author, {pos::kAuthorReviewCount}); count.is_number_integer()) {
    user["reviews"] = count;
  }
  if (const json& guide = at(author, {pos::kAuthorLocalGuide}); guide.is_number_integer()) {
    user["localGuide"] = guide.get<long long>() == 1;
  }
  review["user"] = std::move(user);

  const json& reply = at(entry, pos::kReply);
  const json& reply_texts = at(reply, {pos::kReplyTexts});
  if (!str(at(reply_texts, {0, 0})).empty()) {
    json response = json::object();
    add_texts(response, at(reply, {pos::kReplyLanguages}), reply_texts);
    put(response, "date", str(at(reply, {pos::kReplyRelativeDate})));
    put(response, "isoDate", iso_of_micros(at(reply, {pos::kReplyPostedMicros})));
    review["response"] = std::move(response);
  }
  return review;
}

std::string sort_code(const std::string& sort_by) {
  if (sort_by == "qualityScore") return "1";
  if (sort_by == "newestFirst") return "2";
  if (sort_by == "ratingHigh") return "3";
  if (sort_by == "ratingLow") return "4";
  return "";
}

}  // namespace gleaner::extract::google::maps
