// `_keras_hdf5`: whole HDF5 files as nested dicts, for Keras's .h5 model and
// weights files (the layout itself is Keras's, in _keras_hdf5_format.tfs).
//
//   read(path)  -> {"attrs": {...}, "groups": {name: tree}, "datasets": {name: tensor}}
//   write(path, tree)   (the same shape; written to a sibling, then renamed)
//   is_hdf5(path) -> True when the file starts with HDF5's signature
//
// Attribute values read back as h5py gives them to Keras once decoded:
// strings (fixed-length or variable-length) as str, string arrays as lists
// of str, numbers as int / float or lists of them. Written as h5py writes
// what Keras gives it: bytes as fixed-length NUL-padded strings, str as
// variable-length UTF-8 strings, numbers as int64 / float64 (an empty list
// as an empty float64 array). Datasets are numeric arrays of
// any rank (tensors; float16/32/64, (u)int8..64 and bool).
//
// HDF5's own error printing is off; a failed call raises OSError naming the
// file and HDF5's innermost message (a truncated or foreign file is an
// error, never a crash).
#include "lib/tf/keras/keras_native.h"
#include "lib/tf/tf_lib.h"
#include "runtime/interp/signature.h"

#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <hdf5.h>
#include <unistd.h>

namespace tfs::runtime::tf {

namespace {

namespace fs = std::filesystem;

// One HDF5 identifier, closed with its own close function.
class Handle {
public:
  Handle() = default;
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  Handle(Handle &&o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = H5I_INVALID_HID; }
  ~Handle() {
    if (id_ >= 0 && close_) close_(id_);
  }
  hid_t get() const { return id_; }
  bool ok() const { return id_ >= 0; }

private:
  hid_t id_ = H5I_INVALID_HID;
  herr_t (*close_)(hid_t) = nullptr;
};

herr_t innermost(unsigned, const H5E_error2_t *err, void *data) {
  auto *out = static_cast<std::string *>(data);
  if (err->desc && out->empty()) *out = err->desc;
  return 0;
}

// HDF5's innermost error message for the failed call.
std::string hdf5Message() {
  std::string msg;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, innermost, &msg);
  H5Eclear2(H5E_DEFAULT);
  return msg.empty() ? "unknown HDF5 error" : msg;
}

struct Context {
  Interpreter &in;
  std::string path;
  [[noreturn]] void fail(const std::string &what) const {
    in.raise("OSError", fmt::format("{} (file name = '{}'): {}", what, path, hdf5Message()));
  }
  Handle check(hid_t id, herr_t (*close)(hid_t), const std::string &what) const {
    if (id < 0) fail(what);
    return Handle(id, close);
  }
  void check(herr_t status, const std::string &what) const {
    if (status < 0) fail(what);
  }
};

void quietHdf5() {
  static bool done = false;
  if (!done) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    done = true;
  }
}

// --- reading ---------------------------------------------------------------------

std::optional<DType> dtypeOf(hid_t type) {
  H5T_class_t cls = H5Tget_class(type);
  size_t size = H5Tget_size(type);
  if (cls == H5T_FLOAT) {
    if (size == 2) return DType::Float16;
    if (size == 4) return DType::Float32;
    if (size == 8) return DType::Float64;
  } else if (cls == H5T_INTEGER) {
    bool isSigned = H5Tget_sign(type) == H5T_SGN_2;
    switch (size) {
      case 1: return isSigned ? DType::Int8 : DType::UInt8;
      case 2: return isSigned ? DType::Int16 : DType::UInt16;
      case 4: return isSigned ? DType::Int32 : DType::UInt32;
      case 8: return isSigned ? DType::Int64 : DType::UInt64;
      default: break;
    }
  } else if (cls == H5T_ENUM && size == 1) {
    return DType::Bool;  // h5py's bool: an int8 enum FALSE = 0, TRUE = 1
  }
  return std::nullopt;
}

