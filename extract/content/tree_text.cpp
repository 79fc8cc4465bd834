#include "extract/content/tree_text.h"

#include <set>
#include <string_view>

namespace gleaner::content {
namespace {

using nlohmann::json;

const std::set<std::string, std::less<>> kInline = {
    "a", "abbr", "b", "bdi", "bdo", "big", "button", "cite", "code", "data", "del", "dfn", "em",
    "i", "img", "ins", "kbd", "label", "mark", "q", "s", "samp", "small", "span", "strike",
    "strong", "sub", "sup", "time", "tt", "u", "var", "wbr", "meter", "progress", "output", "rp",
    "rt", "ruby", "picture", "math", "slot"};
const std::set<std::string, std::less<>> kParagraph = {"p", "h1", "h2", "h3", "h4", "h5", "h6"};
constexpr int kMaxDepth = 1000;

class Writer {
 public:
  std::string finish() {
    while (!out_.empty() && (out_.back() == ' ' || out_.back() == '\n')) out_.pop_back();
    return out_;
  }

  void walk(const json& node, int depth, bool pre) {
    if (node.is_string()) {
      text(node.get_ref<const std::string&>(), pre);
      return;
    }
    if (!node.is_array() || node.empty() || !node[0].is_string() || depth > kMaxDepth) return;
    const std::string& tag = node[0].get_ref<const std::string&>();
    std::size_t first = 1;
    std::string display;
    if (node.size() > 1 && node[1].is_object()) {
      first = 2;
      display = node[1].value("display", "");
    }
    if (tag == "br") {
      out_ += '\n';
      breaks_ = 0;
      space_ = false;
      return;
    }
    const bool block = display == "block" || (display.empty() && kInline.count(tag) == 0);
    const int around = kParagraph.count(tag) ? 2 : 1;
    const bool cell = tag == "td" || tag == "th";
    const bool own_pre = pre || tag == "pre";
    if (cell) {
      if (cells_in_row_++ > 0) {
        trim_space();
        out_ += '\t';
        space_ = false;
      }
    } else if (block) {
      request_break(around);
    }
    if (tag == "tr") cells_in_row_ = 0;
    for (std::size_t i = first; i < node.size(); ++i) walk(node[i], depth + 1, own_pre);
    if (!cell && block) request_break(around);
  }

 private:
  void trim_space() {
    while (!out_.empty() && out_.back() == ' ') out_.pop_back();
  }
  void request_break(int n) {
    breaks_ = std::max(breaks_, n);
    space_ = false;
  }
  void text(const std::string& s, bool pre) {
    for (char ch : s) {
      const bool blank = !pre && (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f');
      if (blank) {
        space_ = true;
        continue;
      }
      if (breaks_ > 0) {
        trim_space();
        if (!out_.empty()) {
          int have = 0;
          for (auto it = out_.rbegin(); it != out_.rend() && *it == '\n'; ++it) ++have;
          for (int i = have; i < breaks_; ++i) out_ += '\n';
        }
        breaks_ = 0;
        space_ = false;
      } else if (space_ && !out_.empty() && out_.back() != '\n' && out_.back() != '\t') {
        out_ += ' ';
      }
      space_ = false;
      out_ += ch;
    }
  }

  std::string out_;
  int breaks_ = 0;
  bool space_ = false;
  int cells_in_row_ = 0;
};

}  // namespace

std::string tree_text(const json& tree) {
  Writer writer;
  writer.walk(tree, 0, false);
  return writer.finish();
}

}  // namespace gleaner::content
