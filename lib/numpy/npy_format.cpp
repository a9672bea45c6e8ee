#include "lib/numpy/npy_format.h"
#include "lib/numpy/object_array.h"
#include "lib/numpy/ndarray_text.h"
#include "runtime/interp/codecs.h"

#include <cstring>
#include <fmt/format.h>
#include <memory>

namespace tfs::runtime::tf::numpy {

namespace {

// A shape as Python prints the tuple, "(2, 3)": numpy's MemoryError formats
// the shape in Python (its C messages use shapeText's "(2,3)").
std::string pyTupleText(const Shape &shape) {
  if (shape.size() == 1) return fmt::format("({},)", shape[0]);
  return fmt::format("({})", fmt::join(shape, ", "));
}

// --- dtypes ---------------------------------------------------------------------

const char *descrOf(DType d) {
  switch (d) {
  case DType::Bool: return "|b1";
  case DType::Int32: return "<i4";
  case DType::Int64: return "<i8";
  case DType::Float32: return "<f4";
  case DType::Float64: return "<f8";
  case DType::Int8: return "|i1";
  case DType::Int16: return "<i2";
  case DType::UInt8: return "|u1";
  case DType::UInt16: return "<u2";
  case DType::UInt32: return "<u4";
  case DType::UInt64: return "<u8";
  case DType::Float16: return "<f2";
  case DType::String: break;
  default: break;  // dtypes tfs's numpy lacks: no descr (the caller raises)
  }
  return nullptr;
}

// numpy's names of the type codes tfs does not have (for the error).
const char *unsupportedTypeName(char kind, int size) {
  switch (kind) {
  case 'f': return size == 16 ? "float128" : nullptr;
  case 'c': return size == 8 ? "complex64" : size == 16 ? "complex128" : size == 32 ? "complex256" : nullptr;
  case 'U': return "str";
  case 'S': return "bytes";
  case 'V': return "void";
  default: return nullptr;
  }
}

// --- the header: a Python literal (numpy parses it with ast.literal_eval) ---------

struct Literal {
  enum class Kind { Dict, List, Tuple, Str, Int, Bool, None } kind = Kind::None;
  std::string s;
  int64_t i = 0;
  bool intOverflow = false;
  std::vector<Literal> keys, values;  // Dict (clang 14 cannot hold pairs of an incomplete type)
  std::vector<Literal> elems;                      // List, Tuple
};

std::string reprOf(const Literal &l) {
  switch (l.kind) {
  case Literal::Kind::Str: {
    bool dq = l.s.find('\'') != std::string::npos && l.s.find('"') == std::string::npos;
    char q = dq ? '"' : '\'';
    std::string out(1, q);
    for (char c : l.s) {
      if (c == q || c == '\\') out += '\\';
      if (c == '\n') out += "\\n";
      else out += c;
    }
    return out + q;
  }
  case Literal::Kind::Int: return l.intOverflow ? std::string("<int>") : std::to_string(l.i);
  case Literal::Kind::Bool: return l.i ? "True" : "False";
  case Literal::Kind::None: return "None";
  case Literal::Kind::Dict: {
    std::string out = "{";
    for (size_t k = 0; k < l.keys.size(); ++k)
      out += (k ? ", " : "") + reprOf(l.keys[k]) + ": " + reprOf(l.values[k]);
    return out + "}";
  }
  case Literal::Kind::List:
  case Literal::Kind::Tuple: {
    bool tuple = l.kind == Literal::Kind::Tuple;
    std::string out = tuple ? "(" : "[";
    for (size_t k = 0; k < l.elems.size(); ++k) out += (k ? ", " : "") + reprOf(l.elems[k]);
    if (tuple && l.elems.size() == 1) out += ",";
    return out + (tuple ? ")" : "]");
  }
  }
  return "";
}

// Recursive descent over the literals numpy writes (dicts, tuples, lists,
// strings, ints, True/False/None); anything else fails.
class LiteralParser {
public:
  explicit LiteralParser(const std::string &text) : t_(text) {}
  bool parse(Literal &out) {
    if (!value(out, 0)) return false;
    skipSpace();
    return p_ == t_.size();
  }

private:
  const std::string &t_;
  size_t p_ = 0;

