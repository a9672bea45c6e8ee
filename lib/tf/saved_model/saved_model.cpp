// tf.saved_model.save / load. A saved model is a directory holding, per
// signature, the traced graph in the IR text format (`NAME.ir`), and the
// variables it captures (`variables.txt`: capture name, dtype, shape and
// values at full precision). Writes are atomic: everything goes to a
// temporary sibling directory which is fsynced and then atomically swapped
// with the target (see publishDirectory).
// Loading parses and verifies the graphs; a corrupted model is a clean
// error naming the file. The exported object's graph (sub-modules, variables
// and the traces of its tf.function attributes) is saved beside them and
// restored onto the loaded object (saved_object_graph.h).
#include "ir/text.h"
#include "ir/verifier.h"
#include "lib/tf/tf_lib.h"
#include "lib/tf/distribute/distribute_native.h"
#include "lib/tf/io/io_lib.h"
#include "lib/tf/saved_model/saved_model_files.h"
#include "lib/tf/saved_model/saved_object_graph.h"
#include "runtime/tf/concrete_function.h"
#include "runtime/tf/executable.h"
#include "runtime/tf/function_wrappers.h"

#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace tfs::runtime::tf {

namespace fs = std::filesystem;

void writeFileSynced(Interpreter &in, const fs::path &p, const std::string &text) {
  int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) in.raise("OSError", fmt::format("cannot write {}", p.string()));
  size_t off = 0;
  while (off < text.size()) {
    ssize_t n = ::write(fd, text.data() + off, text.size() - off);
    if (n <= 0) { ::close(fd); in.raise("OSError", fmt::format("cannot write {}", p.string())); }
    off += size_t(n);
  }
  ::fsync(fd);
  ::close(fd);
}

void syncDirectory(const fs::path &dir) {
  int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

// Makes the finished temporary directory `tmp` the model at `target`. With
// an existing model the two are swapped in one atomic renameat2(EXCHANGE),
// so a reader (or a crash) sees either the old model or the new one, never
// neither; only then is the old one deleted. Filesystems without EXCHANGE
// fall back to two renames (a short window without a model).
void publishDirectory(Interpreter &in, const fs::path &tmp, const fs::path &target) {
  std::error_code ec;
  fs::path parent = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  if (!fs::exists(target)) {
    fs::rename(tmp, target, ec);
    if (ec) in.raise("OSError", fmt::format("cannot write SavedModel to {}: {}", target.string(), ec.message()));
    syncDirectory(parent);
    return;
  }
  if (::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) == 0) {
    syncDirectory(parent);
    fs::remove_all(tmp, ec);  // now holds the old model
    return;
  }
  fs::path old = target;
  old += fmt::format(".old-{}", ::getpid());
  fs::rename(target, old, ec);
  if (!ec) fs::rename(tmp, target, ec);
  if (ec) in.raise("OSError", fmt::format("cannot write SavedModel to {}: {}", target.string(), ec.message()));
  syncDirectory(parent);
  fs::remove_all(old, ec);
}

StagedModelDirectory::StagedModelDirectory(Interpreter &in, const std::string &exportDir) : target_(exportDir) {
  while (!target_.has_filename() && target_.has_relative_path()) target_ = target_.parent_path();
  tmp_ = target_;
  tmp_ += fmt::format(".tmp-{}", ::getpid());
  std::error_code ec;
  fs::remove_all(tmp_, ec);
  fs::create_directories(tmp_, ec);
  if (ec) in.raise("OSError", fmt::format("cannot create {}: {}", tmp_.string(), ec.message()));
}

StagedModelDirectory::~StagedModelDirectory() {
  std::error_code ignored;
  if (!published_) fs::remove_all(tmp_, ignored);
}

void StagedModelDirectory::publish(Interpreter &in) {
  syncDirectory(tmp_);
  publishDirectory(in, tmp_, target_);
  published_ = true;
}

std::string tensorLine(const std::string &name, const Tensor &t) {
  std::string s = fmt::format("{} {} {}", name, ir::dtypeShortName(t.dtype()), t.rank());
  for (int64_t d : t.shape()) s += fmt::format(" {}", d);
  for (int64_t i = 0; i < t.numElements(); ++i) s += fmt::format(" {:.17g}", t.elementAsDouble(i));
  return s + "\n";
}

