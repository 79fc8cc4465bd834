// RequestReader on bytes fed to it directly: framing, limits at the moment they are exceeded, and
// what is left over for a pipelined request.
#include "api/request_reader.h"

#include <gtest/gtest.h>

using namespace gleaner;
using namespace gleaner::api;

namespace {

RequestReader::Limits limits(std::size_t body = 1024) {
  RequestReader::Limits l;
  l.max_body_bytes = body;
  l.max_line_bytes = 256;
  l.max_head_bytes = 1024;
  return l;
}

/// Feeds `bytes` in pieces of `step`, as a connection would, keeping what the reader leaves.
struct Feed {
  RequestReader reader;
  std::string pending;
  RequestReader::Progress last = RequestReader::Progress::NeedMore;

  explicit Feed(RequestReader::Limits l) : reader(l) {}
  RequestReader::Progress push(std::string_view bytes, std::size_t step = 1) {
    for (std::size_t i = 0; i < bytes.size(); i += step) {
      pending.append(bytes.substr(i, step));
      std::size_t used = 0;
      last = reader.read(pending, used);
      pending.erase(0, used);
      if (last != RequestReader::Progress::NeedMore) return last;
    }
    return last;
  }
};

std::string header_value(const IncomingRequest& r, const std::string& name) {
  for (const auto& [k, v] : r.headers) {
    if (k == name) return v;
  }
  return "<absent>";
}

}  // namespace

TEST(RequestReader, ReadsAHeadAndBodyArrivingByteByByte) {
  Feed f(limits());
  ASSERT_EQ(f.push("POST /echo?x=1 HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\n"
                   "Content-Length: 5\r\n\r\nhello"),
            RequestReader::Progress::Done);
  IncomingRequest r = f.reader.take();
  EXPECT_EQ(r.method, "POST");
  EXPECT_EQ(r.target, "/echo?x=1");
  EXPECT_EQ(r.body, "hello");
  EXPECT_TRUE(r.framed_body);
  EXPECT_TRUE(r.keep_alive);
  EXPECT_EQ(header_value(r, "Content-Type"), "text/plain");
  EXPECT_EQ(header_value(r, "Content-Length"), "<absent>");  // framing is taken off
}

TEST(RequestReader, DechunksWhateverTheSplits) {
  const std::string wire =
      "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
      "5;ext=1\r\nhello\r\n1\r\n \r\n005\r\nworld\r\n0\r\nTrailer: x\r\n\r\n";
  for (std::size_t step : {1u, 3u, 7u, 1000u}) {
    Feed f(limits());
    ASSERT_EQ(f.push(wire, step), RequestReader::Progress::Done) << step;
    IncomingRequest r = f.reader.take();
    EXPECT_EQ(r.body, "hello world") << step;
    EXPECT_EQ(header_value(r, "Transfer-Encoding"), "<absent>");
  }
}

TEST(RequestReader, LeavesAPipelinedRequestUnread) {
  Feed f(limits());
  ASSERT_EQ(f.push("GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.1\r\n\r\n", 1000),
            RequestReader::Progress::Done);
  EXPECT_EQ(f.reader.take().target, "/a");
  EXPECT_EQ(f.pending, "GET /b HTTP/1.1\r\n\r\n");
  std::size_t used = 0;
  ASSERT_EQ(f.reader.read(f.pending, used), RequestReader::Progress::Done);
  EXPECT_EQ(used, f.pending.size());
  EXPECT_EQ(f.reader.take().target, "/b");
}

TEST(RequestReader, SkipsEmptyLinesBeforeARequestWhateverTheSplits) {
  for (std::size_t step : {1u, 2u, 5u, 1000u}) {
    Feed f(limits());
    ASSERT_EQ(f.push("\r\n\r\nGET /x HTTP/1.1\r\nA: b\r\n\r\n", step),
              RequestReader::Progress::Done)
        << step;
    IncomingRequest r = f.reader.take();
    EXPECT_EQ(r.target, "/x") << step;
    EXPECT_EQ(header_value(r, "A"), "b") << step;
  }
}

TEST(RequestReader, APostWithoutLengthHasAnEmptyBody) {
  Feed f(limits());
  ASSERT_EQ(f.push("POST /echo HTTP/1.1\r\nHost: a\r\n\r\n"), RequestReader::Progress::Done);
  IncomingRequest r = f.reader.take();
  EXPECT_EQ(r.body, "");
  EXPECT_FALSE(r.framed_body);
}