  void skipSpace() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\t' || t_[p_] == '\n' || t_[p_] == '\r')) ++p_;
  }
  bool eat(char c) {
    skipSpace();
    if (p_ < t_.size() && t_[p_] == c) {
      ++p_;
      return true;
    }
    return false;
  }
  bool sequence(char close, std::vector<Literal> &elems, bool &sawComma, int depth) {
    sawComma = false;
    while (!eat(close)) {
      Literal e;
      if (!value(e, depth + 1)) return false;
      elems.push_back(std::move(e));
      if (eat(',')) sawComma = true;
      else if (!eat(close)) return false;
      else return true;
    }
    return true;
  }
  bool value(Literal &out, int depth) {
    if (depth > 32) return false;
    skipSpace();
    if (p_ >= t_.size()) return false;
    char c = t_[p_];
    if (c == '{') {
      ++p_;
      out.kind = Literal::Kind::Dict;
      while (!eat('}')) {
        Literal k, v;
        if (!value(k, depth + 1) || !eat(':') || !value(v, depth + 1)) return false;
        if (k.kind == Literal::Kind::Dict || k.kind == Literal::Kind::List) return false;  // unhashable
        bool replaced = false;
        for (size_t j = 0; j < out.keys.size(); ++j)
          if (reprOf(out.keys[j]) == reprOf(k)) out.values[j] = v, replaced = true;
        if (!replaced) {
          out.keys.push_back(std::move(k));
          out.values.push_back(std::move(v));
        }
        if (!eat(',')) return eat('}');
      }
      return true;
    }
    if (c == '(' || c == '[') {
      ++p_;
      bool comma = false;
      out.kind = c == '(' ? Literal::Kind::Tuple : Literal::Kind::List;
      if (!sequence(c == '(' ? ')' : ']', out.elems, comma, depth)) return false;
      if (c == '(' && out.elems.size() == 1 && !comma) {  // (x) is x
        Literal inner = out.elems[0];
        out = inner;
      }
      return true;
    }
    if (c == '\'' || c == '"') {
      ++p_;
      out.kind = Literal::Kind::Str;
      while (p_ < t_.size() && t_[p_] != c) {
        if (t_[p_] == '\\' || t_[p_] == '\n') return false;  // escapes: not in numpy's headers
        out.s += t_[p_++];
      }
      if (p_ >= t_.size()) return false;
      ++p_;
      return true;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      bool neg = c == '-';
      if (neg) ++p_;
      size_t start = p_;
      __int128 v = 0;
      while (p_ < t_.size() && t_[p_] >= '0' && t_[p_] <= '9') {
        v = v * 10 + (t_[p_++] - '0');
        if (v > INT64_MAX) out.intOverflow = true, v = INT64_MAX;
      }
      if (p_ == start) return false;
      if (p_ < t_.size() && (t_[p_] == '.' || t_[p_] == 'e' || t_[p_] == 'E' || t_[p_] == 'j')) return false;
      out.kind = Literal::Kind::Int;
      out.i = int64_t(neg ? -v : v);
      return true;
    }
    for (auto [word, kind, val] : {std::tuple{"True", Literal::Kind::Bool, 1}, std::tuple{"False", Literal::Kind::Bool, 0},
                                   std::tuple{"None", Literal::Kind::None, 0}}) {
      size_t n = std::strlen(word);
      if (t_.compare(p_, n, word) == 0) {
        p_ += n;
        out.kind = kind;
        out.i = val;
        return true;
      }
    }
    return false;
  }
};

std::string pyRepr(Interpreter &in, const std::string &s) { return in.repr(in.str(s)); }

// A header's dtype: the engine's, or numpy's errors for the others.
DType dtypeOfDescr(Interpreter &in, const Literal &descr, const NpyLoadOptions &opts) {
  if (descr.kind == Literal::Kind::List)
    in.raise("NotImplementedError", "np.load of structured arrays (a record dtype) is not supported by tfs");
  auto invalid = [&]() -> DType { in.raise("ValueError", "descr is not a valid dtype descriptor: " + reprOf(descr)); };
  if (descr.kind != Literal::Kind::Str) invalid();
  std::string d = descr.s;
  char order = '=';
  if (!d.empty() && (d[0] == '<' || d[0] == '>' || d[0] == '|' || d[0] == '=')) order = d[0], d.erase(0, 1);
  if (d == "O") {
    if (!opts.allowPickle) in.raise("ValueError", "Object arrays cannot be loaded when allow_pickle=False");
    in.raise("NotImplementedError", "np.load of object arrays is not supported by tfs");
  }
  if (d.size() < 2) invalid();
  char kind = d[0];
  std::string digits = d.substr(1);
  if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 6) {
    if (kind == 'M' || kind == 'm') in.raise("NotImplementedError", "np.load of datetime arrays is not supported by tfs");
    invalid();
  }
  int size = std::stoi(digits);
  DType out;
  if (kind == 'b' && size == 1) out = DType::Bool;
  else if (kind == 'i' && size == 1) out = DType::Int8;
  else if (kind == 'i' && size == 2) out = DType::Int16;
  else if (kind == 'i' && size == 4) out = DType::Int32;
  else if (kind == 'u' && size == 1) out = DType::UInt8;
  else if (kind == 'u' && size == 2) out = DType::UInt16;
  else if (kind == 'u' && size == 4) out = DType::UInt32;
  else if (kind == 'u' && size == 8) out = DType::UInt64;
  else if (kind == 'f' && size == 2) out = DType::Float16;
  else if (kind == 'i' && size == 8) out = DType::Int64;
  else if (kind == 'f' && size == 4) out = DType::Float32;
  else if (kind == 'f' && size == 8) out = DType::Float64;
  else if (const char *name = unsupportedTypeName(kind, size))
    in.raise("NotImplementedError", fmt::format("np.load of {} arrays (descr '{}') is not supported by tfs", name, descr.s));
  else invalid();
  if (order == '>' && size > 1)
    in.raise("NotImplementedError", fmt::format("np.load of big-endian arrays (descr '{}') is not supported by tfs", descr.s));
  return out;
}

