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

// One reader for every locale: the same quantity as pages of several languages write it.
TEST(KitNumbers, TheSameNumberAcrossLocales) {
  struct Case {
    const char* text;
    const char* language;
    double value;
  };
  for (const Case& c : std::initializer_list<Case>{
           // A score: "9,0" (es, de, fr, pt), "9.0" (en).
           {"Puntuación: 9,0", "es", 9.0},
           {"Bewertung: 9,0", "de", 9.0},
           {"Note : 9,0", "fr", 9.0},
           {"Scored 9.0", "en-GB", 9.0},
           // A count of a thousand and more: "1.234" (es, de, it, pt), "1 234" (fr, with a
           // space or a narrow no-break space), "1,234" (en).
           {"1.234 comentarios", "es", 1234},
           {"1.234 Bewertungen", "de", 1234},
           {"1 234 avis", "fr", 1234},
           {"1\xE2\x80\xAF"
            "234 avis",
            "fr", 1234},
           {"1,234 reviews", "en-US", 1234},
           {"1.234 recensioni", "it", 1234},
           // A price with decimals: "1.234,50" / "1 234,50" / "1,234.50" / "1'234.50" (de-CH).
           {"1.234,50 €", "de", 1234.5},
           {"1 234,50 €", "fr", 1234.5},
           {"$1,234.50", "en", 1234.5},
           {"CHF 1'234.50", "de-CH", 1234.5},
           {"Ungef\xC3\xA4hr 1\xE2\x80\x99"
            "780\xE2\x80\x99"
            "000 Ergebnisse",
            "de-CH", 1780000},  // Google's typographic apostrophe (U+2019)
           {"R$ 1.234,50", "pt-BR", 1234.5},
           // Three digits after the only separator: the locale decides.
           {"1,234", "en", 1234},
           {"1,234", "es", 1.234},
           {"1.234", "es", 1234},
           {"1.234", "en", 1.234},
           {"1.234", "es-MX", 1.234},
           // Distances.
           {"1,2 km del centro", "es", 1.2},
           {"1.2 km from centre", "en", 1.2},
           {"850 m du centre", "fr", 850},
           // Multipliers.
           {"1,2 M de visualizaciones", "es", 1200000},
           {"1.2M views", "en", 1200000},
       }) {
    SCOPED_TRACE(c.text);
    SCOPED_TRACE(c.language);
    const auto n = parse_number(c.text, decimal_mark_of(c.language));
    ASSERT_TRUE(n.has_value());
    EXPECT_DOUBLE_EQ(*n, c.value);
  }
  EXPECT_EQ(decimal_mark_of("es"), DecimalMark::Comma);
  EXPECT_EQ(decimal_mark_of("es-MX"), DecimalMark::Dot);
  EXPECT_EQ(decimal_mark_of("de_CH"), DecimalMark::Dot);
  EXPECT_EQ(decimal_mark_of("fr-FR"), DecimalMark::Comma);
}

// Arabic-Indic and Persian digits, with their own decimal and group marks: every number reader.
TEST(KitNumbers, ArabicIndicDigits) {
  EXPECT_EQ(western_digits("٤٫٥ من ٥ نجوم"), "4.5 من 5 نجوم");
  EXPECT_EQ(western_digits("۱۲۳"), "123");
  EXPECT_EQ(western_digits("١٬٢٣٤٫٥", DecimalMark::Comma), "1.234,5");
  EXPECT_DOUBLE_EQ(*parse_number("٣٤٩٫٠٠ ر.س."), 349);
  EXPECT_DOUBLE_EQ(*parse_number("١٬٢٣٤٫٥٠ د.إ.", DecimalMark::Comma), 1234.5);
  EXPECT_DOUBLE_EQ(*parse_number("١٬٢٣٤٫٥٠ د.إ.", DecimalMark::Dot), 1234.5);
  EXPECT_EQ(parse_count("١٬٢٣٤ مشاهدة"), 1234);
  EXPECT_EQ(parse_numbers("٤٫٥ من ٥ نجوم"), (std::vector<double>{4.5, 5}));
  EXPECT_DOUBLE_EQ(parse_money("١٬٢٣٤٫٥٠ د.إ.")->min, 1234.5);
  // Other Arabic letters (the same lead bytes) change nothing.
  EXPECT_EQ(parse_count("مشاهدة 42"), 42);
}

