// Command-line parsing for the `tfs` driver (tools/): turns argv into a
// DriverOptions or a usage error. No other stage is touched here.
#pragma once

#include "runtime/interp/interp.h"

#include <optional>
#include <string>
#include <vector>

namespace tfs::tools {

// How far the pipeline runs and what it prints (STYLE.md: ordered like
// toyc's -emit; stages run only as far as requested).
enum class Emit { None, Ast, Autograph, Graph, GraphOpt, Llvm, Asm, Dot };

// What the command line asks for.
enum class Command {
  Run,      // tfs [run] FILE | -c CODE | - | (stdin not a terminal)
  Repl,     // tfs (stdin a terminal): the interactive prompt
  Graph,    // tfs graph FILE -o out.svg
  Inspect,  // tfs inspect DIR
  Help,
  Version,
};

// Where the program text comes from.
enum class Source { File, Code, Stdin, None };

struct DriverOptions {
  Command command = Command::Run;
  Source source = Source::None;
  std::string file;    // the script's path ("<string>" for -c, "<stdin>" for -)
  std::string code;    // -c CODE
  Emit emit = Emit::None;
  std::string output;  // -o FILE: --emit output, or the picture of `tfs graph`
  runtime::RunOptions run;
};

// Parses argv (without argv[0]). `stdinIsTerminal` decides what no script
// means: the prompt (a terminal) or a script read from stdin (a pipe), as
// python does. On a usage error returns nullopt and sets `error`.
std::optional<DriverOptions> parseCommandLine(const std::vector<std::string> &args,
                                              bool stdinIsTerminal, std::string &error);

extern const char *kHelpText;

// `tfs --version`: the tfs version and commit, the LLVM version, and the
// TensorFlow / Keras / Python / numpy versions whose behaviour tfs follows.
std::string versionText();

}  // namespace tfs::tools