namespace {

// tf.TensorSpec(shape, dtype, name).
Value tensorSpecValue(Interpreter &in, const ir::Shape &shape, DType dtype, const std::string &name) {
  Value dims = Value();
  if (shape.ranked) {
    std::vector<Value> ds;
    for (int64_t d : shape.dims) ds.push_back(d < 0 ? Value() : Value::integer(d));
    dims = in.list(ds);
  }
  return in.call(in.getAttr(in.importModule("tensorflow"), "TensorSpec"),
                 std::vector<Value>{dims, dtypeValue(dtype), in.str(name)});
}

// A function saved as a graph of tensors in and out: a serving signature
// (TF's signature functions: inputs by name, a dict of named outputs,
// `output_N` for a function that returns no dict) or an exported call.
struct LoadedFunction : Object {
  std::shared_ptr<ir::Module> module;
  ir::Function *fn = nullptr;
  std::vector<std::shared_ptr<Tensor>> variables;
  std::shared_ptr<Executable> exec;  // the optimized copy that runs
  RestoredGradientCache gradient;     // for calls under a GradientTape
  std::vector<std::string> outputKeys;  // a signature returning a dict
  bool signature = false;
  const char *typeName() const override { return "RestoredFunction"; }
  std::string inputName(size_t i) const {
    const std::string &n = fn->param(unsigned(i))->name;
    return n.empty() ? fmt::format("input_{}", i) : n;
  }
  std::vector<std::string> outputNames() const {
    if (!outputKeys.empty()) return outputKeys;
    std::vector<std::string> names;
    size_t n = fn->body().nodes().empty() ? 0 : fn->body().nodes().back()->numOperands();
    for (size_t i = 0; i < n; ++i) names.push_back(fmt::format("output_{}", i));
    return names;
  }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override {
    if (!signature) return std::nullopt;
    if (name == "structured_outputs") {
      auto d = make<DictObject>();
      std::vector<std::string> names = outputNames();
      const ir::Node *ret = fn->body().nodes().empty() ? nullptr : fn->body().nodes().back().get();
      for (size_t i = 0; ret && i < names.size() && i < ret->numOperands(); ++i) {
        const ir::TensorType &t = ret->operand(unsigned(i))->type;
        d->set(in, in.str(names[i]), tensorSpecValue(in, t.shape, t.dtype, names[i]));
      }
      return Value(d);
    }
    if (name == "structured_input_signature") {
      auto d = make<DictObject>();
      for (size_t i = 0; i < fn->params().size(); ++i) {
        const ir::TensorType &t = fn->param(unsigned(i))->type;
        d->set(in, in.str(inputName(i)), tensorSpecValue(in, t.shape, t.dtype, inputName(i)));
      }
      return in.tuple({in.tuple({}), Value(d)});
    }
    return std::nullopt;
  }
  std::optional<Value> call(Interpreter &in, Args args, const Kwargs &kwargs) override {
    // Inputs by position, or (a signature's) by name.
    size_t n = fn->params().size();
    std::vector<std::optional<Value>> given(std::max(n, args.size()));
    for (size_t i = 0; i < args.size(); ++i) given[i] = args[i];
    for (const auto &[k, v] : kwargs) {
      size_t i = 0;
      while (i < n && inputName(i) != k) ++i;
      if (!signature || i == n)
        in.raise("TypeError", fmt::format("{}() got an unexpected keyword argument '{}'", fn->name(), k));
      if (given[i]) in.raise("TypeError", fmt::format("{}() got multiple values for argument '{}'", fn->name(), k));
      given[i] = v;
    }
    size_t count = 0;
    for (auto &g : given) count += g.has_value();
    if (given.size() != n || count != n)
      in.raise("TypeError", fmt::format("{}() takes {} arguments ({} given)", fn->name(), n, count));
    std::vector<Tensor> ts;
    for (size_t i = 0; i < n; ++i)
      ts.push_back(toTensor(in, *given[i], std::nullopt, fn->param(unsigned(i))->type.dtype)->eager);
    if (!exec) exec = std::make_shared<Executable>(*fn);
    std::vector<Tensor> out = exec->run(in, ts);
    if (!ctx(in).tapes.empty()) {
      // Recorded on the tapes as one op of its tensor arguments.
      std::vector<Value> outs;
      for (auto &t : out) outs.push_back(wrap(t));
      std::vector<int64_t> ids;
      for (size_t i = 0; i < n; ++i) {
        auto *x = given[i]->as<TensorObject>();
        ids.push_back(x ? x->id : make<TensorObject>()->id);
      }
      recordRestoredCallOnTapes(in, module, *fn, gradient, {}, ts, ids, outs);
      return results(in, outs);
    }
    std::vector<Value> outs;
    for (auto &t : out) outs.push_back(wrap(std::move(t)));
    return results(in, outs);
  }
  // The call's result: a dict of the named outputs, else one tensor or a tuple.
  Value results(Interpreter &in, const std::vector<Value> &out) {
    std::vector<std::string> names = signature ? outputNames() : outputKeys;
    if (!names.empty() && names.size() == out.size()) {
      auto d = make<DictObject>();
      for (size_t i = 0; i < out.size(); ++i) d->set(in, in.str(names[i]), out[i]);
      return Value(d);
    }
    if (out.empty()) return Value();
    if (out.size() == 1) return out[0];
    return in.tuple(out);
  }
};

Value load(Interpreter &in, const std::string &dir) {
  fs::path root(dir);
  if (!fs::is_directory(root)) in.raise("OSError", fmt::format("SavedModel file does not exist at: {}", dir));
  // Variables.
  std::unordered_map<std::string, std::shared_ptr<Tensor>> vars;
  {
    std::ifstream f(root / "variables.txt");
    if (!f) in.raise("OSError", fmt::format("SavedModel at {} has no variables.txt", dir));
    std::string line;
    int lineNo = 0;
    while (std::getline(f, line)) {
      ++lineNo;
      if (line.empty()) continue;
      std::istringstream ss(line);
      std::string name, dt;
      size_t rank = 0;
      if (!(ss >> name >> dt >> rank) || rank > 32)
        in.raise("ValueError", fmt::format("{}:{}: corrupted variable record", (root / "variables.txt").string(), lineNo));
      auto d = ir::parseDTypeShortName(dt);
      if (!d || *d == DType::String) in.raise("ValueError", fmt::format("{}:{}: bad dtype '{}'", (root / "variables.txt").string(), lineNo, dt));
      std::vector<int64_t> shape(rank);
      int64_t n = 1;
      for (auto &x : shape) {
        if (!(ss >> x) || x < 0 || x > (int64_t(1) << 31)) in.raise("ValueError", fmt::format("{}:{}: bad shape", (root / "variables.txt").string(), lineNo));
        n *= x;
        if (n > (int64_t(1) << 31)) in.raise("ValueError", fmt::format("{}:{}: variable too large", (root / "variables.txt").string(), lineNo));
      }
      // Values are read as they come, not allocated from the declared size
      // first: a corrupted record claiming 2^31 elements on a short line
      // must be "truncated", not a 16 GiB allocation.
      std::vector<double> values;
      values.reserve(static_cast<size_t>(std::min<int64_t>(n, 4096)));
      for (int64_t k = 0; k < n; ++k) {
        double v;
        if (!(ss >> v)) in.raise("ValueError", fmt::format("{}:{}: truncated values", (root / "variables.txt").string(), lineNo));
        values.push_back(v);
      }
      vars[name] = std::make_shared<Tensor>(Tensor::fromDoubles(*d, shape, values));
    }
  }
  HostCallbackLoader callbacks;
  callbacks.read(in, root);
  auto obj = make<LoadedObject>();
  auto signatures = make<DictObject>();
  // The serving signatures (a model of an earlier tfs has no list: all).
  std::optional<std::vector<std::string>> signatureNames;
  if (std::ifstream names(root / "signatures.txt"); names) {
    signatureNames.emplace();
    std::string line;
    while (std::getline(names, line))
      if (!line.empty()) signatureNames->push_back(line);
  }
  for (const auto &entry : fs::directory_iterator(root)) {
    if (entry.path().extension() != ".ir") continue;
    std::ifstream f(entry.path());
    std::stringstream text;
    text << f.rdbuf();
    ir::ParsedModule parsed = ir::parseModule(text.str());
    if (!parsed.ok()) in.raise("ValueError", "corrupted SavedModel graph: " + parsed.error->str(entry.path().string()));
    if (auto err = ir::verifyModule(*parsed.module))
      in.raise("ValueError", fmt::format("corrupted SavedModel graph {}: {}", entry.path().string(), err->message));
    auto lf = make<LoadedFunction>();
    lf->module = std::shared_ptr<ir::Module>(parsed.module.release());
    if (lf->module->functions().empty()) in.raise("ValueError", fmt::format("{}: no function", entry.path().string()));
    lf->fn = lf->module->functions()[0].get();
    callbacks.patch(in, *lf->fn, entry.path());
    for (auto &cap : lf->fn->captures()) {
      auto it = vars.find(cap.name);
      if (it == vars.end()) in.raise("ValueError", fmt::format("{}: capture '{}' has no saved value", entry.path().string(), cap.name));
      cap.handle = std::shared_ptr<void>(it->second, it->second.get());
    }
    std::string name = entry.path().stem().string();
    if (std::ifstream keys(root / (name + ".outputs")); keys) {
      std::string key;
      while (std::getline(keys, key)) lf->outputKeys.push_back(key);
    }
    lf->signature = !signatureNames || std::find(signatureNames->begin(), signatureNames->end(), name) !=
                                            signatureNames->end();
    if (lf->signature) signatures->set(in, in.str(name), Value(lf));
    else obj->scope->vars[name] = Value(lf);
  }
  obj->scope->vars["signatures"] = signatures;
  // Sub-objects, variables and tf.function attributes (their restored
  // functions replace the signature functions of the same names).
  std::map<std::string, std::shared_ptr<Tensor>> variableCaptures;
  loadObjectGraph(in, root, Value(obj), callbacks, &variableCaptures);
  // The signature graphs captured variables.txt's copies: they read the
  // restored variables instead, so that r.scale(3.) shows in
  // r.signatures["serving_default"] as in TF (one variable, not two).
  for (auto &[key, fn] : signatures->items())
    if (auto *lf = fn.as<LoadedFunction>())
      for (auto &cap : lf->fn->captures())
        if (auto it = variableCaptures.find(cap.name); it != variableCaptures.end())
          cap.handle = std::shared_ptr<void>(it->second, it->second.get());
  return obj;
}

bool hasComposite(Interpreter &in, const Value &structure) {
  auto *t = structure.as<TupleObject>();
  if (!t || t->items.empty()) return false;
  std::string kind = in.str(t->items[0]);
  if (kind == "composite") return true;
  if (kind != "tuple" && kind != "list" && kind != "dict") return false;
  for (const Value &x : in.toList(t->items[1])) {
    auto *p = kind == "dict" ? x.as<TupleObject>() : nullptr;
    if (hasComposite(in, p ? p->items[1] : x)) return true;
  }
  return false;
}

// A serving signature takes and returns tensors (TF's
// signature_serialization): a SparseTensor, RaggedTensor or ExtensionType
// argument or result is refused with TF's ValueError.
void checkSignatureTypes(Interpreter &in, const Value &f, const std::string &key) {
  if (!f.obj() || std::string_view(f.obj()->typeName()) != "Function") return;  // traceForExport says what it is
  Value cfv = in.call(in.getAttr(f, "get_concrete_function"), {});
  auto *cf = cfv.as<ConcreteFunction>();
  if (!cf) return;
  for (const ArgSpec &a : cf->argSpecs)
    if (a.kind == ArgSpec::Kind::Composite)
      in.raise("ValueError", fmt::format("The signature '{}' takes a {} argument '{}': a SavedModel signature's "
                                         "inputs must be tensors (TensorSpec)",
                                         key, a.text.substr(0, a.text.find('(')), a.name));
  if (hasComposite(in, cf->outputStructure))
    in.raise("ValueError",
             fmt::format("Got a non-Tensor value for key 'output_0' in the output of the function {} used to "
                         "generate the SavedModel signature '{}'. Outputs for functions used as signatures must be a "
                         "single Tensor, a sequence of Tensors, or a dictionary from string to Tensor.",
                         in.str(in.getAttr(f, "__name__")), key));
}

// A signature given as a ConcreteFunction (f.get_concrete_function(spec),
// as TF accepts) is that trace; a tf.function is traced for its
// input_signature (traceForExport).
TracedSignature traceSignature(Interpreter &in, const Value &f) {
  auto *cf = f.as<ConcreteFunction>();
  if (!cf) return traceForExport(in, f);
  return tracedSignatureOf(in, *cf);
}

// tf.saved_model.save: the SavedModel written to a temporary directory,
// then published atomically.
Value saveSavedModel(Interpreter &in, Args a, const Kwargs &kw) {
  auto args = in.bindArgs("save", a, kw, {"obj", "export_dir", "signatures", "options"}, {std::nullopt, std::nullopt, Value(), Value()});
  callSavedModelHelper(in, "check_options",
                       {args[3], savedModelHelper(in, "SaveOptions"), in.str("tf.saved_model.SaveOptions")});
  // TF exports trackable objects only (tf.Module, Keras models, ...).
  if (!args[0].as<InstanceObject>())
    in.raise("ValueError", fmt::format("Expected an object of type `Trackable`, such as `tf.Module` or a subclass "
                                       "of the `Trackable` class, for export. Got {} with type <class '{}'>.",
                                       in.repr(args[0]), in.typeName(args[0])));
  std::string dir = in.str(args[1]);
  if (in.options().readOnlyFiles)
    in.raise("OSError", fmt::format("cannot write SavedModel to {}: file writes are disabled", dir));
  std::vector<std::pair<std::string, Value>> fns;
  if (auto *d = args[2].as<DictObject>()) {
    for (auto &[k, v] : d->items()) fns.emplace_back(in.str(k), v);
  } else if (!args[2].isNone()) {
    fns.emplace_back("serving_default", args[2]);
  }
  // TF's signatures: the ones given, else a Keras model's serving_default.
  std::string signatureList;
  for (auto &f : fns) signatureList += f.first + "\n";
  // A Keras model exports its call (serving_default and __call__) from the
  // input spec of its first call (Model._tfs_saved_model_functions).
  if (auto hook = in.getAttrOpt(args[0], "_tfs_saved_model_functions")) {
    Value exported = in.call(*hook, {});  // keeps the dict alive while we read it
    if (auto *d = exported.as<DictObject>())
      for (auto &[k, v] : d->items()) {
        bool already = false;
        for (auto &f : fns) already |= f.first == in.str(k);
        if (already) continue;
        // A call on composites cannot be a graph of tensors: the model
        // exports it as a function of its own (_tfs_saved_model_object_functions)
        // or not at all.
        try {
          checkSignatureTypes(in, v, in.str(k));
        } catch (PyException &) {
          continue;
        }
        fns.emplace_back(in.str(k), v);
        if (args[2].isNone() && in.str(k) == "serving_default") signatureList += "serving_default\n";
      }
  }
  // Methods that are tf.functions with signatures are saved under their own names.
  std::vector<Value> candidates;
  if (auto *inst = args[0].as<InstanceObject>()) {
    for (ClassObject *c : inst->klass->mro)
      for (auto &[k, v] : c->dict) {
        bool already = false;
        for (auto &f : fns) already |= f.first == k;
        if (!already && v.obj() && std::string(v.obj()->typeName()) == "Function") {
          Value bound = in.getAttr(args[0], k);
          try {
            TracedSignature traced = traceForExport(in, bound);
            fns.emplace_back(k, bound);
            // TF's valid_signature: a function without outputs (a setter
            // such as `mutate(new_v)`) cannot serve as a signature.
            const ir::Node *ret = traced.scope->function().body().terminator();
            if (ret && ret->numOperands() > 0) candidates.push_back(bound);
          } catch (PyException &) {
          }
        }
      }
  }
  // TF's default signature (signature_serialization.find_function_to_export):
  // without `signatures`, the object's only tf.function with an
  // input_signature serves as serving_default.
  if (args[2].isNone() && signatureList.empty() && candidates.size() == 1) {
    fns.emplace_back("serving_default", candidates[0]);
    signatureList += "serving_default\n";
  }
  std::string text;
  std::string vars;
  StagedModelDirectory staged(in, dir);
  const fs::path &tmp = staged.tmp();
  std::unordered_map<std::string, bool> savedVars;
  HostCallbackSaver callbacks;
  for (auto &[name, f] : fns) {
    if (signatureList.find(name + "\n") != std::string::npos) checkSignatureTypes(in, f, name);
    TracedSignature sig = traceSignature(in, f);
    callbacks.scan(in, sig.scope->function());
    writeFileSynced(in, tmp / (name + ".ir"), ir::printModule(sig.scope->module()));
    if (!sig.outputKeys.empty()) {
      std::string keys;
      for (auto &k : sig.outputKeys) keys += k + "\n";
      writeFileSynced(in, tmp / (name + ".outputs"), keys);
    }
    for (auto &cap : sig.scope->function().captures()) {
      if (cap.kind != ir::Capture::Kind::Variable || savedVars[cap.name]) continue;
      savedVars[cap.name] = true;
      vars += tensorLine(cap.name, *std::static_pointer_cast<Tensor>(cap.handle));
    }
  }
  writeFileSynced(in, tmp / "variables.txt", vars);
  writeFileSynced(in, tmp / "signatures.txt", signatureList);
  saveObjectGraph(in, args[0], tmp, callbacks);
  callbacks.write(in, tmp);
  staged.publish(in);
  return Value();
}

}  // namespace

