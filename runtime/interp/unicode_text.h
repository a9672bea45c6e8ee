// Unicode-aware str methods for non-ASCII text, as CPython 3.11 defines them
// (Objects/unicodeobject.c, Objects/unicodectype.c), on ICU's character
// database (libicu-dev). ASCII text keeps the byte loops in methods.cpp.
//
// ICU 72 knows Unicode 15.0, CPython 3.11 Unicode 14.0: the code points
// assigned in 15.0 (4,489, mostly CJK Extension H and new emoji) are letters
// or printable here where CPython 3.11 treats them as unassigned.
#pragma once

#include <string>

namespace tfs::runtime {

enum class CaseOp { Upper, Lower, Title, Capitalize, Swapcase, Casefold };
enum class StrTest { Alpha, Alnum, Space, Upper, Lower, Title, Printable, Identifier, Numeric };

bool isAsciiText(const std::string &utf8);
// str.upper() ... str.casefold(): full case mappings (SpecialCasing), the
// final-sigma rule of lower/title/capitalize, CPython's word rule of title.
std::string unicodeCaseMap(const std::string &utf8, CaseOp op);
// str.isalpha() ... str.isnumeric() of any text.
bool unicodeStrTest(const std::string &utf8, StrTest test);
// CPython's Py_UNICODE_ISPRINTABLE (repr escapes every other code point).
bool isPrintableCodePoint(char32_t cp);
// The shortest of CPython's \xNN / \uNNNN / \UNNNNNNNN escapes for cp
// (repr, ascii(), codec error messages).
std::string codePointEscape(char32_t cp);

}  // namespace tfs::runtime
