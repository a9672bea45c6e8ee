// tf.print and tf.debugging.Assert: eagerly they print or raise at once;
// while tracing they stage a Print / Assert node whose template holds the
// tensors' "{}" slots.
#include "runtime/tensor/format.h"
#include "lib/tf/compat_v1/compat_v1.h"
#include "lib/tf/tf_lib.h"
#include "runtime/interp/signature.h"

#include <cstdio>
#include <functional>
#include <fmt/format.h>

namespace tfs::runtime::tf {

using ir::OpKind;

namespace {

bool isPrintedTensor(const Value &v) {
  auto *t = v.as<TensorObject>();
  return (t && !t->numpy) || v.as<VariableObject>();  // a numpy array prints as str()
}

// tf.print's text for one input: tensors, also inside (nested) lists, tuples
// and dicts, print by value; other values as Python's str() (inside a
// structure, repr() as str() of a container does). `tensor` renders one
// tensor and gets it in order: its value eagerly, a "{}" slot in a graph.
std::string printText(Interpreter &in, const Value &v, bool nested, const std::function<std::string(const Value &)> &tensor) {
  if (isPrintedTensor(v)) return tensor(v);
  auto seq = [&](const std::vector<Value> &items, const char *open, const char *close, bool tuple) {
    std::string out = open;
    for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + printText(in, items[i], true, tensor);
    if (tuple && items.size() == 1) out += ",";
    return out + close;
  };
  if (auto *l = v.as<ListObject>()) return seq(l->items, "[", "]", false);
  if (auto *t = v.as<TupleObject>()) return seq(t->items, "(", ")", true);
  if (auto *d = v.as<DictObject>()) {
    std::string out = "{";
    bool first = true;
    for (const auto &[k, x] : d->items()) {
      out += (first ? "" : ", ") + in.repr(k) + ": " + printText(in, x, true, tensor);
      first = false;
    }
    return out + "}";
  }
  return nested ? in.repr(v) : in.str(v);
}

}  // namespace

// Whether Grappler's debug stripper is on (tf.config.optimizer's
// 'debug_stripper'): a graph traced then leaves out Assert and PrintV2 ops
// (and so check_numerics' check), as TF's stripper turns them into no-ops.
// TF applies it when a function is instantiated, tfs when it is traced: a
// function traced before the option changes keeps what it was traced with.
static bool debugStripperOn(Interpreter &in) {
  Value on = in.call(in.getAttr(in.importModule("_tf_config_optimizer"), "_debug_stripper_on"), {});
  return in.truth(on);
}

// tf.debugging.Assert(condition, data, summarize=None, name=None). Eagerly a
// false condition raises at once with TF's eager text; while tracing it
// stages the assert op, whose failure lists the data as "[a] [b]".
Value tfAssert(Interpreter &in, Args a, const Kwargs &kw) {
  auto args = in.bindArgs("Assert", a, kw, {"condition", "data", "summarize", "name"},
                          {std::nullopt, std::nullopt, Value(), Value()});
  auto cond = toTensor(in, args[0]);
  if (cond->dtype() != DType::Bool)
    raiseTf(in, "TypeError", fmt::format("Expected bool for argument 'condition' not {}.", in.repr(args[0])));
  std::vector<Value> data = in.toList(args[1]);
  if (!cond->symbolic() && !currentGraph(in)) {
    bool ok = true;
    for (int64_t i = 0; i < cond->eager.numElements(); ++i) ok = ok && cond->eager.data<bool>()[i];
    if (ok) return Value();
    int64_t summarize = args[2].isNone() ? 3 : in.toInt(args[2]);
    std::string summary;
    for (size_t i = 0; i < data.size(); ++i) {
      auto t = toTensor(in, data[i]);
      std::string item;
      int64_t n = t->eager.numElements();
      auto elem = [&](int64_t k) { return formatScalar(t->eager, k); };  // numpy str()
      if (t->eager.rank() == 0) item = summarize != 0 ? elem(0) : "";
      else {
        for (int64_t k = 0; k < n && k < summarize; ++k) item += (k ? ", " : "") + elem(k);
        if (n > summarize) item += ", ...";
      }
      summary += (i ? "\n" : "") + item;
    }
    raiseTf(in, "InvalidArgumentError",
            fmt::format("Expected '{}' to be true. Summarized data: {}", in.str(Value(cond)), summary));
  }
  if (debugStripperOn(in)) return Value();
  // While tracing, tensors in `data` become the assert node's operands,
  // rendered into the message's "{}" slots when the check fails.
  GraphScope *g = cond->symbolic() ? cond->scope : currentGraph(in);
  auto operand = [&](const Ref<TensorObject> &t) {
    return t->symbolic() ? t->sym : g->builder().constant(denseFromTensor(t->eager), in.currentSpan());
  };
  std::vector<ir::Value *> ops{operand(cond)};
  std::string message;
  for (size_t i = 0; i < data.size(); ++i) {
    message += i ? "] [" : "";
    if (data[i].as<StrObject>()) {
      for (char ch : in.str(data[i])) message += ch == '{' ? std::string("{{") : ch == '}' ? std::string("}}") : std::string(1, ch);
      continue;
    }
    ops.push_back(operand(toTensor(in, data[i])));
    message += "{}";
  }
  if (ops.size() == 1) {  // no slots: the message is plain text
    message.clear();
    for (size_t i = 0; i < data.size(); ++i) message += (i ? "] [" : "") + in.str(data[i]);
  }
  ir::Attrs attrs{{"message", message}};
  if (!args[2].isNone()) attrs["summarize"] = in.toInt(args[2]);
  ir::Node *node = nullptr;
  try {
    node = g->builder().createNode(OpKind::Assert, ops, attrs, stagingSpan(in));
  } catch (const ir::OpError &e) {
    raiseOpError(in, e);
  }
  // In a v1 graph the assert is an Operation that runs when fetched or made
  // a control dependency (Session.run runs only what its fetches need).
  if (g->kind() == GraphScope::Kind::V1Graph) {
    auto op = make<OpObject>();
    op->scope = g;
    op->name = g->uniqueName(args[3].isNone() ? "Assert" : in.str(args[3]));
    op->type = "Assert";
    op->nodes = {node};
    return Value(op);
  }
  return Value();
}

void tfPrint(Interpreter &in, const Bound &b) {
  const std::vector<Value> &a = b.varArgs();
  std::string sep = in.str(b["sep"]), end = b.isNone("end") ? "\n" : in.str(b["end"]);
  int64_t summarize = b.isNone("summarize") ? 3 : in.toInt(b["summarize"]);
  bool toStdout = !b.isNone("output_stream") && in.repr(b["output_stream"]).find("stdout") != std::string::npos;
  // A scalar string tensor prints bare only as tf.print's sole input.
  bool sole = a.size() == 1 && isPrintedTensor(a[0]);
  if (GraphScope *g = currentGraph(in)) {
    if (debugStripperOn(in)) return;
    std::vector<ir::Value *> ops;
    auto escape = [](const std::string &s) {
      std::string t;
      for (char c : s) t += c == '{' ? std::string("{{") : c == '}' ? std::string("}}") : std::string(1, c);
      return t;
    };
    auto slot = [&](const Value &v) {
      auto x = toTensor(in, v);
      ops.push_back(x->symbolic() ? x->sym : g->builder().constant(denseFromTensor(x->eager), in.currentSpan()));
      return std::string("\x01");  // marks the slot until the template is escaped
    };
    std::string templ;
    for (size_t i = 0; i < a.size(); ++i) {
      std::string text = escape((i ? sep : std::string()) + printText(in, a[i], false, slot));
      for (size_t k; (k = text.find('\x01')) != std::string::npos;) text.replace(k, 1, "{}");
      templ += text;
    }
    ir::Attrs attrs{{"template", templ}, {"end", end}, {"summarize", summarize},
                    {"output_stream", std::string(toStdout ? "stdout" : "stderr")}};
    try {
      g->builder().createNode(OpKind::Print, ops, attrs, in.currentSpan());
    } catch (const ir::OpError &e) {
      raiseOpError(in, e);
    }
    return;
  }
  auto value = [&](const Value &v) {
    if (auto *t = v.as<TensorObject>()) return formatTfPrint(t->eager, int(summarize), sole);
    return formatTfPrint(*v.as<VariableObject>()->value, int(summarize), sole);
  };
  std::string out;
  for (size_t i = 0; i < a.size(); ++i) out += (i ? sep : std::string()) + printText(in, a[i], false, value);
  out += end;
  std::fflush(stdout);
  std::fwrite(out.data(), 1, out.size(), toStdout ? stdout : stderr);
  std::fflush(toStdout ? stdout : stderr);
}

}  // namespace tfs::runtime::tf
