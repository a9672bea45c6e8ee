// runScript (driver.h): the pipeline for a whole script.
#include "tools/driver.h"

#include "runtime/interp/interp.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <iterator>

namespace tfs::tools {

std::shared_ptr<frontend::SourceFile> loadSource(const DriverOptions &o, std::string &error) {
  switch (o.source) {
  case Source::Code: return std::make_shared<frontend::SourceFile>(o.file, o.code);
  case Source::Stdin: {
    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    return std::make_shared<frontend::SourceFile>(o.file, std::move(text));
  }
  case Source::File: return frontend::readSourceFile(o.file, error);
  case Source::None: break;
  }
  error = "no input";
  return nullptr;
}

int runScript(DriverOptions o) {
  std::string error;
  auto file = loadSource(o, error);
  if (!file) {
    std::fprintf(stderr, "tfs: error: %s\n", error.c_str());
    return 2;  // like `python3 missing.py`: a usage problem, not a script error
  }
  std::FILE *emitFile = nullptr;
  if (!o.output.empty()) {
    emitFile = std::fopen(o.output.c_str(), "w");
    if (!emitFile) {
      std::fprintf(stderr, "tfs: error: cannot write '%s'\n", o.output.c_str());
      return 2;
    }
    o.run.emitStream = emitFile;
  }
  std::unique_ptr<ast::Module> module;
  auto start = std::chrono::steady_clock::now();
  int status = 0;
  try {
    module = frontend::parseFile(file);
  } catch (const frontend::SyntaxErrorException &e) {
    std::fputs(frontend::formatDiagnostic(e.diag).c_str(), stderr);
    status = 1;
  }
  o.run.parseSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (module && o.emit == Emit::Ast)
    runtime::writeEmitted(o.run, frontend::printAst(*module));
  else if (module)
    status = runtime::runModule(*module, o.run);
  if (emitFile) std::fclose(emitFile);
  return status;
}

}  // namespace tfs::tools
