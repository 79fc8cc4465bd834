#pragma once
// Local pages for POST /scrape/web's interactions, rules and content filters, shared by
// web_roads_tests (the page fetch itself, on both roads) and web_interactions_tests (the whole
// service: charging, 422, the answers' schema):
//   /load-more      three items and a "Load more" button that adds three (after 50 ms) until nine
//   /form, /results a search form (GET q) and its answer "Results for <q>"
//   /infinite       ten 100 px rows; scrolling near the end adds ten (after 50 ms) up to fifty
//   /product        a product (name, price, sku, tags, reviews) and a specification table
//   /article        a news article between a header, navigation, a sidebar and a footer
//   /with-resources a page loading /tracker.js and /style.css
//   /inline-image   a paragraph and a data: PNG
//   /latin1         ISO-8859-1 text declared in Content-Type
//   /hop            a redirect to /product;  /loop/N  a redirect to /loop/N+1, forever
#include <httplib.h>

namespace gleaner::testing {

void add_interaction_pages(httplib::Server& server);

}  // namespace gleaner::testing