// The native memory type HDF5 converts file data to for a tfs dtype.
hid_t memTypeOf(DType t) {
  switch (t) {
    case DType::Float32: return H5T_NATIVE_FLOAT;
    case DType::Float64: return H5T_NATIVE_DOUBLE;
    case DType::Int8: return H5T_NATIVE_INT8;
    case DType::UInt8: return H5T_NATIVE_UINT8;
    case DType::Int16: return H5T_NATIVE_INT16;
    case DType::UInt16: return H5T_NATIVE_UINT16;
    case DType::Int32: return H5T_NATIVE_INT32;
    case DType::UInt32: return H5T_NATIVE_UINT32;
    case DType::Int64: return H5T_NATIVE_INT64;
    case DType::UInt64: return H5T_NATIVE_UINT64;
    default: return H5I_INVALID_HID;
  }
}

std::vector<int64_t> shapeOf(const Context &cx, hid_t space) {
  int rank = H5Sget_simple_extent_ndims(space);
  if (rank < 0 || rank > 32) cx.fail("Unable to read a dataspace");
  std::vector<hsize_t> dims(static_cast<size_t>(rank));
  if (rank > 0 && H5Sget_simple_extent_dims(space, dims.data(), nullptr) < 0) cx.fail("Unable to read a dataspace");
  std::vector<int64_t> shape;
  int64_t n = 1;
  for (hsize_t d : dims) {
    if (d > (hsize_t(1) << 40) || __builtin_mul_overflow(n, int64_t(d), &n) || n > (int64_t(1) << 40))
      cx.in.raise("ValueError", fmt::format("{} holds a dataset too large to read", cx.path));
    shape.push_back(int64_t(d));
  }
  return shape;
}

// The strings of a string attribute (one for a scalar).
std::vector<std::string> readStrings(const Context &cx, hid_t attr, hid_t type, int64_t count) {
  std::vector<std::string> out;
  if (H5Tis_variable_str(type) > 0) {
    std::vector<char *> ptrs(size_t(count), nullptr);
    Handle mem = cx.check(H5Tcopy(H5T_C_S1), H5Tclose, "Unable to read an attribute");
    cx.check(H5Tset_size(mem.get(), H5T_VARIABLE), "Unable to read an attribute");
    cx.check(H5Tset_cset(mem.get(), H5Tget_cset(type)), "Unable to read an attribute");
    cx.check(H5Aread(attr, mem.get(), ptrs.data()), "Unable to read an attribute");
    for (char *p : ptrs) out.emplace_back(p ? p : "");
    Handle space = cx.check(H5Aget_space(attr), H5Sclose, "Unable to read an attribute");
    H5Dvlen_reclaim(mem.get(), space.get(), H5P_DEFAULT, ptrs.data());
    return out;
  }
  size_t size = H5Tget_size(type);
  std::string buf(size_t(count) * size, '\0');
  cx.check(H5Aread(attr, type, buf.data()), "Unable to read an attribute");
  for (int64_t i = 0; i < count; ++i) {
    std::string s = buf.substr(size_t(i) * size, size);
    s.erase(std::find(s.begin(), s.end(), '\0'), s.end());  // NUL padding (h5py strips it too)
    out.push_back(s);
  }
  return out;
}

Value readAttribute(const Context &cx, hid_t obj, const char *name) {
  Interpreter &in = cx.in;
  Handle attr = cx.check(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose, "Unable to open an attribute");
  Handle type = cx.check(H5Aget_type(attr.get()), H5Tclose, "Unable to read an attribute");
  Handle space = cx.check(H5Aget_space(attr.get()), H5Sclose, "Unable to read an attribute");
  std::vector<int64_t> shape = shapeOf(cx, space.get());
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  std::vector<Value> items;
  if (count == 0) return in.list(items);  // Keras's empty weight_names: np.asarray([])
  if (H5Tget_class(type.get()) == H5T_STRING) {
    for (auto &s : readStrings(cx, attr.get(), type.get(), count)) items.push_back(in.str(s));
  } else {
    H5T_class_t cls = H5Tget_class(type.get());
    if (cls == H5T_FLOAT) {
      std::vector<double> v(static_cast<size_t>(count));
      cx.check(H5Aread(attr.get(), H5T_NATIVE_DOUBLE, v.data()), "Unable to read an attribute");
      for (double d : v) items.push_back(Value::real(d));
    } else if (cls == H5T_INTEGER || cls == H5T_ENUM) {
      std::vector<int64_t> v(static_cast<size_t>(count));
      cx.check(H5Aread(attr.get(), H5T_NATIVE_INT64, v.data()), "Unable to read an attribute");
      for (int64_t d : v) items.push_back(Value::integer(d));
    } else {
      return Value();  // a type Keras never writes: None
    }
  }
  if (shape.empty()) return items.empty() ? Value() : items[0];
  return in.list(items);
}

