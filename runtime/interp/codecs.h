// Text encodings for str.encode / bytes.decode and the io layer: utf-8
// (and utf-8-sig), ascii and latin-1, with the error handlers strict,
// ignore and replace. Decoding follows CPython's UTF-8 decoder exactly
// (maximal invalid subparts, its error ranges and reasons), so a bad file
// raises the UnicodeDecodeError CPython raises. Other encodings CPython has
// raise NotImplementedError naming them; unknown names are LookupError.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tfs::runtime {

class Interpreter;

enum class Encoding : uint8_t { Utf8, Utf8Sig, Ascii, Latin1 };

// The encoding named `name` (any of CPython's spellings and aliases).
Encoding lookupEncoding(Interpreter &in, std::string_view name);
// CPython's name for it in error messages ('utf-8', 'ascii', 'latin-1').
const char *encodingName(Encoding e);

// bytes -> str (UTF-8). `positionBase` is added to error positions (a
// stream reports positions within what it decoded). `final`: a truncated
// multi-byte sequence at the end is an error (else *consumed stops before it).
std::string decodeText(Interpreter &in, std::string_view bytes, Encoding e, std::string_view errors,
                       size_t *consumed = nullptr, bool final = true, size_t positionBase = 0);
// str (UTF-8) -> bytes.
std::string encodeText(Interpreter &in, std::string_view text, Encoding e, std::string_view errors);

// The length of the UTF-8 sequence led by byte `lead` (1 for a stray byte).
inline size_t utf8SequenceLength(unsigned char lead) {
  return lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
}

}  // namespace tfs::runtime
