// CPU time one request's XPath budget lasts: the selectors that ran for minutes before the budget
// (#41), evaluated over pages of about 20,000 elements until the budget stops them, and an
// ordinary rule set over the same page for scale.
//
//   xpath_budget [--runs N]
//
// Reports, for each selector, the median of --runs runs (default 5) of thread CPU time and the
// steps it used.
#include <algorithm>
#include <ctime>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/error.h"
#include "extract/html/document.h"
#include "extract/rules/rules.h"

namespace {

using nlohmann::json;
using namespace gleaner;

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

/// 20,000 sibling divs: where sibling combinators inside :has() are at their worst.
std::string flat_page() {
  std::string page = "<!doctype html><html><body>";
  for (int i = 0; i < 20'000; ++i) page += "<div><span>x</span></div>";
  return page + "</body></html>";
}

std::string large_page() {
  std::string page = "<!doctype html><html><body>";
  for (int i = 0; i < 200; ++i) {
    page += "<div class='row'>";
    for (int j = 0; j < 49; ++j) page += "<div class='cell'><span>x</span></div>";
    page += "</div>";
  }
  return page + "</body></html>";
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 5;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--runs") runs = std::stoi(argv[++i]);
  }
  const html::Document nested = html::Document::parse(large_page());
  const html::Document flat = html::Document::parse(flat_page());
  struct Case {
    std::string name;
    const html::Document* doc;
    json rules;
  };
  const std::vector<Case> cases = {
      {"ordinary rules (200 rows of 49 cells)",
       &nested,
       {{"rows", {{"selector", ".row"}, {"type", "list"}, {"output", {{"n", "span"}}}}}}},
      {"//*/following::*/preceding::*/following::* (200 rows of 49 cells)",
       &nested,
       {{"x", "//*/following::*/preceding::*/following::*"}}},
      {"div:has(~ div:has(~ div)) span (200 rows of 49 cells)",
       &nested,
       {{"x", "div:has(~ div:has(~ div)) span"}}},
      {"div:has(~ div:has(~ div)) span (20,000 sibling divs)",
       &flat,
       {{"x", "div:has(~ div:has(~ div)) span"}}},
  };
  std::cout << "pages of about 20,000 elements; budget " << html::XPathBudget::kDefaultSteps
            << " steps or " << html::XPathBudget::kMaxTime.count() << " ms\n";
  for (const auto& [name, doc, rules_json] : cases) {
    const rules::Rules rules = rules::parse_rules(rules_json, "extractRules");
    std::vector<double> ms;
    unsigned long used = 0;
    std::string outcome;
    for (int r = 0; r < runs; ++r) {
      html::XPathBudget budget = html::XPathBudget::for_request(deadline_in(Millis(3'600'000)));
      const double start = thread_cpu_ms();
      try {
        rules::apply_rules(rules, *doc, budget);
        outcome = "finished";
      } catch (const Error& e) {
        outcome = std::string(code_name(e.code()));
      }
      ms.push_back(thread_cpu_ms() - start);
      used = budget.limit() - budget.steps_left();
    }
    std::sort(ms.begin(), ms.end());
    std::cout << name << ": " << outcome << ", " << used << " steps, median " << ms[ms.size() / 2]
              << " ms CPU\n";
  }
}
