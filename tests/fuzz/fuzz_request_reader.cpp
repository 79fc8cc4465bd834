// The HTTP front door's request reader: any bytes a client sends, in any split. The first byte
// of the input chooses how the rest is cut into arrivals, as a network would cut it; whatever
// the cut, the reader must take each request whole or refuse it, never read past its limits,
// and never loop.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "api/request_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using gleaner::api::RequestReader;
  if (size == 0) return 0;
  const std::size_t step = 1 + data[0] % 64;
  const std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
  RequestReader::Limits limits;
  limits.max_line_bytes = 256;
  limits.max_head_bytes = 1024;
  limits.max_body_bytes = 2048;
  RequestReader reader(limits);
  std::string pending;
  std::size_t offered = 0;
  while (offered < input.size() || !pending.empty()) {
    const std::size_t more = std::min(step, input.size() - offered);
    pending.append(input.substr(offered, more));
    offered += more;
    std::size_t used = 0;
    const auto progress = reader.read(pending, used);
    if (used > pending.size()) __builtin_trap();
    pending.erase(0, used);
    if (progress == RequestReader::Progress::Failed) break;
    if (progress == RequestReader::Progress::Done) {
      const auto request = reader.take();
      if (request.body.size() > limits.max_body_bytes) __builtin_trap();
      continue;  // a pipelined request may follow in `pending`
    }
    if (more == 0) break;  // nothing more will arrive
  }
  return 0;
}
