#include "extract/sites/booking/stay.h"

#include <chrono>
#include <sstream>

#include "core/error.h"
#include "extract/sites/common/clock.h"
#include "extract/sites/common/text.h"

namespace gleaner::extract::booking {
namespace {

using std::chrono::sys_days;

std::optional<sys_days> day_of(const std::string& iso) {
  int y = 0;
  unsigned m = 0, d = 0;
  if (std::sscanf(iso.c_str(), "%d-%u-%u", &y, &m, &d) != 3) return std::nullopt;
  const std::chrono::year_month_day ymd{std::chrono::year(y), std::chrono::month(m),
                                        std::chrono::day(d)};
  if (!ymd.ok()) return std::nullopt;
  return sys_days(ymd);
}

std::vector<int> ages_of(const std::string& text) {
  std::vector<int> ages;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (item.empty() || item.size() > 2 ||
        item.find_first_not_of("0123456789") != std::string::npos) {
      throw invalid_parameter("childrenAges", "childrenAges must be comma-separated ages, 0 to 17");
    }
    const int age = std::stoi(item);
    if (age > 17) throw invalid_parameter("childrenAges", "each child's age must be 0 to 17");
    ages.push_back(age);
  }
  return ages;
}

}  // namespace

std::vector<Param> stay_params() {
  return {Param::date("checkInDate").required(),
          Param::date("checkOutDate").required(),
          Param::integer("rooms").required().range(1, 30),
          Param::integer("adults").required().range(1, 30),
          Param::integer("children").required().range(0, 10),
          Param::string("childrenAges").max_length(64),
          Param::string("language").pattern(patterns::kLanguageTag, patterns::kLanguageTagWords),
          Param::string("currency")
              .pattern("[A-Z]{3}|hotelCurrency", "an ISO 4217 currency code or hotelCurrency")};
}

Rule stay_rule() {
  return Rule::custom([](const ValidatedParams& p) {
    const auto in = day_of(*p.string("checkInDate"));
    const auto out = day_of(*p.string("checkOutDate"));
    if (!in) throw invalid_parameter("checkInDate", "checkInDate is not a calendar date");
    if (!out) throw invalid_parameter("checkOutDate", "checkOutDate is not a calendar date");
    const sys_days today = std::chrono::floor<std::chrono::days>(site_clock().now());
    if (*in <= today) throw invalid_parameter("checkInDate", "checkInDate must be in the future");
    if (*out <= *in) {
      throw invalid_parameter("checkOutDate", "checkOutDate must be later than checkInDate");
    }
    const long long children = p.integer("children").value_or(0);
    const auto ages = p.string("childrenAges");
    if (children == 0 && ages) {
      throw invalid_parameter("childrenAges", "childrenAges is only for children > 0");
    }
    if (children > 0) {
      if (!ages) throw missing_parameter("childrenAges");
      if (static_cast<long long>(ages_of(*ages).size()) != children) {
        throw invalid_parameter("childrenAges", "childrenAges must give one age per child (" +
                                                    std::to_string(children) + ")");
      }
    }
  });
}

void add_stay(UrlBuilder& url, const ValidatedParams& p) {
  url.add("checkin", *p.string("checkInDate")).add("checkout", *p.string("checkOutDate"));
  url.add("group_adults", std::to_string(*p.integer("adults")));
  url.add("group_children", std::to_string(*p.integer("children")));
  if (auto ages = p.string("childrenAges")) {
    for (int age : ages_of(*ages)) url.add("age", std::to_string(age));
  }
  url.add("no_rooms", std::to_string(*p.integer("rooms")));
  if (auto currency = p.string("currency")) {
    url.add("selected_currency", *currency == "hotelCurrency" ? "hotel_currency" : *currency);
  }
  if (auto language = p.string("language")) url.add("lang", lower(language_tag(*language)));
}

nlohmann::json stay_of(const ValidatedParams& p) {
  const auto in = day_of(*p.string("checkInDate"));
  const auto out = day_of(*p.string("checkOutDate"));
  nlohmann::json stay = {
      {"checkInDate", *p.string("checkInDate")}, {"checkOutDate", *p.string("checkOutDate")},
      {"nights", (*out - *in).count()},          {"rooms", *p.integer("rooms")},
      {"adults", *p.integer("adults")},          {"children", *p.integer("children")}};
  if (auto ages = p.string("childrenAges")) stay["childrenAges"] = ages_of(*ages);
  if (auto currency = p.string("currency")) stay["currency"] = *currency;
  return stay;
}

}  // namespace gleaner::extract::booking
