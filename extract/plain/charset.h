#pragma once
// The fetched page's bytes as UTF-8, the way a browser decides their encoding: a byte-order mark,
// else the charset of Content-Type, else a <meta charset> / <meta http-equiv=content-type> in the
// first 4 KiB, else UTF-8 when the bytes are valid UTF-8 and windows-1252 when not. Labels follow
// the WHATWG Encoding Standard where it differs from iconv (latin1 and ascii mean windows-1252,
// gb2312 means GBK). Bytes that do not decode become U+FFFD.
#include <string>
#include <string_view>

namespace gleaner::plain {

/// The encoding label `bytes` are in (e.g. "utf-8", "windows-1252", "shift_jis").
std::string sniff_charset(std::string_view bytes, std::string_view content_type);

/// `bytes` decoded from `charset` (a label as sniff_charset gives) to valid UTF-8.
std::string to_utf8(std::string_view bytes, const std::string& charset);

}  // namespace gleaner::plain
