// _tf_io_internal: the native helpers of tf.data's file readers
// (lib/tf/data/_tf_data_readers.tfs): lines of text files as TF's
// TextLineDataset reads them, glob matching as TF's MatchingFiles op,
// rows of decoded CSV columns, and make_csv_dataset's header and column
// type inference.
#include "lib/python/zlib/inflate.h"
#include "lib/tf/io/io_lib.h"
#include "lib/tf/io/tfrecord.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <thread>

namespace tfs::runtime::tf::io {

namespace {

// Lines as BufferedInputStream::ReadLine gives them: split at '\n', every
// '\r' dropped, a last line without '\n' kept if not empty.
std::vector<std::string> splitLines(const std::string &data) {
  std::vector<std::string> lines;
  std::string cur;
  for (char c : data) {
    if (c == '\n') {
      lines.push_back(std::move(cur));
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  if (!cur.empty()) lines.push_back(std::move(cur));
  return lines;
}

// One CSV row split as Python's csv.reader does for make_csv_dataset's
// probing (QUOTE_MINIMAL: '"' quotes, doubled inside; QUOTE_NONE: none).
std::vector<std::string> csvRow(const std::string &line, char delim, bool quotes) {
  std::vector<std::string> out;
  std::string field;
  bool inQuotes = false, wasQuoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (inQuotes) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        inQuotes = false;
      } else {
        field += c;
      }
    } else if (c == delim) {
      out.push_back(std::move(field));
      field.clear();
      wasQuoted = false;
    } else if (quotes && c == '"' && field.empty() && !wasQuoted) {
      inQuotes = wasQuoted = true;
    } else {
      field += c;
    }
  }
  out.push_back(std::move(field));
  return out;
}

std::string_view trimSpace(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// int(s) of numpy's integer scalar types (Python int syntax, range checked).
std::optional<int64_t> pyInt(std::string_view s) {
  s = trimSpace(s);
  std::string digits;
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) digits += s[i++];
  bool prevDigit = false;
  for (; i < s.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(s[i]))) {
      digits += s[i];
      prevDigit = true;
    } else if (s[i] == '_' && prevDigit && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
      prevDigit = false;
    } else {
      return std::nullopt;
    }
  }
  const char *b = digits.data() + (digits.size() && digits[0] == '+' ? 1 : 0);
  int64_t v;
  auto [p, ec] = std::from_chars(b, digits.data() + digits.size(), v);
  if (ec != std::errc() || p != digits.data() + digits.size()) return std::nullopt;
  return v;
}

// float(s) (Python's float syntax: spaces, inf/nan, exponents).
std::optional<double> pyFloat(std::string_view s) {
  s = trimSpace(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  std::string clean;
  for (char c : s)
    if (c != '_') clean += c;
  double v;
  auto [p, ec] = std::from_chars(clean.data(), clean.data() + clean.size(), v);
  if (p != clean.data() + clean.size() || clean.empty()) return std::nullopt;
  if (ec == std::errc::result_out_of_range) return std::strtod(clean.c_str(), nullptr);
  if (ec != std::errc()) return std::nullopt;
  return v;
}

// make_csv_dataset's _infer_type: the least permissive of int32, int64,
// float32, float64, string that holds `s` and is not below `prev`.
int inferType(const std::string &s, const std::string &naValue, int prev) {
  if (s.empty() || s == naValue) return prev;
  auto i = pyInt(s);
  auto f = pyFloat(s);
  bool valid[5] = {i && *i >= INT32_MIN && *i <= INT32_MAX, i.has_value(),
                   f && float(*f) < INFINITY, f && *f < INFINITY, true};
  for (int t = 0; t < 5; ++t)
    if (valid[t] && (prev < 0 || prev <= t)) return t;
  return 4;
}

Value stringTensor(std::string s) { return wrap(Tensor::scalar(std::move(s))); }

// A file's bytes as TF's readers see them with compression_type "" (as
// is), "GZIP" (gzip framing, every member) or "ZLIB" (zlib framing), as
// TF's ZlibInputStream inflates them; bad data is TF's DataLossError.
std::string readDecompressed(Interpreter &in, const std::string &path, const std::string &compression) {
  std::string data = readFileOrRaise(in, path);
  if (compression.empty()) return data;
  if (compression != "GZIP" && compression != "ZLIB")
    raiseTf(in, "InvalidArgumentError", fmt::format("Unsupported compression_type: {}.", compression));
  std::string out;
  size_t pos = 0;
  while (pos < data.size()) {
    z_stream zs{};
    inflateInit2(&zs, compression == "GZIP" ? 16 + MAX_WBITS : MAX_WBITS);
    int rc = inflateInto(zs, data.data() + pos, data.size() - pos, out);
    size_t used = zs.total_in;
    std::string msg = zs.msg ? zs.msg : "";
    inflateEnd(&zs);
    if (rc == Z_BUF_ERROR) raiseTf(in, "DataLossError", "truncated record at " + std::to_string(data.size()));
    if (rc != Z_STREAM_END) raiseTf(in, "DataLossError", fmt::format("inflate() failed with error {}: {}", rc, msg));
    pos += used;
  }
  return out;
}

}  // namespace

