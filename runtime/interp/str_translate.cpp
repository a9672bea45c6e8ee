// str.translate and str.maketrans (CPython 3.11): a table maps code points
// (ints) to a code point, a string or None (delete); a code point the table
// does not have (LookupError) stays. maketrans builds such a dict from a
// dict, from two equal-length strings, and a third string of deletions.
#include "frontend/literals.h"
#include "runtime/interp/builtins.h"
#include "runtime/interp/bytes_translate.h"
#include "runtime/interp/interpreter.h"
#include "runtime/interp/str_translate.h"
#include "runtime/interp/unicode_digits.h"

#include <fmt/format.h>

namespace tfs::runtime {

namespace {

// The code points of a UTF-8 string, each with its bytes.
std::vector<std::pair<uint32_t, std::string>> codePoints(const std::string &s) {
  std::vector<std::pair<uint32_t, std::string>> out;
  for (size_t i = 0; i < s.size();) {
    size_t start = i;
    uint32_t cp = nextCodePoint(s, i);
    out.emplace_back(cp, s.substr(start, i - start));
  }
  return out;
}

Value ordOf(Interpreter &in, const std::string &one) { return Value::integer(int64_t(codePoints(one)[0].first)); }

}  // namespace

Value strTranslate(Interpreter &in, const std::string &s, Args a) {
  if (a.size() != 1) in.raise("TypeError", fmt::format("str.translate() takes exactly one argument ({} given)", a.size()));
  std::string out;
  for (auto &[cp, bytes] : codePoints(s)) {
    Value mapped;
    try {
      mapped = in.getItem(a[0], Value::integer(cp));
    } catch (PyException &e) {
      if (!in.isInstance(e.exc, in.exceptionClass("LookupError").get())) throw;
      out += bytes;
      continue;
    }
    if (mapped.isNone()) continue;
    if (auto *str = mapped.as<StrObject>()) {
      out += str->s;
    } else if (mapped.isInt() || mapped.isBool()) {
      int64_t c = in.toInt(mapped);
      if (c < 0 || c > 0x10FFFF) in.raise("ValueError", "character mapping must be in range(0x110000)");
      frontend::appendUtf8(out, uint32_t(c));
    } else {
      in.raise("TypeError", "character mapping must return integer, None or str");
    }
  }
  return in.str(std::move(out));
}

Value strMaketrans(Interpreter &in, Args a) {
  if (a.empty() || a.size() > 3)
    in.raise("TypeError", a.empty() ? "maketrans() missing required argument 'x' (pos 1)"
                                    : fmt::format("maketrans expected at most 3 arguments, got {}", a.size()));
  auto table = make<DictObject>();
  if (a.size() == 1) {
    auto *d = a[0].as<DictObject>();
    if (!d) in.raise("TypeError", "if you give only one argument to maketrans it must be a dict");
    for (auto &[k, v] : d->items()) {
      if (auto *ks = k.as<StrObject>()) {
        if (codePoints(ks->s).size() != 1) in.raise("ValueError", "string keys in translate table must be of length 1");
        table->set(in, ordOf(in, ks->s), v);
      } else if (k.isInt()) {
        table->set(in, k, v);
      } else {
        in.raise("TypeError", "keys in translate table must be strings or integers");
      }
    }
    return Value(table);
  }
  for (size_t i = 0; i < a.size(); ++i)
    if (!a[i].as<StrObject>())
      in.raise("TypeError", fmt::format("maketrans() argument {} must be str, not {}", i + 1, in.typeName(a[i])));
  auto from = codePoints(a[0].as<StrObject>()->s), to = codePoints(a[1].as<StrObject>()->s);
  if (from.size() != to.size()) in.raise("ValueError", "the first two maketrans arguments must have equal length");
  for (size_t i = 0; i < from.size(); ++i)
    table->set(in, Value::integer(from[i].first), Value::integer(to[i].first));
  if (a.size() == 3)
    for (auto &[cp, unused] : codePoints(a[2].as<StrObject>()->s)) table->set(in, Value::integer(cp), Value());
  return Value(table);
}

}  // namespace tfs::runtime

namespace tfs::runtime {

void installStrMaketrans(Interpreter &in) {
  auto *str = in.builtin("str").as<ClassObject>();
  auto sm = make<StaticMethodObject>();
  sm->func = in.native("maketrans", [](Interpreter &in, Args a, const Kwargs &kw) {
    if (!kw.empty()) in.raise("TypeError", "str.maketrans() takes no keyword arguments");
    return strMaketrans(in, a);
  });
  str->setAttr("maketrans", Value(sm));
  installBytesMaketrans(in);  // bytes_translate.cpp
}

}  // namespace tfs::runtime
