// GraphScope: see graph_scope.h.
#include "runtime/tf/graph_scope.h"

#include <cctype>
#include <fmt/format.h>

namespace tfs::runtime::tf {

GraphScope::GraphScope(Kind kind, std::string functionName)
    : kind_(kind), module_(std::make_shared<ir::Module>()) {
  function_ = module_->addFunction(std::move(functionName));
  builders_.emplace_back(function_->body());
}

std::string GraphScope::uniqueName(const std::string &base) {
  // TF's Graph.unique_name: "name", then "name_1", "name_2", ...; names
  // are compared case-insensitively ("Add" after "add" is "Add_1"), a
  // generated name must not collide with one given explicitly, and op names
  // and name scopes share one table.
  std::string key = base;
  for (char &ch : key) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  int &count = nameCounts_[key];
  int i = count++;
  if (i == 0) return base;
  std::string candidate = fmt::format("{}_{}", key, i);
  while (nameCounts_.count(candidate)) candidate = fmt::format("{}_{}", key, ++i);
  nameCounts_[candidate] = 1;
  return fmt::format("{}_{}", base, i);
}

const std::string &GraphScope::nameOf(const ir::Value *v) const {
  static const std::string empty;
  auto it = names_.find(v);
  return it == names_.end() ? empty : it->second;
}

ir::Value *GraphScope::findTensorCapture(const void *key) const {
  auto it = tensorCaptures_.find(key);
  return it == tensorCaptures_.end() ? nullptr : it->second;
}

ir::Value *GraphScope::addTensorCapture(const void *key, const std::string &hint,
                                        ir::TensorType type,
                                        std::shared_ptr<void> handle) {
  ir::Value *v = function_->addTensorCapture(hint, std::move(type), std::move(handle));
  tensorCaptures_[key] = v;
  return v;
}

const std::string *GraphScope::findVariableCapture(const void *key) const {
  auto it = variableCaptures_.find(key);
  return it == variableCaptures_.end() ? nullptr : &it->second;
}

Object *GraphScope::variableOfCapture(const std::string &name) const {
  for (const auto &[key, n] : variableCaptures_)
    if (n == name) return static_cast<Object *>(const_cast<void *>(key));
  return nullptr;
}

const std::string &GraphScope::addVariableCapture(Object *variable, const std::string &hint,
                                                  ir::TensorType type,
                                                  std::shared_ptr<void> handle) {
  const std::string &name =
      function_->addVariableCapture(hint, std::move(type), std::move(handle));
  variableOrder_.push_back(Ref<Object>(variable));
  return variableCaptures_[variable] = name;
}

}  // namespace tfs::runtime::tf
