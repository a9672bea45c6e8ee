// __defaults__, __kwdefaults__ and __code__ of a function (function_code.h).
// tfs runs a function from its syntax tree, so its "code object" is made
// from the tree: the counts and names CPython's compiler records, plus the
// source lines the function spans (inspect.getsource).
#include "runtime/interp/function_code.h"

#include "frontend/positional_only.h"

#include "frontend/source.h"

#include <fmt/format.h>

namespace tfs::runtime {

namespace {

using ast::Param;

const std::vector<Param> &paramsOf(const FunctionObject &fn) {
  return fn.def ? fn.def->params : fn.lambda->params;
}

frontend::SourceSpan spanOf(const FunctionObject &fn) { return fn.def ? fn.def->span : fn.lambda->span; }

// How many parameters come before a `/` marker.
int positionalOnlyCount(const FunctionObject &fn) { return frontend::positionalOnlyParams(paramsOf(fn), fn.lambda != nullptr); }

size_t indentOf(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return i;
}

// The lines of the function's definition, decorators included, as
// inspect.getsource returns them: the header, then the body's lines (blank
// lines and lines indented deeper than `def`), trailing blank lines
// dropped. (The span of a def can reach the next statement's line.) None
// when the source is not at hand.
Value sourceLines(Interpreter &in, const FunctionObject &fn) {
  frontend::SourceSpan s = spanOf(fn);
  if (!s.file) return Value();
  uint32_t first = s.line;
  if (fn.def)
    for (const auto &d : fn.def->decorators) first = std::min(first, d->span.line);
  uint32_t last = std::min(s.endLine, s.file->lineCount());
  std::vector<std::string_view> lines;
  if (fn.def && !fn.def->body.empty()) {
    uint32_t bodyStart = fn.def->body.front()->span.line;
    size_t defIndent = indentOf(s.file->line(s.line));
    for (uint32_t l = first; l <= last; ++l) {
      std::string_view text = s.file->line(l);
      bool blank = indentOf(text) == text.size();
      if (l > bodyStart && !blank && indentOf(text) <= defIndent) break;
      lines.push_back(text);
    }
    while (lines.size() > 1 && indentOf(lines.back()) == lines.back().size()) lines.pop_back();
  } else {
    for (uint32_t l = first; l <= last; ++l) lines.push_back(s.file->line(l));
  }
  std::string out;
  for (std::string_view line : lines) {
    out.append(line);
    out.push_back('\n');
  }
  return in.str(std::move(out));
}

int firstLine(const FunctionObject &fn) {
  frontend::SourceSpan s = spanOf(fn);
  uint32_t first = s.line;
  if (fn.def)
    for (const auto &d : fn.def->decorators) first = std::min(first, d->span.line);
  return int(first);
}

// CPython's co_flags bits.
constexpr int64_t kOptimized = 1, kNewLocals = 2, kVarArgs = 4, kVarKeywords = 8, kNested = 16, kGenerator = 32;

struct CodeObject final : Object {
  Ref<FunctionObject> fn;
  explicit CodeObject(Ref<FunctionObject> f) : fn(std::move(f)) {}
  const char *typeName() const override { return "code"; }

  std::optional<std::string> repr(Interpreter &) override {
    frontend::SourceSpan s = spanOf(*fn);
    return fmt::format("<code object {} at 0x{:x}, file \"{}\", line {}>", codeName(),
                       reinterpret_cast<uintptr_t>(this), s.file ? s.file->path() : "<unknown>", firstLine(*fn));
  }

  std::string codeName() const { return fn->def ? fn->def->name : "<lambda>"; }

  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override {
    const std::vector<Param> &params = paramsOf(*fn);
    auto count = [&](Param::Kind kind) {
      int64_t n = 0;
      for (const Param &p : params) n += p.kind == kind;
      return n;
    };
    if (name == "co_name") return in.str(codeName());
    if (name == "co_qualname") return in.str(fn->qualname);
    if (name == "co_argcount") return Value::integer(count(Param::Kind::Positional));
    if (name == "co_posonlyargcount") return Value::integer(positionalOnlyCount(*fn));
    if (name == "co_kwonlyargcount") return Value::integer(count(Param::Kind::KeywordOnly));
    if (name == "co_varnames" || name == "co_nlocals") {
      std::vector<std::string> names = functionVarnames(*fn);
      if (name == "co_nlocals") return Value::integer(int64_t(names.size()));
      std::vector<Value> items;
      for (auto &n : names) items.push_back(in.str(n));
      return Value(make<TupleObject>(std::move(items)));
    }
    if (name == "co_flags") {
      int64_t flags = kOptimized | kNewLocals;
      if (count(Param::Kind::VarArgs)) flags |= kVarArgs;
      if (count(Param::Kind::VarKeywords)) flags |= kVarKeywords;
      if (fn->closure) flags |= kNested;
      if (fn->def ? fn->def->isGenerator : fn->lambda->isGenerator) flags |= kGenerator;
      return Value::integer(flags);
    }
    if (name == "co_filename") {
      frontend::SourceSpan s = spanOf(*fn);
      return in.str(s.file ? s.file->path() : "<unknown>");
    }
    if (name == "co_firstlineno") return Value::integer(firstLine(*fn));
    // Not CPython's: the source lines for inspect.getsource.
    if (name == "_tfs_source") return sourceLines(in, *fn);
    if (name.rfind("co_", 0) == 0)
      in.raise("NotImplementedError", fmt::format("code.{} is not supported by tfs", name));
    return std::nullopt;
  }
};

}  // namespace

std::optional<Value> functionCodeAttr(Interpreter &in, FunctionObject &fn, const std::string &name) {
  if (name == "__code__") return Value(make<CodeObject>(Ref<FunctionObject>(&fn)));
  if (name != "__defaults__" && name != "__kwdefaults__") return std::nullopt;
  // fn.defaults holds one value per parameter with a default, in order.
  std::vector<Value> positional;
  auto keyword = make<DictObject>();
  size_t next = 0;
  for (const Param &p : paramsOf(fn)) {
    if (!p.defaultValue) continue;
    if (next >= fn.defaults.size()) break;
    const Value &v = fn.defaults[next++];
    if (p.kind == Param::Kind::KeywordOnly) keyword->set(in, in.str(p.name), v);
    else positional.push_back(v);
  }
  if (name == "__defaults__") return positional.empty() ? Value() : Value(make<TupleObject>(std::move(positional)));
  return keyword->liveCount == 0 ? Value() : Value(keyword);
}

}  // namespace tfs::runtime
