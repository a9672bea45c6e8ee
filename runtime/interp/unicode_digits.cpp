// Unicode digit and space tables (see unicode_digits.h).
#include "runtime/interp/unicode_digits.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace tfs::runtime {

namespace {

// The zero of every run of ten decimal digits (Unicode 14.0, category Nd).
constexpr char32_t kDigitZeros[] = {
    0x30,    0x660,   0x6f0,   0x7c0,   0x966,   0x9e6,   0xa66,   0xae6,   0xb66,   0xbe6,   0xc66,
    0xce6,   0xd66,   0xde6,   0xe50,   0xed0,   0xf20,   0x1040,  0x1090,  0x17e0,  0x1810,  0x1946,
    0x19d0,  0x1a80,  0x1a90,  0x1b50,  0x1bb0,  0x1c40,  0x1c50,  0xa620,  0xa8d0,  0xa900,  0xa9d0,
    0xa9f0,  0xaa50,  0xabf0,  0xff10,  0x104a0, 0x10d30, 0x11066, 0x110f0, 0x11136, 0x111d0, 0x112f0,
    0x11450, 0x114d0, 0x11650, 0x116c0, 0x11730, 0x118e0, 0x11950, 0x11c50, 0x11d50, 0x11da0, 0x16a60,
    0x16ac0, 0x16b50, 0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e950, 0x1fbf0,
};

// Digits that are not decimal (Numeric_Type=Digit), as inclusive ranges.
constexpr std::pair<char32_t, char32_t> kOtherDigits[] = {
    {0xb2, 0xb3},       {0xb9, 0xb9},       {0x1369, 0x1371},   {0x19da, 0x19da},   {0x2070, 0x2070},
    {0x2074, 0x2079},   {0x2080, 0x2089},   {0x2460, 0x2468},   {0x2474, 0x247c},   {0x2488, 0x2490},
    {0x24ea, 0x24ea},   {0x24f5, 0x24fd},   {0x24ff, 0x24ff},   {0x2776, 0x277e},   {0x2780, 0x2788},
    {0x278a, 0x2792},   {0x10a40, 0x10a43}, {0x10e60, 0x10e68}, {0x11052, 0x1105a}, {0x1f100, 0x1f10a},
};

constexpr char32_t kSpaces[] = {0x9,    0xa,    0xb,    0xc,    0xd,    0x1c,   0x1d,   0x1e,   0x1f,   0x20,
                                0x85,   0xa0,   0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
                                0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000};

}  // namespace

int unicodeDecimalValue(char32_t cp) {
  auto it = std::upper_bound(std::begin(kDigitZeros), std::end(kDigitZeros), cp);
  if (it == std::begin(kDigitZeros)) return -1;
  char32_t zero = *(it - 1);
  return cp - zero < 10 ? int(cp - zero) : -1;
}

bool isUnicodeDigit(char32_t cp) {
  if (unicodeDecimalValue(cp) >= 0) return true;
  for (auto [lo, hi] : kOtherDigits)
    if (cp >= lo && cp <= hi) return true;
  return false;
}

bool isUnicodeSpace(char32_t cp) { return std::find(std::begin(kSpaces), std::end(kSpaces), cp) != std::end(kSpaces); }

char32_t nextCodePoint(const std::string &s, size_t &i) {
  unsigned char lead = static_cast<unsigned char>(s[i]);
  size_t n = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
  if (n == 1 || i + n > s.size()) {
    ++i;
    return lead;
  }
  char32_t cp = lead & (0xFF >> (n + 1));
  for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  i += n;
  return cp;
}

std::string asciiNumberText(const std::string &utf8) {
  if (std::all_of(utf8.begin(), utf8.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) return utf8;
  std::string out;
  for (size_t i = 0; i < utf8.size();) {
    char32_t cp = nextCodePoint(utf8, i);
    if (cp < 0x80) out += char(cp);
    else if (int d = unicodeDecimalValue(cp); d >= 0) out += char('0' + d);
    else if (isUnicodeSpace(cp)) out += ' ';
    else out += '?';
  }
  return out;
}

}  // namespace tfs::runtime
