#pragma once
// What the site's HTTP status means for POST /scrape/web, on both roads (docs/endpoints/web.md):
// 404/410 → not_found, 401/403/407/429 → upstream_blocked, 5xx → upstream_error.

namespace gleaner::web {

/// Throws the gleaner::Error the status calls for; returns for a page worth reading.
void check_site_status(int status);

}  // namespace gleaner::web
