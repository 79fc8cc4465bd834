// The converters on snapshot.js output recorded in Chromium (tools/capture_snapshot.cjs):
// - constructs.html, a page of our own with every construct and every way of hiding content;
// - a search results page and a quote page of the shared fixtures (big real pages).
#include "extract/content/emails.h"
#include "extract/content/links.h"
#include "extract/content/markdown.h"
#include "extract/content/metadata.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace gleaner::content {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using json = nlohmann::json;

std::string read_data(const std::string& name) {
  std::ifstream in(std::string(GLEANER_SOURCE_DIR) + "/tests/content/data/" + name,
                   std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

json snapshot(const std::string& name) {
  return json::parse(read_data(name));
}

/// Checks that hold for any markdown this converter writes.
void expect_well_formed(const std::string& markdown) {
  EXPECT_FALSE(markdown.empty());
  EXPECT_THAT(markdown, Not(HasSubstr("\n\n\n"))) << "more than one blank line";
  EXPECT_NE(markdown.front(), '\n');
  EXPECT_NE(markdown.back(), '\n');
  std::istringstream lines(markdown);
  std::string line;
  while (std::getline(lines, line)) {
    EXPECT_TRUE(line.empty() || line.back() != ' ') << "trailing space: " << line;
  }
}

TEST(RecordedConstructs, MarkdownIsExactlyTheReviewedOne) {
  json page = snapshot("constructs.snapshot.json");
  std::string expected = read_data("constructs.md");
  while (!expected.empty() && expected.back() == '\n') expected.pop_back();
  std::string markdown = to_markdown(page["tree"]);
  EXPECT_EQ(markdown, expected);
  expect_well_formed(markdown);
}

TEST(RecordedConstructs, HiddenContentNeverReachesMarkdownOrText) {
  json page = snapshot("constructs.snapshot.json");
  std::string markdown = to_markdown(page["tree"]);
  std::string text = page["text"];
  for (const char* hidden :
       {"Hidden by display none", "Hidden by the hidden attribute", "Invisible text",
        "Template content", "Noscript content", "Not shown while closed", "Unslotted light DOM",
        "document.write", ".ghost", "Pixel"}) {
    EXPECT_THAT(markdown, Not(HasSubstr(hidden)));
    EXPECT_THAT(text, Not(HasSubstr(hidden)));
  }
  // visibility:visible inside visibility:hidden, the page behind a modal, shadow DOM and slots.
  EXPECT_THAT(markdown, HasSubstr("but this is seen"));
  EXPECT_THAT(markdown, HasSubstr("Behind a modal but on screen."));
  EXPECT_THAT(markdown, HasSubstr("### Slotted title\n\nShadow paragraph"));
}

TEST(RecordedConstructs, LinksResolveAgainstTheBaseElement) {
  json page = snapshot("constructs.snapshot.json");
  EXPECT_EQ(page["baseUrl"], "https://example.org/docs/");
  EXPECT_THAT(extract_links(page["links"]),
              ElementsAre("https://example.org/", "https://example.org/docs/about.html",
                          "https://example.org/docs/guide.html", "https://example.com/a_(b)"));
}

TEST(RecordedConstructs, EmailsFromTextAndMailtoWithoutAssetNames) {
  json page = snapshot("constructs.snapshot.json");
  EXPECT_THAT(extract_emails(page["text"].get<std::string>(), page["links"]),
              ElementsAre("sales@example.org", "Team@example.org"));
}

TEST(RecordedConstructs, MetadataOfTheHead) {
  json page = snapshot("constructs.snapshot.json");
  json expected = {
      {"title", "Gleaner constructs page"},
      {"description", "Every construct the markdown converter handles, on one page."},
      {"language", "en-GB"},
      {"canonicalUrl", "https://example.org/guide/constructs"},
      {"meta",
       {{"description", "Every construct the markdown converter handles, on one page."},
        {"robots", "index, follow"}}},
      {"openGraph",
       {{"og:title", "Constructs"},
        {"og:image", {"https://example.org/a.png", "https://example.org/b.png"}}}},
      {"twitter", {{"twitter:card", "summary"}}},
      {"jsonLd",
       {{{"@context", "https://schema.org"}, {"@type", "Article"}, {"headline", "Constructs"}},
        {{"@type", "Organization"}, {"name", "Gleaner"}}}}};
  EXPECT_EQ(page_metadata(page["meta"]), expected);
}

TEST(RecordedSearchPage, MarkdownHoldsTheResultsAsLinksUnderTheirHeadings) {
  json page = snapshot("serp_top-hotels-london.snapshot.json");
  std::string markdown = to_markdown(page["tree"]);
  expect_well_formed(markdown);
  EXPECT_THAT(markdown, HasSubstr("\n\n# Search Results\n\n"));
  EXPECT_THAT(markdown, HasSubstr("\n\n### Guided Search Filters\n\n"));
  EXPECT_THAT(markdown, HasSubstr("[The Top Hotels in London: 2022 Readers' Choice Awards"));
  EXPECT_THAT(
      markdown,
      HasSubstr("](https://www.cntraveler.com/gallery/readers-choice-awards-london-hotels)"));
  EXPECT_THAT(markdown, HasSubstr("About 230,000,000 results (0.68 seconds)"));
  // The consent dialog's list, and the page it covers (aria-hidden behind the modal).
  EXPECT_THAT(markdown, HasSubstr("- Deliver and maintain Google services\n- Track outages"));
  EXPECT_THAT(markdown, HasSubstr("1\\. Park Grand Paddington Court."));
  EXPECT_THAT(markdown, Not(HasSubstr("<script")));
  EXPECT_THAT(markdown, Not(HasSubstr("function(")));
}

TEST(RecordedSearchPage, LinksAreUniqueAbsoluteAndInPageOrder) {
  json page = snapshot("serp_top-hotels-london.snapshot.json");
  std::vector<std::string> links = extract_links(page["links"]);
  EXPECT_GT(links.size(), 50U);
  EXPECT_EQ(std::set<std::string>(links.begin(), links.end()).size(), links.size());
  for (const std::string& link : links) {
    EXPECT_TRUE(link.rfind("https://", 0) == 0 || link.rfind("http://", 0) == 0) << link;
    EXPECT_EQ(link.find('#'), std::string::npos) << link;
  }
  auto position = [&](const std::string& url) {
    return std::find(links.begin(), links.end(), url) - links.begin();
  };
  auto cntraveler =
      position("https://www.cntraveler.com/gallery/readers-choice-awards-london-hotels");
  auto tripadvisor =
      position("https://www.tripadvisor.com/Hotels-g186338-London_England-Hotels.html");
  EXPECT_LT(cntraveler, tripadvisor);
  EXPECT_LT(tripadvisor, static_cast<long>(links.size()));
  EXPECT_EQ(page_metadata(page["meta"])["title"], "top hotels london - Google Search");
}

TEST(RecordedQuotePage, MarkdownMetadataAndLinks) {
  json page = snapshot("finance_PETR4.snapshot.json");
  std::string markdown = to_markdown(page["tree"]);
  expect_well_formed(markdown);
  EXPECT_THAT(markdown, HasSubstr("\n\nR$ 47,37\n\n"));
  EXPECT_THAT(markdown,
              HasSubstr("[Dow Jones 49.167,79 -0,13% -62,92](https://www.google.com/finance/quote/"
                        ".DJI:INDEXDJX)"));
  json metadata = page_metadata(page["meta"]);
  EXPECT_EQ(metadata["title"],
            "Preços e notícias sobre as ações Petrobras (PETR4): Google Finanças");
  EXPECT_EQ(metadata["language"], "pt-BR");
  EXPECT_EQ(metadata["canonicalUrl"], "https://www.google.com/finance/quote/PETR4:BVMF");
  EXPECT_EQ(metadata["openGraph"]["og:image:width"], "770");
  EXPECT_EQ(metadata["twitter"]["twitter:site"], "@google");
  std::vector<std::string> links = extract_links(page["links"]);
  EXPECT_THAT(links, ::testing::Contains("https://www.google.com/finance/quote/VALE3:BVMF"));
  EXPECT_THAT(extract_emails(page["text"].get<std::string>(), page["links"]), ::testing::IsEmpty());
}

}  // namespace
}  // namespace gleaner::content
