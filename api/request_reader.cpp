#include "api/request_reader.h"

#include <algorithm>
#include <cctype>

namespace gleaner::api {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

/// RFC 9110 token characters (method and field names).
bool is_token(std::string_view s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return std::isalnum(c) ||
           std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos;
  });
}

/// The items of a comma-separated field value, trimmed and lower-cased, empty ones dropped.
std::vector<std::string> list_items(std::string_view value) {
  std::vector<std::string> items;
  while (!value.empty()) {
    auto comma = value.find(',');
    auto item = trim(value.substr(0, comma));
    if (!item.empty()) items.push_back(lower(item));
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return items;
}

/// The line at the start of `data` without its end (CRLF or a bare LF), and its length with the
/// end; npos when no line end has arrived yet.
std::size_t next_line(std::string_view data, std::string_view& line) {
  auto lf = data.find('\n');
  if (lf == std::string_view::npos) return std::string_view::npos;
  line = data.substr(0, lf);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return lf + 1;
}

}  // namespace

std::size_t RequestReader::buffered_body() const {
  if (state_ == State::FixedBody || state_ == State::ChunkData) {
    return request_.body.size() + remaining_;
  }
  return request_.body.size();
}

RequestReader::Progress RequestReader::fail(int status, ErrorCode code, std::string message) {
  std::string().swap(request_.body);  // never read again
  state_ = State::Failed;
  error_ = ReadError{status, code, std::move(message)};
  return Progress::Failed;
}

IncomingRequest RequestReader::take() {
  IncomingRequest out = std::move(request_);
  request_ = IncomingRequest{};
  state_ = State::Head;
  expects_continue_ = false;
  remaining_ = 0;
  trailer_bytes_ = 0;
  head_scanned_ = head_searched_ = 0;
  return out;
}

RequestReader::Progress RequestReader::read(std::string_view data, std::size_t& used) {
  used = 0;
  if (state_ == State::Done) return Progress::Done;
  if (state_ == State::Failed) return Progress::Failed;
  if (state_ == State::Head) {
    const Progress p = read_head(data, used);
    if (p != Progress::NeedMore || state_ == State::Head) return p;
  }
  std::size_t body_used = 0;
  const Progress p = read_body(data.substr(used), body_used);
  used += body_used;
  return p;
}

