// The output structure of a concrete function (what collectOutputs in
// function.cpp records while tracing): TF's printed output type, and the
// Python value rebuilt from a run's result tensors.
#include "runtime/tf/concrete_function.h"
#include "runtime/tf/function_key.h"
#include "runtime/tf/tf.h"
#include "runtime/tf/trace_report.h"

namespace tfs::runtime::tf {

// TF's output type of a concrete function: TensorSpec(...), Tuple[...],
// List[...], Dict[['k', ...]], None (a namedtuple is shown as a Tuple).
std::string outputSpecText(Interpreter &in, const Value &s, const std::vector<ir::TensorType> &types) {
  if (s.isInt()) {
    size_t i = size_t(s.asInt());
    return i < types.size() ? tensorSpecText(types[i].shape, types[i].dtype) : "?";
  }
  auto *t = s.as<TupleObject>();
  if (!t || t->items.empty()) return "None";
  std::string kind = in.str(t->items[0]);
  if (kind == "none") return "None";
  if (kind == "object") return in.repr(t->items[1]);
  if (kind == "composite") return in.repr(t->items[4]);
  std::string out = kind == "dict" ? "Dict[" : kind == "list" ? "List[" : "Tuple[";
  bool first = true;
  for (auto &x : in.toList(t->items[1])) {
    out += first ? "" : ", ";
    first = false;
    if (kind == "dict") {
      auto *p = x.as<TupleObject>();
      out += "[" + in.repr(p->items[0]) + ", " + outputSpecText(in, p->items[1], types) + "]";
    } else {
      out += outputSpecText(in, x, types);
    }
  }
  return out + "]";
}

// The output structure with each tensor output's leaf from `leaves` and
// each composite's TypeSpec (or its `attr`: "shape", "dtype").
Value outputSpecStructure(Interpreter &in, const Value &s, const std::vector<Value> &leaves, const char *attr) {
  if (s.isInt()) return leaves[size_t(s.asInt())];
  auto *t = s.as<TupleObject>();
  std::string kind = in.str(t->items[0]);
  if (kind == "none") return Value();
  if (kind == "object") return t->items[1];
  if (kind == "composite") return attr ? in.getAttr(t->items[4], attr) : t->items[4];
  if (kind == "dict") {
    auto d = make<DictObject>();
    for (auto &kv : in.toList(t->items[1])) {
      auto *p = kv.as<TupleObject>();
      d->set(in, p->items[0], outputSpecStructure(in, p->items[1], leaves, attr));
    }
    return d;
  }
  std::vector<Value> items;
  for (auto &x : in.toList(t->items[1])) items.push_back(outputSpecStructure(in, x, leaves, attr));
  if (kind == "namedtuple") return in.call(t->items[2], items);
  return kind == "list" ? in.list(items) : in.tuple(items);
}

Value rebuildOutputs(Interpreter &in, const Value &s, const std::vector<Value> &results) {
  if (s.isInt()) return results[size_t(s.asInt())];
  auto *t = s.as<TupleObject>();
  std::string kind = in.str(t->items[0]);
  if (kind == "none") return Value();
  if (kind == "object") return t->items[1];
  if (kind == "composite")
    return compositeFromComponents(in, t->items[1], rebuildOutputs(in, t->items[2], results), t->items[3]);
  std::vector<Value> items;
  if (kind == "dict") {
    auto d = make<DictObject>();
    for (auto &kv : in.toList(t->items[1])) {
      auto *p = kv.as<TupleObject>();
      d->set(in, p->items[0], rebuildOutputs(in, p->items[1], results));
    }
    return d;
  }
  for (auto &x : in.toList(t->items[1])) items.push_back(rebuildOutputs(in, x, results));
  if (kind == "namedtuple") return in.call(t->items[2], items);
  return kind == "list" ? in.list(items) : in.tuple(items);
}

}  // namespace tfs::runtime::tf
