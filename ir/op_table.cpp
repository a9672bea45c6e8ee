// The op table built from ops.def, with each op's type rule attached from
// op_rules.cpp, and TF's op type names (the `[Op:AddV2]` in error messages).
#include "ir/op_rules.h"
#include "ir/op_table.h"

#include <array>
#include <string>
#include <unordered_map>

namespace tfs::ir {

namespace {
std::array<OpDef, size_t(OpKind::NumOps)> buildTable() {
  using namespace OpTrait;
  std::array<OpDef, size_t(OpKind::NumOps)> t{{
#define TFS_OP(Kind, name, minOps, maxOps, traits)                              \
  OpDef{OpKind::Kind, name, minOps, maxOps, uint32_t(traits), nullptr, false, -1, {}},
#include "ir/ops.def"
#undef TFS_OP
  }};
#define TFS_SHAPE_ARGS(Kind, data, ...)                                         \
  t[size_t(OpKind::Kind)].dataOperands = data;                                  \
  t[size_t(OpKind::Kind)].shapeArgs = {__VA_ARGS__};
#include "ir/ops.def"
  for (OpDef &d : t) {
    d.inferTypes = typeRuleFor(d.kind);
    d.notDifferentiable = isNotDifferentiable(d.kind);
  }
  return t;
}

std::array<OpDef, size_t(OpKind::NumOps)> &table() {
  static std::array<OpDef, size_t(OpKind::NumOps)> t = buildTable();
  return t;
}
}  // namespace

const OpDef &opDef(OpKind kind) { return table()[size_t(kind)]; }
OpDef &mutableOpDef(OpKind kind) { return table()[size_t(kind)]; }

const OpDef *lookupOp(std::string_view name) {
  static const std::unordered_map<std::string, OpKind> byName = [] {
    std::unordered_map<std::string, OpKind> m;
    for (const OpDef &d : table()) m.emplace(d.name, d.kind);
    return m;
  }();
  auto it = byName.find(std::string(name));
  return it == byName.end() ? nullptr : &opDef(it->second);
}

}  // namespace tfs::ir
