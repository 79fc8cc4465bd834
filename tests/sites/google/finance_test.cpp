// The finance endpoint without a browser: parameter rules, the quote URL, and the shaping of
// finance.js's recorded output on the real quote page
// (fixtures/pages/finance/sisacao8_quote_PETR4-BVMF_ptBR.html), both as the classic layout gives
// it (blobs and markup) and from the `ds:` blobs alone, which is all the newer layout has.
#include "core/error.h"
#include "extract/sites/google/finance.h"
#include "tests/support/sites/fake_tab.h"
#include "tests/support/sites/site_checks.h"

#include <gtest/gtest.h>

#include <functional>

namespace gleaner::extract::google {
namespace {

using nlohmann::json;
using testing::recorded;
using testing::refused;
using testing::rejection;

const Endpoint& finance() { return finance_endpoint(); }

json quote_page() { return recorded("google/data/finance/petr4_script_output.json"); }

// The same page as the newer layout serves it: the data blobs without the classic markup.
json blobs_only() {
  json out = quote_page();
  out["page"] = {{"url", out["page"]["url"]}, {"lang", "pt-BR"}, {"price", ""},
                 {"keyStats", json::array()}, {"about", ""}, {"aboutFacts", json::array()},
                 {"discover", json::array()}};
  return out;
}

json shaped(const json& output, const QueryParams& query) {
  return finance().shape(output, finance().validate(query));
}

TEST(FinanceParameters, TickerWindowAndLanguage) {
  EXPECT_EQ(rejection(finance(), {}), refused(ErrorCode::MissingParameter, "q"));
  EXPECT_EQ(rejection(finance(), {{"q", "PETR4"}}), refused(ErrorCode::InvalidParameter, "q"));
  EXPECT_EQ(rejection(finance(), {{"q", "PETR4:BVMF:X"}}),
            refused(ErrorCode::InvalidParameter, "q"));
  EXPECT_EQ(rejection(finance(), {{"q", "../../search?q=x"}}),
            refused(ErrorCode::InvalidParameter, "q"));
  EXPECT_EQ(rejection(finance(), {{"q", "PETR4:BVMF"}, {"window", "2D"}}),
            refused(ErrorCode::InvalidParameter, "window"));
  EXPECT_EQ(rejection(finance(), {{"q", "PETR4:BVMF"}, {"window", "1d"}}),
            refused(ErrorCode::InvalidParameter, "window"));
  EXPECT_EQ(rejection(finance(), {{"q", "PETR4:BVMF"}, {"hl", "pt-BRA"}}),
            refused(ErrorCode::InvalidParameter, "hl"));
  EXPECT_EQ(rejection(finance(), {{"q", "PETR4:BVMF"}, {"hl", "portuguese"}}),
            refused(ErrorCode::InvalidParameter, "hl"));
  for (const char* q : {"PETR4:BVMF", ".DJI:INDEXDJX", "BRK.B:NYSE", "BTC-USD", "EUR-BRL"}) {
    EXPECT_NO_THROW(finance().validate({{"q", q}})) << q;
  }
  for (const char* w : {"1D", "5D", "1M", "6M", "YTD", "1Y", "5Y", "MAX"}) {
    EXPECT_NO_THROW(finance().validate({{"q", "PETR4:BVMF"}, {"window", w}})) << w;
  }
}

TEST(FinanceUrl, QuotePageWithLanguageAndWindow) {
  auto url = [](const QueryParams& q) { return finance().build_request(finance().validate(q)).url; };
  EXPECT_EQ(url({{"q", "PETR4:BVMF"}, {"hl", "pt"}}),
            "https://www.google.com/finance/quote/PETR4:BVMF?hl=pt");
  EXPECT_EQ(url({{"q", "PETR4:BVMF"}}), "https://www.google.com/finance/quote/PETR4:BVMF?hl=en");
  // Issue 16: regional tags are the site's own (hl=pt-BR, hl=zh-TW), in its casing.
  EXPECT_EQ(url({{"q", "PETR4:BVMF"}, {"hl", "pt-br"}}),
            "https://www.google.com/finance/quote/PETR4:BVMF?hl=pt-BR");
  EXPECT_EQ(url({{"q", "2330:TPE"}, {"hl", "zh_tw"}}),
            "https://www.google.com/finance/quote/2330:TPE?hl=zh-TW");
  EXPECT_EQ(url({{"q", ".DJI:INDEXDJX"}, {"window", "5D"}, {"hl", "EN"}}),
            "https://www.google.com/finance/quote/.DJI:INDEXDJX?hl=en&window=5D");
  EXPECT_EQ(url({{"q", "BTC-USD"}, {"window", "MAX"}}),
            "https://www.google.com/finance/quote/BTC-USD?hl=en&window=MAX");
  EXPECT_EQ(finance().path(), "/scrape/search/finance");
  EXPECT_EQ(finance().route(), "search/finance");
}

TEST(FinanceShape, SummaryOfTheQuote) {
  json body = shaped(quote_page(), {{"q", "PETR4:BVMF"}});
  const json& s = body.at("summary");
  EXPECT_EQ(s["title"], "Petrobras");
  EXPECT_EQ(s["stock"], "PETR4");
  EXPECT_EQ(s["exchange"], "BVMF");
  EXPECT_EQ(s["price"], "R$ 47,37");
  EXPECT_EQ(s["extractedPrice"], 47.37);
  EXPECT_EQ(s["currency"], "BRL");
  EXPECT_EQ(s["previousClose"], 47.37);
  // The page was saved after the close with no move on the day: no direction to report.
  EXPECT_EQ(s["priceMovement"], json({{"value", 0.0}, {"percentage", 0.0}}));
  // "27 de abr., 20:48:10 GMT-3" on the page.
  EXPECT_EQ(s["date"], "2026-04-27T20:48:10-03:00");
}

TEST(FinanceShape, IntradayGraphByDefaultAndTheMonthForWindow1M) {
  json day = shaped(quote_page(), {{"q", "PETR4:BVMF"}}).at("graph");
  ASSERT_EQ(day.size(), 412u);
  EXPECT_EQ(day[0], json({{"price", 47.23}, {"currency", "BRL"},
                          {"date", "2026-04-27T10:04:00-03:00"}, {"volume", 233200}}));
  EXPECT_EQ(day[411]["price"], 47.39);
  EXPECT_EQ(day[411]["date"], "2026-04-27T16:55:00-03:00");

  json month = shaped(quote_page(), {{"q", "PETR4:BVMF"}, {"window", "1M"}}).at("graph");
  ASSERT_EQ(month.size(), 20u);
  EXPECT_EQ(month[0], json({{"price", 49.67}, {"currency", "BRL"},
                            {"date", "2026-03-30T16:56:00-03:00"}, {"volume", 51454300}}));
  EXPECT_EQ(month[19]["price"], 47.37);
  EXPECT_EQ(month[19]["date"], "2026-04-27T17:07:56-03:00");
  EXPECT_FALSE(month[19].contains("volume"));

  // The page holds no series of a year: the graph is absent rather than another window's.
  EXPECT_FALSE(shaped(quote_page(), {{"q", "PETR4:BVMF"}, {"window", "1Y"}}).contains("graph"));
  EXPECT_EQ(shaped(quote_page(), {{"q", "PETR4:BVMF"}, {"window", "MAX"}})["graph"].size(), 20u);
}

TEST(FinanceShape, KeyStatsAsThePageWritesThem) {
  json stats = shaped(quote_page(), {{"q", "PETR4:BVMF"}})["keyStats"]["stats"];
  ASSERT_EQ(stats.size(), 8u);
  EXPECT_EQ(stats[0], json({{"label", "Último fechamento"}, {"value", "R$ 47,37"}}));
  EXPECT_EQ(stats[1], json({{"label", "Variações de hoje"}, {"value", "R$ 47,17 - R$ 48,17"}}));
  EXPECT_EQ(stats[2], json({{"label", "Variações do ano"}, {"value", "R$ 26,94 - R$ 50,03"}}));
  EXPECT_EQ(stats[3], json({{"label", "Capitalização de mercado"}, {"value", "643,28 bi BRL"}}));
  EXPECT_EQ(stats[4], json({{"label", "Volume médio"}, {"value", "59,02 mi"}}));
  EXPECT_EQ(stats[5], json({{"label", "Índice P/L"}, {"value", "5,54"}}));
  EXPECT_EQ(stats[6], json({{"label", "Rend. de dividendos"}, {"value", "5,92%"}}));
  EXPECT_EQ(stats[7], json({{"label", "Bolsa principal"}, {"value", "BVMF"}}));
}

TEST(FinanceShape, AboutTheCompany) {
  json about = shaped(quote_page(), {{"q", "PETR4:BVMF"}}).at("aboutCompany");
  EXPECT_TRUE(about["description"].get<std::string>().starts_with(
      "Petróleo Brasileiro S.A. é uma empresa de capital aberto"));
  EXPECT_EQ(about["name"], "Petrobras");
  EXPECT_EQ(about["founded"], "1953-10-03");
  EXPECT_EQ(about["headquarters"], "Rio de Janeiro, Rio de Janeiro, Brasil");
  EXPECT_EQ(about["employees"], 43199);
  EXPECT_EQ(about["website"], "http://petrobras.com.br/");
  EXPECT_EQ(about["wikipedia"], "https://pt.wikipedia.org/wiki/Petrobras");
  ASSERT_EQ(about["info"].size(), 4u);
  EXPECT_EQ(about["info"][0], json({{"label", "Data da fundação"}, {"value", "3 de out. de 1953"}}));
  EXPECT_EQ(about["info"][1],
            json({{"label", "Sede"}, {"value", "Rio de Janeiro, Rio de Janeiro, Brasil"}}));
  EXPECT_EQ(about["info"][3], json({{"label", "Empregados"}, {"value", "43.199"}}));
}

TEST(FinanceShape, DescriptionFromTheMarkupWithoutTheCompanyRecord) {
  json out = quote_page();
  out["blobs"].erase("ds:1");  // the company record
  json about = shaped(out, {{"q", "PETR4:BVMF"}}).at("aboutCompany");
  EXPECT_TRUE(about["description"].get<std::string>().ends_with(
      "maiores petrolíferas de capital aberto do mundo."));  // without the "Wikipedia" link
  EXPECT_FALSE(about.contains("employees"));
  EXPECT_EQ(about["info"].size(), 4u);
}

TEST(FinanceShape, NewsAboutTheQuoteOnly) {
  json news = shaped(quote_page(), {{"q", "PETR4:BVMF"}}).at("news");
  // The page's market news (Dow Jones futures, ...) names other quotes and stays out.
  ASSERT_EQ(news.size(), 1u);
  EXPECT_EQ(news[0]["title"], "Petrobras Stock Outperforms Industry in the Past Year: Time to Buy?");
  EXPECT_EQ(news[0]["source"], "Yahoo Finance");
  EXPECT_EQ(news[0]["link"],
            "https://finance.yahoo.com/sectors/energy/articles/"
            "petrobras-stock-outperforms-industry-past-160400502.html");
  EXPECT_EQ(news[0]["date"], "2026-04-27T16:04:00Z");
}

TEST(FinanceShape, FinancialStatementsWithYearOverYearChange) {
  json fin = shaped(quote_page(), {{"q", "PETR4:BVMF"}}).at("financials");
  ASSERT_EQ(fin.size(), 3u);
  EXPECT_EQ(fin[0]["title"], "Income statement");
  EXPECT_EQ(fin[1]["title"], "Balance sheet");
  EXPECT_EQ(fin[2]["title"], "Cash flow");

  const json& q4 = fin[0]["results"][0];
  EXPECT_EQ(q4["period"], "Q4 2025");
  EXPECT_EQ(q4["periodType"], "quarterly");
  EXPECT_EQ(q4["date"], "2025-12-31");
  EXPECT_EQ(q4["currency"], "BRL");
  // The page: Receita 127,37 bi +5,03%; Gastos operacionais 24,29 bi -39,76%; Renda líquida
  // 15,56 bi +191,31%; Margem 12,22 +186,98%; LAJIDA 47,99 bi +53,72%; Carga tributária 2,00%.
  const json& t = q4["table"];
  EXPECT_EQ(t[0], json({{"title", "Revenue"}, {"value", 127371000000.0}, {"change", 5.03}}));
  EXPECT_EQ(t[1], json({{"title", "Operating expense"}, {"value", 24293000000.0},
                        {"change", -39.76}}));
  EXPECT_EQ(t[2], json({{"title", "Net income"}, {"value", 15563000000.0}, {"change", 191.31}}));
  EXPECT_EQ(t[3], json({{"title", "Net profit margin"}, {"value", 12.22}, {"change", 186.98}}));
  EXPECT_EQ(t[4]["title"], "EBITDA");  // no earnings per share this quarter ("—" on the page)
  EXPECT_EQ(t[4]["change"], 53.72);
  EXPECT_EQ(t[5], json({{"title", "Effective tax rate"}, {"value", 2.0}}));

  // Five quarters, then five years, as the page's columns.
  ASSERT_EQ(fin[0]["results"].size(), 10u);
  EXPECT_EQ(fin[0]["results"][4]["period"], "Q4 2024");
  EXPECT_EQ(fin[0]["results"][5]["period"], "2025");
  EXPECT_EQ(fin[0]["results"][5]["periodType"], "annual");
  EXPECT_EQ(fin[0]["results"][5]["table"][0]["value"], 497549000000.0);

  // Balance sheet: Total de ativos 1,22 tri +8,77%; Capital próprio 417,59 bi with no change.
  const json& bs = fin[1]["results"][0]["table"];
  EXPECT_EQ(bs[1], json({{"title", "Total assets"}, {"value", 1223389000000.0}, {"change", 8.77}}));
  EXPECT_EQ(bs[3], json({{"title", "Total equity"}, {"value", 417587000000.0}}));
  EXPECT_EQ(bs[5]["title"], "Price to book");
  EXPECT_EQ(bs[5]["value"], 1.4684);
  // Cash flow: Fluxo de caixa livre 21,80 bi +8,51%.
  const json& cf = fin[2]["results"][0]["table"];
  EXPECT_EQ(cf[5], json({{"title", "Free cash flow"}, {"value", 21799000000.0}, {"change", 8.51}}));
}

TEST(FinanceShape, DiscoverMoreListsWithTheirQuotes) {
  json lists = shaped(quote_page(), {{"q", "PETR4:BVMF"}}).at("discoverMore");
  ASSERT_EQ(lists.size(), 2u);
  EXPECT_EQ(lists[0]["title"], "Talvez você se interesse por");
  ASSERT_EQ(lists[0]["items"].size(), 18u);
  EXPECT_EQ(lists[0]["items"][0],
            json({{"stock", ".DJI:INDEXDJX"},
                  {"name", "Dow Jones Industrial Average"},
                  {"link", "https://www.google.com/finance/quote/.DJI:INDEXDJX"},
                  {"price", 49167.79},
                  {"priceMovement",
                   {{"value", -62.9219}, {"percentage", -0.1278}, {"movement", "down"}}}}));
  EXPECT_EQ(lists[0]["items"][2]["stock"], "TSLA:NASDAQ");
  EXPECT_EQ(lists[0]["items"][2]["currency"], "USD");
  EXPECT_EQ(lists[0]["items"][2]["priceMovement"]["movement"], "up");
  EXPECT_EQ(lists[1]["title"], "Os usuários também pesquisam");
  ASSERT_EQ(lists[1]["items"].size(), 18u);
  EXPECT_EQ(lists[1]["items"][0]["stock"], "VALE3:BVMF");
  EXPECT_EQ(lists[1]["items"][0]["name"], "Vale S.A.");
  EXPECT_EQ(lists[1]["items"][0]["price"], 85.5);
  EXPECT_EQ(lists[1]["items"][17]["stock"], "TAEE11:BVMF");
  EXPECT_EQ(lists[1]["items"][17]["name"], "Taesa S.A.");
}

TEST(FinanceShape, TheBlobsAloneGiveTheSameQuote) {
  json body = shaped(blobs_only(), {{"q", "PETR4:BVMF"}});
  const json& s = body.at("summary");
  EXPECT_EQ(s["title"], "Petrobras");
  EXPECT_EQ(s["price"], 47.37);
  EXPECT_EQ(s["extractedPrice"], 47.37);
  EXPECT_EQ(s["date"], "2026-04-27T20:48:10-03:00");
  EXPECT_EQ(body["graph"].size(), 412u);
  EXPECT_EQ(body["news"].size(), 1u);
  EXPECT_EQ(body["financials"].size(), 3u);
  EXPECT_EQ(body["aboutCompany"]["employees"], 43199);
  EXPECT_TRUE(body["aboutCompany"]["description"].get<std::string>().starts_with(
      "Petróleo Brasileiro S.A."));
  EXPECT_FALSE(body.contains("discoverMore"));
  // Key stats from the company record, the same figures with English labels.
  json stats = body["keyStats"]["stats"];
  ASSERT_EQ(stats.size(), 8u);
  EXPECT_EQ(stats[0], json({{"label", "Previous close"}, {"value", "47.37 BRL"}}));
  EXPECT_EQ(stats[1], json({{"label", "Day range"}, {"value", "47.17 BRL - 48.17 BRL"}}));
  EXPECT_EQ(stats[2], json({{"label", "Year range"}, {"value", "26.94 BRL - 50.03 BRL"}}));
  EXPECT_EQ(stats[3], json({{"label", "Market cap"}, {"value", "643.28B BRL"}}));
  EXPECT_EQ(stats[4], json({{"label", "Avg Volume"}, {"value", "59.02M"}}));
  EXPECT_EQ(stats[5], json({{"label", "P/E ratio"}, {"value", "5.54"}}));
  EXPECT_EQ(stats[6], json({{"label", "Dividend yield"}, {"value", "5.92%"}}));
  EXPECT_EQ(stats[7], json({{"label", "Primary exchange"}, {"value", "BVMF"}}));
}

// Issue 16: a quote page of the newer layout gave no summary.extractedPrice. Its quote record may
// leave the price out; the price series in the ds: blobs still hold it. The real blobs of the
// fixture, with the price taken out of every PETR4 quote record.
TEST(FinanceShape, WithoutThePriceInTheQuoteRecordThePriceSeriesGivesIt) {
  json output = blobs_only();
  int emptied = 0;
  std::function<void(json&)> empty_price = [&](json& node) {
    if (!node.is_array()) return;
    if (node.size() > 21 && node[1] == json({"PETR4", "BVMF"}) && node[5].is_array()) {
      node[5][0] = nullptr;
      ++emptied;
      return;
    }
    for (json& child : node) empty_price(child);
  };
  for (auto& [key, blob] : output["blobs"].items()) empty_price(blob);
  ASSERT_GT(emptied, 0);
  json body = shaped(output, {{"q", "PETR4:BVMF"}});
  // The newest point of all the quote's series is the close the page shows (the 1D chart's
  // last tick, 47.39, is older than the 1M series' last point).
  ASSERT_FALSE(body["graph"].empty());
  EXPECT_EQ(body["summary"]["extractedPrice"], 47.37);

  // Without the series either, the classic markup's price (data-last-price, else the headline
  // "R$ 47,37" read with the page's decimal comma).
  json classic = quote_page();
  for (auto& [key, blob] : classic["blobs"].items()) empty_price(blob);
  json no_series = classic;
  for (auto& [key, blob] : no_series["blobs"].items()) {
    std::function<void(json&)> drop_series = [&](json& node) {
      if (!node.is_array()) return;
      for (json& child : node) {
        if (child.is_array() && child.size() > 3 && child[0] == json({"PETR4", "BVMF"}) &&
            child[3].is_array()) {
          child[3] = json::array();
        } else {
          drop_series(child);
        }
      }
    };
    drop_series(blob);
  }
  json from_markup = shaped(no_series, {{"q", "PETR4:BVMF"}, {"hl", "pt-BR"}});
  EXPECT_FALSE(from_markup.contains("graph"));
  EXPECT_EQ(from_markup["summary"]["extractedPrice"], 47.37);
}

TEST(FinanceShape, UnknownTickerGivesSuggestions) {
  // Another class of the same company, not on the page: the quotes that start like it.
  json body = shaped(quote_page(), {{"q", "PETR3:BVMF"}});
  EXPECT_FALSE(body.contains("summary"));
  EXPECT_EQ(body.at("suggestions"),
            json::array({{{"stock", "PETR4:BVMF"}, {"name", "Petrobras"}}}));
  EXPECT_TRUE(finance().has_content(body));

  json none = shaped(quote_page(), {{"q", "ZZZZ:NOWHERE"}});
  EXPECT_EQ(none.at("suggestions"), json::array());
  EXPECT_TRUE(finance().has_content(none));
}

TEST(FinanceShape, PageWithoutBlobsIsExtractionFailed) {
  try {
    shaped({{"blobs", json::object()}, {"page", json::object()}}, {{"q", "PETR4:BVMF"}});
    FAIL() << "a page without data was shaped";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::ExtractionFailed);
  }
}

// Real beta-layout quote pages (google.com/finance/beta/quote/...), their `ds:8` blob as
// 2scraper/google-finance-scraper kept it from its captures of 2026-09-22 (data/finance/
// beta-quote-blobs-2026-09.json), shaped as finance.js hands the blobs on with no classic markup.
// The beta layout wraps each quote record in another record; a currency or crypto pair's record
// has no [symbol, exchange], so those pages had no summary and no extractedPrice.
json beta_page(const std::string& ticker) {
  const json page = recorded("google/data/finance/beta-quote-blobs-2026-09.json")["pages"][ticker];
  return {{"blobs", {{"ds:8", page["ds:8"]}}},
          {"page",
           {{"url", page["url"]},
            {"lang", "en"},
            {"price", ""},
            {"keyStats", json::array()},
            {"about", ""},
            {"aboutFacts", json::array()},
            {"discover", json::array()}}}};
}

TEST(FinanceShape, BetaLayoutPairsGiveTheirPrice) {
  const json btc = shaped(beta_page("BTC-USD"), {{"q", "BTC-USD"}}).at("summary");
  EXPECT_EQ(btc["title"], "Bitcoin (BTC / USD)");
  EXPECT_EQ(btc["stock"], "BTC-USD");
  EXPECT_FALSE(btc.contains("exchange"));
  EXPECT_EQ(btc["extractedPrice"], 85417.6357);
  EXPECT_EQ(btc["currency"], "USD");
  EXPECT_EQ(btc["previousClose"], 86576.9542);
  EXPECT_EQ(btc["priceMovement"]["movement"], "down");
  EXPECT_EQ(btc["date"], "2026-09-22T08:30:59Z");

  const json eur = shaped(beta_page("EUR-USD"), {{"q", "EUR-USD"}}).at("summary");
  EXPECT_EQ(eur["title"], "EUR / USD");
  EXPECT_EQ(eur["extractedPrice"], 1.1435);
  EXPECT_EQ(eur["currency"], "USD");
}

TEST(FinanceShape, BetaLayoutFuturesAndIndexesGiveTheirPrice) {
  const json gold = shaped(beta_page("GCW00:COMEX"), {{"q", "GCW00:COMEX"}}).at("summary");
  EXPECT_EQ(gold["title"], "Gold");
  EXPECT_EQ(gold["exchange"], "COMEX");
  EXPECT_EQ(gold["extractedPrice"], 4340.2002);
  EXPECT_EQ(gold["currency"], "USD");

  const json spx = shaped(beta_page(".INX:INDEXSP"), {{"q", ".INX:INDEXSP"}}).at("summary");
  EXPECT_EQ(spx["title"], "S&P 500");
  EXPECT_EQ(spx["extractedPrice"], 7764.7);
  EXPECT_EQ(spx["previousClose"], 7650.5);
}

TEST(FinanceShape, LocalTimes) {
  EXPECT_EQ(iso8601_at_offset(1777333690, -10800), "2026-04-27T20:48:10-03:00");
  EXPECT_EQ(iso8601_at_offset(1777305840, 0), "2026-04-27T16:04:00Z");
  EXPECT_EQ(iso8601_at_offset(0, 19800), "1970-01-01T05:30:00+05:30");
  EXPECT_EQ(iso8601_at_offset(951782400, 0), "2000-02-29T00:00:00Z");
}

}  // namespace
}  // namespace gleaner::extract::google
