#include "runtime/interp/keyword_rules.h"

#include <cstdint>
#include <fmt/format.h>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace tfs::runtime {

namespace {

struct Rule {
  std::vector<const char *> allowed;  // empty: no keywords at all
  const char *messageName = nullptr;  // the name CPython's message uses, when not the call's
};

// From CPython 3.11's Argument Clinic signatures (Python/bltinmodule.c,
// Objects/*object.c): positional-only callables take no keywords.
const std::unordered_map<std::string_view, Rule> &rules() {
  static const std::unordered_map<std::string_view, Rule> table = [] {
    std::unordered_map<std::string_view, Rule> t;
    for (const char *n : {"abs", "all", "any", "ascii", "bin", "callable", "chr", "delattr", "dir", "divmod", "filter",
                          "format", "getattr", "hasattr", "hash", "hex", "id", "isinstance", "issubclass", "iter",
                          "len", "map", "next", "oct", "ord", "repr", "reversed", "setattr", "vars", "bool", "float",
                          "frozenset", "list", "range", "set", "slice", "tuple"})
      t[n] = Rule{};
    t["bytearray"] = Rule{{"source", "encoding", "errors"}};
    t["bytes"] = Rule{{"source", "encoding", "errors"}};
    t["complex"] = Rule{{"real", "imag"}};
    t["enumerate"] = Rule{{"iterable", "start"}};
    t["int"] = Rule{{"base"}};
    t["max"] = Rule{{"key", "default"}};
    t["min"] = Rule{{"key", "default"}};
    t["pow"] = Rule{{"base", "exp", "mod"}};
    t["print"] = Rule{{"sep", "end", "file", "flush"}};
    t["round"] = Rule{{"number", "ndigits"}};
    t["sorted"] = Rule{{"key", "reverse"}, "sort"};
    t["str"] = Rule{{"object", "encoding", "errors"}};
    t["sum"] = Rule{{"start"}};
    t["zip"] = Rule{{"strict"}};
    t["str.split"] = Rule{{"sep", "maxsplit"}, "split"};
    t["str.rsplit"] = Rule{{"sep", "maxsplit"}, "rsplit"};
    t["str.splitlines"] = Rule{{"keepends"}, "splitlines"};
    t["str.encode"] = Rule{{"encoding", "errors"}, "encode"};
    t["str.expandtabs"] = Rule{{"tabsize"}, "expandtabs"};
    t["list.sort"] = Rule{{"key", "reverse"}, "sort"};
    return t;
  }();
  return table;
}

// Methods that take positional arguments only, by type.
bool positionalOnlyMethod(std::string_view type, std::string_view method) {
  static const std::unordered_map<std::string_view, std::vector<std::string_view>> methods = {
      {"str",
       {"join", "strip", "lstrip", "rstrip", "replace", "startswith", "endswith", "upper", "lower", "title",
        "capitalize", "swapcase", "find", "index", "rfind", "rindex", "count", "ljust", "rjust", "center", "zfill",
        "isdigit", "isnumeric", "isdecimal", "isalpha", "isalnum", "isspace", "isupper", "islower", "isidentifier", "isascii",
        "casefold", "istitle", "isprintable", "partition", "rpartition", "removeprefix", "removesuffix", "translate",
        "maketrans"}},
      {"list", {"append", "extend", "insert", "remove", "pop", "clear", "index", "count", "reverse", "copy"}},
      {"tuple", {"index", "count"}},
      {"dict", {"keys", "values", "items", "get", "pop", "popitem", "setdefault", "copy", "clear"}},
      {"set",
       {"add", "discard", "remove", "pop", "clear", "copy", "union", "intersection", "difference",
        "symmetric_difference", "update", "intersection_update", "difference_update", "symmetric_difference_update",
        "issubset", "issuperset", "isdisjoint"}},
      {"frozenset",
       {"copy", "union", "intersection", "difference", "symmetric_difference", "issubset", "issuperset",
        "isdisjoint"}},
  };
  auto it = methods.find(type);
  if (it == methods.end()) return false;
  for (auto m : it->second)
    if (m == method) return true;
  return false;
}

// How many positional arguments CPython 3.11's builtins take, and which of
// its message styles a wrong count gets.
enum class Arity { ExactlyOne, Expected, TakesAtMost, NoArgs, Map };

}  // namespace

struct BuiltinArity {
  std::string_view name;  // as the message spells it ("super()" for super)
  Arity style;
  size_t min, max;
  const char *firstName = nullptr;  // TakesAtMost: the first parameter, for "missing required argument"
  bool named = false;               // ... and whether the message gives its position ("(pos 1)")
};

