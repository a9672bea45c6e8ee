// The parser driver: text -> tokens -> parse tree -> AST.
//
// 1. Reject what CPython rejects before tokenizing: NUL bytes, non-UTF-8.
// 2. Tokenize everything through IndentTokenSource; a tokenizer error
//    (indentation, brackets) is reported as is, before parsing, which also
//    keeps pathological nesting away from the recursive-descent parser.
// 3. Parse one top-level statement at a time with SLL prediction; on
//    failure re-parse it with full LL and the error listener (TOOLCHAIN.md:
//    much faster on large files). Each statement's parse tree is freed once
//    its AST is built.
// 4. Turn the first parse error into CPython's message (expected ':',
//    unexpected indent, expected an indented block, unterminated string...).
#include "TfsLexer.h"
#include "TfsParser.h"
#include "frontend/ast_builder.h"
#include "frontend/frontend.h"
#include "frontend/indent_token_source.h"
#include "frontend/soft_keywords.h"

#include <fmt/format.h>

namespace tfs::frontend {

using grammar::TfsLexer;

namespace {

[[noreturn]] void fail(const SourceFile *file, std::string cls, std::string msg, uint32_t line,
                       uint32_t col) {
  SourceSpan s;
  s.file = file;
  s.line = s.endLine = line;
  s.col = s.endCol = col;
  throw SyntaxErrorException{Diagnostic{std::move(cls), std::move(msg), s, {}, {}}};
}

void checkEncoding(const SourceFile &file) {
  const std::string &t = file.text();
  uint32_t line = 1;
  for (size_t i = 0; i < t.size();) {
    unsigned char c = static_cast<unsigned char>(t[i]);
    if (c == 0)
      fail(&file, "SyntaxError", "source code cannot contain null bytes", line, 1);
    if (c == '\n') ++line;
    size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = n != 0 && i + n <= t.size();
    for (size_t k = 1; ok && k < n; ++k)
      ok = (static_cast<unsigned char>(t[i + k]) & 0xC0) == 0x80;
    // Well-formed but invalid sequences, which CPython rejects too and on
    // which ANTLR's UTF-8 decoder throws std::range_error: overlong forms,
    // surrogates (U+D800..DFFF) and code points above U+10FFFF (found by
    // tests/fuzz/fuzz_parser).
    if (ok && n >= 2) {
      unsigned char c1 = static_cast<unsigned char>(t[i + 1]);
      ok = !(c == 0xC0 || c == 0xC1 || c > 0xF4 || (c == 0xE0 && c1 < 0xA0) ||
             (c == 0xED && c1 > 0x9F) || (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 > 0x8F));
    }
    if (!ok)
      fail(&file, "SyntaxError",
           fmt::format("Non-UTF-8 code starting with '\\x{:02x}' in file {} on line {}, but no "
                       "encoding declared; see https://peps.python.org/pep-0263/ for details",
                       c, file.path(), line),
           line, 1);
    i += n;
  }
}

// Deeper parse trees than this are rejected before the recursive-descent
// parser can exhaust the stack. Ordinary code stays under ~100; 200 nested
// brackets (the token source's limit) take about 3500.
constexpr size_t kMaxParseDepth = 6000;

// The generated parser with a depth check on every rule entry.
class GuardedParser : public grammar::TfsParser {
public:
  GuardedParser(antlr4::TokenStream *tokens, const SourceFile *file)
      : grammar::TfsParser(tokens), file_(file) {}

