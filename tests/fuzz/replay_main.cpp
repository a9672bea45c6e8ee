// A main() for the fuzz targets in the regular (gcc, unsanitized) build:
// runs each file named on the command line through the target once, as
// libFuzzer does with file arguments. `make test` uses it (the fuzz_replay
// test, scripts/fuzz_replay.sh) to replay the checked-in crash reproducers
// and every seed the campaigns start from, without the second, sanitized
// build that real fuzzing needs (`make fuzz`, `make fuzz-smoke`).
//
// Scripts print, and fail, on stdout/stderr: both go to /dev/null while an
// input runs; progress and findings go to the stderr saved by
// quietOutput (fuzz_common.h). A finding aborts, naming the input.
#include "tests/fuzz/fuzz_common.h"

#include <cstdint>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv);
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {
void say(const std::string &s) {
  ssize_t n = ::write(tfs::fuzz::reportFd(), s.data(), s.size());
  (void)n;
}
}  // namespace

int main(int argc, char **argv) {
  LLVMFuzzerInitialize(&argc, &argv);
  int devnull = ::open("/dev/null", O_WRONLY);
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i)
    if (argv[i][0] != '-') files.emplace_back(argv[i]);
  for (const std::string &path : files) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      say("replay: cannot read " + path + "\n");
      return 2;
    }
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // Named before it runs: a crash or the time limit ends the process here.
    say("replay: " + path + "\n");
    if (devnull >= 0) {
      ::dup2(devnull, 1);
      ::dup2(devnull, 2);
    }
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
  }
  say("replay: " + std::to_string(files.size()) + " inputs, no findings\n");
  return 0;
}
