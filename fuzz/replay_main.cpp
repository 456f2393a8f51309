// Replays corpus files through a fuzz target's LLVMFuzzerTestOneInput without libFuzzer,
// so the normal test trees (gcc; ASan+UBSan in build/asan) re-check every corpus input.
//   <target>_replay [--expect N] [--skip LIST] DIR|FILE...   (a directory: every regular
//                                                           file in it, in name order)
// LIST names inputs to leave out, one file name a line ('#' starts a comment): the
// sanitizer tree skips the few that take a minute there (fuzz/slow/). Every skipped input
// is named, and a LIST naming an input that is not there is an error, so it cannot go stale.
// Fails when given no input at all, or other than N inputs with --expect (the number
// fuzz/corpus/index.txt gives the target's archive): a corpus that did not unpack whole
// would make the test pass on less than it claims.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

// The file names in LIST, or exits with a message when it cannot be read.
std::set<std::string> skip_list(const std::filesystem::path& list) {
  std::ifstream file(list);
  if (!file) {
    std::cerr << "replay: cannot read the skip list " << list.string() << '\n';
    std::exit(1);
  }
  std::set<std::string> names;
  for (std::string line; std::getline(file, line);) {
    line = line.substr(0, line.find('#'));
    line.erase(line.find_last_not_of(" \t\r") + 1);
    if (!line.empty()) names.insert(line);
  }
  return names;
}

// N of --expect N, or exits with a message when it is not a count.
std::size_t expected_inputs(const std::string& text) {
  std::size_t count = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), count);
  if (error != std::errc{} || end != text.data() + text.size()) {
    std::cerr << "replay: --expect wants a number of inputs, not '" << text << "'\n";
    std::exit(1);
  }
  return count;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::filesystem::path> inputs;
  std::set<std::string> skip;
  std::optional<std::size_t> expected;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--skip" && i + 1 < argc) {
      skip = skip_list(argv[++i]);
      continue;
    }
    if (std::string(argv[i]) == "--expect" && i + 1 < argc) {
      expected = expected_inputs(argv[++i]);
      continue;
    }
    const std::filesystem::path arg(argv[i]);
    if (!std::filesystem::is_directory(arg)) {
      inputs.push_back(arg);
      continue;
    }
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(arg)) {
      if (entry.is_regular_file()) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    inputs.insert(inputs.end(), files.begin(), files.end());
  }
  if (inputs.empty()) {
    std::cerr << "replay: no inputs (usage: " << argv[0] << " DIR|FILE...)\n";
    return 1;
  }
  if (expected && inputs.size() != *expected) {
    std::cerr << "replay: " << inputs.size() << " inputs, expected " << *expected << '\n';
    return 1;
  }
  std::size_t skipped = 0;
  for (const auto& path : inputs) {
    if (skip.contains(path.filename().string())) {
      std::cerr << "replay: " << path.filename().string() << ": skipped (in the skip list)\n";
      ++skipped;
      continue;
    }
    std::ifstream file(path, std::ios::binary);
    if (!file) {
      std::cerr << "replay: cannot read " << path.string() << '\n';
      return 1;
    }
    const std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    std::cerr << "replay: " << path.filename().string() << '\n';  // names the input a crash comes from
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  if (skipped != skip.size()) {
    std::cerr << "replay: the skip list names " << skip.size() - skipped << " input(s) not among the inputs\n";
    return 1;
  }
  std::cout << "replay: " << inputs.size() - skipped << " inputs, no finding (" << skipped << " skipped)\n";
  return 0;
}
