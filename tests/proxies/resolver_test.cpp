// The resolver seam: the override map (curl --resolve) and its configuration entry.
#include "proxies/resolver.h"

#include "core/error.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

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

namespace {

// Answers from a table (no entry: does not resolve), counting the questions; while `hold` is set
// every lookup waits until release() (a slow DNS server).
class TableResolver final : public Resolver {
 public:
  Resolution resolve(const std::string& name) override {
    std::unique_lock lock(mutex);
    ++calls;
    entered.notify_all();
    released.wait(lock, [&] { return !hold; });
    if (auto it = table.find(name); it != table.end())
      return {{boost::asio::ip::make_address(it->second)}, {}};
    return {{}, "Name or service not known"};
  }
  void release() {
    std::lock_guard lock(mutex);
    hold = false;
    released.notify_all();
  }
  std::mutex mutex;  // guards every field
  std::condition_variable entered, released;
  std::map<std::string, std::string> table;
  int calls = 0;
  bool hold = false;
};

}  // namespace

TEST(CachingResolver, KeepsAnswersAndFailuresForTheirTimeToLive) {
  auto inner = std::make_shared<TableResolver>();
  inner->table["a.example"] = "93.184.216.34";
  auto now = SteadyClock::now();
  CachingResolver::Options options;
  options.ttl = Millis(1000);
  options.negative_ttl = Millis(100);
  CachingResolver cache(inner, options, [&] { return now; });

  EXPECT_EQ(cache.resolve("a.example").addresses.at(0).to_string(), "93.184.216.34");
  EXPECT_TRUE(cache.resolve("missing.example").addresses.empty());
  EXPECT_FALSE(cache.resolve("missing.example").error.empty());
  EXPECT_EQ(cache.resolve("a.example").addresses.size(), 1u);
  EXPECT_EQ(cache.inner_calls(), 2u);

  now += Millis(150);  // the failure expired, the answer did not
  cache.resolve("missing.example");
  cache.resolve("a.example");
  EXPECT_EQ(cache.inner_calls(), 3u);

  inner->table["a.example"] = "93.184.216.35";
  now += Millis(1000);  // the answer expired: asked again, the new address comes
  EXPECT_EQ(cache.resolve("a.example").addresses.at(0).to_string(), "93.184.216.35");
  EXPECT_EQ(cache.inner_calls(), 4u);
}

TEST(CachingResolver, ConcurrentLookupsOfOneNameShareOneQuery) {
  auto inner = std::make_shared<TableResolver>();
  inner->table["slow.example"] = "93.184.216.34";
  inner->hold = true;
  CachingResolver cache(inner, CachingResolver::Options{});

  std::vector<std::string> answers(5);
  std::vector<std::thread> threads;
  threads.emplace_back([&] { answers[0] = cache.resolve("slow.example").addresses.at(0).to_string(); });
  {
    std::unique_lock lock(inner->mutex);  // the first lookup is in the slow resolver
    inner->entered.wait(lock, [&] { return inner->calls == 1; });
  }
  for (std::size_t i = 1; i < answers.size(); ++i)
    threads.emplace_back(
        [&, i] { answers[i] = cache.resolve("slow.example").addresses.at(0).to_string(); });
  inner->release();
  for (auto& t : threads) t.join();
  for (const auto& a : answers) EXPECT_EQ(a, "93.184.216.34");
  EXPECT_EQ(cache.inner_calls(), 1u);
  EXPECT_EQ(inner->calls, 1);
}

TEST(CachingResolver, ZeroTimeToLiveKeepsNothing) {
  auto inner = std::make_shared<TableResolver>();
  CachingResolver::Options options;
  options.ttl = Millis(0);
  options.negative_ttl = Millis(0);
  CachingResolver cache(inner, options);
  cache.resolve("x.example");
  cache.resolve("x.example");
  EXPECT_EQ(inner->calls, 2);
}
