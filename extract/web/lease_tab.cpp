#include "extract/web/lease_tab.h"

namespace gleaner::web {

extract::Navigation LeaseTab::navigate(const std::string& url, const extract::WaitFor& wait,
                                       Deadline deadline) {
  using Kind = extract::WaitFor::Kind;
  browser::WaitSpec spec;
  switch (wait.kind) {
    case Kind::Load: spec = browser::WaitSpec::load(); break;
    case Kind::DomContentLoaded: spec = browser::WaitSpec::dom_content_loaded(); break;
    case Kind::NetworkIdle: spec = browser::WaitSpec::network_idle(); break;
    case Kind::Selector: spec = browser::WaitSpec::selector_of(wait.selector); break;
    case Kind::FixedWait: spec = browser::WaitSpec::fixed_wait(wait.extra); break;
  }
  if (wait.kind != Kind::FixedWait) spec = spec.then_wait(wait.extra);
  browser::NavigationResult result = lease_->navigate(url, spec, deadline);
  return {std::move(result.url), result.status, std::move(result.headers)};
}

nlohmann::json LeaseTab::evaluate(const std::string& expression, Deadline deadline,
                                  extract::World world) {
  return world == extract::World::Page ? lease_->evaluate(expression, deadline)
                                       : lease_->evaluate_isolated(expression, deadline);
}

}  // namespace gleaner::web
