#pragma once
// Reads one HTTP/1.x request off a connection as its bytes arrive, with every limit applied the
// moment it can be: a head that grows past its limit, a Content-Length above the body limit, a
// chunked body whose chunks add up past it. Nothing here waits or touches a socket, so the front
// (api/connections.h) decides when bytes come and how long it waits for them, and tests feed it
// bytes directly.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"

namespace gleaner::api {

/// A request as read: its head, and its body with the framing taken off (a chunked body arrives
/// de-chunked; Content-Length, Transfer-Encoding and Expect are not among `headers`).
struct IncomingRequest {
  std::string method;
  std::string target;
  std::string version;  ///< HTTP/1.0 or HTTP/1.1
  /// Header fields in the order sent, names as sent; framing headers left out.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  /// Whether the request was framed to carry a body (Content-Length or chunked), even empty.
  bool framed_body = false;
  /// Whether the client lets the connection stay open after the answer.
  bool keep_alive = true;
};

/// Why a request cannot be read: the status and error to answer with, after which the connection
/// is closed (its framing can no longer be trusted).
struct ReadError {
  int status = 400;
  ErrorCode code = ErrorCode::InvalidParameter;
  std::string message;
};

class RequestReader {
 public:
  struct Limits {
    /// The request line and each header line, without the line end. cpp-httplib, which parses
    /// the head again (api/server.cpp), refuses a line of more than 8192 bytes with its CRLF as
    /// "400 malformed", and the head it is given has each header rebuilt as `name: value`, one
    /// byte longer than `name:value`: so 8189, and a line one byte longer is 414 or 431 here.
    std::size_t max_line_bytes = 8189;
    /// The whole head: request line and header fields (and a chunked body's trailers).
    std::size_t max_head_bytes = 64 * 1024;
    /// The body, de-chunked.
    std::size_t max_body_bytes = 1u << 20;
    /// A route's own body limit in place of max_body_bytes, by method and target (the router's,
    /// api/router.h); 0 keeps max_body_bytes. Asked once a head is read.
    std::function<std::size_t(std::string_view method, std::string_view target)> body_limit_of;
  };
  enum class Progress { NeedMore, Done, Failed };

  explicit RequestReader(Limits limits) : limits_(limits) {}

  /// Reads from `data`, the bytes received and not yet used, and sets `used` to how many of them
  /// it took (the caller drops those and keeps the rest for next time: a pipelined request). A
  /// head is only taken once complete, so `data` must begin where the last call left off.
  Progress read(std::string_view data, std::size_t& used);

  /// Whether the head has been read and the body is still to come (for `Expect: 100-continue`).
  bool awaiting_body() const {
    return state_ != State::Head && state_ != State::Done && state_ != State::Failed;
  }
  /// The memory the request's body takes or is about to: a Content-Length body as announced
  /// (its buffer is reserved whole when the head is read), a chunked one as read so far plus
  /// the chunk being read.
  std::size_t buffered_body() const;
  /// Whether the client asked for `100 Continue` before it sends the body.
  bool expects_continue() const { return expects_continue_; }
  /// After Done: the request; the reader is then ready for the next one.
  IncomingRequest take();
  /// After Failed.
  const ReadError& error() const { return error_; }

 private:
  enum class State { Head, FixedBody, ChunkSize, ChunkData, ChunkEnd, Trailers, Done, Failed };

  Progress fail(int status, ErrorCode code, std::string message);
  Progress read_head(std::string_view data, std::size_t& used);
  Progress read_body(std::string_view data, std::size_t& used);

  Limits limits_;
  State state_ = State::Head;
  IncomingRequest request_;
  ReadError error_;
  bool expects_continue_ = false;
  std::size_t body_limit_ = 0;     ///< this request's body limit (Limits::body_limit_of)
  std::size_t remaining_ = 0;      ///< body or chunk bytes still to come
  std::size_t trailer_bytes_ = 0;  ///< trailer bytes read so far
  std::size_t head_scanned_ = 0;   ///< head bytes in complete lines already checked
  std::size_t head_searched_ = 0;  ///< head bytes already searched for a line end
};

}  // namespace gleaner::api
