// The `tensorflow` module's attributes made on first use: the prelude-backed
// parts (tf.Module, functional control flow, composite functions, tf.image,
// tf.signal, ...), TF 2.15's top-level aliases and compat.v1's extras.
#include "runtime/kernels/kernels.h"
#include "lib/tf/io/io_lib.h"
#include "lib/tf/tf_lib.h"
#include "lib/tf/compat_v1/compat_v1.h"
#include "lib/tf/distribute/distribute_native.h"
#include "runtime/interp/signature.h"

#include <fmt/format.h>
#include <tuple>

namespace tfs::runtime::tf {

std::optional<Value> tfModuleLazyAttr(Interpreter &in, const std::string &name, bool v1) {
  if (name == "Module") return in.getAttr(importPreludeModule(in, "_tf_module"), "Module");
  for (const char *n : {"cond", "while_loop", "case", "switch_case", "map_fn", "scan", "foldl", "foldr"})
    if (name == n) return in.getAttr(importPreludeModule(in, "_tf_control"), name);
  if (auto f = compositeApi(in, "tf_api", name)) return f;
  if (auto f = preludeApi(in, "_tf_debugging", "tf_api", name)) return f;
  if (auto f = preludeApi(in, "_tf_logging", "tf_api", name)) return f;
  if (v1)
    if (auto f = preludeApi(in, "_tf_dimension", "v1_api", name)) return f;
  // tf.compat.v1.flags is absl.flags; tf.compat.v1.app.run absl.app.run
  // (lib/tf/compat_v1/_tf_v1_app.tfs); tf.compat.v1.test tf.test.
  if (v1 && name == "flags") return in.importModule("absl.flags");
  if (v1 && name == "test") return in.getAttr(in.importModule("tensorflow"), "test");
  if (v1 && name == "app") {
    auto m = make<ModuleObject>("tensorflow.compat.v1.app");
    m->lazy = [](Interpreter &in, const std::string &n) { return preludeApi(in, "_tf_v1_app", "app_api", n); };
    return Value(m);
  }
  if (v1 && name == "logging") {
    // tf.compat.v1.logging (lib/tf/logging/_tf_logging.tfs).
    auto m = make<ModuleObject>("tensorflow.compat.v1.logging");
    m->lazy = [](Interpreter &in, const std::string &n) { return preludeApi(in, "_tf_logging", "logging_api", n); };
    return Value(m);
  }
  if (auto f = preludeApi(in, "_tf_gradients", "tf_api", name)) return f;
  if (auto f = preludeApi(in, "_tf_extension_type", "tf_api", name)) return f;
  if (auto f = preludeApi(in, "_tf_linalg", v1 ? "v1_api" : "tf_api", name)) return f;
  if (auto f = preludeApi(in, "_tf_scatter", "tf_api", name)) return f;
  if (auto f = preludeApi(in, "_tf_math_extra", "tf_api", name)) return f;
  if (auto f = preludeApi(in, "_tf_ops_extra", "tf_api", name)) return f;
  if (auto f = preludeApi(in, "_tf_partition", "tf_api", name)) return f;
  if (auto f = preludeApi(in, "_tf_ops_more", "tf_api", name)) return f;
  if (auto f = preludeApi(in, "_tf_edit_distance", "tf_api", name)) return f;
  // TF 2's tf.control_dependencies / group / no_op are compat.v1's
  // (no effect eagerly or in a tf.function, whose ops run in order).
  for (const char *n : {"control_dependencies", "group", "no_op"})
    if (!v1 && name == n) return in.getAttr(in.importModule("tensorflow.compat.v1"), name);
  // tf.image, tf.signal and tf.audio: module objects over their prelude tables.
  for (auto [module, prelude, table] : {std::tuple{"image", "_tf_image", "image_api"},
                                         std::tuple{"signal", "_tf_signal", "signal_api"},
                                         std::tuple{"audio", "_tf_audio", "audio_api"}}) {
    if (name != module) continue;
    auto m = make<ModuleObject>(std::string("tensorflow.") + module);
    const char *file = prelude, *api = table;  // clang-14 cannot capture structured bindings
    m->lazy = [file, api](Interpreter &in, const std::string &n) { return preludeApi(in, file, api, n); };
    return Value(m);
  }
  // TF 2.15's top-level aliases of functions that live in a submodule.
  struct Alias { const char *name, *module, *attr; };
  static const Alias kAliases[] = {
      {"floor", "math", "floor"}, {"cosh", "math", "cosh"}, {"sinh", "math", "sinh"}, {"tan", "math", "tan"},
      {"as_string", "strings", "as_string"},
      {"zeros_initializer", "initializers", "Zeros"}, {"ones_initializer", "initializers", "Ones"},
      {"constant_initializer", "initializers", "Constant"},
      {"random_normal_initializer", "initializers", "RandomNormal"},
      {"random_uniform_initializer", "initializers", "RandomUniform"},
  };
  if (!v1)
    for (const Alias &alias : kAliases)
      if (name == alias.name) return in.getAttr(in.getAttr(in.importModule("tensorflow"), alias.module), alias.attr);
  if (name == "TensorArray") return in.getAttr(importPreludeModule(in, "_tf_tensor_array"), name);
  // tf.sparse / tf.SparseTensor (lib/tf/sparse/_tf_sparse.tfs) and
  // tf.ragged / tf.RaggedTensor (lib/tf/ragged/_ragged_dispatch.tfs).
  if (name == "SparseTensor" || name == "SparseTensorSpec") return preludeApi(in, "_tf_sparse", "sparse_api", name);
  // tf.IndexedSlices (lib/tf/_tf_indexed_slices.tfs): gathers' gradients.
  if (name == "IndexedSlices" || name == "IndexedSlicesSpec")
    return in.getAttr(importPreludeModule(in, "_tf_indexed_slices"), name);
  if (name == "RaggedTensor" || name == "RaggedTensorSpec")
    return preludeApi(in, "_ragged_dispatch", "ragged_api", name);
  for (auto [module, prelude, table, missing] :
       {std::tuple{"sparse", "_tf_sparse", "sparse_api", "sparse_missing"},
        std::tuple{"ragged", "_ragged_dispatch", "ragged_api", "ragged_missing"}}) {
    if (name != module) continue;
    auto m = make<ModuleObject>(std::string("tensorflow.") + module);
    std::string mod = module, file = prelude, api = table, lacking = missing;  // clang-14: no structured-binding captures
    m->lazy = [mod, file, api, lacking](Interpreter &in, const std::string &n) -> std::optional<Value> {
      if (auto f = preludeApi(in, file.c_str(), api.c_str(), n)) return f;
      for (const Value &x : in.toList(in.getAttr(importPreludeModule(in, file), lacking)))
        if (in.str(x) == n) in.raise("NotImplementedError", fmt::format("tf.{}.{} is not supported by tfs", mod, n));
      return std::nullopt;
    };
    return Value(m);
  }
  // tf.lookup and tf.lookup.experimental (lib/tf/lookup/_tf_lookup*.tfs);
  // compat.v1's tables have an `initializer`.
  if (name == "lookup") {
    auto m = make<ModuleObject>(v1 ? "tensorflow.compat.v1.lookup" : "tensorflow.lookup");
    m->lazy = [v1](Interpreter &in, const std::string &n) -> std::optional<Value> {
      if (n != "experimental") return preludeApi(in, "_tf_lookup", v1 ? "lookup_v1_api" : "lookup_api", n);
      auto e = make<ModuleObject>("tensorflow.lookup.experimental");
      e->lazy = [](Interpreter &in, const std::string &x) { return preludeApi(in, "_tf_lookup", "experimental_api", x); };
      return Value(e);
    };
    return Value(m);
  }
  // tf.feature_column / tf.compat.v1.feature_column
  // (lib/tf/feature_column/_tf_feature_column.tfs); what it lacks is refused
  // by name.
  if (name == "feature_column") {
    auto m = make<ModuleObject>(v1 ? "tensorflow.compat.v1.feature_column" : "tensorflow.feature_column");
    m->lazy = [v1](Interpreter &in, const std::string &n) -> std::optional<Value> {
      if (auto f = preludeApi(in, "_tf_feature_column", v1 ? "v1_api" : "api", n)) return f;
      for (const Value &x : in.toList(in.getAttr(importPreludeModule(in, "_tf_feature_column"), v1 ? "v1_missing" : "missing")))
        if (in.str(x) == n)
          in.raise("NotImplementedError",
                   fmt::format("tf.{}feature_column.{} is not supported by tfs", v1 ? "compat.v1." : "", n));
      return std::nullopt;
    };
    return Value(m);
  }
  // tf.estimator / tf.compat.v1.estimator (lib/tf/estimator/); what it
  // lacks is refused by name.
  if (name == "estimator") {
    auto m = make<ModuleObject>(v1 ? "tensorflow.compat.v1.estimator" : "tensorflow.estimator");
    m->lazy = [v1](Interpreter &in, const std::string &n) -> std::optional<Value> {
      if (auto f = preludeApi(in, "_tf_estimator_api", v1 ? "v1_api" : "api", n)) return f;
      for (const Value &x : in.toList(in.getAttr(importPreludeModule(in, "_tf_estimator_api"), "missing")))
        if (in.str(x) == n)
          in.raise("NotImplementedError", fmt::format("tf.{}estimator.{} is not supported by tfs", v1 ? "compat.v1." : "", n));
      return std::nullopt;
    };
    return Value(m);
  }
  if (name == "device") return in.getAttr(importPreludeModule(in, "_tf_device"), name);
  if (name == "VariableAggregation" || name == "VariableSynchronization")
    return in.getAttr(importPreludeModule(in, "_tf_distribute_values"), name);
  // tf.summary and tf.profiler (lib/tf/summary/_tf_summary.tfs).
  if (name == "summary" || name == "profiler")
    return in.getAttr(importPreludeModule(in, "_tf_summary"), v1 && name == "summary" ? "summary_v1" : name);
  if (name == "distribute") return in.getAttr(importPreludeModule(in, "_tf_distribute"), "distribute");
  if (name == "train") {
    auto train = make<ModuleObject>("tensorflow.train");
    train->lazy = trainApi;
    return Value(train);
  }
  // tf.keras is the Keras 2.15 namespace the .tfs Keras files assemble
  // (lib/tf/keras/_keras.tfs); tf.optimizers / losses / metrics /
  // initializers are its submodules, as in TF 2.15.
  // tf.compat.v1.keras is Keras's v1 API (lib/tf/keras/_keras_v1.tfs).
  if (name == "keras") return in.getAttr(importPreludeModule(in, v1 ? "_keras_v1" : "_keras"), "keras");
  // tf.compat.v1.losses is TF1's (lib/tf/compat_v1/_tf_v1_losses.tfs), not
  // Keras's; TF1's streaming tf.compat.v1.metrics are
  // lib/tf/compat_v1/_tf_v1_metrics.tfs (the others refused by name).
  if (v1 && (name == "losses" || name == "metrics")) {
    auto m = make<ModuleObject>("tensorflow.compat.v1." + name);
    if (name == "losses")
      m->lazy = [](Interpreter &in, const std::string &n) { return preludeApi(in, "_tf_v1_losses", "losses_api", n); };
    else
      m->lazy = [](Interpreter &in, const std::string &n) { return preludeApi(in, "_tf_v1_metrics", "metrics_api", n); };
    return Value(m);
  }
  // tf.compat.v1.initializers holds TF 1's initializer classes, whose
  // defaults differ from Keras's (lib/tf/compat_v1/_tf_v1_initializers.tfs).
  if (v1 && name == "initializers") {
    auto m = make<ModuleObject>("tensorflow.compat.v1.initializers");
    m->lazy = [](Interpreter &in, const std::string &n) {
      in.importModule("tensorflow.compat.v1");  // installs "constant" (_tf_v1.tfs)
      return preludeApi(in, "_tf_v1_initializers", "initializers_api", n);
    };
    return Value(m);
  }
  for (const char *n : {"optimizers", "losses", "metrics", "initializers"})
    if (name == n)
      return in.getAttr(in.getAttr(importPreludeModule(in, "_keras"), "keras"), name);
  if (name == "data") {
    Value d = importPreludeModule(in, "_tf_data");
    auto data = make<ModuleObject>("tensorflow.data");
    auto experimental = make<ModuleObject>("tensorflow.data.experimental");
    for (const char *n : {"Dataset", "AUTOTUNE"}) data->scope->vars[n] = in.getAttr(d, n);
    for (const char *n : {"AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY"})
      experimental->scope->vars[n] = in.getAttr(d, n);
    // File readers and generator sources (lib/tf/data/_tf_data_readers.tfs).
    Value readers = importPreludeModule(in, "_tf_data_readers");
    for (const char *n : {"TextLineDataset", "TFRecordDataset"}) data->scope->vars[n] = in.getAttr(readers, n);
    for (const char *n : {"make_csv_dataset", "CsvDataset"}) experimental->scope->vars[n] = in.getAttr(readers, n);
    // Options and the transformations of lib/tf/data/_tf_data_transforms.tfs;
    // experimental_X there is tf.data.experimental.X.
    Value options = importPreludeModule(in, "_tf_data_options");
    data->scope->vars["Options"] = in.getAttr(options, "Options");
    for (const char *n : {"AutoShardPolicy", "ExternalStatePolicy", "AutotuneOptions", "DistributeOptions",
                          "OptimizationOptions", "ThreadingOptions"})
      experimental->scope->vars[n] = in.getAttr(options, n);
    data->scope->vars["ThreadingOptions"] = in.getAttr(options, "ThreadingOptions");
    Value transforms = importPreludeModule(in, "_tf_data_transforms");
    data->scope->vars["DatasetSpec"] = in.getAttr(transforms, "DatasetSpec");
    experimental->scope->vars["DatasetSpec"] = in.getAttr(transforms, "DatasetSpec");
    for (const char *n : {"INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY"}) data->scope->vars[n] = in.getAttr(d, n);
    for (const char *n : {"group_by_window", "bucket_by_sequence_length", "scan", "take_while", "unique",
                          "enumerate_dataset", "cardinality", "get_single_element", "choose_from_datasets",
                          "sample_from_datasets", "Counter"})
      experimental->scope->vars[n] = in.getAttr(transforms, std::string("experimental_") + n);
    Value legacy = importPreludeModule(in, "_tf_data_experimental");
    for (const char *n : {"shuffle_and_repeat", "map_and_batch", "parallel_interleave", "assert_cardinality"})
      experimental->scope->vars[n] = in.getAttr(legacy, std::string("experimental_") + n);
    // Tables from datasets (lib/tf/lookup/), imported when first named.
    experimental->lazy = [](Interpreter &in, const std::string &n) -> std::optional<Value> {
      if (n == "DatasetInitializer") return in.getAttr(importPreludeModule(in, "_tf_lookup"), n);
      if (n == "table_from_dataset" || n == "index_table_from_dataset")
        return in.getAttr(importPreludeModule(in, "_tf_lookup_dataset"), n);
      return std::nullopt;
    };
    experimental->scope->vars["dense_to_ragged_batch"] =
        in.getAttr(importPreludeModule(in, "_tf_data_ragged"), "dense_to_ragged_batch");
    experimental->scope->vars["ignore_errors"] =
        in.getAttr(importPreludeModule(in, "_tf_data_errors"), "experimental_ignore_errors");
    Value saved = importPreludeModule(in, "_tf_data_saved");
    for (const char *n : {"save", "load"}) experimental->scope->vars[n] = in.getAttr(saved, std::string("experimental_") + n);
    for (const char *n : {"parse_example_dataset", "make_batched_features_dataset", "TFRecordWriter"})
      experimental->scope->vars[n] = in.getAttr(importPreludeModule(in, "_tf_io_records"), n);
    data->scope->vars["experimental"] = experimental;
    // TF1's iterators (tf.compat.v1.data.make_one_shot_iterator, ...;
    // lib/tf/data/_tf_data_v1_iterator.tfs).
    if (v1)
      data->lazy = [](Interpreter &in, const std::string &n) { return preludeApi(in, "_tf_data_v1_iterator", "v1_api", n); };
    return Value(data);
  }
  if (name == "compat") {
    auto compat = make<ModuleObject>("tensorflow.compat");
    compat->scope->vars["v1"] = in.importModule("tensorflow.compat.v1");
    compat->scope->vars["v2"] = in.importModule("tensorflow");
    return Value(compat);
  }
  // A name TF has that tfs lacks says "tf.<name> is not supported by tfs"
  // (lib/tf/public_names/tensorflow*.names, runtime/interp/public_names.h).
  return std::nullopt;
}

}  // namespace tfs::runtime::tf
