// CPU time of the /scrape/web conversions on a large page.
//
//   content_convert [--mb N] [--runs N] [SNAPSHOT.json ...]
//
// Without files it builds a synthetic snapshot tree whose JSON is N MB (default 2): a long article
// of sections with headings, paragraphs full of links, emphasis and inline code, nested lists,
// tables and code blocks, wrapped in the div soup real pages have. A 2 MB tree is a much larger
// page than a 2 MB HTML file (snapshot.js drops scripts, styles, attributes and hidden parts: the
// 1.2 MB fixture quote page gives a 31 KB tree). With files (output of snapshot.js, e.g.
// tests/content/data/*.snapshot.json) it times those instead. Reports the median of --runs runs
// (default 9) of thread CPU time for each step.
#include "extract/content/emails.h"
#include "extract/content/links.h"
#include "extract/content/markdown.h"
#include "extract/content/metadata.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

/// Median CPU milliseconds of `runs` calls of `step`.
double median_ms(int runs, const std::function<void()>& step) {
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    double start = thread_cpu_ms();
    step();
    times.push_back(thread_cpu_ms() - start);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// A synthetic page, deterministic (fixed seed), shaped like snapshot.js output.
class SyntheticPage {
 public:
  json build(std::size_t target_bytes) {
    json body = json::array({"body"});
    json main = json::array({"main"});
    std::size_t bytes = 0;
    int section = 0;
    while (bytes < target_bytes) {
      json s = section_node(section++);
      bytes += s.dump().size();
      main.push_back(wrap(std::move(s), 3));
    }
    body.push_back(std::move(main));
    return body;
  }

  /// Visible text of the page, as innerText would give it (for the e-mail scan).
  std::string text_of(const json& node) {
    std::string out;
    collect(node, out);
    return out;
  }

 private:
  std::string words(int n) {
    static const char* kWords[] = {"gleaner", "page",       "markdown", "browser", "fast",  "data",
                                   "the",     "of",         "and",      "results", "table", "list",
                                   "quote",   "snake_case", "2x",       "v1.2.3",  "a*b",   "[1]"};
    std::string out;
    for (int i = 0; i < n; ++i) {
      if (i > 0) out += (rng_() % 9 == 0) ? "\n   " : " ";
      out += kWords[rng_() % (sizeof(kWords) / sizeof(kWords[0]))];
    }
    return out;
  }

  std::string url() { return "https://example.com/path/" + std::to_string(rng_() % 5000) + "?q=1"; }

  json paragraph() {
    json p = json::array({"p", words(12)});
    for (int i = 0; i < 4; ++i) {
      p.push_back(json::array({"a", {{"href", url()}, {"title", "Title"}}, words(3)}));
      p.push_back(" " + words(8) + " ");
      p.push_back(json::array({"strong", words(2)}));
      p.push_back(", ");
      p.push_back(json::array({"code", "x_" + std::to_string(i)}));
      p.push_back(" contact team" + std::to_string(rng_() % 50) + "@example.org " + words(5));
    }
    return p;
  }

  json list(int depth) {
    json ul = json::array({depth % 2 == 0 ? "ul" : "ol"});
    for (int i = 0; i < 5; ++i) {
      json li = json::array({"li", words(6)});
      if (depth < 2 && i == 2) li.push_back(list(depth + 1));
      ul.push_back(std::move(li));
    }
    return ul;
  }

  json table() {
    json t = json::array({"table"});
    json head = json::array({"tr"});
    for (int c = 0; c < 5; ++c) head.push_back(json::array({"th", words(2)}));
    t.push_back(json::array({"thead", std::move(head)}));
    json tbody = json::array({"tbody"});
    for (int r = 0; r < 12; ++r) {
      json row = json::array({"tr"});
      for (int c = 0; c < 5; ++c) row.push_back(json::array({"td", words(3) + " | " + words(1)}));
      tbody.push_back(std::move(row));
    }
    t.push_back(std::move(tbody));
    return t;
  }

  json code() {
    std::string text;
    for (int i = 0; i < 15; ++i) text += "  if (x_" + std::to_string(i) + ") { return `y`; }\n";
    return json::array({"pre", {{"lang", "js"}}, std::move(text)});
  }

  json section_node(int n) {
    json s = json::array({"section"});
    s.push_back(json::array({"h2", "Section " + std::to_string(n) + " " + words(3)}));
    for (int i = 0; i < 3; ++i) s.push_back(wrap(paragraph(), static_cast<int>(rng_() % 4)));
    s.push_back(list(0));
    s.push_back(table());
    s.push_back(code());
    s.push_back(json::array({"blockquote", paragraph()}));
    s.push_back(json::array({"img", {{"src", url() + ".png"}, {"alt", words(2)}}}));
    return s;
  }

  static json wrap(json node, int levels) {
    for (int i = 0; i < levels; ++i) node = json::array({"div", std::move(node)});
    return node;
  }

  static void collect(const json& node, std::string& out) {
    if (node.is_string()) {
      out += node.get<std::string>();
      return;
    }
    if (!node.is_array()) return;
    for (std::size_t i = 1; i < node.size(); ++i) collect(node[i], out);
    out += '\n';
  }

  std::mt19937 rng_{20240521};
};

json all_links(const json& node, json& out) {
  if (node.is_array() && !node.empty() && node[0] == "a" && node.size() > 1 &&
      node[1].is_object()) {
    out.push_back(node[1].value("href", ""));
  }
  if (node.is_array()) {
    for (const json& child : node) all_links(child, out);
  }
  return out;
}

void report(const std::string& name, const json& snapshot, int runs) {
  std::string serialized = snapshot.dump();
  const json& tree = snapshot["tree"];
  const json& links = snapshot["links"];
  std::string text = snapshot.value("text", "");
  std::size_t markdown_bytes = 0;
  std::cout << name << ": snapshot " << std::fixed << std::setprecision(2)
            << static_cast<double>(serialized.size()) / 1e6 << " MB (tree "
            << static_cast<double>(tree.dump().size()) / 1e6 << " MB, text "
            << static_cast<double>(text.size()) / 1e6 << " MB, " << links.size() << " links)\n";
  auto line = [](const char* step, double ms) {
    std::cout << "  " << std::left << std::setw(16) << step << std::right << std::setw(9)
              << std::setprecision(2) << ms << " ms CPU (median)\n";
  };
  std::size_t parsed_keys = 0;
  line("json parse", median_ms(runs, [&] { parsed_keys = json::parse(serialized).size(); }));
  line("to_markdown",
       median_ms(runs, [&] { markdown_bytes = gleaner::content::to_markdown(tree).size(); }));
  line("extract_links", median_ms(runs, [&] { gleaner::content::extract_links(links); }));
  line("extract_emails", median_ms(runs, [&] { gleaner::content::extract_emails(text, links); }));
  line("page_metadata",
       median_ms(runs, [&] { gleaner::content::page_metadata(snapshot["meta"]); }));
  std::cout << "  markdown " << static_cast<double>(markdown_bytes) / 1e6 << " MB from "
            << parsed_keys << " snapshot parts\n";
}

}  // namespace

int main(int argc, char** argv) {
  double megabytes = 2.0;
  int runs = 9;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--mb" && i + 1 < argc) {
      megabytes = std::atof(argv[++i]);
    } else if (arg == "--runs" && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (arg.rfind("--", 0) == 0) {
      std::cerr << "usage: content_convert [--mb N] [--runs N] [SNAPSHOT.json ...]\n";
      return 2;
    } else {
      files.push_back(arg);
    }
  }
  if (files.empty()) {
    SyntheticPage page;
    json snapshot;
    snapshot["tree"] = page.build(static_cast<std::size_t>(megabytes * 1e6));
    snapshot["text"] = page.text_of(snapshot["tree"]);
    json links = json::array();
    snapshot["links"] = all_links(snapshot["tree"], links);
    snapshot["meta"] = {
        {"title", "Synthetic"}, {"metas", json::array()}, {"jsonLd", json::array()}};
    report("synthetic", snapshot, runs);
    return 0;
  }
  for (const std::string& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::cerr << "cannot read " << file << "\n";
      return 1;
    }
    std::ostringstream body;
    body << in.rdbuf();
    report(file, json::parse(body.str()), runs);
  }
  return 0;
}
