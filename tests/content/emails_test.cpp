// extract_emails(): addresses from visible text and mailto: links, without false positives.
#include "extract/content/emails.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace gleaner::content {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using json = nlohmann::json;

std::vector<std::string> from_text(std::string_view text) {
  return extract_emails(text, json());
}

TEST(ExtractEmails, FindsAddressesInRunningText) {
  EXPECT_THAT(from_text("Write to info@example.com or to first.last+tag@mail.example.co.uk today."),
              ElementsAre("info@example.com", "first.last+tag@mail.example.co.uk"));
}

TEST(ExtractEmails, SentencePunctuationAndBracketsAreNotPartOfTheAddress) {
  EXPECT_THAT(
      from_text("(sales@example.org), <ops@example.org>; \"hr@example.org\". "
                "End: last@example.org."),
      ElementsAre("sales@example.org", "ops@example.org", "hr@example.org", "last@example.org"));
}

TEST(ExtractEmails, DomainIsLowerCasedAndDuplicatesIgnoreCase) {
  EXPECT_THAT(from_text("John@Example.COM, john@example.com, JOHN@EXAMPLE.COM, Jane@x.org"),
              ElementsAre("John@example.com", "Jane@x.org"));
}

TEST(ExtractEmails, AssetNamesWithDensitySuffixesAreNotAddresses) {
  EXPECT_THAT(from_text("logo image@2x.png icon@3x.webp banner@2x.JPG sprite@1.5x.svg "
                        "bundle@1.0.js font@2x.woff2"),
              IsEmpty());
}

TEST(ExtractEmails, VersionStringsAndTldLessNamesAreNotAddresses) {
  EXPECT_THAT(from_text("npm i pkg@1.2.3 lodash@4.17.21-beta foo@bar user@localhost x@y.c0m a@b.c"),
              IsEmpty());
}

TEST(ExtractEmails, HandlesAndUrlsWithAtSignsAreNotAddresses) {
  EXPECT_THAT(from_text("follow @gleaner and https://medium.com/@writer/post, @ alone, a@ b"),
              IsEmpty());
}

TEST(ExtractEmails, RfcLengthLimitsAreEnforced) {
  std::string local64(64, 'a');
  std::string local65(65, 'a');
  std::string label63(63, 'b');
  std::string label64(64, 'b');
  EXPECT_THAT(from_text(local64 + "@example.com"), ElementsAre(local64 + "@example.com"));
  EXPECT_THAT(from_text(local65 + "@example.com"), IsEmpty());
  EXPECT_THAT(from_text("x@" + label63 + ".com"), ElementsAre("x@" + label63 + ".com"));
  EXPECT_THAT(from_text("x@" + label64 + ".com"), IsEmpty());
  // Four 63-character labels: a valid domain, but the whole address is over 254 characters.
  std::string long_domain =
      label63 + "." + label63 + "." + label63 + "." + std::string(58, 'c') + ".com";
  EXPECT_THAT(from_text(local64 + "@" + long_domain), IsEmpty());
}

TEST(ExtractEmails, MalformedLocalPartsAndLabelsAreRejected) {
  EXPECT_THAT(from_text("a.@example.com x@-bad.com x@bad-.com x@a..com x@.com"), IsEmpty());
}

TEST(ExtractEmails, DotsBeforeTheLocalPartAreTheTextsOwn) {
  EXPECT_THAT(from_text("Write to...me@example.com or .you@example.com"),
              ElementsAre("me@example.com", "you@example.com"));
}

TEST(ExtractEmails, AddressesGluedToNonAsciiLettersAreNotCut) {
  EXPECT_THAT(from_text("josé@example.com info@exämple.com ok@example.com"),
              ElementsAre("ok@example.com"));
}

TEST(ExtractEmails, PunycodeTopLevelDomainsAreAccepted) {
  EXPECT_THAT(from_text("info@example.xn--p1ai"), ElementsAre("info@example.xn--p1ai"));
}

TEST(ExtractEmails, MailtoLinksArePercentDecodedWithoutTheirQuery) {
  EXPECT_THAT(extract_emails("", json{"mailto:Team%40Example.ORG?subject=Hi%20there",
                                      "MAILTO:o'brien@example.ie", "https://example.com/"}),
              ElementsAre("Team@example.org", "o'brien@example.ie"));
}

TEST(ExtractEmails, MailtoWithSeveralAddressesOrADisplayName) {
  EXPECT_THAT(extract_emails(
                  "", json{"mailto:a@x.org,b@x.org;c@x.org", "mailto:Jane%20Doe%20%3Cjane@x.org%3E",
                           "mailto:", "mailto:?cc=d@x.org"}),
              ElementsAre("a@x.org", "b@x.org", "c@x.org", "jane@x.org"));
}

TEST(ExtractEmails, MailtoLinksAreCheckedLikeText) {
  EXPECT_THAT(extract_emails("", json{"mailto:icon@2x.png", "mailto:nobody", "mailto:a@b"}),
              IsEmpty());
}

TEST(ExtractEmails, TextComesFirstThenMailtoLinksWithoutRepeats) {
  EXPECT_THAT(extract_emails("Contact: b@x.org", json{"mailto:a@x.org", "mailto:B@X.ORG", 7}),
              ElementsAre("b@x.org", "a@x.org"));
}

}  // namespace
}  // namespace gleaner::content
