#include "runtime/interp/signature.h"

#include "runtime/interp/interpreter.h"

#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <memory>

namespace tfs::runtime {

namespace {

[[noreturn]] void badSignature(std::string_view text, const char *why) {
  std::fprintf(stderr, "tfs: internal error: malformed signature '%.*s': %s\n", int(text.size()), text.data(), why);
  std::abort();
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\n')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

// Splits on commas outside brackets and quotes.
std::vector<std::string_view> splitTopLevel(std::string_view s) {
  std::vector<std::string_view> out;
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '(' || c == '[') {
      ++depth;
    } else if (c == ')' || c == ']') {
      --depth;
    } else if (c == ',' && depth == 0) {
      out.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (auto last = trim(s.substr(start)); !last.empty()) out.push_back(last);
  return out;
}

// A default value: None, True, False, an int, a float, a quoted string, or a
// tuple/list of those.
std::optional<Value> parseLiteral(std::string_view t) {
  t = trim(t);
  if (t == "None") return Value();
  if (t == "True") return Value::boolean(true);
  if (t == "False") return Value::boolean(false);
  if (t.size() >= 2 && (t.front() == '\'' || t.front() == '"') && t.back() == t.front())
    return Value(make<StrObject>(std::string(t.substr(1, t.size() - 2))));
  if (t.size() >= 2 && (t.front() == '(' || t.front() == '[')) {
    std::vector<Value> items;
    for (auto part : splitTopLevel(t.substr(1, t.size() - 2))) {
      auto v = parseLiteral(part);
      if (!v) return std::nullopt;
      items.push_back(*v);
    }
    if (t.front() == '(') return Value(make<TupleObject>(std::move(items)));
    return Value(make<ListObject>(std::move(items)));
  }
  std::string s(t);
  char *end = nullptr;
  if (s.find_first_of(".eE") == std::string::npos && s != "inf" && s != "-inf") {
    long long i = std::strtoll(s.c_str(), &end, 10);
    if (end && *end == 0 && !s.empty()) return Value::integer(i);
    return std::nullopt;
  }
  double d = std::strtod(s.c_str(), &end);
  if (end && *end == 0 && !s.empty()) return Value::real(d);
  return std::nullopt;
}

std::string quotedList(const std::vector<std::string> &names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out += names.size() == 2 ? " and " : (i + 1 == names.size() ? ", and " : ", ");
    out += "'" + names[i] + "'";
  }
  return out;
}

}  // namespace

Signature::Signature(std::string_view text) {
  size_t open = text.find('('), close = text.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open)
    badSignature(text, "expected name(params)");
  // Messages name the function as CPython does (its __name__): the last
  // part of a dotted name.
  name_ = std::string(trim(text.substr(0, open)));
  if (size_t dot = name_.rfind('.'); dot != std::string::npos) name_ = name_.substr(dot + 1);
  bool keywordOnly = false;
  for (auto part : splitTopLevel(text.substr(open + 1, close - open - 1))) {
    if (part == "/") {
      for (auto &p : params_) p.positionalOnly = true;
      continue;
    }
    if (part == "*") {
      keywordOnly = true;
      continue;
    }
    if (part.substr(0, 2) == "**") {
      varKwargs_ = true;
      continue;
    }
    if (part.substr(0, 1) == "*") {
      varArgs_ = true;
      keywordOnly = true;
      continue;
    }
    Parameter p;
    size_t eq = part.find('=');
    p.name = std::string(trim(part.substr(0, eq)));
    if (eq != std::string_view::npos) {
      std::string_view d = trim(part.substr(eq + 1));
      if (!d.empty() && d.front() == '!') {
        p.notImplemented = true;
        d.remove_prefix(1);
      }
      p.dflt = parseLiteral(d);
      if (!p.dflt) badSignature(text, "a default is not a literal");
    } else if (!keywordOnly && !params_.empty() && params_.back().dflt && !params_.back().keywordOnly) {
      badSignature(text, "a required parameter follows one with a default");
    }
    p.keywordOnly = keywordOnly;
    if (!keywordOnly) ++positionalCount_;
    for (auto &q : params_)
      if (q.name == p.name) badSignature(text, "duplicate parameter");
    params_.push_back(std::move(p));
  }
}

size_t Signature::index(std::string_view p) const {
  for (size_t i = 0; i < params_.size(); ++i)
    if (params_[i].name == p) return i;
  std::fprintf(stderr, "tfs: internal error: %s() has no parameter '%.*s'\n", name_.c_str(), int(p.size()), p.data());
  std::abort();
}

