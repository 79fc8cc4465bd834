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

}  // namespace gleaner::extract::youtube