RequestReader::Progress RequestReader::read_head(std::string_view data, std::size_t& used) {
  // Empty lines before a request line are skipped (RFC 9112 section 2.2): some clients send a
  // CRLF after a body.
  std::size_t start = 0;
  while (start < data.size() && (data[start] == '\r' || data[start] == '\n')) {
    if (data[start] == '\r' && (start + 1 >= data.size() || data[start + 1] != '\n')) break;
    start += data[start] == '\r' ? 2 : 1;
  }
  std::string_view head = data.substr(start);
  if (start > 0) head_scanned_ = head_searched_ = 0;  // positions below are relative to `head`

  // The head ends with an empty line. Nothing is scanned twice: a client that sends its head a
  // byte at a time costs one look at each byte, not one look at the whole head per byte.
  std::size_t pos = head_scanned_;  // start of the first line not yet complete
  for (;;) {
    const std::size_t lf = head.find('\n', std::max(pos, head_searched_));
    const bool first_line = pos == 0;
    if (lf == std::string_view::npos) {
      const std::size_t pending = head.size() - pos;
      if (first_line && pending > limits_.max_line_bytes) {
        return fail(414, ErrorCode::InvalidParameter, "the request line is longer than the limit");
      }
      if (head.size() > limits_.max_head_bytes || pending > limits_.max_line_bytes) {
        return fail(431, ErrorCode::PayloadTooLarge,
                    "the request headers are larger than the limit");
      }
      head_scanned_ = pos;
      head_searched_ = head.size();
      used = start;  // the skipped empty lines
      return Progress::NeedMore;
    }
    std::size_t length = lf - pos;
    if (length > 0 && head[lf - 1] == '\r') --length;
    if (length > limits_.max_line_bytes) {
      return first_line ? fail(414, ErrorCode::InvalidParameter,
                               "the request line is longer than the limit")
                        : fail(431, ErrorCode::PayloadTooLarge,
                               "the request headers are larger than the limit");
    }
    pos = lf + 1;
    if (pos > limits_.max_head_bytes) {
      return fail(431, ErrorCode::PayloadTooLarge, "the request headers are larger than the limit");
    }
    if (length == 0) break;
  }
  used = start + pos;
  head_scanned_ = head_searched_ = 0;
  std::vector<std::string_view> lines;
  for (std::size_t at = 0;;) {
    std::string_view line;
    at += next_line(head.substr(at), line);
    if (line.empty()) break;
    lines.push_back(line);
  }
  if (lines.empty()) return fail(400, ErrorCode::InvalidParameter, "malformed HTTP request line");

  // Request line: METHOD SP target SP version.
  const std::string_view request_line = lines.front();
  const auto sp1 = request_line.find(' ');
  const auto sp2 = sp1 == std::string_view::npos ? sp1 : request_line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || request_line.find(' ', sp2 + 1) != std::string_view::npos) {
    return fail(400, ErrorCode::InvalidParameter, "malformed HTTP request line");
  }
  request_.method = std::string(request_line.substr(0, sp1));
  request_.target = std::string(request_line.substr(sp1 + 1, sp2 - sp1 - 1));
  request_.version = std::string(request_line.substr(sp2 + 1));
  if (!is_token(request_.method) || request_.target.empty()) {
    return fail(400, ErrorCode::InvalidParameter, "malformed HTTP request line");
  }
  for (unsigned char c : request_.target) {
    if (c <= ' ' || c == 0x7f) {
      return fail(400, ErrorCode::InvalidParameter, "malformed HTTP request line");
    }
  }
  if (request_.version != "HTTP/1.1" && request_.version != "HTTP/1.0") {
    return fail(400, ErrorCode::InvalidParameter, "only HTTP/1.0 and HTTP/1.1 are served");
  }
  body_limit_ = limits_.max_body_bytes;
  if (limits_.body_limit_of) {
    if (const std::size_t own = limits_.body_limit_of(request_.method, request_.target); own > 0)
      body_limit_ = own;
  }

  // Header fields. The framing ones are read here and left out of the request.
  std::vector<std::string> lengths;
  std::vector<std::string> codings;
  bool has_transfer_encoding = false;
  std::vector<std::string> connection;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    if (line.front() == ' ' || line.front() == '\t') {
      return fail(400, ErrorCode::InvalidParameter, "folded header lines are not accepted");
    }
    const auto colon = line.find(':');
    if (colon == std::string_view::npos || !is_token(line.substr(0, colon))) {
      return fail(400, ErrorCode::InvalidParameter, "malformed HTTP header line");
    }
    const std::string_view name = line.substr(0, colon);
    const std::string_view value = trim(line.substr(colon + 1));
    for (unsigned char c : value) {
      if (c == '\0' || c == '\r' || c == '\n') {
        return fail(400, ErrorCode::InvalidParameter, "malformed HTTP header line");
      }
    }
    const std::string key = lower(name);
    if (key == "content-length") {
      auto items = list_items(value);
      if (items.empty()) items.push_back("");  // checked below: not a number
      for (auto& item : items) lengths.push_back(std::move(item));
    } else if (key == "transfer-encoding") {
      has_transfer_encoding = true;
      for (auto& item : list_items(value)) codings.push_back(std::move(item));
    } else if (key == "expect") {
      if (lower(value) == "100-continue") expects_continue_ = true;
    } else {
      if (key == "connection") {
        for (auto& item : list_items(value)) connection.push_back(std::move(item));
      }
      request_.headers.emplace_back(std::string(name), std::string(value));
    }
  }

  const auto has = [&](const char* token) {
    return std::find(connection.begin(), connection.end(), token) != connection.end();
  };
  request_.keep_alive = request_.version == "HTTP/1.1" ? !has("close") : has("keep-alive");

  // Body framing (RFC 9112 section 6.3). A request with both is a smuggling attempt or a broken
  // client: either way its end cannot be trusted.
  if (has_transfer_encoding && !lengths.empty()) {
    return fail(400, ErrorCode::InvalidParameter,
                "a request may not carry both Content-Length and Transfer-Encoding");
  }
  if (has_transfer_encoding) {
    if (request_.version != "HTTP/1.1") {
      return fail(400, ErrorCode::InvalidParameter, "Transfer-Encoding needs HTTP/1.1");
    }
    if (codings != std::vector<std::string>{"chunked"}) {
      return fail(501, ErrorCode::InvalidParameter, "only the chunked transfer coding is accepted");
    }
    request_.framed_body = true;
    state_ = State::ChunkSize;
    return Progress::NeedMore;
  }
  if (!lengths.empty()) {
    for (const auto& l : lengths) {
      if (l.empty() ||
          !std::all_of(l.begin(), l.end(), [](unsigned char c) { return std::isdigit(c); }) ||
          l != lengths.front()) {
        return fail(400, ErrorCode::InvalidParameter,
                    "Content-Length must be one non-negative whole number");
      }
    }
    // Compared as text first so that no length overflows: leading zeros aside, more digits than
    // the limit has means larger.
    std::string_view digits = lengths.front();
    while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
    const std::string limit = std::to_string(body_limit_);
    if (digits.size() > limit.size() || (digits.size() == limit.size() && digits > limit)) {
      return fail(413, ErrorCode::PayloadTooLarge, "request body is larger than the limit");
    }
    remaining_ = std::stoull(std::string(digits));
    // One buffer of the announced size rather than a string that doubles as the body arrives:
    // the connections' budget counts the announced size (api/connections.h), and untouched
    // pages of it cost no memory.
    request_.body.reserve(remaining_);
    request_.framed_body = true;
    state_ = remaining_ == 0 ? State::Done : State::FixedBody;
    return state_ == State::Done ? Progress::Done : Progress::NeedMore;
  }
  // Neither: the body is empty (a POST without Content-Length is not read until the client
  // closes).
  state_ = State::Done;
  return Progress::Done;
}

