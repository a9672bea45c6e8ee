// `_pandas_csv`: the native core of pandas.read_csv (lib/pandas/pandas._csv.tfs).
// Tokenizing and converting a CSV file field by field in .tfs costs about a
// millisecond per row; the tutorials' files have 300k-400k rows, so the
// tokenizer of pandas' C engine and its per-column type inference live here:
//
//   t = _pandas_csv.tokenize(text, sep, quotechar, skipinitialspace, comment,
//                            delim_whitespace, skip_blank_lines)
//   len(t); t.row(i) -> [str]; t.max_width(); t.first_longer(n) -> row or -1
//   t.take(rows) -> table of those rows
//   t.column(j, na_values, raw) -> int64/float64/bool ndarray, or a list of
//       str with NaN for missing (raw=True: the strings, missing as NaN)
//
// The rules are pandas 1.5's C parser: a quoted field may hold delimiters,
// doubled quotes and newlines; skipinitialspace drops spaces at the start of
// a field (before the delimiter test, so sep=' ' with it collapses runs of
// spaces); the comment character ends the line (a line that starts with it
// is skipped like a blank line); a column is int64 when every present value
// is an integer, float64 when they are numbers (or ints with missing ones),
// bool for True/False spellings with none missing, else object.
#include "lib/pandas/pandas_native.h"
#include "runtime/interp/interpreter.h"
#include "runtime/interp/signature.h"
#include "runtime/tf/tf.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <limits>
#include <unordered_set>

namespace tfs::runtime {

namespace {

struct CsvOptions {
  char sep = ',';
  char quote = '"';
  bool skipInitialSpace = false;
  int comment = -1;  // a character, or -1 for none
  bool whitespace = false;
  bool skipBlankLines = true;
};

using Row = std::vector<std::string>;

// One pass over the text, as the C tokenizer's states do it.
std::vector<Row> tokenize(const std::string &text, const CsvOptions &o) {
  std::vector<Row> rows;
  size_t i = 0, n = text.size();
  while (i < n) {
    Row fields;
    std::string field;
    bool inQuotes = false, quoted = false, startOfField = true, lineDone = false;
    while (i < n) {
      char ch = text[i];
      if (inQuotes) {
        if (ch == o.quote) {
          if (i + 1 < n && text[i + 1] == o.quote) {
            field += o.quote;
            i += 2;
            continue;
          }
          inQuotes = false;
        } else if (ch == '\r' && i + 1 < n && text[i + 1] == '\n') {
          // keep \r\n inside quotes as a newline, like reading in text mode
        } else {
          field += ch;
        }
        ++i;
        continue;
      }
      if (ch == '\n' || ch == '\r') {
        ++i;
        if (ch == '\r' && i < n && text[i] == '\n') ++i;
        lineDone = true;
        break;
      }
      if (o.comment >= 0 && ch == char(o.comment)) {
        while (i < n && text[i] != '\n' && text[i] != '\r') ++i;
        continue;  // the newline ends the line on the next turn
      }
      if (startOfField && ch == o.quote) {
        inQuotes = quoted = true;
        startOfField = false;
        ++i;
        continue;
      }
      if (startOfField && o.skipInitialSpace && ch == ' ' && !o.whitespace) {
        ++i;
        continue;
      }
      if (o.whitespace ? (ch == ' ' || ch == '\t') : ch == o.sep) {
        if (!o.whitespace || !startOfField) {
          fields.push_back(std::move(field));
          field.clear();
          quoted = false;
          startOfField = true;
        }
        ++i;
        continue;
      }
      field += ch;
      startOfField = false;
      ++i;
    }
    (void)lineDone;
    if (o.whitespace) {
      if (!startOfField) fields.push_back(std::move(field));
      if (fields.empty()) continue;
    } else {
      if (fields.empty() && field.empty() && !quoted && o.skipBlankLines) continue;
      fields.push_back(std::move(field));
    }
    rows.push_back(std::move(fields));
  }
  return rows;
}

const std::string &strArg(Interpreter &in, const Value &v, const char *what) {
  if (auto *s = v.as<StrObject>()) return s->s;
  in.raise("TypeError", fmt::format("_pandas_csv: {} must be str, not {}", what, in.typeName(v)));
}

bool isSpace(char c) { return c == ' ' || c == '\t'; }

// [ws][+-]digits[ws]
bool parseInt(const std::string &s, int64_t &out) {
  size_t b = 0, e = s.size();
  while (b < e && isSpace(s[b])) ++b;
  while (e > b && isSpace(s[e - 1])) --e;
  size_t d = b;
  if (d < e && (s[d] == '+' || s[d] == '-')) ++d;
  if (d == e) return false;
  for (size_t k = d; k < e; ++k)
    if (s[k] < '0' || s[k] > '9') return false;
  errno = 0;
  std::string t = s.substr(b, e - b);
  char *end = nullptr;
  long long v = std::strtoll(t.c_str(), &end, 10);
  if (errno == ERANGE) return false;
  out = v;
  return true;
}

bool lowerEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k)
    if (std::tolower(static_cast<unsigned char>(a[k])) != b[k]) return false;
  return true;
}