TEST(KitNumbers, CountsAndEveryNumberOfAText) {
  // The cases numbers.h once answered, now read by the kit's one reader.
  EXPECT_EQ(parse_count("About 2,640,000,000 results (0.45 seconds)"), 2640000000LL);
  EXPECT_EQ(parse_count("1,234,567 views"), 1234567);
  EXPECT_EQ(parse_count("1.2M views"), 1200000);
  EXPECT_EQ(parse_count("3.4K subscribers"), 3400);
  EXPECT_EQ(parse_count("12 thousand"), 12000);
  EXPECT_EQ(parse_count("(1,024)"), 1024);
  EXPECT_EQ(parse_count("1.234.567"), 1234567);
  EXPECT_EQ(parse_count("2 B"), 2000000000LL);
  EXPECT_EQ(parse_count("12 minutes"), 12);
  EXPECT_EQ(parse_count("no number"), std::nullopt);
  EXPECT_EQ(parse_count("-5"), std::nullopt);
  EXPECT_EQ(parse_count("1.234 comentarios", DecimalMark::Comma), 1234);
  EXPECT_DOUBLE_EQ(*parse_number("$1,299.99"), 1299.99);
  EXPECT_DOUBLE_EQ(*parse_number("£45"), 45);
  EXPECT_DOUBLE_EQ(*parse_number("R$ 38,50"), 38.5);
  EXPECT_DOUBLE_EQ(*parse_number("1.299,00 €"), 1299);
  EXPECT_DOUBLE_EQ(*parse_number("From $899"), 899);
  EXPECT_EQ(parse_number("free"), std::nullopt);
  EXPECT_DOUBLE_EQ(*parse_number("4.5 stars"), 4.5);
  EXPECT_DOUBLE_EQ(*parse_number("Rated 4,7"), 4.7);
  EXPECT_EQ(parse_numbers("4,7 von 5 Sternen aus 8.294 Rezensionen", DecimalMark::Comma),
            (std::vector<double>{4.7, 5, 8294}));
  EXPECT_EQ(parse_numbers("4.7 out of 5 stars from 8,294 reviews"),
            (std::vector<double>{4.7, 5, 8294}));
  EXPECT_EQ(parse_numbers("Environ 25 150 000 000 résultats (0,62 secondes)", DecimalMark::Comma),
            (std::vector<double>{25150000000.0, 0.62}));
  EXPECT_EQ(parse_numbers("nothing"), std::vector<double>{});
  EXPECT_EQ(collapse_whitespace("  a \n\t b\xC2\xA0"
                                "c "),
            "a b c");
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
  // A symbol after a no-break space, as French and Spanish pages write it (airbnb.es, 2025).
  m = parse_money("1.826\u00a0\u20ac en total", DecimalMark::Comma);
  EXPECT_EQ(m->min, 1826);
  EXPECT_EQ(m->currency, "EUR");
  m = parse_money("128\u00a0\u00a3");
  EXPECT_EQ(m->currency, "GBP");
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

// The day of a time in milliseconds, as Redfin's API and Zillow's older pages give it: UTC.
TEST(KitDates, TheDayOfATimeInMilliseconds) {
  EXPECT_EQ(iso_date_of_ms(1630000000000LL), "2021-08-26");  // 17:46:40 UTC
  EXPECT_EQ(iso_date_of_ms(1630022399999LL), "2021-08-26");  // 23:59:59.999 UTC
  EXPECT_EQ(iso_date_of_ms(1630022400000LL), "2021-08-27");
  EXPECT_EQ(iso_date_of_ms(nlohmann::json("1630000000000")), "");
  EXPECT_EQ(iso_date_of_ms(nlohmann::json()), "");
}

TEST(KitDates, WhatAResultsPagePrintsBesideAResultIsADate) {
  for (const char* date : {"Dec 16, 2022", "16 Dec 2022", "12.05.2023", "2023年5月1日", "yesterday",
                           "5 days ago", "an hour ago", "vor 3 Tagen", "il y a 2 jours",
                           "hace 5 días", "3 дня назад", "2 日前", "3 天之前", "3일 전",
                           "Aug 4, 2025"}) {
    EXPECT_TRUE(is_listed_date(date)) << date;
  }
  for (const char* not_date : {"", "201 Artikel", "Results 1 - 48 of 839621", "Wikipedia",
                               "by D Tong · Cited by 5", "M Kuhlmann 著 · 2006 · 被引用数: 193"}) {
    EXPECT_FALSE(is_listed_date(not_date)) << not_date;
  }
}

TEST(KitDates, TheDateAtTheHeadOfASnippetIsSplitFromIt) {
  auto split = leading_listed_date("Mar 2, 2023 · From café chains to bakeries");
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ(split->first, "Mar 2, 2023");
  EXPECT_EQ(split->second, "From café chains to bakeries");
  split = leading_listed_date("2019年7月2日 · 网站");
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ(split->first, "2019年7月2日");
  EXPECT_FALSE(leading_listed_date("Wikipedia · The free encyclopedia"));
  EXPECT_FALSE(leading_listed_date("No dot here, 2023"));
  EXPECT_FALSE(leading_listed_date(" · 2023 leading dot"));
  EXPECT_FALSE(leading_listed_date(std::string(41, 'x') + " 2023 · too far"));
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
