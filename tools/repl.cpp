// runRepl (driver.h): the interactive prompt. Lines are read with libedit
// (line editing and history, kept in ~/.tfs_history); an input is complete
// as in Python's interactive mode: a simple statement at once, a compound
// statement (a line ending in ':' or a decorator) at the first empty line,
// and an open bracket or triple-quoted string waits for more lines. Each
// complete input runs in one InteractiveSession, which echoes expression
// values; an error is printed and the prompt comes back. Ctrl-D (or
// exit()) leaves; Ctrl-C drops the line being typed.
#include "tools/driver.h"

#include "runtime/interp/interp.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <editline/readline.h>
#include <string>

namespace tfs::tools {
namespace {

std::atomic<bool> promptInterrupted{false};

void onPromptSigint(int) { promptInterrupted = true; }

// The text of `line` before a comment, without trailing blanks (a '#' in
// a string is rare at a prompt; a wrong guess only asks for one more line).
std::string codePart(const std::string &line) {
  std::string s = line.substr(0, line.find('#'));
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back();
  return s;
}

bool isBlank(const std::string &line) { return codePart(line).find_first_not_of(" \t") == std::string::npos; }

// Syntax errors that more lines could fix.
bool isIncomplete(const frontend::Diagnostic &d) {
  const std::string &m = d.message;
  return m.find("was never closed") != std::string::npos ||
         m.find("unterminated triple-quoted") != std::string::npos ||
         m.find("expected an indented block") != std::string::npos ||
         m.find("unexpected EOF") != std::string::npos;
}

// One line from the user; nullopt at end of input. Ctrl-C while typing
// gives KeyboardInterrupt as Python's prompt does: the input so far is
// dropped.
enum class Read { Line, Eof, Interrupted };
Read readLine(const char *prompt, std::string &out) {
  struct sigaction sa {}, old {};
  sa.sa_handler = onPromptSigint;  // no SA_RESTART: the read returns
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old);
  promptInterrupted = false;
  char *line = readline(prompt);
  sigaction(SIGINT, &old, nullptr);
  if (promptInterrupted) {
    std::free(line);
    return Read::Interrupted;
  }
  if (!line) return Read::Eof;
  out = line;
  std::free(line);
  return Read::Line;
}

std::string historyPath() {
  const char *home = std::getenv("HOME");
  return home ? std::string(home) + "/.tfs_history" : "";
}

}  // namespace

int runRepl(DriverOptions o) {
  std::fprintf(stderr, "%s", versionText().c_str());
  std::fprintf(stderr, "Type Ctrl-D or exit() to leave; start with `import tensorflow as tf`.\n");
  using_history();
  std::string history = historyPath();
  if (!history.empty()) read_history(history.c_str());
  runtime::InteractiveSession session(o.run);
  int status = 0;
  while (true) {
    std::string buffer, line;
    bool block = false;
    const char *prompt = ">>> ";
    bool done = false, eof = false;
    while (!done) {
      Read r = readLine(prompt, line);
      if (r == Read::Eof) {
        eof = true;
        break;
      }
      if (r == Read::Interrupted) {
        std::fputs("\nKeyboardInterrupt\n", stderr);
        buffer.clear();
        break;
      }
      if (!isBlank(line)) add_history(line.c_str());
      if (buffer.empty() && isBlank(line)) continue;  // an empty prompt line
      buffer += line + "\n";
      prompt = "... ";
      std::string code = codePart(line);
      if (!block && (code.empty() ? false : code.back() == ':' || code.front() == '@')) block = true;
      if (block) {
        done = isBlank(line);
        continue;
      }
      try {
        frontend::parseSource(o.file, buffer);
        done = true;
      } catch (const frontend::SyntaxErrorException &e) {
        if (isIncomplete(e.diag)) {
          if (e.diag.message.find("expected an indented block") != std::string::npos) block = true;
          continue;
        }
        done = true;
      }
    }
    if (eof) std::fputc('\n', stderr);
    if (buffer.empty()) {
      if (eof) break;
      continue;
    }
    // Each input is its own source file, so errors quote its lines.
    std::shared_ptr<ast::Module> module;
    try {
      module = frontend::parseFile(std::make_shared<frontend::SourceFile>(o.file, buffer));
    } catch (const frontend::SyntaxErrorException &e) {
      std::fputs(frontend::formatDiagnostic(e.diag).c_str(), stderr);
      if (eof) break;
      continue;
    }
    runtime::InteractiveSession::Outcome r = session.run(module);
    if (r.exited) {
      status = r.status;
      break;
    }
    if (eof) break;
  }
  if (!history.empty()) write_history(history.c_str());
  session.finish();
  return status;
}

}  // namespace tfs::tools
