// The site kit's text helpers on the forms the issue and real pages write (extract/sites/common/
// text.h): numbers in several locales, money with symbols, codes and ranges, durations, dates.
#include "extract/sites/common/text.h"

#include <gtest/gtest.h>

#include "extract/sites/common/clock.h"

namespace gleaner::extract {
namespace {

using std::chrono::sys_days;
using namespace std::chrono;

const system_clock::time_point kNow = sys_days(2026y / November / 24) + 15h;

TEST(KitNumbers, LocalesAndMultipliers) {
  EXPECT_EQ(parse_number("3,512"), 3512);
  EXPECT_EQ(parse_number("3.512"), 3512);
  EXPECT_EQ(parse_number("3.512", DecimalMark::Dot), 3.512);
  EXPECT_EQ(parse_number("3,512", DecimalMark::Comma), 3.512);
  EXPECT_EQ(parse_number("8,5"), 8.5);
  EXPECT_EQ(parse_number("Scored 9.2"), 9.2);
  EXPECT_EQ(parse_number("1.234,50 €"), 1234.5);
  EXPECT_EQ(parse_number("1,234.50"), 1234.5);
  EXPECT_EQ(parse_number("1 234,5"), 1234.5);
  EXPECT_EQ(parse_number("1\xC2\xA0"
                         "234\xC2\xA0"
                         "567 vues"),
            1234567);
  EXPECT_EQ(parse_number("1.2M"), 1200000);
  EXPECT_EQ(parse_number("4,1 k"), 4100);
  EXPECT_EQ(parse_number("12 mil"), 12000);
  EXPECT_EQ(parse_number("2,5 Mio."), 2500000);
  EXPECT_EQ(parse_number("-3.5%"), -3.5);
  EXPECT_EQ(parse_number("2,469 reviews"), 2469);
  EXPECT_EQ(parse_number("0.125"), 0.125);
  EXPECT_EQ(parse_number("12 minutes"), 12);
  EXPECT_EQ(parse_number("no number"), std::nullopt);
  EXPECT_EQ(decimal_mark_of("pt-BR"), DecimalMark::Comma);
  EXPECT_EQ(decimal_mark_of("en-US"), DecimalMark::Dot);
  EXPECT_EQ(decimal_mark_of("xx"), DecimalMark::Unknown);
}

TEST(KitMoney, SymbolsCodesRangesAndPeriods) {
  auto m = parse_money("€ 1.234,50");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->min, 1234.5);
  EXPECT_EQ(m->currency, "EUR");
  EXPECT_FALSE(m->max);
  m = parse_money("R$ 47,37");
  EXPECT_EQ(m->min, 47.37);
  EXPECT_EQ(m->currency, "BRL");
  m = parse_money("$52,000 - $64,500 a year");
  EXPECT_EQ(m->min, 52000);
  EXPECT_EQ(m->max, 64500);
  EXPECT_EQ(m->currency, "USD");
  EXPECT_EQ(m->period, "year");
  m = parse_money("From $18.50 an hour");
  EXPECT_EQ(m->min, 18.5);
  EXPECT_EQ(m->period, "hour");
  m = parse_money("US$120/night");
  EXPECT_EQ(m->currency, "USD");
  EXPECT_EQ(m->period, "night");
  m = parse_money("CA$2,098,000");
  EXPECT_EQ(m->min, 2098000);
  EXPECT_EQ(m->currency, "CAD");
  m = parse_money("$610,000", DecimalMark::Unknown, "CAD");
  EXPECT_EQ(m->currency, "CAD");
  m = parse_money("1 299 kr", DecimalMark::Unknown, "SEK");
  EXPECT_EQ(m->min, 1299);
  EXPECT_EQ(m->currency, "SEK");
  m = parse_money("EUR 240");
  EXPECT_EQ(m->currency, "EUR");
  m = parse_money("₹ 21,500");
  EXPECT_EQ(m->currency, "INR");
  EXPECT_EQ(m->min, 21500);
  m = parse_money("£45 per month");
  EXPECT_EQ(m->currency, "GBP");
  EXPECT_EQ(m->period, "month");
  EXPECT_FALSE(parse_money("Check availability"));
}

TEST(KitDurations, IsoClockAndWords) {
  EXPECT_EQ(parse_duration_seconds("PT1H30M"), 5400);
  // Found by the fuzz seed corpus: std::stoll threw on a number past 64 bits.
  EXPECT_EQ(parse_duration_seconds("PT99999999999999999999H"), std::nullopt);
  EXPECT_EQ(parse_duration_seconds("99999999999999999999999 hours"), std::nullopt);
  EXPECT_EQ(parse_duration_seconds("P2D"), 172800);
  EXPECT_EQ(parse_duration_seconds("1:02:03"), 3723);
  EXPECT_EQ(parse_duration_seconds("17:45"), 1065);
  EXPECT_EQ(parse_duration_seconds("1h 30m"), 5400);
  EXPECT_EQ(parse_duration_seconds("2 hours 5 minutes"), 7500);
  EXPECT_EQ(parse_duration_seconds("45 min"), 2700);
  EXPECT_EQ(parse_duration_seconds("soon"), std::nullopt);
}

TEST(KitDates, AbsoluteInSeveralLanguages) {
  EXPECT_EQ(parse_date("11/22/2025", kNow), "2025-11-22");
  EXPECT_EQ(parse_date("22/11/2025", kNow), "2025-11-22");
  EXPECT_EQ(parse_date("03/04/2025", kNow, DateOrder::DayFirst), "2025-04-03");
  EXPECT_EQ(parse_date("03/04/2025", kNow), "2025-03-04");
  EXPECT_EQ(parse_date("22.11.2025", kNow), "2025-11-22");
  EXPECT_EQ(parse_date("2025-08-23T10:00:00Z", kNow), "2025-08-23");
  EXPECT_EQ(parse_date("4 Aug 2022", kNow), "2022-08-04");
  EXPECT_EQ(parse_date("Aug 4, 2022", kNow), "2022-08-04");
  EXPECT_EQ(parse_date("Reviewed August 4th, 2022", kNow), "2022-08-04");
  EXPECT_EQ(parse_date("4 août 2022", kNow), "2022-08-04");
  EXPECT_EQ(parse_date("4. August 2022", kNow), "2022-08-04");
  EXPECT_EQ(parse_date("4 de agosto de 2022", kNow), "2022-08-04");
  EXPECT_EQ(parse_date("Nov 2025", kNow), "2025-11-01");
  EXPECT_EQ(parse_date("Dec 3", kNow), "2025-12-03");
  EXPECT_EQ(parse_date("Oct 3", kNow), "2026-10-03");
  EXPECT_EQ(parse_date("31/02/2025", kNow), std::nullopt);
}

TEST(KitDates, RelativeAgainstTheClock) {
  EXPECT_EQ(parse_date("Just posted", kNow), "2026-11-24");
  EXPECT_EQ(parse_date("Today", kNow), "2026-11-24");
  EXPECT_EQ(parse_date("yesterday", kNow), "2026-11-23");
  EXPECT_EQ(parse_date("3 days ago", kNow), "2026-11-21");
  EXPECT_EQ(parse_date("Posted 30+ days ago", kNow), "2026-10-25");
  EXPECT_EQ(parse_date("an hour ago", kNow), "2026-11-24");
  EXPECT_EQ(parse_date("2 weeks ago", kNow), "2026-11-10");
  EXPECT_EQ(parse_date("a month ago", kNow), "2026-10-24");
  EXPECT_EQ(parse_date("il y a 3 jours", kNow), "2026-11-21");
  EXPECT_EQ(parse_date("hace 2 días", kNow), "2026-11-22");
  EXPECT_EQ(parse_date("vor 3 Tagen", kNow), "2026-11-21");
  EXPECT_EQ(parse_date("há 2 dias", kNow), "2026-11-22");
}

TEST(KitStrings, LowerTextAndAbsoluteUrls) {
  EXPECT_EQ(lower("BVMF Ação"), "bvmf ação");
  EXPECT_EQ(upper("us"), "US");
  EXPECT_EQ(text(nlohmann::json{{"runs", {{{"text", "a"}}, {{"text", "b"}}}}}), "ab");
  EXPECT_EQ(text(nlohmann::json{{"simpleText", "x"}}), "x");
  EXPECT_EQ(text(nlohmann::json(42)), "42");
  EXPECT_EQ(text(nlohmann::json::array({"a", nlohmann::json{{"@value", "b"}}})), "a, b");
  const std::string base = "https://www.airbnb.com/s/Mission/homes?x=1";
  EXPECT_EQ(absolute_url(base, "/rooms/1"), "https://www.airbnb.com/rooms/1");
  EXPECT_EQ(absolute_url(base, "//a0.muscache.com/p.jpg"), "https://a0.muscache.com/p.jpg");
  EXPECT_EQ(absolute_url(base, "rooms/2"), "https://www.airbnb.com/s/Mission/rooms/2");
  EXPECT_EQ(absolute_url(base, "?page=2"), "https://www.airbnb.com/s/Mission/homes?page=2");
  EXPECT_EQ(absolute_url(base, "https://x.test/"), "https://x.test/");
  EXPECT_EQ(absolute_url(base, "javascript:void(0)"), "");
}

}  // namespace
}  // namespace gleaner::extract

namespace gleaner::extract {
namespace {

TEST(KitClock, TestsSetTheSiteClock) {
  using namespace std::chrono;
  const system_clock::time_point then = sys_days(2026y / January / 2);
  {
    FakeClock fake(then);
    ScopedSiteClock scoped(fake);
    EXPECT_EQ(site_clock().now(), then);
    EXPECT_EQ(parse_date("yesterday", site_clock().now()), "2026-01-01");
  }
  EXPECT_GT(site_clock().now(),
            then + days(300));  // the system clock again (this is 2026-11 or later)
}

}  // namespace
}  // namespace gleaner::extract
