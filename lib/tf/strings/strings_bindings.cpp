// tf.strings: TF 2.15's parameter lists bound to the string ops of
// ir/ops.def (join, as_string, length, upper / lower, strip, to_number,
// substr, reduce_join, format, regex_full_match / regex_replace). The ops
// with ragged results (split, unicode_split, bytes_split, ...) are written in
// _tf_strings.tfs.
#include "lib/tf/tf_lib.h"
#include "runtime/interp/signature.h"

#include <fmt/format.h>

namespace tfs::runtime::tf {

using ir::OpKind;

namespace {

std::string opName(Interpreter &in, const Bound &a, const char *dflt) {
  return a.isNone("name") ? dflt : in.str(a["name"]);
}

Ref<TensorObject> stringInput(Interpreter &in, const Value &v) { return toTensor(in, v); }

std::string unitArg(Interpreter &in, const Value &v, const char *op) {
  std::string unit = in.str(v);
  if (unit != "BYTE" && unit != "UTF8_CHAR")
    in.raise("ValueError", fmt::format("Attr 'unit' of '{}' Op passed string '{}' not in: \"BYTE\", "
                                       "\"UTF8_CHAR\".", op, unit));
  return unit;
}

void encodingArg(Interpreter &in, const Value &v, const char *fn) {
  std::string e = in.str(v);
  if (!e.empty() && e != "utf-8")
    raiseTf(in, "InvalidArgumentError", fmt::format("Invalid encoding {}", e));
  if (e == "utf-8")
    raiseTf(in, "NotImplementedError",
            fmt::format("tf.strings.{}(encoding='utf-8') (Unicode case mapping) is not supported by tfs", fn));
}

}  // namespace

void installStrings(Interpreter &in, ModuleObject &strings) {
  auto def = [&](const char *sig, SignedFn fn) {
    std::string name(sig, std::string(sig).find('('));
    strings.scope->vars[name] = nativeWithSignature(in, sig, std::move(fn));
  };
  def("join(inputs, separator='', name=None)", [](Interpreter &in, const Bound &a) -> Value {
    std::vector<Ref<TensorObject>> xs;
    for (auto &v : in.toList(a["inputs"])) xs.push_back(toTensor(in, v));
    return Value(callOp1(in, OpKind::StringJoin, xs, {{"separator", in.str(a["separator"])}},
                         opName(in, a, "StringJoin")));
  });
  def("as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill='', name=None)",
      [](Interpreter &in, const Bound &a) -> Value {
        ir::Attrs attrs{{"precision", in.toInt(a["precision"])}, {"scientific", in.truth(a["scientific"])},
                        {"shortest", in.truth(a["shortest"])}, {"width", in.toInt(a["width"])},
                        {"fill", in.str(a["fill"])}};
        return Value(callOp1(in, OpKind::AsString, {toTensor(in, a["input"])}, attrs, opName(in, a, "AsString")));
      });
  def("length(input, unit='BYTE', name=None)", [](Interpreter &in, const Bound &a) -> Value {
    return Value(callOp1(in, OpKind::StringLength, {stringInput(in, a["input"])},
                         {{"unit", unitArg(in, a["unit"], "StringLength")}}, opName(in, a, "StringLength")));
  });
  def("upper(input, encoding='', name=None)", [](Interpreter &in, const Bound &a) -> Value {
    encodingArg(in, a["encoding"], "upper");
    return Value(callOp1(in, OpKind::StringUpper, {stringInput(in, a["input"])}, {}, opName(in, a, "StringUpper")));
  });
  def("lower(input, encoding='', name=None)", [](Interpreter &in, const Bound &a) -> Value {
    encodingArg(in, a["encoding"], "lower");
    return Value(callOp1(in, OpKind::StringLower, {stringInput(in, a["input"])}, {}, opName(in, a, "StringLower")));
  });
  def("strip(input, name=None)", [](Interpreter &in, const Bound &a) -> Value {
    return Value(callOp1(in, OpKind::StringStrip, {stringInput(in, a["input"])}, {}, opName(in, a, "StringStrip")));
  });
  def("to_number(input, out_type='float32', name=None)", [](Interpreter &in, const Bound &a) -> Value {
    DType d = dtypeArg(in, a["out_type"]).value_or(DType::Float32);
    if (d != DType::Float32 && d != DType::Float64 && d != DType::Int32 && d != DType::Int64)
      in.raise("TypeError", fmt::format("Value passed to parameter 'out_type' has DataType {} not in list of allowed "
                                        "values: float32, float64, int32, int64", ir::dtypeName(d)));
    return Value(callOp1(in, OpKind::StringToNumber, {stringInput(in, a["input"])}, {{"out_type", d}},
                         opName(in, a, "StringToNumber")));
  });
  def("substr(input, pos, len, unit='BYTE', name=None)", [](Interpreter &in, const Bound &a) -> Value {
    auto pos = toTensor(in, a["pos"]);
    auto len = toTensor(in, a["len"], pos->dtype());
    return Value(callOp1(in, OpKind::Substr, {stringInput(in, a["input"]), pos, len},
                         {{"unit", unitArg(in, a["unit"], "Substr")}}, opName(in, a, "Substr")));
  });
  def("reduce_join(inputs, axis=None, keepdims=False, separator='', name=None)",
      [](Interpreter &in, const Bound &a) -> Value {
        ir::Attrs attrs{{"keepdims", in.truth(a["keepdims"])}, {"separator", in.str(a["separator"])}};
        if (!a.isNone("axis")) {
          std::vector<int64_t> axes;
          if (a["axis"].isInt()) axes.push_back(a["axis"].asInt());
          else for (auto &v : in.toList(a["axis"])) axes.push_back(in.toInt(v));
          attrs["axis"] = axes;
        }
        return Value(callOp1(in, OpKind::ReduceJoin, {stringInput(in, a["inputs"])}, attrs,
                             opName(in, a, "ReduceJoin")));
      });
  def("format(template, inputs, placeholder='{}', summarize=3, name=None)",
      [](Interpreter &in, const Bound &a) -> Value {
        std::string tmpl = in.str(a["template"]), ph = in.str(a["placeholder"]);
        std::vector<Value> items;
        if (a["inputs"].as<ListObject>() || a["inputs"].as<TupleObject>()) items = in.toList(a["inputs"]);
        else items = {a["inputs"]};
        // The op's template: "{}" per input, other braces doubled.
        std::vector<std::string> pieces;
        size_t start = 0, at;
        while (!ph.empty() && (at = tmpl.find(ph, start)) != std::string::npos) {
          pieces.push_back(tmpl.substr(start, at - start));
          start = at + ph.size();
        }
        pieces.push_back(tmpl.substr(start));
        if (pieces.size() - 1 != items.size())
          in.raise("ValueError", fmt::format("num placeholders in template and num inputs must match: {} vs. {}",
                                             pieces.size() - 1, items.size()));
        std::string opTemplate;
        for (size_t i = 0; i < pieces.size(); ++i) {
          for (char ch : pieces[i]) opTemplate += ch == '{' ? "{{" : ch == '}' ? "}}" : std::string(1, ch);
          if (i + 1 < pieces.size()) opTemplate += "{}";
        }
        std::vector<Ref<TensorObject>> xs;
        for (auto &v : items) xs.push_back(toTensor(in, v));
        ir::Attrs attrs{{"template", opTemplate}, {"summarize", in.toInt(a["summarize"])}};
        return Value(callOp1(in, OpKind::StringFormat, xs, attrs, opName(in, a, "StringFormat")));
      });
  def("regex_full_match(input, pattern, name=None)", [](Interpreter &in, const Bound &a) -> Value {
    if (a["pattern"].as<TensorObject>())
      raiseTf(in, "NotImplementedError", "tf.strings.regex_full_match with a tensor pattern is not supported by tfs");
    return Value(callOp1(in, OpKind::RegexFullMatch, {stringInput(in, a["input"])}, {{"pattern", in.str(a["pattern"])}},
                         opName(in, a, "RegexFullMatch")));
  });
  def("regex_replace(input, pattern, rewrite, replace_global=True, name=None)",
      [](Interpreter &in, const Bound &a) -> Value {
        if (a["pattern"].as<TensorObject>() || a["rewrite"].as<TensorObject>())
          raiseTf(in, "NotImplementedError", "tf.strings.regex_replace with tensor patterns is not supported by tfs");
        ir::Attrs attrs{{"pattern", in.str(a["pattern"])}, {"rewrite", in.str(a["rewrite"])},
                        {"replace_global", in.truth(a["replace_global"])}};
        return Value(callOp1(in, OpKind::RegexReplace, {stringInput(in, a["input"])}, attrs,
                             opName(in, a, "RegexReplace")));
      });
  strings.lazy = [](Interpreter &in, const std::string &name) {
    return preludeApi(in, "_tf_strings", "strings_api", name);
  };
}

}  // namespace tfs::runtime::tf
