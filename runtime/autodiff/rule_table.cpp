// The gradient registry: OpKind -> rule, built on first use from the
// rules_*.cpp tables (no static registration objects), plus the list of ops
// whose gradient is identically zero/undefined (TF's NotDifferentiable).
#include "runtime/autodiff/grad_builder.h"

#include <array>
#include <mutex>

namespace tfs::runtime {
namespace {

using ir::OpKind;
constexpr size_t kNumOps = static_cast<size_t>(OpKind::NumOps);

// Ops with no gradient by definition: predicates, integer-valued results,
// random and creation ops, strings, state updates, printing.
constexpr OpKind kNotDifferentiable[] = {
    OpKind::Const,        OpKind::Placeholder,   OpKind::ReadVariable,
    OpKind::AssignVariable, OpKind::AssignAddVariable, OpKind::AssignSubVariable,
    OpKind::Print,        OpKind::FloorDiv,      OpKind::Equal,   OpKind::TruncateDiv,
    OpKind::NotEqual,     OpKind::Less,          OpKind::LessEqual,
    OpKind::Greater,      OpKind::GreaterEqual,  OpKind::LogicalAnd,
    OpKind::LogicalOr,    OpKind::LogicalNot,    OpKind::ZerosLike,
    OpKind::OnesLike,     OpKind::ReduceAny,     OpKind::ReduceAll,
    OpKind::ArgMax,       OpKind::ArgMin,        OpKind::ShapeOf,
    OpKind::SizeOf,       OpKind::OneHot,        OpKind::Range,
    OpKind::Linspace,     OpKind::RandomNormal,  OpKind::RandomUniform,
    OpKind::StringJoin,   OpKind::AsString,      OpKind::Assert,
    OpKind::WhereIndices, OpKind::RandomTruncatedNormal, OpKind::Multinomial,
    OpKind::RandomPoisson, OpKind::Timestamp, OpKind::StringUpper, OpKind::StringLower,
    OpKind::StringStrip, OpKind::StringLength, OpKind::StringToNumber, OpKind::Substr,
    OpKind::ReduceJoin, OpKind::StringFormat, OpKind::RegexFullMatch, OpKind::RegexReplace,
    OpKind::StringToHashBucketFast, OpKind::StringToHashBucketStrong, OpKind::StringToHashBucket, OpKind::Fingerprint,
    OpKind::TensorArrayWriteGrad, OpKind::TensorArrayRowOrZeros, OpKind::TensorArrayUndoWrite,
    OpKind::ReadFile, OpKind::DecodeCsv, OpKind::ParseExampleDense, OpKind::DecodeRaw,
    OpKind::DecodePng, OpKind::DecodeJpeg, OpKind::DecodeGif, OpKind::DecodeBmp, OpKind::DecodeImage,
    OpKind::EncodePng, OpKind::EncodeJpeg, OpKind::ExtractJpegShape, OpKind::WriteFile,
    OpKind::DecodeWav, OpKind::EncodeWav,
    OpKind::WriteSummary,
    OpKind::CollectiveAllReduce,
    OpKind::BitwiseAnd, OpKind::BitwiseOr, OpKind::BitwiseXor, OpKind::LeftShift, OpKind::RightShift,
    OpKind::Invert, OpKind::Bitcast,
};

// Differentiated structurally by graph gradients (graph_gradients.cpp).
constexpr OpKind kGraphStructural[] = {OpKind::Cond, OpKind::WhileLoop, OpKind::Call};

struct Registry {
  std::array<GradRule, kNumOps> rules{};
  std::array<bool, kNumOps> notDifferentiable{};
};

const Registry &registry() {
  static const Registry reg = [] {
    Registry r;
    for (auto table : {autodiff_detail::mathRules(), autodiff_detail::arrayRules(),
                       autodiff_detail::nnRules(), autodiff_detail::windowRules(),
                       autodiff_detail::indexRules(), autodiff_detail::linalgRules(),
                       autodiff_detail::scatterRules(), autodiff_detail::specialRules(),
                       autodiff_detail::spectralRules(), autodiff_detail::imageRules()})
      for (const auto &e : table)
        r.rules[static_cast<size_t>(e.kind)] = e.rule;
    for (OpKind k : kNotDifferentiable)
      r.notDifferentiable[static_cast<size_t>(k)] = true;
    return r;
  }();
  return reg;
}

}  // namespace

GradRule gradRuleFor(OpKind kind) {
  return registry().rules[static_cast<size_t>(kind)];
}

bool hasGradient(OpKind kind) {
  if (gradRuleFor(kind))
    return true;
  for (OpKind k : kGraphStructural)
    if (k == kind)
      return true;
  return false;
}

bool isNotDifferentiable(OpKind kind) {
  return registry().notDifferentiable[static_cast<size_t>(kind)] ||
         ir::opDef(kind).notDifferentiable;
}

void registerGradientTraits() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (OpKind k : kNotDifferentiable)
      ir::mutableOpDef(k).notDifferentiable = true;
  });
}

}  // namespace tfs::runtime