std::string readExactly(Interpreter &in, const ReadBytes &read, size_t n, const char *what) {
  std::string s = read(n);
  if (s.size() != n) in.raise("ValueError", fmt::format("EOF: reading {}, expected {} bytes got {}", what, n, s.size()));
  return s;
}

// --- text arrays: '<U' elements are UTF-32LE code points, '|S' raw bytes,
// each padded with zeros to the width (numpy drops trailing zeros on reading).

void appendUtf32(std::string &out, const std::string &utf8, int64_t width) {
  int64_t written = 0;
  for (size_t i = 0; i < utf8.size() && written < width; ++written) {
    unsigned char lead = uint8_t(utf8[i]);
    size_t len = utf8SequenceLength(lead);
    uint32_t cp = len == 1 ? lead : len == 2 ? lead & 0x1f : len == 3 ? lead & 0x0f : lead & 0x07;
    for (size_t k = 1; k < len && i + k < utf8.size(); ++k) cp = (cp << 6) | (uint8_t(utf8[i + k]) & 0x3f);
    i += len;
    for (int b = 0; b < 4; ++b) out += char((cp >> (8 * b)) & 0xff);
  }
  out.append(size_t(4 * (width - written)), '\0');
}

void appendUtf8(Interpreter &in, std::string &out, uint32_t cp) {
  if (cp >= 0x110000) in.raise("ValueError", fmt::format("character U+{:x} is not in range [U+0000; U+10ffff]", cp));
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3f));
    out += char(0x80 | (cp & 0x3f));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3f));
    out += char(0x80 | ((cp >> 6) & 0x3f));
    out += char(0x80 | (cp & 0x3f));
  }
}

std::string textPayload(const Tensor &t, char kind, int64_t width) {
  std::string out;
  const std::string *p = t.data<std::string>();
  for (int64_t i = 0, n = t.numElements(); i < n; ++i) {
    if (kind == 'U') {
      appendUtf32(out, p[i], width);
    } else {
      out += p[i].substr(0, size_t(width));
      out.append(size_t(width) - std::min(p[i].size(), size_t(width)), '\0');
    }
  }
  return out;
}

// A text descr ('<U5', '|S3', 'U5'): its kind and width.
std::optional<TextDType> textDescr(Interpreter &in, const Literal &descr) {
  if (descr.kind != Literal::Kind::Str) return std::nullopt;
  std::string d = descr.s;
  char order = '=';
  if (!d.empty() && (d[0] == '<' || d[0] == '>' || d[0] == '|' || d[0] == '=')) order = d[0], d.erase(0, 1);
  if (d.size() < 2 || (d[0] != 'U' && d[0] != 'S') || d.size() > 8 ||
      d.find_first_not_of("0123456789", 1) != std::string::npos)
    return std::nullopt;
  if (order == '>' && d[0] == 'U')
    in.raise("NotImplementedError", fmt::format("np.load of big-endian arrays (descr '{}') is not supported by tfs", descr.s));
  return TextDType{d[0], std::stoll(d.substr(1))};
}

Tensor textFromPayload(Interpreter &in, const std::string &data, const Shape &shape, TextDType text) {
  Tensor t = Tensor::empty(DType::String, shape);
  std::string *q = t.data<std::string>();
  size_t item = size_t(text.kind == 'U' ? 4 * text.width : text.width);
  for (int64_t i = 0, n = t.numElements(); i < n; ++i) {
    const char *e = data.data() + size_t(i) * item;
    if (text.kind == 'S') {
      size_t len = item;
      while (len > 0 && e[len - 1] == '\0') --len;
      q[i].assign(e, len);
      continue;
    }
    int64_t len = text.width;
    auto at = [&](int64_t k) {
      uint32_t cp = 0;
      for (int b = 0; b < 4; ++b) cp |= uint32_t(uint8_t(e[4 * k + b])) << (8 * b);
      return cp;
    };
    while (len > 0 && at(len - 1) == 0) --len;
    for (int64_t k = 0; k < len; ++k) appendUtf8(in, q[i], at(k));
  }
  return t;
}

}  // namespace

