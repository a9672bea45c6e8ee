// `_json`: the JSON scanner under json.decoder (json.decoder.tfs), native
// because a document is read character by character and the interpreter's
// str indexing is by code point. It reads what CPython 3.11's C scanner
// (Modules/_json.c) reads and fails where it fails, with the same messages
// and positions (code-point indices into the document): JSONDecodeError is
// json.decoder's class, passed in by the caller.
#include "frontend/literals.h"
#include "lib/python/python_modules.h"
#include "runtime/interp/big_int.h"
#include "runtime/interp/interpreter.h"
#include "runtime/interp/signature.h"

#include <fmt/format.h>

namespace tfs::runtime {

namespace {

struct Hooks {
  Value objectHook, pairsHook, parseFloat, parseInt, parseConstant, errorClass;
  bool strict = true;
};

class Scanner {
public:
  Scanner(Interpreter &in, const std::string &doc, const Value &docValue, const Hooks &hooks)
      : in_(in), s_(doc), doc_(docValue), h_(hooks) {}

  // The value starting at byte i; `end` receives the byte just past it.
  Value value(size_t i, size_t &end) {
    if (i >= s_.size()) fail("Expecting value", i);
    switch (s_[i]) {
    case '"': return string(i + 1, end);
    case '{': return object(i + 1, end);
    case '[': return array(i + 1, end);
    case 'n':
      if (startsWith(i, "null")) return end = i + 4, Value();
      break;
    case 't':
      if (startsWith(i, "true")) return end = i + 4, Value::boolean(true);
      break;
    case 'f':
      if (startsWith(i, "false")) return end = i + 5, Value::boolean(false);
      break;
    case 'N':
      if (startsWith(i, "NaN")) return end = i + 3, constant("NaN");
      break;
    case 'I':
      if (startsWith(i, "Infinity")) return end = i + 8, constant("Infinity");
      break;
    case '-':
      if (startsWith(i, "-Infinity")) return end = i + 9, constant("-Infinity");
      break;
    }
    return number(i, end);
  }

  size_t skipSpace(size_t i) const {
    while (i < s_.size() && (s_[i] == ' ' || s_[i] == '\t' || s_[i] == '\n' || s_[i] == '\r')) ++i;
    return i;
  }

  int64_t codePointIndex(size_t byte) const {
    int64_t n = 0;
    for (size_t i = 0; i < byte && i < s_.size(); ++i) n += (static_cast<unsigned char>(s_[i]) & 0xC0) != 0x80;
    return n;
  }

  [[noreturn]] void fail(const std::string &msg, size_t byte) {
    Value err = in_.call(h_.errorClass, std::vector<Value>{in_.str(msg), doc_, Value::integer(codePointIndex(byte))});
    in_.raiseValue(err);
  }

private:
  bool startsWith(size_t i, std::string_view word) const { return s_.compare(i, word.size(), word) == 0; }

  Value constant(const char *name) {
    if (!h_.parseConstant.isNone()) return in_.call(h_.parseConstant, std::vector<Value>{in_.str(name)});
    if (name[0] == 'N') return Value::real(std::numeric_limits<double>::quiet_NaN());
    return Value::real(name[0] == '-' ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity());
  }

  static bool digit(char c) { return c >= '0' && c <= '9'; }

  Value number(size_t start, size_t &end) {
    size_t i = start, n = s_.size();
    if (i < n && s_[i] == '-') ++i;
    if (i >= n || !digit(s_[i])) fail("Expecting value", start);
    if (s_[i] == '0') ++i;
    else
      while (i < n && digit(s_[i])) ++i;
    bool isFloat = false;
    if (i + 1 < n && s_[i] == '.' && digit(s_[i + 1])) {
      i += 2;
      while (i < n && digit(s_[i])) ++i;
      isFloat = true;
    }
    if (i < n && (s_[i] == 'e' || s_[i] == 'E')) {
      size_t j = i + 1;
      if (j < n && (s_[j] == '+' || s_[j] == '-')) ++j;
      if (j < n && digit(s_[j])) {
        while (j < n && digit(s_[j])) ++j;
        i = j;
        isFloat = true;
      }
    }
    end = i;
    Value text = in_.str(s_.substr(start, i - start));
    if (isFloat) {
      if (!h_.parseFloat.isNone()) return in_.call(h_.parseFloat, std::vector<Value>{text});
      return Value::real(in_.toFloat(text));
    }
    if (!h_.parseInt.isNone()) return in_.call(h_.parseInt, std::vector<Value>{text});
    return intOf(in_, text);  // any size, as CPython's int(text)
  }

  // Four hex digits after the 'u' at byte u.
  uint32_t hex4(size_t u) {
    if (u + 4 >= s_.size()) fail("Invalid \\uXXXX escape", u);
    uint32_t v = 0;
    for (size_t k = u + 1; k <= u + 4; ++k) {
      char c = s_[k];
      int d = digit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
      if (d < 0) fail("Invalid \\uXXXX escape", u);
      v = v * 16 + uint32_t(d);
    }
    return v;
  }

