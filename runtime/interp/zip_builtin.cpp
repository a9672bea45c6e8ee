// zip(*iterables, strict=False): tuples of the iterables' items in step;
// with strict=True an iterable ending before or after the others is
// CPython 3.11's ValueError naming it.
#include "runtime/interp/zip_builtin.h"

#include <fmt/format.h>

namespace tfs::runtime {

namespace {

struct ZipIter : Object {
  std::vector<Value> its;
  bool strict = false;
  const char *typeName() const override { return "zip"; }
  std::optional<Value> iter(Interpreter &) override { return Value(Ref<Object>(this)); }
  std::optional<Value> next(Interpreter &in) override {
    if (its.empty()) return std::nullopt;
    std::vector<Value> row;
    for (size_t i = 0; i < its.size(); ++i) {
      auto v = in.next(its[i]);
      if (!v) {
        if (strict) checkAllEnded(in, i);
        return std::nullopt;
      }
      row.push_back(*v);
    }
    return in.tuple(std::move(row));
  }

  // Iterable `ended` stopped: the earlier ones gave an item this round
  // (they are longer), or, when it is the first, a later one may still have
  // items.
  void checkAllEnded(Interpreter &in, size_t ended) {
    auto plural = [](size_t n) { return n == 1 ? std::string("argument 1") : fmt::format("arguments 1-{}", n); };
    if (ended > 0)
      in.raise("ValueError", fmt::format("zip() argument {} is shorter than {}", ended + 1, plural(ended)));
    for (size_t j = 1; j < its.size(); ++j)
      if (in.next(its[j]))
        in.raise("ValueError", fmt::format("zip() argument {} is longer than {}", j + 1, plural(j)));
  }
};

}  // namespace

Value makeZip(Interpreter &in, Args a, const Kwargs &kw) {
  auto z = make<ZipIter>();
  for (auto &[name, v] : kw) {
    if (name != "strict") in.raise("TypeError", fmt::format("zip() got an unexpected keyword argument '{}'", name));
    z->strict = in.truth(v);
  }
  for (auto &v : a) z->its.push_back(in.iter(v));
  return Value(z);
}

}  // namespace tfs::runtime
