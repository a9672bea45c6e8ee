// numpy's ufunc keyword arguments where=, casting=, order=, subok=
// (np_ufunc_kwargs.cpp), for the np.<ufunc> functions of np_math.cpp.
#pragma once

#include "lib/numpy/ndarray.h"

namespace tfs::runtime::tf::numpy {

// A casting= argument: 'no', 'equiv', 'safe', 'same_kind' or 'unsafe'
// (ValueError for anything else).
struct CastingRule {
  const char *name;
  bool (*castable)(DType, DType);
};
CastingRule castingRule(Interpreter &in, const Value &v);
// np.concatenate / np.stack (dtype=..., casting=...): numpy's TypeError when
// an array does not cast to dtype under the rule.
void checkArrayCasting(Interpreter &in, const std::vector<Tensor> &arrays, std::optional<DType> dtype,
                       const Value &casting);

// Checks order= and casting=, and that each input casts to dtype= (when
// given) under the casting rule (numpy's UFuncTypeError otherwise).
void checkUfuncInputs(Interpreter &in, const Bound &b, const char *ufunc, const std::vector<Value> &inputs,
                      std::optional<DType> dtype);
// The ufunc's result under where= (elements outside the mask keep out='s
// values, else zeros), stored into out= under the casting rule.
// `fallbackCasting` (np.clip): the rule used when the caller gave no
// casting= and the result does not cast to out= under 'same_kind'.
Value finishUfunc(Interpreter &in, const Bound &b, Tensor result, const char *ufunc,
                  const char *fallbackCasting = nullptr);

}  // namespace tfs::runtime::tf::numpy