Value readAttributes(const Context &cx, hid_t obj) {
  auto attrs = make<DictObject>();
  H5O_info_t info;
  cx.check(H5Oget_info2(obj, &info, H5O_INFO_NUM_ATTRS), "Unable to read an object");
  for (hsize_t i = 0; i < info.num_attrs; ++i) {
    ssize_t len = H5Aget_name_by_idx(obj, ".", H5_INDEX_NAME, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
    if (len < 0) cx.fail("Unable to read an attribute name");
    std::string name(size_t(len) + 1, '\0');
    H5Aget_name_by_idx(obj, ".", H5_INDEX_NAME, H5_ITER_INC, i, name.data(), name.size(), H5P_DEFAULT);
    name.resize(size_t(len));
    attrs->set(cx.in, cx.in.str(name), readAttribute(cx, obj, name.c_str()));
  }
  return Value(attrs);
}

Value readDataset(const Context &cx, hid_t group, const std::string &name) {
  Handle ds = cx.check(H5Dopen2(group, name.c_str(), H5P_DEFAULT), H5Dclose, "Unable to open a dataset");
  Handle type = cx.check(H5Dget_type(ds.get()), H5Tclose, "Unable to read a dataset");
  Handle space = cx.check(H5Dget_space(ds.get()), H5Sclose, "Unable to read a dataset");
  std::optional<DType> dtype = dtypeOf(type.get());
  if (!dtype)
    cx.in.raise("NotImplementedError", fmt::format("{}: the dataset {} has a type tfs cannot read", cx.path, name));
  Tensor t = Tensor::empty(*dtype, shapeOf(cx, space.get()));
  // Half floats and h5py's bool enum are read as stored (little-endian bytes).
  bool raw = *dtype == DType::Float16 || *dtype == DType::Bool;
  if (raw && H5Tget_order(type.get()) == H5T_ORDER_BE)
    cx.in.raise("NotImplementedError", fmt::format("{}: big-endian {} datasets are not supported by tfs", cx.path,
                                                   ir::dtypeName(*dtype)));
  if (t.numElements() > 0)
    cx.check(H5Dread(ds.get(), raw ? type.get() : memTypeOf(*dtype), H5S_ALL, H5S_ALL, H5P_DEFAULT, t.rawData()),
             fmt::format("Unable to read the dataset {}", name));
  return wrap(t, true);
}

Value readGroup(const Context &cx, hid_t group, int depth) {
  if (depth > 64) cx.in.raise("ValueError", fmt::format("{} nests groups too deeply", cx.path));
  Interpreter &in = cx.in;
  auto tree = make<DictObject>(), groups = make<DictObject>(), datasets = make<DictObject>();
  tree->set(in, in.str("attrs"), readAttributes(cx, group));
  H5G_info_t info;
  cx.check(H5Gget_info(group, &info), "Unable to read a group");
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    ssize_t len = H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
    if (len < 0) cx.fail("Unable to read a link name");
    std::string name(size_t(len) + 1, '\0');
    H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, i, name.data(), name.size(), H5P_DEFAULT);
    name.resize(size_t(len));
    H5O_info_t oinfo;
    cx.check(H5Oget_info_by_name2(group, name.c_str(), &oinfo, H5O_INFO_BASIC, H5P_DEFAULT),
             "Unable to read an object");
    if (oinfo.type == H5O_TYPE_GROUP) {
      Handle sub = cx.check(H5Gopen2(group, name.c_str(), H5P_DEFAULT), H5Gclose, "Unable to open a group");
      groups->set(in, in.str(name), readGroup(cx, sub.get(), depth + 1));
    } else if (oinfo.type == H5O_TYPE_DATASET) {
      datasets->set(in, in.str(name), readDataset(cx, group, name));
    }
  }
  tree->set(in, in.str("groups"), Value(groups));
  tree->set(in, in.str("datasets"), Value(datasets));
  return Value(tree);
}

