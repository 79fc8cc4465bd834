#pragma once
// GET /scrape/mart/reviews: one page of ten reviews of a Walmart item, with the item's rating
// summary and the filter choices the page offers. reviews.js returns the reviews object the
// site's Next.js page carries (`__NEXT_DATA__` → props.pageProps.initialData.data.reviews, the
// same on product pages and review pages) and the product's few fields; this shapes them.
#include <optional>
#include <string>

#include "extract/endpoint.h"

namespace gleaner::extract::walmart {

/// The reviews endpoint (registered by extract/sites/walmart/CMakeLists.txt).
const Endpoint& reviews_endpoint();

/// What a product or review URL of the site names: its storefront ("walmart.com" or
/// "walmart.ca"), the item id, and the `conditionGroupCode` of a variant when the URL names one.
struct ItemUrl {
  std::string storefront;
  std::string item_id;
  std::optional<std::string> condition_group;
};

/// Reads a product URL (`/ip/<slug>/<id>`, `/ip/<id>`, `/<lang>/ip/<slug>/<id>`) or review URL
/// (`/reviews/product/<id>`) of walmart.com or walmart.ca; nullopt for anything else.
std::optional<ItemUrl> parse_item_url(const std::string& url);

}  // namespace gleaner::extract::walmart