RequestReader::Progress RequestReader::read_body(std::string_view data, std::size_t& used) {
  used = 0;
  for (;;) {
    std::string_view rest = data.substr(used);
    switch (state_) {
      case State::FixedBody:
      case State::ChunkData: {
        const std::size_t n = std::min(remaining_, rest.size());
        request_.body.append(rest.data(), n);
        used += n;
        remaining_ -= n;
        if (remaining_ > 0) return Progress::NeedMore;
        if (state_ == State::FixedBody) {
          state_ = State::Done;
          return Progress::Done;
        }
        state_ = State::ChunkEnd;
        break;
      }
      case State::ChunkEnd: {
        std::string_view line;
        const std::size_t n = next_line(rest, line);
        if (n == std::string_view::npos) {
          if (rest.size() >= 2)
            return fail(400, ErrorCode::InvalidParameter, "malformed chunked body");
          return Progress::NeedMore;
        }
        if (!line.empty()) return fail(400, ErrorCode::InvalidParameter, "malformed chunked body");
        used += n;
        state_ = State::ChunkSize;
        break;
      }
      case State::ChunkSize: {
        std::string_view line;
        const std::size_t n = next_line(rest, line);
        constexpr std::size_t kMaxSizeLine = 1024;  // size and extensions
        if (n == std::string_view::npos) {
          if (rest.size() > kMaxSizeLine) {
            return fail(400, ErrorCode::InvalidParameter, "malformed chunked body");
          }
          return Progress::NeedMore;
        }
        if (line.size() > kMaxSizeLine) {
          return fail(400, ErrorCode::InvalidParameter, "malformed chunked body");
        }
        used += n;
        const std::string_view size_text = trim(line.substr(0, line.find(';')));
        if (size_text.empty() || !std::all_of(size_text.begin(), size_text.end(),
                                              [](unsigned char c) { return std::isxdigit(c); })) {
          return fail(400, ErrorCode::InvalidParameter, "malformed chunked body");
        }
        std::string_view digits = size_text;
        while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
        // Fifteen hex digits stay far below size_t's range; anything longer is over any limit.
        if (digits.size() > 15) {
          return fail(413, ErrorCode::PayloadTooLarge, "request body is larger than the limit");
        }
        const std::size_t size = std::stoull(std::string(digits), nullptr, 16);
        if (size > body_limit_ - request_.body.size()) {
          return fail(413, ErrorCode::PayloadTooLarge, "request body is larger than the limit");
        }
        if (size == 0) {
          state_ = State::Trailers;
        } else {
          remaining_ = size;
          state_ = State::ChunkData;
        }
        break;
      }
      case State::Trailers: {
        // Trailer fields are read and dropped; an empty line ends the request.
        std::string_view line;
        const std::size_t n = next_line(rest, line);
        if (n == std::string_view::npos) {
          if (trailer_bytes_ + rest.size() > limits_.max_head_bytes) {
            return fail(431, ErrorCode::PayloadTooLarge,
                        "the request headers are larger than the limit");
          }
          return Progress::NeedMore;
        }
        used += n;
        trailer_bytes_ += n;
        if (trailer_bytes_ > limits_.max_head_bytes) {
          return fail(431, ErrorCode::PayloadTooLarge,
                      "the request headers are larger than the limit");
        }
        if (line.empty()) {
          state_ = State::Done;
          return Progress::Done;
        }
        break;
      }
      case State::Head:
      case State::Done: return Progress::Done;
      case State::Failed: return Progress::Failed;
    }
  }
}

}  // namespace gleaner::api
