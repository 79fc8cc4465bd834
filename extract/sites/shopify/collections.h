#pragma once
// GET /scrape/shop/collections: a Shopify store's collections, from the store's own
// `/collections.json?limit=&page=` (every Shopify store serves it, on its own domain).
// collections.js returns the document's JSON; this shapes it.
#include "extract/endpoint.h"

namespace gleaner::extract::shopify {

/// The collections endpoint (registered by extract/sites/shopify/CMakeLists.txt).
const Endpoint& collections_endpoint();

}  // namespace gleaner::extract::shopify
