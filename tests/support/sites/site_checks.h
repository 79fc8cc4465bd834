#pragma once
// Helpers the site tests share: reading recorded script output and fixture JSON, and what a
// query is refused with.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "core/error.h"
#include "extract/endpoint.h"

namespace gleaner::extract::testing {

/// The JSON file at `path`; fails the test when it cannot be read.
inline nlohmann::json read_json_file(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  return nlohmann::json::parse(in);
}

/// Recorded script output under tests/sites/ (`relative` e.g. "google/data/news/x.json").
inline nlohmann::json recorded(const std::string& relative) {
  return read_json_file(std::string(GLEANER_SOURCE_DIR) + "/tests/sites/" + relative);
}

/// The code and parameter a query is refused with; {Internal, "accepted"} when it is accepted.
inline std::pair<ErrorCode, std::string> rejection(const Endpoint& endpoint,
                                                   const QueryParams& query) {
  try {
    endpoint.validate(query);
  } catch (const Error& e) {
    return {e.code(), e.parameter().value_or("")};
  }
  return {ErrorCode::Internal, "accepted"};
}

/// The code `endpoint.shape(output, params)` fails with; Internal when it succeeds (a test
/// failure is added then).
inline ErrorCode error_of_shape(const Endpoint& endpoint, const nlohmann::json& output,
                                const ValidatedParams& params) {
  try {
    endpoint.shape(output, params);
  } catch (const Error& e) {
    return e.code();
  }
  ADD_FAILURE() << "shape() succeeded";
  return ErrorCode::Internal;
}

/// Shorthand for the expected refusal.
inline std::pair<ErrorCode, std::string> refused(ErrorCode code, std::string parameter) {
  return {code, std::move(parameter)};
}

}  // namespace gleaner::extract::testing
