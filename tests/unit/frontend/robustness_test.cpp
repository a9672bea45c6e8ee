// Front end on hostile and edge-case input: resource limits give clean
// errors (never a crash), the indentation layer follows CPython's tokenizer,
// diagnostics have the documented format, and clone() keeps spans.
#include "frontend/frontend.h"

#include <doctest/doctest.h>

#include <llvm/Support/Casting.h>

using namespace tfs;

namespace {
frontend::Diagnostic errorOf(const std::string &src) {
  try {
    frontend::parseSource("t.tfs", src);
  } catch (const frontend::SyntaxErrorException &e) {
    return e.diag;
  }
  FAIL("expected an error for: " << src.substr(0, 60));
  return {};
}
std::string repeat(const std::string &s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}
}  // namespace

TEST_CASE("empty and blank files") {
  CHECK(frontend::parseSource("t.tfs", "")->body.empty());
  CHECK(frontend::parseSource("t.tfs", "\n\n# only a comment\n   \n")->body.empty());
  CHECK(frontend::parseSource("t.tfs", "x = 1")->body.size() == 1);  // no final newline
}

TEST_CASE("encoding errors") {
  auto d = errorOf(std::string("x = 1\0\n", 7));
  CHECK(d.message == "source code cannot contain null bytes");
  d = errorOf("x = 1\ny = '\xff'\n");
  CHECK(d.errorClass == "SyntaxError");
  CHECK(d.message.find("Non-UTF-8 code starting with '\\xff'") == 0);
  CHECK(d.span.line == 2);
}

TEST_CASE("nesting limits") {
  auto d = errorOf("x = " + repeat("(", 250) + "1" + repeat(")", 250) + "\n");
  CHECK(d.message == "too many nested parentheses");
  CHECK(d.span.col == 205);  // the 201st bracket, like CPython
  d = errorOf(repeat("-", 5000) + "1\n");
  CHECK(d.errorClass == "RecursionError");
  std::string deepIfs = "x = 1\n";
  for (int i = 0; i < 120; ++i) deepIfs += std::string(size_t(i), ' ') + "if x:\n";
  deepIfs += std::string(120, ' ') + "pass\n";
  d = errorOf(deepIfs);
  CHECK(d.errorClass == "IndentationError");
  CHECK(d.message == "too many levels of indentation");
  CHECK(d.span.line == 102);
  // Deep but legal: 150 nested brackets, 90 indentation levels.
  CHECK_NOTHROW(frontend::parseSource("t.tfs", "x = " + repeat("[", 150) + repeat("]", 150) + "\n"));
  std::string ok;
  for (int i = 0; i < 90; ++i) ok += std::string(size_t(i), ' ') + "if x:\n";
  ok += std::string(90, ' ') + "pass\n";
  CHECK_NOTHROW(frontend::parseSource("t.tfs", ok));
}

TEST_CASE("long chains are rejected before they can exhaust the stack") {
  auto d = errorOf("x = a" + repeat(".b", 20000) + "\n");
  CHECK(d.errorClass == "RecursionError");
  d = errorOf("x = " + repeat("1 + ", 600000) + "1\n");
  CHECK(d.message.find("statement too long") == 0);
}

TEST_CASE("many statements parse one at a time") {
  auto m = frontend::parseSource("t.tfs", repeat("x = x + 1\n", 20000));
  REQUIRE(m->body.size() == 20000);
  CHECK(m->body.back()->span.line == 20000);
  // The error in a late statement is still found, at its position.
  auto d = errorOf(repeat("x = 1\n", 500) + "if x\n    pass\n");
  CHECK(d.message == "expected ':'");
  CHECK(d.span.line == 501);
}

TEST_CASE("indentation layer") {
  // Blank/comment lines are ignored, brackets and backslashes join lines.
  auto m = frontend::parseSource("t.tfs",
                                 "if x:\n\ty = [1,\n  2]\n\n        # comment\n\tz = 1 + \\\n 2\n");
  REQUIRE(m->body.size() == 1);
  auto *iff = llvm::dyn_cast<ast::If>(m->body[0].get());
  REQUIRE(iff);
  CHECK(iff->body.size() == 2);
  // A tab counts to the next multiple of 8, but a block indented by a tab
  // on one line and 8 spaces on the next depends on the tab size: CPython's
  // TabError.
  auto d = errorOf("if x:\n\ty = 1\n        z = 1\n");
  CHECK(d.errorClass == "TabError");
  CHECK(d.span.line == 3);
  d = errorOf("if x:\n        a = 1\n    b = 2\n");
  CHECK(d.message == "unindent does not match any outer indentation level");
  d = errorOf("x = 1\n  y = 2\n");
  CHECK(d.message == "unexpected indent");
  d = errorOf("while x:\npass\n");
  CHECK(d.message == "expected an indented block after 'while' statement on line 1");
  d = errorOf("class A:\n\n# c\nx = 1\n");
  CHECK(d.message == "expected an indented block after class definition on line 1");
}

TEST_CASE("strings") {
  auto d = errorOf("x = '''abc\n\n");
  CHECK(d.message == "unterminated triple-quoted string literal (detected at line 2)");
  CHECK(d.span.col == 5);
  d = errorOf("x = \"\"\"abc\"\n");
  CHECK(d.message == "unterminated triple-quoted string literal (detected at line 1)");
  d = errorOf("x = 'abc\ny = 2\n");
  CHECK(d.message == "unterminated string literal (detected at line 1)");
  d = errorOf("x = '\\N{BULLET}'\n");
  CHECK(d.message.find("\\N{...} escapes are not supported") != std::string::npos);
  CHECK_NOTHROW(frontend::parseSource("t.tfs", "x = '''a\"\"\"b''' + \"\"\"c'''d\"\"\"\n"));
}

TEST_CASE("diagnostic format") {
  auto d = errorOf("x = 1\nprint(f(1, 2)\n");
  CHECK(frontend::formatDiagnostic(d) ==
        "t.tfs:2:6: error: SyntaxError: '(' was never closed\n"
        "    print(f(1, 2)\n"
        "         ^\n");
}

TEST_CASE("clone keeps structure and spans") {
  auto m = frontend::parseSource("t.tfs",
                                 "@d(1)\ndef f(a, *b, c=2, **k):\n    with x as (y, z):\n"
                                 "        return [i for i in a if i] + f\"{c!r:>{a}}\"\n");
  ast::Module copy;
  copy.file = m->file;
  copy.body = ast::cloneBody(m->body);
  CHECK(frontend::printAst(copy) == frontend::printAst(*m));
}

TEST_CASE("a huge source line is shown as a window around the caret") {
  std::string src = "x = [" + repeat("1, ", 100000) + "+]\n";
  auto d = errorOf(src);
  std::string text = frontend::formatDiagnostic(d);
  CHECK(text.size() < 2400);
  CHECK(text.find("\n    ...") != std::string::npos);
  CHECK(text.find("1, +]\n") != std::string::npos);
  auto caretLine = text.substr(text.rfind('\n', text.size() - 2) + 1);
  auto sourceLine = text.substr(text.find('\n') + 1);
  CHECK(sourceLine[caretLine.find('^')] == ']');
}
