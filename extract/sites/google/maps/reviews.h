#pragma once
// The entries of Google Maps' reviews RPC (`/maps/rpc/listugcposts`, the request a place's reviews
// pane makes), read for GET /scrape/google-maps/reviews (hosted.md #9). An answer is `)]}'` and a
// JSON array: its [1] the next page's token (null on the last page), its [2] the list of entries,
// each [review, null, cursor] (the layout gosom/google-maps-scraper's and YasogaN/google-maps-
// review-scraper's parsers read). The positions of a review are in one place, reviews.cpp, checked
// on two real entries (tests/sites/google/pages/google-maps-reviews).
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace gleaner::extract::google::maps {

/// One entry of the answer's list in the hosted service's `reviews[]` shape: reviewId, rating,
/// snippet (the reviewer's own words), language, translation {language, snippet} (Google's
/// translation to the asked language, when it sent one), date (relative, as the pane shows it),
/// isoDate (when it was posted), link, user {name, contributorId, link, thumbnail, reviews,
/// localGuide}, response {snippet, language, translation, date, isoDate} (the owner's reply).
/// nullopt without a review id or an author's name.
std::optional<nlohmann::json> review_from_entry(const nlohmann::json& entry);

/// The sort order of the RPC's `!13m1!1e<n>` for hosted.md's `sortBy`: qualityScore (most
/// relevant) 1, newestFirst 2, ratingHigh 3, ratingLow 4; "" for another value.
std::string sort_code(const std::string& sort_by);

}  // namespace gleaner::extract::google::maps
