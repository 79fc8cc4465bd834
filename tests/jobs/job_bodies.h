#pragma once
// A valid POST /scrapers/maps/jobs body with every field, shared by the validation and route tests.
#include <nlohmann/json.hpp>

namespace gleaner::jobs::testing {

inline nlohmann::json valid_job_body() {
  return {{"keywords", {"coffee"}},
          {"locations", {"CUSTOM>Athens, Greece"}},
          {"extractEmails", true},
          {"limit", 20},
          {"webhook",
           {{"url", "https://hooks.example.com/in"},
            {"events", {"scraper.job.finished"}},
            {"headers", {{"X-Token", "s3cret"}}}}}};
}

}  // namespace gleaner::jobs::testing
