// RandomState.seed / get_state / set_state (and np.random's module forms,
// which act on the one global RandomState): numpy 1.24's _legacy_seeding and
// the MT19937 state tuple ('MT19937', key[624] uint32, pos, has_gauss, gauss)
// or its dict form (get_state(legacy=False)).
#include "lib/numpy/np_random_state.h"
#include "lib/numpy/numpy_lib.h"

#include <filesystem>
#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

std::string dtypeText(Interpreter &in, const Value &v) {
  if (ndarrayOf(v)) return in.str(in.getAttr(v, "dtype"));
  std::string type = in.typeName(v);
  if (type == "float") return "float64";
  if (type == "str") return "<U" + std::to_string(in.str(v).size());
  if (type == "complex") return "complex128";
  return type;
}

// numpy's _legacy_seeding: an integer (operator.index) seeds init_genrand;
// anything else is taken as a 1-d array of 32-bit words for init_by_array.
void seedLegacy(Interpreter &in, LegacyState &st, const Value &seedValue) {
  Value s = seedValue;
  if (auto *t = ndarrayOf(s); t && t->eager.numElements() == 1) s = in.call(in.getAttr(s, "squeeze"), {});
  auto *scalar = ndarrayOf(s);
  bool zeroDim = scalar && scalar->eager.rank() == 0;
  if (s.isInt() || s.isBool() || (zeroDim && ir::isInteger(scalar->eager.dtype()))) {
    int64_t v = s.isInt() || s.isBool() ? s.asInt() : scalar->eager.elementAsInt(0);
    bool big = in.typeName(s) == "int" && !s.isInt();
    if (big || v < 0 || v > 0xFFFFFFFFll) in.raise("ValueError", "Seed must be between 0 and 2**32 - 1");
    st.seed(uint32_t(v));
    return;
  }
  if (in.typeName(s) == "int") in.raise("ValueError", "Seed must be between 0 and 2**32 - 1");
  bool sequence = s.as<ListObject>() || s.as<TupleObject>() || (scalar && !zeroDim);
  if (!sequence)
    in.raise("TypeError",
             fmt::format("Cannot cast scalar from dtype('{}') to dtype('int64') according to the rule 'safe'", dtypeText(in, s)));
  Tensor words = asTensor(in, s);
  if (words.numElements() == 0) in.raise("ValueError", "Seed must be non-empty");
  if (!ir::isInteger(words.dtype()) && words.dtype() != DType::Bool)
    in.raise("TypeError", fmt::format("Cannot cast array data from dtype('{}') to dtype('int64') according to the rule 'safe'",
                                      dtypeText(in, newArray(words))));
  if (words.rank() != 1) in.raise("ValueError", "Seed array must be 1-d");
  Tensor w64 = cast(words, DType::Int64);
  std::vector<uint32_t> key;
  for (int64_t i = 0; i < w64.numElements(); ++i) {
    int64_t v = w64.data<int64_t>()[i];
    if (v < 0 || v > 0xFFFFFFFFll) in.raise("ValueError", "Seed must be between 0 and 2**32 - 1");
    key.push_back(uint32_t(v));
  }
  st.mt.seedByArray(key.data(), int(key.size()));
  st.hasGauss = false;
  st.gauss = 0.0;
}

Value stateValue(Interpreter &in, const LegacyState &st, bool legacy) {
  Tensor key = Tensor::empty(DType::UInt32, {Mt19937::kWords});
  std::copy(st.mt.key, st.mt.key + Mt19937::kWords, key.data<uint32_t>());
  Value keyArray = newArray(std::move(key)), pos = Value::integer(st.mt.pos);
  Value hasGauss = Value::integer(st.hasGauss ? 1 : 0), gauss = Value::real(st.gauss);
  if (legacy) return Value(make<TupleObject>(std::vector<Value>{in.str("MT19937"), keyArray, pos, hasGauss, gauss}));
  auto inner = make<DictObject>();
  inner->set(in, in.str("key"), keyArray);
  inner->set(in, in.str("pos"), pos);
  auto d = make<DictObject>();
  d->set(in, in.str("bit_generator"), in.str("MT19937"));
  d->set(in, in.str("state"), Value(inner));
  d->set(in, in.str("has_gauss"), hasGauss);
  d->set(in, in.str("gauss"), gauss);
  return Value(d);
}

Value item(Interpreter &in, const Value &container, const char *key) { return in.getItem(container, in.str(key)); }

