#pragma once
// A site with a login, served live on 127.0.0.1 (tests of sessions, docs/sessions.md): /login
// shows a form; posting the right password sets a session cookie and redirects to /account,
// which shows who is signed in to a browser that sends the cookie and sends everyone else to
// /login; /sign-in?user=...&pass=... signs in by a link. /slow and /held answer only once the
// test opens their gates.
#include <map>
#include <mutex>
#include <random>
#include <string>

#include "tests/support/gate.h"
#include "tests/support/local_server.h"

namespace gleaner::testing {

inline constexpr const char* kPassword = "hunter2";

// A site with a login: /account shows who is signed in to a browser that sent the cookie
// /login set, and sends everyone else to /login.
class LoginSite {
 public:
  LoginSite() {
    auto& s = site_.server();
    s.Get("/login", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(
          "<!doctype html><html><head><title>Sign in</title></head><body>"
          "<form id=\"login\" method=\"post\" action=\"/login\">"
          "<input id=\"user\" name=\"user\"><input id=\"pass\" name=\"pass\" type=\"password\">"
          "<button id=\"go\" type=\"submit\">Sign in</button></form></body></html>",
          "text/html");
    });
    s.Post("/login", [this](const httplib::Request& req, httplib::Response& res) {
      sign_in(req, res);
    });
    // A sign-in link (as a mailed magic link): the same as posting the form, for a batch's rows,
    // which run no jsScenario.
    s.Get("/sign-in", [this](const httplib::Request& req, httplib::Response& res) {
      sign_in(req, res);
    });
    s.Get("/account", [this](const httplib::Request& req, httplib::Response& res) {
      const std::string user = user_of(req);
      if (user.empty()) {
        res.set_redirect("/login", 302);
        return;
      }
      res.set_content(
          "<!doctype html><html><head><title>Account</title></head><body>"
          "<h1 id=\"welcome\">Welcome, " +
              user + "</h1></body></html>",
          "text/html");
    });
    // Held until the test opens the gate: a request that keeps its session's tab busy.
    s.Get("/slow", [this](const httplib::Request&, httplib::Response& res) {
      slow_.wait();
      res.set_content("<p>slow</p>", "text/html");
    });
    // The same with a gate of its own (a gate opens once): a batch's row held mid-batch.
    s.Get("/held", [this](const httplib::Request&, httplib::Response& res) {
      held_.wait();
      res.set_content("<p>held</p>", "text/html");
    });
    site_.start();
  }
  ~LoginSite() {
    slow_.open();
    held_.open();
  }

  std::string url(const std::string& path) const { return site_.url(path); }
  Gate& slow() { return slow_; }
  Gate& held() { return held_; }

 private:
  // Signs `user` in when `pass` is right: a session cookie, and on to /account.
  void sign_in(const httplib::Request& req, httplib::Response& res) {
    if (req.get_param_value("pass") != kPassword) {
      res.status = 401;
      res.set_content("<p>wrong password</p>", "text/html");
      return;
    }
    const std::string token =
        std::to_string(std::random_device{}()) + "x" + std::to_string(std::random_device{}());
    {
      std::lock_guard lock(mutex_);
      signed_in_[token] = req.get_param_value("user");
    }
    res.set_header("Set-Cookie", "sid=" + token + "; Path=/; HttpOnly");
    res.set_redirect("/account", 303);
  }
  std::string user_of(const httplib::Request& req) {
    const std::string cookies = req.get_header_value("Cookie");
    const auto at = cookies.find("sid=");
    if (at == std::string::npos) return "";
    const auto end = cookies.find(';', at);
    const std::string token = cookies.substr(at + 4, end == std::string::npos ? end : end - at - 4);
    std::lock_guard lock(mutex_);
    auto it = signed_in_.find(token);
    return it == signed_in_.end() ? "" : it->second;
  }

  std::mutex mutex_;                              // guards signed_in_
  std::map<std::string, std::string> signed_in_;  // session cookie → user
  Gate slow_;
  Gate held_;
  // Declared last: its handlers use the members above.
  LocalServer site_;
};

/// The jsScenario that signs in as alice on LoginSite's /login.
inline const char* const kLogInScenario =
    R"J([{"fill": ["#user", "alice"]}, {"fill": ["#pass", "hunter2"]},
         {"click": "#go"}, {"waitFor": "#welcome"}])J";

}  // namespace gleaner::testing
