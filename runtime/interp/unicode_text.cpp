// See unicode_text.h. Each CPython rule is written from its C source's
// logic over ICU's properties: the category sets of isalpha/isprintable,
// the Uppercase/Lowercase/Cased/Case_Ignorable properties behind the case
// predicates and the final-sigma rule, Numeric_Type for isnumeric, and
// XID_Start/XID_Continue for isidentifier.
#include "runtime/interp/unicode_text.h"

#include "runtime/interp/unicode_digits.h"

#include <unicode/uchar.h>
#include <unicode/ucasemap.h>
#include <unicode/ustring.h>
#include <unicode/utf8.h>

#include <fmt/format.h>
#include <vector>

namespace tfs::runtime {

namespace {

std::vector<UChar32> decode(const std::string &s) {
  std::vector<UChar32> out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) out.push_back(UChar32(nextCodePoint(s, i)));
  return out;
}

void append(std::string &out, UChar32 cp) {
  char buf[4];
  int32_t n = 0;
  UBool error = false;
  U8_APPEND(reinterpret_cast<uint8_t *>(buf), n, 4, cp, error);
  if (error) out += "\xEF\xBF\xBD";  // a lone surrogate cannot be UTF-8 (tfs str is UTF-8)
  else out.append(buf, size_t(n));
}

// One code point's full mapping through an ICU string function (upper,
// lower, fold, title of a one-character string).
enum class Map { Upper, Lower, Fold, Title };
void appendMapped(std::string &out, UChar32 cp, Map m) {
  UChar in[2], res[8];
  int32_t n = 0;
  UBool error = false;  // set by U16_APPEND on a code point past U+10FFFF (cannot happen here)
  U16_APPEND(in, n, 2, cp, error);
  (void)error;
  UErrorCode status = U_ZERO_ERROR;
  int32_t len = 0;
  switch (m) {
  case Map::Upper: len = u_strToUpper(res, 8, in, n, "", &status); break;
  case Map::Lower: len = u_strToLower(res, 8, in, n, "", &status); break;
  case Map::Fold: len = u_strFoldCase(res, 8, in, n, U_FOLD_CASE_DEFAULT, &status); break;
  case Map::Title: {
    // The character's own titlecase mapping, as CPython's: no word breaks,
    // no moving past an uncased first character (U+0345 titlecases to U+0399).
    thread_local UCaseMap *titleMap = [] {
      UErrorCode e = U_ZERO_ERROR;
      return ucasemap_open("", U_TITLECASE_WHOLE_STRING | U_TITLECASE_NO_BREAK_ADJUSTMENT | U_TITLECASE_NO_LOWERCASE, &e);
    }();
    if (titleMap) len = ucasemap_toTitle(titleMap, res, 8, in, n, &status);
    else status = U_MEMORY_ALLOCATION_ERROR;
    break;
  }
  }
  if (U_FAILURE(status)) {
    append(out, cp);
    return;
  }
  for (int32_t i = 0; i < len;) {
    UChar32 c;
    U16_NEXT(res, i, len, c);
    append(out, c);
  }
}

bool cased(UChar32 c) { return u_hasBinaryProperty(c, UCHAR_CASED); }
bool caseIgnorable(UChar32 c) { return u_hasBinaryProperty(c, UCHAR_CASE_IGNORABLE); }
bool isUpper(UChar32 c) { return u_hasBinaryProperty(c, UCHAR_UPPERCASE); }
bool isLower(UChar32 c) { return u_hasBinaryProperty(c, UCHAR_LOWERCASE); }
bool isTitle(UChar32 c) { return u_charType(c) == U_TITLECASE_LETTER; }

// CPython's handle_capital_sigma: a capital sigma at position i lowers to
// final sigma when a cased letter precedes it and none follows (skipping
// case-ignorable characters both ways).
bool finalSigma(const std::vector<UChar32> &cps, size_t i) {
  size_t j = i;
  while (j > 0 && caseIgnorable(cps[j - 1])) --j;
  bool before = j > 0 && cased(cps[j - 1]);
  size_t k = i + 1;
  while (k < cps.size() && caseIgnorable(cps[k])) ++k;
  bool after = k < cps.size() && cased(cps[k]);
  return before && !after;
}

void appendLower(std::string &out, const std::vector<UChar32> &cps, size_t i) {
  if (cps[i] == 0x3A3) append(out, finalSigma(cps, i) ? 0x3C2 : 0x3C3);
  else appendMapped(out, cps[i], Map::Lower);
}

bool isAlphaCp(UChar32 c) {
  switch (u_charType(c)) {
  case U_UPPERCASE_LETTER: case U_LOWERCASE_LETTER: case U_TITLECASE_LETTER:
  case U_MODIFIER_LETTER: case U_OTHER_LETTER: return true;
  default: return false;
  }
}
bool isDecimalCp(UChar32 c) { return unicodeDecimalValue(char32_t(c)) >= 0; }
bool isDigitCp(UChar32 c) { return isUnicodeDigit(char32_t(c)); }
bool isNumericCp(UChar32 c) { return u_getIntPropertyValue(c, UCHAR_NUMERIC_TYPE) != U_NT_NONE; }
// CPython's Py_UNICODE_ISSPACE: bidirectional class WS, B or S, or category Zs.
bool isSpaceCp(UChar32 c) {
  if (u_charType(c) == U_SPACE_SEPARATOR) return true;
  switch (u_charDirection(c)) {
  case U_WHITE_SPACE_NEUTRAL: case U_BLOCK_SEPARATOR: case U_SEGMENT_SEPARATOR: return true;
  default: return false;
  }
}

}  // namespace