namespace {

const std::unordered_map<std::string_view, BuiltinArity> &counts() {
  static const std::unordered_map<std::string_view, BuiltinArity> table = [] {
    std::unordered_map<std::string_view, BuiltinArity> t;
    auto add = [&](std::string_view n, Arity style, size_t lo, size_t hi, const char *first = nullptr,
                   bool named = false) { t[n] = BuiltinArity{n, style, lo, hi, first, named}; };
    // METH_O: "len() takes exactly one argument (2 given)".
    for (const char *n : {"abs", "all", "any", "ascii", "bin", "callable", "chr", "hex", "id", "len", "oct", "ord",
                          "repr", "hash"})
      add(n, Arity::ExactlyOne, 1, 1);
    // _PyArg_CheckPositional: "divmod expected 2 arguments, got 3".
    for (auto [n, lo, hi] : {std::tuple{"iter", 1, 2}, {"next", 1, 2}, {"sorted", 1, 1}, {"divmod", 2, 2},
                             {"isinstance", 2, 2}, {"issubclass", 2, 2}, {"getattr", 2, 3}, {"setattr", 3, 3},
                             {"hasattr", 2, 2}, {"delattr", 2, 2}, {"format", 1, 2}, {"vars", 0, 1}, {"dir", 0, 1},
                             {"filter", 2, 2}, {"reversed", 1, 1}, {"float", 0, 1}, {"bool", 0, 1}, {"list", 0, 1},
                             {"tuple", 0, 1}, {"dict", 0, 1}, {"set", 0, 1}, {"frozenset", 0, 1}, {"slice", 1, 3},
                             {"staticmethod", 1, 1}, {"classmethod", 1, 1}})
      add(n, Arity::Expected, size_t(lo), size_t(hi));
    add("min", Arity::Expected, 1, SIZE_MAX);
    add("max", Arity::Expected, 1, SIZE_MAX);
    t["super"] = BuiltinArity{"super()", Arity::Expected, 0, 2};  // the one whose message has the parentheses
    // PyArg_ParseTupleAndKeywords: "round() takes at most 2 arguments (3 given)".
    add("sum", Arity::TakesAtMost, 1, 2);
    add("round", Arity::TakesAtMost, 1, 2, "number", true);
    add("pow", Arity::TakesAtMost, 2, 3, "base", true);
    add("enumerate", Arity::TakesAtMost, 1, 2, "iterable");
    add("int", Arity::TakesAtMost, 0, 2);
    for (const char *n : {"str", "bytes", "bytearray"}) add(n, Arity::TakesAtMost, 0, 3);
    add("globals", Arity::NoArgs, 0, 0);
    add("locals", Arity::NoArgs, 0, 0);
    add("map", Arity::Map, 2, SIZE_MAX);
    return t;
  }();
  return table;
}

}  // namespace

const BuiltinArity *builtinArity(std::string_view name) {
  auto it = counts().find(name);
  return it == counts().end() ? nullptr : &it->second;
}

void checkBuiltinArity(Interpreter &in, const BuiltinArity &c, size_t n, size_t nkw) {
  // Keyword-capable parameters (sum's start, round's ndigits, ...) count
  // towards the upper bound as CPython's parser counts them.
  size_t total = c.style == Arity::TakesAtMost ? n + nkw : n;
  if (n >= c.min && total <= c.max) return;
  if (c.style == Arity::TakesAtMost && n < c.min && nkw > 0) return;  // given by keyword: the callee checks
  auto plural = [](size_t k) { return k == 1 ? "" : "s"; };
  std::string_view name = c.name;
  switch (c.style) {
  case Arity::Map: in.raise("TypeError", "map() must have at least two arguments.");
  case Arity::ExactlyOne: in.raise("TypeError", fmt::format("{}() takes exactly one argument ({} given)", name, n));
  case Arity::NoArgs: in.raise("TypeError", fmt::format("{}() takes no arguments ({} given)", name, n));
  case Arity::Expected:
    if (c.min == c.max) in.raise("TypeError", fmt::format("{} expected {} argument{}, got {}", name, c.min, plural(c.min), n));
    if (n < c.min)
      in.raise("TypeError", fmt::format("{} expected at least {} argument{}, got {}", name, c.min, plural(c.min), n));
    in.raise("TypeError", fmt::format("{} expected at most {} argument{}, got {}", name, c.max, plural(c.max), n));
  case Arity::TakesAtMost:
    if (n < c.min) {
      if (!c.firstName)
        in.raise("TypeError", fmt::format("{}() takes at least {} positional argument{} ({} given)", name, c.min,
                                          plural(c.min), n));
      in.raise("TypeError", fmt::format("{}() missing required argument '{}'{}", name, c.firstName, c.named ? " (pos 1)" : ""));
    }
    in.raise("TypeError", fmt::format("{}() takes at most {} argument{} ({} given)", name, c.max, plural(c.max), total));
  }
}

void checkBuiltinKeywords(Interpreter &in, std::string_view name, const Kwargs &kw) {
  if (kw.empty()) return;
  size_t dot = name.find('.');
  if (dot != std::string_view::npos && positionalOnlyMethod(name.substr(0, dot), name.substr(dot + 1)))
    in.raise("TypeError", fmt::format("{}() takes no keyword arguments", name));
  auto it = rules().find(name);
  if (it == rules().end()) return;
  const Rule &r = it->second;
  if (r.allowed.empty()) in.raise("TypeError", fmt::format("{}() takes no keyword arguments", name));
  for (const auto &[k, v] : kw) {
    bool ok = false;
    for (const char *a : r.allowed) ok |= k == a;
    if (!ok)
      in.raise("TypeError", fmt::format("'{}' is an invalid keyword argument for {}()", k,
                                        r.messageName ? r.messageName : std::string(name)));
  }
}

}  // namespace tfs::runtime
