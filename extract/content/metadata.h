#pragma once
// The `json` output format of POST /scrape/web: what a page says about itself.
#include <nlohmann/json.hpp>

namespace gleaner::content {

/// Shapes the snapshot's `meta` ({title, lang, canonical, metas: [[key, content]...],
/// jsonLd: [text...]}) into
///   {title?, description?, language?, canonicalUrl?, meta: {}, openGraph: {}, twitter: {},
///    jsonLd: []}
/// - title: document.title, else og:title, else twitter:title;
/// - description: meta description, else og:description, else twitter:description;
/// - language: <html lang>, else the content-language http-equiv tag;
/// - canonicalUrl: <link rel=canonical> as the browser resolved it;
/// - openGraph: og:* and the OpenGraph object namespaces (article:, book:, profile:, music:,
///   video:, product:); twitter: twitter:*; meta: every other named tag (name, property,
///   http-equiv or itemprop); keys lower-cased, values trimmed, empty values skipped; a key that
///   occurs with several different values (og:image) holds them as an array in page order;
/// - jsonLd: every application/ld+json block parsed (an HTML comment or CDATA wrapper and a
///   trailing ';' are tolerated); a block that still does not parse is skipped and logged.
/// Scalars are absent when the page has no value; the objects and the array are always there.
nlohmann::json page_metadata(const nlohmann::json& meta);

}  // namespace gleaner::content
