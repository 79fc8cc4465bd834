#pragma once
#include "core/error.h"

#include <string>

namespace gleaner::cdp {

enum class ErrorKind {
  Timeout,   ///< no reply before the call's deadline
  Closed,    ///< the connection closed or the session detached before the reply
  Crashed,   ///< the target (page) crashed
  Protocol,  ///< Chromium answered with an error object
};

/// A failed DevTools call. Always names the method. Maps to the service's errors: a timeout is a
/// 504, a crashed page a 502, a closed browser a 503, a protocol error a 500 (a bug of ours)
/// unless a caller above knows better.
class Error : public gleaner::Error {
 public:
  Error(ErrorKind kind, std::string method, std::string detail);
  ErrorKind kind() const { return kind_; }
  const std::string& method() const { return method_; }

 private:
  ErrorKind kind_;
  std::string method_;
};

const char* kind_name(ErrorKind kind);

}  // namespace gleaner::cdp
