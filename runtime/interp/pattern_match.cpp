// The `match` statement (PEP 634) with CPython 3.11's semantics: the
// subject is evaluated once; the cases are tried in order; a pattern's
// captures are bound only when the whole pattern matched (then before the
// guard runs, so they stay bound when the guard is false); the first case
// whose pattern matches and whose guard is true runs.
#include "runtime/interp/eval.h"

#include <fmt/format.h>

namespace tfs::runtime {

using namespace tfs::ast;

namespace {

// The captures of a pattern being matched: bound once it has matched.
using Captures = std::vector<std::pair<const Expr *, Value>>;

class PatternMatcher {
public:
  explicit PatternMatcher(Evaluator &ev) : ev_(ev), in_(ev.in) {}

  bool match(const Pattern &p, const Value &subject, Captures &out) {
    in_.step();
    switch (p.kind) {
    case Pattern::Kind::Value: {
      Value v = ev_.eval(*p.value);
      in_.restoreSpan(p.span);
      return in_.equals(subject, v);
    }
    case Pattern::Kind::Singleton: {
      auto &c = static_cast<const Constant &>(*p.value);
      if (c.type == Constant::Type::None) return subject.isNone();
      return subject.isBool() && subject.asBool() == c.b;
    }
    case Pattern::Kind::As:
      if (p.pattern && !match(*p.pattern, subject, out)) return false;
      if (p.target) out.emplace_back(p.target.get(), subject);
      return true;
    case Pattern::Kind::Or:
      for (const auto &alt : p.patterns) {
        size_t before = out.size();
        if (match(alt, subject, out)) return true;
        out.resize(before);
      }
      return false;
    case Pattern::Kind::Sequence: return matchSequence(p, subject, out);
    case Pattern::Kind::Mapping: return matchMapping(p, subject, out);
    case Pattern::Kind::Class: return matchClass(p, subject, out);
    case Pattern::Kind::Star: break;  // only inside a sequence (matchSequence)
    }
    return false;
  }

private:
  bool isInstanceOf(const Value &v, const Value &cls) {
    return in_.truth(in_.call(in_.builtin("isinstance"), std::vector<Value>{v, cls}));
  }
  // A value with nothing to check for sequence- or mapping-ness: numbers,
  // None, strings and bytes (never a sequence to a pattern).
  static bool isScalar(const Value &v) {
    return !v.isObj() || v.as<StrObject>() || v.as<BytesObject>();
  }
  Value abcClass(const char *name) { return in_.getAttr(in_.importModule("collections.abc"), name); }

  // collections.abc.Sequence, except str, bytes and bytearray (CPython's
  // Py_TPFLAGS_SEQUENCE: list, tuple, range, deque, array, memoryview and
  // what registers with or subclasses Sequence).
  bool isSequence(const Value &v) {
    if (v.as<ListObject>() || v.as<TupleObject>()) return true;
    if (isScalar(v) || v.as<DictObject>()) return false;
    return isInstanceOf(v, abcClass("Sequence"));
  }
  bool isMapping(const Value &v) {
    if (v.as<DictObject>()) return true;
    if (isScalar(v) || v.as<ListObject>() || v.as<TupleObject>()) return false;
    return isInstanceOf(v, abcClass("Mapping"));
  }

  bool matchSequence(const Pattern &p, const Value &subject, Captures &out) {
    if (!isSequence(subject)) return false;
    size_t n = p.patterns.size(), star = n;
    for (size_t i = 0; i < n; ++i)
      if (p.patterns[i].kind == Pattern::Kind::Star) star = i;
    int64_t len = in_.length(subject);
    if (star == n ? len != int64_t(n) : len < int64_t(n - 1)) return false;
    std::vector<Value> items;
    if (auto *l = subject.as<ListObject>()) items = l->items;
    else if (auto *t = subject.as<TupleObject>()) items = t->items;
    else items = in_.toList(subject);
    if (star == n ? items.size() != n : items.size() < n - 1) return false;
    size_t rest = items.size() - (n - 1);  // items the star takes
    for (size_t i = 0, k = 0; i < n; ++i) {
      const Pattern &sub = p.patterns[i];
      if (i == star) {
        if (sub.target)
          out.emplace_back(sub.target.get(), in_.list(std::vector<Value>(items.begin() + std::ptrdiff_t(k),
                                                                          items.begin() + std::ptrdiff_t(k + rest))));
        k += rest;
        continue;
      }
      if (!match(sub, items[k++], out)) return false;
    }
    return true;
  }

