// The DevTools connection against a scripted transport: replies matched by id (in any order),
// events routed by session, deadlines, and every pending call failing at once on close or crash.
#include "cdp/connection.h"
#include "tests/support/fake_transport.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

using namespace gleaner;
using namespace gleaner::cdp;

namespace {

constexpr Millis kWait(5000);  // the one maximum wait of this suite

struct ConnectionTest : ::testing::Test {
  ConnectionTest() {
    auto t = std::make_unique<FakeTransport>();
    fake = t.get();
    connection = std::make_unique<Connection>(std::move(t));
  }
  FakeTransport* fake;
  std::unique_ptr<Connection> connection;
};

ErrorKind kind_of(PendingCall& call) {
  try {
    call.get();
  } catch (const cdp::Error& e) {
    return e.kind();
  }
  ADD_FAILURE() << "the call did not fail";
  return ErrorKind::Protocol;
}

}  // namespace

TEST_F(ConnectionTest, SendsMethodParamsSessionAndIncreasingIds) {
  connection->send("Page.navigate", {{"url", "https://a.test/"}}, "S1", deadline_in(kWait));
  connection->send("Browser.getVersion", Json::object(), "", deadline_in(kWait));
  auto sent = fake->wait_for_sent(2);
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0]["method"], "Page.navigate");
  EXPECT_EQ(sent[0]["params"]["url"], "https://a.test/");
  EXPECT_EQ(sent[0]["sessionId"], "S1");
  EXPECT_FALSE(sent[1].contains("sessionId"));
  EXPECT_LT(sent[0]["id"].get<int>(), sent[1]["id"].get<int>());
}

TEST_F(ConnectionTest, RepliesOutOfOrderReachTheirOwnCalls) {
  fake->set_responder([](const Json&, FakeTransport&) {});
  auto a = connection->send("A.one", Json::object(), "", deadline_in(kWait));
  auto b = connection->send("B.two", Json::object(), "", deadline_in(kWait));
  auto c = connection->send("C.three", Json::object(), "", deadline_in(kWait));
  auto sent = fake->wait_for_sent(3);
  for (int i = 2; i >= 0; --i) {
    fake->reply(sent[i]["id"], {{"who", sent[i]["method"]}});
  }
  EXPECT_EQ(b.get()["who"], "B.two");
  EXPECT_EQ(c.get()["who"], "C.three");
  EXPECT_EQ(a.get()["who"], "A.one");
  EXPECT_EQ(connection->pending_count(), 0u);
}

TEST_F(ConnectionTest, ErrorReplyIsAProtocolErrorNamingTheMethod) {
  fake->set_responder([](const Json& m, FakeTransport& t) {
    t.deliver({{"id", m["id"]}, {"error", {{"code", -32000}, {"message", "No node found"}}}});
  });
  try {
    connection->call("DOM.querySelector", Json::object(), "S", deadline_in(kWait));
    FAIL();
  } catch (const cdp::Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Protocol);
    EXPECT_EQ(e.method(), "DOM.querySelector");
    EXPECT_NE(e.detail().find("No node found"), std::string::npos);
    EXPECT_NE(e.detail().find("DOM.querySelector"), std::string::npos);
  }
}

TEST_F(ConnectionTest, DeadlinePassesWithoutReply) {
  auto call = connection->send("Page.navigate", Json::object(), "S", deadline_in(Millis(30)));
  try {
    call.get();
    FAIL();
  } catch (const cdp::Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Timeout);
    EXPECT_EQ(e.method(), "Page.navigate");
    EXPECT_EQ(e.code(), ErrorCode::Timeout);
  }
  // A late reply to the abandoned call is dropped, and the connection goes on working.
  auto sent = fake->sent();
  fake->reply(sent[0]["id"], Json::object());
  fake->set_responder([](const Json& m, FakeTransport& t) { t.reply(m["id"], {{"ok", true}}); });
  EXPECT_TRUE(connection->call("Runtime.evaluate", Json::object(), "S", deadline_in(kWait))["ok"]);
}

TEST_F(ConnectionTest, EventsRouteBySessionAndMethod) {
  std::promise<Json> s1_load, s2_load;
  std::atomic<int> browser_events{0};
  connection->on("Page.loadEventFired", "S1", [&](const Json& p) { s1_load.set_value(p); });
  connection->on("Page.loadEventFired", "S2", [&](const Json& p) { s2_load.set_value(p); });
  connection->on("Target.targetCreated", "", [&](const Json&) { ++browser_events; });
  fake->deliver({{"method", "Page.loadEventFired"}, {"sessionId", "S2"}, {"params", {{"t", 2}}}});
  fake->deliver({{"method", "Page.loadEventFired"}, {"sessionId", "S1"}, {"params", {{"t", 1}}}});
  fake->deliver({{"method", "Target.targetCreated"}, {"params", Json::object()}});
  fake->deliver({{"method", "Page.frameNavigated"}, {"sessionId", "S1"}, {"params", {}}});
  fake->flush();
  EXPECT_EQ(s1_load.get_future().get()["t"], 1);
  EXPECT_EQ(s2_load.get_future().get()["t"], 2);
  EXPECT_EQ(browser_events.load(), 1);
}