Bound Signature::bind(Interpreter &in, Args args, const Kwargs &kwargs) const {
  Bound b;
  b.sig_ = this;
  b.values_.resize(params_.size());
  b.given_.assign(params_.size(), false);
  if (args.size() > positionalCount_) {
    if (!varArgs_) {
      size_t required = 0;
      for (size_t i = 0; i < positionalCount_; ++i) required += !params_[i].dflt;
      std::string takes = required == positionalCount_
                              ? fmt::format("{} positional argument{}", positionalCount_, positionalCount_ == 1 ? "" : "s")
                              : fmt::format("from {} to {} positional arguments", required, positionalCount_);
      in.raise("TypeError", fmt::format("{}() takes {} but {} {} given", name_, takes, args.size(),
                                        args.size() == 1 ? "was" : "were"));
    }
    b.varArgs_.assign(args.begin() + positionalCount_, args.end());
  }
  // Positional parameters come first in params_ (keyword-only ones after).
  for (size_t i = 0, k = 0; i < params_.size() && k < args.size() && k < positionalCount_; ++i) {
    if (params_[i].keywordOnly) continue;
    b.values_[i] = args[k++];
    b.given_[i] = true;
  }
  std::vector<std::string> positionalOnlyAsKeyword;
  for (const auto &[k, v] : kwargs) {
    size_t i = 0;
    while (i < params_.size() && params_[i].name != k) ++i;
    if (i < params_.size() && params_[i].positionalOnly) {
      if (varKwargs_) {
        b.varKwargs_.emplace_back(k, v);
        continue;
      }
      positionalOnlyAsKeyword.push_back(k);
      continue;
    }
    if (i == params_.size()) {
      if (varKwargs_) {
        b.varKwargs_.emplace_back(k, v);
        continue;
      }
      in.raise("TypeError", fmt::format("{}() got an unexpected keyword argument '{}'", name_, k));
    }
    if (b.given_[i]) in.raise("TypeError", fmt::format("{}() got multiple values for argument '{}'", name_, k));
    b.values_[i] = v;
    b.given_[i] = true;
  }
  if (!positionalOnlyAsKeyword.empty()) {
    std::string names;
    for (size_t i = 0; i < positionalOnlyAsKeyword.size(); ++i) names += (i ? ", '" : "'") + positionalOnlyAsKeyword[i] + "'";
    in.raise("TypeError", fmt::format("{}() got some positional-only arguments passed as keyword arguments: {}", name_, names));
  }
  std::vector<std::string> missing, missingKw;
  for (size_t i = 0; i < params_.size(); ++i) {
    if (b.given_[i]) continue;
    if (params_[i].dflt) b.values_[i] = *params_[i].dflt;
    else (params_[i].keywordOnly ? missingKw : missing).push_back(params_[i].name);
  }
  for (auto *m : {&missing, &missingKw}) {
    if (m->empty()) continue;
    in.raise("TypeError", fmt::format("{}() missing {} required {}argument{}: {}", name_, m->size(),
                                      m == &missing ? "positional " : "keyword-only ", m->size() == 1 ? "" : "s",
                                      quotedList(*m)));
  }
  for (size_t i = 0; i < params_.size(); ++i) {
    const Parameter &p = params_[i];
    if (!p.notImplemented || !b.given_[i]) continue;
    const Value &v = b.values_[i];
    // Only plain Python values can equal a literal default (a tensor's ==
    // is elementwise, and is never "the default").
    bool plain = !v.isObj() || v.as<StrObject>() || v.as<TupleObject>() || v.as<ListObject>();
    bool same = p.dflt->isNone() ? v.isNone() : (plain && !v.isNone() && in.equals(v, *p.dflt));
    if (!same)
      in.raise("NotImplementedError", fmt::format("{}() argument '{}' is not supported by tfs (only its default, {}, is)",
                                                  name_, p.name, in.repr(*p.dflt)));
  }
  return b;
}

Value nativeWithSignature(Interpreter &in, std::string_view signature, SignedFn fn) {
  auto sig = std::make_shared<const Signature>(signature);
  return in.native(sig->name(), [sig, fn = std::move(fn)](Interpreter &in, Args a, const Kwargs &kw) {
    return fn(in, sig->bind(in, a, kw));
  });
}

}  // namespace tfs::runtime
