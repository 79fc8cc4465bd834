// Request interception over a scripted DevTools connection: which Fetch command a page's settings
// need, and how each paused request is answered.
#include "browser/request_router.h"
#include "tests/support/fake_transport.h"
#include "tests/support/gate.h"

#include <gtest/gtest.h>

#include <mutex>

namespace gleaner::browser {
namespace {

using Json = nlohmann::json;
using gleaner::testing::kMaxWait;

// Decides with a fixed answer and remembers what it saw.
class ScriptedInterceptor : public Interceptor {
 public:
  explicit ScriptedInterceptor(std::optional<Decision> answer) : answer_(std::move(answer)) {}
  std::optional<Decision> decide(const InterceptedRequest& request) override {
    std::lock_guard lock(mutex_);
    seen_.push_back(request);
    return answer_;
  }
  std::vector<InterceptedRequest> seen() {
    std::lock_guard lock(mutex_);
    return seen_;
  }

 private:
  std::optional<Decision> answer_;
  std::mutex mutex_;
  std::vector<InterceptedRequest> seen_;
};

// Blocks every decision until its gate opens: stands for a slow DNS lookup.
class BlockingInterceptor : public Interceptor {
 public:
  std::optional<Decision> decide(const InterceptedRequest&) override {
    gate.wait();
    return Decision(Fail{"AddressUnreachable"});
  }
  gleaner::testing::Gate gate;
};

class RequestRouterTest : public ::testing::Test {
 protected:
  RequestRouterTest() {
    auto transport = std::make_unique<cdp::FakeTransport>();
    fake_ = transport.get();
    connection_ = std::make_unique<cdp::Connection>(std::move(transport));
    router_ = std::make_shared<RequestRouter>(*connection_, "S1", "MAIN", executor_);
    connection_->on("Fetch.requestPaused", "S1",
                    [this](const Json& p) { router_->on_request_paused(p); });
    connection_->on("Fetch.authRequired", "S1",
                    [this](const Json& p) { router_->on_auth_required(p); });
  }

  void pause(const std::string& id, const std::string& url, const std::string& type,
             const std::string& frame = "MAIN") {
    fake_->deliver(
        {{"method", "Fetch.requestPaused"},
         {"sessionId", "S1"},
         {"params",
          {{"requestId", id},
           {"request", {{"url", url}, {"method", "GET"}, {"headers", {{"Accept", "*/*"}}}}},
           {"frameId", frame},
           {"resourceType", type}}}});
  }

  // The answer sent for request `id` (waits for it).
  Json answer_for(const std::string& id) {
    const auto deadline = deadline_in(kMaxWait);
    for (std::size_t count = 1; SteadyClock::now() < deadline; ++count) {
      for (const auto& m : fake_->wait_for_sent(count, time_left(deadline)))
        if (m["params"].value("requestId", "") == id) return m;
    }
    ADD_FAILURE() << "no answer for " << id;
    return {};
  }

