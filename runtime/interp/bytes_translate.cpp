// bytes.translate / bytearray.translate and bytes.maketrans /
// bytearray.maketrans (CPython 3.11): a table is 256 bytes (or None, the
// identity); `delete` names bytes removed before translating.
#include "runtime/interp/bytes_translate.h"

#include "runtime/interp/signature.h"

#include <fmt/format.h>

namespace tfs::runtime {

namespace {

const std::string &bytesLike(Interpreter &in, const Value &v) {
  if (auto *b = v.as<BytesObject>()) return b->s;
  in.raise("TypeError", fmt::format("a bytes-like object is required, not '{}'", in.typeName(v)));
}

}  // namespace

Value bytesTranslate(Interpreter &in, const BytesObject &self, Args a, const Kwargs &kw) {
  static const Signature sig("translate(table, /, delete=None)");
  Bound b = sig.bind(in, a, kw);
  const std::string *table = nullptr;
  if (!b[0].isNone()) {
    table = &bytesLike(in, b[0]);
    if (table->size() != 256) in.raise("ValueError", "translation table must be 256 characters long");
  }
  bool drop[256] = {};
  if (b.given("delete"))
    for (unsigned char c : bytesLike(in, b[1])) drop[c] = true;
  std::string out;
  out.reserve(self.s.size());
  for (unsigned char c : self.s)
    if (!drop[c]) out += table ? (*table)[c] : char(c);
  auto result = make<BytesObject>(std::move(out));
  result->isMutable = self.isMutable;
  return Value(result);
}

void installBytesMaketrans(Interpreter &in) {
  for (const char *type : {"bytes", "bytearray"}) {
    auto *cls = in.builtin(type).as<ClassObject>();
    auto sm = make<StaticMethodObject>();
    sm->func = in.native("maketrans", [](Interpreter &in, Args a, const Kwargs &kw) {
      static const Signature sig("maketrans(frm, to, /)");
      Bound b = sig.bind(in, a, kw);
      const std::string &from = bytesLike(in, b[0]), &to = bytesLike(in, b[1]);
      if (from.size() != to.size()) in.raise("ValueError", "maketrans arguments must have same length");
      std::string table(256, '\0');
      for (int i = 0; i < 256; ++i) table[size_t(i)] = char(i);
      for (size_t i = 0; i < from.size(); ++i) table[static_cast<unsigned char>(from[i])] = to[i];
      return Value(make<BytesObject>(std::move(table)));
    });
    cls->setAttr("maketrans", Value(sm));
  }
}

}  // namespace tfs::runtime
