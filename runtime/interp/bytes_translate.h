// bytes/bytearray translate and maketrans (bytes_translate.cpp).
#pragma once

#include "runtime/interp/interpreter.h"

namespace tfs::runtime {

Value bytesTranslate(Interpreter &in, const BytesObject &self, Args a, const Kwargs &kw);
// Makes `bytes.maketrans` and `bytearray.maketrans` static methods.
void installBytesMaketrans(Interpreter &in);

}  // namespace tfs::runtime
