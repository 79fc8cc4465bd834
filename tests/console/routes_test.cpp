// The console's files as GET /console serves them (api/routes/console.cpp): each with its type
// and the Content-Security-Policy, without a key and without a cookie; an unknown file is a 404.
// And what the policy demands of the files themselves: the page loads only files that exist
// here, holds no inline script, no inline style and no handler attribute; every module a script
// imports exists.
#include "api/routes/routes.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "api/router.h"
#include "console_embedded.h"
#include "core/error.h"
#include "core/regex.h"

namespace gleaner::api {
namespace {

Response get(const Router& router, const std::string& path) {
  const Router::Match match = router.match("GET", path);
  if (!match.handler) throw std::runtime_error("no route " + path);
  Request request;  // no x-api-key
  request.method = "GET";
  request.path = path;
  request.path_params = match.params;
  return (*match.handler)(request);
}

Router console_router() {
  Router router;
  add_console_routes(router);
  return router;
}

std::set<std::string> embedded_names() {
  std::set<std::string> names;
  for (const auto& [name, text] : console_files::files) names.emplace(name);
  return names;
}

TEST(ConsoleRoutes, ServesThePageWithItsPolicyWithoutKeyOrCookie) {
  const Router router = console_router();
  for (const std::string path : {"/console", "/console/", "/console/index.html"}) {
    const Response r = get(router, path);
    EXPECT_EQ(r.status, 200) << path;
    EXPECT_EQ(r.content_type, "text/html; charset=utf-8") << path;
    ASSERT_TRUE(r.raw_body) << path;
    EXPECT_NE(r.raw_body->find("<title>gleaner console</title>"), std::string::npos);
    EXPECT_EQ(r.headers.at("Content-Security-Policy"), kConsoleContentSecurityPolicy);
    EXPECT_EQ(r.headers.at("X-Content-Type-Options"), "nosniff");
    EXPECT_EQ(r.headers.count("Set-Cookie"), 0u);
  }
}

TEST(ConsoleRoutes, ThePolicyAllowsNothingInlineAndNoOtherHost) {
  const std::string csp(kConsoleContentSecurityPolicy);
  EXPECT_NE(csp.find("default-src 'self'"), std::string::npos);
  EXPECT_NE(csp.find("script-src 'self';"), std::string::npos);
  EXPECT_NE(csp.find("style-src 'self';"), std::string::npos);
  EXPECT_NE(csp.find("connect-src 'self';"), std::string::npos);
  EXPECT_EQ(csp.find("unsafe"), std::string::npos);
  EXPECT_EQ(csp.find("http"), std::string::npos);
  EXPECT_EQ(csp.find('*'), std::string::npos);
}

TEST(ConsoleRoutes, EveryFileIsServedWithItsType) {
  const Router router = console_router();
  const std::map<std::string, std::string> types = {{".html", "text/html; charset=utf-8"},
                                                    {".css", "text/css; charset=utf-8"},
                                                    {".js", "text/javascript; charset=utf-8"},
                                                    {".LICENSE", "text/plain; charset=utf-8"}};
  ASSERT_GE(embedded_names().size(), 10u);
  for (const auto& [name, text] : console_files::files) {
    const std::string file(name);
    const Response r = get(router, "/console/" + file);
    EXPECT_EQ(r.status, 200) << file;
    ASSERT_TRUE(r.raw_body) << file;
    EXPECT_EQ(*r.raw_body, text) << file;
    const std::string ext = file.substr(file.rfind('.'));
    ASSERT_TRUE(types.count(ext)) << file;
    EXPECT_EQ(r.content_type, types.at(ext)) << file;
    EXPECT_EQ(r.headers.at("Content-Security-Policy"), kConsoleContentSecurityPolicy) << file;
  }
}

TEST(ConsoleRoutes, AnUnknownFileIsNotFound) {
  const Router router = console_router();
  for (const std::string path : {"/console/nothing.js", "/console/js/nothing.js",
                                 "/console/..%2fmain.cpp", "/console/vendor/README.md"}) {
    try {
      get(router, path);
      ADD_FAILURE() << path << " was served";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::NotFound) << path;
    }
  }
}

TEST(ConsoleRoutes, ThePageLoadsOnlyItsOwnFilesAndNothingInline) {
  const std::set<std::string> names = embedded_names();
  const std::string page(console_files::index_html);
  // Every src= and href= of the page is one of the console's own files (or a #screen link).
  static const Regex ref(R"re((src|href)="([^"]*)")re");
  int own = 0;
  for (const RegexMatch& m : ref.find_all(page)) {
    const std::string target = m[2];
    // A #screen link, or the empty icon that spares the browser a request for /favicon.ico.
    if (target.rfind('#', 0) == 0 || target == "data:,") continue;
    ASSERT_EQ(target.rfind("/console/", 0), 0u) << target;
    EXPECT_TRUE(names.count(target.substr(9))) << target << " is not a console file";
    ++own;
  }
  EXPECT_GE(own, 4);
  // No inline script: every <script> has a src. No inline style, no handler attribute.
  static const Regex script(R"(<script([^>]*)>)");
  for (const RegexMatch& m : script.find_all(page)) {
    EXPECT_NE(m[1].str().find("src="), std::string::npos) << m.str(0);
  }
  EXPECT_EQ(page.find("<style"), std::string::npos);
  EXPECT_EQ(page.find("style="), std::string::npos);
  EXPECT_FALSE(Regex(R"(\son[a-z]+=)").search(page));
}

TEST(ConsoleRoutes, EveryModuleAScriptImportsExists) {
  const std::set<std::string> names = embedded_names();
  static const Regex import(R"re(from '\./([^']+)')re");
  int imports = 0;
  for (const auto& [name, text] : console_files::files) {
    const std::string file(name);
    if (file.rfind("js/", 0) != 0) continue;
    const std::string body(text);
    for (const RegexMatch& m : import.find_all(body)) {
      EXPECT_TRUE(names.count("js/" + m[1].str())) << file << " imports " << m.str(1);
      ++imports;
    }
    // The scripts build the page's elements as nodes and set text as text.
    EXPECT_EQ(body.find("innerHTML"), std::string::npos) << file;
    EXPECT_EQ(body.find("eval("), std::string::npos) << file;
  }
  EXPECT_GE(imports, 10);
}

}  // namespace
}  // namespace gleaner::api
