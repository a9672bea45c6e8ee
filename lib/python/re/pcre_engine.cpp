// `_pcre`: the regular-expression engine under `re` (re.tfs) — PCRE2 from
// Debian's libpcre2-dev, never a hand-written matcher. Python's pattern
// syntax is translated where PCRE2 reads it differently: \Z (end of string
// only) becomes \z, \uXXXX / \UXXXXXXXX become \x{...}, {,n} becomes {0,n};
// str patterns are Unicode (PCRE2_UTF | PCRE2_UCP, \w \d \s \b as Python's)
// unless re.ASCII; bytes patterns match bytes subjects byte by byte with
// ASCII classes, as CPython's. Positions cross this boundary as code-point
// (for bytes: byte) indices.
// scan() finds every match of an operation at once with Python 3.7's rule
// for empty matches (one may follow a non-empty match, never another empty
// match at the same place: PCRE2_NOTEMPTY_ATSTART after an empty match).
#define PCRE2_CODE_UNIT_WIDTH 8
#include "lib/python/python_modules.h"
#include "lib/python/re/pattern_errors.h"
#include "runtime/interp/interpreter.h"
#include "runtime/interp/signature.h"

#include <fmt/format.h>
#include <memory>
#include <pcre2.h>

namespace tfs::runtime {

namespace {

// Python's re flag values.
constexpr int64_t kIgnoreCase = 2, kLocale = 4, kMultiline = 8, kDotAll = 16, kUnicode = 32, kVerbose = 64,
                  kAscii = 256;

struct CompiledPattern final : Object {
  pcre2_code *code = nullptr;
  bool bytes = false;  // a bytes pattern: bytes subjects, bytes results
  ~CompiledPattern() override { pcre2_code_free(code); }
  const char *typeName() const override { return "_pcre.Pattern"; }
};

bool isHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

std::string translate(const std::string &p) {
  std::string out;
  bool inClass = false;
  for (size_t i = 0; i < p.size(); ++i) {
    char c = p[i];
    if (c == '\\' && i + 1 < p.size()) {
      char e = p[i + 1];
      size_t hexDigits = e == 'u' ? 4 : e == 'U' ? 8 : 0;
      if (hexDigits && i + 1 + hexDigits < p.size() + 0 && [&] {
            for (size_t k = 0; k < hexDigits; ++k)
              if (i + 2 + k >= p.size() || !isHex(p[i + 2 + k])) return false;
            return true;
          }()) {
        out += "\\x{" + p.substr(i + 2, hexDigits) + "}";
        i += 1 + hexDigits;
        continue;
      }
      if (e == 'Z' && !inClass) {
        out += "\\z";
        ++i;
        continue;
      }
      out += c;
      out += e;
      ++i;
      continue;
    }
    if (inClass) {
      if (c == ']') inClass = false;
      out += c;
      continue;
    }
    if (c == '[') {
      inClass = true;
      out += c;
      // a ']' or '^]' first in a class is a literal
      if (i + 1 < p.size() && p[i + 1] == '^') out += p[++i];
      if (i + 1 < p.size() && p[i + 1] == ']') out += p[++i];
      continue;
    }
    if (c == '{' && i + 1 < p.size() && p[i + 1] == ',') {
      size_t j = i + 2;
      while (j < p.size() && std::isdigit(static_cast<unsigned char>(p[j]))) ++j;
      if (j > i + 2 && j < p.size() && p[j] == '}') {
        out += "{0," + p.substr(i + 2, j - i - 2) + "}";
        i = j;
        continue;
      }
    }
    out += c;
  }
  return out;
}

// Byte offsets <-> code-point indices of one subject string.
class Positions {
public:
  // bytes: every byte is one position.
  Positions(const std::string &s, bool bytes) : s_(s) {
    if (bytes) return;
    for (unsigned char c : s)
      if (c >= 0x80) {
        ascii_ = false;
        break;
      }
    if (!ascii_) {
      for (size_t i = 0; i < s.size(); ++i)
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) starts_.push_back(i);
      starts_.push_back(s.size());
    }
  }
  int64_t length() const { return ascii_ ? int64_t(s_.size()) : int64_t(starts_.size()) - 1; }
  size_t byteOf(int64_t cp) const { return ascii_ ? size_t(cp) : starts_[size_t(cp)]; }
  int64_t codePointOf(size_t byte) const {
    if (ascii_) return int64_t(byte);
    return int64_t(std::lower_bound(starts_.begin(), starts_.end(), byte) - starts_.begin());
  }

private:
  const std::string &s_;
  bool ascii_ = true;
  std::vector<size_t> starts_;
};

CompiledPattern &patternOf(Interpreter &in, const Value &v) {
  auto *p = v.as<CompiledPattern>();
  if (!p) in.raise("TypeError", "expected a compiled _pcre pattern");
  return *p;
}

// Clamps Python's pos/endpos as CPython does.
void window(const Positions &pos, const Bound &b, int64_t &start, int64_t &end) {
  int64_t n = pos.length();
  start = b["pos"].isNone() ? 0 : b["pos"].asInt();
  end = b["endpos"].isNone() ? n : b["endpos"].asInt();
  start = std::clamp<int64_t>(start, 0, n);
  end = std::clamp<int64_t>(end, 0, n);
}

// One match as (spans, texts): spans a flat tuple of (start, end)
// code-point pairs, group 0 first, (-1, -1) for a group that did not take
// part; texts each group's text or None (cut here: slicing a long str in
// the interpreter costs a walk over it).
Value textOf(Interpreter &in, std::string text, bool bytes) {
  return bytes ? Value(make<BytesObject>(std::move(text))) : in.str(std::move(text));
}

Value spansOf(Interpreter &in, pcre2_match_data *md, uint32_t groups, const Positions &pos, const std::string &s,
              bool bytes) {
  PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
  std::vector<Value> spans, texts;
  for (uint32_t g = 0; g <= groups; ++g) {
    if (ov[2 * g] == PCRE2_UNSET) {
      spans.push_back(Value::integer(-1));
      spans.push_back(Value::integer(-1));
      texts.push_back(Value());
    } else {
      spans.push_back(Value::integer(pos.codePointOf(ov[2 * g])));
      spans.push_back(Value::integer(pos.codePointOf(ov[2 * g + 1])));
      texts.push_back(textOf(in, s.substr(ov[2 * g], ov[2 * g + 1] - ov[2 * g]), bytes));
    }
  }
  return in.tuple({in.tuple(std::move(spans)), in.tuple(std::move(texts))});
}

int runMatch(Interpreter &in, CompiledPattern &p, const std::string &s, size_t endByte, size_t startByte,
             uint32_t options, pcre2_match_data *md) {
  int rc = pcre2_match(p.code, reinterpret_cast<PCRE2_SPTR>(s.data()), endByte, startByte, options, md, nullptr);
  if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) {
    PCRE2_UCHAR buf[256];
    pcre2_get_error_message(rc, buf, sizeof buf);
    in.raise("RuntimeError", fmt::format("regular expression match failed: {}", reinterpret_cast<char *>(buf)));
  }
  return rc;
}