  void enterRule(antlr4::ParserRuleContext *ctx, size_t state, size_t rule) override {
    grammar::TfsParser::enterRule(ctx, state, rule);
    if (static_cast<grammar::DepthContext *>(ctx)->depth > kMaxParseDepth) {
      antlr4::Token *t = getCurrentToken();
      fail(file_, "RecursionError", "maximum recursion depth exceeded during compilation",
           uint32_t(t->getLine()), uint32_t(t->getCharPositionInLine() + 1));
    }
  }

private:
  const SourceFile *file_;
};

struct FirstError : antlr4::BaseErrorListener {
  bool has = false;
  antlr4::Token *token = nullptr;
  std::string msg;
  void syntaxError(antlr4::Recognizer *, antlr4::Token *offending, size_t, size_t,
                   const std::string &m, std::exception_ptr) override {
    if (has) return;
    has = true;
    token = offending;
    msg = m;
  }
};

std::string blockOwner(antlr4::TokenStream &tokens, size_t colonIndex) {
  // The first token on the colon's logical line names the statement.
  size_t i = colonIndex;
  while (i > 0) {
    size_t t = tokens.get(i - 1)->getType();
    if (t == TfsLexer::NEWLINE || t == grammar::TfsParser::INDENT ||
        t == grammar::TfsParser::DEDENT)
      break;
    --i;
  }
  std::string kw = tokens.get(i)->getText();
  if (kw == "def") return "function definition";
  if (kw == "class") return "class definition";
  if (kw == "@") return "function definition";
  return "'" + kw + "' statement";
}

[[noreturn]] void reportParseError(const SourceFile *file, antlr4::CommonTokenStream &tokens,
                                   const FirstError &err) {
  antlr4::Token *t = err.token;
  uint32_t line = uint32_t(t->getLine()), col = uint32_t(t->getCharPositionInLine() + 1);
  size_t idx = t->getTokenIndex();
  auto prev = [&](size_t back) -> antlr4::Token * {
    return idx >= back ? tokens.get(idx - back) : nullptr;
  };
  if (t->getType() == grammar::TfsParser::INDENT)
    fail(file, "IndentationError", "unexpected indent", line, col);
  antlr4::Token *p1 = prev(1), *p2 = prev(2);
  if (p1 && p2 && p1->getType() == TfsLexer::NEWLINE && p2->getText() == ":" &&
      t->getType() != grammar::TfsParser::INDENT) {
    fail(file, "IndentationError",
         fmt::format("expected an indented block after {} on line {}",
                     blockOwner(tokens, p2->getTokenIndex()), p2->getLine()),
         line, col);
  }
  if (t->getType() == TfsLexer::UNKNOWN_CHAR) {
    std::string c = t->getText();
    if (c == "'" || c == "\"") {
      // Is it the start of a triple-quoted string?
      // (ANTLR's column counts code points and its lines only '\n', so it may
      // lie past this byte view of the line: then there is no rest.)
      std::string_view text = file->line(line);
      size_t pos = size_t(t->getCharPositionInLine());
      std::string_view rest = pos <= text.size() ? text.substr(pos) : std::string_view();
      bool triple = rest.substr(0, 3) == std::string(3, c[0]);
      uint32_t detected = triple ? file->lineCount() : line;
      fail(file, "SyntaxError",
           fmt::format("unterminated {}string literal (detected at line {})",
                       triple ? "triple-quoted " : "", detected),
           line, col);
    }
    if (!c.empty() && static_cast<unsigned char>(c[0]) >= 0x80) {
      std::u32string u = antlrcpp::utf8_to_utf32(c.data(), c.data() + c.size());
      fail(file, "SyntaxError",
           fmt::format("invalid character '{}' (U+{:04X})", c, u.empty() ? 0u : uint32_t(u[0])),
           line, col);
    }
    fail(file, "SyntaxError", "invalid syntax", line, col);
  }
  if (p1 && p1->getText() == "print" && (t->getType() == TfsLexer::STRING ||
                                         t->getType() == TfsLexer::NAME ||
                                         t->getType() == TfsLexer::NUMBER)) {
    antlr4::Token *p2b = prev(2);
    if (!p2b || p2b->getType() == TfsLexer::NEWLINE || p2b->getType() == grammar::TfsParser::INDENT ||
        p2b->getType() == grammar::TfsParser::DEDENT)
      fail(file, "SyntaxError", "Missing parentheses in call to 'print'. Did you mean print(...)?",
           uint32_t(p1->getLine()), uint32_t(p1->getCharPositionInLine() + 1));
  }
  if (t->getText() == "=") {
    // `f(x + 1 = 2)`: find where the operand before '=' starts, back to the
    // ',' or opening bracket that encloses it at the same depth.
    size_t start = idx, depth = 0;
    antlr4::Token *open = nullptr;
    for (size_t i = idx; i-- > 0;) {
      antlr4::Token *k = tokens.get(i);
      std::string x = k->getType() == TfsLexer::STRING ? "" : k->getText();
      if (k->getType() == TfsLexer::NEWLINE || k->getType() == grammar::TfsParser::INDENT ||
          k->getType() == grammar::TfsParser::DEDENT)
        break;
      if (x == ")" || x == "]" || x == "}") {
        ++depth;
      } else if (x == "(" || x == "[" || x == "{") {
        if (depth == 0) {
          open = k;
          break;
        }
        --depth;
      } else if (depth == 0 && (x == "," || x == "=")) {
        break;
      }
      start = i;
    }
    antlr4::Token *before =
        open && open->getTokenIndex() > 0 ? tokens.get(open->getTokenIndex() - 1) : nullptr;
    bool inCall = open && open->getText() == "(" && before &&
                  (before->getType() == TfsLexer::NAME || before->getText() == ")" ||
                   before->getText() == "]");
    if (inCall && start + 1 < idx) {  // a lone NAME before '=' is a keyword argument
      antlr4::Token *first = tokens.get(start);
      fail(file, "SyntaxError", "expression cannot contain assignment, perhaps you meant \"==\"?",
           uint32_t(first->getLine()), uint32_t(first->getCharPositionInLine() + 1));
    }
  }
  if (err.msg.find("expecting ':'") != std::string::npos ||
      err.msg.find("missing ':'") != std::string::npos)
    fail(file, "SyntaxError", "expected ':'", line, col);
  fail(file, "SyntaxError", "invalid syntax", line, col);
}

// Error strategy of the LL pass: report the first error, then stop (no
// recovery: only the first error is shown, like CPython).
struct ReportThenBail : antlr4::DefaultErrorStrategy {
  void recover(antlr4::Parser *, std::exception_ptr) override {
    throw antlr4::ParseCancellationException();
  }
  antlr4::Token *recoverInline(antlr4::Parser *p) override {
    antlr4::InputMismatchException e(p);
    reportError(p, e);
    throw antlr4::ParseCancellationException();
  }
  void sync(antlr4::Parser *) override {}
};

// Runs the parser rule `rule` from token `start` in SLL mode, then LL with
// error reporting.
template <class Ctx>
Ctx *parseWith(grammar::TfsParser &parser, antlr4::CommonTokenStream &tokens, size_t start,
               Ctx *(grammar::TfsParser::*rule)(), FirstError &errors) {
  parser.removeErrorListeners();
  parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
      antlr4::atn::PredictionMode::SLL);
  parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
  try {
    return (parser.*rule)();
  } catch (antlr4::ParseCancellationException &) {
  }
  parser.reset();  // also rewinds the token stream to 0
  tokens.seek(start);
  parser.addErrorListener(&errors);
  parser.setErrorHandler(std::make_shared<ReportThenBail>());
  parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
      antlr4::atn::PredictionMode::LL);
  try {
    return (parser.*rule)();
  } catch (antlr4::ParseCancellationException &) {
    return nullptr;  // `errors` holds the first error
  }
}

}  // namespace

