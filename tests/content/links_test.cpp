// extract_links(): what `extractedLinks` keeps of the snapshot's resolved hrefs.
#include "extract/content/links.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace gleaner::content {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using json = nlohmann::json;

TEST(ExtractLinks, KeepsDocumentOrderAndFirstOccurrence) {
  EXPECT_THAT(extract_links(json{"https://b.test/", "https://a.test/x", "https://b.test/",
                                 "https://c.test/", "https://a.test/x"}),
              ElementsAre("https://b.test/", "https://a.test/x", "https://c.test/"));
}

TEST(ExtractLinks, DropsScriptMailPhoneDataAndOtherNonPageSchemes) {
  EXPECT_THAT(
      extract_links(json{"javascript:void(0)", "JavaScript:alert(1)", "mailto:a@b.test", "tel:+123",
                         "sms:+123", "data:text/html,hi", "blob:https://a.test/1", "about:blank",
                         "file:///etc/passwd", "vbscript:x", "https://kept.test/"}),
      ElementsAre("https://kept.test/"));
}

TEST(ExtractLinks, KeepsOtherAbsoluteSchemes) {
  EXPECT_THAT(extract_links(json{"ftp://files.test/a", "http://plain.test/", "whatsapp://send"}),
              ElementsAre("ftp://files.test/a", "http://plain.test/", "whatsapp://send"));
}

TEST(ExtractLinks, FragmentsAreRemovedAndThenDeduplicated) {
  EXPECT_THAT(extract_links(json{"https://a.test/page#top", "https://a.test/page",
                                 "https://a.test/page#", "https://a.test/other#x"}),
              ElementsAre("https://a.test/page", "https://a.test/other"));
}

TEST(ExtractLinks, HashRouterFragmentsNameDifferentViews) {
  EXPECT_THAT(
      extract_links(json{"https://app.test/#/inbox", "https://app.test/#!/settings",
                         "https://app.test/#/inbox", "https://app.test/#section"}),
      ElementsAre("https://app.test/#/inbox", "https://app.test/#!/settings", "https://app.test/"));
}

TEST(ExtractLinks, EmptyRelativeAndNonStringEntriesAreDropped) {
  EXPECT_THAT(extract_links(json{"", "   ", "relative/path", "/rooted", 42, nullptr, json::object(),
                                 " https://trimmed.test/ ", "1http://bad.test/"}),
              ElementsAre("https://trimmed.test/"));
}

TEST(ExtractLinks, AnythingButAnArrayGivesNoLinks) {
  EXPECT_THAT(extract_links(json()), IsEmpty());
  EXPECT_THAT(extract_links(json("https://a.test/")), IsEmpty());
  EXPECT_THAT(extract_links(json::object()), IsEmpty());
}

}  // namespace
}  // namespace gleaner::content
