#include "core/regex.h"

#include <re2/re2.h>

#include <stdexcept>

namespace gleaner {
namespace {

RE2::Options re2_options(const Regex::Options& options) {
  RE2::Options o;
  o.set_case_sensitive(!options.ignore_case);
  if (options.bytes) o.set_encoding(RE2::Options::EncodingLatin1);
  o.set_max_mem(options.max_mem);
  o.set_log_errors(false);  // a refused user pattern is a 400, not a line on stderr
  return o;
}

}  // namespace

std::size_t RegexMatch::position(std::size_t i) const {
  const Group& g = groups_.at(i);
  return g.matched ? static_cast<std::size_t>(g.text.data() - text_.data()) : std::string::npos;
}

Regex::Regex(std::string_view pattern, Options options) {
  std::string error;
  std::optional<Regex> compiled = compile(pattern, &error, options);
  if (!compiled) {
    throw std::logic_error("the pattern '" + std::string(pattern) + "' does not compile: " + error);
  }
  re_ = std::move(compiled->re_);
}

std::optional<Regex> Regex::compile(std::string_view pattern, std::string* error, Options options) {
  auto re = std::make_shared<const RE2>(re2::StringPiece(pattern.data(), pattern.size()),
                                        re2_options(options));
  if (!re->ok()) {
    if (error) *error = re->error();
    return std::nullopt;
  }
  return Regex(std::move(re));
}

bool Regex::match(std::string_view text, std::size_t from, bool whole, RegexMatch* out) const {
  if (from > text.size()) return false;
  const int groups = out ? 1 + re_->NumberOfCapturingGroups() : 0;
  std::vector<re2::StringPiece> found(static_cast<std::size_t>(groups));
  const re2::StringPiece piece(text.data(), text.size());
  if (!re_->Match(piece, from, text.size(), whole ? RE2::ANCHOR_BOTH : RE2::UNANCHORED,
                  found.data(), groups)) {
    return false;
  }
  if (out) {
    out->text_ = text;
    out->groups_.clear();
    for (const re2::StringPiece& g : found) {
      out->groups_.push_back({std::string_view(g.data(), g.size()), g.data() != nullptr});
    }
  }
  return true;
}

bool Regex::full_match(std::string_view text) const {
  return match(text, 0, true, nullptr);
}

bool Regex::full_match(std::string_view text, RegexMatch& m) const {
  return match(text, 0, true, &m);
}

bool Regex::search(std::string_view text) const {
  return match(text, 0, false, nullptr);
}

bool Regex::search(std::string_view text, RegexMatch& m, std::size_t from) const {
  return match(text, from, false, &m);
}

std::vector<RegexMatch> Regex::find_all(std::string_view text) const {
  std::vector<RegexMatch> out;
  std::size_t from = 0;
  RegexMatch m;
  while (from <= text.size() && match(text, from, false, &m)) {
    const std::size_t start = m.position(0);
    const std::size_t end = start + m[0].text.size();
    out.push_back(m);
    from = end > start ? end : end + 1;  // an empty match: step over one byte, as std::regex did
  }
  return out;
}

std::string Regex::replace_all(std::string_view text, std::string_view rewrite) const {
  std::string error;
  const re2::StringPiece rw(rewrite.data(), rewrite.size());
  if (!re_->CheckRewriteString(rw, &error)) {
    throw std::logic_error("the rewrite '" + std::string(rewrite) + "' for '" + pattern() +
                           "' is not valid: " + error);
  }
  std::string out(text);
  RE2::GlobalReplace(&out, *re_, rw);
  return out;
}

const std::string& Regex::pattern() const {
  return re_->pattern();
}

}  // namespace gleaner