// [ws][+-](digits[.digits*]|.digits)[(e|E)[+-]digits][ws], or an infinity.
bool parseFloat(const std::string &s, double &out) {
  size_t b = 0, e = s.size();
  while (b < e && isSpace(s[b])) ++b;
  while (e > b && isSpace(s[e - 1])) --e;
  std::string_view t(s.data() + b, e - b);
  for (const char *inf : {"inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"})
    if (lowerEquals(t, inf)) {
      out = t[0] == '-' ? -INFINITY : INFINITY;
      return true;
    }
  size_t k = 0;
  if (k < t.size() && (t[k] == '+' || t[k] == '-')) ++k;
  size_t digits = 0;
  while (k < t.size() && t[k] >= '0' && t[k] <= '9') ++k, ++digits;
  if (k < t.size() && t[k] == '.') {
    ++k;
    while (k < t.size() && t[k] >= '0' && t[k] <= '9') ++k, ++digits;
  }
  if (digits == 0) return false;
  if (k < t.size() && (t[k] == 'e' || t[k] == 'E')) {
    ++k;
    if (k < t.size() && (t[k] == '+' || t[k] == '-')) ++k;
    size_t expDigits = 0;
    while (k < t.size() && t[k] >= '0' && t[k] <= '9') ++k, ++expDigits;
    if (expDigits == 0) return false;
  }
  if (k != t.size()) return false;
  out = std::strtod(std::string(t).c_str(), nullptr);
  return true;
}

bool isTrue(const std::string &s) { return s == "True" || s == "TRUE" || s == "true"; }
bool isFalse(const std::string &s) { return s == "False" || s == "FALSE" || s == "false"; }

struct CsvTable final : Object {
  std::vector<Row> rows;
  const char *typeName() const override { return "_pandas_csv.Table"; }
  std::optional<Value> getAttr(Interpreter &in, const std::string &attr) override;

  Value column(Interpreter &in, size_t j, const std::unordered_set<std::string> &na, bool raw) const;
};

Value CsvTable::column(Interpreter &in, size_t j, const std::unordered_set<std::string> &na, bool raw) const {
  static const std::string empty;
  size_t n = rows.size();
  std::vector<const std::string *> tokens(n);
  std::vector<bool> missing(n);
  bool anyMissing = false;
  for (size_t r = 0; r < n; ++r) {
    tokens[r] = j < rows[r].size() ? &rows[r][j] : &empty;
    missing[r] = na.count(*tokens[r]) > 0;
    anyMissing = anyMissing || missing[r];
  }
  auto objectColumn = [&](auto &&convert) {
    std::vector<Value> items;
    items.reserve(n);
    for (size_t r = 0; r < n; ++r) items.push_back(missing[r] ? Value::real(NAN) : convert(*tokens[r]));
    return in.list(std::move(items));
  };
  auto asStr = [&](const std::string &s) { return in.str(s); };
  if (raw) return objectColumn(asStr);
  bool allPresent = !anyMissing && n > 0;
  std::vector<int64_t> ints(n);
  bool allInt = true;
  for (size_t r = 0; r < n && allInt; ++r)
    if (!missing[r]) allInt = parseInt(*tokens[r], ints[r]);
  if (allInt && allPresent) {
    Tensor t = Tensor::empty(DType::Int64, {int64_t(n)});
    std::copy(ints.begin(), ints.end(), t.data<int64_t>());
    return tf::wrap(std::move(t), true);
  }
  std::vector<double> reals(n);
  bool allFloat = true;
  for (size_t r = 0; r < n && allFloat; ++r) {
    if (missing[r]) reals[r] = NAN;
    else if (allInt) reals[r] = double(ints[r]);
    else allFloat = parseFloat(*tokens[r], reals[r]);
  }
  if (allFloat) {
    Tensor t = Tensor::empty(DType::Float64, {int64_t(n)});
    std::copy(reals.begin(), reals.end(), t.data<double>());
    return tf::wrap(std::move(t), true);
  }
  bool allBool = true;
  for (size_t r = 0; r < n && allBool; ++r)
    if (!missing[r]) allBool = isTrue(*tokens[r]) || isFalse(*tokens[r]);
  if (allBool && allPresent) {
    Tensor t = Tensor::empty(DType::Bool, {int64_t(n)});
    for (size_t r = 0; r < n; ++r) t.data<bool>()[r] = isTrue(*tokens[r]);
    return tf::wrap(std::move(t), true);
  }
  if (allBool) return objectColumn([&](const std::string &s) { return Value::boolean(isTrue(s)); });
  return objectColumn(asStr);
}

