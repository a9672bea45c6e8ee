// The native half of tf.compat.v1.saved_model's builder and loader
// (_tf_saved_model_v1.tfs), over tfs's SavedModel directories
// (saved_model.cpp), so that a model saved by either API loads with both:
//
// * snapshot: each signature of a TF 1 graph becomes a function of its own,
//   the signature's placeholders its parameters (named by the input keys),
//   its outputs returned in key order, pruned to the nodes they need (as
//   Session.run runs them), with the values its variables have in the
//   session at that moment (TF's builder saves the variables then too).
// * write: the directory tf.saved_model.load reads (KEY.ir, KEY.outputs,
//   variables.txt, signatures.txt) plus v1_signatures.txt (method names and
//   the TF 1 tensor names of inputs and outputs) and tags.txt.
// * load: tf.saved_model.load's signature functions inlined into a
//   session's graph (after _tf_saved_model_v1.tfs checked the tags): a
//   placeholder per input (named as TF names it), the
//   function's nodes, variables holding the restored values; the tensors'
//   names are those of the SignatureDef it returns.
#include "ir/text.h"
#include "ir/verifier.h"
#include "lib/file_util.h"
#include "lib/tf/compat_v1/compat_v1.h"
#include "lib/tf/saved_model/saved_host_callbacks.h"
#include "lib/tf/saved_model/saved_model_files.h"
#include "runtime/graph/dense_convert.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>
#include <unordered_map>