  // i: the byte just past the opening quote.
  Value string(size_t i, size_t &end) {
    std::string out;
    size_t begin = i - 1, n = s_.size();
    while (true) {
      size_t j = i;
      while (j < n && s_[j] != '"' && s_[j] != '\\' && static_cast<unsigned char>(s_[j]) >= 0x20) ++j;
      if (j >= n) fail("Unterminated string starting at", begin);
      out.append(s_, i, j - i);
      char c = s_[j];
      if (c == '"') {
        end = j + 1;
        return in_.str(std::move(out));
      }
      if (c != '\\') {
        if (h_.strict) fail("Invalid control character at", j);
        out += c;
        i = j + 1;
        continue;
      }
      if (j + 1 >= n) fail("Unterminated string starting at", begin);
      char e = s_[j + 1];
      if (e != 'u') {
        const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
        const char *hit = std::strchr(from, e);
        if (!hit || !e) fail("Invalid \\escape", j);
        out += to[hit - from];
        i = j + 2;
        continue;
      }
      uint32_t cp = hex4(j + 1);
      i = j + 6;
      if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < n && s_[i] == '\\' && s_[i + 1] == 'u') {
        uint32_t low = hex4(i + 1);
        if (low >= 0xDC00 && low <= 0xDFFF) {
          cp = 0x10000 + (((cp - 0xD800) << 10) | (low - 0xDC00));
          i += 6;
        }
      }
      if (cp >= 0xD800 && cp <= 0xDFFF)
        in_.raise("NotImplementedError", fmt::format("a lone surrogate \\u{:04x} in a JSON string is not supported by tfs", cp));
      frontend::appendUtf8(out, cp);
    }
  }

  Value object(size_t i, size_t &end) {
    std::vector<Value> pairs;
    auto finish = [&](size_t after) -> Value {
      end = after;
      if (!h_.pairsHook.isNone()) return in_.call(h_.pairsHook, std::vector<Value>{in_.list(std::move(pairs))});
      auto d = make<DictObject>();
      for (auto &p : pairs) {
        auto &kv = p.as<TupleObject>()->items;
        d->set(in_, kv[0], kv[1]);
      }
      if (!h_.objectHook.isNone()) return in_.call(h_.objectHook, std::vector<Value>{Value(d)});
      return Value(d);
    };
    size_t n = s_.size();
    i = skipSpace(i);
    if (i < n && s_[i] == '}') return finish(i + 1);
    while (true) {
      if (i >= n || s_[i] != '"') fail("Expecting property name enclosed in double quotes", i);
      size_t after;
      Value key = string(i + 1, after);
      i = skipSpace(after);
      if (i >= n || s_[i] != ':') fail("Expecting ':' delimiter", i);
      i = skipSpace(i + 1);
      Value v = value(i, after);
      pairs.push_back(in_.tuple({key, v}));
      i = skipSpace(after);
      if (i < n && s_[i] == '}') return finish(i + 1);
      if (i >= n || s_[i] != ',') fail("Expecting ',' delimiter", i);
      i = skipSpace(i + 1);
    }
  }

  Value array(size_t i, size_t &end) {
    std::vector<Value> items;
    size_t n = s_.size();
    i = skipSpace(i);
    if (i < n && s_[i] == ']') return end = i + 1, in_.list({});
    while (true) {
      size_t after;
      items.push_back(value(i, after));
      i = skipSpace(after);
      if (i < n && s_[i] == ']') return end = i + 1, in_.list(std::move(items));
      if (i >= n || s_[i] != ',') fail("Expecting ',' delimiter", i);
      i = skipSpace(i + 1);
    }
  }

  Interpreter &in_;
  const std::string &s_;
  Value doc_;
  const Hooks &h_;
};

size_t byteOfCodePoint(const std::string &s, int64_t cp) {
  size_t i = 0;
  for (int64_t c = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
      if (c == cp) break;
      ++c;
    }
  return i;
}

Value makeJsonScanner(Interpreter &in) {
  auto m = make<ModuleObject>("_json");
  // decode(doc, idx, ...) -> (value, end): the value at code point idx, or
  // with whole=True the document's only value (CPython's "Extra data").
  m->scope->vars["scan"] = nativeWithSignature(
      in,
      "scan(doc, idx, strict, object_hook, object_pairs_hook, parse_float, parse_int, parse_constant, error_class, "
      "whole=False)",
      [](Interpreter &in, const Bound &b) -> Value {
        auto *doc = b["doc"].as<StrObject>();
        if (!doc) in.raise("TypeError", fmt::format("first argument must be a string, not {}", in.typeName(b["doc"])));
        Hooks h{b["object_hook"], b["object_pairs_hook"], b["parse_float"], b["parse_int"], b["parse_constant"],
                b["error_class"], in.truth(b["strict"])};
        Scanner scan(in, doc->s, b["doc"], h);
        int64_t idx = in.toIndex(b["idx"]);
        if (idx < 0) in.raise("ValueError", "idx cannot be negative");
        size_t start = byteOfCodePoint(doc->s, idx), end = start;
        bool whole = in.truth(b["whole"]);
        if (whole) start = scan.skipSpace(start);
        Value v = scan.value(start, end);
        if (whole) {
          end = scan.skipSpace(end);
          if (end != doc->s.size()) scan.fail("Extra data", end);
        }
        return in.tuple({v, Value::integer(scan.codePointIndex(end))});
      });
  return Value(m);
}

}  // namespace

void registerJsonScannerModule() { Interpreter::registerNativeModule("_json", makeJsonScanner); }

}  // namespace tfs::runtime