bool hasHdf5Signature(const std::string &path) {
  // The superblock sits at 0, 512, 1024, ... (after a user block).
  static const char kSig[8] = {'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  for (std::streamoff at = 0; at <= (1 << 20); at = at == 0 ? 512 : at * 2) {
    char buf[8];
    f.seekg(at);
    if (!f.read(buf, 8)) return false;
    if (std::memcmp(buf, kSig, 8) == 0) return true;
  }
  return false;
}

Value readFile(Interpreter &in, const std::string &path) {
  quietHdf5();
  Context cx{in, path};
  std::error_code ec;
  if (!fs::exists(path, ec)) in.raise("FileNotFoundError", fmt::format("[Errno 2] Unable to open file (unable to open file: name = '{}', errno = 2, error message = 'No such file or directory')", path));
  if (!hasHdf5Signature(path))
    in.raise("OSError", fmt::format("Unable to open file (file signature not found) (file name = '{}')", path));
  Handle file = cx.check(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, "Unable to open file");
  Handle root = cx.check(H5Gopen2(file.get(), "/", H5P_DEFAULT), H5Gclose, "Unable to open the root group");
  return readGroup(cx, root.get(), 0);
}

// --- writing ---------------------------------------------------------------------

DictObject *dictField(const Context &cx, const Value &tree, const char *key) {
  auto *d = tree.as<DictObject>();
  if (!d) cx.in.raise("TypeError", "an HDF5 tree must be a dict");
  std::optional<Value> v = d->get(cx.in, cx.in.str(key));
  if (!v || v->isNone()) return nullptr;
  auto *out = v->as<DictObject>();
  if (!out) cx.in.raise("TypeError", fmt::format("an HDF5 tree's '{}' must be a dict", key));
  return out;
}

// An attribute of `count` values of `type` (one, without dimensions, when scalar).
Handle createAttribute(const Context &cx, hid_t obj, const std::string &name, hid_t type, size_t count, bool scalar) {
  hsize_t dims[1] = {hsize_t(count)};
  Handle space = cx.check(scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, dims, nullptr), H5Sclose,
                          "Unable to write an attribute");
  return cx.check(H5Acreate2(obj, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
                  fmt::format("Unable to create the attribute {}", name));
}

void writeVlenStringAttribute(const Context &cx, hid_t obj, const std::string &name,
                              const std::vector<std::string> &items, bool scalar) {
  std::vector<const char *> ptrs;
  for (auto &s : items) ptrs.push_back(s.c_str());
  Handle type = cx.check(H5Tcopy(H5T_C_S1), H5Tclose, "Unable to write an attribute");
  cx.check(H5Tset_size(type.get(), H5T_VARIABLE), "Unable to write an attribute");
  cx.check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "Unable to write an attribute");
  Handle attr = createAttribute(cx, obj, name, type.get(), items.size(), scalar);
  cx.check(H5Awrite(attr.get(), type.get(), ptrs.data()), "Unable to write an attribute");
}

