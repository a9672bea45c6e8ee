// The driver's commands (tools/): each wires the stages together for one
// way of running tfs and returns the process exit status.
#pragma once

#include "frontend/frontend.h"
#include "tools/cli.h"

#include <memory>

namespace tfs::tools {

// `tfs FILE`, `tfs -c CODE`, `tfs -`: parse, then run (or print the AST).
int runScript(DriverOptions o);
// `tfs` on a terminal: the interactive prompt (repl.cpp).
int runRepl(DriverOptions o);
// `tfs graph FILE -o out.svg` (graph_command.cpp).
int drawGraphs(DriverOptions o);
// `tfs inspect DIR`: a SavedModel's signatures and variables (inspect_command.cpp).
int inspectSavedModel(const DriverOptions &o);

// The program text the options name (a file, -c CODE, or stdin); null with
// `error` set when it cannot be read.
std::shared_ptr<frontend::SourceFile> loadSource(const DriverOptions &o, std::string &error);

}  // namespace tfs::tools