  Executor executor_{2};
  cdp::FakeTransport* fake_ = nullptr;
  std::unique_ptr<cdp::Connection> connection_;
  std::shared_ptr<RequestRouter> router_;
};

TEST(FetchCommand, PausesOnlyWhatTheSettingsNeed) {
  InterceptionSettings none;
  EXPECT_EQ(RequestRouter::fetch_command(none)["method"], "Fetch.disable");

  InterceptionSettings blocking;
  blocking.blocked_types = {"Image", "Font"};
  Json only_blocked = RequestRouter::fetch_command(blocking);
  EXPECT_EQ(only_blocked["method"], "Fetch.enable");
  EXPECT_EQ(only_blocked["params"]["patterns"],
            Json::parse(R"([{"urlPattern":"*","resourceType":"Font"},
                            {"urlPattern":"*","resourceType":"Image"}])"));
  EXPECT_EQ(only_blocked["params"]["handleAuthRequests"], false);

  InterceptionSettings chain = blocking;
  chain.chain.push_back(std::make_shared<ScriptedInterceptor>(std::nullopt));
  EXPECT_EQ(RequestRouter::fetch_command(chain)["params"]["patterns"],
            Json::parse(R"([{"urlPattern":"*"}])"));

  // Interceptors that only want documents: only documents (and blocked types) pause.
  struct DocumentsOnly : ScriptedInterceptor {
    DocumentsOnly() : ScriptedInterceptor(std::nullopt) {}
    InterceptScope scope() const override { return InterceptScope::Documents; }
  };
  InterceptionSettings documents = blocking;
  documents.chain.push_back(std::make_shared<DocumentsOnly>());
  EXPECT_EQ(RequestRouter::fetch_command(documents)["params"]["patterns"],
            Json::parse(R"([{"urlPattern":"*","resourceType":"Document"},
                            {"urlPattern":"*","resourceType":"Font"},
                            {"urlPattern":"*","resourceType":"Image"}])"));

  InterceptionSettings auth;
  auth.proxy_credentials.emplace("user", "secret");
  EXPECT_EQ(RequestRouter::fetch_command(auth)["params"]["handleAuthRequests"], true);
}

TEST_F(RequestRouterTest, ConfigureReturnsACommandOnlyWhenItChanges) {
  InterceptionSettings blocking;
  blocking.blocked_types = {"Image"};
  EXPECT_FALSE(router_->configure({}).has_value());  // Fetch starts disabled
  EXPECT_TRUE(router_->configure(blocking).has_value());
  EXPECT_FALSE(router_->configure(blocking).has_value());
}

TEST_F(RequestRouterTest, BlockedTypesFailWithoutAskingTheChain) {
  auto interceptor = std::make_shared<ScriptedInterceptor>(Decision(Continue{}));
  InterceptionSettings s;
  s.blocked_types = {"Image"};
  s.chain.push_back(interceptor);
  router_->configure(s);
  pause("R1", "https://example.com/a.png", "Image");
  Json answer = answer_for("R1");
  EXPECT_EQ(answer["method"], "Fetch.failRequest");
  EXPECT_EQ(answer["params"]["errorReason"], "BlockedByClient");
  EXPECT_EQ(answer["sessionId"], "S1");
  EXPECT_TRUE(interceptor->seen().empty());
}

TEST_F(RequestRouterTest, FirstDecisionWinsAndInterceptorsSeeTheRequest) {
  auto undecided = std::make_shared<ScriptedInterceptor>(std::nullopt);
  Fulfill fulfill{201, {{"content-type", "text/plain"}}, "hello"};
  auto answering = std::make_shared<ScriptedInterceptor>(Decision(fulfill));
  auto never_asked = std::make_shared<ScriptedInterceptor>(Decision(Fail{"AccessDenied"}));
  router_->configure({{undecided, answering, never_asked}, {}, std::nullopt});

  pause("R2", "https://example.com/", "Document");
  Json answer = answer_for("R2");
  EXPECT_EQ(answer["method"], "Fetch.fulfillRequest");
  EXPECT_EQ(answer["params"]["responseCode"], 201);
  EXPECT_EQ(answer["params"]["body"], "aGVsbG8=");
  EXPECT_EQ(answer["params"]["responseHeaders"],
            Json::parse(R"([{"name":"content-type","value":"text/plain"}])"));
  EXPECT_TRUE(never_asked->seen().empty());

  auto seen = undecided->seen();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].url, "https://example.com/");
  EXPECT_EQ(seen[0].method, "GET");
  EXPECT_EQ(seen[0].resource_type, "Document");
  EXPECT_EQ(seen[0].headers.at("Accept"), "*/*");
  EXPECT_TRUE(seen[0].is_navigation);
  EXPECT_TRUE(seen[0].is_main_frame);

  pause("R3", "https://ads.example/frame", "Document", "CHILD");
  answer_for("R3");
  seen = undecided->seen();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_TRUE(seen[1].is_navigation);
  EXPECT_FALSE(seen[1].is_main_frame);
}

TEST_F(RequestRouterTest, NobodyDecidingLetsTheRequestContinue) {
  router_->configure({{std::make_shared<ScriptedInterceptor>(std::nullopt)}, {}, std::nullopt});
  pause("R4", "https://example.com/app.js", "Script");
  EXPECT_EQ(answer_for("R4")["method"], "Fetch.continueRequest");
}

