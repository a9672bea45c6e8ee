// A SavedModel's object graph (saved_object_graph.h): what TF's
// SavedObjectGraph holds for a tf.Module -- sub-objects, variables, and the
// concrete functions of each tf.function attribute -- written and restored.
#include "lib/tf/saved_model/saved_object_graph.h"

#include "ir/text.h"
#include "ir/verifier.h"
#include "lib/file_util.h"
#include "lib/tf/saved_model/saved_model_files.h"
#include "lib/tf/train/tensor_bundle.h"
#include "runtime/tf/concrete_function.h"
#include "runtime/tf/executable.h"
#include "runtime/tf/function_key.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <fmt/format.h>
#include <map>
#include <sstream>

namespace tfs::runtime::tf {

namespace fs = std::filesystem;
namespace bundle = lib::bundle;

namespace {

constexpr const char *kHeader = "tfs-saved-objects 1";

bool plainField(const std::string &s) { return !s.empty() && s.find_first_of("\t\n") == std::string::npos; }

// --- output structures: the trace's Python structure of its results ----------------
// "I<slot>;" a tensor, "N" None, "T<n>:" / "L<n>:" a tuple / list of n
// items, "D<n>:" a dict of n (<key length>:<key> item) pairs, "C<n>:" a
// composite: n characters of its portable type (_tf_saved_model.tfs
// portable_composite), then the structure of its components.

bool encodeStructure(Interpreter &in, const Value &s, std::string &out) {
  if (s.isInt()) {
    out += fmt::format("I{};", s.asInt());
    return true;
  }
  auto *t = s.as<TupleObject>();
  if (!t || t->items.empty()) return false;
  std::string kind = in.str(t->items[0]);
  if (kind == "none") {
    out += "N";
    return true;
  }
  if (kind == "composite") {
    // ("composite", class, components' structure, type key, spec)
    std::string type;
    try {
      type = in.str(callSavedModelHelper(in, "portable_composite", {t->items[1], t->items[3]}));
    } catch (PyException &) {
      return false;  // a type tfs cannot name in a file: the trace is not saved
    }
    if (type.find_first_of("\t\n") != std::string::npos) return false;
    out += fmt::format("C{}:{}", type.size(), type);
    return encodeStructure(in, t->items[2], out);
  }
  if (kind != "tuple" && kind != "list" && kind != "dict") return false;  // objects
  std::vector<Value> items = in.toList(t->items[1]);
  out += fmt::format("{}{}:", kind == "tuple" ? 'T' : kind == "list" ? 'L' : 'D', items.size());
  for (const Value &x : items) {
    if (kind != "dict") {
      if (!encodeStructure(in, x, out)) return false;
      continue;
    }
    auto *p = x.as<TupleObject>();
    auto *key = p ? p->items[0].as<StrObject>() : nullptr;
    if (!key || key->s.find_first_of("\t\n") != std::string::npos) return false;
    out += fmt::format("{}:{}", key->s.size(), key->s);
    if (!encodeStructure(in, p->items[1], out)) return false;
  }
  return true;
}

struct StructureReader {
  Interpreter &in;
  std::string_view s;
  size_t pos = 0;
  [[noreturn]] void fail() { in.raise("ValueError", "corrupted SavedModel: a malformed function output structure"); }
  size_t number(char end) {
    size_t start = pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') ++pos;
    if (pos == start || pos >= s.size() || s[pos] != end || pos - start > 9) fail();
    return size_t(std::stoul(std::string(s.substr(start, pos++ - start))));
  }
  int depth = 0;
  Value read(size_t outputs) {
    // A hostile file must not recurse the reader off its stack.
    if (pos >= s.size() || ++depth > 64) fail();
    struct Leave {
      int &d;
      ~Leave() { --d; }
    } leave{depth};
    char c = s[pos++];
    if (c == 'N') return in.tuple({in.str("none")});
    if (c == 'I') {
      size_t slot = number(';');
      if (slot >= outputs) fail();
      return Value::integer(int64_t(slot));
    }
    if (c == 'C') {
      size_t len = number(':');
      if (len > s.size() - pos) fail();
      Value type = in.str(std::string(s.substr(pos, len)));
      pos += len;
      std::vector<Value> restored = in.toList(callSavedModelHelper(in, "restore_composite", {type}));
      Value parts = read(outputs);
      return in.tuple({in.str("composite"), restored.at(0), parts, restored.at(1), Value()});
    }
    if (c != 'T' && c != 'L' && c != 'D') fail();
    size_t n = number(':');
    std::vector<Value> items;
    for (size_t i = 0; i < n; ++i) {
      if (c != 'D') {
        items.push_back(read(outputs));
        continue;
      }
      size_t len = number(':');
      if (len > s.size() - pos) fail();
      Value key = in.str(std::string(s.substr(pos, len)));
      pos += len;
      items.push_back(in.tuple({key, read(outputs)}));
    }
    return in.tuple({in.str(c == 'T' ? "tuple" : c == 'L' ? "list" : "dict"), in.tuple(items)});
  }
};

// A composite argument of a saved trace: how many of the trace's
// parameters its components are, and what a call's composite must match
// (its class and type key without static shapes; _tf_saved_model.tfs).
struct CompositeArg {
  size_t components = 0;
  std::string match;
};

// A trace tf.saved_model can restore: arguments by position that are
// tensors, composites (SparseTensor, RaggedTensor, ExtensionType: their
// components), Python literals (matched by value, as TF's restored
// functions do) or lists/tuples of those; objects and variables are
// matched by identity and keyword traces by name, which a restored
// function cannot. `composites` gets the composite arguments' records.
bool saveableTrace(Interpreter &in, ConcreteFunction &cf, std::vector<CompositeArg> &composites) {
  size_t tensors = 0, nComposite = 0;
  for (const ArgSpec &a : cf.argSpecs) {
    if (a.kind == ArgSpec::Kind::Object || a.kind == ArgSpec::Kind::Variable || a.keyword || !plainField(a.name) ||
        a.text.find_first_of("\t\n") != std::string::npos)
      return false;
    tensors += a.kind == ArgSpec::Kind::Tensor;
    nComposite += a.kind == ArgSpec::Kind::Composite;
  }
  composites.clear();
  if (nComposite) {
    std::vector<Value> records;
    try {
      Value sig = in.getAttr(Value(Ref<Object>(&cf)), "structured_input_signature");
      records = in.toList(callSavedModelHelper(in, "composite_args", {sig}));
    } catch (PyException &) {
      return false;
    }
    if (records.size() != nComposite) return false;
    for (const Value &r : records) {
      std::vector<Value> f = in.toList(r);
      CompositeArg c{size_t(in.toInt(f[0])), in.str(f[1])};
      if (!plainField(c.match)) return false;
      tensors += c.components;
      composites.push_back(std::move(c));
    }
  }
  return tensors == cf.scope->function().params().size();
}

char kindCode(ArgSpec::Kind k) {
  return k == ArgSpec::Kind::Tensor      ? 'T'
         : k == ArgSpec::Kind::Python    ? 'P'
         : k == ArgSpec::Kind::Composite ? 'C'
                                         : 'S';
}

// The tf.function attributes of an object: methods of its class (and bases)
// and functions stored on the instance, by name.
std::vector<std::pair<std::string, Value>> functionAttributes(Interpreter &in, const Value &obj) {
  std::vector<std::pair<std::string, Value>> out;
  auto *inst = obj.as<InstanceObject>();
  if (!inst) return out;
  // Keras models keep their fit/evaluate/predict steps as tf.functions,
  // which Keras leaves out of a SavedModel.
  bool keras = in.getAttrOpt(obj, "_tfs_saved_model_functions").has_value();
  auto seen = [&](const std::string &k) {
    if (keras && (k == "train_function" || k == "test_function" || k == "predict_function")) return true;
    for (auto &[n, f] : out)
      if (n == k) return true;
    return false;
  };
  for (auto &[k, v] : inst->attrs)
    if (v.obj() && std::string_view(v.obj()->typeName()) == "Function" && !seen(k)) out.emplace_back(k, v);
  for (ClassObject *c : inst->klass->mro)
    for (auto &[k, v] : c->dict)
      if (v.obj() && std::string_view(v.obj()->typeName()) == "Function" && !seen(k))
        out.emplace_back(k, in.getAttr(obj, k));
  // Functions the object exports that are not its attributes (a Keras
  // model's call on composite inputs, as `__call__`).
  if (auto hook = in.getAttrOpt(obj, "_tfs_saved_model_object_functions")) {
    Value exported = in.call(*hook, {});
    if (auto *d = exported.as<DictObject>())
      for (auto &[k, v] : d->items())
        if (!seen(in.str(k))) out.emplace_back(in.str(k), v);
  }
  return out;
}

// --- restored functions -----------------------------------------------------------------

struct RestoredTrace {
  std::shared_ptr<ir::Module> module;
  ir::Function *fn = nullptr;
  std::shared_ptr<Executable> exec;
  Value structure;
  std::vector<std::string> argNames;           // the positional parameters
  std::vector<ArgSpec> specs;                  // what the trace was called with
  std::vector<CompositeArg> composites;        // its composite arguments, in order
  std::vector<Ref<VariableObject>> variables;  // kept alive with the trace
  RestoredGradientCache gradient;              // for calls under a GradientTape
};

void flattenTensors(Interpreter &in, const Value &v, std::vector<Tensor> &out) {
  if (auto *t = v.as<TensorObject>()) out.push_back(t->eager);
  else if (auto *var = v.as<VariableObject>()) out.push_back(*var->value);
  else if (v.as<ListObject>() || v.as<TupleObject>())
    for (const Value &x : in.toList(v)) flattenTensors(in, x, out);
  else if (isComposite(v))
    flattenTensors(in, compositeComponents(in, v), out);
}

// The composite values of a call's arguments, in describeArgs' order.
void compositeValues(Interpreter &in, const Value &v, std::vector<Value> &out) {
  if (v.as<ListObject>() || v.as<TupleObject>())
    for (const Value &x : in.toList(v)) compositeValues(in, x, out);
  else if (isComposite(v))
    out.push_back(v);
}

std::string specText(const ir::TensorType &t, const std::string &name) {
  return fmt::format("TensorSpec(shape={}, dtype=tf.{}, name='{}')", t.shape.tfString(), ir::dtypeName(t.dtype), name);
}

std::string positionalText(const std::vector<std::string> &items) {
  std::string s = fmt::format("Positional arguments ({} total):", items.size());
  for (const std::string &x : items) s += "\n    * " + x;
  return s;
}

// A tf.function of a restored object: runs the first saved trace whose
// parameters the arguments match (Python values converted to their dtype),
// TF's ValueError otherwise.
struct RestoredFunction final : Object {
  std::string name;
  std::deque<RestoredTrace> traces;  // stable addresses while loading
  const char *typeName() const override { return "RestoredFunction"; }

