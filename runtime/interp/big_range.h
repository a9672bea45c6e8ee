// range() past 64 bits: a range whose bounds or length do not fit in int64
// (range(2**70), range(-2**63, 2**63)) is a BigRangeObject, with CPython's
// behaviour for every operation (len() raises OverflowError past a C
// ssize_t, as CPython's does; indexing, slicing, iteration, `in`,
// reversed(), index/count, equality and hash work at any size). A range
// within 64 bits stays a RangeObject, which the fast paths know.
#pragma once

#include "runtime/interp/big_int.h"

namespace tfs::runtime {

// range(start, stop, step) of int values (step non-zero): a RangeObject when
// it fits, else a BigRangeObject.
Value makeRange(Interpreter &in, const mpz_class &start, const mpz_class &stop, const mpz_class &step);
// range(...) called with these arguments (1 to 3 ints or __index__ objects).
Value rangeFromArgs(Interpreter &in, Args a);
// r[slice] of a range of either kind: CPython's compute_slice.
Value sliceOfRange(Interpreter &in, const Value &range, const SliceObject &s);
// reversed(r) of a range past 64 bits; nullopt for anything else.
std::optional<Value> reversedBigRange(Interpreter &in, const Value &range);
// hash(r) for a range of either kind (equal ranges hash alike); nullopt
// when `range` is not one.
std::optional<int64_t> rangeHash(Interpreter &in, const Value &range);
// a == b for two ranges of either kind (the same sequence of ints); nullopt
// when either is not a range.
std::optional<bool> rangesEqual(const Value &a, const Value &b);

}  // namespace tfs::runtime
