// The HTTP server on a loopback port: envelope, ids, and the error mapping of everything that can
// go wrong before or inside a handler.
#include "api/server.h"
#include "core/error.h"
#include "core/log.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace gleaner;
using namespace gleaner::api;
using nlohmann::json;

namespace {

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Router router;
    router.add("GET", "/ok", [](Request& r) {
      Response res;
      res.body = {{"zeta", 1}, {"alpha", r.query_value("q").value_or("")}};
      res.url = "https://example.com/";
      return res;
    });
    router.add("POST", "/echo", [](Request& r) {
      Response res;
      res.body = {{"length", r.body.size()}};
      return res;
    });
    router.add("GET", "/bad", [](Request&) -> Response {
      throw invalid_parameter("rating", "rating must be 1 to 5");
    });
    router.add("GET", "/busy", [](Request&) -> Response {
      throw Error(ErrorCode::TooManyRequests, "slow down").with_retry_after(std::chrono::seconds(3));
    });
    router.add("GET", "/bug", [](Request&) -> Response { throw std::out_of_range("vector"); });
    router.add("GET", "/png", [](Request&) { return Response::raw("\x89PNG", "image/png"); });
    router.add("GET", "/sized", [](Request& r) {
      Response res;
      res.body = {{"text", std::string(std::stoul(r.query_value("n").value_or("0")), 'x')}};
      return res;
    });
    router.add("GET", "/logs", [](Request&) {
      log::info("handler") << "working on it";
      return Response{};
    });
    ServerOptions options;
    options.host = "127.0.0.1";
    options.port = 0;
    options.threads = 4;
    options.max_body_bytes = 1024;
    options.max_answer_bytes = 64 * 1024;
    server = std::make_unique<HttpServer>(options, std::move(router));
    port = server->bind();
    thread = std::thread([this] { server->run(); });
    client = std::make_unique<httplib::Client>("127.0.0.1", port);
  }
  void TearDown() override {
    server->stop();
    thread.join();
  }

  std::unique_ptr<HttpServer> server;
  int port = 0;
  std::thread thread;
  std::unique_ptr<httplib::Client> client;
};

json body_of(const httplib::Result& r) { return json::parse(r->body); }

}  // namespace

TEST_F(ServerTest, SuccessStartsWithTheEnvelope) {
  auto r = client->Get("/ok?q=hello");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body.rfind("{\"requestMetadata\":", 0), 0u) << r->body;
  auto b = body_of(r);
  EXPECT_EQ(b["requestMetadata"]["status"], "ok");
  EXPECT_EQ(b["requestMetadata"]["url"], "https://example.com/");
  EXPECT_EQ(b["requestMetadata"]["id"].get<std::string>().size(), 36u);
  EXPECT_EQ(r->get_header_value("X-Request-Id"), b["requestMetadata"]["id"]);
  EXPECT_EQ(b["alpha"], "hello");
}

TEST_F(ServerTest, UnknownRouteIsJson404) {
  auto r = client->Get("/nowhere");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  auto b = body_of(r);
  EXPECT_EQ(b["requestMetadata"]["status"], "error");
  EXPECT_EQ(b["error"]["code"], "not_found");
}

TEST_F(ServerTest, WrongMethodIs405) {
  auto r = client->Post("/ok", "{}", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 405);
  EXPECT_EQ(body_of(r)["error"]["code"], "method_not_allowed");
}

TEST_F(ServerTest, ValidationErrorNamesTheParameter) {
  auto r = client->Get("/bad");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  auto b = body_of(r);
  EXPECT_EQ(b["error"]["code"], "invalid_parameter");
  EXPECT_EQ(b["error"]["parameter"], "rating");
  EXPECT_EQ(b["error"]["message"], "rating must be 1 to 5");
}

TEST_F(ServerTest, TooManyRequestsCarriesRetryAfter) {
  auto r = client->Get("/busy");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 429);
  EXPECT_EQ(r->get_header_value("Retry-After"), "3");
}

// Issue 15: with GLEANER_LOG_FORMAT=json every line a request's handler writes carries its id,
// the one the client gets in X-Request-Id.
TEST_F(ServerTest, JsonLogLinesOfARequestCarryItsId) {
  std::mutex mutex;
  std::vector<std::string> lines;
  log::set_sink([&](std::string_view line) {
    std::lock_guard lock(mutex);
    lines.emplace_back(line);
  });
  log::set_format(log::Format::Json);
  auto r = client->Get("/logs");
  log::set_format(log::Format::Text);
  log::set_sink({});
  ASSERT_TRUE(r);
  const std::string id = r->get_header_value("X-Request-Id");
  ASSERT_FALSE(id.empty());
  bool handler_line = false;
  bool access_line = false;
  std::lock_guard lock(mutex);
  for (const std::string& line : lines) {
    const json object = json::parse(line);
    if (object["component"] == "handler") {
      handler_line = true;
      EXPECT_EQ(object.value("requestId", ""), id) << line;
    }
    if (object["component"] == "http" && object.value("message", "").find("/logs") != std::string::npos) {
      access_line = true;
      EXPECT_EQ(object.value("requestId", ""), id) << line;
    }
  }
  EXPECT_TRUE(handler_line);
  EXPECT_TRUE(access_line);
}

TEST_F(ServerTest, UncaughtExceptionIs500WithTheRequestIdAndNoDetail) {
  auto r = client->Get("/bug");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 500);
  auto b = body_of(r);
  EXPECT_EQ(b["error"]["code"], "internal");
  std::string message = b["error"]["message"];
  EXPECT_NE(message.find(b["requestMetadata"]["id"].get<std::string>()), std::string::npos);
  EXPECT_EQ(message.find("vector"), std::string::npos);  // internals stay in the log
}

TEST_F(ServerTest, BodyOverTheLimitIs413Json) {
  auto r = client->Post("/echo", std::string(4096, 'x'), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_EQ(body_of(r)["error"]["code"], "payload_too_large");
  auto small = client->Post("/echo", std::string(100, 'x'), "application/json");
  ASSERT_TRUE(small);
  EXPECT_EQ(body_of(small)["length"], 100);
}

TEST_F(ServerTest, RawBodiesKeepTheirContentType) {
  auto r = client->Get("/png");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->get_header_value("Content-Type"), "image/png");
  EXPECT_EQ(r->body, "\x89PNG");
}

// Issue 41, item 2: an answer has a size, and one past it is a documented error, not the bytes.
TEST_F(ServerTest, AnAnswerOverTheLimitIs502AnswerTooLarge) {
  auto fits = client->Get("/sized?n=60000");
  ASSERT_TRUE(fits);
  EXPECT_EQ(fits->status, 200);
  EXPECT_EQ(body_of(fits)["text"].get<std::string>().size(), 60000u);
  EXPECT_LE(fits->body.size(), 64u * 1024);

  auto r = client->Get("/sized?n=" + std::to_string(64 * 1024));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 502) << r->body.substr(0, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "application/json");
  const json b = body_of(r);
  EXPECT_EQ(b["requestMetadata"]["status"], "error");
  EXPECT_EQ(b["error"]["code"], "answer_too_large");
  EXPECT_NE(b["error"]["message"].get<std::string>().find("65536 bytes"), std::string::npos)
      << r->body;
  EXPECT_LT(r->body.size(), 1024u);
}
