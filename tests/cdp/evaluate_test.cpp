// cdp::evaluate_isolated over a scripted DevTools session: the calls it makes (the top frame's
// id, a world of our own, the evaluation in it) and its one retry when the document is replaced
// between them.
#include "cdp/evaluate.h"

#include <gtest/gtest.h>

#include <atomic>

#include "tests/support/fake_transport.h"

namespace gleaner::cdp {
namespace {

using Json = nlohmann::json;

struct EvaluateIsolated : ::testing::Test {
  FakeTransport* transport = nullptr;
  std::unique_ptr<Connection> connection;
  std::unique_ptr<Session> session;
  std::atomic<int> worlds{0};
  int lost_contexts = 0;  ///< how many evaluations answer "context gone" first

  EvaluateIsolated() {
    auto fake = std::make_unique<FakeTransport>();
    transport = fake.get();
    transport->set_responder([this](const Json& m, FakeTransport& t) {
      const std::string method = m["method"];
      if (method == "Page.getFrameTree") {
        t.reply(m["id"], {{"frameTree", {{"frame", {{"id", "TOP"}}}}}});
      } else if (method == "Page.createIsolatedWorld") {
        t.reply(m["id"], {{"executionContextId", 100 + ++worlds}});
      } else if (method == "Runtime.evaluate" && lost_contexts > 0) {
        --lost_contexts;
        t.deliver(
            {{"id", m["id"]},
             {"error", {{"code", -32000}, {"message", "Cannot find context with specified id"}}}});
      } else {
        t.reply(m["id"], {{"result", {{"type", "number"}, {"value", m["params"]["contextId"]}}}});
      }
    });
    connection = std::make_unique<Connection>(std::move(fake));
    session = std::make_unique<Session>(*connection, "S1");
  }
  ~EvaluateIsolated() override {
    session.reset();
    connection.reset();
  }

  std::vector<std::string> methods() const {
    std::vector<std::string> out;
    for (const Json& m : transport->sent()) out.push_back(m["method"]);
    return out;
  }
  static Deadline soon() { return deadline_in(Millis(5000)); }
};

TEST_F(EvaluateIsolated, RunsInAWorldMadeOnTheTopFrame) {
  const Json reply = evaluate_isolated(*session, "1 + 1", soon());
  EXPECT_EQ(reply["result"]["value"], 101);
  EXPECT_EQ(methods(), (std::vector<std::string>{"Page.getFrameTree", "Page.createIsolatedWorld",
                                                 "Runtime.evaluate"}));
  const auto sent = transport->sent();
  EXPECT_EQ(sent[1]["params"]["frameId"], "TOP");
  EXPECT_EQ(sent[2]["params"]["expression"], "1 + 1");
  EXPECT_EQ(sent[2]["params"]["awaitPromise"], true);
  EXPECT_EQ(sent[2]["params"]["returnByValue"], true);
}

TEST_F(EvaluateIsolated, AGivenFrameIsUsedAsItIs) {
  evaluate_isolated(*session, "1", soon(), "F9");
  EXPECT_EQ(methods(), (std::vector<std::string>{"Page.createIsolatedWorld", "Runtime.evaluate"}));
  EXPECT_EQ(transport->sent()[0]["params"]["frameId"], "F9");
}

TEST_F(EvaluateIsolated, ADocumentReplacedMeanwhileIsTriedOnceMoreThenTheErrorGoesUp) {
  lost_contexts = 1;
  EXPECT_EQ(evaluate_isolated(*session, "1", soon(), "F")["result"]["value"], 102);
  lost_contexts = 2;
  try {
    evaluate_isolated(*session, "1", soon(), "F");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_TRUE(context_went_away(e)) << e.detail();
  }
}

}  // namespace
}  // namespace gleaner::cdp
