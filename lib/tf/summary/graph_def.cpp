#include "lib/tf/summary/graph_def.h"

#include "ir/op_table.h"
#include "lib/tf/summary/summary_values.h"
#include "runtime/graph/dense_convert.h"

#include <fmt/format.h>
#include <map>
#include <set>
#include <variant>

namespace tfs::lib::summary {
namespace {

void setShape(const ir::Shape &s, tensorflow::TensorShapeProto &out) {
  if (!s.ranked) {
    out.set_unknown_rank(true);
    return;
  }
  for (int64_t d : s.dims) out.add_dim()->set_size(d);
}

tensorflow::DataType dataType(ir::DType d) { return tensorflow::DataType(ir::dtypeEnumValue(d)); }

void setAttr(const ir::AttrValue &v, tensorflow::AttrValue &out) {
  std::visit(
      [&](const auto &x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) out.set_b(x);
        else if constexpr (std::is_same_v<T, int64_t>) out.set_i(x);
        else if constexpr (std::is_same_v<T, double>) out.set_f(float(x));
        else if constexpr (std::is_same_v<T, std::string>) out.set_s(x);
        else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          for (int64_t i : x) out.mutable_list()->add_i(i);
        } else if constexpr (std::is_same_v<T, ir::DType>) out.set_type(dataType(x));
        else setShape(x, *out.mutable_shape());
      },
      v);
}

class GraphDefBuilder {
public:
  GraphDefBuilder(const ValueNamer &nameOf, std::map<const ir::Node *, std::string> *nodeNames,
                  std::set<std::string> *argumentNames, std::set<std::string> *captureNames)
      : nameOf_(nameOf), nodeNames_(nodeNames), argumentNames_(argumentNames), captureNames_(captureNames) {}

  tensorflow::GraphDef build(const ir::Function &fn) {
    // The names tracing gave the top-level nodes are theirs: a generated
    // name ("Const" for an unnamed constant) must not take one of them.
    for (const auto &node : fn.body().nodes())
      if (std::string name = tracedName(*node); !name.empty()) reserved_.insert(name);
    for (const ir::Value *p : fn.params()) {
      addArgument(*p, "");
      if (argumentNames_) argumentNames_->insert(names_[p]);
    }
    for (const ir::Capture &c : fn.captures()) {
      ir::TensorType type = c.type;
      auto *n = newNode(unique(c.name), "Placeholder");
      setType(*n, "dtype", c.kind == ir::Capture::Kind::Variable ? tensorflow::DT_RESOURCE : dataType(type.dtype));
      setShape(type.shape, *(*n->mutable_attr())["shape"].mutable_shape());
      if (c.value) names_[c.value] = n->name();
      if (captureNames_) captureNames_->insert(n->name());
      variables_[c.name] = n->name();
    }
    addRegion(fn.body(), "");
    graph_.mutable_versions()->set_producer(1645);  // TF 2.15's GraphDef version
    return std::move(graph_);
  }

private:
  tensorflow::NodeDef *newNode(const std::string &name, const std::string &op) {
    auto *n = graph_.add_node();
    n->set_name(name);
    n->set_op(op);
    return n;
  }

  static void setType(tensorflow::NodeDef &n, const char *attr, tensorflow::DataType t) {
    (*n.mutable_attr())[attr].set_type(t);
  }

  std::string unique(const std::string &base) {
    std::string name = base.empty() ? "node" : base;
    for (int i = 1; reserved_.count(name) || !used_.insert(name).second; ++i) name = fmt::format("{}_{}", base, i);
    return name;
  }

  // The name tracing gave the node's first result, without ":0" ("" if none).
  std::string tracedName(const ir::Node &node) {
    std::string name;
    if (node.numResults() > 0) name = nameOf_(node.result(0));
    if (size_t colon = name.rfind(':'); colon != std::string::npos) name = name.substr(0, colon);
    return name;
  }

  void addArgument(const ir::Value &v, const std::string &prefix) {
    std::string base = v.name.empty() ? fmt::format("arg{}", v.index()) : v.name;
    auto *n = newNode(unique(prefix + base), "Placeholder");
    setType(*n, "dtype", dataType(v.type.dtype));
    setShape(v.type.shape, *(*n->mutable_attr())["shape"].mutable_shape());
    names_[&v] = n->name();
  }

