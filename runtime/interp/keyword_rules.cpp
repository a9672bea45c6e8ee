#include "runtime/interp/keyword_rules.h"

#include <cstdint>
#include <fmt/format.h>
#include <string>
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
        "isdigit", "isnumeric", "isdecimal", "isalpha", "isalnum", "isspace", "isupper", "islower", "isidentifier",
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
// its three message styles a wrong count gets.
enum class Arity { ExactlyOne, Expected, TakesAtMost, NoArgs };
struct Count {
  Arity style;
  size_t min, max;
  const char *firstName = nullptr;  // TakesAtMost: the first parameter, for "missing required argument"
  bool named = false;               // ... and whether the message gives its position ("(pos 1)")
};

const std::unordered_map<std::string_view, Count> &counts() {
  static const std::unordered_map<std::string_view, Count> table = [] {
    std::unordered_map<std::string_view, Count> t;
    // METH_O: "len() takes exactly one argument (2 given)".
    for (const char *n : {"abs", "all", "any", "ascii", "bin", "callable", "chr", "hex", "id", "len", "oct", "ord",
                          "repr", "hash"})
      t[n] = Count{Arity::ExactlyOne, 1, 1};
    // _PyArg_CheckPositional: "divmod expected 2 arguments, got 3".
    auto expected = [&](const char *n, size_t lo, size_t hi) { t[n] = Count{Arity::Expected, lo, hi}; };
    expected("iter", 1, 2);
    expected("next", 1, 2);
    expected("sorted", 1, 1);
    expected("min", 1, SIZE_MAX);
    expected("max", 1, SIZE_MAX);
    expected("divmod", 2, 2);
    expected("isinstance", 2, 2);
    expected("issubclass", 2, 2);
    expected("getattr", 2, 3);
    expected("setattr", 3, 3);
    expected("hasattr", 2, 2);
    expected("delattr", 2, 2);
    expected("format", 1, 2);
    expected("vars", 0, 1);
    expected("dir", 0, 1);
    expected("filter", 2, 2);
    expected("reversed", 1, 1);
    for (const char *n : {"float", "bool", "list", "tuple", "dict", "set", "frozenset"}) expected(n, 0, 1);
    expected("slice", 1, 3);
    expected("staticmethod", 1, 1);
    expected("classmethod", 1, 1);
    expected("super", 0, 2);
    // PyArg_ParseTupleAndKeywords: "round() takes at most 2 arguments (3 given)".
    t["sum"] = Count{Arity::TakesAtMost, 1, 2};
    t["round"] = Count{Arity::TakesAtMost, 1, 2, "number", true};
    t["pow"] = Count{Arity::TakesAtMost, 2, 3, "base", true};
    t["enumerate"] = Count{Arity::TakesAtMost, 1, 2, "iterable", false};
    t["int"] = Count{Arity::TakesAtMost, 0, 2};
    t["str"] = Count{Arity::TakesAtMost, 0, 3};
    t["bytes"] = Count{Arity::TakesAtMost, 0, 3};
    t["bytearray"] = Count{Arity::TakesAtMost, 0, 3};
    t["globals"] = Count{Arity::NoArgs, 0, 0};
    t["locals"] = Count{Arity::NoArgs, 0, 0};
    return t;
  }();
  return table;
}

}  // namespace

void checkBuiltinArity(Interpreter &in, std::string_view name, size_t n, size_t nkw) {
  if (name == "map" && n < 2) in.raise("TypeError", "map() must have at least two arguments.");
  auto it = counts().find(name);
  if (it == counts().end()) return;
  const Count &c = it->second;
  // Keyword-capable parameters (sum's start, round's ndigits, ...) count
  // towards the upper bound as CPython's parser counts them.
  size_t total = c.style == Arity::TakesAtMost ? n + nkw : n;
  if (n >= c.min && total <= c.max) return;
  if (c.style == Arity::TakesAtMost && n < c.min && nkw > 0) return;  // given by keyword: the callee checks
  auto plural = [](size_t k) { return k == 1 ? "" : "s"; };
  switch (c.style) {
  case Arity::ExactlyOne: in.raise("TypeError", fmt::format("{}() takes exactly one argument ({} given)", name, n));
  case Arity::NoArgs: in.raise("TypeError", fmt::format("{}() takes no arguments ({} given)", name, n));
  case Arity::Expected:
    if (name == "super") name = "super()";  // the one clinic function whose message has the parentheses
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
