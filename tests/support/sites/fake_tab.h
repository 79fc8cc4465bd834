#pragma once
// A scripted tab for unit tests of endpoint flows: each URL answers with a Navigation and the
// value the page expression would return ({signals, data, error}). Records every URL loaded and
// every profile a tab was opened with.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "extract/tab.h"

namespace gleaner::extract::testing {

/// The gleaner::Error `f` throws; fails the test (and returns Internal) when it throws none.
inline Error error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error thrown";
  return Error(ErrorCode::Internal, "none");
}

/// Block signals of an ordinary page with plenty of visible text.
inline nlohmann::json ordinary_page_signals(const std::string& url) {
  return {{"url", url},          {"title", "a page"},    {"text", "plenty of visible text"},
          {"textLength", 50000}, {"elementCount", 3000}, {"walls", nlohmann::json::array()},
          {"consentForm", false}};
}

class FakeTabs final : public TabSource {
 public:
  struct Page {
    Navigation navigation;
    /// What the page expression returns: {signals, data, error}.
    nlohmann::json evaluated;
  };

  /// Answers `url` with status 200 and the given script output on an ordinary page.
  void serve(const std::string& url, nlohmann::json data, int status = 200) {
    Page page;
    page.navigation = {url, status, {}};
    page.evaluated = {
        {"signals", ordinary_page_signals(url)}, {"data", std::move(data)}, {"error", nullptr}};
    pages_[url] = std::move(page);
  }
  void serve_page(const std::string& url, Page page) { pages_[url] = std::move(page); }

  std::unique_ptr<Tab> open(const BrowserProfile& profile, Deadline) override {
    profiles.push_back(profile);
    return std::make_unique<FakeTab>(*this);
  }

  std::vector<std::string> loaded;
  std::vector<BrowserProfile> profiles;
  std::vector<std::string> expressions;
  std::vector<World> worlds;  ///< the world of each expression
  /// Each set_cookies() call: the URL and the cookies.
  std::vector<std::pair<std::string, std::vector<Cookie>>> cookie_jars;

 private:
  class FakeTab final : public Tab {
   public:
    explicit FakeTab(FakeTabs& owner) : owner_(owner) {}
    Navigation navigate(const std::string& url, const WaitFor&, Deadline) override {
      owner_.loaded.push_back(url);
      current_ = url;
      auto it = owner_.pages_.find(url);
      if (it == owner_.pages_.end()) return {url, 404, {}};
      return it->second.navigation;
    }
    nlohmann::json evaluate(const std::string& expression, Deadline, World world) override {
      owner_.expressions.push_back(expression);
      owner_.worlds.push_back(world);
      auto it = owner_.pages_.find(current_);
      return it == owner_.pages_.end() ? nlohmann::json() : it->second.evaluated;
    }
    void set_cookies(const std::vector<Cookie>& cookies, const std::string& url,
                     Deadline) override {
      owner_.cookie_jars.emplace_back(url, cookies);
    }

   private:
    FakeTabs& owner_;
    std::string current_;
  };

  std::map<std::string, Page> pages_;
};

}  // namespace gleaner::extract::testing