// One match/scan call: the compiled pattern, the subject string and its
// pos/endpos window, and PCRE2's match data for the pattern.
class MatchCall {
public:
  MatchCall(Interpreter &in, const Bound &b)
      : p(patternOf(in, b["compiled"])), s(subjectOf(in, b["string"], p.bytes)), pos(s, p.bytes),
        md(pcre2_match_data_create_from_pattern(p.code, nullptr), pcre2_match_data_free) {
    window(pos, b, start, end);
    pcre2_pattern_info(p.code, PCRE2_INFO_CAPTURECOUNT, &groups);
  }
  CompiledPattern &p;
  const std::string &s;
  Positions pos;
  int64_t start = 0, end = 0;
  uint32_t groups = 0;
  std::unique_ptr<pcre2_match_data, void (*)(pcre2_match_data *)> md;

private:
  static const std::string &subjectOf(Interpreter &in, const Value &v, bool bytes) {
    if (auto *str = v.as<StrObject>()) {
      if (bytes) in.raise("TypeError", "cannot use a bytes pattern on a string-like object");
      return str->s;
    }
    if (auto *b = v.as<BytesObject>()) {
      if (!bytes) in.raise("TypeError", "cannot use a string pattern on a bytes-like object");
      return b->s;
    }
    in.raise("TypeError", fmt::format("expected string or bytes-like object, got '{}'", in.typeName(v)));
  }
};