void setState(Interpreter &in, LegacyState &st, const Value &state) {
  Value name, key, pos, hasGauss = Value::integer(0), gauss = Value::real(0.0);
  if (auto *d = state.as<DictObject>()) {
    if (!d->get(in, in.str("bit_generator")) || !d->get(in, in.str("state")))
      in.raise("ValueError", "state dictionary is not valid.");
    name = item(in, state, "bit_generator");
    Value inner = item(in, state, "state");
    key = item(in, inner, "key");
    pos = item(in, inner, "pos");
    if (d->get(in, in.str("has_gauss"))) hasGauss = item(in, state, "has_gauss");
    if (d->get(in, in.str("gauss"))) gauss = item(in, state, "gauss");
  } else {
    if (!state.as<TupleObject>() && !state.as<ListObject>()) in.raise("TypeError", "state must be a dict or a tuple.");
    std::vector<Value> parts = in.toList(state);
    auto at = [&](size_t i) {
      if (i >= parts.size()) in.raise("IndexError", "tuple index out of range");
      return parts[i];
    };
    name = at(0);
    if (!name.as<StrObject>() || in.str(name) != "MT19937")
      in.raise("ValueError", "set_state can only be used with legacy MT19937state instances.");
    key = at(1);
    pos = at(2);
    if (parts.size() > 3) {
      hasGauss = at(3);
      gauss = at(4);
    }
  }
  if (!name.as<StrObject>() || in.str(name) != "MT19937")
    in.raise("ValueError", "state must be for a MT19937 PRNG");
  Tensor words = cast(asTensor(in, key), DType::Int64);
  if (words.rank() != 1) in.raise("ValueError", "state must be a 624-element array");
  if (words.numElements() < Mt19937::kWords)
    in.raise("IndexError", fmt::format("index {0} is out of bounds for axis 0 with size {0}", words.numElements()));
  int64_t position = in.toIndex(pos);
  // numpy reads past its key for a position beyond 624; tfs refuses it.
  if (position < 0 || position > Mt19937::kWords) in.raise("ValueError", "pos must be between 0 and 624");
  for (int i = 0; i < Mt19937::kWords; ++i) st.mt.key[i] = uint32_t(words.data<int64_t>()[i]);
  st.mt.pos = int(position);
  st.hasGauss = in.toIndex(hasGauss) != 0;
  st.gauss = in.toFloat(gauss);
}

// A DeprecationWarning at the script line calling into numpy (as numpy's
// warnings.warn with its default stacklevel shows it).
void warnDeprecated(Interpreter &in, const std::string &message) {
  const frontend::SourceSpan site = in.currentSpan();
  if (!site.file || site.file->path().empty() || site.file->path()[0] == '<') return;
  std::string_view line = site.file->line(site.line);
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  std::error_code ec;
  auto path = std::filesystem::absolute(site.file->path(), ec);
  Value warnings = in.importModule("warnings");
  std::vector<Value> args = {in.str(message), in.getAttr(in.importModule("builtins"), "DeprecationWarning"),
                             in.str(ec ? site.file->path() : path.string()), Value::integer(site.line),
                             in.str(std::string(line))};
  in.call(in.getAttr(warnings, "_warn_from_native"), args);
}

}  // namespace

void defineLegacyIntegerExtras(Interpreter &in, ModuleObject &m, const std::shared_ptr<LegacyState> &st) {
  Value randint = m.scope->vars["randint"];
  // random_positive_int: a 64-bit draw (two 32-bit words) shifted right once
  Value tomaxint = nativeWithSignature(in, "tomaxint(size=None)", [st](Interpreter &in, const Bound &b) -> Value {
    if (b.isNone("size")) return Value::integer(int64_t(st->next64() >> 1));
    Tensor t = Tensor::empty(DType::Int64, shapeParam(in, b["size"]));
    for (int64_t i = 0; i < t.numElements(); ++i) t.data<int64_t>()[i] = int64_t(st->next64() >> 1);
    return newArray(std::move(t));
  });
  m.scope->vars["tomaxint"] = tomaxint;
  // Deprecated in numpy: randint(low, high + 1) after a DeprecationWarning.
  m.scope->vars["random_integers"] = nativeWithSignature(
      in, "random_integers(low, high=None, size=None)", [randint](Interpreter &in, const Bound &b) -> Value {
        Value low = b["low"], high = b["high"];
        if (high.isNone()) {
          warnDeprecated(in, fmt::format("This function is deprecated. Please call randint(1, {} + 1) instead", in.str(low)));
          high = low;
          low = Value::integer(1);
        } else {
          warnDeprecated(in, fmt::format("This function is deprecated. Please call randint({}, {} + 1) instead", in.str(low),
                                         in.str(high)));
        }
        Value top = in.binary(BinOp::Add, in.call(in.builtin("int"), std::vector<Value>{high}), Value::integer(1));
        return in.call(randint, std::vector<Value>{low, top, b["size"], in.str("l")});
      });
}

void defineLegacyStateMethods(Interpreter &in, ModuleObject &m, const std::shared_ptr<LegacyState> &st) {
  auto def = [&](const char *sig, std::function<Value(Interpreter &, const Bound &, LegacyState &)> fn) {
    Value f = nativeWithSignature(in, sig, [st, fn](Interpreter &in, const Bound &b) { return fn(in, b, *st); });
    m.scope->vars[f.as<NativeFunction>()->name] = f;
  };
  def("seed(seed=None)", [](Interpreter &in, const Bound &b, LegacyState &st) -> Value {
    if (b.isNone("seed"))
      st.seed(std::random_device{}());
    else
      seedLegacy(in, st, b["seed"]);
    return Value();
  });
  def("get_state(legacy=True)",
      [](Interpreter &in, const Bound &b, LegacyState &st) { return stateValue(in, st, in.truth(b["legacy"])); });
  def("set_state(state)", [](Interpreter &in, const Bound &b, LegacyState &st) -> Value {
    setState(in, st, b["state"]);
    return Value();
  });
}

}  // namespace tfs::runtime::tf::numpy
