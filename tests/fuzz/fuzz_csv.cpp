// The CSV export of a job's rows (GET /scrapers/jobs/{id}/results?format=csv): cells are page text,
// any bytes. The input is split into cells at 0x1F; a cell that is JSON is its value, anything else
// a string. The written line must read back (RFC 4180) as the same cells, each after a ' when it is
// text a spreadsheet would take for a formula (OWASP), and no cell read back may begin with one.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/json_depth.h"
#include "jobs/job_request.h"

namespace {

using nlohmann::json;

bool formula_start(const std::string& text) {
  return !text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos;
}

/// One CSV record ending in CRLF, read as RFC 4180 says; traps on anything else.
std::vector<std::string> read_record(const std::string& line) {
  std::vector<std::string> cells(1);
  std::size_t i = 0;
  bool quoted_cell = false;
  while (i < line.size()) {
    const char c = line[i];
    if (cells.back().empty() && !quoted_cell && c == '"') {
      quoted_cell = true;
      ++i;
      // Inside quotes until a lone quote.
      for (;;) {
        if (i >= line.size()) __builtin_trap();
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            cells.back() += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        cells.back() += line[i++];
      }
      continue;
    }
    if (c == ',') {
      cells.emplace_back();
      quoted_cell = false;
      ++i;
      continue;
    }
    if (c == '\r' && i + 2 == line.size() && line[i + 1] == '\n') return cells;
    if (quoted_cell || c == '"' || c == '\r' || c == '\n') __builtin_trap();  // unquoted special
    cells.back() += c;
    ++i;
  }
  __builtin_trap();  // no CRLF at the end
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> fields;
  json row = json::object();
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = std::min(input.find('\x1f', start), input.size());
    const std::string_view piece = input.substr(start, end - start);
    json value = gleaner::parse_json_within_depth(piece);
    if (value.is_discarded()) value = std::string(piece);
    fields.push_back("f" + std::to_string(fields.size()));
    row[fields.back()] = std::move(value);
    if (end == input.size() || fields.size() == 64) break;
    start = end + 1;
  }
  const std::string line = gleaner::jobs::csv_lines({row}, fields);
  const std::vector<std::string> cells = read_record(line);
  if (cells.size() != fields.size()) __builtin_trap();
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const json& value = row[fields[i]];
    std::string expected = value.is_null()     ? ""
                           : value.is_string() ? value.get<std::string>()
                                               : value.dump();
    if (!value.is_number() && formula_start(expected)) expected.insert(0, 1, '\'');
    if (cells[i] != expected) __builtin_trap();
    if (!value.is_number() && formula_start(cells[i])) __builtin_trap();
  }
  return 0;
}