  // The call's arguments by position (keywords naming parameters), or
  // nothing when they do not fit `t`'s parameters.
  std::optional<std::vector<Value>> positional(const RestoredTrace &t, Args args, const Kwargs &kw) {
    size_t n = t.argNames.size();
    if (args.size() + kw.size() != n) return std::nullopt;
    std::vector<Value> given(args.begin(), args.end());
    given.resize(n);
    std::vector<bool> filled(n, false);
    for (size_t i = 0; i < args.size(); ++i) filled[i] = true;
    for (const auto &[k, v] : kw) {
      auto it = std::find(t.argNames.begin(), t.argNames.end(), k);
      size_t i = size_t(it - t.argNames.begin());
      if (it == t.argNames.end() || filled[i]) return std::nullopt;
      given[i] = v;
      filled[i] = true;
    }
    return given;
  }

  // The argument tensors for `t`, or nothing when the call does not match
  // it. Without conversion, Python values must equal the traced literals
  // and tensors fit the traced specs; with it (TF's second pass), Python
  // values convert to the dtype of a tensor parameter.
  std::optional<std::vector<Tensor>> bind(Interpreter &in, const RestoredTrace &t, Args args, const Kwargs &kw,
                                          bool convert) {
    std::optional<std::vector<Value>> given = positional(t, args, kw);
    if (!given) return std::nullopt;
    const auto &params = t.fn->params();
    std::vector<Tensor> out;
    if (!convert) {
      std::vector<ArgSpec> now = describeArgs(in, t.argNames, *given, {});
      if (now.size() != t.specs.size()) return std::nullopt;
      std::vector<Value> composites;
      for (const Value &v : *given) compositeValues(in, v, composites);
      if (composites.size() != t.composites.size()) return std::nullopt;
      size_t k = 0, c = 0;
      for (size_t i = 0; i < now.size(); ++i) {
        const ArgSpec &a = now[i], &b = t.specs[i];
        if (a.name != b.name || kindCode(a.kind) != kindCode(b.kind) || a.kind == ArgSpec::Kind::Object ||
            a.kind == ArgSpec::Kind::Variable)
          return std::nullopt;
        if (a.kind == ArgSpec::Kind::Composite) {
          // The same composite type; its components fit the parameters.
          const CompositeArg &want = t.composites[c];
          const Value &value = composites[c++];
          if (in.str(callSavedModelHelper(in, "composite_match", {value})) != want.match) return std::nullopt;
          std::vector<Tensor> parts;
          flattenTensors(in, value, parts);
          if (parts.size() != want.components || k + parts.size() > params.size()) return std::nullopt;
          for (const Tensor &p : parts) {
            const ir::TensorType &type = params[k++]->type;
            if (p.dtype() != type.dtype || !type.shape.isCompatibleWith(ir::Shape(p.shape()))) return std::nullopt;
          }
          continue;
        }
        if (a.kind != ArgSpec::Kind::Tensor) {
          if (a.text != b.text) return std::nullopt;
          continue;
        }
        const ir::TensorType &want = params[k++]->type;
        if (a.dtype != want.dtype || !want.shape.isCompatibleWith(a.shape)) return std::nullopt;
      }
      for (const Value &v : *given) flattenTensors(in, v, out);
      return out.size() == params.size() ? std::optional(out) : std::nullopt;
    }
    // Conversion applies to traces whose parameters are all top-level tensors.
    if (t.specs.size() != t.argNames.size() || params.size() != t.argNames.size() || !t.composites.empty())
      return std::nullopt;
    for (size_t i = 0; i < given->size(); ++i) {
      const ir::TensorType &want = params[i]->type;
      Ref<TensorObject> x;
      try {
        x = toTensor(in, (*given)[i], std::nullopt, want.dtype);
      } catch (PyException &) {
        return std::nullopt;
      }
      if (x->symbolic() || x->dtype() != want.dtype || !want.shape.isCompatibleWith(x->shape())) return std::nullopt;
      out.push_back(x->eager);
    }
    return out;
  }

