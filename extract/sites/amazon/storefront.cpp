#include "extract/sites/amazon/storefront.h"

#include <algorithm>
#include <cctype>

#include "core/error.h"

namespace gleaner::extract::amazon {

const std::vector<std::string>& domains() {
  static const std::vector<std::string> list = {
      "www.amazon.com",    "www.amazon.de",     "www.amazon.co.uk",  "www.amazon.ae",
      "www.amazon.com.au", "www.amazon.com.be", "www.amazon.com.br", "www.amazon.ca",
      "www.amazon.eg",     "www.amazon.es",     "www.amazon.fr",     "www.amazon.ie",
      "www.amazon.in",     "www.amazon.it",     "www.amazon.co.jp",  "www.amazon.com.mx",
      "www.amazon.nl",     "www.amazon.pl",     "www.amazon.sa",     "www.amazon.se",
      "www.amazon.sg",     "www.amazon.com.tr", "www.amazon.co.za"};
  return list;
}

namespace {

std::vector<std::string> bare_domains() {
  std::vector<std::string> out;
  for (const std::string& d : domains()) out.push_back(d.substr(4));
  return out;
}

// The catalog's language codes and the language tag each stands for (JP is Japanese).
struct Language {
  const char* code;
  const char* tag;
};
constexpr Language kLanguages[] = {
    {"AR", "ar"}, {"BN", "bn"}, {"CS", "cs"}, {"DA", "da"}, {"DE", "de"}, {"EN", "en"},
    {"ES", "es"}, {"FR", "fr"}, {"HI", "hi"}, {"IT", "it"}, {"JP", "ja"}, {"KN", "kn"},
    {"ML", "ml"}, {"MR", "mr"}, {"NL", "nl"}, {"PL", "pl"}, {"PT", "pt"}, {"SV", "sv"},
    {"TA", "ta"}, {"TE", "te"}, {"TR", "tr"}, {"ZH", "zh"}};

}  // namespace

std::vector<Param> storefront_parameters() {
  std::vector<std::string> languages;
  for (const Language& l : kLanguages) languages.emplace_back(l.code);
  return {Param::string("domain").one_of(with_and_without_www(bare_domains())),
          Param::string("deliveryZip").pattern("[A-Za-z0-9 -]{2,12}", "a postal code"),
          Param::string("shippingLocation")
              .pattern(patterns::kTwoLetters, "a two-letter country code (US, DE)"),
          Param::string("language").one_of(languages)};
}

std::string storefront_of(const ValidatedParams& params) {
  std::string d = lower(params.string("domain").value_or("www.amazon.com"));
  if (!d.starts_with("www.")) d = "www." + d;
  return d;
}

DecimalMark decimal_mark_of_storefront(const std::string& storefront) {
  // Continental Europe, Brazil, Turkey and South Africa write "1.234,56"; the rest "1,234.56".
  for (const char* comma : {".de", ".com.be", ".com.br", ".es", ".fr", ".it", ".nl", ".pl", ".se",
                            ".com.tr", ".co.za"}) {
    if (storefront.ends_with(comma)) return DecimalMark::Comma;
  }
  return DecimalMark::Dot;
}

DecimalMark decimal_mark_of_page(const std::string& lang, const std::string& storefront) {
  const DecimalMark mark = decimal_mark_of(lang);
  return mark != DecimalMark::Unknown ? mark : decimal_mark_of_storefront(storefront);
}

BrowserProfile profile_of(const ValidatedParams& params) {
  BrowserProfile profile;
  if (auto code = params.string("language")) {
    for (const Language& l : kLanguages) {
      if (*code == l.code) profile.headers["Accept-Language"] = l.tag;
    }
  }
  return profile;
}

std::optional<Price> parse_price(const std::string& text, DecimalMark mark) {
  // ASCII digits, so that the symbol is what is left around them.
  const std::string written = collapse_whitespace(western_digits(text, mark));
  auto number = parse_number(written, mark);
  if (!number) return std::nullopt;
  // The symbol is what the page writes around the digits: "$", "₹", "€", "SAR", "R$".
  std::string symbol;
  for (std::size_t i = 0; i < written.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(written[i]);
    if (std::isdigit(c) || c == ' ') continue;
    if ((c == '.' || c == ',') && i > 0 && i + 1 < written.size() &&
        std::isdigit(static_cast<unsigned char>(written[i - 1]))) {
      continue;
    }
    symbol += written[i];
  }
  return Price{collapse_whitespace(symbol), *number};
}

std::optional<double> parse_rating(const std::string& text, DecimalMark mark) {
  const std::vector<double> numbers = parse_numbers(text, mark);
  if (numbers.empty()) return std::nullopt;
  if (numbers.size() >= 2 && numbers[0] <= 5 && numbers[1] <= 5) {
    return std::min(numbers[0], numbers[1]);
  }
  return numbers[0];
}


}  // namespace gleaner::extract::amazon
