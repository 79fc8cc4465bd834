// The C++ half of dev_score.mjs: reads one request per line on stdin and answers each with one
// line, a JSON string:
//   tree <snapshot.js output as JSON>   → the text of its tree (content::tree_text), as the
//                                         browser road makes `text` under onlyMainContent
//   main <file> / all <file>            → the plain road's `text` of a saved page with
//                                         onlyMainContent / without it
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "extract/content/snapshot.h"
#include "extract/content/tree_text.h"
#include "extract/plain/charset.h"
#include "extract/plain/main_content.h"
#include "extract/plain/snapshot.h"

namespace {

std::string plain_text(const std::string& path, bool main) {
  using namespace gleaner;
  std::ifstream file(path, std::ios::binary);
  std::stringstream bytes;
  bytes << file.rdbuf();
  const std::string page = plain::to_utf8(bytes.str(), plain::sniff_charset(bytes.str(), ""));
  const html::Document doc = html::Document::parse(page);
  content::SnapshotParts parts;
  parts.tree = true;
  const auto snapshot = plain::snapshot_of(doc, page, "http://127.0.0.1/page", parts,
                                           plain::content_filter(doc, {}, {}, main));
  return content::tree_text(snapshot["tree"]);
}

}  // namespace

int main() {
  using namespace gleaner;
  std::string line;
  while (std::getline(std::cin, line)) {
    std::string out;
    if (line.rfind("tree ", 0) == 0) {
      const auto snapshot = content::parse_snapshot(nlohmann::json::parse(line.substr(5)));
      out = content::tree_text(snapshot.value("tree", nlohmann::json()));
    } else if (line.rfind("main ", 0) == 0 || line.rfind("all ", 0) == 0) {
      out = plain_text(line.substr(line.find(' ') + 1), line[0] == 'm');
    }
    std::cout << nlohmann::json(out).dump() << std::endl;
  }
}
