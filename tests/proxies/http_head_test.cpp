// Request and response heads as the gateway reads and rewrites them, and Basic credentials.
#include "proxies/http_head.h"

#include <gtest/gtest.h>

using namespace gleaner::proxies;

TEST(HttpHead, ParsesAProxyRequest) {
  auto head = parse_request_head(
      "GET http://example.com/a?b HTTP/1.1\r\nHost: example.com\r\n"
      "Proxy-Authorization: Basic YTpi\r\nX-Empty:\r\nAccept:  text/html \r\n\r\n");
  ASSERT_TRUE(head);
  EXPECT_EQ(head->method, "GET");
  EXPECT_EQ(head->target, "http://example.com/a?b");
  EXPECT_EQ(head->version, "HTTP/1.1");
  EXPECT_EQ(head->fields.get("host"), "example.com");
  EXPECT_EQ(head->fields.get("ACCEPT"), "text/html");
  EXPECT_EQ(head->fields.get("X-Empty"), "");
  EXPECT_FALSE(head->fields.get("Cookie"));
}

TEST(HttpHead, RejectsMalformedHeads) {
  for (const char* bad : {"", "\r\n\r\n", "GET\r\n\r\n", "GET / HTTP/2\r\n\r\n",
                          "GET  / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1\r\nNo colon\r\n\r\n",
                          "GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n",
                          "G(T / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1\r\nBad Name: x\r\n\r\n"})
    EXPECT_FALSE(parse_request_head(bad)) << bad;
  for (const char* bad : {"HTTP/1.1 20 OK\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n", "HTTP/3 200 OK\r\n\r\n",
                          "ICY 200 OK\r\n\r\n", "HTTP/1.1 abc\r\n\r\n"})
    EXPECT_FALSE(parse_response_head(bad)) << bad;
}

TEST(HttpHead, ParsesResponses) {
  auto ok = parse_response_head("HTTP/1.1 200 Connection established\r\n\r\n");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->status, 200);
  EXPECT_EQ(ok->reason, "Connection established");
  auto bare = parse_response_head("HTTP/1.0 407\nProxy-Authenticate: Basic\n\n");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->status, 407);
  EXPECT_EQ(bare->fields.get("proxy-authenticate"), "Basic");
}

TEST(HttpHead, HopByHopFieldsAreDropped) {
  auto head = parse_request_head(
      "GET http://e/ HTTP/1.1\r\nHost: e\r\nConnection: keep-alive, X-Secret\r\nX-Secret: 1\r\n"
      "Proxy-Connection: keep-alive\r\nKeep-Alive: 300\r\nProxy-Authorization: Basic YTpi\r\n"
      "TE: trailers\r\nUpgrade: h2c\r\nCookie: a=b\r\n\r\n");
  ASSERT_TRUE(head);
  head->fields.remove_hop_by_hop();
  head->target = "/";
  EXPECT_EQ(head->serialize(), "GET / HTTP/1.1\r\nHost: e\r\nCookie: a=b\r\n\r\n");
}

TEST(HttpHead, SerializesResponses) {
  ResponseHead head;
  head.status = 403;
  head.reason = "Forbidden";
  head.fields.add("X-Gleaner-Refused", "private-address");
  EXPECT_EQ(head.serialize(), "HTTP/1.1 403 Forbidden\r\nX-Gleaner-Refused: private-address\r\n\r\n");
}

TEST(BasicCredentials, RoundTrip) {
  EXPECT_EQ(basic_credentials("Aladdin", "open sesame"), "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
  for (const auto& [user, password] : std::vector<std::pair<std::string, std::string>>{
           {"a", "b"}, {"ab", "cd"}, {"abc", ""}, {"lease-1", "p:with:colons"}, {"", ""}}) {
    auto parsed = parse_basic_credentials(basic_credentials(user, password));
    ASSERT_TRUE(parsed) << user;
    EXPECT_EQ(parsed->first, user);
    EXPECT_EQ(parsed->second, password);
  }
  EXPECT_EQ(parse_basic_credentials("basic   QWxhZGRpbjpvcGVuIHNlc2FtZQ==")->first, "Aladdin");
  for (const char* bad : {"", "Basic", "Bearer QWxhZGRpbjpvcGVuIHNlc2FtZQ==", "Basic ***",
                          "Basic YWJj" /* "abc": no colon */})
    EXPECT_FALSE(parse_basic_credentials(bad)) << bad;
}