void writeStringAttribute(const Context &cx, hid_t obj, const std::string &name, const std::vector<std::string> &items,
                          bool scalar) {
  size_t width = 1;
  for (auto &s : items) width = std::max(width, s.size());
  std::string buf(items.size() * width, '\0');
  for (size_t i = 0; i < items.size(); ++i) std::memcpy(buf.data() + i * width, items[i].data(), items[i].size());
  Handle type = cx.check(H5Tcopy(H5T_C_S1), H5Tclose, "Unable to write an attribute");
  cx.check(H5Tset_size(type.get(), width), "Unable to write an attribute");
  cx.check(H5Tset_strpad(type.get(), H5T_STR_NULLPAD), "Unable to write an attribute");
  Handle attr = createAttribute(cx, obj, name, type.get(), items.size(), scalar);
  cx.check(H5Awrite(attr.get(), type.get(), buf.data()), "Unable to write an attribute");
}

void writeNumberAttribute(const Context &cx, hid_t obj, const std::string &name, const std::vector<Value> &items,
                          bool scalar) {
  bool allInt = !items.empty();  // an empty list is float64, as numpy makes np.asarray([])
  for (const Value &v : items) allInt = allInt && (v.isInt() || v.isBool());
  hid_t type = allInt ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE;
  Handle attr = createAttribute(cx, obj, name, type, items.size(), scalar);
  if (items.empty()) return;  // created with its zero-size dataspace; nothing to write
  if (allInt) {
    std::vector<int64_t> v;
    for (const Value &x : items) v.push_back(x.asInt());
    cx.check(H5Awrite(attr.get(), type, v.data()), "Unable to write an attribute");
  } else {
    std::vector<double> v;
    for (const Value &x : items) v.push_back(x.isFloat() ? x.asFloat() : double(x.asInt()));
    cx.check(H5Awrite(attr.get(), type, v.data()), "Unable to write an attribute");
  }
}

void writeAttribute(const Context &cx, hid_t obj, const std::string &name, const Value &value) {
  Interpreter &in = cx.in;
  bool scalar = !value.as<ListObject>() && !value.as<TupleObject>();
  std::vector<Value> items = scalar ? std::vector<Value>{value} : in.toList(value);
  bool bytes = !items.empty(), strs = !items.empty(), numbers = true;
  for (const Value &v : items) {
    bytes = bytes && v.as<BytesObject>();
    strs = strs && v.as<StrObject>();
    numbers = numbers && (v.isInt() || v.isBool() || v.isFloat());
  }
  if (bytes) {
    std::vector<std::string> texts;
    for (const Value &v : items) texts.push_back(v.as<BytesObject>()->s);
    writeStringAttribute(cx, obj, name, texts, scalar);
  } else if (strs) {
    std::vector<std::string> texts;
    for (const Value &v : items) texts.push_back(in.str(v));
    writeVlenStringAttribute(cx, obj, name, texts, scalar);
  } else if (numbers) {
    writeNumberAttribute(cx, obj, name, items, scalar);
  } else {
    in.raise("TypeError", fmt::format("cannot write the HDF5 attribute {} of type {}", name, in.typeName(value)));
  }
}

