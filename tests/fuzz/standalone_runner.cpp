// Runs a fuzz target without libFuzzer: every file named on the command line, or every file of
// every directory named, is passed once to LLVMFuzzerTestOneInput. A target that crashes, throws
// or trips a sanitizer on one of them fails the run, and the file's name is printed first.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

void run_one(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  std::cerr << "input " << file.string() << " (" << bytes.size() << " bytes)\n";
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t inputs = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path path(argv[i]);
    if (std::filesystem::is_directory(path)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
        if (!entry.is_regular_file()) continue;
        run_one(entry.path());
        ++inputs;
      }
    } else {
      run_one(path);
      ++inputs;
    }
  }
  if (inputs == 0) {
    std::cerr << "no input: name a seed corpus directory or files\n";
    return 1;
  }
  std::cerr << inputs << " inputs ran\n";
  return 0;
}