Value makePcreModule(Interpreter &in) {
  auto m = make<ModuleObject>("_pcre");
  auto &vars = m->scope->vars;
  // compile(pattern, flags, error_class) -> compiled pattern; a bad pattern
  // raises error_class(message, pattern, pos).
  vars["compile"] = nativeWithSignature(in, "compile(pattern, flags, error_class)", [](Interpreter &in, const Bound &b) -> Value {
    auto *strPattern = b["pattern"].as<StrObject>();
    auto *bytesPattern = b["pattern"].as<BytesObject>();
    if (!strPattern && !bytesPattern) in.raise("TypeError", "first argument must be string or compiled pattern");
    const std::string &patternText = strPattern ? strPattern->s : bytesPattern->s;
    int64_t flags = in.toInt(b["flags"]);
    uint32_t options = 0;
    if (strPattern) {
      if (flags & kLocale) in.raise("ValueError", "cannot use LOCALE flag with a str pattern");
      options = PCRE2_UTF;
      if (!(flags & kAscii)) options |= PCRE2_UCP;
    } else {
      if (flags & kUnicode) in.raise("ValueError", "cannot use UNICODE flag with a bytes pattern");
      if (flags & kLocale) in.raise("NotImplementedError", "re.LOCALE is not supported by tfs");
    }
    if (flags & kIgnoreCase) options |= PCRE2_CASELESS;
    if (flags & kMultiline) options |= PCRE2_MULTILINE;
    if (flags & kDotAll) options |= PCRE2_DOTALL;
    if (flags & kVerbose) options |= PCRE2_EXTENDED;
    std::string text = translate(patternText);
    int err = 0;
    PCRE2_SIZE errOffset = 0;
    pcre2_code *code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), options, &err, &errOffset, nullptr);
    if (!code) {
      PCRE2_UCHAR buf[256];
      pcre2_get_error_message(err, buf, sizeof buf);
      Positions pos(text, bytesPattern != nullptr);
      int64_t at = pos.codePointOf(std::min<size_t>(errOffset, text.size()));
      std::string message = reinterpret_cast<char *>(buf);
      if (auto python = cpythonPatternError(patternText)) std::tie(message, at) = *python;  // CPython's wording
      Value e = in.call(b["error_class"], std::vector<Value>{in.str(message), b["pattern"], Value::integer(at)});
      in.raiseValue(e);
    }
    pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);  // optional: falls back to the interpreter
    auto p = make<CompiledPattern>();
    p->code = code;
    p->bytes = bytesPattern != nullptr;
    return Value(p);
  });
  // info(compiled) -> (number of groups, {name: index})
  vars["info"] = nativeWithSignature(in, "info(compiled)", [](Interpreter &in, const Bound &b) -> Value {
    auto &p = patternOf(in, b["compiled"]);
    uint32_t groups = 0, names = 0, entrySize = 0;
    PCRE2_SPTR table = nullptr;
    pcre2_pattern_info(p.code, PCRE2_INFO_CAPTURECOUNT, &groups);
    pcre2_pattern_info(p.code, PCRE2_INFO_NAMECOUNT, &names);
    pcre2_pattern_info(p.code, PCRE2_INFO_NAMEENTRYSIZE, &entrySize);
    pcre2_pattern_info(p.code, PCRE2_INFO_NAMETABLE, &table);
    // Python's groupindex lists names in group order.
    std::vector<std::pair<int64_t, std::string>> named;
    for (uint32_t i = 0; i < names; ++i) {
      PCRE2_SPTR entry = table + size_t(i) * entrySize;
      named.push_back({int64_t(entry[0]) << 8 | entry[1], reinterpret_cast<const char *>(entry + 2)});
    }
    std::sort(named.begin(), named.end());
    auto d = make<DictObject>();
    for (auto &[index, name] : named) d->set(in, in.str(name), Value::integer(index));
    return in.tuple({Value::integer(groups), Value(d)});
  });
  // match(compiled, string, pos, endpos, mode): (spans, texts) of the first match
  // (mode 0 search, 1 match at pos, 2 fullmatch), or None.
  vars["match"] = nativeWithSignature(in, "match(compiled, string, pos, endpos, mode)", [](Interpreter &in, const Bound &b) -> Value {
    MatchCall c(in, b);
    if (c.start > c.end) return Value();
    int64_t mode = b["mode"].asInt();
    uint32_t options = mode == 1 ? PCRE2_ANCHORED : mode == 2 ? PCRE2_ANCHORED | PCRE2_ENDANCHORED : 0;
    if (runMatch(in, c.p, c.s, c.pos.byteOf(c.end), c.pos.byteOf(c.start), options, c.md.get()) < 0) return Value();
    return spansOf(in, c.md.get(), c.groups, c.pos, c.s, c.p.bytes);
  });
  // scan(compiled, string, pos, endpos, limit) -> (matches, gaps): the
  // (spans, texts) of successive matches (finditer, findall, sub, split),
  // at most limit (0: all), and the text between them (gaps[i] before
  // match i, the last one after every match).
  vars["scan"] = nativeWithSignature(in, "scan(compiled, string, pos, endpos, limit)", [](Interpreter &in, const Bound &b) -> Value {
    MatchCall c(in, b);
    int64_t limit = in.toInt(b["limit"]);
    std::vector<Value> found;
    if (c.start > c.end) return in.tuple({in.list({}), in.list({textOf(in, c.s, c.p.bytes)})});
    size_t at = c.pos.byteOf(c.start), endByte = c.pos.byteOf(c.end), gapStart = 0;
    std::vector<Value> gaps;  // the text before each match, then the tail
    bool lastEmpty = false;
    while (at <= endByte && (limit <= 0 || int64_t(found.size()) < limit)) {
      // PCRE2 checks the subject is valid UTF-8 on the first call only:
      // checking it again per match made a scan quadratic.
      uint32_t options = (lastEmpty ? PCRE2_NOTEMPTY_ATSTART : 0) | (found.empty() ? 0 : PCRE2_NO_UTF_CHECK);
      if (runMatch(in, c.p, c.s, endByte, at, options, c.md.get()) < 0) break;
      PCRE2_SIZE *ov = pcre2_get_ovector_pointer(c.md.get());
      found.push_back(spansOf(in, c.md.get(), c.groups, c.pos, c.s, c.p.bytes));
      gaps.push_back(textOf(in, c.s.substr(gapStart, ov[0] - gapStart), c.p.bytes));
      gapStart = ov[1];
      lastEmpty = ov[0] == ov[1];
      at = ov[1];
      in.pollInterrupt();
    }
    gaps.push_back(textOf(in, c.s.substr(gapStart), c.p.bytes));
    return in.tuple({in.list(std::move(found)), in.list(std::move(gaps))});
  });
  return Value(m);
}

}  // namespace

void registerPcreModule() { Interpreter::registerNativeModule("_pcre", makePcreModule); }

}  // namespace tfs::runtime
