// Declarations shared by the library's tf and numpy bindings (lib/tf,
// lib/numpy). The engine's door is runtime/tf/tf.h; this header is above it.
#pragma once

#include "runtime/interp/signature.h"
#include "runtime/tf/tf.h"

namespace tfs::runtime::tf {

// Modules.
void registerTfModules();
// `_tf_train_native`: checkpoint files and variable access for tf.train (train/checkpoint_file.cpp).
void registerTrainModules();
// `_tf_data_native`: tf.data's shuffle buffer loop (data/data_native.cpp).
void registerDataModules();
Value makeTfModule(Interpreter &in, bool v1);
Value makeNumpyModule(Interpreter &in);
void installOps(Interpreter &in, ModuleObject &tf, ModuleObject &math, ModuleObject &nn, ModuleObject &linalg);
// Indexing, scan and sorting ops (index_bindings.cpp): cumsum, cumprod,
// reverse, unsorted_segment_sum, pad, tf.raw_ops.TopKV2.
void installIndexOps(Interpreter &in, ModuleObject &tf, ModuleObject &math);
// Inverse trigonometric/hyperbolic functions, atan2, truncatediv,
// truncatemod (math_extra_bindings.cpp).
void installMathExtraOps(Interpreter &in, ModuleObject &tf, ModuleObject &math);
// tf.raw_ops of the matrix and index-tuple ops (linalg/raw_ops.cpp); the
// public tf.linalg / tf.gather_nd / ... functions are .tfs on top of them.
void installLinalgRawOps(Interpreter &in, ModuleObject &tf);
// tf.raw_ops FFT ... IRFFT3D, Lu and MaxPoolWithArgmax (signal/raw_ops.cpp).
void installSpectralRawOps(Interpreter &in, ModuleObject &tf);
// A function of module `m` bound through its signature text (its name is
// the signature's).
void defSig(Interpreter &in, ModuleObject &m, std::string_view signature, SignedFn fn);
// tf.nn's convolution and pooling functions (nn_bindings.cpp).
void installNnWindowOps(Interpreter &in, ModuleObject &nn);
// tf.io.read_file / write_file (io_bindings.cpp).
void installIo(Interpreter &in, ModuleObject &tf);
// tf.random.stateless_uniform / stateless_normal (random/stateless_random.cpp).
void installStatelessRandom(Interpreter &in, ModuleObject &random);
// tf.random.truncated_normal, shuffle, categorical, gamma, poisson and their
// stateless forms (random/random_bindings.cpp); tf.timestamp.
void installRandomDraws(Interpreter &in, ModuleObject &tf, ModuleObject &random);
// tf.strings (strings/strings_bindings.cpp, strings/_tf_strings.tfs).
void installStrings(Interpreter &in, ModuleObject &strings);
// tf.strings.to_hash_bucket_fast / _strong / to_hash_bucket, tf.fingerprint
// and their raw ops; the tf.compat.v1.string_to_hash_bucket* names
// (strings/hash_bindings.cpp).
void installStringHashes(Interpreter &in, ModuleObject &tf, ModuleObject &strings);
void installStringHashesV1(Interpreter &in, ModuleObject &v1);
// tf.raw_ops of the image colour ops, DecodeRaw / DecodePaddedRaw and
// tf.io.decode_raw (image/image_bindings.cpp).
void installImageOps(Interpreter &in, ModuleObject &tf);
void installAudioOps(Interpreter &in, ModuleObject &tf);  // audio/audio_bindings.cpp: raw_ops.DecodeWav / EncodeWav
// tf.TensorSpec (tensor_spec.cpp).
void installTensorSpec(Interpreter &in, ModuleObject &tf);
// tf.py_function / tf.numpy_function (py_function.cpp).
void installPyFunction(Interpreter &in, ModuleObject &tf);
// tf.bitwise and tf.bitcast (bitwise_bindings.cpp).
void installBitwise(Interpreter &in, ModuleObject &tf);
// The seed pair of a stateful random op (tf.random.set_seed semantics) and
// of a stateless one (its `seed` argument, shape [2]).
std::pair<int64_t, int64_t> seeds(Interpreter &in, const Value &opSeed);
// tf.random.set_seed (random/random_seed.cpp): the global seed (None
// unsets it), the eager op-seed sequence and the eager kernels' streams.
void setGlobalSeed(Interpreter &in, const Value &seed);
// tf.map_fn / scan / foldl / foldr call their function once per element
// where TF stages it once in a while_loop body: between enter and exit, a
// stateful random op made in a graph is refused (its draws would differ).
void enterUnrolledLoop(Interpreter &in, std::string what);
void exitUnrolledLoop(Interpreter &in);
// A stateful random op (attrs without the seeds) seeded as TF seeds it:
// eagerly it continues the stream of earlier calls with the same seeds.
// One tf.random.Generator draw (kind "normal", "truncated_normal" or
// "uniform"; a, b = mean, stddev or minval, maxval, None for full-range
// integers) from a Philox state [counter lo, counter hi, key]: (the draws,
// the state after them).
Value generatorDraw(Interpreter &in, const std::string &kind, const Value &shape, const Value &state, ir::DType d,
                    const Value &a, const Value &b);
// Words start .. start + count - 1 of TF's Philox(seed, seed2) stream, one
// uint32 at a time (tf.data's shuffle and seed generators draw these).
Value philoxWords(Interpreter &in, int64_t seed, int64_t seed2, int64_t start, int64_t count);
// `count` Philox blocks (4 words each) of a stateless seed pair (rng 1: a, b)
// or a Generator state (rng 2: a, b, c), `skip` blocks on (TF's binomial
// kernels draw per output from such a copy).
Value philoxBlocks(Interpreter &in, int64_t rng, int64_t a, int64_t b, int64_t c, int64_t skip, int64_t count);
Ref<TensorObject> statefulRandomOp(Interpreter &in, ir::OpKind kind, std::vector<Ref<TensorObject>> xs,
                                   ir::Attrs attrs, const Value &opSeed, const char *name);
std::pair<int64_t, int64_t> statelessSeedPair(Interpreter &in, const Value &seed);
// tf.errors: OpError and its subclasses (errors.cpp).
void installErrors(Interpreter &in, ModuleObject &errors);
void installComplexOps(Interpreter &in, ModuleObject &tf, ModuleObject &math);
// TF's dispatch of elementwise math, reductions, concat and stack for
// composite tensors such as tf.RaggedTensor (composite_dispatch.cpp); run
// after the modules' native functions are installed.
void installCompositeDispatch(Interpreter &in, ModuleObject &tf, ModuleObject &math, ModuleObject &nn,
                              ModuleObject &strings);
// Keras's dispatch of tf.* functions called with KerasTensors (TFOpLambda
// layers; composite_dispatch.cpp); run once the tf module is complete.
void installKerasDispatch(Interpreter &in, ModuleObject &tf);
void installCompatV1(Interpreter &in, ModuleObject &v1, ModuleObject &tf);
void installSavedModel(Interpreter &in, ModuleObject &tf);
// tf.experimental.numpy (numpy/tf_numpy_module.cpp, numpy/_tf_numpy.tfs).
void installTfNumpy(Interpreter &in, ModuleObject &tf);
// numpy.random (numpy_random.cpp): numpy's legacy generator, draw for draw.
void installNumpyRandom(Interpreter &in, ModuleObject &random);

// Imports a .tfs module for a lazily resolved attribute, keeping the script
// position; a function of the composite API tables of _tf_math.tfs.
Value importPreludeModule(Interpreter &in, const std::string &name);
std::optional<Value> compositeApi(Interpreter &in, const char *table, const std::string &name);
// tensorflow (and compat.v1, when v1) attributes made on first use (tf_module_lazy.cpp).
std::optional<Value> tfModuleLazyAttr(Interpreter &in, const std::string &name, bool v1);
std::optional<Value> preludeApi(Interpreter &in, const char *module, const char *table, const std::string &name);
// tf.train's names written in .tfs (ClusterSpec), for tf.train and tf.compat.v1.train.
std::optional<Value> trainApi(Interpreter &in, const std::string &name);

// tf.print(*inputs, output_stream, summarize, sep, end, name) and
// tf.debugging.Assert (tf_print.cpp).
void tfPrint(Interpreter &in, const Bound &b);
Value tfAssert(Interpreter &in, Args a, const Kwargs &kw);

// tf.Variable(...) (and v1 get_variable): a new variable from an initial value.
Value makeVariable(Interpreter &in, const Value &init, std::optional<DType> dtype, const std::string &name,
                   bool trainable, bool v1);
// tf.Graph() (compat_v1.cpp).
Value newGraph();

}  // namespace tfs::runtime::tf
