#include "cdp/error.h"

namespace gleaner::cdp {
namespace {

ErrorCode service_code(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Timeout: return ErrorCode::Timeout;
    case ErrorKind::Closed: return ErrorCode::Unavailable;
    case ErrorKind::Crashed: return ErrorCode::UpstreamError;
    case ErrorKind::Protocol: return ErrorCode::Internal;
  }
  return ErrorCode::Internal;
}

std::string client_message(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Timeout: return "the browser did not answer in time";
    case ErrorKind::Closed: return "the browser went away while handling the request";
    case ErrorKind::Crashed: return "the page crashed the browser tab";
    case ErrorKind::Protocol: return "internal error while driving the browser";
  }
  return "internal error";
}

}  // namespace

const char* kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Timeout: return "timeout";
    case ErrorKind::Closed: return "closed";
    case ErrorKind::Crashed: return "crashed";
    case ErrorKind::Protocol: return "protocol error";
  }
  return "?";
}

Error::Error(ErrorKind kind, std::string method, std::string detail)
    : gleaner::Error(service_code(kind), client_message(kind),
                     method + ": " + kind_name(kind) + (detail.empty() ? "" : ": " + detail)),
      kind_(kind),
      method_(std::move(method)) {}

}  // namespace gleaner::cdp
