// tf.raw_ops.DecodeWav / EncodeWav: TF's WAV codec ops (kernels in
// runtime/kernels/audio_wav.cpp), so decoding runs eagerly, in a
// tf.function and in tf.data pipelines. tf.audio's functions
// (lib/tf/audio/_tf_audio.tfs) call these and name the results as TF does.
#include "lib/tf/tf_lib.h"
#include "runtime/interp/signature.h"

#include <fmt/format.h>

namespace tfs::runtime::tf {

using ir::OpKind;

namespace {

std::string nameOr(Interpreter &in, const Value &v, const char *dflt) { return v.isNone() ? dflt : in.str(v); }

int64_t intAttr(Interpreter &in, const Value &v, const char *attr) {
  if (!v.isInt() && !v.as<TensorObject>())
    in.raise("TypeError", fmt::format("Expected int for argument '{}' not {}.", attr, in.repr(v)));
  return in.toInt(v);
}

}  // namespace

void installAudioOps(Interpreter &in, ModuleObject &tf) {
  ModuleObject &raw = *submodule(in, tf, "raw_ops");
  defSig(in, raw, "DecodeWav(*, contents, desired_channels=-1, desired_samples=-1, name=None)",
         [](Interpreter &in, const Bound &a) {
           ir::Attrs attrs{{"desired_channels", intAttr(in, a["desired_channels"], "desired_channels")},
                           {"desired_samples", intAttr(in, a["desired_samples"], "desired_samples")}};
           auto outs = callOp(in, OpKind::DecodeWav, {toTensor(in, a["contents"], DType::String)}, attrs,
                              nameOr(in, a["name"], "DecodeWav"));
           return in.tuple({Value(outs[0]), Value(outs[1])});
         });
  defSig(in, raw, "EncodeWav(*, audio, sample_rate, name=None)", [](Interpreter &in, const Bound &a) {
    return Value(callOp1(in, OpKind::EncodeWav,
                         {toTensor(in, a["audio"], DType::Float32), toTensor(in, a["sample_rate"], DType::Int32)}, {},
                         nameOr(in, a["name"], "EncodeWav")));
  });
}

}  // namespace tfs::runtime::tf
