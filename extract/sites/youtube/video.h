#pragma once
// GET /scrape/video/video: one YouTube watch page. video.js returns the page's player response
// and watch-next data; this shapes them: details, channel, counts as text and numbers, chapters
// and related videos in both the older (compactVideoRenderer) and the newer (lockupViewModel)
// renderers.
#include "extract/endpoint.h"

#include <optional>
#include <string_view>

namespace gleaner::extract::youtube {

/// The video endpoint (one instance, listed in registry.cpp).
const Endpoint& video_endpoint();

/// A clock duration as the site writes it ("17:45", "1:02:03") in seconds; nullopt otherwise.
std::optional<long long> duration_seconds(std::string_view text);

/// A count as the site writes it in the page's `language` (a BCP 47 tag, "vi-VN"): in full
/// ("11.579.654 lượt xem", "4,586,491 views") or abbreviated with the language's own suffixes
/// ("34,2 N người đăng ký" → 34200, "1,2 Mio." → 1200000, "3.4万" → 34000, Turkish "1,2 B" →
/// 1200). A language without a known table is read by the kit's parse_count().
std::optional<long long> count_in(std::string_view text, std::string_view language);

}  // namespace gleaner::extract::youtube