namespace {
std::unique_ptr<ast::Module> parseChecked(std::shared_ptr<SourceFile> file);
}

std::unique_ptr<ast::Module> parseFile(std::shared_ptr<SourceFile> file) {
  try {
    return parseChecked(file);
  } catch (SyntaxErrorException &e) {
    e.diag.keepAlive.push_back(file);
    throw;
  }
}

namespace {
std::unique_ptr<ast::Module> parseChecked(std::shared_ptr<SourceFile> file) {
  checkEncoding(*file);
  antlr4::ANTLRInputStream input(file->text());
  TfsLexer lexer(&input);
  lexer.removeErrorListeners();
  IndentTokenSource source(lexer);
  antlr4::CommonTokenStream tokens(&source);
  tokens.fill();
  if (const auto &e = source.error())
    fail(file.get(), e->errorClass, e->message, e->line, e->col);
  markSoftKeywords(tokens.getTokens());

  GuardedParser parser(&tokens, file.get());
  auto module = std::make_unique<ast::Module>();
  module->file = file.get();
  module->owner = file;
  AstBuilder builder(file.get());
  // One top-level statement at a time (file_input's loop), freeing each
  // parse tree once its AST is built: memory stays bounded by the largest
  // statement rather than the file.
  for (;;) {
    while (tokens.LA(1) == TfsLexer::NEWLINE)
      tokens.consume();
    if (tokens.LA(1) == antlr4::Token::EOF)
      break;
    FirstError errors;
    auto *tree = parseWith(parser, tokens, tokens.index(), &grammar::TfsParser::stmt, errors);
    if (errors.has)
      reportParseError(file.get(), tokens, errors);
    builder.stmt(tree, module->body);
    parser.getTreeTracker().reset();
  }
  return module;
}
}  // namespace

std::unique_ptr<ast::Module> parseSource(std::string path, std::string text) {
  return parseFile(std::make_shared<SourceFile>(std::move(path), std::move(text)));
}

ast::ExprPtr parseExpression(const std::string &text, const SourceFile *file, uint32_t line,
                             uint32_t col) {
  // Lex "(text)" alone, then move every token to its place in `file`: the
  // text's first character is at `line`:`col`, the '(' just before it.
  // (Padding the input instead would cost O(position) per field.)
  antlr4::ANTLRInputStream input('(' + text + ')');
  TfsLexer lexer(&input);
  lexer.removeErrorListeners();
  IndentTokenSource source(lexer, /*leadingIndentAllowed=*/true);
  antlr4::CommonTokenStream tokens(&source);
  tokens.fill();
  auto placeLine = [&](size_t l) { return l + line - 1; };
  auto placeCol = [&](size_t l, size_t c) {  // 0-based in, 0-based out
    return l == 1 ? c + (col >= 2 ? col - 2 : 0) : c;
  };
  for (antlr4::Token *t : tokens.getTokens()) {
    auto *ct = static_cast<antlr4::CommonToken *>(t);
    size_t l = ct->getLine();
    ct->setCharPositionInLine(placeCol(l, ct->getCharPositionInLine()));
    ct->setLine(placeLine(l));
  }
  if (const auto &e = source.error())
    fail(file, e->errorClass, "f-string: " + e->message, uint32_t(placeLine(e->line)),
         uint32_t(placeCol(e->line, e->col - 1) + 1));
  GuardedParser parser(&tokens, file);
  FirstError errors;
  auto *tree = parseWith(parser, tokens, 0, &grammar::TfsParser::eval_input, errors);
  if (errors.has)
    fail(file, "SyntaxError", "f-string: invalid syntax", uint32_t(errors.token->getLine()),
         uint32_t(errors.token->getCharPositionInLine() + 1));
  AstBuilder builder(file);
  return builder.evalInput(tree);
}

}  // namespace tfs::frontend
