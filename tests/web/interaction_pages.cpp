// The pages of the interaction suites (interaction_pages.h).
#include "tests/web/interaction_pages.h"

#include <string>

#include "tests/content/main_content_pages.h"

namespace gleaner::testing {

void add_interaction_pages(httplib::Server& server) {
  auto html = [](const std::string& body) {
    return [body](const httplib::Request&, httplib::Response& response) {
      response.set_content(body, "text/html; charset=utf-8");
    };
  };
  // Three items, and a button that adds three more (after a short delay, as a fetch would) until
  // there are nine, then goes away.
  server.Get("/load-more", html(R"html(<!doctype html><html><head><title>Load more</title></head><body>
<ul id="items"><li>item 1</li><li>item 2</li><li>item 3</li></ul>
<button id="more">Load more</button>
<script>
document.getElementById('more').addEventListener('click', () => setTimeout(() => {
  const list = document.getElementById('items');
  for (let i = 0; i < 3; i++) {
    const li = document.createElement('li');
    li.textContent = 'item ' + (list.children.length + 1);
    list.appendChild(li);
  }
  if (list.children.length >= 9) document.getElementById('more').remove();
}, 50));
</script></body></html>)html"));

  server.Get("/form", html(R"html(<!doctype html><html><head><title>Search</title></head><body>
<form action="/results" method="get"><input name="q" id="q"><button type="submit">Go</button></form>
</body></html>)html"));
  server.Get("/results", [](const httplib::Request& request, httplib::Response& response) {
    response.set_content("<!doctype html><html><head><title>Results</title></head><body><h1>Results for " +
                             request.get_param_value("q") + "</h1></body></html>",
                         "text/html; charset=utf-8");
  });

  // Ten 100 px items; scrolling near the end adds ten more (after 50 ms) until there are fifty.
  server.Get("/infinite", html(R"html(<!doctype html><html><head><title>Feed</title>
<style>.row { height: 100px }</style></head><body><div id="feed"></div>
<script>
const feed = document.getElementById('feed');
const add = () => {
  for (let i = 0; i < 10; i++) {
    const d = document.createElement('div');
    d.className = 'row';
    d.textContent = 'row ' + (feed.children.length + 1);
    feed.appendChild(d);
  }
};
add();
let busy = false;
addEventListener('scroll', () => {
  if (busy || feed.children.length >= 50) return;
  if (innerHeight + scrollY < document.body.scrollHeight - 200) return;
  busy = true;
  setTimeout(() => { add(); busy = false; }, 50);
});
</script></body></html>)html"));

  server.Get("/product", html(R"html(<!doctype html><html><head><title>Kettle</title></head><body>
<nav><a href="/">Home</a> <a href="/shop">Shop</a></nav>
<div class="product" data-sku="K-42">
  <h1 class="name">Blue   Kettle</h1>
  <span class="price" content="19.99">$19.99</span>
  <a class="next" href="/product/2">Next product</a>
  <ul class="tags"><li>kitchen</li><li>steel</li></ul>
  <div class="review"><b>Ann</b><p>Great kettle.</p></div>
  <div class="review"><b>Bob</b><p>Too loud.</p></div>
</div>
<table id="specs"><thead><tr><th>Property</th><th>Value</th></tr></thead>
<tbody><tr><td>Volume</td><td>1.7 l</td></tr><tr><td>Power</td><td>2200 W</td></tr></tbody></table>
</body></html>)html"));

  server.Get("/article", html(R"html(<!doctype html><html><head><title>Story</title></head><body>
<header class="site-header"><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></header>
<nav class="menu"><ul><li><a href="/a">Politics</a></li><li><a href="/b">Business</a></li></ul></nav>
<main><article><h1>The river rose overnight</h1>
<p>Residents of the valley woke to water in their streets, after a night of rain that the forecasters had called unlikely, unusual, and short.</p>
<p>By noon the council had opened two shelters, and volunteers, many of them neighbours, carried sandbags to the lowest houses.</p>
<div class="share"><a href="https://share.example/x">Share on X</a></div>
</article></main>
<aside class="sidebar"><h3>Most read</h3><ul><li><a href="/c">Other story</a></li></ul></aside>
<footer>Copyright Example News 2024</footer>
</body></html>)html"));

  for (const auto* page : kMainContentPages) server.Get(page->path, html(page->html));

  server.Get("/with-resources", html(R"html(<!doctype html><html><head><title>Res</title>
<script src="/tracker.js"></script><link rel="stylesheet" href="/style.css"></head>
<body><p>page with resources</p></body></html>)html"));
  for (const std::string name : {"/tracker.js", "/style.css"}) {
    server.Get(name, [](const httplib::Request&, httplib::Response& response) {
      response.set_content("/* ok */", "text/plain");
    });
  }

  server.Get("/inline-image", html(R"html(<!doctype html><html><body><p>A dot:</p>
<img alt="dot" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=">
</body></html>)html"));

  // 20,000 elements: the page over which the red team's selectors ran for minutes (#41).
  server.Get("/large", [](const httplib::Request&, httplib::Response& response) {
    std::string page = "<!doctype html><html><head><title>Large</title></head><body><h1>Large</h1>";
    for (int i = 0; i < 200; ++i) {
      page += "<div>";
      for (int j = 0; j < 49; ++j) page += "<div><span>x</span></div>";
      page += "</div>";
    }
    response.set_content(page + "</body></html>", "text/html; charset=utf-8");
  });
  // 20,000 sibling divs: where sibling combinators inside :has() are at their worst.
  server.Get("/siblings", [](const httplib::Request&, httplib::Response& response) {
    std::string page = "<!doctype html><html><head><title>Siblings</title></head><body>";
    for (int i = 0; i < 20'000; ++i) page += "<div><span>x</span></div>";
    response.set_content(page + "</body></html>", "text/html; charset=utf-8");
  });
  server.Get("/latin1", [](const httplib::Request&, httplib::Response& response) {
    response.set_content("<html><body><p>caf\xe9 cr\xe8me</p></body></html>", "text/html; charset=iso-8859-1");
  });
  server.Get("/hop", [](const httplib::Request&, httplib::Response& response) {
    response.set_redirect("/product");
  });
  server.Get(R"(/loop/(\d+))", [](const httplib::Request& request, httplib::Response& response) {
    response.set_redirect("/loop/" + std::to_string(std::stoi(request.matches[1]) + 1));
  });
}

}  // namespace gleaner::testing