void writeDataset(const Context &cx, hid_t group, const std::string &name, const Value &value) {
  Ref<TensorObject> t = toTensor(cx.in, value);
  if (t->symbolic()) cx.in.raise("ValueError", "cannot save a symbolic tensor");
  const Tensor &e = t->eager;
  hid_t mem = memTypeOf(e.dtype());
  if (mem < 0)
    cx.in.raise("NotImplementedError",
                fmt::format("writing a {} dataset to HDF5 is not supported by tfs", ir::dtypeName(e.dtype())));
  std::vector<hsize_t> dims;
  for (int64_t d : e.shape()) dims.push_back(hsize_t(d));
  Handle space = cx.check(dims.empty() ? H5Screate(H5S_SCALAR) : H5Screate_simple(int(dims.size()), dims.data(), nullptr),
                          H5Sclose, "Unable to create a dataspace");
  // Names with '/' ("dense/kernel:0") create their intermediate groups, as h5py does.
  Handle lcpl = cx.check(H5Pcreate(H5P_LINK_CREATE), H5Pclose, "Unable to create a property list");
  cx.check(H5Pset_create_intermediate_group(lcpl.get(), 1), "Unable to set a property");
  // The file type is the little-endian standard type of the native one.
  hid_t fileType = mem == H5T_NATIVE_FLOAT ? H5T_IEEE_F32LE : mem == H5T_NATIVE_DOUBLE ? H5T_IEEE_F64LE : mem;
  Handle ds = cx.check(H5Dcreate2(group, name.c_str(), fileType, space.get(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT),
                       H5Dclose, fmt::format("Unable to create the dataset {}", name));
  if (e.numElements() > 0)
    cx.check(H5Dwrite(ds.get(), mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, e.rawData()),
             fmt::format("Unable to write the dataset {}", name));
}

void writeGroup(const Context &cx, hid_t group, const Value &tree, int depth) {
  if (depth > 64) cx.in.raise("ValueError", "an HDF5 tree nests too deeply");
  Interpreter &in = cx.in;
  if (DictObject *groups = dictField(cx, tree, "groups"))
    for (auto &[k, v] : groups->items()) {
      Handle lcpl = cx.check(H5Pcreate(H5P_LINK_CREATE), H5Pclose, "Unable to create a property list");
      cx.check(H5Pset_create_intermediate_group(lcpl.get(), 1), "Unable to set a property");
      std::string name = in.str(k);
      // A group may already exist as the intermediate group of a dataset name.
      htri_t exists = H5Lexists(group, name.c_str(), H5P_DEFAULT);
      Handle sub = exists > 0 ? cx.check(H5Gopen2(group, name.c_str(), H5P_DEFAULT), H5Gclose, "Unable to open a group")
                              : cx.check(H5Gcreate2(group, name.c_str(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT),
                                         H5Gclose, fmt::format("Unable to create the group {}", name));
      writeGroup(cx, sub.get(), v, depth + 1);
    }
  if (DictObject *datasets = dictField(cx, tree, "datasets"))
    for (auto &[k, v] : datasets->items()) writeDataset(cx, group, in.str(k), v);
  if (DictObject *attrs = dictField(cx, tree, "attrs"))
    for (auto &[k, v] : attrs->items()) writeAttribute(cx, group, in.str(k), v);
}

void writeFile(Interpreter &in, const std::string &path, const Value &tree) {
  if (in.options().readOnlyFiles) in.raise("OSError", "file writes are disabled");
  quietHdf5();
  // Written beside the target and renamed over it, so a failure leaves the
  // old file (Keras files are replaced whole).
  std::string tmp = fmt::format("{}.tmp-{}", path, ::getpid());
  Context cx{in, path};
  {
    Handle file = cx.check(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose,
                           "Unable to create file");
    Handle root = cx.check(H5Gopen2(file.get(), "/", H5P_DEFAULT), H5Gclose, "Unable to open the root group");
    try {
      writeGroup(cx, root.get(), tree, 0);
    } catch (...) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw;
    }
    cx.check(H5Fflush(file.get(), H5F_SCOPE_GLOBAL), "Unable to flush file");
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    in.raise("OSError", fmt::format("Unable to create file (file name = '{}'): {}", path, ec.message()));
  }
}

}  // namespace

Value makeKerasHdf5(Interpreter &in) {
  auto m = make<ModuleObject>("_keras_hdf5");
  auto bind = [&](std::string_view sig, SignedFn fn) {
    Value f = nativeWithSignature(in, sig, std::move(fn));
    m->scope->vars[f.as<NativeFunction>()->name] = f;
  };
  bind("read(path)", [](Interpreter &in, const Bound &a) { return readFile(in, in.str(a["path"])); });
  bind("write(path, tree)", [](Interpreter &in, const Bound &a) {
    writeFile(in, in.str(a["path"]), a["tree"]);
    return Value();
  });
  bind("is_hdf5(path)", [](Interpreter &in, const Bound &a) {
    return Value::boolean(hasHdf5Signature(in.str(a["path"])));
  });
  return Value(m);
}

}  // namespace tfs::runtime::tf
