// Python's complex numbers (CPython 3.11's complexobject.c semantics): a
// heap object beside the unboxed int/float Values, since complex values are
// rare in TF scripts and a new Value tag would change every file that
// includes value.h. Mixed arithmetic converts the int/float operand to a
// complex first, as CPython 3.11 does (so inf/nan parts come out as there).
//
//   Value z = complexValue(1, 2);                 // (1+2j)
//   in.binary(BinOp::Mul, z, Value::integer(2))   // (2+4j)
//   complexRepr(-0.0, -1.0)                       // "(-0-1j)"
#pragma once

#include "runtime/interp/interpreter.h"

#include <complex>
#include <optional>
#include <string>

namespace tfs::runtime {

struct ComplexObject final : Object {
  double re, im;
  ComplexObject(double r, double i) : re(r), im(i) {}
  const char *typeName() const override { return "complex"; }
  std::optional<Value> getAttr(Interpreter &, const std::string &name) override;
  std::optional<Value> binary(Interpreter &, BinOp, const Value &other, bool reflected) override;
  std::optional<Value> compare(Interpreter &, CmpOp, const Value &other) override;
  std::optional<Value> unary(Interpreter &, UnaryOp) override;
  std::optional<bool> truth(Interpreter &) override { return re != 0 || im != 0; }
  std::optional<std::string> repr(Interpreter &) override;
  std::optional<std::string> str(Interpreter &in) override { return repr(in); }
  std::optional<std::string> format(Interpreter &, const std::string &spec) override;
  std::optional<int64_t> hash(Interpreter &) override;
};

Value complexValue(double re, double im);
// The value as a complex number when it is an int, bool, float, big int or
// complex (CPython's to_complex for arithmetic); nullopt otherwise.
std::optional<std::complex<double>> complexOperand(Interpreter &in, const Value &v);
// repr(complex(re, im)): shortest float parts without ".0", parentheses
// unless the real part is +0: (1+2j), 2j, (-0-1j), (nan+infj).
std::string complexRepr(double re, double im);
// hash(complex(re, im)) as CPython: hash(re) + 1000003 * hash(im), wrapping.
int64_t complexHash(double re, double im);
// a op b for complex numbers (+ - * / **) with CPython's algorithms and
// errors (ZeroDivisionError "complex division by zero", OverflowError
// "complex exponentiation").
std::complex<double> complexArith(Interpreter &in, BinOp op, std::complex<double> a, std::complex<double> b);
// complex(real=0, imag=0) and complex(str): the builtin type's constructor.
Value constructComplex(Interpreter &in, Args a, const Kwargs &kw);
// complex('1+2j') parsing; nullopt for a malformed string.
std::optional<std::complex<double>> parseComplexText(const std::string &text);

}  // namespace tfs::runtime