  bool matchMapping(const Pattern &p, const Value &subject, Captures &out) {
    if (!isMapping(subject)) return false;
    if (p.keys.empty() && !p.target) return true;
    if (in_.length(subject) < int64_t(p.keys.size())) return false;
    std::vector<Value> keys;
    for (const auto &k : p.keys) {
      Value key = ev_.eval(*k);
      in_.restoreSpan(p.span);
      for (const auto &seen : keys)
        if (in_.equals(seen, key))
          in_.raise("ValueError", fmt::format("mapping pattern checks duplicate key ({})", in_.repr(key)));
      keys.push_back(key);
    }
    // CPython looks each key up with the mapping's get() (a defaultdict's
    // default factory does not run), a private marker telling absence.
    Value get = in_.getAttr(subject, "get");
    Value missing = in_.call(in_.builtin("object"), std::vector<Value>{});
    std::vector<Value> values;
    for (const auto &key : keys) {
      Value v = in_.call(get, std::vector<Value>{key, missing});
      if (v.isObj() && v.obj() == missing.obj()) return false;
      values.push_back(std::move(v));
    }
    for (size_t i = 0; i < values.size(); ++i)
      if (!match(p.patterns[i], values[i], out)) return false;
    if (p.target) {
      Value rest = in_.call(in_.builtin("dict"), std::vector<Value>{subject});
      Value pop = in_.getAttr(rest, "pop");
      for (const auto &key : keys) in_.call(pop, std::vector<Value>{key});
      out.emplace_back(p.target.get(), rest);
    }
    return true;
  }

  // int(x), str(x), ...: the types whose one positional sub-pattern matches
  // the subject itself (CPython's _Py_TPFLAGS_MATCH_SELF, inherited).
  bool matchesSelf(const ClassObject &cls) {
    static const char *const kTypes[] = {"bool", "bytearray", "bytes", "dict", "float", "frozenset",
                                         "int",  "list",      "set",   "str",  "tuple"};
    for (const ClassObject *c : cls.mro)
      for (const char *name : kTypes)
        if (auto *b = in_.builtin(name).as<ClassObject>(); b == c) return true;
    return false;
  }

  bool matchClass(const Pattern &p, const Value &subject, Captures &out) {
    Value clsValue = ev_.eval(*p.value);
    in_.restoreSpan(p.span);
    auto *cls = clsValue.as<ClassObject>();
    if (!cls) in_.raise("TypeError", "called match pattern must be a type");
    if (!isInstanceOf(subject, clsValue)) return false;
    std::vector<std::string> attrs;
    size_t positional = p.patterns.size();
    bool self = false;
    if (positional > 0) {
      std::optional<Value> matchArgs = in_.getAttrOpt(clsValue, "__match_args__");
      std::vector<Value> names;
      if (matchArgs) {
        auto *t = matchArgs->as<TupleObject>();
        if (!t)
          in_.raise("TypeError",
                    fmt::format("{}.__match_args__ must be a tuple (got {})", cls->name, in_.typeName(*matchArgs)));
        names = t->items;
      } else if (matchesSelf(*cls)) {
        self = true;
      }
      size_t allowed = self ? 1 : names.size();
      if (positional > allowed)
        in_.raise("TypeError", fmt::format("{}() accepts {} positional sub-pattern{} ({} given)", cls->name, allowed,
                                           allowed == 1 ? "" : "s", positional));
      if (!self)
        for (size_t i = 0; i < positional; ++i) {
          auto *s = names[i].as<StrObject>();
          if (!s)
            in_.raise("TypeError",
                      fmt::format("__match_args__ elements must be strings (got {})", in_.typeName(names[i])));
          attrs.push_back(s->s);
        }
    }
    for (const auto &k : p.kwdAttrs) attrs.push_back(k);
    for (size_t i = 0; i < attrs.size(); ++i)
      for (size_t j = 0; j < i; ++j)
        if (attrs[i] == attrs[j])
          in_.raise("TypeError", fmt::format("{}() got multiple sub-patterns for attribute '{}'", cls->name, attrs[i]));
    // Every attribute is read before any sub-pattern is tried; a missing
    // one (AttributeError) is a failed match.
    std::vector<Value> values;
    if (self) values.push_back(subject);
    for (const auto &name : attrs) {
      std::optional<Value> v;
      try {
        v = in_.getAttrOpt(subject, name);
      } catch (PyException &e) {
        auto *inst = e.exc.as<InstanceObject>();
        if (!inst || !in_.isInstance(e.exc, in_.exceptionClass("AttributeError").get())) throw;
      }
      if (!v) return false;
      values.push_back(std::move(*v));
    }
    size_t k = 0;
    for (const auto &sub : p.patterns)
      if (!match(sub, values[k++], out)) return false;
    for (const auto &sub : p.kwdPatterns)
      if (!match(sub, values[k++], out)) return false;
    return true;
  }

  Evaluator &ev_;
  Interpreter &in_;
};

}  // namespace

Flow Evaluator::execMatch(const Match &m) {
  Value subject = eval(*m.subject);
  PatternMatcher matcher(*this);
  for (const auto &c : m.cases) {
    Captures captures;
    in.span_ = c.pattern.span;
    if (!matcher.match(c.pattern, subject, captures)) continue;
    for (const auto &[target, value] : captures) assign(*target, value);
    if (c.guard) {
      Value g = eval(*c.guard);
      in.span_ = c.guard->span;
      if (!truth(g)) continue;
    }
    return execBody(c.body);
  }
  return Flow::Normal;
}

}  // namespace tfs::runtime
