// str.translate / str.maketrans (str_translate.cpp).
#pragma once

#include "runtime/interp/interpreter.h"

namespace tfs::runtime {

Value strTranslate(Interpreter &in, const std::string &s, Args a);
Value strMaketrans(Interpreter &in, Args a);
// Makes `str.maketrans` a static method of the str type.
void installStrMaketrans(Interpreter &in);

}  // namespace tfs::runtime
