// The lines CPython 3.11's traceback module prints under an uncaught
// exception group's own line: each sub-exception in a numbered frame, nested
// groups indented a level further (traceback.TracebackException.format with
// its exception-group context). Sub-exceptions are shown by their message
// lines (class, message, notes); tfs has no CPython frames to show for them.
#include "runtime/interp/exception_group.h"
#include "runtime/interp/exception_notes.h"

#include <fmt/format.h>

namespace tfs::runtime {

bool bindExceptionGroups(Interpreter &in, const std::string &name) {
  if (name != "BaseExceptionGroup" && name != "ExceptionGroup") return false;
  Scope &builtins = *in.builtins();
  if (builtins.vars.find(name) != builtins.vars.end()) return true;
  Value groups = in.importModule("_exception_group");
  for (const char *n : {"BaseExceptionGroup", "ExceptionGroup"}) builtins.vars[n] = in.getAttr(groups, n);
  return true;
}

ClassObject *boundBaseExceptionGroup(Interpreter &in) {
  Scope &builtins = *in.builtins();
  auto it = builtins.vars.find("BaseExceptionGroup");
  return it == builtins.vars.end() ? nullptr : it->second.as<ClassObject>();
}

namespace {

constexpr size_t kMaxGroupWidth = 15;  // traceback's max_group_width
constexpr int kMaxGroupDepth = 10;     // and max_group_depth

struct GroupPrinter {
  Interpreter &in;
  std::string out;
  bool needClose = false;

  static std::string indent(int depth) { return std::string(size_t(depth) * 2, ' '); }
  void emit(int depth, const std::string &text) {
    size_t start = 0;
    while (start <= text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      out += indent(depth) + "| " + text.substr(start, end - start) + "\n";
      start = end + 1;
    }
  }
  bool isGroup(const Value &v) {
    ClassObject *cls = boundBaseExceptionGroup(in);
    return cls && in.isInstance(v, cls);
  }
  // "Class: message" and the notes, as format_exception_only writes them.
  std::string exceptionOnly(const Value &exc) {
    std::string name = in.typeName(exc);
    if (auto *inst = exc.as<InstanceObject>()) {
      auto mod = inst->klass->dict.find("__module__");
      if (mod != inst->klass->dict.end())
        if (auto *m = mod->second.as<StrObject>(); m && m->s != "__main__" && m->s != "builtins" &&
                                                    m->s != "_exception_group")
          name = m->s + "." + name;
    }
    std::string msg;
    try {
      msg = in.exceptionMessage(exc);
    } catch (...) {
      msg = "<exception str() failed>";
    }
    return (msg.empty() ? name : name + ": " + msg) + exceptionNotesText(in, exc);
  }
  void one(const Value &exc, int depth) {
    emit(depth, exceptionOnly(exc));
    if (isGroup(exc)) items(exc, depth);
  }
  // The numbered frames of `group`'s sub-exceptions, at `depth` (1 for the
  // uncaught group itself).
  void items(const Value &group, int depth) {
    if (depth > kMaxGroupDepth) return;
    std::vector<Value> excs = in.toList(in.getAttr(group, "exceptions"));
    size_t n = excs.size() <= kMaxGroupWidth ? excs.size() : kMaxGroupWidth + 1;
    needClose = false;
    for (size_t i = 0; i < n; ++i) {
      bool last = i + 1 == n;
      if (last) needClose = true;  // unless a nested group's frames close it
      bool truncated = i >= kMaxGroupWidth;
      out += indent(depth) + (i == 0 ? "+-" : "  ") + "+---------------- " +
             (truncated ? std::string("...") : std::to_string(i + 1)) + " ----------------\n";
      if (!truncated) {
        if (depth + 1 > kMaxGroupDepth && isGroup(excs[i]))
          emit(depth + 1, fmt::format("... (max_group_depth is {})", kMaxGroupDepth));
        else
          one(excs[i], depth + 1);
      } else {
        size_t remaining = excs.size() - kMaxGroupWidth;
        emit(depth + 1, fmt::format("and {} more exception{}", remaining, remaining > 1 ? "s" : ""));
      }
      if (last && needClose) {  // still inside the frame: one level in
        out += indent(depth + 1) + "+------------------------------------\n";
        needClose = false;
      }
    }
  }
};

}  // namespace

std::string exceptionGroupText(Interpreter &in, const Value &exc) {
  GroupPrinter p{in, "", false};
  if (!p.isGroup(exc)) return "";
  p.items(exc, 1);
  if (!p.out.empty() && p.out.back() == '\n') p.out.pop_back();
  return "\n" + p.out;
}

}  // namespace tfs::runtime