bool isAsciiText(const std::string &s) {
  for (unsigned char c : s)
    if (c >= 0x80) return false;
  return true;
}

std::string codePointEscape(char32_t cp) {
  if (cp <= 0xFF) return fmt::format("\\x{:02x}", uint32_t(cp));
  if (cp <= 0xFFFF) return fmt::format("\\u{:04x}", uint32_t(cp));
  return fmt::format("\\U{:08x}", uint32_t(cp));
}

bool isPrintableCodePoint(char32_t cp) {
  if (cp == ' ') return true;
  switch (u_charType(UChar32(cp))) {
  case U_CONTROL_CHAR: case U_FORMAT_CHAR: case U_SURROGATE: case U_PRIVATE_USE_CHAR: case U_UNASSIGNED:
  case U_LINE_SEPARATOR: case U_PARAGRAPH_SEPARATOR: case U_SPACE_SEPARATOR: return false;
  default: return true;
  }
}

std::string unicodeCaseMap(const std::string &utf8, CaseOp op) {
  std::vector<UChar32> cps = decode(utf8);
  std::string out;
  out.reserve(utf8.size());
  bool previousCased = false;
  for (size_t i = 0; i < cps.size(); ++i) {
    UChar32 c = cps[i];
    switch (op) {
    case CaseOp::Upper: appendMapped(out, c, Map::Upper); break;
    case CaseOp::Lower: appendLower(out, cps, i); break;
    case CaseOp::Casefold: appendMapped(out, c, Map::Fold); break;
    case CaseOp::Capitalize:
      if (i == 0) appendMapped(out, c, Map::Title);
      else appendLower(out, cps, i);
      break;
    case CaseOp::Swapcase:
      if (isUpper(c)) appendLower(out, cps, i);
      else if (isLower(c)) appendMapped(out, c, Map::Upper);
      else append(out, c);
      break;
    case CaseOp::Title:
      if (previousCased) appendLower(out, cps, i);
      else appendMapped(out, c, Map::Title);
      previousCased = cased(c);
      break;
    }
  }
  return out;
}

bool unicodeStrTest(const std::string &utf8, StrTest test) {
  std::vector<UChar32> cps = decode(utf8);
  switch (test) {
  case StrTest::Printable:  // true for ""
    for (UChar32 c : cps)
      if (!isPrintableCodePoint(char32_t(c))) return false;
    return true;
  case StrTest::Identifier:
    if (cps.empty() || !(cps[0] == '_' || u_hasBinaryProperty(cps[0], UCHAR_XID_START))) return false;
    for (size_t i = 1; i < cps.size(); ++i)
      if (!u_hasBinaryProperty(cps[i], UCHAR_XID_CONTINUE)) return false;
    return true;
  case StrTest::Upper:
  case StrTest::Lower: {
    bool any = false;
    for (UChar32 c : cps) {
      bool wrong = test == StrTest::Upper ? isLower(c) : isUpper(c);
      if (wrong || isTitle(c)) return false;
      if (test == StrTest::Upper ? isUpper(c) : isLower(c)) any = true;
    }
    return any;
  }
  case StrTest::Title: {
    bool any = false, previous = false;
    for (UChar32 c : cps) {
      if (isUpper(c) || isTitle(c)) {
        if (previous) return false;
        previous = any = true;
      } else if (isLower(c)) {
        if (!previous) return false;
        previous = any = true;
      } else {
        previous = false;
      }
    }
    return any;
  }
  default: break;
  }
  if (cps.empty()) return false;
  for (UChar32 c : cps) {
    bool ok = false;
    switch (test) {
    case StrTest::Alpha: ok = isAlphaCp(c); break;
    case StrTest::Alnum: ok = isAlphaCp(c) || isDecimalCp(c) || isDigitCp(c) || isNumericCp(c); break;
    case StrTest::Space: ok = isSpaceCp(c); break;
    case StrTest::Numeric: ok = isNumericCp(c); break;
    default: break;
    }
    if (!ok) return false;
  }
  return true;
}

}  // namespace tfs::runtime
