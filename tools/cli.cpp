// Command-line parsing: see cli.h.
#include "tools/cli.h"

#include <cstdlib>
#include <fmt/format.h>

namespace tfs::tools {

const char *kHelpText = R"(usage: tfs run FILE.tfs [options]
       tfs FILE.tfs [options]          (same as `tfs run`)
       tfs --help | --version
       (other arguments after FILE, and all after `--`, go to the script
        as sys.argv[1:])

Runs a .tfs script: top-level code runs eagerly like TensorFlow 2; functions
decorated with @tf.function are converted by AutoGraph, traced into a graph
and run by the chosen backend.

options:
  --backend=jit|interp   how traced graphs run: compiled by LLVM (default) or
                         on the reference graph interpreter
  --emit=STAGE           print an intermediate form and what the stage needs:
                           ast        the parsed syntax tree (then stop)
                           autograph  converted code of every traced function
                           graph      each traced graph, before optimization
                           graph-opt  each traced graph, after optimization
                           llvm       LLVM IR of each compiled graph
  --emit-graph           short for --emit=graph-opt
  --print-loc            add loc("file.tfs":line:col) to printed graph nodes
  --run-functions-eagerly  run tf.function bodies as plain Python (no tracing),
                         as tf.config.run_functions_eagerly(True) does
  --max-steps=N          stop with an error after N interpreter steps
  --max-memory=BYTES     limit on tensor memory (default: half of RAM); K/M/G
                         suffixes accepted
  --help                 this text
  --version              the tfs version

exit status: 0 success, 1 error in the script, 2 usage error.
)";

namespace {
bool parseBytes(const std::string &s, int64_t &out) {
  if (s.empty()) return false;
  char *end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  std::string suffix(end);
  double mul = 1;
  if (suffix == "K" || suffix == "k") mul = 1024.0;
  else if (suffix == "M" || suffix == "m") mul = 1024.0 * 1024;
  else if (suffix == "G" || suffix == "g") mul = 1024.0 * 1024 * 1024;
  else if (!suffix.empty()) return false;
  if (v <= 0) return false;
  out = int64_t(v * mul);
  return true;
}
}  // namespace

std::optional<DriverOptions> parseCommandLine(const std::vector<std::string> &args,
                                              std::string &error) {
  DriverOptions o;
  size_t i = 0;
  if (!args.empty() && args[0] == "run") i = 1;
  for (; i < args.size(); ++i) {
    const std::string &a = args[i];
    auto value = [&](const std::string &flag) -> std::optional<std::string> {
      if (a.rfind(flag + "=", 0) == 0) return a.substr(flag.size() + 1);
      if (a == flag && i + 1 < args.size()) return args[++i];
      return std::nullopt;
    };
    if (a == "--help" || a == "-h") { o.help = true; continue; }
    if (a == "--version") { o.version = true; continue; }
    if (a == "--emit-graph") { o.emit = Emit::GraphOpt; continue; }
    if (a == "--print-loc") { o.run.printLoc = true; continue; }
    if (a == "--run-functions-eagerly") { o.run.runFunctionsEagerly = true; continue; }
    if (a.rfind("--backend", 0) == 0) {
      auto v = value("--backend");
      if (v == "jit") o.run.backend = runtime::Backend::Jit;
      else if (v == "interp") o.run.backend = runtime::Backend::Interp;
      else { error = "--backend must be 'jit' or 'interp'"; return std::nullopt; }
      continue;
    }
    if (a.rfind("--emit", 0) == 0) {
      auto v = value("--emit");
      if (v == "ast") o.emit = Emit::Ast;
      else if (v == "autograph") o.emit = Emit::Autograph;
      else if (v == "graph") o.emit = Emit::Graph;
      else if (v == "graph-opt") o.emit = Emit::GraphOpt;
      else if (v == "llvm") o.emit = Emit::Llvm;
      else { error = "--emit must be one of ast, autograph, graph, graph-opt, llvm"; return std::nullopt; }
      continue;
    }
    if (a.rfind("--max-steps", 0) == 0) {
      auto v = value("--max-steps");
      char *end = nullptr;
      long long n = v ? std::strtoll(v->c_str(), &end, 10) : 0;
      if (!v || *end || n <= 0) { error = "--max-steps needs a positive integer"; return std::nullopt; }
      o.run.maxSteps = n;
      continue;
    }
    if (a.rfind("--max-memory", 0) == 0) {
      auto v = value("--max-memory");
      if (!v || !parseBytes(*v, o.run.maxMemoryBytes)) {
        error = "--max-memory needs a size in bytes (K, M, G suffixes allowed)";
        return std::nullopt;
      }
      continue;
    }
    // After the script, tfs's own options (above) still apply; anything
    // else is the script's (sys.argv[1:]), and `--` hands over the rest.
    if (!o.file.empty()) {
      if (a == "--") {
        o.run.argv.insert(o.run.argv.end(), args.begin() + long(i) + 1, args.end());
        break;
      }
      o.run.argv.push_back(a);
      continue;
    }
    if (a.size() > 1 && a[0] == '-') { error = fmt::format("unknown option '{}'", a); return std::nullopt; }
    o.file = a;
    o.run.argv.push_back(a);
  }
  if (o.file.empty() && !o.help && !o.version) {
    error = "no input file";
    return std::nullopt;
  }
  o.run.emitAutograph = o.emit == Emit::Autograph;
  o.run.emitGraphRaw = o.emit == Emit::Graph;
  o.run.emitGraph = o.emit == Emit::GraphOpt;
  o.run.emitLlvm = o.emit == Emit::Llvm;
  return o;
}

}  // namespace tfs::tools
