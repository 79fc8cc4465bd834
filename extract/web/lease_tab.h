#pragma once
// A leased browser page presented as an extract::Tab, so POST /scrape/web's jsScenario runner
// (written against the Tab interface) runs on today's page fetch. It goes when fetch.cpp becomes a
// client of the page opener that hands out Tabs itself (issue 22).
#include "browser/pool.h"
#include "extract/tab.h"

namespace gleaner::web {

class LeaseTab final : public extract::Tab {
 public:
  explicit LeaseTab(browser::Lease& lease) : lease_(lease) {}
  extract::Navigation navigate(const std::string& url, const extract::WaitFor& wait,
                               Deadline deadline) override;
  nlohmann::json evaluate(const std::string& expression, Deadline deadline,
                          extract::World world) override;

 private:
  browser::Lease& lease_;
};

}  // namespace gleaner::web
