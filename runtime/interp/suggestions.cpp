#include "runtime/interp/suggestions.h"

#include "runtime/interp/builtin_dir.h"
#include "runtime/interp/interpreter.h"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <set>

namespace tfs::runtime {
namespace {

constexpr size_t kMaxCandidates = 750;
constexpr size_t kMaxStringSize = 40;
constexpr size_t kMoveCost = 2;
constexpr size_t kCaseCost = 1;

size_t substitutionCost(char a, char b) {
  if ((a & 31) != (b & 31)) return kMoveCost;
  if (a == b) return 0;
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c + ('a' - 'A')) : c; };
  return lower(a) == lower(b) ? kCaseCost : kMoveCost;
}

}  // namespace

size_t suggestionDistance(std::string_view a, std::string_view b, size_t maxCost) {
  // Common prefixes and suffixes cost nothing.
  while (!a.empty() && !b.empty() && a.front() == b.front()) a.remove_prefix(1), b.remove_prefix(1);
  while (!a.empty() && !b.empty() && a.back() == b.back()) a.remove_suffix(1), b.remove_suffix(1);
  if (a.empty() || b.empty()) return (a.size() + b.size()) * kMoveCost;
  if (a.size() > kMaxStringSize || b.size() > kMaxStringSize) return maxCost + 1;
  if (b.size() < a.size()) std::swap(a, b);  // a is the shorter
  if ((b.size() - a.size()) * kMoveCost > maxCost) return maxCost + 1;
  // One row of the edit matrix, updated in place: row[i] = cost(b[:j], a[:i+1]).
  size_t row[kMaxStringSize];
  for (size_t i = 0; i < a.size(); ++i) row[i] = (i + 1) * kMoveCost;
  size_t result = 0;
  for (size_t j = 0; j < b.size(); ++j) {
    size_t diagonal = j * kMoveCost;  // cost(b[:j], a[:0])
    result = diagonal;
    size_t minimum = std::numeric_limits<size_t>::max();
    for (size_t i = 0; i < a.size(); ++i) {
      size_t substitute = diagonal + substitutionCost(b[j], a[i]);
      diagonal = row[i];
      result = std::min(std::min(result, diagonal) + kMoveCost, substitute);
      row[i] = result;
      minimum = std::min(minimum, result);
    }
    if (minimum > maxCost) return maxCost + 1;  // the whole row is too far
  }
  return result;
}

std::optional<std::string> closestName(const std::vector<std::string> &candidates, std::string_view name) {
  if (candidates.size() >= kMaxCandidates) return std::nullopt;
  std::optional<std::string> best;
  size_t bestDistance = std::numeric_limits<size_t>::max();
  for (const std::string &c : candidates) {
    if (c == name) continue;
    // No more than a third of the characters involved may change.
    size_t maxDistance = (name.size() + c.size() + 3) * kMoveCost / 6;
    maxDistance = std::min(maxDistance, bestDistance - 1);
    size_t d = suggestionDistance(name, c, maxDistance);
    if (d > maxDistance) continue;
    if (!best || d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

std::vector<std::string> attributeNames(Interpreter &in, const Value &obj) {
  std::set<std::string> names;
  // A built-in type's own names as CPython lists them; false when the table
  // does not have the type.
  auto addBuiltin = [&](std::string_view type) {
    for (const auto &[name, words] : builtinTypeDicts()) {
      if (name != type) continue;
      size_t i = 0;
      while (i < words.size()) {
        size_t end = words.find(' ', i);
        if (end == std::string_view::npos) end = words.size();
        names.emplace(words.substr(i, end - i));
        i = end + 1;
      }
      return true;
    }
    return false;
  };
  auto addClass = [&](const ClassObject *c) {
    for (ClassObject *k : c->mro) {
      // Built-in: marked so, a native constructor, or object itself.
      bool builtin = k->dict.count("__builtin__") > 0 || k->construct || k->bases.empty();
      if (builtin && addBuiltin(k->name)) continue;
      // tfs's own bookkeeping (not in CPython's class __dict__).
      for (auto &[n, v] : k->dict)
        if (n != "__builtin__" && n != "__qualname__") names.insert(n);
      if (builtin) continue;
      // A class statement's namespace always has these; one without
      // __slots__ also gives its instances a __dict__ and weak references.
      names.insert("__module__");
      names.insert("__doc__");
      if (!k->dict.count("__slots__")) {
        names.insert("__dict__");
        names.insert("__weakref__");
      }
    }
  };
  if (auto *m = obj.as<ModuleObject>()) {
    for (auto &[n, v] : m->scope->vars) names.insert(n);
  } else if (auto *c = obj.as<ClassObject>()) {
    addClass(c);
  } else if (auto *inst = obj.as<InstanceObject>()) {
    for (auto &[n, v] : inst->attrs) names.insert(n);
    addClass(inst->klass.get());
  } else {
    addClass(in.typeOf(obj).get());
  }
  return {names.begin(), names.end()};
}

std::string suggestionFor(Interpreter &in, const Value &exc) {
  auto *inst = exc.as<InstanceObject>();
  if (!inst) return "";
  std::optional<std::string> best;
  if (auto s = inst->attrs.find(kSuggestionAttr); s != inst->attrs.end()) {
    if (s->second.isNone()) return "";
    best = in.str(s->second);
  } else {
    auto name = inst->attrs.find("name"), obj = inst->attrs.find("obj");
    if (name == inst->attrs.end() || obj == inst->attrs.end() || !name->second.as<StrObject>()) return "";
    if (!in.isInstance(exc, in.exceptionClass("AttributeError").get())) return "";
    best = closestName(attributeNames(in, obj->second), in.str(name->second));
  }
  return best ? fmt::format("Did you mean: '{}'?", *best) : "";
}

}  // namespace tfs::runtime
