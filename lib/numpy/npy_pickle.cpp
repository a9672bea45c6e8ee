// Object arrays in .npy files: numpy writes the header ('descr': '|O') and
// then the array pickled (numpy.core.multiarray._reconstruct, then BUILD
// with the state (1, shape, dtype('O'), fortran_order, [elements...])).
// Writing lays out those opcodes around the element list, which the pickle
// module (`_pickle_codec`) encodes; reading runs the pickle module's loads
// with a find_class that knows numpy's reconstructors (ndarray, dtype,
// _reconstruct) and nothing else.
#include "lib/numpy/npy_format.h"
#include "lib/numpy/object_array.h"

#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

Value pickleModule(Interpreter &in, const char *name) { return in.importModule(name); }

void appendInt(std::string &out, int64_t v) {
  if (v >= 0 && v < 256) {
    out += 'K';
    out += char(v);
  } else if (v >= INT32_MIN && v <= INT32_MAX) {
    out += 'J';
    for (int b = 0; b < 4; ++b) out += char((uint32_t(int32_t(v)) >> (8 * b)) & 0xff);
  } else {
    out += "\x8a\x08";
    for (int b = 0; b < 8; ++b) out += char((uint64_t(v) >> (8 * b)) & 0xff);
  }
}

void appendGlobal(std::string &out, const char *module, const char *name) { out += fmt::format("c{}\n{}\n", module, name); }

void appendUnicode(std::string &out, const std::string &s) {
  out += '\x8c';
  out += char(s.size());
  out += s;
}

// The opcodes of `elements` as a list, from the pickle module (protocol 4),
// without its PROTO, FRAME and STOP.
std::string elementOpcodes(Interpreter &in, const std::vector<Value> &elements) {
  Value pickle = pickleModule(in, "pickle");
  Value codec = pickleModule(in, "_pickle_codec");
  Value bytes = in.call(in.getAttr(codec, "dumps"),
                        std::vector<Value>{in.list(elements), Value::integer(4), in.getAttr(pickle, "PicklingError")});
  std::string s = bytes.as<BytesObject>()->s;
  size_t start = 2;                                 // PROTO 4
  if (s.size() > 2 && s[2] == '\x95') start += 9;  // FRAME n
  return s.substr(start, s.size() - start - 1);     // ... STOP
}

// --- reading -------------------------------------------------------------------------

// An object array being rebuilt: _reconstruct made it empty, BUILD sets it.
Value reconstruct(Interpreter &, Args, const Kwargs &) { return newObjectArray({}, {0}); }

Value pickledDType(Interpreter &in, Args a, const Kwargs &) {
  std::string name = a.empty() ? "" : in.str(a[0]);
  if (name != "O8" && name != "O4")
    in.raise("NotImplementedError", fmt::format("np.load of a pickle holding numpy arrays of dtype '{}' is not supported by "
                                                "tfs (object arrays are)", name));
  return objectDTypeValue();
}

Value findClass(Interpreter &in, Args a, const Kwargs &) {
  std::string module = in.str(a[0]), name = in.str(a[1]);
  bool multiarray = module == "numpy.core.multiarray" || module == "numpy.core._multiarray_umath";
  if (multiarray && name == "_reconstruct") return in.native("_reconstruct", reconstruct);
  if (module == "numpy" && name == "ndarray") return Value(Ref<Object>(ndarrayClass));
  if (module == "numpy" && name == "dtype") return in.native("dtype", pickledDType);
  in.raise("NotImplementedError", fmt::format("np.load of a pickle holding {}.{} is not supported by tfs", module, name));
}

}  // namespace

std::string encodeObjectNpy(Interpreter &in, const ObjectArray &a) {
  const Shape &shape = a.shape();
  std::string shapeText = "(";
  for (size_t d = 0; d < shape.size(); ++d) shapeText += (d ? ", " : "") + std::to_string(shape[d]);
  shapeText += shape.size() == 1 ? ",)" : ")";
  std::string header = fmt::format("{{'descr': '|O', 'fortran_order': False, 'shape': {}, }}", shapeText);
  if (!shape.empty()) header.append(21 - std::to_string(shape[0]).size(), ' ');
  size_t hlen = header.size() + 1;
  size_t pad = 64 - (10 + hlen) % 64;
  std::string out = npyMagic();
  out += '\x01';
  out += '\0';
  uint32_t len = uint32_t(hlen + pad);
  out += char(len & 0xff);
  out += char((len >> 8) & 0xff);
  out += header;
  out.append(pad, ' ');
  out += '\n';
  // The pickle numpy writes (protocol 3's opcodes; the elements' are protocol 4's).
  std::string p = "\x80\x04";
  appendGlobal(p, "numpy.core.multiarray", "_reconstruct");
  appendGlobal(p, "numpy", "ndarray");
  appendInt(p, 0);
  p += "\x85" "C\x01" "b" "\x87" "R";
  p += '(';
  appendInt(p, 1);
  p += '(';
  for (int64_t d : shape) appendInt(p, d);
  p += 't';
  appendGlobal(p, "numpy", "dtype");
  appendUnicode(p, "O8");
  p += "\x89\x88\x87R(";
  appendInt(p, 3);
  appendUnicode(p, "|");
  p += "NNN";
  appendInt(p, -1);
  appendInt(p, -1);
  appendInt(p, 63);
  p += "tb\x89";
  p += elementOpcodes(in, a.elements());
  p += "tb.";
  return out + p;
}

Value decodeObjectNpy(Interpreter &in, const std::string &pickled) {
  Value pickle = pickleModule(in, "pickle");
  Value codec = pickleModule(in, "_pickle_codec");
  Value r = in.call(in.getAttr(codec, "loads"),
                    std::vector<Value>{make<BytesObject>(pickled), in.getAttr(pickle, "UnpicklingError"),
                                       in.native("find_class", findClass)});
  if (!objectArrayOf(r)) in.raise("ValueError", "the pickle of an object array held " + in.typeName(r));
  return r;
}

// ObjectArray.__setstate__ (the BUILD of a pickled array): (version, shape,
// dtype, fortran_order, elements).
void setObjectArrayState(Interpreter &in, ObjectArray &a, const Value &state) {
  std::vector<Value> s = in.toList(state);
  if (s.size() != 5 || !isObjectDType(s[2]))
    in.raise("NotImplementedError", "np.load of a pickled array other than an object array is not supported by tfs");
  Shape shape;
  for (const Value &d : in.toList(s[1])) shape.push_back(in.toIndex(d));
  std::vector<Value> items = in.toList(s[4]);
  if (int64_t(items.size()) != elementCount(shape)) in.raise("ValueError", "the pickled array's elements do not fill its shape");
  // The elements are in C order of the shape even when fortran_order is
  // set (numpy's object pickles iterate the array logically).
  Value fresh = newObjectArray(std::move(items), shape);
  a.storage = objectArrayOf(fresh)->storage;
  a.positions = objectArrayOf(fresh)->positions;
}

}  // namespace tfs::runtime::tf::numpy
