// drawGraphs (driver.h): `tfs graph FILE.tfs -o out.svg` runs the script
// with every traced graph emitted as a Graphviz cluster into a buffer, wraps
// the clusters in one digraph and renders it with Graphviz's `dot` (found
// on PATH; Debian's graphviz package).
#include "tools/driver.h"

#include "ir/dot.h"
#include "runtime/interp/interp.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace tfs::tools {
namespace {

std::string extensionOf(const std::string &path) {
  std::string ext = std::filesystem::path(path).extension().string();
  return ext.empty() ? "" : ext.substr(1);
}

// Runs `dot -T<format> -o <out> <in>`; returns its exit status (127 when
// it could not be started).
int runDot(const std::string &format, const std::string &in, const std::string &out) {
  std::string t = "-T" + format;
  std::vector<std::string> argv = {"dot", t, "-o", out, in};
  std::vector<char *> cargs;
  for (auto &a : argv) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  pid_t pid;
  if (posix_spawnp(&pid, "dot", nullptr, nullptr, cargs.data(), environ) != 0) return 127;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 127;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

}  // namespace

int drawGraphs(DriverOptions o) {
  std::string error;
  auto file = loadSource(o, error);
  if (!file) {
    std::fprintf(stderr, "tfs: error: %s\n", error.c_str());
    return 2;
  }
  std::string out = o.output;
  if (out.empty()) out = std::filesystem::path(o.file).stem().string() + ".svg";
  std::string format = extensionOf(out);
  if (format.empty()) format = "svg";
  std::unique_ptr<ast::Module> module;
  try {
    module = frontend::parseFile(file);
  } catch (const frontend::SyntaxErrorException &e) {
    std::fputs(frontend::formatDiagnostic(e.diag).c_str(), stderr);
    return 1;
  }
  char *buffer = nullptr;
  size_t size = 0;
  std::FILE *clusters = open_memstream(&buffer, &size);
  if (!clusters) {
    std::fprintf(stderr, "tfs: error: out of memory\n");
    return 1;
  }
  o.run.emitDot = true;
  o.run.dotClusters = true;
  o.run.emitStream = clusters;
  int status = runtime::runModule(*module, o.run);
  std::fclose(clusters);
  std::string body(buffer, size);
  std::free(buffer);
  if (body.find("subgraph cluster_") == std::string::npos) {
    std::fprintf(stderr, "tfs graph: %s traced no tf.function and ran no tf.compat.v1 graph: nothing to draw\n",
                 o.file.c_str());
    return status ? status : 1;
  }
  std::string dotText = ir::dotPictureBegin() + body + ir::dotPictureEnd();
  bool rawDot = format == "dot" || format == "gv";
  std::string dotPath = rawDot ? out : out + ".tmp.dot";
  {
    std::ofstream f(dotPath);
    f << dotText;
    if (!f) {
      std::fprintf(stderr, "tfs: error: cannot write '%s'\n", dotPath.c_str());
      return 2;
    }
  }
  if (!rawDot) {
    int rc = runDot(format, dotPath, out);
    std::filesystem::remove(dotPath);
    if (rc == 127) {
      std::fprintf(stderr, "tfs graph: cannot run Graphviz's `dot` (install the graphviz package, or "
                           "write the Graphviz text with -o %s.dot)\n",
                   std::filesystem::path(out).stem().c_str());
      return 1;
    }
    if (rc != 0) {
      std::fprintf(stderr, "tfs graph: `dot -T%s` failed (status %d)\n", format.c_str(), rc);
      return 1;
    }
  }
  std::fprintf(stderr, "tfs graph: wrote %s\n", out.c_str());
  return status;
}

}  // namespace tfs::tools
