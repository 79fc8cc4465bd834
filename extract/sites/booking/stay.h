#pragma once
// What Booking.com's place and search endpoints share: the stay's parameters (dates against the
// site clock, rooms, adults, children and their ages, language, currency), their rules, and the
// query a person's browser sends for them.
#include <vector>

#include "extract/params.h"
#include "extract/url.h"

namespace gleaner::extract::booking {

/// checkInDate, checkOutDate, rooms, adults, children (required), childrenAges, language,
/// currency: as api.md declares them for stays/place and stays/search.
std::vector<Param> stay_params();

/// The rules across them: check-in in the future (extract::site_clock()) and before check-out;
/// childrenAges required when children > 0, refused when 0, one age 0–17 per child.
Rule stay_rule();

/// Appends the stay as the site's own forms write it: checkin, checkout, group_adults,
/// group_children, one `age` per child, no_rooms, selected_currency (hotel_currency for
/// `hotelCurrency`), lang.
void add_stay(UrlBuilder& url, const ValidatedParams& params);

/// The stay as the answer echoes it: {checkInDate, checkOutDate, nights, rooms, adults, children,
/// childrenAges?, currency?}.
nlohmann::json stay_of(const ValidatedParams& params);

}  // namespace gleaner::extract::booking