std::optional<LoadedSignatureGraph> loadedSignatureGraph(const Value &f) {
  auto *lf = f.as<LoadedFunction>();
  if (!lf || !lf->fn) return std::nullopt;
  return LoadedSignatureGraph{lf->module, lf->fn, lf->outputKeys};
}

void installSavedModel(Interpreter &in, ModuleObject &tf) {
  auto sm = make<ModuleObject>("tensorflow.saved_model");
  tf.scope->vars["saved_model"] = sm;
  // In a tf.distribute run of several workers, worker 0 writes and the
  // others wait until the directory is published, so any may then load it.
  sm->scope->vars["save"] = in.native("save", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    return writeOnChief(in, [&] { return saveSavedModel(in, a, kw); });
  });
  sm->scope->vars["load"] = in.native("load", [](Interpreter &in, Args a, const Kwargs &kw) {
    auto args = in.bindArgs("load", a, kw, {"export_dir", "tags", "options"}, {std::nullopt, Value(), Value()});
    callSavedModelHelper(in, "check_options",
                         {args[2], savedModelHelper(in, "LoadOptions"), in.str("tf.saved_model.LoadOptions")});
    // A str, bytes (what Estimator.export_saved_model returns) or PathLike.
    return load(in, io::pathArg(in, args[0]));
  });
  // TF's maybe_saved_model_directory: a saved_model.pb(txt) there, or the
  // files of a tfs SavedModel (its signature list or object graph).
  sm->scope->vars["contains_saved_model"] = in.native("contains_saved_model", [](Interpreter &in, Args a,
                                                                                 const Kwargs &kw) -> Value {
    auto args = in.bindArgs("contains_saved_model", a, kw, {"export_dir"}, {std::nullopt});
    fs::path dir = io::pathArg(in, args[0]);
    std::error_code ec;
    for (const char *f : {"saved_model.pb", "saved_model.pbtxt", "signatures.txt", "objects.txt"})
      if (fs::is_regular_file(dir / f, ec)) return Value::boolean(true);
    return Value::boolean(false);
  });
  // The option classes are .tfs (_tf_saved_model.tfs), imported on first use
  // (the prelude imports tensorflow, which is being made here).
  sm->lazy = [](Interpreter &in, const std::string &name) -> std::optional<Value> {
    if (name != "SaveOptions" && name != "LoadOptions") {
      // The constants (both APIs' tables list them; LEGACY_INIT_OP_KEY and
      // MAIN_OP_KEY are tf.compat.v1.saved_model's only).
      if (name == "LEGACY_INIT_OP_KEY" || name == "MAIN_OP_KEY") return std::nullopt;
      return preludeApi(in, "_tf_saved_model_v1", "CONSTANTS", name);
    }
    return savedModelHelper(in, name.c_str());
  };
}

}  // namespace tfs::runtime::tf
