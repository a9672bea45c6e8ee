// Graphviz output of graphs (see dot.h).
#include "ir/dot.h"

#include "ir/text.h"

#include <fmt/format.h>
#include <unordered_map>

namespace tfs::ir {
namespace {

// A DOT double-quoted string: `"` and `\` escaped, newlines as \n (centred
// lines in labels).
std::string dotString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string resultTypes(const Node &n) {
  std::string s;
  for (size_t i = 0; i < n.numResults(); ++i) s += (i ? ", " : "") + formatType(n.result(unsigned(i))->type);
  return s;
}

// "f.tfs:12: y = tf.matmul(a, b)" for a located node.
std::string tooltip(const Location &loc) {
  if (!loc.known()) return "";
  std::string where = fmt::format("{}:{}", loc.path(), loc.span.line);
  if (!loc.span.file) return where;
  std::string_view line = loc.span.file->line(loc.span.line);
  size_t strip = line.find_first_not_of(" \t");
  if (strip == std::string_view::npos) return where;
  return where + ": " + std::string(line.substr(strip));
}

class DotPrinter {
public:
  DotPrinter(const Function &fn, std::string prefix) : fn_(fn), prefix_(std::move(prefix)) {}

  void body(std::string indent) {
    indent_ = std::move(indent);
    for (const Value *p : fn_.params())
      valueNode(p, fmt::format("{}\n{}", p->name.empty() ? "arg" : p->name, formatType(p->type)),
                "ellipse", "param");
    for (const Capture &c : fn_.captures()) {
      if (c.kind != Capture::Kind::Tensor || !c.value) continue;
      valueNode(c.value, fmt::format("captured {}\n{}", c.name, formatType(c.type)), "ellipse", "capture");
    }
    region(fn_.body());
  }
  std::string take() { return std::move(out_); }

private:
  std::string newId() { return fmt::format("{}n{}", prefix_, counter_++); }

  void valueNode(const Value *v, const std::string &label, const char *shape, const char *cls) {
    std::string id = newId();
    ids_[v] = id;
    out_ += fmt::format("{}{} [label={}, shape={}, class={}];\n", indent_, id, dotString(label), shape,
                        dotString(cls));
  }

  void region(const Region &r) {
    if (&r != &fn_.body())  // the body's arguments are the parameters, drawn above
      for (const Value *a : r.args())
      valueNode(a, fmt::format("{}\n{}", a->name.empty() ? "arg" : a->name, formatType(a->type)), "ellipse",
                "blockarg");
    for (const auto &n : r.nodes()) node(*n);
  }

  std::string label(const Node &n) {
    std::string head = n.name();
    if (n.kind() == OpKind::Call) head += " @" + n.callee;
    if (auto it = n.attrs.find(kVarAttr); it != n.attrs.end()) head += " " + formatAttrValue(it->second);
    std::string types = resultTypes(n);
    return types.empty() ? head : head + "\n" + types;
  }

  void node(const Node &n) {
    std::string id = newId();
    nodeIds_[&n] = id;
    std::string tip = tooltip(n.loc);
    const char *shape = n.isTerminator() ? "plain" : n.numRegions() ? "box3d" : "box";
    out_ += fmt::format("{}{} [label={}, shape={}, class=\"op\"{}];\n", indent_, id, dotString(label(n)), shape,
                        tip.empty() ? "" : ", tooltip=" + dotString(tip));
    edgesInto(n, id);
    for (const Value *r : n.results()) ids_[r] = id;
    static const char *const kCondNames[] = {"then", "else"};
    static const char *const kLoopNames[] = {"cond", "body"};
    for (size_t i = 0; i < n.numRegions(); ++i) {
      const char *name = n.kind() == OpKind::Cond        ? kCondNames[i % 2]
                         : n.kind() == OpKind::WhileLoop ? kLoopNames[i % 2]
                                                         : "region";
      std::string saved = indent_;
      out_ += fmt::format("{}subgraph cluster_{}{} {{\n", indent_, prefix_, clusterCounter_++);
      indent_ += "  ";
      out_ += fmt::format("{}label={}; style=rounded; color=gray50;\n", indent_,
                          dotString(fmt::format("{}: {}", n.name(), name)));
      const Region &r = n.region(unsigned(i));
      region(r);
      // Loop-carried values enter the regions' block arguments.
      if (n.kind() == OpKind::WhileLoop)
        for (size_t k = 0; k < r.numArgs() && k < n.numOperands(); ++k)
          if (auto it = ids_.find(n.operand(unsigned(k))); it != ids_.end())
            pending_.push_back(fmt::format("{} -> {} [style=dashed];\n", it->second, ids_.at(r.arg(unsigned(k)))));
      if (const Node *t = r.terminator())
        pending_.push_back(fmt::format("{} -> {} [style=dashed, arrowhead=empty];\n", nodeIds_.at(t), id));
      indent_ = saved;
      out_ += indent_ + "}\n";
    }
  }

  void edgesInto(const Node &n, const std::string &id) {
    for (const Value *v : n.operands()) {
      auto it = ids_.find(v);
      if (it == ids_.end()) continue;
      pending_.push_back(fmt::format("{} -> {};\n", it->second, id));
    }
  }

public:
  // Edges are written after every node, outside the clusters, so that an
  // edge into a region does not pull its source into the cluster.
  void edges(const std::string &indent) {
    for (const std::string &e : pending_) out_ += indent + e;
  }

private:
  const Function &fn_;
  std::string prefix_;
  std::string indent_;
  std::string out_;
  std::unordered_map<const Value *, std::string> ids_;
  std::unordered_map<const Node *, std::string> nodeIds_;
  std::vector<std::string> pending_;
  size_t counter_ = 0, clusterCounter_ = 0;
};

const char *kGraphStyle = "  node [fontname=\"monospace\", fontsize=10];\n"
                          "  edge [color=gray30];\n";

}  // namespace

std::string printDot(const Function &fn, const DotOptions &opts) {
  std::string out;
  for (const std::string &c : opts.comments) out += "// " + c + "\n";
  std::string indent = opts.asCluster ? "    " : "  ";
  std::string prefix = opts.asCluster ? opts.clusterId + "_" : "";
  std::string title = opts.title.empty() ? "@" + fn.name() : opts.title;
  if (opts.asCluster)
    out += fmt::format("  subgraph cluster_{} {{\n    label={}; fontsize=12;\n", opts.clusterId,
                       dotString(title));
  else
    out += fmt::format("digraph {} {{\n  label={}; labelloc=t;\n{}", dotString(fn.name()), dotString(title),
                       kGraphStyle);
  DotPrinter p(fn, prefix);
  p.body(indent);
  p.edges(indent);
  out += p.take();
  out += opts.asCluster ? "  }\n" : "}\n";
  return out;
}

std::string dotPictureBegin() { return fmt::format("digraph tfs {{\n{}", kGraphStyle); }
std::string dotPictureEnd() { return "}\n"; }

}  // namespace tfs::ir