namespace tfs::runtime::tf {

namespace fs = std::filesystem;

namespace {

using ValueMap = std::unordered_map<const ir::Value *, ir::Value *>;

struct V1Signature {
  std::string key, method;
  std::vector<std::string> inputKeys, inputNames, outputKeys, outputNames;  // names: "x:0"
  std::shared_ptr<ir::Module> module;
};

// What add_meta_graph_and_variables took from the session: the signatures'
// graphs and their variables' values at that time.
struct V1MetaGraph final : Object {
  std::vector<V1Signature> signatures;
  std::map<std::string, Tensor> variables;  // capture name -> value
  const char *typeName() const override { return "_V1MetaGraphSnapshot"; }
};

GraphScope &sessionGraphOf(Interpreter &in, const Value &session) {
  std::string type = session.obj() ? session.obj()->typeName() : "";
  if (type != "Session" && type != "InteractiveSession")
    raiseTf(in, "TypeError", fmt::format("sess must be a tf.compat.v1.Session, got {}", in.typeName(session)));
  if (GraphScope *g = sessionGraph(session)) return *g;
  if (GraphScope *g = currentGraph(in)) return *g;
  return defaultV1Graph(in);
}

bool isIdentifier(const std::string &s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// The top-level node of `body` whose work `v` needs, through nested regions.
void collectOperands(const ir::Node &n, std::vector<const ir::Value *> &out) {
  for (const ir::Value *v : n.operands()) out.push_back(v);
  for (const auto &r : n.regions())
    for (const auto &inner : r->nodes()) collectOperands(*inner, out);
}

void collectVariables(const ir::Node &n, std::set<std::string> &out) {
  if (auto it = n.attrs.find(ir::kVarAttr); it != n.attrs.end()) out.insert(ir::attrString(n.attrs, ir::kVarAttr, ""));
  for (const auto &r : n.regions())
    for (const auto &inner : r->nodes()) collectVariables(*inner, out);
}

using NamedTensors = std::vector<std::pair<std::string, TensorObject *>>;

NamedTensors namedTensors(Interpreter &in, GraphScope &g, const Value &pairs, const char *what) {
  NamedTensors out;
  for (const Value &p : in.toList(pairs)) {
    std::vector<Value> kv = in.toList(p);
    auto *t = kv[1].as<TensorObject>();
    if (!t || !t->symbolic() || t->scope != &g)
      raiseTf(in, "ValueError", fmt::format("The {} '{}' of a signature must be a tensor of the session's graph, got {}",
                                            what, in.str(kv[0]), in.repr(kv[1])));
    out.emplace_back(in.str(kv[0]), t);
  }
  std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
  return out;
}

// The graph of one signature of `g` (see the file comment).
std::shared_ptr<ir::Module> signatureModule(Interpreter &in, GraphScope &g, const std::string &key,
                                            const NamedTensors &inputs, const NamedTensors &outputs,
                                            V1MetaGraph &meta) {
  const ir::Function &src = g.function();
  if (!src.params().empty())
    raiseTf(in, "NotImplementedError", "saving a signature of a function's graph as a TF 1 SavedModel is not "
                                       "supported by tfs (only tf.compat.v1 graphs)");
  std::unique_ptr<ir::Function> fn = src.clone(key);
  ValueMap map;
  auto b = fn->body().nodes().begin();
  for (auto a = src.body().nodes().begin(); a != src.body().nodes().end(); ++a, ++b)
    for (unsigned i = 0; i < (*a)->numResults(); ++i) map[(*a)->result(i)] = (*b)->result(i);
  for (size_t i = 0; i < src.captures().size(); ++i)
    if (src.captures()[i].value) map[src.captures()[i].value] = fn->captures()[i].value;
  if (ir::Node *t = fn->body().terminator()) fn->body().take(t).reset();
  // Inputs: the placeholders become parameters.
  ValueMap fed;
  for (const auto &[name, t] : inputs) {
    ir::Value *v = map.count(t->sym) ? map[t->sym] : nullptr;
    const ir::Node *n = v ? v->definingNode() : nullptr;
    if (!n || n->kind() != ir::OpKind::Placeholder)
      raiseTf(in, "NotImplementedError", fmt::format("a signature input that is not a tf.compat.v1.placeholder ('{}' "
                                                     "is {}) is not supported by tfs",
                                                     name, t->tensorName()));
    if (!isIdentifier(name))
      raiseTf(in, "NotImplementedError",
              fmt::format("the signature input key '{}' is not supported by tfs: tfs names a signature's inputs by "
                          "Python identifiers", name));
    if (fed.count(v)) raiseTf(in, "ValueError", fmt::format("The placeholder {} is fed twice", t->tensorName()));
    ir::Value *p = fn->addParam(v->type, name);
    fn->replaceAllUsesWith(v, p);
    fed[v] = p;
  }
  std::vector<ir::Value *> results;
  for (const auto &[name, t] : outputs) {
    if (!t->controlDeps.empty())
      raiseTf(in, "NotImplementedError", fmt::format("the signature output '{}' runs assignments when fetched; saving "
                                                     "it is not supported by tfs", name));
    ir::Value *v = map.count(t->sym) ? map[t->sym] : nullptr;
    if (!v) raiseTf(in, "ValueError", fmt::format("The output '{}' is not a tensor of the session's graph", name));
    if (auto it = fed.find(v); it != fed.end()) v = it->second;
    results.push_back(v);
    fn->resultTypes.push_back(v->type);
  }
  ir::Builder(fn->body()).ret(results);
  // Prune to what the outputs need (Session.run's rule), last node first.
  std::unordered_map<const ir::Value *, const ir::Node *> producer;
  for (const auto &n : fn->body().nodes())
    for (const ir::Value *r : n->results()) producer[r] = n.get();
  std::set<const ir::Node *> needed;
  std::vector<const ir::Node *> work{fn->body().terminator()};
  while (!work.empty()) {
    const ir::Node *n = work.back();
    work.pop_back();
    if (!needed.insert(n).second) continue;
    std::vector<const ir::Value *> uses;
    collectOperands(*n, uses);
    for (const ir::Value *v : uses)
      if (auto it = producer.find(v); it != producer.end()) work.push_back(it->second);
  }
  std::vector<std::unique_ptr<ir::Node>> pruned;
  std::vector<ir::Node *> order;
  for (auto &n : fn->body().nodes()) order.push_back(n.get());
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    if (!needed.count(*it)) pruned.push_back(fn->body().take(*it));
  std::set<std::string> usedVariables;
  std::set<const ir::Value *> usedValues;
  for (const auto &n : fn->body().nodes()) {
    collectVariables(*n, usedVariables);
    std::vector<const ir::Value *> uses;
    collectOperands(*n, uses);
    usedValues.insert(uses.begin(), uses.end());
    if (n->kind() == ir::OpKind::Placeholder) {
      std::string ph = ir::attrString(n->attrs, "name", "");
      if (!g.placeholderDefaults.count(ph))
        raiseTf(in, "InvalidArgumentError",
                fmt::format("The signature '{}' needs the placeholder '{}', which is not among its inputs: tfs "
                            "saves a signature's graph as a function of its inputs",
                            key, ph));
    }
  }
  // Placeholders with defaults and captured tensors become constants.
  ir::Builder head(fn->body(), fn->body().begin());
  for (auto &n : fn->body().nodes()) {
    if (n->kind() != ir::OpKind::Placeholder) continue;
    const Tensor &dflt = g.placeholderDefaults.at(ir::attrString(n->attrs, "name", ""));
    fn->replaceAllUsesWith(n->result(0), head.constant(denseFromTensor(dflt)));
  }
  std::vector<ir::Capture> kept;
  for (ir::Capture &c : fn->captures()) {
    if (c.kind == ir::Capture::Kind::Tensor) {
      if (usedValues.count(c.value))
        fn->replaceAllUsesWith(c.value, head.constant(denseFromTensor(*std::static_pointer_cast<Tensor>(c.handle))));
      continue;
    }
    if (!usedVariables.count(c.name)) continue;
    auto value = std::static_pointer_cast<Tensor>(c.handle);
    if (!value || !value->valid()) {
      Object *var = g.variableOfCapture(c.name);
      auto *vo = var ? dynamic_cast<VariableObject *>(var) : nullptr;
      raiseTf(in, "FailedPreconditionError",
              fmt::format("Attempting to use uninitialized value {}",
                          vo ? vo->name.substr(0, vo->name.find(':')) : c.name));
    }
    meta.variables[c.name] = value->copy();
    kept.push_back(c);
  }
  fn->captures() = kept;
  // Placeholders made constant are dead now.
  for (auto it = fn->body().nodes().begin(); it != fn->body().nodes().end();) {
    ir::Node *n = it->get();
    ++it;
    if (n->kind() == ir::OpKind::Placeholder) pruned.push_back(fn->body().take(n));
  }
  auto module = std::make_shared<ir::Module>();
  module->add(std::move(fn));
  // Functions the graph calls (tf.function calls inside the graph).
  for (const auto &f : g.module().functions())
    if (f.get() != &src && !module->lookup(f->name())) module->add(f->clone(f->name()));
  if (auto err = ir::verifyModule(*module))
    raiseTf(in, "NotImplementedError",
            fmt::format("saving the signature '{}' is not supported by tfs: {}", key, err->message));
  return module;
}

Value snapshot(Interpreter &in, const Bound &b) {
  GraphScope &g = sessionGraphOf(in, b["sess"]);
  auto meta = make<V1MetaGraph>();
  for (const Value &item : in.toList(b["signatures"])) {
    std::vector<Value> f = in.toList(item);  // (key, method, inputs, outputs)
    V1Signature sig;
    sig.key = in.str(f[0]);
    sig.method = in.str(f[1]);
    if (!isIdentifier(sig.key))
      raiseTf(in, "NotImplementedError",
              fmt::format("the signature key '{}' is not supported by tfs: tfs stores a signature in a file named "
                          "after its key, a Python identifier", sig.key));
    NamedTensors inputs = namedTensors(in, g, f[2], "input"), outputs = namedTensors(in, g, f[3], "output");
    for (auto &[k, t] : inputs) {
      sig.inputKeys.push_back(k);
      sig.inputNames.push_back(t->tensorName());
    }
    for (auto &[k, t] : outputs) {
      sig.outputKeys.push_back(k);
      sig.outputNames.push_back(t->tensorName());
    }
    sig.module = signatureModule(in, g, sig.key, inputs, outputs, *meta);
    meta->signatures.push_back(std::move(sig));
  }
  return Value(meta);
}

bool plainField(const std::string &s) { return s.find_first_of("\t\n") == std::string::npos; }

Value writeModel(Interpreter &in, const Bound &b) {
  auto *meta = b["snapshot"].as<V1MetaGraph>();
  if (!meta) raiseTf(in, "TypeError", "write() expects a snapshot");
  std::string dir = in.str(b["export_dir"]);
  if (in.options().readOnlyFiles)
    in.raise("OSError", fmt::format("cannot write SavedModel to {}: file writes are disabled", dir));
  StagedModelDirectory staged(in, dir);
  const fs::path &tmp = staged.tmp();
  HostCallbackSaver callbacks;
  std::string signatureList, records, vars, tags;
  for (const V1Signature &s : meta->signatures) {
    callbacks.scan(in, *s.module->functions()[0]);
    writeFileSynced(in, tmp / (s.key + ".ir"), ir::printModule(*s.module));
    std::string keys;
    for (const auto &k : s.outputKeys) {
      if (!plainField(k)) raiseTf(in, "NotImplementedError", fmt::format("the output key {} is not supported by tfs", k));
      keys += k + "\n";
    }
    writeFileSynced(in, tmp / (s.key + ".outputs"), keys);
    signatureList += s.key + "\n";
    if (!plainField(s.method)) raiseTf(in, "NotImplementedError", "a method name with tabs or newlines is not supported by tfs");
    records += fmt::format("signature\t{}\t{}\n", s.key, s.method);
    for (size_t i = 0; i < s.inputKeys.size(); ++i)
      records += fmt::format("input\t{}\t{}\t{}\n", s.key, s.inputKeys[i], s.inputNames[i]);
    for (size_t i = 0; i < s.outputKeys.size(); ++i)
      records += fmt::format("output\t{}\t{}\t{}\n", s.key, s.outputKeys[i], s.outputNames[i]);
  }
  for (const auto &[name, t] : meta->variables) {
    if (t.dtype() == DType::String)
      raiseTf(in, "NotImplementedError", fmt::format("saving the string variable {} is not supported by tfs", name));
    vars += tensorLine(name, t);
  }
  for (const Value &t : in.toList(b["tags"])) {
    std::string tag = in.str(t);
    if (!plainField(tag)) raiseTf(in, "NotImplementedError", "a tag with tabs or newlines is not supported by tfs");
    tags += tag + "\n";
  }
  writeFileSynced(in, tmp / "variables.txt", vars);
  writeFileSynced(in, tmp / "signatures.txt", signatureList);
  writeFileSynced(in, tmp / "v1_signatures.txt", records);
  writeFileSynced(in, tmp / "tags.txt", tags);
  callbacks.write(in, tmp);
  staged.publish(in);
  return Value();
}

// --- loading into a session's graph ------------------------------------------------

std::unique_ptr<ir::Node> cloneNode(Interpreter &in, const ir::Node &n, ValueMap &map,
                                    const std::map<std::string, std::string> &vars) {
  std::vector<ir::Value *> ops;
  for (ir::Value *o : n.operands()) {
    auto it = map.find(o);
    if (it == map.end()) raiseTf(in, "ValueError", "corrupted SavedModel graph: a value used before its definition");
    ops.push_back(it->second);
  }
  ir::Attrs attrs = n.attrs;
  if (attrs.count(ir::kVarAttr)) {
    auto it = vars.find(ir::attrString(attrs, ir::kVarAttr, ""));
    if (it == vars.end()) raiseTf(in, "ValueError", "corrupted SavedModel graph: a variable op names no capture");
    attrs[ir::kVarAttr] = it->second;
  }
  std::vector<ir::TensorType> types = n.resultTypes();
  auto copy = ir::Node::create(n.kind(), ops, std::move(attrs), types);
  copy->constValue = n.constValue;
  copy->callee = n.callee;
  for (unsigned i = 0; i < n.numResults(); ++i) map[n.result(i)] = copy->result(i);
  for (const auto &r : n.regions()) {
    ir::Region &dst = copy->addRegion();
    for (ir::Value *a : r->args()) map[a] = dst.addArg(a->type, a->name);
    for (const auto &inner : r->nodes()) dst.append(cloneNode(in, *inner, map, vars));
  }
  return copy;
}

Value shapeValue(Interpreter &in, const ir::Shape &s) {
  if (!s.ranked) return Value();
  std::vector<Value> dims;
  for (int64_t d : s.dims) dims.push_back(d < 0 ? Value() : Value::integer(d));
  return in.list(dims);
}

// The TF 1 records of a model the builder wrote (none for a TF 2 model).
struct V1Records {
  std::map<std::string, std::string> methods;
  std::map<std::string, std::map<std::string, std::string>> inputNames, outputNames;  // key -> tensor key -> name
};

V1Records readRecords(Interpreter &in, const fs::path &file) {
  V1Records r;
  std::ifstream f(file);
  std::string line;
  while (std::getline(f, line)) {
    std::vector<std::string> x = splitTabs(line);
    if (x.size() == 3 && x[0] == "signature") r.methods[x[1]] = x[2];
    else if (x.size() == 4 && x[0] == "input") r.inputNames[x[1]][x[2]] = x[3];
    else if (x.size() == 4 && x[0] == "output") r.outputNames[x[1]][x[2]] = x[3];
    else if (!line.empty()) raiseTf(in, "ValueError", fmt::format("corrupted SavedModel file {}", file.string()));
  }
  return r;
}

// `base` ("add" of "add:0") made unique in `g`, the same for one saved node.
std::string tensorNameIn(GraphScope &g, const std::string &saved, std::map<std::string, std::string> &bases) {
  size_t colon = saved.rfind(':');
  std::string base = saved.substr(0, colon), index = colon == std::string::npos ? "0" : saved.substr(colon + 1);
  auto it = bases.find(base);
  if (it == bases.end()) it = bases.emplace(base, g.uniqueName(base)).first;
  return index == "0" ? it->second : it->second + ":" + index;
}

Value tensorInfo(Interpreter &in, const std::string &key, const std::string &name, const ir::TensorType &t) {
  return in.tuple({in.str(key), in.str(name.find(':') == std::string::npos ? name + ":0" : name),
                   dtypeValue(t.dtype), shapeValue(in, t.shape)});
}

// Inlines the signature function `sg` into `g`; returns its SignatureDef
// fields (key, method, inputs, outputs) for _tf_saved_model_v1.tfs.
Value inlineSignature(Interpreter &in, GraphScope &g, const std::string &key, const LoadedSignatureGraph &sg,
                      const V1Records &rec) {
  const ir::Function &fn = *sg.fn;
  if (sg.module->functions().size() > 1)
    raiseTf(in, "NotImplementedError",
            fmt::format("loading the signature '{}' into a tf.compat.v1 Session is not supported by tfs: its graph "
                        "calls other functions",
                        key));
  ValueMap map;
  std::map<std::string, std::string> vars, bases;
  for (const ir::Capture &c : fn.captures()) {
    auto value = std::static_pointer_cast<Tensor>(c.handle);
    if (!value) raiseTf(in, "ValueError", fmt::format("corrupted SavedModel: capture '{}' has no value", c.name));
    if (c.kind == ir::Capture::Kind::Tensor) {
      map[c.value] = g.builder().constant(denseFromTensor(*value));
      continue;
    }
    auto v = make<VariableObject>();
    v->name = g.uniqueName(c.name) + ":0";
    v->dtype = c.type.dtype;
    v->shape = c.type.shape;
    v->value = std::make_shared<Tensor>(value->copy());
    v->graphMode = true;
    ctx(in).globalVariables.push_back(v);
    vars[c.name] = v1VarCapture(in, g, *v);
  }
  std::vector<Value> inputs, outputs;
  const auto recIn = rec.inputNames.count(key) ? rec.inputNames.at(key) : std::map<std::string, std::string>{};
  const auto recOut = rec.outputNames.count(key) ? rec.outputNames.at(key) : std::map<std::string, std::string>{};
  for (ir::Value *p : fn.params()) {
    std::string inputKey = p->name;
    auto saved = recIn.find(inputKey);
    // A TF 2 signature's inputs are placeholders named "<key>_<input>".
    std::string name = tensorNameIn(g, saved != recIn.end() ? saved->second : key + "_" + inputKey, bases);
    ir::Attrs attrs{{"dtype", p->type.dtype}, {"name", name}};
    if (p->type.shape.ranked) attrs["shape"] = p->type.shape.dims;
    ir::Node *n = g.builder().createNode(ir::OpKind::Placeholder, {}, attrs);
    g.setName(n->result(0), name);
    map[p] = n->result(0);
    inputs.push_back(tensorInfo(in, inputKey, name, p->type));
  }
  const ir::Node *ret = nullptr;
  for (const auto &n : fn.body().nodes()) {
    if (n->kind() == ir::OpKind::Return) {
      ret = n.get();
      break;
    }
    g.builder().region().append(cloneNode(in, *n, map, vars));
  }
  if (!ret) raiseTf(in, "ValueError", fmt::format("corrupted SavedModel: the signature '{}' returns nothing", key));
  // A TF 2 signature's outputs are those of one call node.
  std::string callName = recOut.empty() ? g.uniqueName("StatefulPartitionedCall") : "";
  std::map<const ir::Value *, std::string> named;
  for (unsigned i = 0; i < ret->numOperands(); ++i) {
    std::string outKey = i < sg.outputKeys.size() ? sg.outputKeys[i] : fmt::format("output_{}", i);
    ir::Value *v = map.at(ret->operand(i));
    std::string name;
    if (auto it = named.find(v); it != named.end()) {
      name = it->second;
    } else if (v->definingNode() && v->definingNode()->kind() == ir::OpKind::Placeholder) {
      name = g.nameOf(v);
    } else if (auto saved = recOut.find(outKey); saved != recOut.end()) {
      name = tensorNameIn(g, saved->second, bases);
    } else {
      name = i == 0 ? callName : fmt::format("{}:{}", callName, i);
    }
    g.setName(v, name);
    named[v] = name;
    outputs.push_back(tensorInfo(in, outKey, name, ret->operand(i)->type));
  }
  std::string method = rec.methods.count(key) ? rec.methods.at(key) : "tensorflow/serving/predict";
  return in.tuple({in.str(key), in.str(method), in.list(inputs), in.list(outputs)});
}

Value loadModel(Interpreter &in, const Bound &b) {
  GraphScope &g = sessionGraphOf(in, b["sess"]);
  fs::path root(in.str(b["export_dir"]));
  Value module = in.getAttr(in.importModule("tensorflow"), "saved_model");
  Value loaded = in.call(in.getAttr(module, "load"), std::vector<Value>{in.str(root.string())});
  V1Records rec = readRecords(in, root / "v1_signatures.txt");
  std::vector<Value> out;
  Value sigs = in.getAttr(loaded, "signatures");
  auto *d = sigs.as<DictObject>();
  if (!d) return in.list({});
  for (auto &[k, v] : d->items()) {
    auto sg = loadedSignatureGraph(v);
    if (!sg) continue;
    out.push_back(inlineSignature(in, g, in.str(k), *sg, rec));
  }
  return in.list(out);
}

Value makeNative(Interpreter &in) {
  auto m = make<ModuleObject>("_tf_saved_model_v1_native");
  m->scope->vars["snapshot"] = nativeWithSignature(in, "snapshot(sess, signatures)", snapshot);
  m->scope->vars["write"] = nativeWithSignature(in, "write(snapshot, export_dir, tags)", writeModel);
  m->scope->vars["load"] = nativeWithSignature(in, "load(sess, export_dir)", loadModel);
  return m;
}

}  // namespace

void registerSavedModelV1Module() { Interpreter::registerNativeModule("_tf_saved_model_v1_native", makeNative); }

}  // namespace tfs::runtime::tf
