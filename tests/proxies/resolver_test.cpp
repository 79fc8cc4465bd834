// The resolver seam: the override map (curl --resolve) and its configuration entry.
#include "proxies/resolver.h"

#include "core/error.h"

#include <gtest/gtest.h>

using namespace gleaner;
using namespace gleaner::proxies;
using nlohmann::json;

namespace {

// Answers every name with one fixed address and counts the questions.
class CountingResolver final : public Resolver {
 public:
  Resolution resolve(const std::string&) override {
    ++calls;
    return {{boost::asio::ip::make_address("93.184.216.34")}, {}};
  }
  int calls = 0;
};

}  // namespace

TEST(OverrideResolver, OverridesFirstThenTheFallback) {
  auto fallback = std::make_shared<CountingResolver>();
  OverrideResolver resolver(OverrideResolver::parse({{"Public.Example.", "127.0.0.1"},
                                                     {"two.example", {"10.0.0.1", "::1"}}}),
                            fallback);
  auto one = resolver.resolve("public.example");
  ASSERT_EQ(one.addresses.size(), 1u);
  EXPECT_EQ(one.addresses[0].to_string(), "127.0.0.1");
  auto two = resolver.resolve("two.example");
  ASSERT_EQ(two.addresses.size(), 2u);
  EXPECT_EQ(two.addresses[1].to_string(), "::1");
  EXPECT_EQ(fallback->calls, 0);
  EXPECT_EQ(resolver.resolve("other.example").addresses[0].to_string(), "93.184.216.34");
  EXPECT_EQ(fallback->calls, 1);

  OverrideResolver alone(OverrideResolver::parse({{"a.example", "8.8.8.8"}}), nullptr);
  auto missing = alone.resolve("b.example");
  EXPECT_TRUE(missing.addresses.empty());
  EXPECT_FALSE(missing.error.empty());
}

TEST(OverrideResolver, MalformedEntriesAreConfigurationErrors) {
  for (const json& bad : {json::array({"x"}), json{{"a.example", "not-an-ip"}},
                          json{{"a.example", json::array()}}, json{{"a.example", 5}},
                          json{{"127.0.0.1", "127.0.0.1"}}, json{{"bad host", "127.0.0.1"}}}) {
    try {
      OverrideResolver::parse(bad);
      ADD_FAILURE() << bad.dump() << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::Internal);
      EXPECT_NE(std::string(e.what()).find("resolve_overrides"), std::string::npos);
    }
  }
}

TEST(MakeResolver, TheEntryFromTheEnvironment) {
  auto resolver = make_resolver(
      Config(json::object(), {{"GLEANER_RESOLVE_OVERRIDES", R"({"public.example": "127.0.0.1"})"}}));
  EXPECT_EQ(resolver->resolve("public.example").addresses.at(0).to_string(), "127.0.0.1");
}

TEST(SystemResolver, ResolvesLocalhostFromTheHostsFile) {
  SystemResolver resolver;
  auto result = resolver.resolve("localhost");
  ASSERT_FALSE(result.addresses.empty()) << result.error;
  for (const auto& address : result.addresses) EXPECT_TRUE(address.is_loopback()) << address;
}
