#include "extract/params.h"

#include <gtest/gtest.h>

#include <functional>

#include "core/error.h"

namespace gleaner::extract {
namespace {

const Parameters& sample() {
  static const Parameters params{
      {Param::string("q").required(),
       Param::string("gl").pattern(patterns::kTwoLetters, "a two-letter country code"),
       Param::integer("start").range(0, 100).multiple_of(10).default_value(0),
       Param::number("price").range(10, std::nullopt), Param::boolean("verified"),
       Param::date("checkIn"), Param::string("sort").one_of({"recent", "relevant"}),
       Param::string("chips").items(',', {"date:today", "date:week", "type:virtual"}),
       Param::list("homeTypes").one_of({"house", "condo"}), Param::string("topicToken"),
       Param::string("storyToken"), Param::string("so"), Param::string("itemId"),
       Param::string("url")},
      {Rule::exclusive({"q", "topicToken", "storyToken"}), Rule::only_with("so", {"storyToken"}),
       Rule::requires_with("verified", "sort")}};
  return params;
}

// The error validation threw, so tests can check code and parameter.
Error rejection(const QueryParams& query, const Parameters& params = sample()) {
  try {
    params.validate(query);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "query was accepted";
  return Error(ErrorCode::Internal, "accepted");
}

TEST(Params, AcceptsTypedValuesAndFillsDefaults) {
  auto p = sample().validate({{"q", "coffee"},
                              {"gl", "us"},
                              {"price", "12.5"},
                              {"verified", "true"},
                              {"sort", "recent"},
                              {"checkIn", "2028-02-29"},
                              {"chips", "date:today,type:virtual"},
                              {"homeTypes[]", "house"},
                              {"homeTypes[]", "condo"}});
  EXPECT_EQ(p.string("q"), "coffee");
  EXPECT_EQ(p.string("gl"), "us");
  EXPECT_EQ(p.integer("start"), 0);  // default
  EXPECT_DOUBLE_EQ(*p.number("price"), 12.5);
  EXPECT_EQ(p.boolean("verified"), true);
  EXPECT_EQ(p.string("checkIn"), "2028-02-29");
  EXPECT_EQ(p.string("chips"), "date:today,type:virtual");
  EXPECT_EQ(p.list("homeTypes"), (std::vector<std::string>{"house", "condo"}));
  EXPECT_FALSE(p.has("storyToken"));
}

TEST(Params, MissingRequiredNamesIt) {
  auto e = rejection({{"gl", "us"}});
  EXPECT_EQ(e.code(), ErrorCode::MissingParameter);
  EXPECT_EQ(e.parameter(), "q");
}

TEST(Params, EmptyValueCountsAsAbsent) {
  auto e = rejection({{"q", ""}});
  EXPECT_EQ(e.code(), ErrorCode::MissingParameter);
  auto p = sample().validate({{"q", "x"}, {"gl", ""}});
  EXPECT_FALSE(p.has("gl"));
}

TEST(Params, UnknownParameterIsRejected) {
  auto e = rejection({{"q", "x"}, {"qq", "y"}});
  EXPECT_EQ(e.code(), ErrorCode::InvalidParameter);
  EXPECT_EQ(e.parameter(), "qq");
  // `[]` only reaches list parameters.
  EXPECT_EQ(rejection({{"q", "x"}, {"gl[]", "us"}}).parameter(), "gl[]");
}

// Found by tests/fuzz (site_params): a value that is not UTF-8 (`keyword=%FF`) passed validation
// and made the endpoint's JSON (Zillow's searchQueryState) throw, a 500. It is a 400 now.
TEST(Params, ValuesThatAreNotUtf8TextAreRejected) {
  for (const char* bad : {"\xff", "Seattle, \xff", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                          "\xe2\x82"}) {
    auto e = rejection({{"q", bad}});
    EXPECT_EQ(e.code(), ErrorCode::InvalidParameter) << bad;
    EXPECT_EQ(e.parameter(), "q");
  }
  EXPECT_EQ(rejection({{"q", "x"}, {"homeTypes[]", "house"}, {"homeTypes[]", "\x80"}}).parameter(),
            "homeTypes");
  for (const char* good : {"Zürich", "北京 coffee", "€ 1.234,50", "😀", "a\x7f"}) {
    EXPECT_NO_THROW(sample().validate({{"q", good}})) << good;
  }
}

TEST(Params, ScalarGivenTwiceIsRejected) {
  auto e = rejection({{"q", "x"}, {"q", "y"}});
  EXPECT_EQ(e.code(), ErrorCode::InvalidParameter);
  EXPECT_EQ(e.parameter(), "q");
}

TEST(Params, EachTypeRejectsWhatItShould) {
  struct Case {
    const char* name;
    const char* value;
  };
  const Case bad[] = {
      {"gl", "usa"},
      {"gl", "u1"},
      {"start", "ten"},
      {"start", "5"},
      {"start", "110"},
      {"start", "-10"},
      {"start", "1e1"},
      {"price", "9.99"},
      {"price", "abc"},
      {"price", "0x10"},
      {"price", "inf"},
      {"verified", "yes"},
      {"checkIn", "2027-02-29"},
      {"checkIn", "2028-13-01"},
      {"checkIn", "28-01-01"},
      {"sort", "Recent"},
      {"chips", "date:today,"},
      {"chips", "date:year"},
      {"chips", "date:today,date:today"},
      {"chips", ",date:week"},
  };
  for (const auto& c : bad) {
    auto e = rejection({{"q", "x"}, {c.name, c.value}});
    EXPECT_EQ(e.code(), ErrorCode::InvalidParameter) << c.name << "=" << c.value;
    EXPECT_EQ(e.parameter(), c.name) << c.name << "=" << c.value;
  }
  auto e = rejection({{"q", "x"}, {"homeTypes[]", "castle"}});
  EXPECT_EQ(e.parameter(), "homeTypes");
}

TEST(Params, OverlongStringIsRejected) {
  auto e = rejection({{"q", std::string(3000, 'a')}});
  EXPECT_EQ(e.code(), ErrorCode::InvalidParameter);
  EXPECT_EQ(e.parameter(), "q");
}

TEST(Params, ExclusiveNamesTheSecondOne) {
  auto e = rejection({{"q", "x"}, {"storyToken", "CAAq"}});
  EXPECT_EQ(e.code(), ErrorCode::ConflictingParameters);
  EXPECT_EQ(e.parameter(), "storyToken");
}

TEST(Params, OnlyWithRule) {
  const Parameters news{{Param::string("storyToken"), Param::string("so")},
                        {Rule::only_with("so", {"storyToken"})}};
  auto e = rejection({{"so", "1"}}, news);
  EXPECT_EQ(e.code(), ErrorCode::InvalidParameter);
  EXPECT_EQ(e.parameter(), "so");
  EXPECT_NO_THROW(news.validate({{"so", "1"}, {"storyToken", "CAAq"}}));
}

TEST(Params, OneOfRule) {
  const Parameters reviews{{Param::string("itemId"), Param::string("url")},
                           {Rule::one_of({"itemId", "url"})}};
  auto e = rejection({}, reviews);
  EXPECT_EQ(e.code(), ErrorCode::MissingParameter);
  EXPECT_EQ(e.parameter(), "itemId");
  EXPECT_NO_THROW(reviews.validate({{"url", "https://example.com/ip/1"}}));
  EXPECT_NO_THROW(reviews.validate({{"itemId", "1"}, {"url", "https://example.com/ip/1"}}));
}

TEST(Params, RequiresWithRule) {
  auto e = rejection({{"q", "x"}, {"verified", "false"}});
  EXPECT_EQ(e.code(), ErrorCode::MissingParameter);
  EXPECT_EQ(e.parameter(), "sort");
}

TEST(Params, CustomRuleSeesTypedValues) {
  const Parameters stay{{Param::date("checkIn").required(), Param::date("checkOut").required()},
                        {Rule::custom([](const ValidatedParams& p) {
                          if (*p.string("checkOut") <= *p.string("checkIn")) {
                            throw invalid_parameter("checkOut",
                                                    "'checkOut' must be later than 'checkIn'");
                          }
                        })}};
  auto e = rejection({{"checkIn", "2030-01-02"}, {"checkOut", "2030-01-01"}}, stay);
  EXPECT_EQ(e.parameter(), "checkOut");
  EXPECT_NO_THROW(stay.validate({{"checkIn", "2030-01-01"}, {"checkOut", "2030-01-02"}}));
}

TEST(Params, DefaultsDoNotTriggerRules) {
  // `start` has a default; a rule on it must see only what the caller sent.
  const Parameters p{{Param::integer("start").default_value(0), Param::string("token")},
                     {Rule::only_with("start", {"token"})}};
  auto v = p.validate({});
  EXPECT_EQ(v.integer("start"), 0);
}

// Arrays as clients built on the `qs` encoding write them (the hosted service's n8n node among
// them): indexed items, ordered by index, for a list declared `homeTypes` whether the client calls
// it `homeTypes` (homeTypes[0]) or `homeTypes[]` (homeTypes[][0]).
TEST(Params, IndexedArraysAreLists) {
  auto p = sample().validate({{"q", "x"}, {"homeTypes[1]", "condo"}, {"homeTypes[0]", "house"}});
  EXPECT_EQ(p.list("homeTypes"), (std::vector<std::string>{"house", "condo"}));
  p = sample().validate({{"q", "x"}, {"homeTypes[][0]", "condo"}, {"homeTypes[][1]", "house"}});
  EXPECT_EQ(p.list("homeTypes"), (std::vector<std::string>{"condo", "house"}));
  // Ordered by the index's number, not its text.
  QueryParams many = {{"q", "x"}};
  for (int i = 0; i < 12; ++i) {
    many.emplace("homeTypes[" + std::to_string(i) + "]", i == 10 ? "condo" : "house");
  }
  EXPECT_EQ(sample().validate(many).list("homeTypes")[10], "condo");
  // Repeated, bracketed and bare forms stay one form between them.
  p = sample().validate({{"q", "x"}, {"homeTypes", "house"}, {"homeTypes[]", "condo"}});
  EXPECT_EQ(p.list("homeTypes").size(), 2u);
  // Items are checked like any other.
  EXPECT_EQ(rejection({{"q", "x"}, {"homeTypes[0]", "castle"}}).parameter(), "homeTypes");
}

TEST(Params, ContradictingArrayFormsNameTheList) {
  for (const QueryParams& q :
       {QueryParams{{"q", "x"}, {"homeTypes[0]", "house"}, {"homeTypes[]", "condo"}},
        QueryParams{{"q", "x"}, {"homeTypes[0]", "house"}, {"homeTypes", "condo"}},
        QueryParams{{"q", "x"}, {"homeTypes[0]", "house"}, {"homeTypes[0]", "condo"}},
        QueryParams{{"q", "x"}, {"homeTypes[0]", "house"}, {"homeTypes[][0]", "condo"}}}) {
    auto e = rejection(q);
    EXPECT_EQ(e.code(), ErrorCode::InvalidParameter);
    EXPECT_EQ(e.parameter(), "homeTypes");
  }
  // An index on a scalar is no form of it.
  EXPECT_EQ(rejection({{"q[0]", "x"}}).parameter(), "q[0]");
  EXPECT_EQ(rejection({{"q", "x"}, {"homeTypes[x]", "house"}}).parameter(), "homeTypes[x]");
}

TEST(Params, AliasesStandForTheirValues) {
  const Parameters p{
      {Param::string("sort").one_of({"newest", "priceLowToHigh"}).aliases({{"recent", "newest"}}),
       Param::list("homeTypes").one_of({"houses", "condos"}).aliases({{"house", "houses"}}),
       Param::string("chips")
           .items(',', {"date:today", "date:week"})
           .aliases({{"today", "date:today"}}),
       Param::string("domain")
           .one_of({"www.yellowpages.com", "www.yellowpages.com.au"})
           .unserved({"www.yellowpages.ca"}, "no page of that directory has been read")}};
  auto v = p.validate({{"sort", "recent"},
                       {"homeTypes[0]", "house"},
                       {"homeTypes[1]", "condos"},
                       {"chips", "today,date:week"}});
  EXPECT_EQ(v.string("sort"), "newest");
  EXPECT_EQ(v.list("homeTypes"), (std::vector<std::string>{"houses", "condos"}));
  EXPECT_EQ(v.string("chips"), "date:today,date:week");
  // The site's own words stay.
  EXPECT_EQ(p.validate({{"sort", "newest"}}).string("sort"), "newest");
  // A refusal lists both kinds of words.
  auto e = rejection({{"sort", "oldest"}}, p);
  EXPECT_EQ(e.parameter(), "sort");
  EXPECT_NE(std::string(e.what()).find("newest, priceLowToHigh, recent"), std::string::npos)
      << e.what();
  // A value that cannot be served is a 400 naming it and saying why.
  e = rejection({{"domain", "www.yellowpages.ca"}}, p);
  EXPECT_EQ(e.code(), ErrorCode::InvalidParameter);
  EXPECT_EQ(e.parameter(), "domain");
  EXPECT_NE(std::string(e.what()).find("'www.yellowpages.ca' cannot be served: no page of"),
            std::string::npos)
      << e.what();
  EXPECT_EQ(p.find("homeTypes")->accepted_words(),
            (std::vector<std::string>{"houses", "condos", "house"}));
}

TEST(Params, GoogleLanguagesAsGoogleListsThem) {
  const Parameters p{
      {Param::string("hl").pattern(patterns::kGoogleLanguage, patterns::kGoogleLanguageWords)}};
  for (const char* ok : {"en", "fil", "haw", "ach", "es-419", "zh-TW", "zh-cn", "pt_BR", "sr-me",
                         "xx-pirate", "xx-klingon"}) {
    EXPECT_NO_THROW(p.validate({{"hl", ok}})) << ok;
  }
  for (const char* bad : {"e", "engl", "en-", "en-USA", "es-41", "xx-yoda", "en US"}) {
    EXPECT_EQ(rejection({{"hl", bad}}, p).parameter(), "hl") << bad;
  }
  EXPECT_EQ(language_tag("ZH_tw"), "zh-TW");
  EXPECT_EQ(language_tag("es-419"), "es-419");
  EXPECT_EQ(language_tag("FIL"), "fil");
  EXPECT_EQ(language_tag("xx-Pirate"), "xx-pirate");
  EXPECT_EQ(language_tag("sr-me"), "sr-ME");
  EXPECT_EQ(tag_language("haw"), "haw");
  EXPECT_EQ(tag_region("pt-br"), "BR");
  EXPECT_EQ(tag_region("es-419"), "");
}

}  // namespace
}  // namespace gleaner::extract
