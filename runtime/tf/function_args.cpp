// The argument and result walks of a tf.function trace and call
// (function_args.h): symbolic stand-ins for the arguments, their tensors
// for a run, and the output structure of a trace.
#include "runtime/tf/function_args.h"
#include "runtime/interp/builtins.h"

#include "runtime/tf/function_key.h"

#include <algorithm>
#include <fmt/format.h>

namespace tfs::runtime::tf {

std::string argsText(Interpreter &in, const std::vector<Value> &args) {
  std::string s;
  for (auto &a : args) s += "\n    " + in.repr(a);
  return s;
}

// A composite argument's stand-in: its components as parameters of the
// shapes its class leaves open (function_key.h).
Value symbolizeComposite(Interpreter &in, const Value &v, GraphScope &g, const std::string &name) {
  std::vector<Value> components = in.toList(compositeComponents(in, v));
  std::vector<Value> shapes = in.toList(compositeComponentShapes(in, v));
  std::vector<Value> parts;
  for (size_t i = 0; i < components.size(); ++i) {
    auto *t = components[i].as<TensorObject>();
    if (!t || i >= shapes.size()) in.raise("TypeError", "a composite tensor's components must be tensors");
    ir::Shape shape;  // None: unknown rank (an ExtensionType's TensorSpec(None))
    if (shapes[i].isNone()) shape = ir::Shape::unranked();
    else
      for (const Value &d : in.toList(shapes[i])) shape.dims.push_back(d.isNone() ? -1 : in.toInt(d));
    std::string pname = i == 0 ? name : fmt::format("{}_{}", name, i);
    ir::Value *p = g.function().addParam(ir::TensorType{t->dtype(), shape}, pname);
    parts.push_back(Value(wrapSym(p, &g, pname)));
  }
  return compositeFromComponents(in, Value(v.as<InstanceObject>()->klass), in.list(parts), compositeTypeKey(in, v));
}

// Symbolic stand-ins for tensor arguments, named after the parameters.
Value symbolize(Interpreter &in, const Value &v, GraphScope &g, const std::string &name,
                std::vector<ArgVariable> &variables, const std::vector<ir::Shape> *sigShapes, size_t &sigIndex) {
  if (auto *t = v.as<TensorObject>()) {
    ir::TensorType type{t->dtype(), t->shape()};
    if (sigShapes && sigIndex < sigShapes->size()) type.shape = (*sigShapes)[sigIndex];
    ++sigIndex;
    ir::Value *p = g.function().addParam(type, name);
    return Value(wrapSym(p, &g, name));
  }
  if (v.as<ListObject>() || v.as<TupleObject>()) {
    std::vector<Value> items;
    size_t i = 0;
    for (auto &x : in.toList(v)) items.push_back(symbolize(in, x, g, fmt::format("{}_{}", name, i++), variables, sigShapes, sigIndex));
    return v.as<ListObject>() ? in.list(items) : in.tuple(items);
  }
  if (auto *d = v.as<DictObject>()) {
    // Parameters in nestItems' order; the dict the function sees keeps the
    // caller's key order.
    auto sym = make<DictObject>();
    size_t i = 0;
    for (auto &[k, x] : nestItems(*d)) {
      auto *ks = k.as<StrObject>();
      std::string sub = ks ? fmt::format("{}_{}", name, ks->s) : fmt::format("{}_{}", name, i);
      ++i;
      sym->set(in, k, symbolize(in, x, g, sub, variables, sigShapes, sigIndex));
    }
    auto out = make<DictObject>();
    for (auto &[k, x] : d->items()) out->set(in, k, *sym->get(in, k));
    return Value(out);
  }
  if (auto *var = v.as<VariableObject>()) {
    // Relaxed shapes (reduce_retracing, get_concrete_function) list the
    // variables' shapes with the tensors'.
    const ir::Shape *relaxed = sigShapes && sigIndex < sigShapes->size() ? &(*sigShapes)[sigIndex] : nullptr;
    ++sigIndex;
    // One entry per distinct variable: f(v, v) reads one variable twice.
    for (const ArgVariable &a : variables)
      if (a.variable.get() == var) return v;
    ir::Shape shape = relaxed ? *relaxed : var->shape;
    // Captured now, with the trace's shape: the body's reads and
    // assignments find this capture (variable.cpp's captureVariable).
    if (!g.findVariableCapture(var)) {
      std::string hint = var->name.substr(0, var->name.find(':'));
      for (char &c : hint) if (c == '/') c = '_';
      g.addVariableCapture(var, hint, ir::TensorType{var->dtype, shape},
                           std::shared_ptr<void>(var->value, var->value.get()));
    }
    variables.push_back({Ref<VariableObject>(var), shape});
    return v;
  }
  if (isComposite(v)) return symbolizeComposite(in, v, g, name);
  if (hasTracingType(v)) return placeholderOf(in, v);
  return v;
}

void variableArgs(Interpreter &in, const Value &v, std::vector<VariableObject *> &out) {
  if (auto *var = v.as<VariableObject>()) {
    if (std::find(out.begin(), out.end(), var) == out.end()) out.push_back(var);
  } else if (v.as<ListObject>() || v.as<TupleObject>()) {
    for (auto &x : in.toList(v)) variableArgs(in, x, out);
  } else if (auto *d = v.as<DictObject>()) {
    for (auto &[k, x] : nestItems(*d)) variableArgs(in, x, out);
  }
}

void tensorArgs(Interpreter &in, const Value &v, std::vector<Tensor> &out, std::vector<int64_t> *ids) {
  if (auto *t = v.as<TensorObject>()) {
    out.push_back(t->eager);
    if (ids) ids->push_back(t->id);
  } else if (v.as<ListObject>() || v.as<TupleObject>()) {
    for (auto &x : in.toList(v)) tensorArgs(in, x, out, ids);
  } else if (auto *d = v.as<DictObject>()) {
    for (auto &[k, x] : nestItems(*d)) tensorArgs(in, x, out, ids);
  } else if (isComposite(v)) {
    tensorArgs(in, compositeComponents(in, v), out, ids);
  }
}

std::vector<std::string> paramNames(const Value &f) {
  std::vector<std::string> names;
  const FunctionObject *fn = f.as<FunctionObject>();
  if (auto *bm = f.as<BoundMethod>()) fn = bm->func.as<FunctionObject>();
  // The positional parameters: TF's FunctionType keeps their
  // POSITIONAL_OR_KEYWORD kind however a call passes them; *args are
  // named args_0, args_1, ... and keyword-only ones by their keyword.
  if (fn && fn->def)
    for (auto &p : fn->def->params)
      if (p.kind == ast::Param::Kind::Positional) names.push_back(p.name);
  return names;
}

// Replaces tensors in the output structure by slots of the return list.
Value collectOutputs(Interpreter &in, const Value &v, GraphScope &g, std::vector<ir::Value *> &outs) {
  if (auto *var = v.as<VariableObject>()) return collectOutputs(in, readVariable(in, *var), g, outs);
  if (v.isInt() || v.isFloat() || v.isBool() || v.as<StrObject>() || v.as<TensorObject>()) {
    auto t = toTensor(in, v);
    checkAccessible(in, g, *t);
    ir::Value *x = t->symbolic() ? t->sym : g.builder().constant(denseFromTensor(t->eager), in.currentSpan());
    outs.push_back(x);
    return Value::integer(int64_t(outs.size() - 1));
  }
  if (v.as<ListObject>() || v.as<TupleObject>()) {
    std::vector<Value> items;
    for (auto &x : in.toList(v)) items.push_back(collectOutputs(in, x, g, outs));
    return in.tuple({in.str(v.as<ListObject>() ? "list" : "tuple"), in.tuple(items)});
  }
  if (v.isNone()) return in.tuple({in.str("none")});
  if (auto *d = v.as<DictObject>()) {
    std::vector<Value> items;
    for (auto &[k, x] : d->items()) items.push_back(in.tuple({k, collectOutputs(in, x, g, outs)}));
    return in.tuple({in.str("dict"), in.tuple(items)});
  }
  // A namedtuple (a tuple subclass with _fields), a structure for tf.nest:
  // ("namedtuple", items, class), rebuilt as class(*items).
  if (auto *inst = v.as<InstanceObject>()) {
    const Value *b = builtinPart(v);
    if (b && b->as<TupleObject>() && inst->klass->lookup("_fields")) {
      std::vector<Value> items;
      for (auto &x : in.toList(*b)) items.push_back(collectOutputs(in, x, g, outs));
      return in.tuple({in.str("namedtuple"), in.tuple(items), Value(inst->klass)});
    }
  }
  if (isComposite(v)) {
    Value parts = collectOutputs(in, compositeComponents(in, v), g, outs);
    // The traced value's TypeSpec, TF's printed output type.
    return in.tuple({in.str("composite"), Value(v.as<InstanceObject>()->klass), parts, compositeTypeKey(in, v),
                     compositeSpec(in, v)});
  }
  return in.tuple({in.str("object"), v});
}

}  // namespace tfs::runtime::tf