std::string encodeNpy(Interpreter &in, const Value &v) {
  if (ObjectArray *o = objectArrayOf(v)) return encodeObjectNpy(in, *o);
  Tensor t;
  bool fortran = false;
  TextDType text;
  if (TensorObject *a = ndarrayOf(v)) {
    t = a->eager;
    text = a->text;
    if (!isCContiguous(*a)) {
      // numpy writes an F-contiguous array (a transpose) in Fortran order.
      Layout l = layoutOf(*a);
      const Shape &shape = t.shape();
      int64_t expected = 1;
      fortran = true;
      for (size_t d = 0; d < shape.size(); ++d) {
        if (shape[d] == 1) continue;
        if (l.strides[d] != expected) fortran = false;
        expected *= shape[d];
      }
    }
  } else {
    t = asTensor(in, v);
  }
  if (t.dtype() == DType::String && !ndarrayOf(v)) text = ndarrayOf(finishText(in, newArray(t), {v}))->text;
  std::string textDescrName;
  if (t.dtype() == DType::String && text.kind)
    textDescrName = fmt::format("{}{}{}", text.kind == 'U' ? '<' : '|', text.kind, text.width);
  const char *descr = textDescrName.empty() ? descrOf(t.dtype()) : textDescrName.c_str();
  if (!descr && t.dtype() == DType::String)
    in.raise("NotImplementedError", "np.save of object arrays (dtype=object) is not supported by tfs");
  if (!descr) in.raise("NotImplementedError", fmt::format("np.save of {} arrays is not supported by tfs", numpyDTypeName(t.dtype())));
  const Shape &shape = t.shape();
  std::string shapeRepr = "(";
  for (size_t d = 0; d < shape.size(); ++d) shapeRepr += (d ? ", " : "") + std::to_string(shape[d]);
  shapeRepr += shape.size() == 1 ? ",)" : ")";
  std::string header =
      fmt::format("{{'descr': '{}', 'fortran_order': {}, 'shape': {}, }}", descr, fortran ? "True" : "False", shapeRepr);
  // Room for the first (C) or last (Fortran) axis to grow in place, as numpy leaves.
  if (!shape.empty()) header.append(21 - std::to_string(shape[fortran ? shape.size() - 1 : 0]).size(), ' ');
  size_t hlen = header.size() + 1;
  int version = 1;
  size_t prefix = 10;
  size_t pad = 64 - (prefix + hlen) % 64;
  if (hlen + pad > 65535) {
    version = 2;
    prefix = 12;
    pad = 64 - (prefix + hlen) % 64;
  }
  std::string out = npyMagic();
  out += char(version);
  out += '\0';
  uint32_t len = uint32_t(hlen + pad);
  for (size_t b = 0; b < (version == 1 ? 2u : 4u); ++b) out += char((len >> (8 * b)) & 0xff);
  out += header;
  out.append(pad, ' ');
  out += '\n';
  if (fortran) {
    std::vector<int64_t> perm(shape.size());
    for (size_t d = 0; d < perm.size(); ++d) perm[d] = int64_t(perm.size() - 1 - d);
    t = transposed(t, perm);
  }
  if (t.dtype() == DType::String) out += textPayload(t, text.kind, text.width);
  else out.append(static_cast<const char *>(t.rawData()), t.byteSize());
  return out;
}