TEST(RequestReader, RefusesABodyOverTheLimitAsSoonAsItIsKnown) {
  {
    Feed f(limits(10));
    // The head alone says too much: refused before any body byte.
    ASSERT_EQ(f.push("POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n"),
              RequestReader::Progress::Failed);
    EXPECT_EQ(f.reader.error().status, 413);
    EXPECT_EQ(f.reader.error().code, ErrorCode::PayloadTooLarge);
  }
  {
    Feed f(limits(10));
    ASSERT_EQ(f.push("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999999\r\n\r\n"),
              RequestReader::Progress::Failed);
    EXPECT_EQ(f.reader.error().status, 413);
  }
  {
    Feed f(limits(10));
    // Chunks: the one that crosses the limit is refused by its size line, before its data.
    ASSERT_EQ(f.push("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n5\r\n"),
              RequestReader::Progress::Failed);
    EXPECT_EQ(f.reader.error().status, 413);
  }
  {
    Feed f(limits(10));
    ASSERT_EQ(f.push("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                     "fffffffffffffffffffff\r\n"),
              RequestReader::Progress::Failed);
    EXPECT_EQ(f.reader.error().status, 413);
  }
}

// A route's own limit (a batch of URLs) replaces the server's for its requests only, both ways:
// larger bodies reach it, and it refuses past its own limit, chunked or not.
TEST(RequestReader, ARoutesOwnBodyLimitReplacesTheServersForItsRequests) {
  RequestReader::Limits l = limits(10);
  l.body_limit_of = [](std::string_view method, std::string_view target) -> std::size_t {
    return method == "POST" && target.substr(0, target.find('?')) == "/batch" ? 20 : 0;
  };
  const std::string fifteen(15, 'a');
  {
    Feed f(l);
    ASSERT_EQ(f.push("POST /batch?x=1 HTTP/1.1\r\nContent-Length: 15\r\n\r\n" + fifteen),
              RequestReader::Progress::Done);
    EXPECT_EQ(f.reader.take().body, fifteen);
    // The next request on the connection is another route's: the server's limit again.
    ASSERT_EQ(f.push("POST /other HTTP/1.1\r\nContent-Length: 15\r\n\r\n"),
              RequestReader::Progress::Failed);
    EXPECT_EQ(f.reader.error().status, 413);
  }
  {
    Feed f(l);
    ASSERT_EQ(f.push("POST /batch HTTP/1.1\r\nContent-Length: 21\r\n\r\n"),
              RequestReader::Progress::Failed);
    EXPECT_EQ(f.reader.error().status, 413);
  }
  {
    Feed f(l);
    ASSERT_EQ(f.push("POST /batch HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                     "f\r\n" +
                     fifteen + "\r\n6\r\n"),
              RequestReader::Progress::Failed);
    EXPECT_EQ(f.reader.error().status, 413);
  }
}

TEST(RequestReader, RefusesFramingItCannotTrust) {
  const std::pair<const char*, int> cases[] = {
      {"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\nContent-Length: \r\n\r\n", 400},
      {"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501},
      {"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n", 400},
      {"GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", 400},
      {"GET / HTTP/1.1\r\nNo colon\r\n\r\n", 400},
      {"GET / HTTP/2.0\r\n\r\n", 400},
      {"GET  / HTTP/1.1\r\n\r\n", 400},
  };
  for (const auto& [wire, status] : cases) {
    Feed f(limits());
    ASSERT_EQ(f.push(wire, 1000), RequestReader::Progress::Failed) << wire;
    EXPECT_EQ(f.reader.error().status, status) << wire;
  }
}

TEST(RequestReader, RefusesAHeadOverItsLimitBeforeItEnds) {
  Feed f(limits());
  EXPECT_EQ(f.push("GET /" + std::string(300, 'a')), RequestReader::Progress::Failed);
  EXPECT_EQ(f.reader.error().status, 414);

  Feed g(limits());
  std::string head = "GET / HTTP/1.1\r\n";
  for (int i = 0; i < 20; ++i)
    head += "X-Filler-" + std::to_string(i) + ": " + std::string(60, 'v') + "\r\n";
  EXPECT_EQ(g.push(head), RequestReader::Progress::Failed);  // no end of head needed
  EXPECT_EQ(g.reader.error().status, 431);
}

TEST(RequestReader, KnowsWhenTheConnectionMayStayOpen) {
  const std::pair<const char*, bool> cases[] = {
      {"GET / HTTP/1.1\r\n\r\n", true},
      {"GET / HTTP/1.1\r\nConnection: Close\r\n\r\n", false},
      {"GET / HTTP/1.0\r\n\r\n", false},
      {"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", true},
  };
  for (const auto& [wire, keep] : cases) {
    Feed f(limits());
    ASSERT_EQ(f.push(wire, 1000), RequestReader::Progress::Done) << wire;
    EXPECT_EQ(f.reader.take().keep_alive, keep) << wire;
  }
}

TEST(RequestReader, SaysWhenTheBodyIsAwaitedAfter100Continue) {
  Feed f(limits());
  EXPECT_EQ(f.push("POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n", 1000),
            RequestReader::Progress::NeedMore);
  EXPECT_TRUE(f.reader.awaiting_body());
  EXPECT_TRUE(f.reader.expects_continue());
  EXPECT_EQ(f.push("abc"), RequestReader::Progress::Done);
  EXPECT_EQ(header_value(f.reader.take(), "Expect"), "<absent>");
}
