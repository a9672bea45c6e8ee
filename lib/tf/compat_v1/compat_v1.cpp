// tf.compat.v1: graphs built op by op (Graph().as_default(),
// disable_eager_execution), placeholders, Session.run with feeds (pruned to
// what the fetches need), get_variable and variable_scope, initializers,
// assign, gradients, and GradientDescentOptimizer.
#include "runtime/autodiff/graph_gradients.h"
#include "runtime/interp/signature.h"
#include "runtime/kernels/kernels.h"
#include "lib/tf/tf_lib.h"
#include "runtime/tf/trace_report.h"

#include <fmt/format.h>

namespace tfs::runtime::tf {

using ir::OpKind;

namespace {

// An operation fetched for its effects (assign, initializer, train step).
struct OpObject : Object {
  std::vector<ir::Node *> nodes;
  GraphScope *scope = nullptr;
  std::string name;
  const char *typeName() const override { return "Operation"; }
  std::optional<std::string> repr(Interpreter &) override { return fmt::format("<tf.Operation '{}' type=NoOp>", name); }
};

struct GraphObject : Object {
  std::shared_ptr<GraphScope> scope = std::make_shared<GraphScope>(GraphScope::Kind::V1Graph, "graph");
  const char *typeName() const override { return "Graph"; }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override;
};

// as_default(): makes the graph the v1 default graph for the `with` body.
struct DefaultGraphScope : Object {
  Ref<GraphObject> graph;
  GraphScope *saved = nullptr;
  const char *typeName() const override { return "_DefaultGraphStack"; }
  std::optional<Value> enter(Interpreter &in) override {
    TfContext &c = ctx(in);
    saved = c.v1Graph;
    c.v1Graph = graph->scope.get();  // the GraphObject owns it
    return Value(graph);
  }
  bool exit(Interpreter &in, bool) override {
    TfContext &c = ctx(in);
    c.v1Graph = saved;
    return false;
  }
};

std::optional<Value> GraphObject::getAttr(Interpreter &in, const std::string &name) {
  Ref<GraphObject> self(this);
  if (name == "as_default")
    return in.native(name, [self](Interpreter &, Args, const Kwargs &) -> Value {
      auto s = make<DefaultGraphScope>();
      s->graph = self;
      return s;
    });
  return std::nullopt;
}

GraphScope &requireGraph(Interpreter &in, const char *what) {
  GraphScope *g = currentGraph(in);
  if (!g) raiseTf(in, "RuntimeError", fmt::format("{}() is not compatible with eager execution.", what));
  return *g;
}

struct VariableScopeObject : Object {
  std::string name;
  bool reuse = false;
  const char *typeName() const override { return "variable_scope"; }
  std::optional<Value> enter(Interpreter &in) override {
    TfContext &c = ctx(in);
    c.v1ScopeStack.push_back(name);
    c.v1ReuseStack.push_back(reuse || (!c.v1ReuseStack.empty() && c.v1ReuseStack.back()));
    c.nameScopes.push_back(name + "/");
    return Value(Ref<Object>(this));
  }
  bool exit(Interpreter &in, bool) override {
    TfContext &c = ctx(in);
    c.v1ScopeStack.pop_back();
    c.v1ReuseStack.pop_back();
    if (!c.nameScopes.empty()) c.nameScopes.pop_back();
    return false;
  }
};

// Initializers: callables (shape, dtype) -> eager tensor.
Value initializer(Interpreter &in, const std::string &kind, double a, double b) {
  return in.native(kind, [kind, a, b](Interpreter &in, Args args, const Kwargs &kw) -> Value {
    std::vector<int64_t> shape;
    Value s = args.empty() ? Value() : args[0];
    for (const auto &[k, v] : kw) if (k == "shape") s = v;
    if (!s.isNone()) for (auto &d : in.toList(s)) shape.push_back(in.toInt(d));
    DType dt = DType::Float32;
    for (const auto &[k, v] : kw) if (k == "dtype") dt = dtypeArg(in, v).value_or(dt);
    if (args.size() > 1) dt = dtypeArg(in, args[1]).value_or(dt);
    if (kind == "zeros" || kind == "ones" || kind == "constant")
      return wrap(filledTensor(dt, shape, kind == "zeros" ? 0.0 : kind == "ones" ? 1.0 : a));
    double fanIn = shape.size() >= 2 ? double(shape[shape.size() - 2]) : shape.empty() ? 1.0 : double(shape[0]);
    double fanOut = shape.empty() ? 1.0 : double(shape.back());
    double limit = kind == "glorot_uniform" ? std::sqrt(6.0 / std::max(1.0, fanIn + fanOut)) : b;
    double lo = kind == "glorot_uniform" ? -limit : a;
    static uint64_t seed = 12345;
    ir::Attrs attrs{{"shape", shape}, {"dtype", dt}, {"seed", int64_t(seed++)}, {"seed2", int64_t(7)}};
    if (kind == "random_normal") {
      attrs["mean"] = a;
      attrs["stddev"] = b;
      return wrap(runKernel(OpKind::RandomNormal, {}, attrs)[0]);
    }
    attrs["minval"] = lo;
    attrs["maxval"] = limit;
    return wrap(runKernel(OpKind::RandomUniform, {}, attrs)[0]);
  });
}

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

// Session.run: fetch structure in, numpy values out.
struct SessionObject : Object {
  GraphScope *graph = nullptr;
  std::shared_ptr<GraphScope> keep;
  const char *typeName() const override { return "Session"; }
  std::optional<Value> enter(Interpreter &) override { return Value(Ref<Object>(this)); }
  bool exit(Interpreter &, bool) override { return false; }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override;
};

void collectFetch(Interpreter &in, GraphScope &g, const Value &f, FetchList &fl, std::vector<int> &slots) {
  if (auto *t = f.as<TensorObject>()) {
    if (!t->symbolic()) { slots.push_back(-2); return; }
    for (ir::Node *n : t->controlDeps) fl.nodes.push_back(n);
    slots.push_back(int(fl.values.size()));
    fl.values.push_back(t->sym);
    return;
  }
  if (auto *v = f.as<VariableObject>()) {
    std::string cap = v1VarCapture(in, g, *v);
    slots.push_back(int(fl.values.size()));
    fl.values.push_back(g.builder().readVariable(cap, in.currentSpan()));
    return;
  }
  if (auto *op = f.as<OpObject>()) {
    for (ir::Node *n : op->nodes) fl.nodes.push_back(n);
    slots.push_back(-1);
    return;
  }
  if (f.as<ListObject>() || f.as<TupleObject>()) {
    for (auto &x : in.toList(f)) collectFetch(in, g, x, fl, slots);
    return;
  }
  if (auto *d = f.as<DictObject>()) {
    for (auto &[k, x] : d->items()) collectFetch(in, g, x, fl, slots);
    return;
  }
  raiseTf(in, "TypeError", fmt::format("Fetch argument {} has invalid type {}", in.repr(f), in.typeName(f)));
}

Value rebuildFetch(Interpreter &in, const Value &f, const std::vector<Tensor> &vals, const std::vector<int> &slots,
                   size_t &pos) {
  if (f.as<ListObject>() || f.as<TupleObject>()) {
    std::vector<Value> items;
    for (auto &x : in.toList(f)) items.push_back(rebuildFetch(in, x, vals, slots, pos));
    return f.as<ListObject>() ? in.list(items) : in.tuple(items);
  }
  if (auto *d = f.as<DictObject>()) {
    auto out = make<DictObject>();
    for (auto &[k, x] : d->items()) out->set(in, k, rebuildFetch(in, x, vals, slots, pos));
    return out;
  }
  int s = slots[pos++];
  if (s == -1) return Value();
  if (s == -2) return wrap(f.as<TensorObject>()->eager, true);
  return wrap(vals[size_t(s)], true);
}

std::optional<Value> SessionObject::getAttr(Interpreter &in, const std::string &name) {
  Ref<SessionObject> self(this);
  if (name == "close") return in.native(name, [](Interpreter &, Args, const Kwargs &) { return Value(); });
  if (name != "run") return std::nullopt;
  return in.native(name, [self](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("run", a, kw, {"fetches", "feed_dict", "options", "run_metadata"}, {std::nullopt, Value(), Value(), Value()});
    GraphScope *g = self->graph ? self->graph : currentGraph(in);
    if (!g) raiseTf(in, "RuntimeError", "The Session graph is empty. Add operations to the graph before calling run().");
    FetchList fl;
    std::vector<int> slots;
    collectFetch(in, *g, args[0], fl, slots);
    VariableRunContext rc(in);
    if (auto *fd = args[1].as<DictObject>()) {
      for (auto &[k, v] : fd->items()) {
        auto *t = k.as<TensorObject>();
        if (!t || !t->symbolic()) raiseTf(in, "TypeError", "Cannot interpret feed_dict key as Tensor");
        const ir::Node *n = t->sym->definingNode();
        std::string key = n && n->kind() == OpKind::Placeholder ? ir::attrString(n->attrs, "name", t->name) : t->name;
        Tensor val = tensorFromPython(in, v, t->dtype(), true);
        if (!t->shape().isCompatibleWith(ir::Shape(val.shape())))
          raiseTf(in, "ValueError", fmt::format("Cannot feed value of shape {} for Tensor {}, which has shape {}",
                                                ir::Shape(val.shape()).tfString(), t->tensorName(), t->shape().tfString()));
        rc.feeds[key] = val;
      }
    }
    reportV1Graph(in, *g);  // --emit=graph / dot: the graph as it runs
    std::vector<Tensor> vals;
    try {
      vals = runFetches(g->function(), fl, {}, rc);
    } catch (const GraphRunError &e) {
      raiseGraphError(in, e);
    } catch (const ir::OpError &e) {
      raiseOpError(in, e);
    }
    size_t pos = 0;
    return rebuildFetch(in, args[0], vals, slots, pos);
  });
}

Value opt(const Kwargs &kw, const std::string &name) {
  for (const auto &[k, v] : kw) if (k == name) return v;
  return Value();
}

}  // namespace

Value newGraph() { return make<GraphObject>(); }

void installCompatV1(Interpreter &in, ModuleObject &v1, ModuleObject &tf) {
  auto def = [&](ModuleObject &m, const std::string &name, NativeFn fn) { m.scope->vars[name] = in.native(name, std::move(fn)); };
  for (ModuleObject *m : {&v1}) {
    def(*m, "disable_eager_execution", [](Interpreter &in, Args, const Kwargs &) {
      TfContext &c = ctx(in);
      c.eagerDisabled = true;
      if (!c.v1Graph) {
        c.ownedV1Graph = std::make_unique<GraphScope>(GraphScope::Kind::V1Graph, "graph");
        c.v1Graph = c.ownedV1Graph.get();
      }
      return Value();
    });
    def(*m, "enable_eager_execution", [](Interpreter &, Args, const Kwargs &) { return Value(); });
    def(*m, "Graph", [](Interpreter &, Args, const Kwargs &) -> Value { return make<GraphObject>(); });
    def(*m, "get_default_graph", [](Interpreter &in, Args, const Kwargs &) -> Value {
      auto g = make<GraphObject>();
      return g;
    });
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
      std::string name = g->uniqueName(args[2].isNone() ? "Placeholder" : in.str(args[2]));
      attrs["name"] = name;
      ir::Node *n;
      try {
        n = g->builder().createNode(OpKind::Placeholder, {}, attrs, in.currentSpan());
      } catch (const ir::OpError &e) {
        raiseOpError(in, e);
      }
      return Value(wrapSym(n->result(0), g, name));
    });
    def(*m, "Session", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      auto s = make<SessionObject>();
      Value g = a.empty() ? opt(kw, "graph") : a[0];
      if (auto *go = g.as<GraphObject>()) {
        s->graph = go->scope.get();
        s->keep = go->scope;
      }
      return s;
    });
    def(*m, "variable_scope", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      auto s = make<VariableScopeObject>();
      s->name = a.empty() ? in.str(opt(kw, "name_or_scope")) : in.str(a[0]);
      Value r = a.size() > 1 ? a[1] : opt(kw, "reuse");
      s->reuse = !r.isNone() && in.truth(r);
      return s;
    });
    def(*m, "get_variable", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      auto args = in.bindArgs("get_variable", a, kw, {"name", "shape", "dtype", "initializer", "regularizer", "trainable"},
                              {std::nullopt, Value(), Value(), Value(), Value(), Value::boolean(true)});
      TfContext &c = ctx(in);
      std::string full;
      for (auto &s : c.v1ScopeStack) full += s + "/";
      full += in.str(args[0]);
      bool reuse = !c.v1ReuseStack.empty() && c.v1ReuseStack.back();
      auto it = c.v1Variables.find(full);
      if (reuse) {
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
      if (init.isNone()) init = initializer(in, "glorot_uniform", 0, 0);
      if (auto *cls = init.as<NativeFunction>(); cls && (cls->name == "zeros_initializer" || cls->name == "ones_initializer"))
        init = in.call(init, {});
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
    def(*m, "global_variables_initializer", [](Interpreter &in, Args, const Kwargs &) -> Value {
      auto op = make<OpObject>();
      op->name = "init";
      GraphScope *g = currentGraph(in);
      for (auto &v : ctx(in).globalVariables) {
        if (v->initialValue.isNone()) continue;
        if (!g) {
          *v->value = toTensor(in, v->initialValue, v->dtype)->eager;
          continue;
        }
        Value r = assignOp(in, *v, OpKind::AssignVariable, v->initialValue);
        for (ir::Node *n : r.as<TensorObject>()->controlDeps) op->nodes.push_back(n);
      }
      return op;
    });
    m->scope->vars["initialize_all_variables"] = m->scope->vars["global_variables_initializer"];
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
    def(*m, "constant_initializer", [](Interpreter &in, Args a, const Kwargs &kw) {
      Value v = a.empty() ? opt(kw, "value") : a[0];
      return initializer(in, "constant", v.isNone() ? 0.0 : in.toFloat(v), 0);
    });
    def(*m, "zeros_initializer", [](Interpreter &in, Args, const Kwargs &) { return initializer(in, "zeros", 0, 0); });
    def(*m, "ones_initializer", [](Interpreter &in, Args, const Kwargs &) { return initializer(in, "ones", 0, 0); });
    def(*m, "random_normal_initializer", [](Interpreter &in, Args a, const Kwargs &) {
      return initializer(in, "random_normal", a.size() > 0 ? in.toFloat(a[0]) : 0.0, a.size() > 1 ? in.toFloat(a[1]) : 0.05);
    });
    def(*m, "random_uniform_initializer", [](Interpreter &in, Args a, const Kwargs &) {
      return initializer(in, "random_uniform", a.size() > 0 ? in.toFloat(a[0]) : -0.05, a.size() > 1 ? in.toFloat(a[1]) : 0.05);
    });
    def(*m, "glorot_uniform_initializer", [](Interpreter &in, Args, const Kwargs &) { return initializer(in, "glorot_uniform", 0, 0); });
    // gate_gradients, aggregation_method and colocate_gradients_with_ops
    // change how TF schedules the gradient ops, never their values.
    static const char *gradientsSig =
        "gradients(ys, xs, grad_ys=None, name='gradients', colocate_gradients_with_ops=False, "
        "gate_gradients=False, aggregation_method=None, stop_gradients=!None, unconnected_gradients='none')";
    m->scope->vars["gradients"] = nativeWithSignature(in, gradientsSig, [](Interpreter &in, const Bound &a) -> Value {
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
  train->lazy = trainApi;
  // GradientDescentOptimizer: minimize = gradients + assign_sub per variable.
  def(*train, "GradientDescentOptimizer", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    double lr = in.toFloat(a.empty() ? opt(kw, "learning_rate") : a[0]);
    auto opt = make<ModuleObject>("GradientDescentOptimizer");
    auto apply = [lr](Interpreter &in, const std::vector<std::pair<Value, Value>> &gv) -> Value {
      auto op = make<OpObject>();
      op->name = "GradientDescent";
      for (auto &[g, v] : gv) {
        if (g.isNone()) continue;
        auto *var = v.as<VariableObject>();
        Value step = in.binary(BinOp::Mul, g, Value::real(lr));
        Value r = assignOp(in, *var, OpKind::AssignSubVariable, step);
        if (auto *t = r.as<TensorObject>()) for (ir::Node *n : t->controlDeps) op->nodes.push_back(n);
      }
      return op;
    };
    auto compute = [](Interpreter &in, const Value &loss, const Value &varList) {
      std::vector<Value> vars;
      if (varList.isNone()) for (auto &v : ctx(in).globalVariables) { if (v->trainable) vars.push_back(Value(v)); }
      else vars = in.toList(varList);
      Value grads = in.call(in.getAttr(in.importModule("tensorflow.compat.v1"), "gradients"), std::vector<Value>{loss, in.list(vars)});
      std::vector<std::pair<Value, Value>> out;
      auto gl = in.toList(grads);
      for (size_t i = 0; i < vars.size(); ++i) out.emplace_back(gl[i], vars[i]);
      return out;
    };
    opt->scope->vars["minimize"] = in.native("minimize", [apply, compute](Interpreter &in, Args a, const Kwargs &kw) {
      Value varList = a.size() > 2 ? a[2] : Value();
      for (const auto &[k, v] : kw) if (k == "var_list") varList = v;
      return apply(in, compute(in, a[0], varList));
    });
    opt->scope->vars["compute_gradients"] = in.native("compute_gradients", [compute](Interpreter &in, Args a, const Kwargs &kw) {
      Value varList = a.size() > 1 ? a[1] : Value();
      for (const auto &[k, v] : kw) if (k == "var_list") varList = v;
      std::vector<Value> pairs;
      for (auto &[g, v] : compute(in, a[0], varList)) pairs.push_back(in.tuple({g, v}));
      return in.list(pairs);
    });
    opt->scope->vars["apply_gradients"] = in.native("apply_gradients", [apply](Interpreter &in, Args a, const Kwargs &) {
      std::vector<std::pair<Value, Value>> gv;
      for (auto &p : in.toList(a[0])) {
        auto items = in.toList(p);
        gv.emplace_back(items[0], items[1]);
      }
      return apply(in, gv);
    });
    return opt;
  });
  // tf.compat.v1 also reachable from the v2 module (tf.compat.v1.*) shares these.
  (void)tf;
}

}  // namespace tfs::runtime::tf