Value decodeNpy(Interpreter &in, const ReadBytes &read, const NpyLoadOptions &opts) {
  std::string version = readExactly(in, read, 2, "magic string");
  int major = uint8_t(version[0]), minor = uint8_t(version[1]);
  if (!((major >= 1 && major <= 3) && minor == 0))
    in.raise("ValueError",
             fmt::format("we only support format version (1,0), (2,0), and (3,0), not ({}, {})", major, minor));
  size_t lenBytes = major == 1 ? 2 : 4;
  std::string lenText = readExactly(in, read, lenBytes, "array header length");
  size_t headerLen = 0;
  for (size_t b = 0; b < lenBytes; ++b) headerLen |= size_t(uint8_t(lenText[b])) << (8 * b);
  std::string header = readExactly(in, read, headerLen, "array header");
  if (header.size() > opts.maxHeaderSize)
    in.raise("ValueError", fmt::format("Header info length ({}) is large and may not be safe to load securely.\n"
                                       "To allow loading, adjust `max_header_size` or fully trust the `.npy` file "
                                       "using `allow_pickle=True`.\n"
                                       "For safety against large resource use or crashes, sandboxing may be necessary.",
                                       header.size()));
  Literal d;
  if (!LiteralParser(header).parse(d)) in.raise("ValueError", "Cannot parse header: " + pyRepr(in, header));
  if (d.kind != Literal::Kind::Dict) in.raise("ValueError", "Header is not a dictionary: " + reprOf(d));
  const Literal *descr = nullptr, *fortran = nullptr, *shapeLit = nullptr;
  std::vector<std::string> keys;
  for (size_t j = 0; j < d.keys.size(); ++j) {
    const Literal &k = d.keys[j], &v = d.values[j];
    keys.push_back(reprOf(k));
    if (k.kind != Literal::Kind::Str) continue;
    if (k.s == "descr") descr = &v;
    else if (k.s == "fortran_order") fortran = &v;
    else if (k.s == "shape") shapeLit = &v;
  }
  if (keys.size() != 3 || !descr || !fortran || !shapeLit) {
    std::sort(keys.begin(), keys.end());
    std::string list = "[";
    for (size_t k = 0; k < keys.size(); ++k) list += (k ? ", " : "") + keys[k];
    in.raise("ValueError", "Header does not contain the correct keys: " + list + "]");
  }
  bool shapeOk = shapeLit->kind == Literal::Kind::Tuple && shapeLit->elems.size() <= 64;
  Shape shape;
  for (const Literal &e : shapeLit->elems) {
    if (e.kind != Literal::Kind::Int || e.intOverflow || e.i < 0) shapeOk = false;
    shape.push_back(e.i);
  }
  if (!shapeOk) in.raise("ValueError", "shape is not valid: " + reprOf(*shapeLit));
  if (fortran->kind != Literal::Kind::Bool)
    in.raise("ValueError", "fortran_order is not a valid bool: " + reprOf(*fortran));
  if (descr->kind == Literal::Kind::Str && (descr->s == "|O" || descr->s == "O" || descr->s == "<O" || descr->s == ">O")) {
    if (!opts.allowPickle) in.raise("ValueError", "Object arrays cannot be loaded when allow_pickle=False");
    Value arr = decodeObjectNpy(in, read(SIZE_MAX / 2));  // the pickle runs to the end of the stream
    ObjectArray *a = objectArrayOf(arr);
    if (a->shape() != shape) in.raise("ValueError", "the pickled array's shape does not match the .npy header");
    return arr;
  }
  std::optional<TextDType> text = textDescr(in, *descr);
  DType dtype = text ? DType::String : dtypeOfDescr(in, *descr, opts);
  size_t itemSize = text ? size_t(text->kind == 'U' ? 4 * text->width : text->width) : ir::dtypeSize(dtype);
  __int128 count = 1;
  for (int64_t n : shape) count = std::min<__int128>(count * n, __int128(1) << 62);
  __int128 bytes = count * itemSize;
  if (bytes > (__int128(1) << 40)) in.raise("MemoryError", fmt::format("Unable to allocate an array with shape {}", pyTupleText(shape)));
  std::string data = read(size_t(bytes));
  if (data.size() != size_t(bytes))
    in.raise("ValueError", fmt::format("cannot reshape array of size {} into shape {}",
                                       itemSize ? data.size() / itemSize : 0, shapeText(shape)));
  Shape stored = shape;
  if (fortran->i) std::reverse(stored.begin(), stored.end());
  Tensor t = text ? textFromPayload(in, data, stored, *text) : Tensor::empty(dtype, stored);
  if (text) {
    // elements decoded above
  } else if (dtype == DType::Bool) {
    bool *p = t.data<bool>();
    for (size_t k = 0; k < data.size(); ++k) p[k] = data[k] != 0;  // any nonzero byte is True, as numpy reads it
  } else if (!data.empty()) {
    std::memcpy(t.rawData(), data.data(), data.size());
  }
  if (fortran->i) {
    std::vector<int64_t> perm(stored.size());
    for (size_t k = 0; k < perm.size(); ++k) perm[k] = int64_t(perm.size() - 1 - k);
    t = transposed(t, perm);
  }
  Value result = newArray(t);
  if (text) markText(*ndarrayOf(result), TextDType{text->kind, std::max<int64_t>(text->width, 1)});
  return result;
}

}  // namespace tfs::runtime::tf::numpy
