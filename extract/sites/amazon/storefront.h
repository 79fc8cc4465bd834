#pragma once
// What Amazon's product and search endpoints share: the storefronts, the parameters the hosted
// service's clients send for both, the locale each storefront writes numbers in, and a price as
// the answer gives it ({symbol, amount}).
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "extract/endpoint.h"
#include "extract/params.h"
#include "extract/sites/common/text.h"

namespace gleaner::extract::amazon {

/// The 23 storefronts, `www.amazon.com` first (the default).
const std::vector<std::string>& domains();

/// `domain`, `deliveryZip`, `shippingLocation` and `language`: the parameters both endpoints take.
std::vector<Param> storefront_parameters();

/// The storefront asked for ("www.amazon.de"), `www.` added when the client left it out.
std::string storefront_of(const ValidatedParams& params);

/// The decimal mark the storefront writes prices and ratings with (amazon.de: "33,69 €").
DecimalMark decimal_mark_of_storefront(const std::string& storefront);

/// The decimal mark of a page: its language (`<html lang>`) when that says one, the storefront's
/// otherwise. amazon.nl in English writes "€429.00", amazon.com in Spanish "$1,299.00".
DecimalMark decimal_mark_of_page(const std::string& lang, const std::string& storefront);

/// The browser profile of a request to the storefront: desktop, with `language`'s
/// Accept-Language when the client named one.
BrowserProfile profile_of(const ValidatedParams& params);

/// A price as the page writes it ("$3,429.99", "₹52,990.00", "33,69 €", "SAR 1,279.00",
/// "٣٤٩٫٠٠ ر.س."): the currency as written (`symbol`) and the amount in the page's locale
/// (`mark`); nullopt without one.
struct Price {
  std::string symbol;
  double amount = 0;
};
std::optional<Price> parse_price(const std::string& text, DecimalMark mark);

/// The rating of a star line ("4.4 out of 5 stars", "4,3 de 5 estrellas", "5つ星のうち4.1",
/// "٤٫٥ من ٥ نجوم"): of its first two numbers, the rating and the scale of 5 in either order,
/// the smaller; nullopt without a number.
std::optional<double> parse_rating(const std::string& text, DecimalMark mark);


}  // namespace gleaner::extract::amazon
