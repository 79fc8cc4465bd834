// The jsRendering: false road's pieces without a network: the charset decision and decoding,
// snapshot.js's output made from fetched HTML, the main-content filter, and text from a tree.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "extract/content/markdown.h"
#include "extract/content/tree_text.h"
#include "extract/plain/charset.h"
#include "extract/plain/main_content.h"
#include "extract/plain/snapshot.h"
#include "tests/content/main_content_pages.h"

namespace gleaner::plain {
namespace {

using nlohmann::json;

TEST(Charset, HeaderThenMetaThenBytes) {
  EXPECT_EQ(sniff_charset("<p>x</p>", "text/html; charset=ISO-8859-1"), "windows-1252");
  EXPECT_EQ(sniff_charset("<meta charset=\"shift_jis\"><p>x</p>", "text/html"), "shift_jis");
  EXPECT_EQ(
      sniff_charset("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=koi8-r\">", ""),
      "koi8-r");
  EXPECT_EQ(sniff_charset("caf\xc3\xa9", ""), "utf-8");
  EXPECT_EQ(sniff_charset("caf\xe9", ""), "windows-1252");
  EXPECT_EQ(sniff_charset("\xEF\xBB\xBFx", "text/html; charset=latin1"), "utf-8") << "a BOM wins";
}

TEST(Charset, DecodesAndReplacesBadBytes) {
  EXPECT_EQ(to_utf8("caf\xe9 \x80", "windows-1252"), "caf\xc3\xa9 \xe2\x82\xac");
  EXPECT_EQ(to_utf8("\xEF\xBB\xBFok", "utf-8"), "ok");
  EXPECT_EQ(to_utf8("a\xff"
                    "b",
                    "utf-8"),
            "a\xef\xbf\xbd"
            "b");
}

const char* kPage = R"html(<!doctype html><html lang="de"><head>
<title> A   page </title><base href="https://example.com/dir/">
<meta name="description" content="Desc"><link rel="Canonical" href="/canon">
<script type="application/ld+json">{"@type":"Thing"}</script></head><body>
<nav class="menu"><a href="/">Home</a> <a href="/about">About</a> <a href="/contact">Contact</a></nav>
<article class="post"><h1>Headline</h1>
<p>First paragraph of the story, long enough to count, with commas, and more, words here.</p>
<p>Second paragraph of the story, also long enough to count as text, with a <a href="rel">link</a>.</p>
<div class="share-buttons"><a href="https://s.example/share">Share</a></div>
<img src="data:image/png;base64,AAAA" alt="inline"><img src="pic.png" alt="pic">
</article>
<p hidden>hidden text</p><p style="display: none">gone</p>
<footer>Footer text © 2024</footer>
<table><tr><td>a</td><td>b</td></tr></table>
</body></html>)html";

json snap(const TreeFilter& filter = {}) {
  static const html::Document doc = html::Document::parse(kPage);
  content::SnapshotParts parts;
  parts.html = parts.tree = parts.links = parts.meta = true;
  return snapshot_of(doc, kPage, "https://example.com/dir/page", parts, filter);
}

TEST(PlainSnapshot, PartsInSnapshotJsShape) {
  json s = snap();
  EXPECT_EQ(s["baseUrl"], "https://example.com/dir/");
  EXPECT_EQ(s["html"], kPage);
  EXPECT_EQ(s["meta"]["title"], "A page");
  EXPECT_EQ(s["meta"]["lang"], "de");
  EXPECT_EQ(s["meta"]["canonical"], "https://example.com/canon");
  EXPECT_EQ(s["meta"]["jsonLd"], json({"{\"@type\":\"Thing\"}"}));
  EXPECT_EQ(s["links"], json({"https://example.com/", "https://example.com/about",
                              "https://example.com/contact", "https://example.com/dir/rel",
                              "https://s.example/share"}));
  const std::string markdown = content::to_markdown(s["tree"]);
  EXPECT_NE(markdown.find("# Headline"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("[link](https://example.com/dir/rel)"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("![pic](https://example.com/dir/pic.png)"), std::string::npos)
      << markdown;
  EXPECT_EQ(markdown.find("data:"), std::string::npos) << markdown;
  EXPECT_EQ(markdown.find("hidden text"), std::string::npos) << markdown;
  EXPECT_EQ(markdown.find("gone"), std::string::npos) << markdown;
}

TEST(PlainSnapshot, KeepsDataImagesWhenAsked) {
  TreeFilter keep;
  keep.keep_data_images = true;
  EXPECT_NE(content::to_markdown(snap(keep)["tree"]).find("](data:image/png;base64,AAAA)"),
            std::string::npos);
}

/// The markdown of `page` on the jsRendering: false road.
std::string plain_markdown(const std::string& page) {
  const html::Document doc = html::Document::parse(page);
  content::SnapshotParts parts;
  parts.tree = true;
  return content::to_markdown(
      snapshot_of(doc, page, "https://example.com/dir/page", parts, {})["tree"]);
}

// As snapshot.js in the browser (html2text's "empty img src"): an empty src is no image, not the
// page's own URL.
TEST(PlainSnapshot, AnEmptyImageSrcIsNoImage) {
  EXPECT_EQ(plain_markdown(R"(<p><img alt src width="1234"><img src=" " alt="blank">text</p>)"),
            "text");
}

// As snapshot.js in the browser (turndown's "blank block elements"): an empty div after text ends
// that text's line.
TEST(PlainSnapshot, AnEmptyDivAfterTextEndsItsLine) {
  EXPECT_EQ(
      plain_markdown(R"(<div>Text before <div></div> text after</div><div><div></div>alone</div>)"),
      "Text before\n\ntext after\n\nalone");
}

TEST(PlainSnapshot, TextLaysBlocksOnLines) {
  const std::string text = content::tree_text(snap()["tree"]);
  EXPECT_NE(text.find("Headline\n\nFirst paragraph"), std::string::npos) << text;
  EXPECT_NE(text.find("a\tb"), std::string::npos) << text;
}

TEST(MainContent, KeepsTheArticleWithoutNavigationFooterOrShareButtons) {
  static const html::Document doc = html::Document::parse(kPage);
  const TreeFilter filter = content_filter(doc, {}, {}, /*main=*/true);
  content::SnapshotParts parts;
  parts.tree = true;
  const std::string text =
      content::tree_text(snapshot_of(doc, kPage, "https://example.com/", parts, filter)["tree"]);
  EXPECT_NE(text.find("Headline"), std::string::npos) << text;
  EXPECT_NE(text.find("Second paragraph"), std::string::npos) << text;
  for (const char* gone : {"About", "Footer text", "Share"}) {
    EXPECT_EQ(text.find(gone), std::string::npos) << gone << " in:\n" << text;
  }
}

TEST(MainContent, IncludeAndExcludeSelectors) {
  static const html::Document doc = html::Document::parse(kPage);
  content::SnapshotParts parts;
  parts.tree = true;
  auto text_of = [&](const TreeFilter& f) {
    return content::tree_text(snapshot_of(doc, kPage, "https://example.com/", parts, f)["tree"]);
  };
  EXPECT_EQ(text_of(content_filter(doc, {"nav", "footer"}, {}, false)),
            "Home About Contact\nFooter text © 2024");
  EXPECT_EQ(text_of(content_filter(doc, {"article"}, {"p", ".share-buttons"}, false)), "Headline");
  EXPECT_EQ(text_of(content_filter(doc, {".nothing"}, {}, false)), "");
}

std::string main_text(const std::string& page) {
  const html::Document doc = html::Document::parse(page);
  content::SnapshotParts parts;
  parts.tree = true;
  return content::tree_text(snapshot_of(doc, page, "https://example.com/", parts,
                                        content_filter(doc, {}, {}, /*main=*/true))["tree"]);
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// Each page of tests/content/main_content_pages.h: what it keeps and leaves out (the browser
// road is held to the same in tests/web/roads_test.cpp).
TEST(MainContent, PagesKeepTheirArticleAndLeaveTheRest) {
  for (const auto* page : testing::kMainContentPages) {
    const std::string text = main_text(page->html);
    for (const char* kept : page->kept)
      EXPECT_NE(text.find(kept), std::string::npos)
          << page->path << ": " << kept << " missing in:\n"
          << text;
    for (const char* gone : page->gone)
      EXPECT_EQ(text.find(gone), std::string::npos) << page->path << ": " << gone << " kept in:\n"
                                                    << text;
  }
}

// The controls: without the names or the stated body the other block stays, so the pages test the
// rule they are built for.
TEST(MainContent, CommentsWinWhenNotNamedSo) {
  std::string page =
      replaced(testing::kCommentsOutweighTheArticle.html, "id=\"comments\"", "id=\"more\"");
  page = replaced(page, "comment-body", "note");
  EXPECT_NE(main_text(page).find("nobody, not the council"), std::string::npos) << main_text(page);
}

TEST(MainContent, TeasersStayWithoutTheStatedBody) {
  const std::string page = testing::kArticleBodyStated.html;
  const std::size_t from = page.find("<script"), to = page.find("</script>") + 9;
  const std::string text = main_text(page.substr(0, from) + page.substr(to));
  EXPECT_NE(text.find("the chess club"), std::string::npos) << text;
}

// A stated body that is not on the page (another article's) leaves the scores to decide.
TEST(MainContent, AStatedBodyNotOnThePageChangesNothing) {
  const std::string stated = testing::kArticleBodyStated.html;
  const std::string script =
      stated.substr(stated.find("<script"), stated.find("</script>") + 9 - stated.find("<script"));
  const std::string page =
      replaced(testing::kCommentsOutweighTheArticle.html, "</title>", "</title>" + script);
  ASSERT_NE(page.find("forty apple trees"), std::string::npos);
  EXPECT_EQ(main_text(page), main_text(testing::kCommentsOutweighTheArticle.html));
}

// The heading goes for repeating the title: under another title it stays.
TEST(MainContent, AHeadingStaysWhenTheTitleSaysOtherwise) {
  const std::string page = replaced(testing::kHeadingRepeatsTheTitle.html,
                                    "<title>The harbour reopens after three weeks | Coast News",
                                    "<title>Coast News: the week in pictures");
  EXPECT_NE(main_text(page).find("The Harbour Reopens After Three Weeks"), std::string::npos)
      << main_text(page);
}

// A headline paragraph is left out for being one link: as plain text it stays.
TEST(MainContent, AHeadlineStaysWhenNotALink) {
  const std::string page = replaced(
      testing::kLinkedHeadlinesBetweenParagraphs.html,
      "<a "
      "href=\"https://www.foxnews.com/entertainment/sean-spicer-eliminated-from-dancing-with-the-"
      "stars\" target=\"_blank\">SEAN SPICER ELIMINATED FROM 'DANCING WITH THE STARS'</a>",
      "SEAN SPICER ELIMINATED FROM 'DANCING WITH THE STARS'");
  EXPECT_NE(main_text(page).find("SEAN SPICER ELIMINATED"), std::string::npos) << main_text(page);
}

// The sharing row and the date line go by their names: renamed, they stay.
TEST(MainContent, ShareRowAndDateLineStayWhenNotNamedSo) {
  std::string page = testing::kShareRowDateAndLinkedHeadline.html;
  for (const auto& [from, to] : {std::pair{"article__share", "article__row"},
                                 {"article__social-wrapper_upper", "article__wrapper_upper"},
                                 {"social-container", "buttons-container"},
                                 {"article__date", "article__line"},
                                 {"date date_article-header", "line"}})
    page = replaced(page, from, to);
  const std::string text = main_text(page);
  EXPECT_NE(text.find("Follow RT on"), std::string::npos) << text;
  EXPECT_NE(text.find("20 Nov, 2019"), std::string::npos) << text;
}

// The hover card goes for being a block of links: as plain text it stays.
TEST(MainContent, AHoverCardStaysWhenNotLinks) {
  std::string page = testing::kHoverCardInASentence.html;
  const std::size_t from = page.find("<a class=\"people-articles\""),
                    to = page.find("MORE<span></span></a>");
  ASSERT_NE(from, std::string::npos);
  page = page.substr(0, from) +
         replaced(replaced(page.substr(from, to - from), "<a ", "<span "), "</a>", "</span>") +
         page.substr(to);
  EXPECT_NE(main_text(page).find("Hillicon Valley"), std::string::npos) << main_text(page);
}

// A <time> on a line of its own goes whatever its wrapper's name; inside a sentence it stays.
TEST(MainContent, ADateStaysInsideASentence) {
  const std::string& page = testing::kDateLineUnderTheHeading.html;
  const std::string renamed = replaced(page, "class=\"timestamp\"", "class=\"line\"");
  EXPECT_EQ(main_text(renamed).find("10:01 pm PST"), std::string::npos) << main_text(renamed);
  const std::size_t from = page.find("<span class=\"timestamp\">"),
                    to = page.find("</span>", from) + 7;
  const std::string line = page.substr(from, to - from);
  const std::string inside =
      replaced(page.substr(0, from) + page.substr(to), "(all times local):</p>",
               "(all times local), " + line + "</p>");
  EXPECT_NE(main_text(inside).find("10:01 pm PST"), std::string::npos) << main_text(inside);
}

// The tweet stays for being a quotation: the same wrapper around a plain block goes.
TEST(MainContent, ATweetGoesWhenNotAQuotation) {
  const std::string page =
      replaced(replaced(testing::kTweetInASocialWrapper.html, "<blockquote class=", "<div class="),
               "</blockquote>", "</div>");
  EXPECT_EQ(main_text(page).find("half a million dollars"), std::string::npos) << main_text(page);
}

// The newsletter box, the "Sharing is caring!" lines, the author's box and the reporters' credit
// go by their names: renamed, they stay.
TEST(MainContent, PromotionsShareTextAuthorBoxAndCreditStayWhenNotNamedSo) {
  std::string text = main_text(
      replaced(replaced(testing::kNewsletterBoxAndTimeInTheBody.html, "newsletter", "box"),
               "signup", "box"));
  EXPECT_NE(text.find("Breaking News Emails"), std::string::npos) << text;
  text = main_text(replaced(testing::kShareTextAndAuthorBox.html, "dpsp-share-text", "dpsp-text"));
  EXPECT_NE(text.find("Sharing is caring!"), std::string::npos) << text;
  // (the box, its inner block "author-content" and its link rel="author" all say so)
  text = main_text(replaced(testing::kShareTextAndAuthorBox.html, "author", "person"));
  EXPECT_NE(text.find("Southeastern Connecticut native"), std::string::npos) << text;
  text = main_text(replaced(replaced(testing::kReportersCredit.html, "Attribution", "Note"),
                            "attribution", "note"));
  EXPECT_NE(text.find("Reporting by Rodrigo Campos"), std::string::npos) << text;
}

}  // namespace
}  // namespace gleaner::plain
