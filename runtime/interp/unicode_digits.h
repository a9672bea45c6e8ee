// Unicode's decimal digits (category Nd) and white space as CPython 3.11
// (Unicode 14.0) knows them, for int() / float() of text such as '١٢٣' or
// '４２' and for str.isdecimal / str.isdigit. The tables are Unicode data:
// the first code point of each run of ten Nd digits, and the code points
// that are digits without being decimal (superscripts, circled digits).
#pragma once

#include <string>

namespace tfs::runtime {

// The digit value of code point cp, or -1 when it is no decimal digit.
int unicodeDecimalValue(char32_t cp);
// str.isdigit's set: decimal digits and the other digit characters.
bool isUnicodeDigit(char32_t cp);
bool isUnicodeSpace(char32_t cp);
// CPython's _PyUnicode_TransformDecimalAndSpaceToASCII: decimal digits become
// '0'..'9', white space ' ', other non-ASCII characters '?' (so that parsing
// fails); ASCII text comes back unchanged.
std::string asciiNumberText(const std::string &utf8);
// Decodes the code point at s[i] (advancing i); a malformed byte is itself.
char32_t nextCodePoint(const std::string &s, size_t &i);

}  // namespace tfs::runtime
