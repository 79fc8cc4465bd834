#pragma once
// Every regular expression in gleaner runs on RE2: linear time in the text, memory bounded when
// the pattern is compiled, no backtracking and no recursion, so neither a user's pattern
// (includePaths, excludePaths) nor megabytes of page text can stall a thread or overflow its
// stack, as libstdc++'s std::regex did (issue 34). RE2's syntax is Perl's without backreferences
// and lookaround; text and patterns are UTF-8.
//
// Fixed patterns are compiled once: `static const Regex kDate(R"((\d{4})-(\d{2}))");`.
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace gleaner {

/// One match in a text: group 0 is the whole match, then each capturing group in order. The
/// groups view the text matched: it must outlive the match.
class RegexMatch {
 public:
  struct Group {
    std::string_view text;
    bool matched = false;  ///< false for a group that took no part in the match
    std::string str() const { return std::string(text); }
    std::size_t length() const { return text.size(); }
    friend bool operator==(const Group& g, std::string_view s) { return g.text == s; }
    operator std::string() const { return str(); }  // NOLINT: reads as std::smatch's groups did
  };

  const Group& operator[](std::size_t i) const { return groups_.at(i); }
  std::string str(std::size_t i = 0) const { return groups_.at(i).str(); }
  std::size_t size() const { return groups_.size(); }
  /// Where group `i` starts in the text searched (its byte offset).
  std::size_t position(std::size_t i = 0) const;

 private:
  friend class Regex;
  std::string_view text_;
  std::vector<Group> groups_;
};

struct RegexOptions {
  bool ignore_case = false;
  /// Bytes, not UTF-8 characters: for text of any encoding (a page's bytes before their
  /// charset is known), where RE2's UTF-8 mode would match no invalid sequence.
  bool bytes = false;
  /// RE2's memory budget for the compiled pattern and its matching caches: a pattern that
  /// needs more is refused when compiled (a user's: a 400), and matching past the cache's share
  /// goes on in RE2's slower linear engine. RE2's own default is 8 MiB.
  std::int64_t max_mem = std::int64_t{8} << 20;
};

class Regex {
 public:
  using Options = RegexOptions;

  /// A pattern written in gleaner's code: one RE2 refuses is a bug, std::logic_error naming it.
  explicit Regex(std::string_view pattern, Options options = {});

  /// A pattern from outside (a request, a replay archive): nullopt, with RE2's reason in `error`,
  /// when RE2 refuses it (bad syntax, a backreference or lookaround, over `max_mem`).
  static std::optional<Regex> compile(std::string_view pattern, std::string* error,
                                      Options options = {});

  /// Whether the whole of `text` matches.
  bool full_match(std::string_view text) const;
  bool full_match(std::string_view text, RegexMatch& match) const;
  // A match of a temporary std::string would view freed text: refused at compile time.
  template <class T>
  requires std::same_as<T, std::string>
  bool full_match(T&&, RegexMatch&) const = delete;
  /// Whether the pattern matches anywhere in `text` (from byte `from` on; `^` still means the
  /// start of `text`).
  bool search(std::string_view text) const;
  bool search(std::string_view text, RegexMatch& match, std::size_t from = 0) const;
  template <class T>
  requires std::same_as<T, std::string>
  bool search(T&&, RegexMatch&, std::size_t = 0) const = delete;
  /// Every match, left to right, none overlapping (as std::sregex_iterator walked them).
  std::vector<RegexMatch> find_all(std::string_view text) const;
  template <class T>
  requires std::same_as<T, std::string> std::vector<RegexMatch> find_all(T&&)
  const = delete;
  /// `text` with every match replaced by `rewrite`, where \0 is the match and \1..\9 its groups.
  std::string replace_all(std::string_view text, std::string_view rewrite) const;

  const std::string& pattern() const;

 private:
  explicit Regex(std::shared_ptr<const re2::RE2> re) : re_(std::move(re)) {}
  bool match(std::string_view text, std::size_t from, bool whole, RegexMatch* out) const;

  std::shared_ptr<const re2::RE2> re_;  // immutable once compiled: RE2 is safe across threads
};

}  // namespace gleaner
