// np.save / np.load (.npy) and np.savez / np.savez_compressed (.npz, zip
// archives through libzip), with numpy 1.24's file names, member names and
// errors. Files named by a path are written atomically (lib/file_util.h);
// a file object is written with its write() and read with read(n), so
// several arrays can follow each other in one file as with numpy.
#include "lib/file_util.h"
#include "lib/zip_archive.h"
#include "lib/numpy/npy_format.h"
#include "lib/numpy/numpy_lib.h"
#include "lib/numpy/object_array.h"
#include "runtime/interp/native_context_managers.h"

#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

// A `file` argument: a path (str or os.PathLike) or a file object.
struct FileArg {
  std::string path;
  Value object;  // None for a path
  bool isPath() const { return object.isNone(); }
};

FileArg fileArg(Interpreter &in, const Value &v) {
  if (auto *s = v.as<StrObject>()) return {s->s, Value()};
  if (auto *b = v.as<BytesObject>()) return {b->s, Value()};
  if (v.as<TensorObject>() || v.isInt() || v.isFloat() || v.isNone())  // (an ndarray answers no attribute probe)
    in.raise("TypeError", fmt::format("expected str, bytes or os.PathLike object, not {}", in.typeName(v)));
  if (auto fspath = in.getAttrOpt(v, "__fspath__")) return {in.str(in.call(*fspath, {})), Value()};
  if (in.getAttrOpt(v, "write") || in.getAttrOpt(v, "read")) return {"", v};
  in.raise("TypeError", fmt::format("expected str, bytes or os.PathLike object, not {}", in.typeName(v)));
}

bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void writeTo(Interpreter &in, const FileArg &f, const std::string &data) {
  if (f.isPath()) lib::writeFileAtomic(in, f.path, data);
  else in.call(in.getAttr(f.object, "write"), std::vector<Value>{make<BytesObject>(data)});
}

std::string readFromObject(Interpreter &in, const Value &file, size_t n) {
  Value got = in.call(in.getAttr(file, "read"), std::vector<Value>{Value::integer(int64_t(std::min<size_t>(n, INT64_MAX)))});
  if (auto *b = got.as<BytesObject>()) return b->s;
  in.raise("TypeError", fmt::format("a bytes-like object is required, not '{}'", in.typeName(got)));
}

// --- .npz archives --------------------------------------------------------------

// numpy's NpzFile: the arrays of an .npz archive by name ('x' or 'x.npy'),
// decoded when first read; members that are not .npy files are bytes.
struct NpzFileObject final : Object {
  std::vector<std::pair<std::string, std::string>> members;
  NpyLoadOptions opts;
  const char *typeName() const override { return "NpzFile"; }

  std::vector<std::string> files() const {
    std::vector<std::string> out;
    for (auto &[name, data] : members) out.push_back(endsWith(name, ".npy") ? name.substr(0, name.size() - 4) : name);
    return out;
  }
  const std::string *member(const std::string &key) const {
    for (auto &[name, data] : members)
      if (name == key) return &data;
    for (auto &[name, data] : members)
      if (name == key + ".npy") return &data;
    return nullptr;
  }
  Value load(Interpreter &in, const std::string &key) {
    const std::string *data = member(key);
    if (!data) in.raiseValue(in.newException(in.exceptionClass("KeyError"), key + " is not a file in the archive"));
    if (data->compare(0, 6, npyMagic()) != 0) return make<BytesObject>(*data);
    size_t pos = 6;
    return decodeNpy(in, [&](size_t n) {
      std::string s = data->substr(std::min(pos, data->size()), n);
      pos += s.size();
      return s;
    }, opts);
  }
  Value fileList(Interpreter &in) const {
    std::vector<Value> out;
    for (auto &f : files()) out.push_back(in.str(f));
    return in.list(out);
  }
  std::optional<Value> getItem(Interpreter &in, const Value &key) override {
    return load(in, in.str(key));
  }
  std::optional<int64_t> length(Interpreter &) override { return int64_t(members.size()); }
  std::optional<Value> iter(Interpreter &in) override { return in.iter(fileList(in)); }
  std::optional<bool> contains(Interpreter &in, const Value &key) override {
    auto *s = key.as<StrObject>();
    return s && member(s->s);
  }
  std::optional<Value> enter(Interpreter &) override { return Value(Ref<Object>(this)); }
  bool exit(Interpreter &, bool) override { return false; }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override {
    Ref<NpzFileObject> self(this);
    if (name == "files") return fileList(in);
    if (name == "keys") return in.native("keys", [self](Interpreter &in, Args, const Kwargs &) { return self->fileList(in); });
    if (name == "values" || name == "items") {
      bool items = name == "items";
      return in.native(name, [self, items](Interpreter &in, Args, const Kwargs &) {
        std::vector<Value> out;
        for (auto &f : self->files()) {
          Value v = self->load(in, f);
          out.push_back(items ? in.tuple({in.str(f), v}) : v);
        }
        return in.list(out);
      });
    }
    if (name == "get")
      return nativeWithSignature(in, "get(key, default=None)", [self](Interpreter &in, const Bound &b) {
        std::string key = in.str(b["key"]);
        return self->member(key) ? self->load(in, key) : b["default"];
      });
    if (name == "close" || name == "__exit__")
      return in.native(name, [](Interpreter &, Args, const Kwargs &) { return Value(); });
    if (name == "__enter__")
      return in.native(name, [self](Interpreter &, Args, const Kwargs &) { return Value(Ref<Object>(self)); });
    if (name == "allow_pickle") return Value::boolean(opts.allowPickle);
    return std::nullopt;
  }
};
TFS_NATIVE_CONTEXT_MANAGER(NpzFileObject);

