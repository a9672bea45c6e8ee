// regex_full_match / regex_replace: TF's RE2 patterns run on PCRE2 (the two
// agree on RE2's syntax). What RE2 rejects and PCRE2 would accept
// (backreferences, lookaround, atomic groups, possessive quantifiers) is
// refused with RE2's error text, so no pattern means something else here.
// RE2 rewrites (\0..\9 groups, \\ a backslash) become PCRE2's ${n} / $$.
#define PCRE2_CODE_UNIT_WIDTH 8
#include "runtime/kernels/kernel_util.h"

#include <memory>
#include <pcre2.h>

namespace tfs::runtime::kernels {

namespace {

[[noreturn]] void badPattern(OpKind k, const std::string &pattern, const std::string &why) {
  fail(k, fmt::format("Invalid pattern: {}, error: {}", pattern, why));
}

// The RE2 constructs PCRE2 would read differently (or RE2 lacks).
void checkRe2Syntax(OpKind k, const std::string &p) {
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '\\' && i + 1 < p.size()) {
      char c = p[i + 1];
      if (c >= '1' && c <= '9') badPattern(k, p, fmt::format("invalid escape sequence: \\{}", c));
      if (c == 'Q') {  // \Q...\E is literal text in both
        size_t e = p.find("\\E", i + 2);
        i = e == std::string::npos ? p.size() : e + 1;
        continue;
      }
      ++i;
      continue;
    }
    if (p[i] == '[') {  // skip a character class
      size_t j = i + 1;
      if (j < p.size() && p[j] == '^') ++j;
      if (j < p.size() && p[j] == ']') ++j;
      while (j < p.size() && p[j] != ']') j += p[j] == '\\' ? 2 : 1;
      i = j;
      continue;
    }
    if (p.compare(i, 3, "(?=") == 0 || p.compare(i, 3, "(?!") == 0 || p.compare(i, 4, "(?<=") == 0 ||
        p.compare(i, 4, "(?<!") == 0 || p.compare(i, 3, "(?>") == 0)
      badPattern(k, p, fmt::format("invalid perl operator: {}", p.substr(i, 3)));
    if ((p[i] == '*' || p[i] == '+' || p[i] == '?' || p[i] == '}') && i + 1 < p.size() && p[i + 1] == '+')
      badPattern(k, p, fmt::format("bad repetition operator: {}+", p[i]));
  }
}

struct Code {
  pcre2_code *code = nullptr;
  ~Code() { pcre2_code_free(code); }
};

std::unique_ptr<Code> compile(OpKind k, const std::string &pattern, uint32_t extra) {
  checkRe2Syntax(k, pattern);
  int err = 0;
  PCRE2_SIZE offset = 0;
  auto c = std::make_unique<Code>();
  c->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                          PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | extra, &err, &offset, nullptr);
  if (!c->code) {
    PCRE2_UCHAR buf[256];
    pcre2_get_error_message(err, buf, sizeof buf);
    badPattern(k, pattern, reinterpret_cast<const char *>(buf));
  }
  return c;
}

struct MatchData {
  pcre2_match_data *data;
  explicit MatchData(const pcre2_code *c) : data(pcre2_match_data_create_from_pattern(c, nullptr)) {}
  ~MatchData() { pcre2_match_data_free(data); }
};

std::vector<Tensor> fullMatch(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::RegexFullMatch, in, attrs);
  auto code = compile(OpKind::RegexFullMatch, ir::attrString(attrs, "pattern", ""), PCRE2_ANCHORED | PCRE2_ENDANCHORED);
  MatchData md(code->code);
  const std::string *p = in[0].data<std::string>();
  bool *q = out[0].data<bool>();
  for (int64_t i = 0; i < in[0].numElements(); ++i)
    q[i] = pcre2_match(code->code, reinterpret_cast<PCRE2_SPTR>(p[i].data()), p[i].size(), 0, 0, md.data, nullptr) >= 0;
  return out;
}

std::string pcreRewrite(const std::string &rewrite) {
  std::string out;
  for (size_t i = 0; i < rewrite.size(); ++i) {
    char c = rewrite[i];
    if (c == '$') out += "$$";
    else if (c == '\\' && i + 1 < rewrite.size() && rewrite[i + 1] >= '0' && rewrite[i + 1] <= '9')
      out += fmt::format("${{{}}}", rewrite[++i]);
    else if (c == '\\' && i + 1 < rewrite.size() && rewrite[i + 1] == '\\') out += rewrite[++i];
    else if (c == '\\')
      fail(OpKind::RegexReplace, fmt::format("Invalid rewrite pattern: {}", rewrite));
    else out += c;
  }
  return out;
}

std::vector<Tensor> replace(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::RegexReplace, in, attrs);
  auto code = compile(OpKind::RegexReplace, ir::attrString(attrs, "pattern", ""), 0);
  std::string rewrite = pcreRewrite(ir::attrString(attrs, "rewrite", ""));
  uint32_t options = PCRE2_SUBSTITUTE_OVERFLOW_LENGTH;
  if (ir::attrBool(attrs, "replace_global", true)) options |= PCRE2_SUBSTITUTE_GLOBAL;
  const std::string *p = in[0].data<std::string>();
  std::string *q = out[0].data<std::string>();
  for (int64_t i = 0; i < in[0].numElements(); ++i) {
    std::string buf(p[i].size() * 2 + 64, '\0');
    for (;;) {
      PCRE2_SIZE size = buf.size();
      int rc = pcre2_substitute(code->code, reinterpret_cast<PCRE2_SPTR>(p[i].data()), p[i].size(), 0, options,
                                nullptr, nullptr, reinterpret_cast<PCRE2_SPTR>(rewrite.data()), rewrite.size(),
                                reinterpret_cast<PCRE2_UCHAR *>(buf.data()), &size);
      if (rc == PCRE2_ERROR_NOMEMORY) {
        buf.assign(size + 1, '\0');
        continue;
      }
      if (rc < 0) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(rc, msg, sizeof msg);
        fail(OpKind::RegexReplace, reinterpret_cast<const char *>(msg));
      }
      q[i] = buf.substr(0, size);
      break;
    }
  }
  return out;
}

}  // namespace

void registerStringRegex(KernelTable &t) {
  t[size_t(OpKind::RegexFullMatch)] = fullMatch;
  t[size_t(OpKind::RegexReplace)] = replace;
}

}  // namespace tfs::runtime::kernels
