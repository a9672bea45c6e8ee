// tf.compat.v1.Session and InteractiveSession: Session.run over a v1 graph
// (fetch structures of tensors, variables, operations and their names;
// feeds by tensor or name), default sessions for Tensor.eval and
// Operation.run.
#include "lib/tf/compat_v1/compat_v1.h"
#include "runtime/tf/trace_report.h"
#include "runtime/interp/native_context_managers.h"

namespace tfs::runtime::tf {

using ir::OpKind;

namespace {

struct SessionObject : Object {
  GraphScope *graph = nullptr;  // null: the default graph when run
  std::shared_ptr<GraphScope> keep;
  bool interactive = false;
  bool closed = false;
  GraphScope *savedGraph = nullptr;
  // An InteractiveSession's graph (Graph.as_default) is the default graph
  // until close(), as TF's InteractiveSession enters it.
  Value interactiveGraphScope;
  const char *typeName() const override { return interactive ? "InteractiveSession" : "Session"; }
  // `with tf.Session() as sess:` makes it the default session and its graph
  // the default graph for the body, as TF's Session.__enter__ does.
  std::optional<Value> enter(Interpreter &in) override {
    TfContext &c = ctx(in);
    c.v1DefaultSessions.push_back(Value(Ref<Object>(this)));
    savedGraph = c.v1Graph;
    if (graph) c.v1Graph = graph;
    return Value(Ref<Object>(this));
  }
  bool exit(Interpreter &in, bool) override {
    TfContext &c = ctx(in);
    if (!c.v1DefaultSessions.empty()) c.v1DefaultSessions.pop_back();
    c.v1Graph = savedGraph;
    closed = true;
    return false;
  }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override;
};
TFS_NATIVE_CONTEXT_MANAGER(SessionObject);

// Session.as_default(): the default session for the `with` body only.
struct DefaultSessionScope : Object {
  Value session;
  const char *typeName() const override { return "_DefaultSessionScope"; }
  std::optional<Value> enter(Interpreter &in) override {
    ctx(in).v1DefaultSessions.push_back(session);
    return session;
  }
  bool exit(Interpreter &in, bool) override {
    auto &st = ctx(in).v1DefaultSessions;
    if (!st.empty()) st.pop_back();
    return false;
  }
};
TFS_NATIVE_CONTEXT_MANAGER(DefaultSessionScope);

// A tensor of graph `g` by TF name ("x:0", "scope/MatMul_1:0"), or null.
TensorObject *findTensor(GraphScope &g, const std::string &name, Ref<TensorObject> &holder) {
  std::string node = name, want = name;
  if (name.find(':') == std::string::npos) want = name + ":0";
  // A traced function's arguments ("x:0").
  for (ir::Value *p : g.function().params()) {
    const std::string &nm = g.nameOf(p);
    if (!nm.empty() && (nm.find(':') == std::string::npos ? nm + ":0" : nm) == want) {
      holder = wrapSym(p, &g, nm);
      return holder.get();
    }
  }
  for (const auto &n : g.function().body().nodes()) {
    for (size_t i = 0; i < n->numResults(); ++i) {
      const std::string &nm = g.nameOf(n->result(unsigned(i)));
      if (nm.empty()) continue;
      std::string full = nm.find(':') == std::string::npos ? nm + ":0" : nm;
      if (full == want) {
        holder = wrapSym(n->result(unsigned(i)), &g, nm);
        return holder.get();
      }
    }
  }
  (void)node;
  return nullptr;
}

Value tensorByName(Interpreter &in, GraphScope &g, const std::string &name) {
  if (name.find(':') == std::string::npos)
    in.raise("ValueError", fmt::format("The name '{}' looks like an (invalid) Operation name, not a Tensor. Tensor "
                                       "names must be of the form \"<op_name>:<output_index>\".", name));
  Ref<TensorObject> t;
  if (!findTensor(g, name, t))
    raiseTf(in, "KeyError", fmt::format("The name '{}' refers to a Tensor which does not exist. The operation, '{}', "
                                        "does not exist in the graph.", name, name.substr(0, name.find(':'))));
  return Value(t);
}

// An instance of a tuple subclass (a namedtuple).
bool isTupleSubclass(const Value &f) {
  auto *inst = f.as<InstanceObject>();
  return inst && inst->builtinValue.as<TupleObject>();
}

// A mapping that is not a plain dict (an OrderedDict, make_csv_dataset's
// features): its items in order.
bool isMapping(Interpreter &in, const Value &f) {
  if (!f.as<InstanceObject>()) return false;
  auto items = in.getAttrOpt(f, "items");
  auto keys = in.getAttrOpt(f, "keys");
  return items && keys && in.getAttrOpt(f, "__getitem__");
}
std::vector<std::pair<Value, Value>> mappingItems(Interpreter &in, const Value &f) {
  std::vector<std::pair<Value, Value>> out;
  for (const Value &kv : in.toList(in.call(in.getAttr(f, "items"), {}))) {
    std::vector<Value> pair = in.toList(kv);
    out.emplace_back(pair[0], pair[1]);
  }
  return out;
}

void collectFetch(Interpreter &in, GraphScope &g, const Value &f, FetchList &fl, std::vector<int> &slots) {
  if (auto *s = f.as<StrObject>()) {
    std::string name = s->s;
    Ref<TensorObject> t;
    if (name.find(':') != std::string::npos) {
      collectFetch(in, g, tensorByName(in, g, name), fl, slots);
      return;
    }
    if (!findTensor(g, name, t))
      raiseTf(in, "ValueError", fmt::format("Fetch argument '{}' cannot be interpreted as a Tensor. (\"The name '{}' "
                                            "refers to an Operation not in the graph.\")", name, name));
    for (ir::Node *n : t->controlDeps) fl.nodes.push_back(n);
    fl.nodes.push_back(t->sym->definingNode());
    slots.push_back(-1);
    return;
  }
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
  if (f.as<ListObject>() || f.as<TupleObject>() || isTupleSubclass(f)) {
    for (auto &x : in.toList(f)) collectFetch(in, g, x, fl, slots);
    return;
  }
  if (auto *d = f.as<DictObject>()) {
    for (auto &[k, x] : d->items()) collectFetch(in, g, x, fl, slots);
    return;
  }
  if (isMapping(in, f)) {
    for (auto &[k, x] : mappingItems(in, f)) collectFetch(in, g, x, fl, slots);
    return;
  }
  if (f.isNone()) raiseTf(in, "TypeError", "Fetch argument None has invalid type <class 'NoneType'>");
  raiseTf(in, "TypeError", fmt::format("Fetch argument {} has invalid type <class '{}'>, must be a string or Tensor. "
                                       "(Can not convert a {} into a Tensor or Operation.)",
                                       in.repr(f), in.typeName(f), in.typeName(f)));
}

Value rebuildFetch(Interpreter &in, const Value &f, const std::vector<Tensor> &vals, const std::vector<int> &slots,
                   size_t &pos) {
  if (f.as<ListObject>() || f.as<TupleObject>()) {
    std::vector<Value> items;
    for (auto &x : in.toList(f)) items.push_back(rebuildFetch(in, x, vals, slots, pos));
    return f.as<ListObject>() ? in.list(items) : in.tuple(items);
  }
  if (isTupleSubclass(f)) {
    // A namedtuple: the same type, built from the fetched values.
    std::vector<Value> items;
    for (auto &x : in.toList(f)) items.push_back(rebuildFetch(in, x, vals, slots, pos));
    return in.call(in.getAttr(Value(f), "_make"), std::vector<Value>{in.list(items)});
  }
  if (auto *d = f.as<DictObject>()) {
    auto out = make<DictObject>();
    for (auto &[k, x] : d->items()) out->set(in, k, rebuildFetch(in, x, vals, slots, pos));
    return out;
  }
  if (isMapping(in, f)) {
    // The same mapping type, made from the fetched (key, value) pairs.
    std::vector<Value> pairs;
    for (auto &[k, x] : mappingItems(in, f)) pairs.push_back(in.tuple({k, rebuildFetch(in, x, vals, slots, pos)}));
    return in.call(in.getAttr(f, "__class__"), std::vector<Value>{in.list(pairs)});
  }
  int s = slots[pos++];
  if (s == -1) return Value();
  if (s == -2) return wrap(f.as<TensorObject>()->eager, true);
  const Tensor &t = vals[size_t(s)];
  // A scalar string comes back as Python bytes, as from TF's Session.
  if (t.dtype() == DType::String && t.rank() == 0) return Value(make<BytesObject>(t.data<std::string>()[0]));
  return wrap(t, true);
}

void addFeed(Interpreter &in, GraphScope &g, VariableRunContext &rc, const Value &key, const Value &value) {
  Value k = key;
  if (auto *s = key.as<StrObject>()) k = tensorByName(in, g, s->s);
  auto *t = k.as<TensorObject>();
  if (!t || !t->symbolic())
    raiseTf(in, "TypeError", fmt::format("Cannot interpret feed_dict key as Tensor: Can not convert a {} into a Tensor.",
                                         in.typeName(key)));
  const ir::Node *n = t->sym->definingNode();
  if (!n || n->kind() != OpKind::Placeholder)
    raiseTf(in, "NotImplementedError",
            fmt::format("feeding {}, a tensor that is not a placeholder, is not supported by tfs", t->tensorName()));
  std::string name = ir::attrString(n->attrs, "name", t->name);
  Tensor val = tensorFromPython(in, value, t->dtype(), true);
  if (!t->shape().isCompatibleWith(ir::Shape(val.shape())))
    raiseTf(in, "ValueError", fmt::format("Cannot feed value of shape {} for Tensor {}, which has shape {}",
                                          ir::Shape(val.shape()).tfString(), t->tensorName(), t->shape().tfString()));
  rc.feeds[name] = val;
}

const Signature &runSignature() {
  static const Signature sig("run(fetches, feed_dict=None, options=None, run_metadata=None)");
  return sig;
}

std::optional<Value> SessionObject::getAttr(Interpreter &in, const std::string &name) {
  Ref<SessionObject> self(this);
  if (name == "close")
    return in.native(name, [self](Interpreter &in, Args, const Kwargs &) {
      self->closed = true;
      auto &st = ctx(in).v1DefaultSessions;
      if (self->interactive && !st.empty() && st.back().obj() == self.get()) st.pop_back();
      if (!self->interactiveGraphScope.isNone()) {
        Value scope = self->interactiveGraphScope;
        self->interactiveGraphScope = Value();
        scope.obj()->exit(in, false);
      }
      return Value();
    });
  if (name == "graph") return Value(make<GraphObject>(self->graph ? self->graph : &defaultV1Graph(in)));
  if (name == "as_default")
    return in.native(name, [self](Interpreter &, Args, const Kwargs &) -> Value {
      auto s = make<DefaultSessionScope>();
      s->session = Value(self);
      return s;
    });
  if (name == "run")
    return in.native(name, [self](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      Bound b = runSignature().bind(in, a, kw);
      if (self->closed) raiseTf(in, "RuntimeError", "Attempted to use a closed Session.");
      return sessionRun(in, self->graph, b["fetches"], b["feed_dict"]);
    });
  return std::nullopt;
}

Value makeSession(Interpreter &in, const Bound &b, bool interactive) {
  if (!b.isNone("target") && !in.str(b["target"]).empty())
    raiseTf(in, "NotImplementedError", "Session(target=...) (a remote TensorFlow server) is not supported by tfs");
  auto s = make<SessionObject>();
  s->interactive = interactive;
  if (auto *go = b["graph"].as<GraphObject>()) {
    s->graph = go->graph;
    s->keep = go->keep;
  }
  if (interactive) ctx(in).v1DefaultSessions.push_back(Value(s));
  if (interactive && b["graph"].as<GraphObject>()) {
    s->interactiveGraphScope = in.call(in.getAttr(b["graph"], "as_default"), std::vector<Value>{});
    s->interactiveGraphScope.obj()->enter(in);
  }
  return Value(s);
}

}  // namespace

GraphScope *sessionGraph(const Value &session) {
  auto *s = session.as<SessionObject>();
  return s ? s->graph : nullptr;
}

Value sessionRun(Interpreter &in, GraphScope *graph, const Value &fetches, const Value &feedDict) {
  GraphScope *g = graph ? graph : currentGraph(in);
  if (!g) raiseTf(in, "RuntimeError", "The Session graph is empty. Add operations to the graph before calling run().");
  FetchList fl;
  std::vector<int> slots;
  collectFetch(in, *g, fetches, fl, slots);
  VariableRunContext rc(in);
  for (const auto &[name, value] : g->placeholderDefaults) rc.feeds[name] = value;
  if (auto *fd = feedDict.as<DictObject>()) {
    for (auto &[k, v] : fd->items()) addFeed(in, *g, rc, k, v);
  } else if (!feedDict.isNone()) {
    raiseTf(in, "TypeError", "The value of a feed_dict must be a dict");
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
  return rebuildFetch(in, fetches, vals, slots, pos);
}

Value defaultSession(Interpreter &in, const Value &session) {
  if (!session.isNone()) return session;
  auto &st = ctx(in).v1DefaultSessions;
  if (st.empty())
    raiseTf(in, "ValueError", "Cannot evaluate tensor using `eval()`: No default session is registered. Use `with "
                              "sess.as_default()` or pass an explicit session to `eval(session=sess)`");
  return st.back();
}

void installSessions(Interpreter &in, ModuleObject &v1) {
  v1.scope->vars["Session"] = nativeWithSignature(in, "Session(target='', graph=None, config=None)",
                                                  [](Interpreter &in, const Bound &b) { return makeSession(in, b, false); });
  v1.scope->vars["InteractiveSession"] = nativeWithSignature(
      in, "InteractiveSession(target='', graph=None, config=None)",
      [](Interpreter &in, const Bound &b) { return makeSession(in, b, true); });
  v1.scope->vars["get_default_session"] = nativeWithSignature(in, "get_default_session()", [](Interpreter &in, const Bound &) {
    auto &st = ctx(in).v1DefaultSessions;
    return st.empty() ? Value() : st.back();
  });
}

Value tensorByNameIn(Interpreter &in, GraphScope &g, const std::string &name) { return tensorByName(in, g, name); }

}  // namespace tfs::runtime::tf
