// BaseException.add_note(note) and the notes printed after an exception
// (PEP 678, CPython 3.11).
#include "runtime/interp/exception_notes.h"

#include <fmt/format.h>

namespace tfs::runtime {

void installExceptionNotes(Interpreter &in) {
  auto base = in.exceptionClass("BaseException");
  base->setAttr("add_note", in.native("add_note", [](Interpreter &in, Args a, const Kwargs &kw) {
    if (!kw.empty()) in.raise("TypeError", "BaseException.add_note() takes no keyword arguments");
    if (a.size() != 2)
      in.raise("TypeError", fmt::format("BaseException.add_note() takes exactly one argument ({} given)", a.size() - 1));
    auto *inst = a[0].as<InstanceObject>();
    if (!a[1].as<StrObject>())
      in.raise("TypeError", fmt::format("note must be a str, not '{}'", in.typeName(a[1])));
    auto it = inst->attrs.find("__notes__");
    if (it == inst->attrs.end()) {
      inst->set("__notes__", Value(make<ListObject>()));
      it = inst->attrs.find("__notes__");
    }
    auto *notes = it->second.as<ListObject>();
    if (!notes) in.raise("TypeError", "Cannot add note: __notes__ is not a list");
    notes->items.push_back(a[1]);
    return Value();
  }));
}

std::string exceptionNotesText(Interpreter &in, const Value &exc) {
  auto *inst = exc.as<InstanceObject>();
  if (!inst) return "";
  auto it = inst->attrs.find("__notes__");
  if (it == inst->attrs.end()) return "";
  std::string out;
  if (auto *notes = it->second.as<ListObject>()) {
    for (const Value &note : notes->items) out += "\n" + (note.as<StrObject>() ? note.as<StrObject>()->s : in.repr(note));
  } else {
    out += "\n" + in.repr(it->second);
  }
  return out;
}

}  // namespace tfs::runtime
