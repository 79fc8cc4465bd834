// GET /scrape/search/finance end to end in real Chromium: the endpoint builds the quote URL, the
// page is answered from a replay archive of the fixture (tests/sites/google/pages/finance),
// finance.js reads its data blobs and markup and the C++ shapes them.
#include <gtest/gtest.h>

#include "extract/sites/google/finance.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::google {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::prefix_entry;
using testing::requested;
using testing::run_in_chromium;

const std::string kQuotePage =
    gleaner::testing::site_page("google", "finance/sisacao8_quote_PETR4-BVMF_ptBR.html");

// Any quote URL answers with the PETR4 page, so the archive's log shows what was asked for.
std::shared_ptr<browser::ReplayArchive> quote_archive(TempReplayArchive& archive) {
  archive.add(prefix_entry("https://www.google.com/finance/quote/", kQuotePage));
  return archive.load();
}

TEST(FinanceInChromium, QuotePage) {
  TempReplayArchive archive;
  auto replay = quote_archive(archive);
  auto result = run_in_chromium(finance_endpoint(), replay, {{"q", "PETR4:BVMF"}, {"hl", "pt"}});

  EXPECT_EQ(requested(*replay).front(), "https://www.google.com/finance/quote/PETR4:BVMF?hl=pt");
  const auto& body = result.body;
  EXPECT_EQ(body["summary"]["title"], "Petrobras");
  EXPECT_EQ(body["summary"]["price"], "R$ 47,37");
  EXPECT_EQ(body["summary"]["extractedPrice"], 47.37);
  EXPECT_EQ(body["summary"]["currency"], "BRL");
  EXPECT_EQ(body["summary"]["date"], "2026-04-27T20:48:10-03:00");
  ASSERT_EQ(body["graph"].size(), 412u);
  EXPECT_EQ(body["graph"][0]["price"], 47.23);
  ASSERT_EQ(body["keyStats"]["stats"].size(), 8u);
  EXPECT_EQ(body["keyStats"]["stats"][3]["label"], "Capitalização de mercado");
  EXPECT_EQ(body["keyStats"]["stats"][3]["value"], "643,28 bi BRL");
  EXPECT_EQ(body["aboutCompany"]["headquarters"], "Rio de Janeiro, Rio de Janeiro, Brasil");
  EXPECT_EQ(body["aboutCompany"]["info"][1]["value"], "Rio de Janeiro, Rio de Janeiro, Brasil");
  EXPECT_EQ(body["news"][0]["source"], "Yahoo Finance");
  EXPECT_EQ(body["financials"][0]["results"][0]["table"][0]["change"], 5.03);
  EXPECT_EQ(body["discoverMore"][1]["title"], "Os usuários também pesquisam");
  EXPECT_EQ(body["discoverMore"][1]["items"][1]["name"], "PRIO");
  // The recorded script output the unit tests shape is what Chromium reads today.
  const Endpoint& finance = finance_endpoint();
  EXPECT_EQ(body, finance.shape(testing::recorded("google/data/finance/petr4_script_output.json"),
                                finance.validate({{"q", "PETR4:BVMF"}, {"hl", "pt"}})));
}

TEST(FinanceInChromium, WindowAndUnknownTicker) {
  TempReplayArchive archive;
  auto replay = quote_archive(archive);
  auto month =
      run_in_chromium(finance_endpoint(), replay, {{"q", "PETR4:BVMF"}, {"window", "1M"}});
  EXPECT_EQ(month.body["graph"].size(), 20u);
  EXPECT_EQ(month.body["graph"][0]["date"], "2026-03-30T16:56:00-03:00");
  auto unknown = run_in_chromium(finance_endpoint(), replay, {{"q", "PETR3:BVMF"}});
  EXPECT_EQ(unknown.body["suggestions"][0]["stock"], "PETR4:BVMF");
  EXPECT_EQ(requested(*replay, "https://www.google.com/finance/quote/"),
            (std::vector<std::string>{
                "https://www.google.com/finance/quote/PETR4:BVMF?hl=en&window=1M",
                "https://www.google.com/finance/quote/PETR3:BVMF?hl=en"}));
}

// The beta layout keeps its data only in the AF_initDataCallback blobs, without the classic
// layout's quote markup. A page built from the real PETR4 page by taking out every classic class
// and attribute finance.js knows (the blobs untouched): the price, date and graph still read.
TEST(FinanceInChromium, ABetaLayoutPageIsReadFromItsBlobs) {
  TempReplayArchive archive;
  archive.add(gleaner::testing::rewritten_entry(
      "https://www.google.com/finance/quote/", kQuotePage,
      nlohmann::json::array({{"data-last-price", "data-removed-price"},
                             {"YMlKec", "removedA"},
                             {"fxKbKc", "removedB"},
                             {"gyFHrc", "removedC"},
                             {"mfs7Fc", "removedD"},
                             {"P6K39c", "removedE"},
                             {"bLLb2d", "removedF"}})));
  const auto body =
      run_in_chromium(finance_endpoint(), archive.load(), {{"q", "PETR4:BVMF"}, {"hl", "pt"}}).body;
  EXPECT_EQ(body["summary"]["title"], "Petrobras");
  EXPECT_EQ(body["summary"]["extractedPrice"], 47.37);
  EXPECT_EQ(body["summary"]["currency"], "BRL");
  EXPECT_EQ(body["summary"]["date"], "2026-04-27T20:48:10-03:00");
  EXPECT_EQ(body["graph"].size(), 412u);
}

