// `traceback` (print_exc, format_exc, print_exception, format_exception,
// format_exception_only) and `_tfs_frames`, the call-site lookup that
// warnings.tfs and logging.tfs use for the file and line of their caller.
//
// A traceback is rebuilt from what tfs keeps of an exception: the call
// sites from the outermost frame to the raise (PyException::callChain and
// span). The frames CPython's traceback holds are those from the frame that
// handles the exception inward; each frame's function name is the `def`
// enclosing its line (CPython prints co_name), `<module>` at top level.
// Frames inside tfs's own library (<prelude ...>) are left out: CPython's
// would name its own .py files there.
#include "frontend/frontend.h"
#include "lib/python/python_modules.h"
#include "runtime/interp/exception_notes.h"
#include "runtime/interp/interpreter.h"
#include "runtime/interp/signature.h"
#include "runtime/interp/traceback_record.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <unistd.h>

namespace tfs::runtime {

namespace {

using frontend::SourceSpan;

bool sameSite(const SourceSpan &a, const SourceSpan &b) {
  return a.file == b.file && a.line == b.line && a.col == b.col;
}

// CPython names the main script by its absolute path.
std::string absolutePath(const std::string &path) {
  if (path.empty() || path[0] == '/' || path[0] == '<') return path;
  char buf[4096];
  if (!::getcwd(buf, sizeof buf)) return path;
  return std::string(buf) + "/" + (path.rfind("./", 0) == 0 ? path.substr(2) : path);
}

bool libraryFrame(const SourceSpan &s) { return !s.file || s.file->path().rfind("<", 0) == 0; }

size_t indentOf(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return i;
}

// The name of the function whose body holds `line`: the nearest `def` above
// it with less indentation; `<module>` when none.
std::string functionAt(const SourceSpan &s) {
  if (!s.file) return "<module>";
  std::string_view text = s.file->line(s.line);
  size_t indent = indentOf(text);
  // A one-line def (`def f(): log.warning(...)`): the call is its body.
  if (std::string_view own = text.substr(indent); own.rfind("def ", 0) == 0 || own.rfind("async def ", 0) == 0) {
    own = own.substr(own.find("def ") + 4);
    size_t colon = text.find("):");
    if (colon != std::string_view::npos && s.col > colon + 2) return std::string(own.substr(0, own.find('(')));
  }
  for (uint32_t l = s.line; l-- > 1;) {
    std::string_view t = s.file->line(l);
    size_t i = indentOf(t);
    if (i == t.size() || t[i] == '#' || i >= indent) continue;
    indent = i;
    std::string_view rest = t.substr(i);
    if (rest.rfind("async ", 0) == 0) rest = rest.substr(6);
    if (rest.rfind("def ", 0) == 0) {
      rest = rest.substr(4);
      size_t end = rest.find('(');
      return std::string(rest.substr(0, end));
    }
    if (rest.rfind("class ", 0) == 0) {
      rest = rest.substr(6);
      size_t end = rest.find_first_of("(:");
      return std::string(rest.substr(0, end));
    }
    if (indent == 0) break;
  }
  return "<module>";
}

// CPython 3.11.2's caret anchors (traceback._extract_caret_anchors_from_line_segment):
// when the failing expression is a binary operation or a subscript, its
// operator or its [index] is marked with '^' and the operands with '~'.
// Offsets into `segment`; nullopt when the segment is neither.
std::optional<std::pair<size_t, size_t>> caretAnchors(const std::string &segment) {
  std::unique_ptr<ast::Module> tree;
  try {
    tree = frontend::parseSource("<segment>", segment);
  } catch (...) {
    return std::nullopt;
  }
  if (!tree || tree->body.size() != 1) return std::nullopt;
  auto *stmt = llvm::dyn_cast<ast::ExprStmt>(tree->body[0].get());
  if (!stmt) return std::nullopt;
  auto isSpace = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  // Node spans are 1-based columns of the segment's one line.
  auto endOf = [](const ast::Expr &e) { return size_t(e.span.endCol - 1); };
  if (auto *bin = llvm::dyn_cast<ast::BinOp>(stmt->value.get())) {
    if (bin->lhs->span.endLine != 1) return std::nullopt;
    size_t opStart = endOf(*bin->lhs), opEnd = size_t(bin->rhs->span.col - 1);
    if (opEnd < opStart || opEnd > segment.size()) return std::nullopt;
    std::string op = segment.substr(opStart, opEnd - opStart);
    size_t offset = 0;
    while (offset < op.size() && isSpace(op[offset])) ++offset;
    size_t left = opStart + offset, right = left + 1;
    if (offset + 1 < op.size() && !isSpace(op[offset + 1])) ++right;
    return std::make_pair(left, right);
  }
  if (auto *sub = llvm::dyn_cast<ast::Subscript>(stmt->value.get())) {
    if (sub->value->span.endLine != 1 || sub->index->span.endLine != 1) return std::nullopt;
    return std::make_pair(endOf(*sub->value), endOf(*sub->index) + 1);
  }
  return std::nullopt;
}

// `  File "f", line N, in fn\n    source\n    ^^^^\n` as CPython 3.11 prints
// a frame (the carets mark the failing part when it is not the whole line,
// or its operator / index when it is a binary operation or a subscript).
std::string formatFrame(const SourceSpan &s) {
  std::string out = fmt::format("  File \"{}\", line {}, in {}\n", absolutePath(s.file->path()), s.line, functionAt(s));
  std::string_view line = s.file->line(s.line);
  size_t indent = indentOf(line);
  std::string_view stripped = line.substr(indent);
  while (!stripped.empty() && (stripped.back() == ' ' || stripped.back() == '\r')) stripped.remove_suffix(1);
  if (stripped.empty()) return out;
  out += fmt::format("    {}\n", stripped);
  if (s.endLine == s.line && s.col >= 1 && s.endCol > s.col) {
    size_t start = s.col - 1, end = s.endCol - 1;
    if (start < indent || end > line.size()) return out;
    auto anchors = caretAnchors(std::string(line.substr(start, end - start)));
    bool partial = start > indent || end < indent + stripped.size();
    if (anchors && anchors->second > anchors->first && anchors->second <= end - start)
      out += "    " + std::string(start - indent, ' ') + std::string(anchors->first, '~') +
             std::string(anchors->second - anchors->first, '^') + std::string(end - start - anchors->second, '~') +
             "\n";
    else if (partial)
      out += "    " + std::string(start - indent, ' ') + std::string(end - start, '^') + "\n";
  }
  return out;
}

std::string exceptionOnly(Interpreter &in, const Value &exc) {
  auto *inst = exc.as<InstanceObject>();
  std::string cls = inst ? inst->klass->name : in.typeName(exc);
  if (inst && !inst->klass->module.empty() && inst->klass->module != "builtins")
    cls = inst->klass->module + "." + cls;
  std::string msg = in.str(exc);
  return (msg.empty() ? cls : cls + ": " + msg) + exceptionNotesText(in, exc) + "\n";
}

// The printed lines of one exception: the header, one per frame (without
// tfs's library frames), the exception line. `limit` as CPython's: the
// first `limit` frames from the handler's side when positive, the last
// -limit when negative, all when None; with no frame left (limit=0) the
// exception line alone.
std::vector<std::string> formatFrames(Interpreter &in, const std::vector<const SourceSpan *> &all, const Value &exc,
                                      const Value &limit) {
  std::vector<const SourceSpan *> frames;
  for (const SourceSpan *f : all)
    if (!libraryFrame(*f)) frames.push_back(f);
  size_t first = 0, last = frames.size();
  if (!limit.isNone()) {
    int64_t n = in.toInt(limit);
    if (n >= 0) last = std::min(last, size_t(n));
    else first = last - std::min(last, size_t(-n));
  }
  std::vector<std::string> parts;
  if (first < last) parts.push_back("Traceback (most recent call last):\n");
  for (size_t k = first; k < last; ++k) parts.push_back(formatFrame(*frames[k]));
  parts.push_back(exceptionOnly(in, exc));
  return parts;
}

// An exception's own recorded frames (its __traceback__), none when it was
// never caught.
std::vector<std::string> formatRecorded(Interpreter &in, const Value &exc, const Value &limit) {
  std::vector<const SourceSpan *> frames;
  if (auto *inst = exc.as<InstanceObject>()) {
    auto it = inst->attrs.find("__traceback__");
    if (it != inst->attrs.end())
      if (auto *tb = it->second.as<TracebackObject>())
        for (const SourceSpan &f : tb->frames) frames.push_back(&f);
  }
  return formatFrames(in, frames, exc, limit);
}

Value exceptionAttr(const Value &exc, const char *name) {
  auto *inst = exc.as<InstanceObject>();
  if (!inst) return Value();
  auto it = inst->attrs.find(name);
  return it == inst->attrs.end() ? Value() : it->second;
}

// CPython's chain=True: the exception's __cause__ (or, unless suppressed by
// `raise ... from`, its __context__) printed first, recursively, each
// followed by the sentence that links it to the next one.
void prependChain(Interpreter &in, const Value &exc, const Value &limit, std::vector<std::string> &parts,
                  std::vector<const Object *> &seen) {
  seen.push_back(exc.obj());
  Value cause = exceptionAttr(exc, "__cause__"), context = exceptionAttr(exc, "__context__");
  bool suppress = in.truth(exceptionAttr(exc, "__suppress_context__"));
  const char *link = nullptr;
  Value prior;
  if (!cause.isNone()) {
    prior = cause;
    link = "\nThe above exception was the direct cause of the following exception:\n\n";
  } else if (!context.isNone() && !suppress) {
    prior = context;
    link = "\nDuring handling of the above exception, another exception occurred:\n\n";
  }
  if (!link || std::find(seen.begin(), seen.end(), prior.obj()) != seen.end()) return;
  std::vector<std::string> before;
  prependChain(in, prior, limit, before, seen);
  std::vector<std::string> own = formatRecorded(in, prior, limit);
  before.insert(before.end(), own.begin(), own.end());
  before.push_back(link);
  parts.insert(parts.begin(), before.begin(), before.end());
}

std::vector<std::string> formatHandled(Interpreter &in, const PyException &e, const Value &limit, bool chain) {
  // The handler's frame: the call sites the exception shares with the
  // running code.
  const auto &now = in.callStack();
  size_t depth = 0;
  while (depth < e.callChain.size() && depth < now.size() && sameSite(e.callChain[depth], now[depth])) ++depth;
  std::vector<const SourceSpan *> frames;
  for (size_t k = depth; k < e.callChain.size(); ++k) frames.push_back(&e.callChain[k]);
  frames.push_back(&e.span);
  std::vector<std::string> parts = formatFrames(in, frames, e.exc, limit);
  std::vector<const Object *> seen;
  if (chain) prependChain(in, e.exc, limit, parts, seen);
  return parts;
}

std::string joined(const std::vector<std::string> &parts) {
  std::string out;
  for (const std::string &p : parts) out += p;
  return out;
}

Value write(Interpreter &in, const Value &file, const std::string &text) {
  Value target = file.isNone() ? in.getAttr(in.importModule("sys"), "stderr") : file;
  Value s = in.str(text);
  return in.call(in.getAttr(target, "write"), Args(&s, 1));
}

std::string formatCurrent(Interpreter &in, const Bound &a) {
  const PyException *e = in.handledException();
  return e ? joined(formatHandled(in, *e, a["limit"], in.truth(a["chain"]))) : "NoneType: None\n";
}

std::vector<std::string> formatGiven(Interpreter &in, const Bound &a) {
  Value exc = a["value"].isNone() ? a["exc"] : a["value"];
  const PyException *e = in.handledException();
  if (e && e->exc.is(exc)) return formatHandled(in, *e, a["limit"], in.truth(a["chain"]));
  // Not the exception being handled: the frames it recorded when caught.
  std::vector<std::string> parts = formatRecorded(in, exc, a["limit"]);
  std::vector<const Object *> seen;
  if (in.truth(a["chain"])) prependChain(in, exc, a["limit"], parts, seen);
  return parts;
}

Value makeTracebackModule(Interpreter &in) {
  auto m = make<ModuleObject>("traceback");
  auto &vars = m->scope->vars;
  auto def = [&](const char *sig, SignedFn fn) {
    Value f = nativeWithSignature(in, sig, std::move(fn));
    vars[f.as<NativeFunction>()->name] = f;
  };
  def("format_exc(limit=None, chain=True)", [](Interpreter &in, const Bound &a) { return in.str(formatCurrent(in, a)); });
  def("print_exc(limit=None, file=None, chain=True)", [](Interpreter &in, const Bound &a) {
    write(in, a["file"], formatCurrent(in, a));
    return Value();
  });
  def("format_exception(exc, /, value=None, tb=None, limit=None, chain=True)", [](Interpreter &in, const Bound &a) {
    std::vector<Value> parts;
    for (const std::string &p : formatGiven(in, a)) parts.push_back(in.str(p));
    return in.list(std::move(parts));
  });
  def("print_exception(exc, /, value=None, tb=None, limit=None, file=None, chain=True)", [](Interpreter &in, const Bound &a) {
    write(in, a["file"], joined(formatGiven(in, a)));
    return Value();
  });
  def("format_exception_only(exc, /, value=None)", [](Interpreter &in, const Bound &a) {
    Value exc = a["value"].isNone() ? a["exc"] : a["value"];
    return in.list({in.str(exceptionOnly(in, exc))});
  });
  m->lazyOnlyRejects = true;
  m->lazy = [](Interpreter &in, const std::string &name) -> std::optional<Value> {
    static const char *const cpython[] = {"print_tb", "format_tb", "extract_tb", "extract_stack", "print_stack",
                                          "format_stack", "format_list", "print_list", "walk_tb", "walk_stack",
                                          "TracebackException", "StackSummary", "FrameSummary", "clear_frames",
                                          "print_last"};
    for (const char *n : cpython)
      if (name == n) in.raise("NotImplementedError", fmt::format("traceback.{} is not supported by tfs", name));
    return std::nullopt;
  };
  return Value(m);
}

// _tfs_frames.caller(level): (filename, lineno, function, source line) of
// the call site `level` frames out from the library function that asks
// (1: the code that called it).
Value makeFramesModule(Interpreter &in) {
  auto m = make<ModuleObject>("_tfs_frames");
  m->scope->vars["caller"] = nativeWithSignature(in, "caller(level=1)", [](Interpreter &in, const Bound &a) {
    const auto &stack = in.callStack();
    int64_t level = in.toInt(a[0]);
    if (level < 1) level = 1;
    if (size_t(level) > stack.size() || !stack[stack.size() - size_t(level)].file)
      return in.tuple({in.str("sys"), Value::integer(1), in.str("<module>"), in.str("")});
    const SourceSpan &s = stack[stack.size() - size_t(level)];
    std::string_view line = s.file->line(s.line);
    return in.tuple({in.str(absolutePath(s.file->path())), Value::integer(s.line), in.str(functionAt(s)),
                     in.str(std::string(line.substr(indentOf(line))))});
  });
  return Value(m);
}

}  // namespace

void registerTracebackModules() {
  Interpreter::registerNativeModule("traceback", makeTracebackModule);
  Interpreter::registerNativeModule("_tfs_frames", makeFramesModule);
}

}  // namespace tfs::runtime
