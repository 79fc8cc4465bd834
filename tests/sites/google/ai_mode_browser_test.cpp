// GET /scrape/google/ai-mode end to end in real Chromium: the question asked with udm=50 is
// answered from a replay archive holding the one real AI Mode capture found (tests/sites/google/
// pages/ai-mode: the thread of a signed-in page of June 2026, five turns, copied from the page by
// its author without the page around it), serp.js reads the answer's subtree and the C++ shapes
// the first turn, the answer to the question asked. Google's block pages are the contract's
// (sites_contract_browser_tests: every kept block page, every endpoint).
#include <gtest/gtest.h>

#include "core/error.h"

#include "extract/sites/google/ai_mode.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::google {
namespace {

using gleaner::testing::TempReplayArchive;
using nlohmann::json;
using testing::requested;
using testing::run_in_chromium;

const std::string kQuestion =
    "rigorously justify and provide the absolute optimal solution as of today to ensure Google "
    "Chrome Version 150.0.7871.46 (Official Build) beta (64-bit) remembers and allows me to save "
    "to last saved location as it used to rather than always defaulting to downloads folder.";

const std::string kPageUrl =
    "https://www.google.com/search?q=rigorously+justify+and+provide+the+absolute+optimal+solution+"
    "as+of+today+to+ensure+Google+Chrome+Version+150.0.7871.46+%28Official+Build%29+beta+%2864-bit"
    "%29+remembers+and+allows+me+to+save+to+last+saved+location+as+it+used+to+rather+than+always+"
    "defaulting+to+downloads+folder.&udm=50";

std::string thread() {
  return gleaner::testing::site_page(
      "google", "ai-mode/lowestprime_aimode-thread-dom_chrome-download-location_en_2026-06.html");
}

TEST(AiModeInChromium, TheFirstTurnIsTheAnswerToTheQuestion) {
  TempReplayArchive archive;
  archive.file(kPageUrl, thread());
  auto replay = archive.load();
  auto result = run_in_chromium(ai_mode_endpoint(), replay, {{"q", kQuestion}});
  EXPECT_EQ(requested(*replay).front(), kPageUrl);

  // The first turn's answer, in the page's order: paragraphs (.n6owBd), headings, lists.
  const json& blocks = result.body["textBlocks"];
  ASSERT_EQ(blocks.size(), 16u);
  EXPECT_EQ(blocks[0]["type"], "paragraph");
  EXPECT_NE(blocks[0]["snippet"].get<std::string>().find(
                "confirmed software regression (bug) specific to Chromium version 150.0.7871.x"),
            std::string::npos);
  EXPECT_EQ(blocks[1]["type"], "paragraph");
  EXPECT_EQ(blocks[1]["snippet"].get<std::string>().rfind("As of today, June 28, 2026, the absolute", 0),
            0u);
  EXPECT_EQ(blocks[2], (json{{"type", "heading"}, {"snippet", "Rigorous Justification"}}));
  EXPECT_EQ(blocks[4]["type"], "list");
  ASSERT_EQ(blocks[4]["list"].size(), 3u);
  EXPECT_EQ(blocks[4]["list"][0]["snippet"].get<std::string>().rfind("The Mechanism: In previous", 0),
            0u);
  // "Option A": a numbered list whose items hold lists of their own.
  EXPECT_EQ(blocks[7], (json{{"type", "heading"},
                             {"snippet", "Option A: The Workflow Workaround (Recommended)"}}));
  const json& steps = blocks[9]["list"];
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0]["snippet"], "Set Default to Current Project:");
  ASSERT_EQ(steps[0]["list"].size(), 4u);
  EXPECT_EQ(steps[0]["list"][0]["snippet"], "Go to chrome://settings/downloads.");
  EXPECT_EQ(blocks[15]["type"], "paragraph");
  // Not the follow-ups' answers (the thread's four other turns): the second begins "You are
  // correct to challenge that specific citation".
  for (const json& b : blocks) {
    EXPECT_EQ(b.dump().find("You are correct to challenge"), std::string::npos) << b.dump();
  }

  // Its sources, as the right column lists them.
  const json& references = result.body["references"];
  ASSERT_EQ(references.size(), 7u);
  EXPECT_EQ(references[0]["index"], 0);
  EXPECT_EQ(references[0]["title"], "Chrome Beta for Desktop Update");
  EXPECT_EQ(references[0]["link"],
            "https://chromereleases.googleblog.com/2026/06/"
            "chrome-beta-for-desktop-update_02072900116.html");
  EXPECT_EQ(references[0]["source"], "blog.google");
  EXPECT_EQ(references[6]["title"], "Switch between stable, beta & dev software - Chromebook Help");
  EXPECT_EQ(references[6]["source"], "Google Help");
}

TEST(AiModeInChromium, AThreadWithoutItsAnswersBlocksIsNotAnAnswer) {
  TempReplayArchive archive;
  archive.add(gleaner::testing::rewritten_entry(
      kPageUrl, thread(),
      json::array({json::array({"n6owBd", "removed"}),
                   json::array({"role=\"heading\"", "role=\"x\""}),
                   json::array({"<ul ", "<div "}), json::array({"<ol ", "<div "})})));
  auto replay = archive.load();
  const Error e = testing::error_in_chromium(ai_mode_endpoint(), replay, {{"q", kQuestion}});
  EXPECT_EQ(e.code(), ErrorCode::ExtractionFailed) << e.what();
}

}  // namespace
}  // namespace gleaner::extract::google