void registerIoInternal() {
  Interpreter::registerNativeModule("_tf_io_internal", [](Interpreter &in) -> Value {
    auto m = make<ModuleObject>("_tf_io_internal");
    defSig(in, *m, "read_lines(filename, compression='')", [](Interpreter &in, const Bound &a) {
      std::vector<Value> out;
      for (auto &line : splitLines(readDecompressed(in, pathArg(in, a["filename"]), in.str(a["compression"]))))
        out.push_back(stringTensor(std::move(line)));
      return in.list(out);
    });
    // The records of a TFRecord file up to the first bad one: (records,
    // None) or (records, (error class, message)) -- the dataset yields the
    // good records before raising, as TF's reader does.
    defSig(in, *m, "read_records(filename, compression='')", [](Interpreter &in, const Bound &a) {
      std::vector<Value> out;
      std::string path = pathArg(in, a["filename"]);
      std::string compression = in.str(a["compression"]);
      Value error;
      // A compressed file's records are framed inside the inflated bytes.
      std::optional<std::string> inflated;
      if (!compression.empty()) inflated = readDecompressed(in, path, compression);
      try {
        std::unique_ptr<lib::tfrecord::RecordReader> reader;
        if (inflated)
          reader = std::make_unique<lib::tfrecord::RecordReader>(std::move(*inflated),
                                                                 lib::tfrecord::RecordReader::InMemory{});
        else
          reader = std::make_unique<lib::tfrecord::RecordReader>(path);
        while (auto r = reader->next()) out.push_back(stringTensor(std::move(*r)));
      } catch (const lib::tfrecord::RecordIoError &e) {
        error = in.tuple({in.str(e.tfClass), in.str(e.what())});
      }
      return in.tuple({in.list(out), error});
    });
    defSig(in, *m, "read_text_lines(filename, compression='')", [](Interpreter &in, const Bound &a) {
      std::vector<Value> out;
      for (auto &line : splitLines(readDecompressed(in, pathArg(in, a["filename"]), in.str(a["compression"]))))
        out.push_back(in.str(line));
      return in.list(out);
    });
    defSig(in, *m, "csv_row(line, delim, use_quote_delim)", [](Interpreter &in, const Bound &a) {
      std::vector<Value> out;
      for (auto &f : csvRow(in.str(a["line"]), in.str(a["delim"])[0], in.truth(a["use_quote_delim"])))
        out.push_back(in.str(f));
      return in.list(out);
    });
    // The type index (0 int32 .. 4 string) of `value` given the column's so far (-1 none).
    defSig(in, *m, "infer_type(value, na_value, prev)", [](Interpreter &in, const Bound &a) {
      return Value::integer(int64_t(inferType(in.str(a["value"]), in.str(a["na_value"]), int(in.toInt(a["prev"])))));
    });
    // Rows of equal-length decoded columns: a list of tuples of scalar tensors.
    defSig(in, *m, "unstack_rows(columns)", [](Interpreter &in, const Bound &a) {
      std::vector<Tensor> cols;
      for (const Value &v : in.toList(a["columns"])) {
        Ref<TensorObject> t = toTensor(in, v);
        // (A CSV dataset made while a TF1 graph was the default holds graph
        // tensors: its rows cannot be read eagerly.)
        if (t->symbolic())
          raiseTf(in, "NotImplementedError",
                  "reading a CSV dataset made inside a tf.compat.v1 graph is not supported by tfs: make the dataset "
                  "outside the graph (an Estimator's input_fn may make it)");
        cols.push_back(t->eager);
      }
      int64_t n = cols.empty() ? 0 : cols[0].numElements();
      std::vector<Value> rows;
      for (int64_t r = 0; r < n; ++r) {
        std::vector<Value> row;
        for (const Tensor &c : cols) {
          Tensor t = Tensor::empty(c.dtype(), {});
          if (c.dtype() == DType::String) t.data<std::string>()[0] = c.data<std::string>()[r];
          else std::memcpy(t.rawData(), static_cast<const char *>(c.rawData()) + r * ir::dtypeSize(c.dtype()),
                           ir::dtypeSize(c.dtype()));
          row.push_back(wrap(std::move(t)));
        }
        rows.push_back(in.tuple(row));
      }
      return in.list(rows);
    });
    // TF's MatchingFiles: every pattern's matches, sorted.
    defSig(in, *m, "matching_files(patterns)", [](Interpreter &in, const Bound &a) {
      std::vector<std::string> all;
      for (const Value &p : in.toList(a["patterns"]))
        for (auto &s : globFiles(pathArg(in, p))) all.push_back(std::move(s));
      std::sort(all.begin(), all.end());
      std::vector<Value> out;
      for (auto &s : all) out.push_back(in.str(s));
      return in.list(out);
    });
    // One FixedLenFeature of serialized Examples (the parse_example_dense op).
    defSig(in, *m, "parse_example_dense(serialized, key, dtype, shape, default, tf_op)",
           [](Interpreter &in, const Bound &a) {
      std::vector<Ref<TensorObject>> xs{toTensor(in, a["serialized"], DType::String)};
      DType dtype = dtypeArg(in, a["dtype"]).value_or(DType::Float32);
      if (!a.isNone("default")) xs.push_back(toTensor(in, a["default"], dtype));
      std::vector<int64_t> shape;
      for (const Value &d : in.toList(a["shape"])) shape.push_back(in.toInt(d));
      std::string op = in.str(a["tf_op"]);
      ir::Attrs attrs{{"key", in.str(a["key"])}, {"dtype", dtype}, {"dense_shape", shape}, {"tf_op", op}};
      return Value(callOp1(in, ir::OpKind::ParseExampleDense, xs, attrs, op));
    });
    // One variable-length feature of serialized Examples / SequenceExamples
    // (example_ragged.cpp): (values, lengths, rows) eager tensors; the
    // library calls it through a py_function inside a tf.function (eager
    // false: errors read as a graph kernel's, without the eager prefix).
    defSig(in, *m, "parse_example_ragged(serialized, key, dtype, sequence, shape, required, tf_op, eager)",
           [](Interpreter &in, const Bound &a) {
      RaggedParse c;
      c.key = in.str(a["key"]);
      c.op = in.str(a["tf_op"]);
      c.dtype = dtypeArg(in, a["dtype"]).value_or(DType::Float32);
      c.sequence = in.truth(a["sequence"]);
      c.required = in.truth(a["required"]);
      if (!a.isNone("shape")) {
        c.shape.emplace();
        for (const Value &d : in.toList(a["shape"])) {
          c.shape->push_back(in.toInt(d));
          c.stride *= c.shape->back();
        }
      }
      Tensor serialized = toTensor(in, a["serialized"], DType::String)->eager;
      bool eager = in.truth(a["eager"]);
      std::vector<Tensor> outs;
      try {
        if (serialized.rank() > 1)
          throw ir::OpError{"InvalidArgumentError",
                            fmt::format("Expected serialized to be a scalar or vector, got shape: {} [Op:{}]",
                                        ir::Shape(serialized.shape()).debugString(), c.op)};
        outs = parseExampleRagged(serialized, c);
      } catch (const ir::OpError &e) {
        if (eager) raiseEagerOpError(in, e);
        raiseTf(in, e.errorClass, e.message);
      }
      return in.tuple({wrap(std::move(outs[0])), wrap(std::move(outs[1])), wrap(std::move(outs[2]))});
    });
    // tf.io.serialize_tensor / parse_tensor of one eager tensor
    // (tensor_proto.cpp); eager false: called by a py_function in a graph.
    defSig(in, *m, "serialize_tensor(tensor, eager)", [](Interpreter &in, const Bound &a) {
      Tensor t = toTensor(in, a["tensor"])->eager;
      try {
        return stringTensor(serializeTensorProto(t));
      } catch (const ir::OpError &e) {
        raiseTf(in, e.errorClass, e.message);
      }
    });
    defSig(in, *m, "parse_tensor(serialized, out_type, eager)", [](Interpreter &in, const Bound &a) {
      Tensor s = toTensor(in, a["serialized"], DType::String)->eager;
      DType want = dtypeArg(in, a["out_type"]).value_or(DType::Float32);
      try {
        if (s.rank() != 0)
          throw ir::OpError{"InvalidArgumentError",
                            fmt::format("Expected `serialized` to be a scalar, got shape: {} [Op:ParseTensor]",
                                        ir::Shape(s.shape()).debugString())};
        return wrap(parseTensorProto(s.data<std::string>()[0], want));
      } catch (const ir::OpError &e) {
        if (in.truth(a["eager"])) raiseEagerOpError(in, e);
        raiseTf(in, e.errorClass, e.message);
      }
    });
    // Raises TF's error class `cls` with `message` (what TF's Python
    // raises as errors.X(None, None, message)).
    defSig(in, *m, "raise_error(cls, message)", [](Interpreter &in, const Bound &a) -> Value {
      raiseTf(in, in.str(a["cls"]), in.str(a["message"]));
    });
    defSig(in, *m, "cpu_count()", [](Interpreter &, const Bound &) {
      return Value::integer(int64_t(std::max(1u, std::thread::hardware_concurrency())));
    });
    return Value(m);
  });
}

}  // namespace tfs::runtime::tf::io