std::optional<Value> CsvTable::getAttr(Interpreter &in, const std::string &attr) {
  Ref<CsvTable> self(this);
  if (attr == "nrows") return Value::integer(int64_t(rows.size()));
  if (attr == "row")
    return in.native("row", [self](Interpreter &in, Args a, const Kwargs &) {
      int64_t i = in.toInt(a[0]);
      if (i < 0 || i >= int64_t(self->rows.size())) in.raise("IndexError", "row index out of range");
      std::vector<Value> items;
      for (const std::string &f : self->rows[size_t(i)]) items.push_back(in.str(f));
      return in.list(std::move(items));
    });
  if (attr == "max_width")
    return in.native("max_width", [self](Interpreter &, Args, const Kwargs &) {
      size_t w = 0;
      for (const Row &r : self->rows) w = std::max(w, r.size());
      return Value::integer(int64_t(w));
    });
  if (attr == "first_longer")
    return in.native("first_longer", [self](Interpreter &in, Args a, const Kwargs &) {
      size_t limit = size_t(in.toInt(a[0]));
      for (size_t r = 0; r < self->rows.size(); ++r)
        if (self->rows[r].size() > limit) return in.tuple({Value::integer(int64_t(r)), Value::integer(int64_t(self->rows[r].size()))});
      return Value();
    });
  if (attr == "take")
    return in.native("take", [self](Interpreter &in, Args a, const Kwargs &) {
      auto out = make<CsvTable>();
      for (const Value &v : in.toList(a[0])) {
        int64_t i = in.toInt(v);
        if (i < 0 || i >= int64_t(self->rows.size())) in.raise("IndexError", "row index out of range");
        out->rows.push_back(self->rows[size_t(i)]);
      }
      return Value(out);
    });
  if (attr == "column")
    return in.native("column", [self](Interpreter &in, Args a, const Kwargs &) {
      size_t j = size_t(in.toInt(a[0]));
      std::unordered_set<std::string> na;
      for (const Value &v : in.toList(a[1])) na.insert(strArg(in, v, "a missing-value string"));
      return self->column(in, j, na, in.truth(a[2]));
    });
  return std::nullopt;
}

Value makeCsvModule(Interpreter &in) {
  auto m = make<ModuleObject>("_pandas_csv");
  m->scope->vars["tokenize"] = nativeWithSignature(
      in, "tokenize(text, sep, quotechar, skipinitialspace, comment, delim_whitespace, skip_blank_lines)",
      [](Interpreter &in, const Bound &b) {
        CsvOptions o;
        std::string sep = strArg(in, b["sep"], "sep"), quote = strArg(in, b["quotechar"], "quotechar");
        o.whitespace = in.truth(b["delim_whitespace"]);
        if (!o.whitespace && sep.size() != 1) in.raise("ValueError", "_pandas_csv: a one-character separator is needed");
        if (quote.size() != 1) in.raise("TypeError", "\"quotechar\" must be a 1-character string");
        o.sep = o.whitespace ? ' ' : sep[0];
        o.quote = quote[0];
        o.skipInitialSpace = in.truth(b["skipinitialspace"]);
        if (!b["comment"].isNone()) {
          std::string c = strArg(in, b["comment"], "comment");
          if (c.size() != 1) in.raise("ValueError", "Only length-1 comment characters supported");
          o.comment = static_cast<unsigned char>(c[0]);
        }
        o.skipBlankLines = in.truth(b["skip_blank_lines"]);
        auto t = make<CsvTable>();
        t->rows = tokenize(strArg(in, b["text"], "text"), o);
        return Value(t);
      });
  return Value(m);
}

}  // namespace

void registerPandasModules() { Interpreter::registerNativeModule("_pandas_csv", makeCsvModule); }

}  // namespace tfs::runtime
