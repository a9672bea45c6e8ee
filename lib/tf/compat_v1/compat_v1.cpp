// tf.compat.v1: graphs built op by op (Graph().as_default(),
// disable_eager_execution), placeholders, Session.run with feeds (pruned to
// what the fetches need), get_variable and variable_scope, initializers,
// assign, gradients, and GradientDescentOptimizer.
#include "runtime/autodiff/graph_gradients.h"
#include "runtime/interp/signature.h"
#include "runtime/kernels/kernels.h"
#include "lib/tf/compat_v1/compat_v1.h"
#include "lib/tf/compat_v1/variable_store_hook.h"
#include "runtime/tf/trace_report.h"
#include "runtime/interp/native_context_managers.h"

#include <fmt/format.h>
#include <map>

namespace tfs::runtime::tf {

using ir::OpKind;

namespace {

// The track_tf1_style_variables store in use per context (variable_store_hook.h).
Value &v1VariableStore(Interpreter &in) {
  static std::map<const TfContext *, Value> stores;
  return stores[&ctx(in)];
}

GraphScope &requireGraph(Interpreter &in, const char *what) {
  GraphScope *g = currentGraph(in);
  if (!g) raiseTf(in, "RuntimeError", fmt::format("{}() is not compatible with eager execution.", what));
  return *g;
}

// tf.AUTO_REUSE: get_variable creates a variable when missing, else reuses it.
struct ReuseModeObject : Object {
  const char *typeName() const override { return "_ReuseMode"; }
  std::optional<std::string> repr(Interpreter &) override { return "<_ReuseMode.AUTO_REUSE: 1>"; }
};

struct VariableScopeObject : Object {
  std::string name;
  bool reuse = false, autoReuse = false;
  size_t depth = 0;  // its entry in the reuse stacks while entered
  std::vector<std::string> savedScopes;
  // Re-entering a scope object, or a default_name already made unique:
  // the name scope is the scope's name as it is.
  bool fixedNameScope = false;
  const char *typeName() const override { return "VariableScope"; }
  std::optional<Value> enter(Interpreter &in) override {
    TfContext &c = ctx(in);
    c.v1ScopeStack.push_back(name);
    depth = c.v1ReuseStack.size();
    c.v1ReuseStack.push_back(reuse || (!c.v1ReuseStack.empty() && c.v1ReuseStack.back()));
    c.v1AutoReuseStack.push_back(autoReuse || (!c.v1AutoReuseStack.empty() && c.v1AutoReuseStack.back()));
    // A track_tf1_style_variables store counts the scopes entered, so that a
    // layer named later with default_name skips them (TF's scope counts).
    if (Value store = v1VariableStore(in); !store.isNone()) {
      std::string full;
      for (size_t i = 0; i < c.v1ScopeStack.size(); ++i) full += (i ? "/" : "") + c.v1ScopeStack[i];
      in.call(in.getAttr(store, "note_variable_scope"), std::vector<Value>{in.str(full)});
    }
    // Its name scope is made unique in a graph being built (TF enters
    // name_scope(name): a second "s" block names its ops "s_1/..."), while
    // variables keep the scope's own name.
    savedScopes = c.nameScopes;
    if (GraphScope *g = currentGraph(in); g && !fixedNameScope) {
      std::string prefix;
      for (auto &s : c.nameScopes) prefix += s;
      c.nameScopes = {g->uniqueName(prefix + name) + "/"};
    } else {
      c.nameScopes.push_back(name + "/");
    }
    return Value(Ref<Object>(this));
  }
  bool exit(Interpreter &in, bool) override {
    TfContext &c = ctx(in);
    c.v1ScopeStack.pop_back();
    c.v1ReuseStack.pop_back();
    c.v1AutoReuseStack.pop_back();
    c.nameScopes = savedScopes;
    return false;
  }
  std::optional<Value> getAttr(Interpreter &in, const std::string &attr) override {
    Ref<VariableScopeObject> self(this);
    if (attr == "name" || attr == "original_name_scope") return in.str(attr == "name" ? name : name + "/");
    if (attr == "reuse") {
      if (autoReuse) return Value(make<ReuseModeObject>());
      return Value::boolean(reuse);
    }
    if (attr == "reuse_variables")
      return in.native(attr, [self](Interpreter &in, Args, const Kwargs &) {
        self->reuse = true;
        TfContext &c = ctx(in);
        if (self->depth < c.v1ReuseStack.size()) c.v1ReuseStack[self->depth] = true;
        return Value();
      });
    return std::nullopt;
  }
};
TFS_NATIVE_CONTEXT_MANAGER(VariableScopeObject);

}  // namespace

std::string v1VarCapture(Interpreter &in, GraphScope &g, VariableObject &v) {
  if (const std::string *n = g.findVariableCapture(&v)) return *n;
  std::string hint = v.name.substr(0, v.name.find(':'));
  for (char &ch : hint) if (ch == '/') ch = '_';
  return g.addVariableCapture(&v, hint, ir::TensorType{v.dtype, v.shape}, std::shared_ptr<void>(v.value, v.value.get()));
}

Value assignOp(Interpreter &in, VariableObject &v, OpKind kind, const Value &value) {
  GraphScope *g = currentGraph(in);
  if (!g) {
    assignVariable(in, v, kind, value);
    return Value(Ref<Object>(&v));
  }
  auto t = toTensor(in, value, std::nullopt, v.dtype);
  ir::Value *val = t->symbolic() ? t->sym : g->builder().constant(denseFromTensor(t->eager), in.currentSpan());
  std::string cap = v1VarCapture(in, *g, v);
  ir::Node *assign;
  try {
    assign = g->builder().assignVariable(kind, cap, val, in.currentSpan());
  } catch (const ir::OpError &e) {
    raiseOpError(in, e);
  }
  ir::Value *read = g->builder().readVariable(cap, in.currentSpan());
  auto r = wrapSym(read, g, g->uniqueName("Assign"));
  r->controlDeps.push_back(assign);
  return Value(r);
}

namespace {

Value opt(const Kwargs &kw, const std::string &name) {
  for (const auto &[k, v] : kw) if (k == name) return v;
  return Value();
}

}  // namespace

Value setV1VariableStore(Interpreter &in, const Value &store) {
  Value &slot = v1VariableStore(in);
  Value previous = slot;
  slot = store;
  return previous;
}

void installCompatV1(Interpreter &in, ModuleObject &v1, ModuleObject &tf) {
  auto def = [&](ModuleObject &m, const std::string &name, NativeFn fn) { m.scope->vars[name] = in.native(name, std::move(fn)); };
  for (ModuleObject *m : {&v1}) {
    def(*m, "disable_eager_execution", [](Interpreter &in, Args, const Kwargs &) {
      TfContext &c = ctx(in);
      c.eagerDisabled = true;
      if (!c.v1Graph) c.v1Graph = &defaultV1Graph(in);
      return Value();
    });
    def(*m, "enable_eager_execution", [](Interpreter &, Args, const Kwargs &) { return Value(); });
    // TF 1's identity comparison and hashing of tensors and variables.
    m->scope->vars["disable_tensor_equality"] = nativeWithSignature(in, "disable_tensor_equality()",
        [](Interpreter &in, const Bound &) { ctx(in).tensorEqualityDisabled = true; return Value(); });
    m->scope->vars["enable_tensor_equality"] = nativeWithSignature(in, "enable_tensor_equality()",
        [](Interpreter &in, const Bound &) { ctx(in).tensorEqualityDisabled = false; return Value(); });
    def(*m, "placeholder", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      auto args = in.bindArgs("placeholder", a, kw, {"dtype", "shape", "name"}, {std::nullopt, Value(), Value()});
      GraphScope *g = currentGraph(in);
      if (!g || (!ctx(in).graphs.empty() && ctx(in).graphs.back() != g))
        raiseTf(in, "RuntimeError", "tf.placeholder() is not compatible with eager execution.");
      DType d = *dtypeArg(in, args[0]);
      ir::Attrs attrs{{"dtype", d}};
      if (!args[1].isNone()) {
        std::vector<int64_t> dims;
        if (auto *s = args[1].as<TensorShapeObject>()) dims = s->shape.dims;
        else for (auto &x : in.toList(args[1])) dims.push_back(x.isNone() ? -1 : in.toInt(x));
        attrs["shape"] = dims;
      }
      std::string scope;
      for (auto &sc : ctx(in).nameScopes) scope += sc;
      std::string name = g->uniqueName(scope + (args[2].isNone() ? "Placeholder" : in.str(args[2])));
      attrs["name"] = name;
      ir::Node *n;
      try {
        n = g->builder().createNode(OpKind::Placeholder, {}, attrs, in.currentSpan());
      } catch (const ir::OpError &e) {
        raiseOpError(in, e);
      }
      return Value(wrapSym(n->result(0), g, name));
    });
    static const char *scopeSig =
        "variable_scope(name_or_scope, default_name=None, values=None, initializer=!None, regularizer=!None, "
        "caching_device=None, partitioner=!None, custom_getter=!None, reuse=None, dtype=!None, use_resource=None, "
        "constraint=!None, auxiliary_name_scope=True)";
    m->scope->vars["variable_scope"] = nativeWithSignature(in, scopeSig, [](Interpreter &in, const Bound &b) -> Value {
      auto s = make<VariableScopeObject>();
      if (auto *other = b["name_or_scope"].as<VariableScopeObject>()) {
        s->name = other->name;
        s->fixedNameScope = true;
      } else if (!b.isNone("name_or_scope")) {
        s->name = in.str(b["name_or_scope"]);
      } else if (!b.isNone("default_name")) {
        s->name = ctx(in).v1Graph ? ctx(in).v1Graph->uniqueName(in.str(b["default_name"])) : in.str(b["default_name"]);
        s->fixedNameScope = true;
      }
      else in.raise("TypeError", "If default_name is None then name_or_scope is required");
      const Value &r = b["reuse"];
      s->autoReuse = r.as<ReuseModeObject>() != nullptr;
      s->reuse = !s->autoReuse && !r.isNone() && in.truth(r);
      return s;
    });
    m->scope->vars["AUTO_REUSE"] = Value(make<ReuseModeObject>());
    m->scope->vars["get_variable_scope"] = nativeWithSignature(in, "get_variable_scope()", [](Interpreter &in, const Bound &) -> Value {
      TfContext &c = ctx(in);
      auto s = make<VariableScopeObject>();
      for (size_t i = 0; i < c.v1ScopeStack.size(); ++i) s->name += (i ? "/" : "") + c.v1ScopeStack[i];
      if (c.v1ReuseStack.empty()) {  // the root scope: a stack entry reuse_variables() can set
        c.v1ReuseStack.push_back(false);
        c.v1AutoReuseStack.push_back(false);
      }
      s->depth = c.v1ReuseStack.size() - 1;
      s->reuse = c.v1ReuseStack.back();
      s->autoReuse = !c.v1AutoReuseStack.empty() && c.v1AutoReuseStack.back();
      return s;
    });
    static const char *getVariableSig =
        "get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=None, "
        "collections=!None, caching_device=None, partitioner=!None, validate_shape=True, use_resource=None, "
        "custom_getter=!None, constraint=None, synchronization=None, aggregation=None)";
    m->scope->vars["get_variable"] = nativeWithSignature(in, getVariableSig, [](Interpreter &in, const Bound &b) -> Value {
      std::vector<Value> args{b["name"], b["shape"], b["dtype"], b["initializer"], Value(),
                              b.isNone("trainable") ? Value::boolean(true) : b["trainable"]};
      TfContext &c = ctx(in);
      std::string full;
      for (auto &s : c.v1ScopeStack) full += s + "/";
      full += in.str(args[0]);
      bool reuse = !c.v1ReuseStack.empty() && c.v1ReuseStack.back();
      bool autoReuse = !c.v1AutoReuseStack.empty() && c.v1AutoReuseStack.back();
      if (Value store = v1VariableStore(in); !store.isNone()) {
        Kwargs kw{{"shape", b["shape"]},
                  {"dtype", b["dtype"]},
                  {"initializer", b["initializer"]},
                  {"regularizer", b["regularizer"]},
                  {"trainable", b["trainable"]},
                  {"constraint", b["constraint"]},
                  {"reuse", autoReuse ? in.str("auto") : Value::boolean(reuse)}};
        return in.call(in.getAttr(store, "get_variable"), std::vector<Value>{in.str(full)}, kw);
      }
      for (const char *unsupported : {"regularizer", "constraint"})
        if (!b.isNone(unsupported))
          in.raise("NotImplementedError",
                   fmt::format("get_variable() argument '{}' is not supported by tfs outside a method decorated "
                               "with tf.compat.v1.keras.utils.track_tf1_style_variables (only its default, None, is)",
                               unsupported));
      auto it = c.v1Variables.find(full);
      if (autoReuse && it != c.v1Variables.end()) return Value(it->second);
      if (reuse && !autoReuse) {
        if (it == c.v1Variables.end())
          in.raise("ValueError", fmt::format("Variable {} does not exist, or was not created with tf.get_variable(). Did you mean to set reuse=tf.AUTO_REUSE in VarScope?", full));
        return Value(it->second);
      }
      if (it != c.v1Variables.end())
        in.raise("ValueError", fmt::format("Variable {} already exists, disallowed. Did you mean to set reuse=True or reuse=tf.AUTO_REUSE in VarScope?", full));
      DType d = dtypeArg(in, args[2]).value_or(DType::Float32);
      std::vector<int64_t> shape;
      if (!args[1].isNone()) {
        if (auto *s = args[1].as<TensorShapeObject>()) shape = s->shape.dims;
        else for (auto &x : in.toList(args[1])) shape.push_back(x.isNone() ? -1 : in.toInt(x));
      }
      Value init = args[3];
      if (init.isNone())
        init = in.call(in.getAttr(importPreludeModule(in, "_tf_v1_initializers"), "default_initializer"),
                       std::vector<Value>{dtypeValue(d)});
      if (init.as<ClassObject>()) init = in.call(init, {});  // an initializer class, as TF instantiates it
      Value shapeList;
      {
        std::vector<Value> dims;
        for (int64_t x : shape) dims.push_back(Value::integer(x));
        shapeList = in.list(dims);
      }
      Value initTensor;
      if (init.as<TensorObject>()) initTensor = init;
      else initTensor = in.call(init, std::vector<Value>{shapeList}, Kwargs{{"dtype", dtypeValue(d)}});
      auto v = make<VariableObject>();
      v->name = full + ":0";
      v->dtype = d;
      v->shape = ir::Shape(shape);
      v->value = std::make_shared<Tensor>();
      v->trainable = in.truth(args[5]);
      v->graphMode = currentGraph(in) != nullptr;
      v->initialValue = initTensor;
      if (!v->graphMode) *v->value = toTensor(in, initTensor, d)->eager;
      c.v1Variables[full] = v;
      c.globalVariables.push_back(v);
      return Value(v);
    });
    def(*m, "global_variables", [](Interpreter &in, Args, const Kwargs &) {
      std::vector<Value> vs;
      for (auto &v : ctx(in).globalVariables) vs.push_back(Value(v));
      return in.list(vs);
    });
    def(*m, "trainable_variables", [](Interpreter &in, Args, const Kwargs &) {
      std::vector<Value> vs;
      for (auto &v : ctx(in).globalVariables) if (v->trainable) vs.push_back(Value(v));
      return in.list(vs);
    });
    def(*m, "assign", [](Interpreter &in, Args a, const Kwargs &) -> Value {
      auto *v = a[0].as<VariableObject>();
      if (!v) raiseTf(in, "TypeError", "assign() expects a variable");
      return assignOp(in, *v, OpKind::AssignVariable, a[1]);
    });
    def(*m, "assign_add", [](Interpreter &in, Args a, const Kwargs &) -> Value {
      auto *v = a[0].as<VariableObject>();
      if (!v) raiseTf(in, "TypeError", "assign_add() expects a variable");
      return assignOp(in, *v, OpKind::AssignAddVariable, a[1]);
    });
    // The *_initializer classes are TF 1's (_tf_v1_initializers.tfs, installed
    // with the OVERRIDES of _tf_v1.tfs).
    // gate_gradients, aggregation_method and colocate_gradients_with_ops
    // change how TF schedules the gradient ops, never their values.
    static const char *gradientsSig =
        "gradients(ys, xs, grad_ys=None, name='gradients', colocate_gradients_with_ops=False, "
        "gate_gradients=False, aggregation_method=None, stop_gradients=!None, unconnected_gradients='none')";
    m->scope->vars["gradients"] = nativeWithSignature(in, gradientsSig, [](Interpreter &in, const Bound &a) -> Value {
      if (!currentGraph(in))
        raiseTf(in, "RuntimeError",
                "tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape instead.");
      GraphScope &g = requireGraph(in, "tf.gradients");
      auto listOf = [&](const Value &v) {
        return v.as<ListObject>() || v.as<TupleObject>() ? in.toList(v) : std::vector<Value>{v};
      };
      std::vector<Value> ysv = listOf(a["ys"]), xsv = listOf(a["xs"]);
      std::vector<ir::Value *> ys, gradYs;
      for (auto &y : ysv) ys.push_back(toTensor(in, y)->sym);
      if (!a.isNone("grad_ys")) {
        std::vector<Value> gv = listOf(a["grad_ys"]);
        if (gv.size() != ys.size())
          in.raise("ValueError", fmt::format("Passed {} grad_ys for {} ys", gv.size(), ys.size()));
        for (size_t i = 0; i < gv.size(); ++i) {
          if (gv[i].isNone()) { gradYs.push_back(nullptr); continue; }
          auto t = toTensor(in, gv[i], std::nullopt, ys[i]->type.dtype);
          gradYs.push_back(t->symbolic() ? t->sym : g.builder().constant(denseFromTensor(t->eager), in.currentSpan()));
        }
      }
      std::vector<GradientSource> xs;
      for (auto &x : xsv) {
        if (auto *v = x.as<VariableObject>()) xs.push_back(GradientSource{nullptr, v1VarCapture(in, g, *v)});
        else xs.push_back(GradientSource{toTensor(in, x)->sym, ""});
      }
      const Value &unconnected = a["unconnected_gradients"];
      std::string mode = unconnected.as<StrObject>() ? in.str(unconnected) : in.str(in.getAttr(unconnected, "value"));
      if (mode != "none" && mode != "zero")
        in.raise("ValueError", fmt::format("Unknown value for unconnected_gradients: '{}'", mode));
      std::vector<ir::Value *> grads;
      try {
        grads = gradients(g.builder(), ys, xs, gradYs, in.currentSpan());
      } catch (const ir::OpError &e) {
        raiseOpError(in, e);
      }
      std::vector<Value> out;
      for (size_t i = 0; i < grads.size(); ++i) {
        if (grads[i]) {
          out.push_back(Value(wrapSym(grads[i], &g, g.uniqueName("gradients"))));
        } else if (mode == "zero") {
          out.push_back(Value(callOp1(in, OpKind::ZerosLike, {toTensor(in, xsv[i])})));
        } else {
          out.push_back(Value());
        }
      }
      return in.list(out);
    });
  }
  auto train = make<ModuleObject>("tensorflow.compat.v1.train");
  v1.scope->vars["train"] = train;
  // TF1's session-run hooks and Scaffold (lib/tf/estimator/_tf_estimator_hooks.tfs)
  // are tf.compat.v1.train's only.
  train->lazy = [](Interpreter &in, const std::string &n) -> std::optional<Value> {
    if (auto f = trainApi(in, n)) return f;
    return preludeApi(in, "_tf_estimator_hooks", "train_v1_api", n);
  };
  // tf.compat.v1.saved_model: TF2's save, contains_saved_model and the
  // constants (the same in both APIs); the TF1 builder / loader API
  // (Builder, simple_save, load(sess, tags, export_dir), signature_def_utils,
  // ...) from _tf_saved_model_v1.tfs, never TF2's functions of other
  // signatures.
  auto savedModelV1 = make<ModuleObject>("tensorflow.compat.v1.saved_model");
  v1.scope->vars["saved_model"] = savedModelV1;
  Value tfModule{Ref<Object>(&tf)};
  savedModelV1->lazy = [tfModule](Interpreter &in, const std::string &name) -> std::optional<Value> {
    if (auto f = preludeApi(in, "_tf_saved_model_v1", "V1_API", name)) return f;
    if (name == "LEGACY_INIT_OP_KEY" || name == "MAIN_OP_KEY")
      return preludeApi(in, "_tf_saved_model_v1", "CONSTANTS", name);
    if (auto table = preludeApi(in, "_tf_saved_model_v1", "SUBMODULES", name)) {
      auto sub = make<ModuleObject>("tensorflow.compat.v1.saved_model." + name);
      Value entries = *table;
      sub->lazy = [entries](Interpreter &in, const std::string &n) -> std::optional<Value> {
        auto *d = entries.as<DictObject>();
        return d ? d->get(in, in.str(n)) : std::nullopt;
      };
      return Value(sub);
    }
    bool constant = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return std::isupper(c) || c == '_'; });
    if (!constant && name != "save" && name != "contains_saved_model") return std::nullopt;
    auto *v2 = in.getAttr(tfModule, "saved_model").as<ModuleObject>();
    if (!v2) return std::nullopt;
    if (auto it = v2->scope->vars.find(name); it != v2->scope->vars.end()) return it->second;
    return v2->lazy ? v2->lazy(in, name) : std::nullopt;
  };
  installCompatV1Graph(in, v1);
  // The application-level parts (_tf_v1.tfs): TF1 optimizers, Saver, collections,
  // legacy argument names.
  v1.scope->vars["_global_variables_native"] = v1.scope->vars["global_variables"];
  v1.scope->vars["_trainable_variables_native"] = v1.scope->vars["trainable_variables"];
  Value app = importPreludeModule(in, "_tf_v1");
  auto install = [&](const char *table, ModuleObject &target) {
    if (auto *d = in.getAttr(app, table).as<DictObject>())
      for (auto &[k, v] : d->items()) target.scope->vars[in.str(k)] = v;
  };
  install("OVERRIDES", v1);
  installStringHashesV1(in, v1);
  install("TRAIN", *train);
  install("NN_OVERRIDES", *in.getAttr(Value(Ref<Object>(&v1)), "nn").as<ModuleObject>());
  // tf.compat.v1.layers (over Keras: loaded on first use).
  auto previous = v1.lazy;
  v1.lazy = [previous](Interpreter &in, const std::string &name) -> std::optional<Value> {
    if (name == "layers") return in.getAttr(importPreludeModule(in, "_tf_v1_layers"), "layers");
    return previous ? previous(in, name) : std::nullopt;
  };
  // tf.compat.v1 also reachable from the v2 module (tf.compat.v1.*) shares these.
  (void)tf;
}

}  // namespace tfs::runtime::tf