TEST_F(ConnectionTest, AnAnySessionHandlerHearsTheEventOfEverySession) {
  std::mutex mutex;
  std::vector<int> heard;
  connection->on("Target.attachedToTarget", kAnySession, [&](const Json& p) {
    std::lock_guard lock(mutex);
    heard.push_back(p["n"]);
  });
  fake->deliver({{"method", "Target.attachedToTarget"}, {"params", {{"n", 1}}}});
  fake->deliver(
      {{"method", "Target.attachedToTarget"}, {"sessionId", "S1"}, {"params", {{"n", 2}}}});
  fake->deliver(
      {{"method", "Target.attachedToTarget"}, {"sessionId", "W1"}, {"params", {{"n", 3}}}});
  fake->deliver(
      {{"method", "Target.detachedFromTarget"}, {"sessionId", "S1"}, {"params", {{"n", 4}}}});
  fake->flush();
  std::lock_guard lock(mutex);
  EXPECT_EQ(heard, std::vector<int>({1, 2, 3}));
}

TEST_F(ConnectionTest, OffStopsDeliveryAndHandlersMayUnsubscribeThemselves) {
  std::atomic<int> count{0};
  SubscriptionId id = 0;
  id = connection->on("Network.requestWillBeSent", "S", [&](const Json&) {
    ++count;
    connection->off(id);
  });
  for (int i = 0; i < 3; ++i) {
    fake->deliver({{"method", "Network.requestWillBeSent"}, {"sessionId", "S"}, {"params", {}}});
  }
  fake->flush();
  EXPECT_EQ(count.load(), 1);
}

TEST_F(ConnectionTest, SessionRemovesItsHandlersWhenDestroyed) {
  std::atomic<int> count{0};
  {
    Session session(*connection, "S9");
    session.on("Page.loadEventFired", [&](const Json&) { ++count; });
    fake->deliver({{"method", "Page.loadEventFired"}, {"sessionId", "S9"}, {"params", {}}});
    fake->flush();
  }
  fake->deliver({{"method", "Page.loadEventFired"}, {"sessionId", "S9"}, {"params", {}}});
  fake->flush();
  EXPECT_EQ(count.load(), 1);
}

TEST_F(ConnectionTest, CloseFailsEveryPendingCallAtOnce) {
  std::promise<std::string> closed;
  connection->set_close_handler([&](const std::string& why) { closed.set_value(why); });
  auto a = connection->send("Page.navigate", Json::object(), "S1", deadline_in(kWait * 10));
  auto b = connection->send("Runtime.evaluate", Json::object(), "S2", deadline_in(kWait * 10));
  auto started = SteadyClock::now();
  fake->close_from_peer("browser exited");
  EXPECT_EQ(kind_of(a), ErrorKind::Closed);
  EXPECT_EQ(kind_of(b), ErrorKind::Closed);
  EXPECT_LT(SteadyClock::now() - started, kWait);  // at once, not at the deadline
  EXPECT_EQ(closed.get_future().get(), "browser exited");
  EXPECT_TRUE(connection->closed());
  // Calls after the close fail immediately too.
  auto c = connection->send("Page.enable", Json::object(), "S1", deadline_in(kWait * 10));
  EXPECT_EQ(kind_of(c), ErrorKind::Closed);
  EXPECT_EQ(connection->pending_count(), 0u);
}

TEST_F(ConnectionTest, TargetCrashFailsOnlyThatSessionsCalls) {
  fake->set_responder([](const Json& m, FakeTransport& t) {
    if (m.value("sessionId", "") == "OK") t.reply(m["id"], {{"fine", true}});
  });
  auto doomed = connection->send("Runtime.evaluate", Json::object(), "BAD", deadline_in(kWait * 10));
  fake->deliver({{"method", "Inspector.targetCrashed"}, {"sessionId", "BAD"}, {"params", {}}});
  try {
    doomed.get();
    FAIL();
  } catch (const cdp::Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Crashed);
    EXPECT_EQ(e.method(), "Runtime.evaluate");
    EXPECT_EQ(e.code(), ErrorCode::UpstreamError);
  }
  auto later = connection->send("Page.reload", Json::object(), "BAD", deadline_in(kWait * 10));
  EXPECT_EQ(kind_of(later), ErrorKind::Crashed);
  EXPECT_TRUE(connection->call("Runtime.evaluate", Json::object(), "OK", deadline_in(kWait))["fine"]);
}

TEST_F(ConnectionTest, DetachFailsThatSessionsCallsAsClosed) {
  auto call = connection->send("Page.navigate", Json::object(), "S4", deadline_in(kWait * 10));
  fake->deliver({{"method", "Target.detachedFromTarget"}, {"params", {{"sessionId", "S4"}}}});
  EXPECT_EQ(kind_of(call), ErrorKind::Closed);
}

TEST_F(ConnectionTest, ManyThreadsCallAtOnce) {
  fake->set_responder([](const Json& m, FakeTransport& t) { t.reply(m["id"], m["params"]); });
  std::vector<std::thread> threads;
  std::atomic<int> right{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        auto r = connection->call("Echo.echo", {{"t", t}, {"i", i}}, "", deadline_in(kWait));
        if (r["t"] == t && r["i"] == i) ++right;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(right.load(), 8 * 200);
}

TEST_F(ConnectionTest, AbandonedCallsAreSweptSoTheRegistryStaysBounded) {
  for (int i = 0; i < 300; ++i) {
    auto call = connection->send("Never.answered", Json::object(), "S", deadline_in(Millis(0)));
  }
  connection->send("One.more", Json::object(), "S", deadline_in(kWait));
  EXPECT_LT(connection->pending_count(), 300u);
}

TEST_F(ConnectionTest, NotifyDoesNotWait) {
  connection->notify("Fetch.continueRequest", {{"requestId", "r1"}}, "S");
  auto sent = fake->wait_for_sent(1);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0]["params"]["requestId"], "r1");
}
