// numpy's fixed-width string arrays: np.array(["a", "bc"]) is dtype '<U2'
// (str elements), np.array([b"x"]) is '|S1' (bytes). Their elements are the
// engine's String tensor; the kind and width ride on the ndarray
// (TensorObject::text). A String ndarray without a kind is dtype=object,
// which is what TF's .numpy() of a string tensor gives.
//
// Functions keep the kind without knowing about it: every numpy function,
// ndarray method and index (numpy_module.cpp) passes its String result
// through finishText, which takes the kind from the `dtype=` argument, else
// from the text arrays among the arguments, else from the Python str/bytes
// the arguments hold.
#pragma once

#include "lib/numpy/ndarray.h"

namespace tfs::runtime::tf::numpy {

using TextDType = TensorObject::TextDType;

// numpy's width of a number of dtype d as text (astype(str), and text joined
// with numbers): '<U21' for int64, '<U3' for uint8, '<U32' for floats.
int64_t numberTextWidth(DType d);
// The length numpy measures: code points of a 'U' element, bytes of an 'S' one.
int64_t textLength(char kind, const std::string &s);
// A text `dtype=` argument: str, bytes, np.str_, np.bytes_, 'U', '<U5',
// 'S3', a text dtype object (width 0: the longest element decides).
std::optional<TextDType> textDTypeParam(Interpreter &in, const Value &v);
// Marks a String ndarray as a text array of this kind; width 0: the
// longest element (at least 1). Longer elements are cut to the width.
void markText(TensorObject &a, TextDType d);
// The result of a numpy function, method or index: a String ndarray
// without a kind (or a tuple/list of them) gets one from `dtype` when it is
// a text dtype, else from the text arrays among `sources`, else from the
// first Python str/bytes in them.
Value finishText(Interpreter &in, Value result, const std::vector<Value> &sources, const Value &dtype = Value());
// Given an argument and its elements as a tensor: what finishText should
// read as the source of a result drawn from it (np.random's choice and
// permutation): an ndarray as it is; a Python list of str/bytes as the
// text array numpy makes of it, so the result keeps its width ('<U2').
Value textSource(Interpreter &in, const Value &arg, const Tensor &elements);
// A text array's element as numpy hands it out: Python str for 'U', the
// numpy bytes_ scalar for 'S'.
Value textElement(Interpreter &in, const TensorObject &a, Value element);
// A value written into a text array: its strings cut to the array's width.
Value fitText(Interpreter &in, const TensorObject &a, const Value &v);
// np.array / np.asarray of a Python sequence of strings mixed with numbers:
// the text array numpy makes (np_mixed_text.cpp); nullopt for any other
// argument.
std::optional<Value> mixedTextArray(Interpreter &in, const Value &obj, std::optional<DType> dtype);
// a.dtype of a text array: dtype('<U2') / dtype('S2').
Value textDTypeValue(TextDType d);
// astype between text and numbers (numbers print as Python's str does;
// strings parse as numpy's int()/float() conversions).
Value castText(Interpreter &in, const TensorObject &a, DType to, std::optional<TextDType> text);

}  // namespace tfs::runtime::tf::numpy
