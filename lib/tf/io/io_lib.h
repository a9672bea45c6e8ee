// Private declarations of lib/tf/io (tf.io, tf.io.gfile, TFRecord files):
// path arguments and file errors as TensorFlow's file system reports them.
#pragma once

#include "lib/tf/tf_lib.h"

#include <google/protobuf/message.h>
#include <optional>
#include <string>
#include <vector>

namespace tfs::runtime::tf::io {

// A path argument: str, bytes or an os.PathLike (its __fspath__()).
std::string pathArg(Interpreter &in, const Value &v);
// TF's IOError: "<path>; <strerror>" as NotFoundError (ENOENT),
// PermissionDeniedError, FailedPreconditionError (EISDIR / ENOTDIR),
// AlreadyExistsError (EEXIST), ResourceExhaustedError (ENOSPC) or
// UnknownError.
[[noreturn]] void raiseFileError(Interpreter &in, const std::string &path, int err);
// The whole file, or TF's file error.
std::string readFileOrRaise(Interpreter &in, const std::string &path);
// Writes `data` atomically (a temporary sibling renamed over `path`), or
// raises TF's file error; refused when the run disallows file writes.
void writeFileOrRaise(Interpreter &in, const std::string &path, const std::string &data);

// The paths matching a glob pattern as TF's GetMatchingPaths finds them
// ('*' and '?' never match '/'; hidden files match), sorted.
std::vector<std::string> globFiles(const std::string &pattern);
// Creates `path` and its missing parents (gfile.makedirs).
void makeDirsOrRaise(Interpreter &in, const std::string &path);

// tf.io.gfile (gfile.cpp).
void installGfile(Interpreter &in, ModuleObject &io);
// tf.io.TFRecordWriter (tfrecord_io.cpp).
void installTFRecordWriter(Interpreter &in, ModuleObject &io);
// A message as Python's protobuf prints it (text_format.MessageToString:
// map entries by key, floats as their shortest float32 text).
std::string pythonTextFormat(const google::protobuf::Message &m);
// tf.train's protocol buffer classes (Example, Features, Feature,
// BytesList, FloatList, Int64List, ...; proto_message.cpp).
std::optional<Value> exampleProtoClass(Interpreter &in, const std::string &name);
// One variable-length feature of serialized Examples / SequenceExamples
// (example_ragged.cpp): key, dtype (float32 / int64 / string); sequence:
// SequenceExample.feature_lists rather than Example.features (or a
// SequenceExample's context); shape: a FixedLenSequenceFeature's (its
// value counts must be a multiple of its size, exactly it per step of a
// sequence), with its size in stride; required: an absent feature list
// fails; op: the TF op type errors name.
struct RaggedParse {
  std::string key, op;
  ir::DType dtype = ir::DType::Float32;
  bool sequence = false, required = false;
  std::optional<std::vector<int64_t>> shape;
  int64_t stride = 1;
};
// (values [?], lengths int64 [?]: values per feature, one per example or
// per step of every example's list; rows int64 [n]: features per example,
// 1 present / 0 absent, or the steps) for the n serialized protos (a scalar
// is one). Throws ir::OpError with TF's InvalidArgumentError messages.
std::vector<Tensor> parseExampleRagged(const Tensor &serialized, const RaggedParse &c);

// TF's TensorProto bytes of a tensor (SerializeTensor) and back (ParseTensor:
// `want` must be the proto's dtype); tensor_proto.cpp. Throw ir::OpError
// with TF's messages.
std::string serializeTensorProto(const Tensor &t);
Tensor parseTensorProto(const std::string &serialized, ir::DType want);

// The native module _tf_io_internal (io_internal.cpp).
void registerIoInternal();

}  // namespace tfs::runtime::tf::io
