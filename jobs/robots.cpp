#include "jobs/robots.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "jobs/crawl_url.h"

namespace gleaner::jobs {
namespace {

/// A group as read: its agents and its lines.
struct Group {
  std::vector<std::string> agents;
  std::vector<std::pair<std::string, std::string>> lines;  // lower-case key, value
};

}  // namespace

bool robots_pattern_matches(std::string_view pattern, std::string_view path) {
  const bool anchored = !pattern.empty() && pattern.back() == '$';
  if (anchored) pattern.remove_suffix(1);
  // Classic wildcard match with backtracking on the last '*'.
  std::size_t p = 0, s = 0, star = std::string_view::npos, mark = 0;
  while (s < path.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = s;
    } else if (p < pattern.size() && pattern[p] == path[s]) {
      ++p;
      ++s;
    } else if (p == pattern.size() && !anchored) {
      return true;  // the pattern is a prefix of the path
    } else if (star != std::string_view::npos) {
      p = star + 1;
      s = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

RobotsTxt RobotsTxt::parse(std::string_view text) {
  std::vector<Group> groups;
  std::vector<std::string> sitemaps;
  bool in_agents = false;  // the last line was a user-agent line: the next one joins its group
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find_first_of("\r\n", start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string key = lower_ascii(trim_ascii(line.substr(0, colon)));
    const std::string value(trim_ascii(line.substr(colon + 1)));
    if (key == "sitemap") {
      if (!value.empty()) sitemaps.push_back(value);
      continue;
    }
    if (key == "user-agent") {
      if (!in_agents) groups.emplace_back();
      groups.back().agents.push_back(lower_ascii(value));
      in_agents = true;
      continue;
    }
    in_agents = false;
    if (groups.empty()) continue;  // rules before any user-agent line belong to no group
    groups.back().lines.emplace_back(key, value);
  }
  // Our token's groups if any names it, else the '*' groups; several matching groups combine.
  auto pick = [&](auto&& matches) {
    std::vector<const Group*> out;
    for (const Group& g : groups) {
      if (std::any_of(g.agents.begin(), g.agents.end(), matches)) out.push_back(&g);
    }
    return out;
  };
  std::vector<const Group*> chosen = pick([](const std::string& agent) {
    return !agent.empty() && agent != "*" &&
           std::string_view(kRobotsAgent).substr(0, agent.size()) == agent;
  });
  if (chosen.empty()) chosen = pick([](const std::string& agent) { return agent == "*"; });
  RobotsTxt robots;
  robots.sitemaps_ = std::move(sitemaps);
  for (const Group* g : chosen) {
    for (const auto& [key, value] : g->lines) {
      if (key == "allow" || key == "disallow") {
        // "Disallow:" with nothing allows everything: it is no rule at all.
        if (!value.empty()) robots.rules_.push_back({key == "allow", value});
      } else if (key == "crawl-delay") {
        char* parsed_end = nullptr;
        const double seconds = std::strtod(value.c_str(), &parsed_end);
        if (parsed_end != value.c_str() && std::isfinite(seconds) && seconds >= 0) {
          // A day at most: a larger delay is a mistake, and would hold the crawl forever.
          robots.crawl_delay_ = Millis(static_cast<long long>(std::min(seconds, 86400.0) * 1000));
        }
      }
    }
  }
  return robots;
}

bool RobotsTxt::allowed(std::string_view path_and_query) const {
  const Rule* best = nullptr;
  for (const Rule& rule : rules_) {
    if (!robots_pattern_matches(rule.pattern, path_and_query)) continue;
    if (!best || rule.pattern.size() > best->pattern.size() ||
        (rule.pattern.size() == best->pattern.size() && rule.allow)) {
      best = &rule;
    }
  }
  return !best || best->allow;
}

}  // namespace gleaner::jobs
