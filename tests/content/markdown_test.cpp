// to_markdown() on small trees, one construct (and its edge cases) per test.
#include "extract/content/markdown.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace gleaner::content {
namespace {

/// Markdown of a tree written as JSON text.
std::string md(std::string_view tree) {
  return to_markdown(nlohmann::json::parse(tree));
}

// ---- paragraphs and whitespace ----

TEST(MarkdownParagraphs, BlocksAreSeparatedByOneBlankLineAndTrimmed) {
  EXPECT_EQ(md(R"J(["body", "  ", ["p", "  First   paragraph\n spans lines. "], "\n\n",
                   ["div", ["p", "Second"]], ["p", "Third"], "  "])J"),
            "First paragraph spans lines.\n\nSecond\n\nThird");
}

TEST(MarkdownParagraphs, InlineContentBetweenBlocksBecomesItsOwnParagraph) {
  EXPECT_EQ(md(R"J(["div", "before", ["div", "inside"], "after"])J"), "before\n\ninside\n\nafter");
}

TEST(MarkdownParagraphs, WhitespaceCollapsesAcrossElementBoundaries) {
  EXPECT_EQ(md(R"J(["p", "one ", ["span", " two "], " ", ["span", "three"], "four"])J"),
            "one two threefour");
}

TEST(MarkdownParagraphs, NoBreakSpacesSpaceWordsAndEmptyParagraphsVanish) {
  EXPECT_EQ(md(R"J(["body", ["p", "a\u00a0\u00a0b"], ["p", "\u00a0"], ["p", "c"]])J"), "a b\n\nc");
}

TEST(MarkdownParagraphs, ControlCharactersAndIconFontGlyphsAreDropped) {
  EXPECT_EQ(md(R"J(["p", "Observatory\ue934 open\u0007 now"])J"), "Observatory open now");
}

// html2text's "lrm after b/i" cases: bidirectional marks order text on screen and are not seen;
// dropped, as a browser shows them ("Foo&lrm;bar" reads "Foobar").
TEST(MarkdownParagraphs, BidiMarksAreDropped) {
  EXPECT_EQ(md(R"J(["p", ["b", "b"], "\u200e"])J"), "**b**");
  EXPECT_EQ(md(R"J(["p", ["i", "Foo\u200ebar"], " \u200f\u202bsh\u202c\u2067x\u2069"])J"),
            "*Foobar* shx");
}

TEST(MarkdownParagraphs, SpanHoldingBlocksStillBreaksParagraphs) {
  EXPECT_EQ(md(R"J(["div", ["span", "a", ["p", "b"], "c"]])J"), "a\n\nb\n\nc");
}

TEST(MarkdownParagraphs, UnknownTagsAreTransparent) {
  EXPECT_EQ(md(R"J(["div", ["x-widget", "shown ", ["y-inner", "inside"]]])J"), "shown inside");
}

TEST(MarkdownParagraphs, SkippedTagsProduceNothingEvenWhenRecorded) {
  EXPECT_EQ(md(R"J(["body", ["script", "var x = 1;"], ["style", "p{}"], ["p", "kept"],
                   ["template", ["p", "no"]], ["select", ["option", "no"]]])J"),
            "kept");
}

// ---- CSS layout hints from snapshot.js ----

TEST(MarkdownLayout, InlineElementLaidOutAsBlockGetsItsOwnLine) {
  EXPECT_EQ(md(R"J(["nav", ["a", {"href": "https://x.test/", "display": "block"}, "Home"],
                   ["a", {"href": "https://x.test/about", "display": "block"}, "About"]])J"),
            "[Home](https://x.test/)\n\n[About](https://x.test/about)");
}

TEST(MarkdownLayout, InlineBlocksAreKeptApartByASpace) {
  EXPECT_EQ(md(R"J(["div", "All", ["span", {"display": "inline-block"}, "Shopping"],
                   ["button", {"display": "inline-block"}, "Images"], "."])J"),
            "All Shopping Images.");
}

// ---- headings ----

TEST(MarkdownHeadings, EveryLevelIsAnAtxHeading) {
  EXPECT_EQ(md(R"J(["body", ["h1", "One"], ["h2", "Two"], ["h3", "Three"], ["h4", "Four"],
                   ["h5", "Five"], ["h6", "Six"]])J"),
            "# One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six");
}

