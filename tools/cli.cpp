// Command-line parsing: see cli.h.
#include "tools/cli.h"

#include <cstdlib>
#include <fmt/format.h>

namespace tfs::tools {

// Also the source of the man page (help2man) and checked against the bash
// completion by a test: every option is documented here.
const char *kHelpText = R"(Usage: tfs [OPTION]... FILE.tfs [ARG]...
  or:  tfs run [OPTION]... FILE.tfs [ARG]...
  or:  tfs [OPTION]... -c CODE [ARG]...
  or:  tfs [OPTION]... - [ARG]...
  or:  tfs graph [OPTION]... FILE.tfs [-o PICTURE]
  or:  tfs inspect DIR
  or:  tfs
Compile and run TensorFlow-style Python scripts (.tfs files).

Top-level code runs eagerly like TensorFlow 2; functions decorated with
@tf.function are converted by AutoGraph, traced into a graph and run by the
chosen backend. A script prints what TensorFlow 2.15 prints for it.

Commands:
  run FILE.tfs           run a script (also `tfs FILE.tfs`); arguments after
                         FILE, and all after `--`, are the script's
                         sys.argv[1:]
  graph FILE.tfs         run the script and draw every graph it traced (and
                         every tf.compat.v1 graph a Session ran) into one
                         picture with Graphviz: -o out.svg (or .png, .pdf;
                         .dot writes the Graphviz text); default FILE.svg
  inspect DIR            print a SavedModel directory's signatures (inputs
                         and outputs, laid out as TF's saved_model_cli
                         prints them) and its variables
  (no script)            an interactive prompt when stdin is a terminal
                         (line editing, history, expression values echoed
                         as Python's prompt does); otherwise the script is
                         read from stdin

Options:
  -c CODE                run CODE as the script (sys.argv[0] is '-c')
  -                      read the script from stdin (sys.argv[0] is '-')
  --backend=jit|interp   how traced graphs run: compiled by LLVM (default)
                         or on the reference graph interpreter
  --emit=STAGE           print an intermediate form of every traced function
                         (to stderr, or to the -o file; never into the
                         program's output), each with a header naming the
                         function, the trace number, the argument signature
                         and why it retraced:
                           ast        the parsed syntax tree (then stop)
                           autograph  the AutoGraph-converted code
                           graph      each traced graph, before optimization
                           graph-opt  each traced graph, after optimization,
                                      and, for a graph with unknown
                                      dimensions, its copy specialized to
                                      each call's argument shapes when first
                                      run (what runs for those shapes)
                           llvm       LLVM IR of each compiled graph, with
                                      the count of natively compiled nodes
                                      and of nodes that call their kernel
                           asm        the machine code of each compiled graph
                           dot        a Graphviz digraph of each graph
  --emit-graph           short for --emit=graph-opt
  -o FILE, --output=FILE write --emit output to FILE (`tfs graph`: the
                         picture)
  --print-loc            add loc("file.tfs":line:col) to printed graph nodes
  --profile              after the run, print a table per traced function
                         (each node's op, source line, calls, total and mean
                         time, share) and where the time went (compiled code,
                         kernels, interpreter, compilation)
  --time                 after the run, print the time of each phase (parse,
                         convert, trace, optimize, compile, run)
  --run-functions-eagerly
                         run tf.function bodies as plain Python (no tracing),
                         as tf.config.run_functions_eagerly(True) does
  --max-steps=N          stop with an error after N interpreter steps
  --max-memory=BYTES     limit on tensor memory (default: half of RAM); K/M/G
                         suffixes accepted
  -h, --help             show this text
  --version              show the tfs commit, the LLVM version and the
                         TensorFlow/Keras version tfs follows

Exit status: 0 success, 1 error in the script, 2 usage error, 130
interrupted (Ctrl-C).
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

std::optional<Emit> parseEmit(const std::string &v) {
  if (v == "ast") return Emit::Ast;
  if (v == "autograph") return Emit::Autograph;
  if (v == "graph") return Emit::Graph;
  if (v == "graph-opt") return Emit::GraphOpt;
  if (v == "llvm") return Emit::Llvm;
  if (v == "asm") return Emit::Asm;
  if (v == "dot") return Emit::Dot;
  return std::nullopt;
}
}  // namespace

std::optional<DriverOptions> parseCommandLine(const std::vector<std::string> &args,
                                              bool stdinIsTerminal, std::string &error) {
  DriverOptions o;
  size_t i = 0;
  if (!args.empty() && args[0] == "run") i = 1;
  else if (!args.empty() && args[0] == "graph") {
    o.command = Command::Graph;
    i = 1;
  } else if (!args.empty() && args[0] == "inspect") {
    // tfs inspect DIR: no script runs, so no other option applies.
    if (args.size() == 2 && args[1] == "--help") {
      o.command = Command::Help;
      return o;
    }
    if (args.size() != 2 || args[1].empty() || args[1][0] == '-') {
      error = "tfs inspect needs a SavedModel directory: tfs inspect DIR";
      return std::nullopt;
    }
    o.command = Command::Inspect;
    o.file = args[1];
    return o;
  }
  bool haveScript = false;  // FILE, -c or - seen: the rest may be the script's
  for (; i < args.size(); ++i) {
    const std::string &a = args[i];
    // A value given as --flag=V, or as the next argument.
    auto value = [&](const std::string &flag) -> std::optional<std::string> {
      if (a.rfind(flag + "=", 0) == 0) return a.substr(flag.size() + 1);
      if (a == flag && i + 1 < args.size()) return args[++i];
      return std::nullopt;
    };
    if (a == "--help" || a == "-h") { o.command = Command::Help; continue; }
    if (a == "--version") { o.command = Command::Version; continue; }
    if (a == "--emit-graph") { o.emit = Emit::GraphOpt; continue; }
    if (a == "--print-loc") { o.run.printLoc = true; continue; }
    if (a == "--profile") { o.run.profile = true; continue; }
    if (a == "--time") { o.run.timePhases = true; continue; }
    if (a == "--run-functions-eagerly") { o.run.runFunctionsEagerly = true; continue; }
    if (a == "-o" || a.rfind("--output", 0) == 0) {
      auto v = a == "-o" ? (i + 1 < args.size() ? std::optional(args[++i]) : std::nullopt) : value("--output");
      if (!v || v->empty()) { error = "-o needs a file name"; return std::nullopt; }
      o.output = *v;
      continue;
    }
    if (a.rfind("--backend", 0) == 0) {
      auto v = value("--backend");
      if (v == "jit") o.run.backend = runtime::Backend::Jit;
      else if (v == "interp") o.run.backend = runtime::Backend::Interp;
      else { error = "--backend must be 'jit' or 'interp'"; return std::nullopt; }
      continue;
    }
    if (a.rfind("--emit", 0) == 0) {
      auto v = value("--emit");
      auto e = v ? parseEmit(*v) : std::nullopt;
      if (!e) {
        error = "--emit must be one of ast, autograph, graph, graph-opt, llvm, asm, dot";
        return std::nullopt;
      }
      o.emit = *e;
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
    if (haveScript) {
      if (a == "--") {
        o.run.argv.insert(o.run.argv.end(), args.begin() + long(i) + 1, args.end());
        break;
      }
      o.run.argv.push_back(a);
      continue;
    }
    if (a == "-c") {
      if (i + 1 >= args.size()) { error = "-c needs the code to run"; return std::nullopt; }
      o.source = Source::Code;
      o.code = args[++i];
      o.file = "<string>";
      o.run.argv.push_back("-c");
      haveScript = true;
      continue;
    }
    if (a == "-") {
      o.source = Source::Stdin;
      o.file = "<stdin>";
      o.run.argv.push_back("-");
      haveScript = true;
      continue;
    }
    if (a.size() > 1 && a[0] == '-') { error = fmt::format("unknown option '{}'", a); return std::nullopt; }
    o.source = Source::File;
    o.file = a;
    o.run.argv.push_back(a);
    haveScript = true;
  }
  if (o.command == Command::Help || o.command == Command::Version) return o;
  if (o.command == Command::Graph && o.source != Source::File) {
    error = "tfs graph needs a script: tfs graph FILE.tfs -o out.svg";
    return std::nullopt;
  }
  if (o.source == Source::None) {
    if (stdinIsTerminal) {
      o.command = Command::Repl;
      o.file = "<stdin>";
      o.run.argv.push_back("");
    } else {
      o.source = Source::Stdin;
      o.file = "<stdin>";
      o.run.argv.push_back("-");
    }
  }
  o.run.emitAutograph = o.emit == Emit::Autograph;
  o.run.emitGraphRaw = o.emit == Emit::Graph;
  o.run.emitGraph = o.emit == Emit::GraphOpt;
  o.run.emitLlvm = o.emit == Emit::Llvm;
  o.run.emitAsm = o.emit == Emit::Asm;
  o.run.emitDot = o.emit == Emit::Dot || o.command == Command::Graph;
  return o;
}

}  // namespace tfs::tools