namespace tfs::runtime::tf {

namespace {
std::pair<ir::Shape, DType> leafSpec(Interpreter &in, const Value &spec) {
  Value shape = in.getAttr(spec, "shape");
  Value dtype = in.getAttr(spec, "dtype");
  auto *s = shape.as<TensorShapeObject>();
  auto *d = dtype.as<DTypeObject>();
  if (!s || !d) in.raise("TypeError", fmt::format("input_signature must be a possibly nested sequence of TensorSpec objects, got invalid args [{}] with types [{}].", in.repr(spec), in.typeName(spec)));
  return {s->shape, d->dtype};
}
}  // namespace

void flattenSpec(Interpreter &in, const Value &spec, std::vector<std::pair<ir::Shape, DType>> &leaves) {
  if (spec.as<ListObject>() || spec.as<TupleObject>()) {
    for (auto &x : in.toList(spec)) flattenSpec(in, x, leaves);
  } else if (auto *d = spec.as<DictObject>()) {
    for (auto &[k, x] : nestItems(*d)) flattenSpec(in, x, leaves);
  } else if (isCompositeSpec(in, spec)) {
    // A composite's parameters take the shapes of its stand-in (see
    // nestedTraceArg), not the signature's leaf shapes.
  } else {
    leaves.push_back(leafSpec(in, spec));
  }
}

std::optional<Value> packToSpec(Interpreter &in, const Value &spec, const std::optional<Value> &arg) {
  if (spec.as<ListObject>() || spec.as<TupleObject>()) {
    std::vector<Value> specs = in.toList(spec);
    std::vector<Value> args;
    if (arg) {
      if (!arg->as<ListObject>() && !arg->as<TupleObject>()) return std::nullopt;
      args = in.toList(*arg);
      if (args.size() != specs.size()) return std::nullopt;
    }
    std::vector<Value> out;
    for (size_t i = 0; i < specs.size(); ++i) {
      std::optional<Value> x = packToSpec(in, specs[i], arg ? std::optional<Value>(args[i]) : std::nullopt);
      if (!x) return std::nullopt;
      out.push_back(*x);
    }
    return spec.as<ListObject>() ? in.list(out) : in.tuple(out);
  }
  if (auto *d = spec.as<DictObject>()) {
    auto *a = arg ? arg->as<DictObject>() : nullptr;
    if (arg && (!a || a->items().size() != d->items().size())) return std::nullopt;
    auto out = make<DictObject>();
    for (auto &[k, x] : d->items()) {
      std::optional<Value> item;
      if (a) {
        item = a->get(in, k);
        if (!item) return std::nullopt;
      }
      std::optional<Value> packed = packToSpec(in, x, item);
      if (!packed) return std::nullopt;
      out->set(in, k, *packed);
    }
    return Value(out);
  }
  if (isCompositeSpec(in, spec)) {
    if (!arg) return compositePlaceholder(in, spec);
    return isComposite(*arg) ? std::optional<Value>(*arg) : std::nullopt;
  }
  auto [shape, dtype] = leafSpec(in, spec);
  if (!arg) {
    std::vector<int64_t> dims = shape.ranked ? shape.dims : std::vector<int64_t>{};
    for (auto &dim : dims)
      if (dim < 0) dim = 1;
    auto t = make<TensorObject>();
    t->eager = filledTensor(dtype, dims, 0.0);
    return Value(t);
  }
  if (auto *t = arg->as<TensorObject>(); t && !t->numpy) return *arg;
  return Value(toTensor(in, *arg, std::nullopt, dtype));
}

Value nestedTraceArg(Interpreter &in, const Value &spec, const Value &arg) {
  if (isCompositeSpec(in, spec)) return compositePlaceholder(in, spec);
  if ((spec.as<ListObject>() || spec.as<TupleObject>()) && (arg.as<ListObject>() || arg.as<TupleObject>())) {
    std::vector<Value> specs = in.toList(spec), args = in.toList(arg);
    if (specs.size() != args.size()) return arg;
    std::vector<Value> out;
    for (size_t i = 0; i < specs.size(); ++i) out.push_back(nestedTraceArg(in, specs[i], args[i]));
    return arg.as<ListObject>() ? in.list(out) : in.tuple(out);
  }
  if (auto *d = spec.as<DictObject>(); d && arg.as<DictObject>()) {
    auto out = make<DictObject>();
    for (auto &[k, x] : arg.as<DictObject>()->items()) {
      std::optional<Value> sub = d->get(in, k);
      out->set(in, k, sub ? nestedTraceArg(in, *sub, x) : x);
    }
    return Value(out);
  }
  return arg;
}

bool nestedCompatible(Interpreter &in, const Value &spec, const Value &arg, std::string &why) {
  if (spec.as<ListObject>() || spec.as<TupleObject>()) {
    std::vector<Value> specs = in.toList(spec), args = in.toList(arg);
    for (size_t i = 0; i < specs.size(); ++i)
      if (!nestedCompatible(in, specs[i], args[i], why)) return false;
    return true;
  }
  if (auto *d = spec.as<DictObject>()) {
    for (auto &[k, x] : d->items())
      if (!nestedCompatible(in, x, *arg.as<DictObject>()->get(in, k), why)) return false;
    return true;
  }
  if (isCompositeSpec(in, spec)) {
    frontend::SourceSpan site = in.currentSpan();
    bool ok = isComposite(arg) && in.truth(in.call(in.getAttr(spec, "is_compatible_with"), std::vector<Value>{arg}));
    in.restoreSpan(site);
    return ok;
  }
  auto [shape, dtype] = leafSpec(in, spec);
  auto *t = arg.as<TensorObject>();
  if (t && t->dtype() == dtype && shape.isCompatibleWith(t->shape())) return true;
  if (t) why = castErrorText(t->shape(), t->dtype(), shape, dtype);
  return false;
}

std::string specTypeText(Interpreter &in, const Value &spec) {
  if (spec.as<ListObject>() || spec.as<TupleObject>()) {
    std::string out = spec.as<ListObject>() ? "List[" : "Tuple[";
    bool first = true;
    for (auto &x : in.toList(spec)) {
      out += (first ? "" : ", ") + specTypeText(in, x);
      first = false;
    }
    return out + "]";
  }
  if (auto *d = spec.as<DictObject>()) {
    std::string out = "Dict[";
    bool first = true;
    for (auto &[k, x] : d->items()) {
      out += fmt::format("{}[{}, {}]", first ? "" : ", ", in.repr(k), specTypeText(in, x));
      first = false;
    }
    return out + "]";
  }
  return in.repr(spec);
}

void raiseSignatureBinding(Interpreter &in, const std::string &why, std::span<const Value> args, const Kwargs &kwargs,
                           const std::vector<std::string> &names, size_t offset, const std::vector<Value> &specs) {
  std::vector<Value> given(args.begin(), args.end());
  std::string sig;
  std::string reason = why;
  if (reason.empty() && args.size() != specs.size())
    reason = args.size() > specs.size() || args.size() + offset >= names.size()
                 ? std::string("too many positional arguments")
                 : fmt::format("missing a required argument: '{}'", names[args.size() + offset]);
  if (reason.empty()) {
    for (const Value &spec : specs) sig += "\n    " + in.repr(spec);
    raiseTf(in, "TypeError", fmt::format("Binding inputs to tf.function failed due to `Python inputs incompatible "
                                         "with input_signature:\n  inputs: ({})\n  input_signature: ({})`.",
                                         argsText(in, given), sig));
  }
  for (size_t i = 0; i < specs.size(); ++i)
    sig += fmt::format("{}{}: {}", i ? ", " : "", i + offset < names.size() ? names[i + offset] : "args_" + std::to_string(i),
                       specTypeText(in, specs[i]));
  auto kw = make<DictObject>();
  for (auto &[k, v] : kwargs) kw->set(in, in.str(k), v);
  raiseTf(in, "TypeError",
          fmt::format("Binding inputs to tf.function failed due to `{}`. Received args: {} and kwargs: {} for "
                      "signature: ({}).",
                      reason, in.repr(in.tuple(given)), in.repr(Value(kw)), sig));
}

Value tracedCompositeSpec(Interpreter &in, const Value &v) {
  if (std::optional<Value> spec = in.getAttrOpt(v, "_tfs_spec"); spec && !spec->isNone()) return *spec;
  return compositeSpec(in, v);
}

std::string castErrorText(const ir::Shape &shape, DType dtype, const ir::Shape &want, DType wantDtype) {
  return fmt::format("Can not cast TensorSpec(shape={}, dtype=tf.{}, name=None) to TensorSpec(shape={}, dtype=tf.{}, "
                     "name=None)",
                     shape.tfString(), ir::dtypeName(dtype), want.tfString(), ir::dtypeName(wantDtype));
}

}  // namespace tfs::runtime::tf
