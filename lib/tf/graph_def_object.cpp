// Graph.as_graph_def(): the graph as TF's GraphDef protocol buffer. Prints
// as Python's protobuf prints it (text_format); `node` lists NodeDefs
// (name, op, input, device), and the message serializes
// (SerializeToString, ByteSize). Operation.__str__ prints its NodeDef.
//
// The NodeDefs carry the attributes TF 2.15 gives them (node_def_attrs.h)
// where tfs reproduces them: constants, placeholders, elementwise math,
// comparisons, casts. A graph holding other ops (control flow, calls,
// captured variables, ops whose axis or shape operand tfs keeps as an
// attribute) still lists its nodes, but printing it is refused by name
// rather than showing a GraphDef TF would not print.
#include "lib/tf/graph_def_object.h"

#include "lib/tf/io/io_lib.h"
#include "lib/tf/node_def_attrs.h"
#include "lib/tf/summary/graph_def.h"
#include "runtime/tf/function_nested.h"

#include <fmt/format.h>
#include <map>
#include <set>

namespace tfs::runtime::tf {

namespace {

// The message's text, or NotImplementedError naming the first op whose
// NodeDef tfs does not reproduce ("" when all are).
std::string textOf(Interpreter &in, const google::protobuf::Message &m, const std::string &unreproduced) {
  if (!unreproduced.empty())
    in.raise("NotImplementedError",
             fmt::format("printing a GraphDef or NodeDef holding op '{}' is not supported by tfs: its NodeDef "
                         "differs from TensorFlow's",
                         unreproduced));
  return io::pythonTextFormat(m);
}

Value serializeMethods(Interpreter &in, const std::string &name, const google::protobuf::Message &m) {
  if (name == "SerializeToString") {
    std::string bytes = m.SerializeAsString();
    return in.native(name, [bytes](Interpreter &, Args, const Kwargs &) -> Value { return make<BytesObject>(bytes); });
  }
  int64_t size = int64_t(m.ByteSizeLong());
  return in.native(name, [size](Interpreter &, Args, const Kwargs &) { return Value::integer(size); });
}

// A name tfs made up for a node tracing left unnamed (TF's differs).
[[noreturn]] void raiseGeneratedName(Interpreter &in, const std::string &op) {
  in.raise("NotImplementedError",
           fmt::format("the NodeDef name of a '{}' node tracing left unnamed is not supported by tfs: TensorFlow "
                       "names a constant after the op converting it (\"add/y\") and captures an eager tensor",
                       op));
}

struct NodeDefObject final : Object {
  tensorflow::NodeDef node;
  std::string unreproduced;  // its op type when tfs does not reproduce TF's NodeDef
  bool generatedName = false, generatedInput = false;
  NodeDefObject(tensorflow::NodeDef n, std::string why) : node(std::move(n)), unreproduced(std::move(why)) {}
  const char *typeName() const override { return "NodeDef"; }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override {
    if (name == "name") {
      if (generatedName) raiseGeneratedName(in, node.op());
      return in.str(node.name());
    }
    if (name == "op") return in.str(node.op());
    if (name == "device") return in.str(node.device());
    if (name == "input") {
      if (generatedInput) raiseGeneratedName(in, "Const");
      std::vector<Value> inputs;
      for (const auto &i : node.input()) inputs.push_back(in.str(i));
      return in.list(inputs);
    }
    if (name == "SerializeToString" || name == "ByteSize") return serializeMethods(in, name, node);
    return std::nullopt;
  }
  std::optional<std::string> str(Interpreter &in) override { return textOf(in, node, unreproduced); }
  std::optional<std::string> repr(Interpreter &in) override { return textOf(in, node, unreproduced); }
};

struct GraphDefObject final : Object {
  tensorflow::GraphDef graph;
  std::map<std::string, std::string> unreproduced;  // node name -> op type
  std::set<std::string> generated;                   // names tfs made up
  std::string controlFlow;                           // the op type of a cond / while_loop node, if any
  std::string nestedCall;                            // a tf.function whose trace was copied in, if any
  void refuseNestedCall(Interpreter &in) const {
    if (!nestedCall.empty())
      in.raise("NotImplementedError",
               fmt::format("the GraphDef of a graph calling tf.function '{}' is not supported by tfs: TensorFlow "
                           "shows the call as one StatefulPartitionedCall node and the callee as a function of the "
                           "graph's library (__inference_{}_<uid>, numbered with a process-wide counter), where tfs "
                           "copies the callee's nodes into the caller's graph",
                           nestedCall, nestedCall));
  }
  explicit GraphDefObject(tensorflow::GraphDef g) : graph(std::move(g)) {}
  std::string why(const std::string &node) const {
    auto it = unreproduced.find(node);
    return it == unreproduced.end() ? "" : it->second;
  }
  const char *typeName() const override { return "GraphDef"; }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override {
    if (name == "node") {
      refuseNestedCall(in);
      if (!controlFlow.empty())
        in.raise("NotImplementedError",
                 fmt::format("the nodes of a graph with control flow ('{}') are not supported by tfs: TensorFlow "
                             "keeps branches and loop bodies as functions of the graph's library (and a loop over "
                             "a dataset as a ReduceDataset node)",
                             controlFlow));
      std::vector<Value> nodes;
      for (const auto &n : graph.node()) {
        auto d = make<NodeDefObject>(n, why(n.name()));
        d->generatedName = generated.count(n.name()) > 0;
        for (const std::string &i : n.input())
          d->generatedInput |= generated.count(i.substr(i[0] == '^' ? 1 : 0, i.rfind(':'))) > 0;
        nodes.push_back(Value(d));
      }
      return in.list(nodes);
    }
    if (name == "SerializeToString" || name == "ByteSize") return serializeMethods(in, name, graph);
    return std::nullopt;
  }
  std::string firstUnreproduced() const {
    for (const auto &n : graph.node())
      if (auto it = unreproduced.find(n.name()); it != unreproduced.end()) return it->second;
    return "";
  }
  std::string text(Interpreter &in) const {
    refuseNestedCall(in);
    if (!controlFlow.empty())
      in.raise("NotImplementedError",
               "printing the GraphDef of a graph with control flow (tf.cond / tf.while_loop, as AutoGraph makes "
               "from a Python if / for / while on tensors) is not supported by tfs: TensorFlow keeps branches and "
               "loop bodies as functions of the graph's library, named with a process-wide counter (cond_true_123, "
               "while_body_124)");
    return textOf(in, graph, firstUnreproduced());
  }
  std::optional<std::string> str(Interpreter &in) override { return text(in); }
  std::optional<std::string> repr(Interpreter &in) override { return text(in); }
};

// The GraphDef of `g` with TF's attributes, and the nodes whose NodeDef
// tfs does not reproduce.
Ref<GraphDefObject> tfGraphDef(GraphScope &g, bool addShapes) {
  std::map<const ir::Node *, std::string> nodeNames;
  std::set<std::string> arguments, captures;
  tensorflow::GraphDef def = lib::summary::graphDefOf(
      g.function(), [&](const ir::Value *v) { return g.nameOf(v); }, &nodeNames, &arguments, &captures);
  std::map<std::string, const ir::Node *> byName;
  for (const auto &[node, name] : nodeNames) byName[name] = node;
  auto out = make<GraphDefObject>(tensorflow::GraphDef());
  bool function = g.kind() == GraphScope::Kind::Function;
  tensorflow::GraphDef kept;
  *kept.mutable_versions() = def.versions();
  for (tensorflow::NodeDef &n : *def.mutable_node()) {
    // TF keeps a cond branch's or loop body's nodes in functions of the
    // library, not among the graph's nodes; the If / While node stands
    // for them (and is not reproduced).
    auto ir = byName.find(n.name());
    if (ir != byName.end() ? ir->second->parentRegion() != &g.function().body()
                           : n.op() == "Placeholder" && !arguments.count(n.name()) && !captures.count(n.name()))
      continue;
    if (ir != byName.end() && ir->second->numRegions() > 0 && out->controlFlow.empty()) out->controlFlow = n.op();
    bool copied = ir != byName.end() && ir->second->attrs.count(kNestedCallAttr) > 0;
    if (copied && out->nestedCall.empty()) out->nestedCall = ir::attrString(ir->second->attrs, kNestedCallAttr, "");
    n.mutable_attr()->erase(kNestedCallAttr);
    if (captures.count(n.name()) || (ir != byName.end() && (ir->second->numResults() == 0 ||
                                                            g.nameOf(ir->second->result(0)).empty())))
      out->generated.insert(n.name());
    tensorflow::AttrValue shapes;
    if (auto it = n.attr().find("_output_shapes"); it != n.attr().end()) shapes = it->second;
    bool exact = true;
    if (captures.count(n.name())) {
      exact = false;  // TF names and types a captured tensor's placeholder its own way
    } else if (arguments.count(n.name())) {
      // A tf.function's parameter: TF records the name the caller gave it.
      if (function) (*n.mutable_attr())["_user_specified_name"].set_s(n.name());
    } else if (auto it = byName.find(n.name()); it != byName.end()) {
      const ir::Node &node = *it->second;
      // A node tracing left unnamed (a constant made of a Python number or
      // an eager tensor): TF names it after the op using it, or captures it.
      exact = node.numResults() > 0 && !g.nameOf(node.result(0)).empty();
      if (exact) exact = node.kind() == ir::OpKind::Placeholder ? tfPlaceholderAttrs(node, n) : tfNodeAttrs(node, n);
      // Its inputs must be named as TF names them too: parameters, or
      // top-level nodes tracing named.
      for (const ir::Value *operand : node.operands()) {
        const ir::Node *d = operand->definingNode();
        if (d ? d->parentRegion() != node.parentRegion() || g.nameOf(d->result(0)).empty()
              : !arguments.count(g.nameOf(operand)))
          exact = false;
      }
    } else if (n.op() != "Identity") {  // the outputs' Identity nodes are TF's
      exact = false;
    }
    if (!addShapes) n.mutable_attr()->erase("_output_shapes");
    else if (shapes.has_list()) (*n.mutable_attr())["_output_shapes"] = shapes;
    if (!exact || copied) out->unreproduced[n.name()] = n.op();  // a copied node is no node of TF's graph
    *kept.add_node() = std::move(n);
  }
  out->graph = std::move(kept);
  return out;
}

}  // namespace

Value graphDefValue(GraphScope &g, bool addShapes) { return Value(tfGraphDef(g, addShapes)); }

std::optional<std::string> nodeDefText(Interpreter &in, GraphScope &g, const std::string &name) {
  Ref<GraphDefObject> def = tfGraphDef(g, false);
  for (const auto &n : def->graph.node())
    if (n.name() == name) return textOf(in, n, def->why(name));
  return std::nullopt;
}

}  // namespace tfs::runtime::tf
