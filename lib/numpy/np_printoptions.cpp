// np.set_printoptions / get_printoptions / printoptions: numpy's print
// options, kept in the engine's formatter (runtime/tensor/format.h) so numpy
// arrays and TF tensors (printed through numpy) both follow them.
// precision, threshold, edgeitems, linewidth, suppress, nanstr and infstr
// are honoured; sign other than '-', floatmode other than 'maxprec', a
// formatter and legacy modes are refused by name.
#include "lib/numpy/numpy_lib.h"
#include "runtime/tensor/format.h"
#include "runtime/interp/native_context_managers.h"

#include <cmath>
#include <fmt/format.h>

namespace tfs::runtime {
// runtime/tensor/format.cpp: numpy's _formatArray with a separator, prefix and suffix width.
std::string formatNumpyArray2String(const Tensor &t, const std::string &separator, const std::string &prefix,
                                    size_t suffixWidth);
}  // namespace tfs::runtime

namespace tfs::runtime::tf::numpy {

namespace {

constexpr const char *kSignature =
    "(precision=None, threshold=None, edgeitems=None, linewidth=None, suppress=None, nanstr=None, infstr=None, "
    "formatter=!None, sign=None, floatmode=None, *, legacy=!None)";

int64_t integerOption(Interpreter &in, const Value &v, const char *name) {
  if (!v.isInt() && !(v.as<TensorObject>() && ir::isInteger(asTensor(in, v).dtype())))
    in.raise("TypeError", fmt::format("{} must be an integer", name));
  return in.toInt(v);
}

// numpy's set_printoptions: every option given (not None) replaces the current one.
void setOptions(Interpreter &in, const Bound &b) {
  NumpyPrintOptions next = numpyPrintOptions();
  if (!b.isNone("precision")) next.precision = int(integerOption(in, b["precision"], "precision"));
  if (!b.isNone("threshold")) {
    double t = in.toFloat(b["threshold"]);
    if (std::isnan(t)) in.raise("ValueError", "threshold must be non-NAN, try sys.maxsize for untruncation");
    next.threshold = t;
  }
  if (!b.isNone("edgeitems")) next.edgeitems = in.toInt(b["edgeitems"]);
  if (!b.isNone("linewidth")) next.linewidth = in.toInt(b["linewidth"]);
  if (!b.isNone("suppress")) next.suppress = in.truth(b["suppress"]);
  if (!b.isNone("nanstr")) next.nanstr = in.str(b["nanstr"]);
  if (!b.isNone("infstr")) next.infstr = in.str(b["infstr"]);
  if (!b.isNone("sign")) {
    std::string sign = in.str(b["sign"]);
    if (sign != "-" && sign != "+" && sign != " ") in.raise("ValueError", "sign option must be one of ' ', '+', or '-'");
    if (sign != "-") in.raise("NotImplementedError", fmt::format("np.set_printoptions(sign='{}') is not supported by tfs", sign));
  }
  if (!b.isNone("floatmode")) {
    std::string mode = in.str(b["floatmode"]);
    if (mode != "fixed" && mode != "unique" && mode != "maxprec" && mode != "maxprec_equal")
      in.raise("ValueError", "floatmode option must be one of \"fixed\", \"unique\", \"maxprec\", \"maxprec_equal\"");
    if (mode != "maxprec")
      in.raise("NotImplementedError", fmt::format("np.set_printoptions(floatmode='{}') is not supported by tfs", mode));
  }
  numpyPrintOptions() = next;
}

Value optionsDict(Interpreter &in) {
  const NumpyPrintOptions &o = numpyPrintOptions();
  auto d = make<DictObject>();
  auto put = [&](const char *k, Value v) { d->set(in, in.str(k), v); };
  put("edgeitems", Value::integer(o.edgeitems));
  bool whole = std::isfinite(o.threshold) && o.threshold == std::floor(o.threshold) && std::fabs(o.threshold) < 9e18;
  put("threshold", whole ? Value::integer(int64_t(o.threshold)) : Value::real(o.threshold));
  put("floatmode", in.str("maxprec"));
  put("precision", Value::integer(o.precision));
  put("suppress", Value::boolean(o.suppress));
  put("linewidth", Value::integer(o.linewidth));
  put("nanstr", in.str(o.nanstr));
  put("infstr", in.str(o.infstr));
  put("sign", in.str("-"));
  put("formatter", Value());
  put("legacy", Value::boolean(false));
  return Value(d);
}

// The context manager np.printoptions(...) returns: sets the options on
// entry (returning them, as numpy's does), restores the previous ones on exit.
struct PrintOptionsContext : Object {
  Bound requested;
  NumpyPrintOptions saved;
  explicit PrintOptionsContext(Bound b) : requested(std::move(b)) {}
  const char *typeName() const override { return "_GeneratorContextManager"; }
  std::optional<Value> enter(Interpreter &in) override {
    saved = numpyPrintOptions();
    setOptions(in, requested);
    return optionsDict(in);
  }
  bool exit(Interpreter &, bool) override {
    numpyPrintOptions() = saved;
    return false;
  }
};
TFS_NATIVE_CONTEXT_MANAGER(PrintOptionsContext);

// np.array2string: the array's text under print options overridden for
// this call (restored afterwards, also when formatting raises).
Value array2string(Interpreter &in, const Bound &b) {
  Tensor t = asTensor(in, b["a"]);
  TensorObject *obj = ndarrayOf(b["a"]);
  if (t.dtype() == DType::String || ir::isComplex(t.dtype()) || (obj && obj->text.kind))
    in.raise("NotImplementedError", "np.array2string() of a text, object or complex array is not supported by tfs");
  if (!b.isNone("sign") && in.str(b["sign"]) != "-")
    in.raise("NotImplementedError", fmt::format("np.array2string(sign='{}') is not supported by tfs", in.str(b["sign"])));
  if (!b.isNone("floatmode") && in.str(b["floatmode"]) != "maxprec")
    in.raise("NotImplementedError",
             fmt::format("np.array2string(floatmode='{}') is not supported by tfs", in.str(b["floatmode"])));
  struct Restore {
    NumpyPrintOptions saved = numpyPrintOptions();
    ~Restore() { numpyPrintOptions() = saved; }
  } restore;
  NumpyPrintOptions &o = numpyPrintOptions();
  if (!b.isNone("max_line_width")) o.linewidth = in.toInt(b["max_line_width"]);
  if (!b.isNone("precision")) o.precision = int(integerOption(in, b["precision"], "precision"));
  if (!b.isNone("suppress_small")) o.suppress = in.truth(b["suppress_small"]);
  if (!b.isNone("threshold")) o.threshold = in.toFloat(b["threshold"]);
  if (!b.isNone("edgeitems")) o.edgeitems = in.toInt(b["edgeitems"]);
  std::string text = formatNumpyArray2String(t, in.str(b["separator"]), in.str(b["prefix"]), in.str(b["suffix"]).size());
  return in.str(text);
}

}  // namespace

void installPrintOptions(Interpreter &in, ModuleObject &np) {
  // Each run starts from numpy's defaults.
  numpyPrintOptions() = NumpyPrintOptions{};
  auto &vars = np.scope->vars;
  vars["set_printoptions"] =
      nativeWithSignature(in, std::string("set_printoptions") + kSignature, [](Interpreter &in, const Bound &b) {
        setOptions(in, b);
        return Value();
      });
  vars["array2string"] = nativeWithSignature(
      in,
      "array2string(a, max_line_width=None, precision=None, suppress_small=None, separator=' ', prefix='', "
      "style=!None, formatter=!None, threshold=None, edgeitems=None, sign=None, floatmode=None, suffix='', *, "
      "legacy=!None)",
      array2string);
  vars["get_printoptions"] = nativeWithSignature(in, "get_printoptions()", [](Interpreter &in, const Bound &) {
    return optionsDict(in);
  });
  vars["printoptions"] = nativeWithSignature(in, std::string("printoptions") + kSignature,
                                             [](Interpreter &, const Bound &b) { return Value(make<PrintOptionsContext>(b)); });
}

}  // namespace tfs::runtime::tf::numpy