TEST_F(RequestRouterTest, DocumentScopedInterceptorsAreNotAskedAboutSubresources) {
  struct DocumentsOnly : ScriptedInterceptor {
    DocumentsOnly() : ScriptedInterceptor(Decision(Fail{"AccessDenied"})) {}
    InterceptScope scope() const override { return InterceptScope::Documents; }
  };
  auto documents_only = std::make_shared<DocumentsOnly>();
  router_->configure({{documents_only}, {}, std::nullopt});
  pause("SUB", "https://example.com/app.js", "Script");
  EXPECT_EQ(answer_for("SUB")["method"], "Fetch.continueRequest");
  pause("DOC", "https://example.com/", "Document");
  EXPECT_EQ(answer_for("DOC")["params"]["errorReason"], "AccessDenied");
  ASSERT_EQ(documents_only->seen().size(), 1u);
  EXPECT_EQ(documents_only->seen()[0].url, "https://example.com/");
}

class ThrowingInterceptor : public Interceptor {
 public:
  std::optional<Decision> decide(const InterceptedRequest&) override {
    throw std::runtime_error("resolver exploded");
  }
};

TEST_F(RequestRouterTest, AFailingInterceptorFailsTheRequestRatherThanLettingItThrough) {
  router_->configure({{std::make_shared<ThrowingInterceptor>()}, {}, std::nullopt});
  pause("R5", "https://example.com/", "Document");
  Json answer = answer_for("R5");
  EXPECT_EQ(answer["method"], "Fetch.failRequest");
  EXPECT_EQ(answer["params"]["errorReason"], "Failed");
}

TEST_F(RequestRouterTest, ASlowDecisionDoesNotHoldUpOtherRequests) {
  auto slow = std::make_shared<BlockingInterceptor>();
  InterceptionSettings s;
  s.chain.push_back(slow);
  s.blocked_types = {"Image"};
  router_->configure(s);
  pause("SLOW", "https://slow.example/", "Document");
  ASSERT_TRUE(slow->gate.wait_arrival());
  // The DevTools thread is free: a blocked image is answered while the decision above waits.
  pause("IMG", "https://example.com/a.png", "Image");
  EXPECT_EQ(answer_for("IMG")["method"], "Fetch.failRequest");
  slow->gate.open();
  Json answer = answer_for("SLOW");
  EXPECT_EQ(answer["params"]["errorReason"], "AddressUnreachable");
}

TEST_F(RequestRouterTest, ProxyCredentialsAreGivenOncePerRequestAndOnlyToTheProxy) {
  router_->configure({{}, {}, std::make_pair(std::string("user"), std::string("secret"))});
  auto challenge = [&](const std::string& id, const std::string& source) {
    fake_->deliver({{"method", "Fetch.authRequired"},
                    {"sessionId", "S1"},
                    {"params",
                     {{"requestId", id},
                      {"request", {{"url", "https://example.com/"}, {"method", "GET"}}},
                      {"authChallenge", {{"source", source}, {"origin", "http://proxy:3128"}}}}}});
  };
  challenge("A1", "Proxy");
  Json first = answer_for("A1");
  EXPECT_EQ(first["method"], "Fetch.continueWithAuth");
  EXPECT_EQ(
      first["params"]["authChallengeResponse"],
      Json::parse(R"({"response":"ProvideCredentials","username":"user","password":"secret"})"));

  fake_->flush();
  const std::size_t before = fake_->sent().size();
  challenge("A1", "Proxy");  // asked again: the credentials were refused
  auto sent = fake_->wait_for_sent(before + 1, kMaxWait);
  EXPECT_EQ(sent.back()["params"]["authChallengeResponse"]["response"], "CancelAuth");

  challenge("S9", "Server");  // a site's own login is not the proxy's business
  EXPECT_EQ(answer_for("S9")["params"]["authChallengeResponse"]["response"], "CancelAuth");
}

TEST(Base64, EncodesAllPaddingCases) {
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64_encode(std::string("\xff\x00\x10", 3)), "/wAQ");
}

}  // namespace
}  // namespace gleaner::browser
