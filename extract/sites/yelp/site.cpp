#include "extract/sites/yelp/site.h"

#include <vector>

namespace gleaner::extract::yelp {
namespace {

// The site's country domains.
const std::vector<std::string>& domains() {
  static const std::vector<std::string> list = {
      "yelp.com",    "yelp.ca",     "yelp.co.uk", "yelp.com.au", "yelp.ie",     "yelp.co.nz",
      "yelp.com.sg", "yelp.com.hk", "yelp.de",    "yelp.fr",     "yelp.es",     "yelp.it",
      "yelp.nl",     "yelp.be",     "yelp.ch",    "yelp.at",     "yelp.dk",     "yelp.se",
      "yelp.no",     "yelp.fi",     "yelp.pl",    "yelp.pt",     "yelp.com.br", "yelp.com.mx",
      "yelp.cz",     "yelp.com.tr", "yelp.co.jp", "yelp.cl",     "yelp.com.ar", "yelp.com.tw",
      "yelp.com.ph", "yelp.my"};
  return list;
}

// The sites' hosts for another language of their country, taken as they are.
const std::vector<std::string>& language_hosts() {
  static const std::vector<std::string> list = {
      "de.yelp.ch",     "fr.yelp.ch",     "it.yelp.ch",     "en.yelp.ch",
      "en.yelp.be",     "fr.yelp.be",     "nl.yelp.be",     "fr.yelp.ca",
      "en.yelp.com.hk", "zh.yelp.com.hk", "en.yelp.com.ph", "fil.yelp.com.ph",
      "en.yelp.my",     "ms.yelp.my",     "fi.yelp.fi",     "sv.yelp.fi"};
  return list;
}

}  // namespace

Param domain_parameter() {
  return Param::string("domain").one_of(with_and_without_www(domains(), language_hosts()));
}

std::string host_of(const ValidatedParams& params) {
  const std::string d = params.string("domain").value_or("yelp.com");
  return d.starts_with("yelp.") ? "www." + d : d;
}

}  // namespace gleaner::extract::yelp