// --- the functions ------------------------------------------------------------------

Value save(Interpreter &in, const Bound &b) {
  FileArg f = fileArg(in, b["file"]);
  if (f.isPath() && !endsWith(f.path, ".npy")) f.path += ".npy";
  if (objectArrayOf(b["arr"]) && !in.truth(b["allow_pickle"]))
    in.raise("ValueError", "Object arrays cannot be saved when allow_pickle=False");
  writeTo(in, f, encodeNpy(in, b["arr"]));
  return Value();
}

Value savez(Interpreter &in, const Bound &b, bool compress) {
  FileArg f = fileArg(in, b["file"]);
  if (f.isPath() && !endsWith(f.path, ".npz")) f.path += ".npz";
  std::vector<std::pair<std::string, Value>> named(b.varKwargs().begin(), b.varKwargs().end());
  for (size_t i = 0; i < b.varArgs().size(); ++i) {
    std::string key = fmt::format("arr_{}", i);
    for (auto &[k, v] : named)
      if (k == key) in.raise("ValueError", "Cannot use un-named variables and keyword " + key);
    named.emplace_back(key, b.varArgs()[i]);
  }
  std::vector<std::pair<std::string, std::string>> members;
  for (auto &[k, v] : named) members.emplace_back(k + ".npy", encodeNpy(in, v));
  writeTo(in, f, lib::writeZip(in, members, compress, "the .npz archive"));
  return Value();
}

Value load(Interpreter &in, const Bound &b) {
  std::string encoding = in.str(b["encoding"]);
  if (encoding != "ASCII" && encoding != "latin1" && encoding != "bytes")
    in.raise("ValueError", "encoding must be 'ASCII', 'latin1', or 'bytes'");
  NpyLoadOptions opts;
  opts.allowPickle = in.truth(b["allow_pickle"]);
  int64_t maxHeader = in.toIndex(b["max_header_size"]);
  opts.maxHeaderSize = opts.allowPickle ? SIZE_MAX : size_t(std::max<int64_t>(maxHeader, 0));
  FileArg f = fileArg(in, b["file"]);
  std::string whole;
  size_t pos = 0;
  ReadBytes read;
  if (f.isPath()) {
    whole = lib::readWholeFile(in, f.path);
    read = [&](size_t n) {
      std::string s = whole.substr(std::min(pos, whole.size()), n);
      pos += s.size();
      return s;
    };
  } else {
    Value obj = f.object;
    read = [&in, obj](size_t n) { return readFromObject(in, obj, n); };
  }
  std::string magic = read(6);
  if (magic.compare(0, 4, std::string("PK\x03\x04", 4)) == 0 || magic.compare(0, 4, std::string("PK\x05\x06", 4)) == 0) {
    if (!f.isPath()) {  // the rest of the stream is the archive
      whole = magic;
      for (std::string more; !(more = read(1 << 20)).empty();) whole += more;
    }
    auto npz = make<NpzFileObject>();
    npz->members = lib::readZip(in, whole);
    npz->opts = opts;
    return Value(npz);
  }
  if (magic == npyMagic()) return decodeNpy(in, read, opts);
  if (!opts.allowPickle) in.raise("ValueError", "Cannot load file containing pickled data when allow_pickle=False");
  in.raise("NotImplementedError", "np.load of pickled data is not supported by tfs");
}

}  // namespace

void addIoFunctions(Defs &defs) {
  defs.push_back({"save(file, arr, allow_pickle=True, fix_imports=True)", save});
  defs.push_back({"load(file, mmap_mode=!None, allow_pickle=False, fix_imports=True, encoding='ASCII', *, "
                  "max_header_size=10000)",
                  load});
  addTextFunctions(defs);
  defs.push_back({"savez(file, *args, **kwds)", [](Interpreter &in, const Bound &b) { return savez(in, b, false); }});
  defs.push_back(
      {"savez_compressed(file, *args, **kwds)", [](Interpreter &in, const Bound &b) { return savez(in, b, true); }});
}

}  // namespace tfs::runtime::tf::numpy
