#include "core/error.h"

#include <gtest/gtest.h>

using namespace gleaner;

TEST(Error, StatusAndNameOfEveryCode) {
  struct Row {
    ErrorCode code;
    int status;
    const char* name;
  };
  const Row rows[] = {
      {ErrorCode::InvalidParameter, 400, "invalid_parameter"},
      {ErrorCode::MissingParameter, 400, "missing_parameter"},
      {ErrorCode::ConflictingParameters, 400, "conflicting_parameters"},
      {ErrorCode::InvalidJson, 400, "invalid_json"},
      {ErrorCode::MissingApiKey, 401, "missing_api_key"},
      {ErrorCode::InvalidApiKey, 401, "invalid_api_key"},
      {ErrorCode::InsufficientCredits, 402, "insufficient_credits"},
      {ErrorCode::NotFound, 404, "not_found"},
      {ErrorCode::MethodNotAllowed, 405, "method_not_allowed"},
      {ErrorCode::PayloadTooLarge, 413, "payload_too_large"},
      {ErrorCode::SessionLost, 409, "session_lost"},
      {ErrorCode::JobNotEnded, 409, "job_not_ended"},
      {ErrorCode::TooManyRequests, 429, "too_many_requests"},
      {ErrorCode::ScenarioFailed, 422, "scenario_failed"},
      {ErrorCode::UpstreamBlocked, 502, "upstream_blocked"},
      {ErrorCode::UpstreamError, 502, "upstream_error"},
      {ErrorCode::ExtractionFailed, 502, "extraction_failed"},
      {ErrorCode::AnswerTooLarge, 502, "answer_too_large"},
      {ErrorCode::StorageQuotaExceeded, 507, "storage_quota_exceeded"},
      {ErrorCode::InsufficientStorage, 507, "insufficient_storage"},
      {ErrorCode::Timeout, 504, "timeout"},
      {ErrorCode::Unavailable, 503, "unavailable"},
      {ErrorCode::NotImplemented, 501, "not_implemented"},
      {ErrorCode::Internal, 500, "internal"},
  };
  for (const auto& r : rows) {
    EXPECT_EQ(http_status(r.code), r.status) << r.name;
    EXPECT_EQ(code_name(r.code), r.name);
  }
}

TEST(Error, AScenarioFailureNamesItsStep) {
  const Error e = Error(ErrorCode::ScenarioFailed, "step 3 failed").with_step(3);
  EXPECT_EQ(e.step().value_or(-1), 3);
  EXPECT_FALSE(Error(ErrorCode::Internal, "x").step());
}

TEST(Error, ShorthandsNameTheParameter) {
  Error e = missing_parameter("q");
  EXPECT_EQ(e.code(), ErrorCode::MissingParameter);
  EXPECT_EQ(e.parameter().value_or(""), "q");
  EXPECT_NE(std::string(e.what()).find("'q'"), std::string::npos);
  EXPECT_EQ(invalid_parameter("rating", "1 to 5").parameter().value_or(""), "rating");
}

TEST(Error, TheLogSeesTheDetailTheClientDoesNot) {
  const Error e(ErrorCode::Internal, "store error", "UNIQUE constraint failed: t.id");
  EXPECT_EQ(std::string(e.what()), "store error");
  EXPECT_EQ(describe(e), "store error: UNIQUE constraint failed: t.id");
  EXPECT_EQ(describe(Error(ErrorCode::Timeout, "too slow")), "too slow");
  EXPECT_EQ(describe(std::runtime_error("plain")), "plain");
}
