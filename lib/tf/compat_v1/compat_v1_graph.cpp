// tf.compat.v1's graph API beyond placeholders and Session.run: tf.Graph
// objects (as_default, get_operations, get_tensor_by_name,
// get_operation_by_name), the default graph, tf.group / tf.no_op /
// tf.control_dependencies, placeholder_with_default, assign_sub,
// variables_initializer, and the v1 attributes of graph tensors and
// variables (Tensor.op / eval / graph, Variable.initializer / eval / load,
// Operation.run).
#include "lib/tf/compat_v1/compat_v1.h"
#include "lib/tf/graph_def_object.h"
#include "runtime/tf/function_nested.h"
#include "runtime/interp/native_context_managers.h"

#include <set>

namespace tfs::runtime::tf {

using ir::OpKind;

void installSessions(Interpreter &in, ModuleObject &v1);
Value tensorByNameIn(Interpreter &in, GraphScope &g, const std::string &name);

namespace {
// A serial number per v1 graph made, so that state kept per graph (the
// collections of _tf_v1.tfs) is never that of an earlier graph which lived
// at the same address.
std::unordered_map<const GraphScope *, int64_t> &graphSerials() {
  static std::unordered_map<const GraphScope *, int64_t> serials;
  return serials;
}
void noteNewGraph(const GraphScope *g) {
  static int64_t next = 0;
  graphSerials()[g] = ++next;
}
}  // namespace

GraphObject::GraphObject() : keep(std::make_shared<GraphScope>(GraphScope::Kind::V1Graph, "graph")), graph(keep.get()) {
  noteNewGraph(graph);
}

Value newGraph() { return make<GraphObject>(); }

GraphScope &defaultV1Graph(Interpreter &in) {
  TfContext &c = ctx(in);
  if (c.v1Graph) return *c.v1Graph;
  if (!c.ownedV1Graph) {
    c.ownedV1Graph = std::make_unique<GraphScope>(GraphScope::Kind::V1Graph, "graph");
    noteNewGraph(c.ownedV1Graph.get());
  }
  return *c.ownedV1Graph;
}

namespace {

// as_default(): makes the graph the v1 default graph for the `with` body.
struct DefaultGraphScope : Object {
  Ref<GraphObject> graph;
  GraphScope *saved = nullptr;
  const char *typeName() const override { return "_DefaultGraphStack"; }
  std::optional<Value> enter(Interpreter &in) override {
    TfContext &c = ctx(in);
    saved = c.v1Graph;
    c.v1Graph = graph->graph;
    swapCollections(c);
    return Value(graph);
  }
  bool exit(Interpreter &in, bool) override {
    TfContext &c = ctx(in);
    c.v1Graph = saved;
    swapCollections(c);
    return false;
  }
  void swapCollections(TfContext &c) {
    if (!graph->keep) return;  // a view of the default graph: the context's own
    std::swap(c.globalVariables, graph->globalVariables);
    std::swap(c.v1Variables, graph->v1Variables);
  }
};
TFS_NATIVE_CONTEXT_MANAGER(DefaultGraphScope);

// _tfs_outside_graph(): the body runs eagerly, as if no v1 graph were the
// default (an Estimator builds its input pipeline this way: datasets read
// their sources eagerly).
struct OutsideGraphScope : Object {
  GraphScope *saved = nullptr;
  const char *typeName() const override { return "_OutsideGraph"; }
  std::optional<Value> enter(Interpreter &in) override {
    saved = ctx(in).v1Graph;
    ctx(in).v1Graph = nullptr;
    return Value();
  }
  bool exit(Interpreter &in, bool) override {
    ctx(in).v1Graph = saved;
    return false;
  }
};
TFS_NATIVE_CONTEXT_MANAGER(OutsideGraphScope);

// tf.control_dependencies(...): tensors made in the body run these first.
struct ControlDependenciesScope : Object {
  GraphScope *graph = nullptr;  // null: eager or tf.function (no effect)
  std::vector<ir::Node *> nodes, saved;
  bool clear = false;
  const char *typeName() const override { return "_ControlDependenciesController"; }
  std::optional<Value> enter(Interpreter &) override {
    if (graph) {
      saved = graph->controlInputs;
      if (clear) graph->controlInputs.clear();
      for (ir::Node *n : nodes) graph->controlInputs.push_back(n);
    }
    return Value();
  }
  bool exit(Interpreter &, bool) override {
    if (graph) graph->controlInputs = saved;
    return false;
  }
};
TFS_NATIVE_CONTEXT_MANAGER(ControlDependenciesScope);

std::string opName(const std::string &tensorName) { return tensorName.substr(0, tensorName.rfind(':')); }

// The nodes that running `v` (an operation, a tensor, a variable's
// initializer) means.
void nodesOf(Interpreter &in, const Value &v, std::vector<ir::Node *> &out, const char *what) {
  if (auto *op = v.as<OpObject>()) {
    out.insert(out.end(), op->nodes.begin(), op->nodes.end());
    return;
  }
  if (auto *t = v.as<TensorObject>(); t && t->symbolic()) {
    out.insert(out.end(), t->controlDeps.begin(), t->controlDeps.end());
    if (ir::Node *n = t->sym->definingNode()) out.push_back(n);
    return;
  }
  if (v.as<ListObject>() || v.as<TupleObject>()) {
    for (const Value &x : in.toList(v)) nodesOf(in, x, out, what);
    return;
  }
  if (v.as<VariableObject>()) return;  // reading a variable has no effect to wait for
  raiseTf(in, "TypeError", fmt::format("Can not convert a {} into a Tensor or Operation.", in.typeName(v)));
}

Value makeOp(GraphScope *g, const std::string &name, std::vector<ir::Node *> nodes, const std::string &type = "NoOp") {
  auto op = make<OpObject>();
  op->scope = g;
  op->name = g ? g->uniqueName(name) : name;
  op->type = type;
  op->nodes = std::move(nodes);
  return Value(op);
}

std::string scopedName(Interpreter &in, const std::string &base) {
  std::string prefix;
  for (auto &s : ctx(in).nameScopes) prefix += s;
  return prefix + base;
}

// An op that assigns each variable its initial value.
Value initializerOp(Interpreter &in, const std::vector<Ref<VariableObject>> &vars, const std::string &name) {
  GraphScope *g = currentGraph(in);
  std::vector<ir::Node *> nodes;
  for (auto &v : vars) {
    if (v->initialValue.isNone()) continue;
    if (!g) {
      *v->value = toTensor(in, v->initialValue, v->dtype)->eager;
      continue;
    }
    Value r = assignOp(in, *v, OpKind::AssignVariable, v->initialValue);
    for (ir::Node *n : r.as<TensorObject>()->controlDeps) nodes.push_back(n);
  }
  return makeOp(g, name, nodes);
}

Value evalFn(Interpreter &in, const Value &self) {
  return nativeWithSignature(in, "eval(feed_dict=None, session=None)", [self](Interpreter &in, const Bound &b) -> Value {
    Value s = defaultSession(in, b["session"]);
    return in.call(in.getAttr(s, "run"), std::vector<Value>{self, b["feed_dict"]});
  });
}

// Tensor / Variable attributes of tf.compat.v1 graphs (TfContext::v1AttrHook).
std::optional<Value> v1Attr(Interpreter &in, const Value &self, const std::string &name) {
  if (auto *t = self.as<TensorObject>()) {
    if (name == "op") return operationOf(in, *t);
    if (name == "eval") return evalFn(in, self);
    if (name == "graph") return Value(make<GraphObject>(t->scope));
    return std::nullopt;
  }
  auto *v = self.as<VariableObject>();
  if (!v) return std::nullopt;
  Ref<VariableObject> var(v);
  if (name == "initializer") {
    // A variable made by tf.Variable in a graph starts with its value; its
    // initializer assigns that value again.
    if (var->initialValue.isNone() && var->value && var->value->valid()) var->initialValue = wrap(var->value->copy());
    return initializerOp(in, {var}, opName(var->name) + "/Assign");
  }
  if (name == "initial_value") return var->initialValue;
  // In a v1 graph, assign / assign_add / assign_sub make an op that assigns
  // when run (Session.run(v.assign(x))), not an assignment now.
  const std::pair<const char *, OpKind> assigns[] = {{"assign", OpKind::AssignVariable},
                                                     {"assign_add", OpKind::AssignAddVariable},
                                                     {"assign_sub", OpKind::AssignSubVariable}};
  GraphScope *g = currentGraph(in);
  for (const auto &[attr, kind] : assigns)
    if (name == attr && g && g->kind() == GraphScope::Kind::V1Graph) {
      OpKind k = kind;
      std::string sig = name + "(value, use_locking=None, name=None, read_value=True)";
      return nativeWithSignature(in, sig, [var, k](Interpreter &in, const Bound &b) {
        return assignOp(in, *var, k, b["value"]);
      });
    }
  if (name == "eval") return evalFn(in, self);
  if (name == "op") return makeOp(nullptr, opName(var->name), {}, "VarHandleOp");
  if (name == "graph") return Value(make<GraphObject>(&defaultV1Graph(in)));
  if (name == "load")
    return nativeWithSignature(in, "load(value, session=None)", [var](Interpreter &in, const Bound &b) {
      Tensor t = toTensor(in, b["value"], var->dtype)->eager;
      if (var->shape.ranked && !ir::Shape(t.shape()).isCompatibleWith(var->shape))
        in.raise("ValueError", fmt::format("Cannot load a value of shape {} into variable {} of shape {}",
                                           ir::Shape(t.shape()).tfString(), var->name, var->shape.tfString()));
      *var->value = t.copy();
      return Value();
    });
  return std::nullopt;
}

}  // namespace

Value operationOf(Interpreter &in, TensorObject &t) {
  std::vector<ir::Node *> nodes(t.controlDeps.begin(), t.controlDeps.end());
  ir::Node *n = t.sym->definingNode();
  if (n) nodes.push_back(n);
  auto op = make<OpObject>();
  op->scope = t.scope;
  op->name = opName(t.tensorName());
  op->type = n ? ir::tfOpType(n->kind()) : "Placeholder";
  op->nodes = nodes;
  return Value(op);
}

// TF prints an Operation as its NodeDef (protobuf text format).
std::optional<std::string> OpObject::str(Interpreter &in) {
  GraphScope &g = scope ? *scope : defaultV1Graph(in);
  if (std::optional<std::string> text = nodeDefText(in, g, name)) return text;
  raiseTf(in, "NotImplementedError",
          fmt::format("printing the NodeDef of operation '{}' ({}) is not supported by tfs: tfs's graph has no "
                      "node of that name",
                      name, type));
}

std::optional<Value> OpObject::getAttr(Interpreter &in, const std::string &attr) {
  Ref<OpObject> self(this);
  if (attr == "name") return in.str(name);
  if (attr == "type") return in.str(type);
  if (attr == "graph") return Value(make<GraphObject>(scope ? scope : &defaultV1Graph(in)));
  if (attr == "run")
    return nativeWithSignature(in, "run(feed_dict=None, session=None)", [self](Interpreter &in, const Bound &b) {
      Value s = defaultSession(in, b["session"]);
      in.call(in.getAttr(s, "run"), std::vector<Value>{Value(self), b["feed_dict"]});
      return Value();
    });
  return std::nullopt;
}

std::optional<Value> GraphObject::compare(Interpreter &, CmpOp op, const Value &other) {
  auto *g = other.as<GraphObject>();
  if (op != CmpOp::Eq && op != CmpOp::Ne) return std::nullopt;
  bool same = g && g->graph == graph;
  return Value::boolean(op == CmpOp::Eq ? same : !same);
}

std::optional<Value> GraphObject::getAttr(Interpreter &in, const std::string &name) {
  Ref<GraphObject> self(this);
  if (name == "as_default")
    return in.native(name, [self](Interpreter &, Args, const Kwargs &) -> Value {
      auto s = make<DefaultGraphScope>();
      s->graph = self;
      return s;
    });
  if (name == "get_tensor_by_name")
    return nativeWithSignature(in, "get_tensor_by_name(name)", [self](Interpreter &in, const Bound &b) {
      return tensorByNameIn(in, *self->graph, in.str(b["name"]));
    });
  if (name == "get_operation_by_name")
    return nativeWithSignature(in, "get_operation_by_name(name)", [self](Interpreter &in, const Bound &b) -> Value {
      std::string n = in.str(b["name"]);
      if (n.find(':') != std::string::npos)
        in.raise("ValueError", fmt::format("Name '{}' appears to refer to a Tensor, not a Operation.", n));
      Value t = tensorByNameIn(in, *self->graph, n + ":0");
      return operationOf(in, *t.as<TensorObject>());
    });
  // The operations the script made (the named values of the graph, in
  // order). tfs's graph has no separate variable, initializer or gradient
  // helper operations, so the list is shorter than TensorFlow's.
  if (name == "get_operations")
    return nativeWithSignature(in, "get_operations()", [self](Interpreter &in, const Bound &) {
      std::vector<Value> out;
      for (ir::Value *p : self->graph->function().params()) {  // a traced function's arguments
        const std::string &nm = self->graph->nameOf(p);
        if (!nm.empty()) out.push_back(operationOf(in, *wrapSym(p, self->graph, nm)));
      }
      for (const auto &n : self->graph->function().body().nodes()) {
        // TF lists one StatefulPartitionedCall where tfs copied a nested
        // tf.function's nodes in (function_nested.h).
        if (auto callee = n->attrs.find(kNestedCallAttr); callee != n->attrs.end())
          in.raise("NotImplementedError",
                   fmt::format("the operations of a graph calling tf.function '{}' are not supported by tfs: "
                               "TensorFlow lists the call as one StatefulPartitionedCall operation, where tfs copies "
                               "the callee's nodes into the caller's graph",
                               ir::attrString(n->attrs, kNestedCallAttr, "")));
        if (n->numResults() == 0) continue;
        const std::string &nm = self->graph->nameOf(n->result(0));
        if (nm.empty() || nm.find(':') != std::string::npos) continue;
        Ref<TensorObject> t = wrapSym(n->result(0), self->graph, nm);
        out.push_back(operationOf(in, *t));
      }
      return in.list(out);
    });
  if (name == "as_graph_def")
    return nativeWithSignature(in, "as_graph_def(from_version=!None, add_shapes=False, use_pybind11_proto=!False)",
                               [self](Interpreter &in, const Bound &b) {
                                 return graphDefValue(*self->graph, in.truth(b["add_shapes"]));
                               });
  if (name == "finalize") return in.native(name, [](Interpreter &, Args, const Kwargs &) { return Value(); });
  if (name == "finalized") return Value::boolean(false);
  // Collections (the graph's own: _tf_v1.tfs keeps them per graph). A graph
  // that is not the default one is made the default for the call.
  static const std::set<std::string> collectionMethods{"get_collection",   "get_collection_ref",
                                                       "add_to_collection", "add_to_collections",
                                                       "get_all_collection_keys", "clear_collection"};
  if (collectionMethods.count(name))
    return in.native(name, [self, name](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      std::string impl = name == "get_all_collection_keys" || name == "clear_collection" ? "_" + name : name;
      Value fn = in.getAttr(in.importModule("_tf_v1_collections"), impl);
      if (ctx(in).v1Graph == self->graph) return in.call(fn, a, kw);
      auto scope = make<DefaultGraphScope>();
      scope->graph = self;
      scope->enter(in);
      try {
        Value r = in.call(fn, a, kw);
        scope->exit(in, false);
        return r;
      } catch (...) {
        scope->exit(in, true);
        throw;
      }
    });
  return std::nullopt;
}

void installTensorGraphAttrs(Interpreter &in) { ctx(in).v1AttrHook = v1Attr; }

void installCompatV1Graph(Interpreter &in, ModuleObject &v1) {
  auto bind = [&](std::string_view sig, SignedFn fn) {
    Value f = nativeWithSignature(in, sig, std::move(fn));
    v1.scope->vars[f.as<NativeFunction>()->name] = f;
  };
  installTensorGraphAttrs(in);
  installSessions(in, v1);
  bind("get_default_graph()", [](Interpreter &in, const Bound &) -> Value {
    return make<GraphObject>(&defaultV1Graph(in));
  });
  bind("reset_default_graph()", [](Interpreter &in, const Bound &) {
    TfContext &c = ctx(in);
    if (!c.graphs.empty())
      raiseTf(in, "AssertionError", "Do not use tf.reset_default_graph() to clear nested graphs. If you need a cleared "
                                    "graph, exit the nesting and create a new graph.");
    bool active = c.v1Graph == c.ownedV1Graph.get() && c.v1Graph;
    auto fresh = std::make_unique<GraphScope>(GraphScope::Kind::V1Graph, "graph");
    noteNewGraph(fresh.get());
    c.failedTraces.push_back(std::shared_ptr<GraphScope>(std::move(c.ownedV1Graph)));  // tensors may still name it
    c.ownedV1Graph = std::move(fresh);
    if (active) c.v1Graph = c.ownedV1Graph.get();
    c.v1Variables.clear();
    c.globalVariables.clear();
    return Value();
  });
  bind("_tfs_outside_graph()", [](Interpreter &, const Bound &) -> Value { return make<OutsideGraphScope>(); });
  // The default graph's serial number (_tf_v1.tfs keys its collections by it).
  bind("_tfs_graph_serial()", [](Interpreter &in, const Bound &) {
    GraphScope &g = defaultV1Graph(in);
    auto it = graphSerials().find(&g);
    return Value::integer(it == graphSerials().end() ? 0 : it->second);
  });
  bind("no_op(name=None)", [](Interpreter &in, const Bound &b) {
    return makeOp(currentGraph(in), b.isNone("name") ? scopedName(in, "NoOp") : in.str(b["name"]), {});
  });
  bind("group(*inputs, name=None)", [](Interpreter &in, const Bound &b) {
    std::vector<ir::Node *> nodes;
    for (const Value &v : b.varArgs()) nodesOf(in, v, nodes, "group");
    return makeOp(currentGraph(in), b.isNone("name") ? scopedName(in, "group_deps") : in.str(b["name"]), nodes);
  });
  bind("control_dependencies(control_inputs)", [](Interpreter &in, const Bound &b) -> Value {
    auto s = make<ControlDependenciesScope>();
    GraphScope *g = currentGraph(in);
    if (g && g->kind() == GraphScope::Kind::V1Graph) {
      s->graph = g;
      if (b.isNone("control_inputs")) s->clear = true;
      else nodesOf(in, b["control_inputs"], s->nodes, "control_dependencies");
    }
    return s;
  });
  bind("placeholder_with_default(input, shape, name=None)", [](Interpreter &in, const Bound &b) -> Value {
    Ref<TensorObject> dflt = toTensor(in, b["input"]);
    GraphScope *g = currentGraph(in);
    if (!g || g->kind() != GraphScope::Kind::V1Graph) return Value(dflt);  // eager / tf.function: the input
    std::optional<Tensor> value = staticValue(*dflt);
    if (!value)
      raiseTf(in, "NotImplementedError",
              "placeholder_with_default with a default computed in the graph is not supported by tfs");
    std::vector<int64_t> dims;
    if (auto *s = b["shape"].as<TensorShapeObject>()) dims = s->shape.dims;
    else for (auto &x : in.toList(b["shape"])) dims.push_back(x.isNone() ? -1 : in.toInt(x));
    if (!ir::Shape(value->shape()).isCompatibleWith(ir::Shape(dims)))
      in.raise("ValueError", fmt::format("Shapes {} and {} are incompatible", ir::Shape(value->shape()).tfString(),
                                         ir::Shape(dims).tfString()));
    std::string name = g->uniqueName(scopedName(in, b.isNone("name") ? "PlaceholderWithDefault" : in.str(b["name"])));
    ir::Attrs attrs{{"dtype", value->dtype()}, {"shape", dims}, {"name", name}};
    ir::Node *n;
    try {
      n = g->builder().createNode(OpKind::Placeholder, {}, attrs, in.currentSpan());
    } catch (const ir::OpError &e) {
      raiseOpError(in, e);
    }
    g->placeholderDefaults[name] = *value;
    return Value(wrapSym(n->result(0), g, name));
  });
  bind("assign_sub(ref, value, use_locking=None, name=None)", [](Interpreter &in, const Bound &b) -> Value {
    auto *v = b["ref"].as<VariableObject>();
    if (!v) raiseTf(in, "TypeError", "assign_sub() expects a variable");
    return assignOp(in, *v, OpKind::AssignSubVariable, b["value"]);
  });
  bind("variables_initializer(var_list, name='init')", [](Interpreter &in, const Bound &b) {
    std::vector<Ref<VariableObject>> vars;
    for (const Value &v : in.toList(b["var_list"])) {
      auto *var = v.as<VariableObject>();
      if (!var) raiseTf(in, "TypeError", fmt::format("variables_initializer expects variables, got {}", in.typeName(v)));
      vars.push_back(Ref<VariableObject>(var));
    }
    return initializerOp(in, vars, in.str(b["name"]));
  });
  bind("global_variables_initializer()", [](Interpreter &in, const Bound &) {
    return initializerOp(in, ctx(in).globalVariables, "init");
  });
  v1.scope->vars["initialize_all_variables"] = v1.scope->vars["global_variables_initializer"];
  // Local variables (tf.compat.v1.metrics' counters): out of the global
  // variables (not saved, not in global_variables_initializer), in the
  // LOCAL_VARIABLES collection of _tf_v1.tfs.
  bind("_tfs_make_local(var)", [](Interpreter &in, const Bound &b) {
    auto &globals = ctx(in).globalVariables;
    for (auto it = globals.begin(); it != globals.end(); ++it)
      if (it->get() == b["var"].obj()) {
        globals.erase(it);
        break;
      }
    return Value();
  });
  auto localVariables = [](Interpreter &in) {
    return in.toList(in.call(in.getAttr(in.importModule("_tf_v1"), "get_collection"),
                             std::vector<Value>{in.str("local_variables")}));
  };
  bind("local_variables_initializer()", [localVariables](Interpreter &in, const Bound &) {
    std::vector<Ref<VariableObject>> vars;
    for (const Value &v : localVariables(in))
      if (auto *var = v.as<VariableObject>()) vars.push_back(Ref<VariableObject>(var));
    return initializerOp(in, vars, "init");
  });
  v1.scope->vars["initialize_local_variables"] = v1.scope->vars["local_variables_initializer"];
  // The initializers of the tables whose entries the graph computes (the
  // others are initialized when made; lib/tf/lookup/_tf_lookup.tfs).
  bind("tables_initializer(name='init_all_tables')", [](Interpreter &in, const Bound &b) {
    std::vector<ir::Node *> nodes;
    Value collection =
        in.call(in.getAttr(in.importModule("_tf_v1"), "get_collection"), std::vector<Value>{in.str("table_initializer")});
    for (const Value &op : in.toList(collection)) nodesOf(in, op, nodes, "tables_initializer");
    return makeOp(currentGraph(in), in.str(b["name"]), nodes);
  });
  v1.scope->vars["initialize_all_tables"] = v1.scope->vars["tables_initializer"];
  bind("local_variables(scope=None)", [](Interpreter &in, const Bound &b) {
    return in.call(in.getAttr(in.importModule("_tf_v1"), "get_collection"),
                   std::vector<Value>{in.str("local_variables"), b["scope"]});
  });
}

}  // namespace tfs::runtime::tf
