#include "extract/plain/charset.h"

#include <iconv.h>

#include <algorithm>
#include <cctype>
#include <cerrno>

#include "core/regex.h"

namespace gleaner::plain {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return out;
}

/// The charset parameter of a Content-Type value or a meta tag's content ("" when none).
std::string charset_parameter(std::string_view value) {
  static const Regex pattern(R"(charset\s*=\s*["']?\s*([A-Za-z0-9_.:+-]+))",
                             {.ignore_case = true, .bytes = true});
  RegexMatch m;
  if (pattern.search(value, m)) return lower(m[1].str());
  return {};
}

/// The WHATWG name for labels whose meaning differs from iconv's.
std::string canonical(std::string label) {
  if (label == "utf8" || label == "unicode-1-1-utf-8") return "utf-8";
  if (label == "latin1" || label == "iso-8859-1" || label == "iso8859-1" || label == "ascii" ||
      label == "us-ascii" || label == "l1" || label == "cp1252" || label == "x-cp1252") {
    return "windows-1252";
  }
  if (label == "gb2312" || label == "x-gbk" || label == "chinese") return "gbk";
  if (label == "x-sjis" || label == "sjis" || label == "ms_kanji" || label == "windows-31j") return "shift_jis";
  if (label == "iso-8859-9" || label == "latin5") return "windows-1254";
  return label;
}

bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t extra = b < 0x80 ? 0 : (b & 0xE0) == 0xC0 ? 1 : (b & 0xF0) == 0xE0 ? 2
                            : (b & 0xF8) == 0xF0 ? 3 : 9;
    if (extra == 9 || (extra == 1 && b < 0xC2) || i + extra >= s.size() + (extra == 0 ? 1 : 0)) {
      return false;
    }
    for (std::size_t k = 1; k <= extra; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += extra + 1;
  }
  return true;
}

}  // namespace

std::string sniff_charset(std::string_view bytes, std::string_view content_type) {
  if (bytes.substr(0, 3) == "\xEF\xBB\xBF") return "utf-8";
  if (bytes.substr(0, 2) == "\xFE\xFF") return "utf-16be";
  if (bytes.substr(0, 2) == "\xFF\xFE") return "utf-16le";
  if (std::string from_header = charset_parameter(content_type); !from_header.empty()) {
    return canonical(from_header);
  }
  static const Regex meta(R"(<meta\b[^>]*?\bcharset\s*=[^>]*>)",
                          {.ignore_case = true, .bytes = true});
  const std::string_view head = bytes.substr(0, 4096);
  RegexMatch m;
  if (meta.search(head, m)) {
    std::string label = charset_parameter(m[0].str());
    // A page that says UTF-16 in ASCII bytes is not UTF-16 (the HTML spec's prescan says so too).
    if (!label.empty() && label.rfind("utf-16", 0) != 0) return canonical(label);
  }
  return valid_utf8(bytes) ? "utf-8" : "windows-1252";
}

std::string to_utf8(std::string_view bytes, const std::string& charset) {
  if (charset == "utf-8" && bytes.substr(0, 3) == "\xEF\xBB\xBF") bytes.remove_prefix(3);
  if (charset == "utf-8" && valid_utf8(bytes)) return std::string(bytes);
  iconv_t cd = iconv_open("UTF-8", charset.c_str());
  if (cd == reinterpret_cast<iconv_t>(-1)) cd = iconv_open("UTF-8", "UTF-8");  // unknown label
  std::string out;
  out.reserve(bytes.size() + bytes.size() / 4);
  char buffer[16384];
  char* in = const_cast<char*>(bytes.data());
  std::size_t in_left = bytes.size();
  while (in_left > 0) {
    char* o = buffer;
    std::size_t o_left = sizeof buffer;
    const std::size_t r = iconv(cd, &in, &in_left, &o, &o_left);
    out.append(buffer, sizeof buffer - o_left);
    if (r == static_cast<std::size_t>(-1)) {
      if (errno == E2BIG) continue;
      // EILSEQ or EINVAL (cut at the end): one replacement character for the byte.
      out += "\xEF\xBF\xBD";
      ++in;
      --in_left;
    }
  }
  iconv_close(cd);
  return out;
}

}  // namespace gleaner::plain