// A Taiwan Stock Exchange quote in Traditional Chinese (fhc-elite, 2025-12): the price as the
// page writes it ("$96.10", TWD), its time at the exchange's offset, the key stats in the page's
// language and the "discover more" lists under their own titles.
TEST(FinanceInChromium, ATaipeiQuoteInTraditionalChinese) {
  TempReplayArchive archive;
  archive.add(prefix_entry(
      "https://www.google.com/finance/quote/",
      gleaner::testing::site_page("google", "finance/fhc-elite_quote_2881-TPE_zhTW_2025-12.html")));
  auto replay = archive.load();
  const auto body =
      run_in_chromium(finance_endpoint(), replay, {{"q", "2881:TPE"}, {"hl", "zh-TW"}}).body;
  EXPECT_EQ(requested(*replay).front(), "https://www.google.com/finance/quote/2881:TPE?hl=zh-TW");
  const auto& summary = body["summary"];
  EXPECT_EQ(summary["title"], "富邦金融控股");
  EXPECT_EQ(summary["stock"], "2881");
  EXPECT_EQ(summary["exchange"], "TPE");
  EXPECT_EQ(summary["price"], "$96.10");
  EXPECT_EQ(summary["extractedPrice"], 96.1);
  EXPECT_EQ(summary["currency"], "TWD");
  EXPECT_EQ(summary["previousClose"], 96.8);
  EXPECT_EQ(summary["priceMovement"]["movement"], "down");
  EXPECT_EQ(summary["date"], "2025-12-15T10:15:02+08:00");
  ASSERT_EQ(body["keyStats"]["stats"].size(), 8u);
  EXPECT_EQ(body["keyStats"]["stats"][0]["label"], "前次收盤價");
  EXPECT_EQ(body["keyStats"]["stats"][0]["value"], "$96.80");
  EXPECT_EQ(body["keyStats"]["stats"][3]["value"], "1.44兆 TWD");
  EXPECT_EQ(body["aboutCompany"]["founded"], "2001-11-28");
  EXPECT_EQ(body["aboutCompany"]["employees"], 41924);
  EXPECT_EQ(body["aboutCompany"]["website"], "http://www.fubon.com/");
  ASSERT_EQ(body["discoverMore"].size(), 2u);
  EXPECT_EQ(body["discoverMore"][1]["title"], "其他人也搜尋了以下項目：");
  EXPECT_EQ(body["discoverMore"][1]["items"][0]["name"], "國泰金融控股公司");
  EXPECT_EQ(body["discoverMore"][1]["items"][0]["stock"], "2882:TPE");
  ASSERT_EQ(body["news"].size(), 2u);
  EXPECT_EQ(body["news"][0]["title"], "《金融股》富邦金 居金控獲利王");
  EXPECT_EQ(body["news"][0]["source"], "富聯網");
  EXPECT_EQ(body["graph"].size(), 75u);
  EXPECT_EQ(body["graph"][0]["date"], "2025-12-15T09:01:00+08:00");
}

// A whole page of the beta layout (nlttien/chart, 2026-07) for a currency pair: the data only in
// its blobs. The summary is the pair's ("3,877.5506", down 0.6627 from 3,878.2132, VND, no
// exchange); the page's chart says "No data", and no graph is answered.
TEST(FinanceInChromium, AWholeBetaPageOfACurrencyPair) {
  TempReplayArchive archive;
  archive.add(
      prefix_entry("https://www.google.com/finance/quote/",
                   gleaner::testing::site_page(
                       "google", "finance/nlttien-chart_beta-quote_CNY-VND_en_2026-07.html")));
  const auto body = run_in_chromium(finance_endpoint(), archive.load(), {{"q", "CNY-VND"}}).body;
  const auto& summary = body["summary"];
  EXPECT_EQ(summary["title"], "CNY / VND");
  EXPECT_EQ(summary["stock"], "CNY-VND");
  EXPECT_FALSE(summary.contains("exchange"));
  EXPECT_EQ(summary["currency"], "VND");
  EXPECT_DOUBLE_EQ(summary["extractedPrice"].get<double>(), 3877.5506);
  EXPECT_DOUBLE_EQ(summary["previousClose"].get<double>(), 3878.2132);
  EXPECT_DOUBLE_EQ(summary["priceMovement"]["value"].get<double>(), -0.6627);
  EXPECT_EQ(summary["priceMovement"]["movement"], "down");
  EXPECT_FALSE(body.contains("graph")) << body["graph"].dump().substr(0, 200);
}

// A test page written here (not a copy of the site's): how the service reacts to a captcha.
TEST(FinanceInChromium, CaptchaIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.page("https://www.google.com/finance/quote/PETR4:BVMF?hl=en",
               "<html><head><title>Google Finance</title></head><body><form id='captcha-form' "
               "action='/sorry/index'><p>Our systems have detected unusual traffic from your "
               "computer network.</p><div class='g-recaptcha'></div></form></body></html>");
  EXPECT_EQ(error_in_chromium(finance_endpoint(), archive.load(), {{"q", "PETR4:BVMF"}}).code(),
            ErrorCode::UpstreamBlocked);
}

TEST(FinanceInChromium, PageWithoutQuoteDataIsExtractionFailed) {
  TempReplayArchive archive;
  archive.page("https://www.google.com/finance/quote/PETR4:BVMF?hl=en",
               "<html><head><title>Google Finance</title></head><body><main><h1>Google Finance"
               "</h1><p>Stock market prices, real-time quotes and business news, in one place "
               "for you to read.</p></main></body></html>");
  EXPECT_EQ(error_in_chromium(finance_endpoint(), archive.load(), {{"q", "PETR4:BVMF"}}).code(),
            ErrorCode::ExtractionFailed);
}

}  // namespace
}  // namespace gleaner::extract::google