  std::string inputName(const ir::Value *v) {
    auto it = names_.find(v);
    if (it == names_.end()) return "unknown";
    if (v->kind() == ir::Value::Kind::Result && v->index() > 0) return fmt::format("{}:{}", it->second, v->index());
    return it->second;
  }

  // A node's name: the one tracing gave its first result (without ":0"),
  // else its TF op type.
  std::string baseName(const ir::Node &node, const std::string &prefix) {
    std::string name;
    if (node.numResults() > 0) name = nameOf_(node.result(0));
    if (size_t colon = name.rfind(':'); colon != std::string::npos) name = name.substr(0, colon);
    if (name.empty()) name = ir::tfOpType(node.kind());
    return prefix + name;
  }

  void addRegion(const ir::Region &region, const std::string &prefix) {
    for (const auto &owned : region.nodes()) {
      const ir::Node &node = *owned;
      if (node.kind() == ir::OpKind::Yield) continue;
      if (node.kind() == ir::OpKind::Return) {
        for (const ir::Value *v : node.operands()) {
          auto *n = newNode(unique(prefix + "Identity"), "Identity");
          n->add_input(inputName(v));
          setType(*n, "T", dataType(v->type.dtype));
        }
        continue;
      }
      std::string traced = prefix.empty() ? tracedName(node) : "";
      if (!traced.empty()) used_.insert(traced);
      auto *n = newNode(traced.empty() ? unique(baseName(node, prefix)) : traced, ir::tfOpType(node.kind()));
      for (const ir::Value *v : node.operands()) n->add_input(inputName(v));
      auto &attrs = *n->mutable_attr();
      for (const auto &[key, value] : node.attrs) setAttr(value, attrs[key]);
      if (auto var = node.attrs.find(ir::kVarAttr); var != node.attrs.end())
        if (auto it = variables_.find(ir::attrString(node.attrs, ir::kVarAttr, "")); it != variables_.end())
          n->add_input(it->second);
      if (node.kind() == ir::OpKind::Const && node.constValue) {
        runtime::Tensor t = runtime::tensorFromDense(*node.constValue);
        setType(*n, "dtype", dataType(t.dtype()));
        toTensorProto(t, *attrs["value"].mutable_tensor());
      } else if (node.numResults() > 0) {
        setType(*n, "T", dataType(node.result(0)->type.dtype));
      }
      if (node.numResults() > 0) {
        auto *shapes = attrs["_output_shapes"].mutable_list();
        for (const ir::Value *r : node.results()) setShape(r->type.shape, *shapes->add_shape());
      }
      for (const ir::Value *r : node.results()) names_[r] = n->name();
      if (nodeNames_) (*nodeNames_)[&node] = n->name();
      std::string inner = n->name() + "/";
      const char *regionNames[2] = {node.kind() == ir::OpKind::WhileLoop ? "cond" : "then",
                                    node.kind() == ir::OpKind::WhileLoop ? "body" : "else"};
      for (size_t i = 0; i < node.numRegions(); ++i) {
        std::string regionPrefix = inner + (i < 2 ? regionNames[i] : std::to_string(i)) + "/";
        for (const ir::Value *a : node.region(unsigned(i)).args()) addArgument(*a, regionPrefix);
        addRegion(node.region(unsigned(i)), regionPrefix);
      }
    }
  }

  const ValueNamer &nameOf_;
  std::map<const ir::Node *, std::string> *nodeNames_;
  std::set<std::string> *argumentNames_, *captureNames_;
  tensorflow::GraphDef graph_;
  std::map<const ir::Value *, std::string> names_;
  std::map<std::string, std::string> variables_;  // capture name -> its Placeholder
  std::set<std::string> used_, reserved_;
};

}  // namespace

tensorflow::GraphDef graphDefOf(const ir::Function &fn, const ValueNamer &nameOf,
                                std::map<const ir::Node *, std::string> *nodeNames,
                                std::set<std::string> *argumentNames, std::set<std::string> *captureNames) {
  return GraphDefBuilder(nameOf, nodeNames, argumentNames, captureNames).build(fn);
}

}  // namespace tfs::lib::summary
