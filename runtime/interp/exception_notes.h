// BaseException.add_note and the notes (PEP 678) printed after an
// exception's message, exception_notes.cpp.
#pragma once

#include "runtime/interp/interpreter.h"

#include <string>

namespace tfs::runtime {

// Installs BaseException.add_note.
void installExceptionNotes(Interpreter &in);
// The lines CPython prints after the exception line: "\n" + each note of
// exc.__notes__ (a non-list __notes__ is printed as its repr); empty when
// there are none.
std::string exceptionNotesText(Interpreter &in, const Value &exc);
// For an exception group, the lines CPython prints under its own line: its
// sub-exceptions, numbered and nested (exception_group_report.cpp); empty
// for other exceptions.
std::string exceptionGroupText(Interpreter &in, const Value &exc);

}  // namespace tfs::runtime
