// Declarative signatures for native functions: one line of Python text
// states a function's parameters, TF's / numpy's / CPython's names and
// defaults, and which arguments tfs does not implement. Binding follows
// CPython's rules and messages exactly, so an unknown keyword is a TypeError
// and an argument tfs accepts but does not implement is never dropped.
//
//   static const Signature sig("reduce_sum(input_tensor, axis=None, keepdims=False, name=None)");
//   Bound a = sig.bind(in, args, kwargs);
//   a["axis"], a[1], a.given("axis"), a.isNone("axis")
//
// Text grammar (a Python parameter list):
//   name(p1, p2=default, /, p3, *, kw1=default, *args, **kwargs)
//   - a default is a Python literal: None, True, False, an int, a float,
//     a quoted string, or a tuple/list of ints (e.g. (1, 1)).
//   - `p=!default` marks a parameter tfs does not implement beyond its
//     default: passing any value that is not equal to the default raises
//     NotImplementedError("name() argument 'p' is not supported by tfs"),
//     so the function body never sees it.
//   - `/` ends the positional-only parameters, `*` starts keyword-only ones;
//     `*args` collects extra positionals, `**kwargs` extra keywords.
#pragma once

#include "runtime/interp/value.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tfs::runtime {

class Interpreter;

struct Parameter {
  std::string name;
  std::optional<Value> dflt;    // absent: required
  bool notImplemented = false;  // `=!default`: only the default is supported
  bool keywordOnly = false;
  bool positionalOnly = false;
};

class Bound;

class Signature {
public:
  // Parses the text; a malformed text is a programming error in tfs and
  // aborts with a message naming it (the unit tests parse every one).
  explicit Signature(std::string_view text);

  const std::string &name() const { return name_; }
  const std::vector<Parameter> &params() const { return params_; }
  bool hasVarArgs() const { return varArgs_; }
  bool hasVarKwargs() const { return varKwargs_; }
  // The index of parameter `p`; aborts when there is none (a typo in tfs).
  size_t index(std::string_view p) const;

  Bound bind(Interpreter &in, Args args, const Kwargs &kwargs) const;

private:
  std::string name_;
  std::vector<Parameter> params_;
  bool varArgs_ = false, varKwargs_ = false;
  size_t positionalCount_ = 0;  // parameters that can be given by position
};

// Arguments bound to a signature.
class Bound {
public:
  const Value &operator[](size_t i) const { return values_[i]; }
  const Value &operator[](std::string_view p) const { return values_[sig_->index(p)]; }
  // Passed by the caller (not defaulted)?
  bool given(std::string_view p) const { return given_[sig_->index(p)]; }
  bool isNone(std::string_view p) const { return (*this)[p].isNone(); }
  const std::vector<Value> &varArgs() const { return varArgs_; }
  const Kwargs &varKwargs() const { return varKwargs_; }
  const std::vector<Value> &values() const { return values_; }

private:
  friend class Signature;
  const Signature *sig_ = nullptr;
  std::vector<Value> values_;
  std::vector<bool> given_;
  std::vector<Value> varArgs_;
  Kwargs varKwargs_;
};

// A native function bound through a signature (the usual way a library
// module defines a function): `in.native` with binding done first. The
// function's name is the signature's.
//
//   m->scope->vars["argmax"] = nativeWithSignature(in, "argmax(a, axis=None, out=!None, *, keepdims=False)",
//       [](Interpreter &in, const Bound &a) -> Value { ... });
using SignedFn = std::function<Value(Interpreter &, const Bound &)>;
Value nativeWithSignature(Interpreter &in, std::string_view signature, SignedFn fn);

}  // namespace tfs::runtime