  std::optional<Value> call(Interpreter &in, Args args, const Kwargs &kw) override {
    for (bool convert : {false, true})
      for (RestoredTrace &t : traces) {
        std::optional<std::vector<Tensor>> tensors = bind(in, t, args, kw, convert);
        if (!tensors) continue;
        if (!t.exec) t.exec = std::make_shared<Executable>(*t.fn);
        std::vector<Tensor> results = t.exec->run(in, *tensors);
        std::vector<Value> outs;
        for (auto &r : results) outs.push_back(wrap(std::move(r)));
        if (!ctx(in).tapes.empty() && t.composites.empty()) {
          // The tapes see the call as one op of the arguments' tensors.
          std::vector<int64_t> ids;
          std::vector<Value> given = *positional(t, args, kw);
          for (const Value &a : given) {
            auto *x = a.as<TensorObject>();
            ids.push_back(x ? x->id : make<TensorObject>()->id);
          }
          if (ids.size() == tensors->size())
            recordRestoredCallOnTapes(in, t.module, *t.fn, t.gradient, t.variables, *tensors, ids, outs);
        }
        return rebuildOutputs(in, t.structure, outs);
      }
    // TF's message (function_deserialization.restored_function_body):
    // the call's arguments, then each saved trace's input signature.
    std::vector<std::string> got;
    for (size_t i = 0; i < args.size(); ++i) {
      auto *x = args[i].as<TensorObject>();
      std::string pname = !traces.empty() && i < traces[0].argNames.size() ? traces[0].argNames[i] : fmt::format("args_{}", i);
      got.push_back(x ? fmt::format("<tf.Tensor '{}:0' shape={} dtype={}>", pname, x->shape().tfString(),
                                    ir::dtypeName(x->dtype()))
                      : in.repr(args[i]));
    }
    std::string kwText = "{";
    for (size_t i = 0; i < kw.size(); ++i) kwText += fmt::format("{}'{}': {}", i ? ", " : "", kw[i].first, in.repr(kw[i].second));
    kwText += "}";
    std::string msg = fmt::format("Could not find matching concrete function to call loaded from the SavedModel. "
                                  "Got:\n  {}\n  Keyword arguments: {}\n\n Expected these arguments to match one of "
                                  "the following {} option(s):\n\n",
                                  positionalText(got), kwText, traces.size());
    for (size_t k = 0; k < traces.size(); ++k) {
      std::vector<std::string> specs;
      size_t p = 0, c = 0;
      for (const ArgSpec &a : traces[k].specs) {
        size_t skip = a.kind == ArgSpec::Kind::Composite && c < traces[k].composites.size()
                          ? traces[k].composites[c++].components
                          : 0;
        if (a.name.find('[') != std::string::npos) {  // inside a structure
          p += a.kind == ArgSpec::Kind::Tensor ? 1 : skip;
          continue;
        }
        if (a.kind == ArgSpec::Kind::Tensor) specs.push_back(specText(traces[k].fn->param(unsigned(p++))->type, a.name));
        else specs.push_back(a.text);
        p += skip;
      }
      msg += fmt::format("{}Option {}:\n  {}\n  Keyword arguments: {{}}", k ? "\n\n" : "", k + 1, positionalText(specs));
    }
    in.raise("ValueError", msg);
  }
};

[[noreturn]] void corrupt(Interpreter &in, const fs::path &file, const std::string &what) {
  in.raise("ValueError", fmt::format("corrupted SavedModel {}: {}", file.string(), what));
}

size_t indexField(Interpreter &in, const fs::path &file, const std::string &s, size_t limit) {
  char *end = nullptr;
  unsigned long v = std::strtoul(s.c_str(), &end, 10);
  if (s.empty() || *end || v >= limit) corrupt(in, file, "a record names an unknown node");
  return size_t(v);
}

}  // namespace

// The fields of a tab-separated record line.
std::vector<std::string> splitTabs(const std::string &line) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= line.size(); ++i)
    if (i == line.size() || line[i] == '\t') {
      out.push_back(line.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

Value savedModelHelper(Interpreter &in, const char *name) {
  frontend::SourceSpan span = in.currentSpan();
  Value f = in.getAttr(in.importModule("_tf_saved_model"), name);
  in.restoreSpan(span);
  return f;
}

Value callSavedModelHelper(Interpreter &in, const char *name, std::vector<Value> args) {
  frontend::SourceSpan span = in.currentSpan();
  Value r = in.call(savedModelHelper(in, name), args);
  in.restoreSpan(span);
  return r;
}

void saveObjectGraph(Interpreter &in, const Value &root, const fs::path &dir, HostCallbackSaver &callbacks) {
  std::vector<Value> graph = in.toList(callSavedModelHelper(in, "object_graph", {root}));
  std::vector<Value> nodes = in.toList(graph[0]), kinds = in.toList(graph[1]);
  std::string text = std::string(kHeader) + "\n";
  for (size_t i = 0; i < nodes.size(); ++i) text += fmt::format("node\t{}\t{}\n", i, in.str(kinds[i]));
  for (const Value &e : in.toList(graph[2])) {
    std::vector<Value> f = in.toList(e);
    std::string name = in.str(f[1]);
    if (plainField(name)) text += fmt::format("edge\t{}\t{}\t{}\n", in.toInt(f[0]), name, in.toInt(f[2]));
  }
  // Variables by identity, keyed by the first path reaching them (TF's
  // checkpoint keys); ones only functions capture get "captured/N".
  std::map<const VariableObject *, std::string> keys;
  std::vector<bundle::BundleTensor> values;
  auto keyFor = [&](VariableObject &v, const std::string &path) -> std::string {
    auto it = keys.find(&v);
    if (it != keys.end()) return it->second;
    std::string key = path + "/.ATTRIBUTES/VARIABLE_VALUE";
    keys[&v] = key;
    if (!v.value || !v.value->valid())
      raiseTf(in, "FailedPreconditionError", fmt::format("Attempting to save uninitialized variable {}", v.name));
    const Tensor &t = *v.value;
    bundle::BundleTensor b;
    b.key = key;
    b.dtype = t.dtype();
    b.dims = t.shape();
    if (t.dtype() == DType::String) b.strings.assign(t.data<std::string>(), t.data<std::string>() + t.numElements());
    else b.bytes.assign(static_cast<const char *>(t.rawData()), size_t(t.numElements()) * ir::dtypeSize(t.dtype()));
    values.push_back(std::move(b));
    std::string name = v.name;
    for (char &c : name)
      if (c == '\t' || c == '\n') c = ' ';
    text += fmt::format("varinfo\t{}\t{}\t{}\n", key, v.trainable ? 1 : 0, name);
    return key;
  };
  for (const Value &e : in.toList(graph[3])) {
    std::vector<Value> f = in.toList(e);
    std::string name = in.str(f[1]);
    std::string key = keyFor(*f[2].as<VariableObject>(), in.str(f[3]));
    if (plainField(name)) text += fmt::format("variable\t{}\t{}\t{}\n", in.toInt(f[0]), name, key);
  }
  std::error_code ec;
  fs::create_directories(dir / "functions", ec);
  fs::create_directories(dir / "variables", ec);
  if (ec) in.raise("OSError", fmt::format("cannot create {}: {}", (dir / "variables").string(), ec.message()));
  size_t files = 0, captured = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    for (auto &[name, fn] : functionAttributes(in, nodes[i])) {
      if (!plainField(name)) continue;
      // A signature that cannot be traced is left out, as saved_model.cpp
      // leaves it out of the signatures.
      std::vector<Ref<ConcreteFunction>> traces;
      try {
        traces = savedTraces(in, fn);
      } catch (PyException &) {
        continue;
      }
      // A function all of whose traces take tf.Variable arguments or
      // composites of a type tfs cannot name in a file (which tfs cannot
      // restore) is recorded as unsaved: the loaded object's attribute then
      // says so instead of being missing.
      size_t savedBefore = files;
      bool composite = false;
      for (const Ref<ConcreteFunction> &cf : traces)
        for (const ArgSpec &a : cf->argSpecs)
          composite |= a.kind == ArgSpec::Kind::Composite || a.kind == ArgSpec::Kind::Variable;
      for (const Ref<ConcreteFunction> &cf : traces) {
        std::string structure;
        std::vector<CompositeArg> compositeArgs;
        if (!saveableTrace(in, *cf, compositeArgs) || !encodeStructure(in, cf->outputStructure, structure)) continue;
        // Each capture is a variable the trace holds, or a constant tensor.
        std::string captures;
        std::string file = fmt::format("f{}", files);
        bool bound = true;
        for (const ir::Capture &c : cf->scope->function().captures()) {
          VariableObject *var = nullptr;
          for (auto &v : cf->variables)
            if (v->value.get() == c.handle.get()) var = v.get();
          if (c.kind == ir::Capture::Kind::Variable && !var) bound = false;
          if (!bound || !plainField(c.name)) {
            bound = false;
            break;
          }
          std::string key;
          if (var) {
            key = keyFor(*var, fmt::format("captured/{}", captured++));
          } else {
            const Tensor &t = *std::static_pointer_cast<Tensor>(c.handle);
            bundle::BundleTensor b;
            b.key = key = fmt::format("constants/{}/{}", file, c.name);
            b.dtype = t.dtype();
            b.dims = t.shape();
            if (t.dtype() == DType::String) b.strings.assign(t.data<std::string>(), t.data<std::string>() + t.numElements());
            else b.bytes.assign(static_cast<const char *>(t.rawData()), size_t(t.numElements()) * ir::dtypeSize(t.dtype()));
            values.push_back(std::move(b));
          }
          captures += fmt::format("capture\t{}\t{}\t{}\n", file, c.name, key);
        }
        if (!bound) continue;
        ++files;
        callbacks.scan(in, cf->scope->function());
        lib::writeFileAtomic(in, (dir / "functions" / (file + ".ir")).string(), ir::printModule(cf->scope->module()));
        std::string args, specs;
        size_t c = 0;
        for (const ArgSpec &a : cf->argSpecs) {
          if (a.name.find('[') == std::string::npos) args += "\t" + a.name;
          specs += fmt::format("arg\t{}\t{}\t{}\t{}", file, a.name, kindCode(a.kind), a.text);
          if (a.kind == ArgSpec::Kind::Composite) {
            specs += fmt::format("\t{}\t{}", compositeArgs[c].components, compositeArgs[c].match);
            ++c;
          }
          specs += "\n";
        }
        text += fmt::format("function\t{}\t{}\t{}\t{}{}\n", i, name, file, structure, args) + specs + captures;
      }
      if (composite && files == savedBefore) text += fmt::format("unsaved\t{}\t{}\n", i, name);
    }
  }
  bundle::BundleFiles bundleFiles = bundle::encodeBundle(std::move(values));
  lib::writeFileAtomic(in, (dir / "variables" / "variables.data-00000-of-00001").string(), bundleFiles.data);
  lib::writeFileAtomic(in, (dir / "variables" / "variables.index").string(), bundleFiles.index);
  lib::writeFileAtomic(in, (dir / "objects.txt").string(), text);
}

bool loadObjectGraph(Interpreter &in, const fs::path &dir, const Value &root, HostCallbackLoader &callbacks,
                     std::map<std::string, std::shared_ptr<Tensor>> *variableCaptures) {
  fs::path file = dir / "objects.txt";
  std::error_code ec;
  if (!fs::exists(file, ec)) return false;
  std::istringstream lines(lib::readWholeFile(in, file.string()));
  std::string line;
  if (!std::getline(lines, line) || line != kHeader) corrupt(in, file, "not a tfs object graph");
  // The variables' (and captured constants') values.
  std::map<std::string, std::shared_ptr<Tensor>> values;
  {
    std::string prefix = (dir / "variables" / "variables").string();
    std::string index = lib::readWholeFile(in, prefix + ".index");
    std::string data = lib::readWholeFile(in, prefix + ".data-00000-of-00001");
    try {
      int32_t shards = 1;
      for (const bundle::BundleEntry &e : bundle::readBundleIndex(index, shards)) {
        bundle::BundleTensor b = bundle::readBundleTensor(e, data);
        auto t = std::make_shared<Tensor>(Tensor::empty(b.dtype, b.dims));
        if (b.dtype == DType::String)
          for (size_t i = 0; i < b.strings.size(); ++i) t->data<std::string>()[i] = std::move(b.strings[i]);
        else if (!b.bytes.empty())
          std::memcpy(t->rawData(), b.bytes.data(), b.bytes.size());
        values[e.key] = t;
      }
    } catch (const bundle::BundleError &e) {
      raiseTf(in, "DataLossError", fmt::format("Unable to read SavedModel variables {}: {}", prefix, e.what()));
    }
  }
  std::vector<std::string> kinds;
  std::vector<Value> objects;
  // Children of each node in saved order: (name, value); containers are
  // made from theirs once all records are read.
  std::vector<std::vector<std::pair<std::string, Value>>> children;
  std::vector<std::vector<std::pair<std::string, size_t>>> childNodes;
  std::map<std::string, Ref<VariableObject>> variables;
  std::map<std::pair<size_t, std::string>, Ref<RestoredFunction>> functions;
  std::map<std::string, RestoredTrace *> traceOfFile;
  std::vector<std::pair<size_t, Value>> unsaved;  // node, a function that says it was not saved
  auto variable = [&](const std::string &key) -> Ref<VariableObject> {
    auto it = variables.find(key);
    if (it == variables.end()) corrupt(in, file, fmt::format("unknown variable {}", key));
    return it->second;
  };
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    std::vector<std::string> f = splitTabs(line);
    const std::string &kind = f[0];
    if (kind == "node" && f.size() == 3) {
      if (indexField(in, file, f[1], objects.size() + 1) != objects.size()) corrupt(in, file, "nodes out of order");
      kinds.push_back(f[2]);
      objects.push_back(objects.empty() ? root : f[2] == "object" ? Value(make<LoadedObject>()) : Value());
      children.emplace_back();
      childNodes.emplace_back();
    } else if (kind == "edge" && f.size() == 4) {
      childNodes[indexField(in, file, f[1], objects.size())].emplace_back(f[2], indexField(in, file, f[3], objects.size()));
    } else if (kind == "varinfo" && f.size() == 4) {
      auto it = values.find(f[1]);
      if (it == values.end()) corrupt(in, file, fmt::format("variable {} has no saved value", f[1]));
      auto v = make<VariableObject>();
      v->name = f[3];
      v->trainable = f[2] == "1";
      v->dtype = it->second->dtype();
      v->shape = ir::Shape(it->second->shape());
      v->value = it->second;
      variables[f[1]] = v;
    } else if (kind == "variable" && f.size() == 4) {
      children[indexField(in, file, f[1], objects.size())].emplace_back(f[2], Value(variable(f[3])));
    } else if (kind == "function" && f.size() >= 5) {
      size_t node = indexField(in, file, f[1], objects.size());
      Ref<RestoredFunction> &rf = functions[{node, f[2]}];
      if (!rf) {
        rf = make<RestoredFunction>();
        rf->name = f[2];
      }
      fs::path irFile = dir / "functions" / (f[3] + ".ir");
      ir::ParsedModule parsed = ir::parseModule(lib::readWholeFile(in, irFile.string()));
      if (!parsed.ok()) in.raise("ValueError", "corrupted SavedModel graph: " + parsed.error->str(irFile.string()));
      if (auto err = ir::verifyModule(*parsed.module))
        corrupt(in, irFile, err->message);
      RestoredTrace t;
      t.module = std::shared_ptr<ir::Module>(parsed.module.release());
      if (t.module->functions().empty()) corrupt(in, irFile, "no function");
      t.fn = t.module->functions()[0].get();
      callbacks.patch(in, *t.fn, irFile);
      t.argNames.assign(f.begin() + 5, f.end());
      StructureReader reader{in, f[4]};
      t.structure = reader.read(t.fn->body().nodes().empty() ? 0 : t.fn->body().nodes().back()->numOperands());
      rf->traces.push_back(std::move(t));
      traceOfFile[f[3]] = &rf->traces.back();
    } else if (kind == "arg" && (f.size() == 5 || (f.size() == 7 && f[3] == "C"))) {
      auto it = traceOfFile.find(f[1]);
      if (it == traceOfFile.end() || f[3].size() != 1 || std::string("TPSC").find(f[3][0]) == std::string::npos ||
          (f[3] == "C") != (f.size() == 7))
        corrupt(in, file, "a malformed argument record");
      ArgSpec a;
      a.name = f[2];
      a.kind = f[3] == "T"   ? ArgSpec::Kind::Tensor
               : f[3] == "P" ? ArgSpec::Kind::Python
               : f[3] == "C" ? ArgSpec::Kind::Composite
                             : ArgSpec::Kind::Structure;
      a.text = f[4];
      if (a.kind == ArgSpec::Kind::Composite)
        it->second->composites.push_back({indexField(in, file, f[5], size_t(1) << 20), f[6]});
      it->second->specs.push_back(std::move(a));
    } else if (kind == "capture" && f.size() == 4) {
      auto it = traceOfFile.find(f[1]);
      if (it == traceOfFile.end()) corrupt(in, file, "a capture of an unknown function");
      RestoredTrace &t = *it->second;
      std::shared_ptr<Tensor> handle;
      if (auto v = variables.find(f[3]); v != variables.end()) {
        handle = v->second->value;
        t.variables.push_back(v->second);
        if (variableCaptures) (*variableCaptures)[f[2]] = handle;
      } else if (auto c = values.find(f[3]); c != values.end()) {
        handle = c->second;
      } else {
        corrupt(in, file, fmt::format("capture {} has no saved value", f[2]));
      }
      bool found = false;
      for (auto &cap : t.fn->captures())
        if (cap.name == f[2]) {
          cap.handle = std::shared_ptr<void>(handle, handle.get());
          found = true;
        }
      if (!found) corrupt(in, file, fmt::format("{} has no capture {}", f[1], f[2]));
    } else if (kind == "unsaved" && f.size() == 3) {
      size_t node = indexField(in, file, f[1], objects.size());
      std::string name = f[2];
      unsaved.emplace_back(node, in.native(name, [name](Interpreter &in, Args, const Kwargs &) -> Value {
        in.raise("NotImplementedError",
                 fmt::format("the SavedModel's function '{}' was traced with tf.Variable arguments (or composites "
                             "of a type tfs cannot name in a file), which tfs does not save",
                             name));
      }));
    } else {
      corrupt(in, file, "an unknown record");
    }
  }
  if (objects.empty() || kinds[0] != "object") corrupt(in, file, "no root object");
  for (auto &[name, t] : traceOfFile) {
    size_t tensors = 0;
    for (const ArgSpec &a : t->specs) tensors += a.kind == ArgSpec::Kind::Tensor;
    for (const CompositeArg &c : t->composites) tensors += c.components;
    if (tensors != t->fn->params().size()) corrupt(in, file, fmt::format("{} takes other arguments", name));
  }
  for (auto &[file_, t] : traceOfFile)
    for (auto &cap : t->fn->captures())
      if (!cap.handle) corrupt(in, file, fmt::format("capture '{}' of {} has no saved value", cap.name, file_));
  // Containers from the last node back (a child is found after its parent).
  for (size_t i = objects.size(); i-- > 1;) {
    if (kinds[i] == "object") continue;
    std::vector<std::pair<std::string, Value>> items = children[i];
    for (auto &[name, child] : childNodes[i]) items.emplace_back(name, objects[child]);
    if (kinds[i] == "dict") {
      auto d = make<DictObject>();
      for (auto &[k, v] : items) d->set(in, in.str(k), v);
      objects[i] = Value(d);
      continue;
    }
    for (auto &[k, v] : items)
      if (k.empty() || k.size() > 9 || k.find_first_not_of("0123456789") != std::string::npos)
        corrupt(in, file, "a list item without an index");
    std::sort(items.begin(), items.end(), [](auto &a, auto &b) { return std::stol(a.first) < std::stol(b.first); });
    std::vector<Value> list;
    for (auto &[k, v] : items) list.push_back(v);
    objects[i] = kinds[i] == "tuple" ? in.tuple(list) : in.list(list);
  }
  for (size_t i = 0; i < objects.size(); ++i) {
    auto *obj = objects[i].as<LoadedObject>();
    if (!obj) continue;
    for (auto &[name, v] : children[i]) obj->scope->vars[name] = v;
    for (auto &[name, child] : childNodes[i]) obj->scope->vars[name] = objects[child];
  }
  for (auto &[where, rf] : functions)
    if (auto *obj = objects[where.first].as<LoadedObject>()) obj->scope->vars[where.second] = Value(rf);
  for (auto &[node, fn] : unsaved)
    if (auto *obj = objects[node].as<LoadedObject>()) obj->scope->vars[fn.as<NativeFunction>()->name] = fn;
  return true;
}

}  // namespace tfs::runtime::tf
