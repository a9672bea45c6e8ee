// numpy functions given datetime64 / timedelta64 arrays, scalars or dtypes
// run the .tfs implementation (np_time_dispatch.cpp, _np_time_array.tfs).
#pragma once

#include "runtime/interp/signature.h"
#include "runtime/interp/value.h"

#include <optional>

namespace tfs::runtime::tf::numpy {

// Is v a datetime64 / timedelta64 dtype: 'datetime64[D]', 'm8[s]',
// np.datetime64, the dtype object of a time array?
bool isTimeDType(const Value &v);
// The .tfs function's result when this call involves times; nullopt when it
// does not (a numpy function the .tfs file lacks raises NotImplementedError).
std::optional<Value> callWithTimeArrays(Interpreter &in, const Signature &sig, Args args, const Kwargs &kw);

}  // namespace tfs::runtime::tf::numpy

namespace tfs::runtime::tf::numpy {

// np.sum(m, axis=0) of a .tfs ndarray subclass listing `sum` in its
// `_tfs_numpy_methods`: m.sum(axis=0) (numpy's fromnumeric dispatch).
std::optional<Value> callArraySubclassMethod(Interpreter &in, const Signature &sig, Args args, const Kwargs &kw);

}  // namespace tfs::runtime::tf::numpy