TEST(MarkdownHeadings, ContentIsFlattenedToOneLine) {
  EXPECT_EQ(md(R"J(["h2", " Title", ["br"], ["span", "with"], ["div", "parts"], ["em", "here"]])J"),
            "## Title with parts *here*");
}

TEST(MarkdownHeadings, EmptyHeadingIsDropped) {
  EXPECT_EQ(md(R"J(["body", ["h1", "  "], ["p", "text"]])J"), "text");
}

TEST(MarkdownHeadings, TrailingHashesAreNotReadAsAClosingSequence) {
  EXPECT_EQ(md(R"J(["h1", "Learn C#"])J"), "# Learn C#");
  EXPECT_EQ(md(R"J(["h1", "Issue #"])J"), "# Issue \\#");
}

// ---- emphasis ----

TEST(MarkdownEmphasis, StrongEmphasisAndStrikethrough) {
  EXPECT_EQ(md(R"J(["p", ["strong", "bold"], " ", ["b", "b"], " ", ["em", "it"], " ", ["i", "i"],
                   " ", ["del", "gone"], " ", ["s", "s"]])J"),
            "**bold** **b** *it* *i* ~~gone~~ ~~s~~");
}

TEST(MarkdownEmphasis, EdgeWhitespaceMovesOutsideTheDelimiters) {
  EXPECT_EQ(md(R"J(["p", "a", ["b", " bold "], "c"])J"), "a **bold** c");
}

TEST(MarkdownEmphasis, NestedSameEmphasisWritesOnePair) {
  EXPECT_EQ(md(R"J(["p", ["b", "x ", ["strong", "y"]], " ", ["em", ["i", "z"]]])J"), "**x y** *z*");
}

TEST(MarkdownEmphasis, DelimitersBetweenWordsAndPunctuationGetASpace) {
  // CommonMark would leave "**Note:**text" and "a*(b)*" unemphasized.
  EXPECT_EQ(md(R"J(["p", ["b", "Note:"], "text"])J"), "**Note:** text");
  EXPECT_EQ(md(R"J(["p", "a", ["em", "(b)"], ", c"])J"), "a *(b)*, c");
  EXPECT_EQ(md(R"J(["p", ["b", "Price:"], " $5 ", ["b", "x"], "y"])J"), "**Price:** $5 **x**y");
}

TEST(MarkdownEmphasis, StrongAroundEmphasis) {
  EXPECT_EQ(md(R"J(["p", ["strong", ["em", "both"]]])J"), "***both***");
}

TEST(MarkdownEmphasis, EmptyEmphasisIsDropped) {
  EXPECT_EQ(md(R"J(["p", "a", ["b", " "], "b", ["i"], "c"])J"), "a bc");
}

TEST(MarkdownEmphasis, EmphasisAroundBlocksKeepsTheBlocks) {
  EXPECT_EQ(md(R"J(["b", ["p", "one"], ["p", "two"]])J"), "one\n\ntwo");
}

TEST(MarkdownEmphasis, HardBreakInsideEmphasisStaysInside) {
  EXPECT_EQ(md(R"J(["p", ["b", "a", ["br"], ["br"], "b"]])J"), "**a\\\nb**");
}

// html2text's "emphasis preserved whitespace" (<em>em1</em><em>em2</em>): "*em1**em2*" would be one
// emphasis holding "em1**em2"; after a closing `*` the next one is written with underscores, and a
// letter right after its closing `_` (which would make it intraword) is kept apart.
TEST(MarkdownEmphasis, AdjacentEmphasisStaysTwo) {
  EXPECT_EQ(md(R"J(["p", ["em", "em1"], ["em", "em2"]])J"), "*em1*_em2_");
  EXPECT_EQ(md(R"J(["p", ["b", "one"], ["strong", "two"], "."])J"), "**one**__two__.");
  EXPECT_EQ(md(R"J(["p", ["i", "a"], ["i", "b"], "c"])J"), "*a*_b_ c");
  EXPECT_EQ(md(R"J(["p", ["i", "a"], " ", ["i", "b"]])J"), "*a* *b*");
}

// ---- inline code ----

TEST(MarkdownInlineCode, ContentIsNotEscaped) {
  EXPECT_EQ(md(R"J(["p", "Call ", ["code", "a_b*c[0]"], "."])J"), "Call `a_b*c[0]`.");
}

TEST(MarkdownInlineCode, BackticksInsideGetALongerFence) {
  EXPECT_EQ(md(R"J(["p", ["code", "x ``y`` z"]])J"), "```x ``y`` z```");
  EXPECT_EQ(md(R"J(["p", ["code", "`tick"]])J"), "`` `tick ``");
}

TEST(MarkdownInlineCode, WhitespaceCollapsesAndEdgesMoveOutside) {
  EXPECT_EQ(md(R"J(["p", "run", ["kbd", " Ctrl\n  C "], "now"])J"), "run `Ctrl C` now");
}

// ---- inline quotations ----

// html2text's "q tag": a browser draws quotation marks around <q> (generated content, absent from
// the text nodes); they are written as plain quotes.
TEST(MarkdownQuotations, QIsWrittenBetweenQuoteMarks) {
  EXPECT_EQ(md(R"J(["p", ["q", "If this is a test,"], " he said, ", ["q", "it passes"], "."])J"),
            "\"If this is a test,\" he said, \"it passes\".");
  EXPECT_EQ(md(R"J(["p", "a", ["q"], "b"])J"), "ab");
}

// ---- links ----

TEST(MarkdownLinks, LinkWithTitle) {
  EXPECT_EQ(md(R"J(["p", ["a", {"href": "https://x.test/a", "title": "The \"A\" page"}, "A"]])J"),
            "[A](https://x.test/a \"The \\\"A\\\" page\")");
}

TEST(MarkdownLinks, TitleEqualToTheTextIsLeftOut) {
  EXPECT_EQ(md(R"J(["p", ["a", {"href": "https://x.test/", "title": "Home"}, "Home"]])J"),
            "[Home](https://x.test/)");
}

// html2text's empty-link case, and turndown's rule: the link stays with no text.
TEST(MarkdownLinks, EmptyLinksKeepWhereTheyLeadAndTheirSpace) {
  EXPECT_EQ(md(R"J(["p", "a", ["a", {"href": "https://x.test/"}, " "], "b",
                   ["a", {"href": "https://x.test/c", "title": "C"}, ["span"]], "c"])J"),
            "a [](https://x.test/)b[](https://x.test/c \"C\")c");
  EXPECT_EQ(md(R"J(["div", ["a", {"href": "https://x.test/"}], ["a", {"href": "https://x.test/"}, ["p"]]])J"),
            "[](https://x.test/) [](https://x.test/)");
}

TEST(MarkdownLinks, ScriptLinksAndLinksWithoutHrefAreText) {
  EXPECT_EQ(md(R"J(["p", ["a", {"href": "javascript:void(0)"}, "Menu"], " ",
                   ["a", "anchor"]])J"),
            "Menu anchor");
}

TEST(MarkdownLinks, DestinationCharactersThatWouldEndItAreEscaped) {
  EXPECT_EQ(md(R"J(["p", ["a", {"href": "https://x.test/a_(b) c<d>"}, "odd"]])J"),
            "[odd](https://x.test/a_\\(b\\)%20c%3Cd%3E)");
}

TEST(MarkdownLinks, UrlShownAsItsOwnTextIsAnAutolink) {
  EXPECT_EQ(md(R"J(["p", "See ", ["a", {"href": "https://x.test/a_b"}, "https://x.test/a_b"]])J"),
            "See <https://x.test/a_b>");
}

TEST(MarkdownLinks, NestedLinkIsWrittenAsText) {
  EXPECT_EQ(md(R"J(["a", {"href": "https://x.test/out"}, "out ",
                   ["a", {"href": "https://x.test/in"}, "in"]])J"),
            "[out in](https://x.test/out)");
}

TEST(MarkdownLinks, LinkAroundBlocksIsFlattenedToOneLine) {

  EXPECT_EQ(md(R"J(["a", {"href": "https://x.test/card"}, ["div", ["h3", "Title"], ["p", "Desc"],
                   ["br"], "more"]])J"),
            "[Title Desc more](https://x.test/card)");
}

// html2text's and turndown's "br inside a": a <br> in a link's text is a hard break inside the
// link (CommonMark allows it); in a heading or a table cell the line stays one.
TEST(MarkdownLinks, BreakInsideALinkIsAHardBreak) {
  EXPECT_EQ(md(R"J(["p", ["a", {"href": "https://x.test/"}, "This is a", ["br"], "test"]])J"),
            "[This is a\\\ntest](https://x.test/)");
  EXPECT_EQ(md(R"J(["h2", ["a", {"href": "https://x.test/"}, "This is a", ["br"], "test"]])J"),
            "## [This is a test](https://x.test/)");
  EXPECT_EQ(md(R"J(["li", ["a", {"href": "https://x.test/"}, "one", ["br"], "two"]])J"),
            "- [one\\\n  two](https://x.test/)");
}

TEST(MarkdownLinks, TextInsideIsEscapedButMarkupKept) {
  EXPECT_EQ(md(R"J(["a", {"href": "https://x.test/"}, "[1] ", ["b", "bold"]])J"),
            "[\\[1\\] **bold**](https://x.test/)");
}

// ---- images ----

TEST(MarkdownImages, ImageWithAltAndTitle) {
  EXPECT_EQ(md(R"J(["p", ["img", {"src": "https://x.test/a.png", "alt": "A [logo]",
                   "title": "Logo"}]])J"),
            "![A \\[logo\\]](https://x.test/a.png \"Logo\")");
}

TEST(MarkdownImages, ImagesWithoutUsableSourceAreDropped) {
  EXPECT_EQ(md(R"J(["p", "x", ["img", {"alt": "none"}], ["img", {"src": "data:text/html,<b>x</b>",
                   "alt": "inline"}], ["img", {"src": "  "}], "y"])J"),
            "xy");
}

// The snapshot leaves data: images out unless the request keeps them (removeBase64Images: false);
// one in the tree is written.
TEST(MarkdownImages, ADataImageInTheTreeIsKept) {
  EXPECT_EQ(md(R"J(["p", ["img", {"src": "data:image/png;base64,AA", "alt": "dot"}]])J"),
            "![dot](data:image/png;base64,AA)");
}

TEST(MarkdownImages, ImageInsideLink) {
  EXPECT_EQ(md(R"J(["a", {"href": "https://x.test/"}, ["img", {"src": "https://x.test/l.png"}]])J"),
            "[![](https://x.test/l.png)](https://x.test/)");
}

// ---- line breaks ----

TEST(MarkdownBreaks, BrIsAHardBreak) {
  EXPECT_EQ(md(R"J(["p", "one ", ["br"], " two"])J"), "one\\\ntwo");
}

TEST(MarkdownBreaks, BreaksAtTheEdgesOfAParagraphAreDropped) {
  EXPECT_EQ(md(R"J(["p", ["br"], "text", ["br"], " "])J"), "text");
}

TEST(MarkdownBreaks, TwoBreaksInARowStartANewParagraph) {
  EXPECT_EQ(md(R"J(["p", "one", ["br"], ["br"], ["br"], "two"])J"), "one\n\ntwo");
}

// ---- escaping ----

TEST(MarkdownEscaping, CharactersMarkdownWouldReadAreEscaped) {
  EXPECT_EQ(md(R"J(["p", "*stars* _under_ `tick` [link] a\\b <div> &amp; back\\"])J"),
            "\\*stars\\* \\_under\\_ \\`tick\\` \\[link\\] a\\b \\<div> \\&amp; back\\\\");
}

TEST(MarkdownEscaping, HarmlessCharactersStayAsTheyAre) {
  EXPECT_EQ(md(R"J(["p", "5 * 3 = 15, snake_case_name, AT&T, a < b, 50% ~ 1 | 2"])J"),
            "5 * 3 = 15, snake_case_name, AT&T, a < b, 50% ~ 1 | 2");
}

TEST(MarkdownEscaping, LineStartsThatWouldBeBlocksAreEscaped) {
  EXPECT_EQ(md(R"J(["p", "# not a heading"])J"), "\\# not a heading");
  EXPECT_EQ(md(R"J(["p", "#hashtag"])J"), "#hashtag");
  EXPECT_EQ(md(R"J(["p", "- not a list"])J"), "\\- not a list");
  EXPECT_EQ(md(R"J(["p", "+ plus"])J"), "\\+ plus");
  EXPECT_EQ(md(R"J(["p", "> not a quote"])J"), "\\> not a quote");
  EXPECT_EQ(md(R"J(["p", "2024. A year"])J"), "2024\\. A year");
  EXPECT_EQ(md(R"J(["p", "1) first"])J"), "1\\) first");
  EXPECT_EQ(md(R"J(["p", "---"])J"), "\\---");
  EXPECT_EQ(md(R"J(["p", "title", ["br"], "==="])J"), "title\\\n\\===");
  EXPECT_EQ(md(R"J(["p", "-5 degrees, 3.5 stars"])J"), "-5 degrees, 3.5 stars");
}

// ---- lists ----

TEST(MarkdownLists, UnorderedList) {
  EXPECT_EQ(md(R"J(["ul", "\n ", ["li", " one "], "\n ", ["li", "two"], "\n"])J"), "- one\n- two");
}

TEST(MarkdownLists, OrderedListHonoursStart) {
  EXPECT_EQ(md(R"J(["ol", {"start": 9}, ["li", "nine"], ["li", "ten"], ["li", "eleven"]])J"),
            "9. nine\n10. ten\n11. eleven");
}

TEST(MarkdownLists, NestedListsAreIndentedUnderTheirItem) {
  EXPECT_EQ(md(R"J(["ul", ["li", "a", ["ul", ["li", "a1", ["ol", ["li", "x"], ["li", "y"]]]]],
                   ["li", "b"]])J"),
            "- a\n  - a1\n    1. x\n    2. y\n- b");
}

TEST(MarkdownLists, ContinuationLinesAlignWithTheMarkerWidth) {
  EXPECT_EQ(md(R"J(["ol", {"start": 10}, ["li", "ten", ["ul", ["li", "sub"]]]])J"),
            "10. ten\n    - sub");
}

TEST(MarkdownLists, ItemWithSeveralBlocksMakesTheListLoose) {
  EXPECT_EQ(md(R"J(["ul", ["li", ["p", "one"], ["p", "more"]], ["li", "two"]])J"),
            "- one\n\n  more\n\n- two");
}

TEST(MarkdownLists, NestedOrderedListNotStartingAtOneNeedsABlankLine) {
  EXPECT_EQ(md(R"J(["ul", ["li", "a", ["ol", {"start": 3}, ["li", "c"]]]])J"), "- a\n\n  3. c");
}

TEST(MarkdownLists, AdjacentListsAlternateMarkersSoTheyStayTwo) {
  EXPECT_EQ(md(R"J(["div", ["ul", ["li", "a"]], ["ul", ["li", "b"]], ["ol", ["li", "c"]],
                   ["ol", ["li", "d"]]])J"),
            "- a\n\n* b\n\n1. c\n\n1) d");
}

TEST(MarkdownLists, WrappersStrayNestedListsAndEmptyItems) {
  EXPECT_EQ(md(R"J(["ul", ["div", ["li", "a"]], ["ul", ["li", "a1"]], ["li", "  "],
                   ["li", ["span"]], ["li", "b"]])J"),
            "- a\n  - a1\n- b");
}

TEST(MarkdownLists, ItemOutsideAListIsABulletItem) {
  EXPECT_EQ(md(R"J(["div", ["li", "lonely"]])J"), "- lonely");
}

TEST(MarkdownLists, CodeBlockInsideAnItemIsIndented) {
  EXPECT_EQ(md(R"J(["ul", ["li", "run:", ["pre", "make\n\nmake test"]]])J"),
            "- run:\n\n  ```\n  make\n\n  make test\n  ```");
}

// ---- code blocks ----

TEST(MarkdownCodeBlocks, FencedWithTheLanguageAndContentKept) {
  EXPECT_EQ(md(R"J(["pre", {"lang": "python"}, "def f():\n    return  1\n\n"])J"),
            "```python\ndef f():\n    return  1\n```");
}

TEST(MarkdownCodeBlocks, LanguageFromAnInnerCodeElement) {
  EXPECT_EQ(md(R"J(["pre", ["code", {"lang": "c++"}, "int x;"]])J"), "```c++\nint x;\n```");
}

TEST(MarkdownCodeBlocks, FenceIsLongerThanAnyBacktickRunInside) {
  EXPECT_EQ(md(R"J(["pre", "a\n````\nb"])J"), "`````\na\n````\nb\n`````");
}

// turndown's "escaping ~~~" (<pre>~~~ foo</pre>): lines of tildes or backticks inside a <pre> are
// code, never a fence: a backtick fence is closed only by backticks, and it is longer than any run
// inside. turndown writes a <pre> without <code> as a paragraph ("\~~~ foo"), html2text as code;
// this converter follows html2text and CommonMark (<pre> is preformatted text: a code block).
TEST(MarkdownCodeBlocks, TildeAndBacktickLinesInsideAPreStayCode) {
  EXPECT_EQ(md(R"J(["pre", "~~~ foo"])J"), "```\n~~~ foo\n```");
  EXPECT_EQ(md(R"J(["pre", ["code", "~~~\nCode\n~~~\n"]])J"), "```\n~~~\nCode\n~~~\n```");
  EXPECT_EQ(md(R"J(["pre", "```\n~~~~\n```"])J"), "````\n```\n~~~~\n```\n````");
}

TEST(MarkdownCodeBlocks, BreaksAndBlockChildrenAreLines) {
  EXPECT_EQ(md(R"J(["pre", ["div", "line 1"], ["div", "\u00a0\u00a0line 2"], "x", ["br"], "y"])J"),
            "```\nline 1\n  line 2\nx\ny\n```");
}

TEST(MarkdownCodeBlocks, NothingButWhitespaceIsNoBlock) {
  EXPECT_EQ(md(R"J(["div", ["pre", "\n  \n"], "after"])J"), "after");
}

TEST(MarkdownCodeBlocks, LanguageIsSanitized) {
  EXPECT_EQ(md(R"J(["pre", {"lang": "js`; rm"}, "x"])J"), "```jsrm\nx\n```");
}

// ---- blockquotes ----

TEST(MarkdownQuotes, QuoteWithParagraphsAndNesting) {
  EXPECT_EQ(md(R"J(["blockquote", ["p", "one"], ["p", "two"], ["blockquote", "deep"]])J"),
            "> one\n>\n> two\n>\n> > deep");
}

TEST(MarkdownQuotes, QuoteHoldingAList) {
  EXPECT_EQ(md(R"J(["blockquote", ["ul", ["li", "a"], ["li", "b"]]])J"), "> - a\n> - b");
}

// ---- tables ----

TEST(MarkdownTables, HeaderRowSeparatorAndCells) {
  EXPECT_EQ(md(R"J(["table", ["thead", ["tr", ["th", "Name"], ["th", "Qty"]]],
                   ["tbody", ["tr", ["td", "apple"], ["td", "3"]], ["tr", ["td", "pear"],
                   ["td", "5"]]]])J"),
            "| Name | Qty |\n| --- | --- |\n| apple | 3 |\n| pear | 5 |");
}

TEST(MarkdownTables, CellsAreOneLineWithPipesEscaped) {
  EXPECT_EQ(md(R"J(["table", ["tr", ["th", "a"], ["th", "b"]],
                   ["tr", ["td", ["p", "x | y"], ["p", "z"]],
                          ["td", "one", ["br"], ["code", "a|b"]]]])J"),
            "| a | b |\n| --- | --- |\n| x \\| y z | one `a\\|b` |");
}

TEST(MarkdownTables, MissingCellsArePadded) {
  EXPECT_EQ(
      md(R"J(["table", ["tr", ["td", "a"], ["td", "b"], ["td", "c"]], ["tr", ["td", "d"]]])J"),
      "| a | b | c |\n| --- | --- | --- |\n| d |  |  |");
}

TEST(MarkdownTables, ColspanAndRowspanKeepColumnsAligned) {
  EXPECT_EQ(md(R"J(["table", ["tr", ["th", "k"], ["th", "v"], ["th", "w"]],
                   ["tr", ["td", {"rowspan": 2}, "r"], ["td", {"colspan": "2"}, "wide"]],
                   ["tr", ["td", "1"], ["td", "2"]]])J"),
            "| k | v | w |\n| --- | --- | --- |\n| r | wide |  |\n|  | 1 | 2 |");
}

TEST(MarkdownTables, EmptyRowsAreSkippedAndCaptionComesFirst) {
  EXPECT_EQ(md(R"J(["table", ["caption", "Prices"], ["tr", ["td", "a"], ["td", "b"]],
                   ["tr", ["td"], ["td", " "]], ["tr", ["td", "c"], ["td", "d"]]])J"),
            "Prices\n\n| a | b |\n| --- | --- |\n| c | d |");
}

TEST(MarkdownTables, LayoutTablesAreWrittenAsTheirBlocks) {
  // A table in a cell.
  EXPECT_EQ(md(R"J(["table", ["tr", ["td", ["table", ["tr", ["td", "in"], ["td", "ner"]],
                   ["tr", ["td", "x"], ["td", "y"]]]], ["td", "side"]], ["tr", ["td", "a"],
                   ["td", "b"]]])J"),
            "| in | ner |\n| --- | --- |\n| x | y |\n\nside\n\na\n\nb");
  // One column, one row, role=presentation.
  EXPECT_EQ(md(R"J(["table", ["tr", ["td", "only"]], ["tr", ["td", "column"]]])J"),
            "only\n\ncolumn");
  EXPECT_EQ(md(R"J(["table", ["tr", ["td", "one"], ["td", "row"]]])J"), "one\n\nrow");
  EXPECT_EQ(md(R"J(["table", {"role": "presentation"}, ["tr", ["td", "a"], ["td", "b"]],
                   ["tr", ["td", "c"], ["td", "d"]]])J"),
            "a\n\nb\n\nc\n\nd");
}

// ---- other blocks ----

TEST(MarkdownOtherBlocks, HorizontalRule) {
  EXPECT_EQ(md(R"J(["body", ["p", "a"], ["hr"], ["p", "b"]])J"), "a\n\n---\n\nb");
}

TEST(MarkdownOtherBlocks, DefinitionListTermsAreBold) {
  EXPECT_EQ(md(R"J(["dl", ["dt", "Term ", ["b", "bold"]], ["dd", "Meaning."], ["dt", "Other"],
                   ["dd", ["p", "One."], ["p", "Two."]]])J"),
            "**Term bold**\n\nMeaning.\n\n**Other**\n\nOne.\n\nTwo.");
}

TEST(MarkdownOtherBlocks, DetailsAndFigures) {
  EXPECT_EQ(md(R"J(["body", ["details", ["summary", "More"], ["p", "Body"]],
                   ["figure", ["img", {"src": "https://x.test/f.png", "alt": "F"}],
                   ["figcaption", "Caption"]]])J"),
            "More\n\nBody\n\n![F](https://x.test/f.png)\n\nCaption");
}

// ---- robustness ----

TEST(MarkdownRobustness, OddInputIsToleratedNotThrown) {
  EXPECT_EQ(md("null"), "");
  EXPECT_EQ(md("42"), "");
  EXPECT_EQ(md(R"J({"tag": "p"})J"), "");
  EXPECT_EQ(md("[]"), "");
  EXPECT_EQ(md(R"J("just text")J"), "just text");
  EXPECT_EQ(md(R"J(["p", 1, null, {"x": 1}, [], [2, "y"], ["b", "ok"]])J"), "**ok**");
  EXPECT_EQ(md(R"J(["a", {"href": 5}, "x"])J"), "x");
  EXPECT_EQ(md(R"J(["ol", {"start": "nine"}, ["li", "a"]])J"), "1. a");
  EXPECT_EQ(md(R"J(["td", {"colspan": -4}, "cell"])J"), "cell");
  EXPECT_EQ(md(R"J(["ol", {"start": 1e300}, ["li", "a"]])J"), "999999999. a");
  EXPECT_EQ(md(R"J(["ol", {"start": -3}, ["li", "a"]])J"), "0. a");
  EXPECT_EQ(md(R"J(["table", ["tr", ["td", {"colspan": 1e30}, "x"], ["td", "y"]],
                   ["tr", ["td", "z"], ["td", {"rowspan": "1e9"}, "w"]]])J")
                .substr(0, 12),
            "| x |  |  | ");
}

TEST(MarkdownRobustness, VeryDeepTreesDoNotOverflowTheStack) {
  auto nest = [](int levels) {
    nlohmann::json tree = "bottom";
    for (int i = 0; i < levels; ++i) {
      nlohmann::json parent = nlohmann::json::array({i % 2 == 0 ? "div" : "b"});
      parent.push_back(std::move(tree));
      tree = std::move(parent);
    }
    return tree;
  };
  EXPECT_EQ(to_markdown(nest(100000)), "");  // past the depth limit nothing is followed
  EXPECT_EQ(to_markdown(nest(300)), "bottom");
}

}  // namespace
}  // namespace gleaner::content
