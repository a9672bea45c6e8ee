// tf.io.gfile: TensorFlow's file system API on the local file system
// (tensorflow/python/lib/io/file_io.py): exists, isdir, listdir, glob,
// makedirs, mkdir, remove, rename, copy, rmtree, stat, walk, join and the
// GFile file object.
//
// Note [GFile writes are atomic]: TF's GFile appends to a WritableFile that
// is flushed on flush()/close(). Here the bytes written are kept until
// flush()/close() and then the whole file is replaced atomically (a
// temporary sibling renamed over it), so a script that stops with an error
// never leaves a half-written file behind. As in TF, no file is created
// before the first write(), reads see what is on disk, and a file reopened
// for reading after close() starts at its beginning.
#include "lib/file_util.h"
#include "lib/tf/io/io_lib.h"
#include "runtime/interp/native_context_managers.h"

#include <algorithm>
#include <cerrno>
#include <dirent.h>
#include <filesystem>
#include <fmt/format.h>
#include <glob.h>
#include <sys/stat.h>

namespace tfs::runtime::tf::io {

namespace {

namespace fs = std::filesystem;

bool isDirectory(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<std::string> children(const std::string &path) {
  std::vector<std::string> out;
  if (DIR *d = ::opendir(path.c_str())) {
    while (dirent *e = ::readdir(d)) {
      std::string name = e->d_name;
      if (name != "." && name != "..") out.push_back(name);
    }
    ::closedir(d);
  }
  // TF's order is the directory's; sorting makes it the same on every run.
  std::sort(out.begin(), out.end());
  return out;
}

// The path of `item` under `parent` as TF's walk joins them.
std::string joinPath(const std::string &parent, const std::string &item) {
  if (!item.empty() && item[0] == '/') return parent + (parent.empty() || parent.back() == '/' ? "" : "/") + item;
  if (parent.empty() || parent.back() == '/') return parent + item;
  return parent + "/" + item;
}

Value strList(Interpreter &in, const std::vector<std::string> &items) {
  std::vector<Value> out;
  for (const auto &s : items) out.push_back(in.str(s));
  return in.list(out);
}

void walk(const std::string &top, bool topdown, std::vector<Value> &out, Interpreter &in) {
  if (!isDirectory(top)) return;
  std::vector<std::string> subdirs, files;
  for (const auto &item : children(top)) (isDirectory(joinPath(top, item)) ? subdirs : files).push_back(item);
  Value here = in.tuple({in.str(top), strList(in, subdirs), strList(in, files)});
  if (topdown) out.push_back(here);
  for (const auto &d : subdirs) walk(joinPath(top, d), topdown, out, in);
  if (!topdown) out.push_back(here);
}

// --- GFile ----------------------------------------------------------------------

struct GFileObject final : Object {
  Value name;
  std::string path, mode;
  bool binary = false, canRead = false, canWrite = false;
  // Reading: the file's bytes once first read, and the position in them.
  bool readOpen = false;
  std::string content;
  size_t pos = 0;
  // Writing (Note [GFile writes are atomic]): what the file will hold.
  bool writeOpen = false, dirty = false;
  std::string written;

  const char *typeName() const override { return "GFile"; }
  ~GFileObject() override {
    if (writeOpen && dirty) lib::tryWriteFileAtomic(path, written);
  }

  void prepareRead(Interpreter &in) {
    if (readOpen) return;
    if (!canRead) raiseTf(in, "PermissionDeniedError", "File isn't open for reading");
    content = readFileOrRaise(in, path);
    pos = 0;
    readOpen = true;
  }
  void prepareWrite(Interpreter &in) {
    if (writeOpen) return;
    if (!canWrite) raiseTf(in, "PermissionDeniedError", "File isn't open for writing");
    if (in.options().readOnlyFiles) raiseTf(in, "PermissionDeniedError", fmt::format("{}; file writes are disabled", path));
    fs::path parent = fs::path(path).parent_path();
    if (!parent.empty() && !isDirectory(parent.string())) raiseFileError(in, path, ENOENT);
    if (isDirectory(path)) raiseFileError(in, path, EISDIR);
    written.clear();
    if (mode.find('a') != std::string::npos) {
      struct stat st;
      if (::stat(path.c_str(), &st) == 0) written = readFileOrRaise(in, path);
    }
    writeOpen = true;
    dirty = true;  // TF's WritableFile creates (or truncates) the file now
  }
  Value text(Interpreter &in, std::string s) const {
    return binary ? Value(make<BytesObject>(std::move(s))) : in.str(std::move(s));
  }
  void flush(Interpreter &in) {
    if (!writeOpen || !dirty) return;
    writeFileOrRaise(in, path, written);
    dirty = false;
  }
  void close(Interpreter &in) {
    readOpen = false;
    content.clear();
    if (writeOpen) {
      flush(in);
      writeOpen = false;
    }
  }
  int64_t fileSize(Interpreter &in) const {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) raiseFileError(in, path, errno);
    return int64_t(st.st_size);
  }
  Value readLine(Interpreter &in) {
    prepareRead(in);
    // TF's BufferedInputStream::ReadLine keeps the '\n' and drops every '\r'.
    size_t end = content.find('\n', std::min(pos, content.size()));
    end = end == std::string::npos ? content.size() : end + 1;
    std::string line;
    for (size_t i = std::min(pos, content.size()); i < end; ++i)
      if (content[i] != '\r') line += content[i];
    pos = end;
    return text(in, std::move(line));
  }

  std::optional<Value> iter(Interpreter &) override { return Value(Ref<Object>(this)); }
  std::optional<Value> next(Interpreter &in) override {
    Value line = readLine(in);
    if (in.truth(line)) return line;
    return std::nullopt;
  }
  std::optional<Value> enter(Interpreter &) override { return Value(Ref<Object>(this)); }
  bool exit(Interpreter &in, bool) override {
    close(in);
    return false;
  }
  std::optional<Value> getAttr(Interpreter &in, const std::string &attr) override;
};
TFS_NATIVE_CONTEXT_MANAGER(GFileObject);

std::optional<Value> GFileObject::getAttr(Interpreter &in, const std::string &attr) {
  Ref<GFileObject> self(this);
  if (attr == "name") return name;
  if (attr == "mode") return in.str(mode);
  if (attr == "read")
    return nativeWithSignature(in, "read(n=-1)", [self](Interpreter &in, const Bound &a) {
      self->prepareRead(in);
      int64_t n = in.toInt(a["n"]);
      size_t avail = self->content.size() - std::min(self->pos, self->content.size());
      size_t len = n < 0 ? avail : std::min<size_t>(size_t(n), avail);
      std::string out = self->content.substr(std::min(self->pos, self->content.size()), len);
      self->pos += len;
      return self->text(in, std::move(out));
    });
  if (attr == "readline")
    return nativeWithSignature(in, "readline()", [self](Interpreter &in, const Bound &) { return self->readLine(in); });
  if (attr == "readlines")
    return nativeWithSignature(in, "readlines()", [self](Interpreter &in, const Bound &) {
      std::vector<Value> lines;
      for (Value l = self->readLine(in); in.truth(l); l = self->readLine(in)) lines.push_back(l);
      return in.list(lines);
    });
  if (attr == "write")
    return nativeWithSignature(in, "write(file_content)", [self](Interpreter &in, const Bound &a) {
      const Value &v = a["file_content"];
      self->prepareWrite(in);
      if (auto *s = v.as<StrObject>()) self->written += s->s;
      else if (auto *b = v.as<BytesObject>()) self->written += b->s;
      else in.raise("TypeError", fmt::format("Expected binary or unicode string, got {}", in.repr(v)));
      self->dirty = true;
      return Value();
    });
  if (attr == "seek")
    return nativeWithSignature(in, "seek(offset=None, whence=0, position=None)", [self](Interpreter &in, const Bound &a) {
      self->prepareRead(in);
      if (a.isNone("offset") && a.isNone("position")) in.raise("TypeError", "seek(): offset argument required");
      if (!a.isNone("offset") && !a.isNone("position"))
        in.raise("TypeError", "seek(): offset and position may not be set simultaneously.");
      int64_t offset = in.toInt(a.isNone("offset") ? a["position"] : a["offset"]);
      int64_t whence = in.toInt(a["whence"]);
      if (whence == 1) offset += int64_t(self->pos);
      else if (whence == 2) offset += self->fileSize(in);
      else if (whence != 0)
        raiseTf(in, "InvalidArgumentError",
                fmt::format("Invalid whence argument: {}. Valid values are 0, 1, or 2.", whence));
      if (offset < 0) raiseTf(in, "InvalidArgumentError", fmt::format("Seeking to a negative position: {}", offset));
      self->pos = size_t(offset);
      return Value();
    });
  if (attr == "tell")
    return nativeWithSignature(in, "tell()", [self](Interpreter &in, const Bound &) {
      if (self->canRead) {
        self->prepareRead(in);
        return Value::integer(int64_t(self->pos));
      }
      self->prepareWrite(in);
      return Value::integer(int64_t(self->written.size()));
    });
  if (attr == "size")
    return nativeWithSignature(in, "size()", [self](Interpreter &in, const Bound &) { return Value::integer(self->fileSize(in)); });
  if (attr == "flush")
    return nativeWithSignature(in, "flush()", [self](Interpreter &in, const Bound &) {
      self->flush(in);
      return Value();
    });
  if (attr == "close")
    return nativeWithSignature(in, "close()", [self](Interpreter &in, const Bound &) {
      self->close(in);
      return Value();
    });
  if (attr == "seekable")
    return nativeWithSignature(in, "seekable()", [](Interpreter &, const Bound &) { return Value::boolean(true); });
  if (attr == "__enter__")
    return nativeWithSignature(in, "__enter__()", [self](Interpreter &, const Bound &) { return Value(Ref<Object>(self)); });
  if (attr == "__exit__")
    return nativeWithSignature(in, "__exit__(unused_type, unused_value, unused_traceback)",
                               [self](Interpreter &in, const Bound &) {
                                 self->close(in);
                                 return Value();
                               });
  return std::nullopt;
}

Value openGFile(Interpreter &in, const Bound &a) {
  auto f = make<GFileObject>();
  f->name = a["name"];
  f->path = pathArg(in, a["name"]);
  f->mode = in.str(a["mode"]);
  f->binary = f->mode.find('b') != std::string::npos;
  std::string m = f->mode;
  m.erase(std::remove(m.begin(), m.end(), 'b'), m.end());
  if (m != "r" && m != "w" && m != "a" && m != "r+" && m != "w+" && m != "a+")
    raiseTf(in, "InvalidArgumentError", "mode is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+'");
  f->canRead = m == "r" || m == "r+" || m == "a+" || m == "w+";
  f->canWrite = m != "r";
  return Value(f);
}

}  // namespace

// GetMatchingPaths for one pattern: '*' and '?' never match '/', sorted.
std::vector<std::string> globFiles(const std::string &pattern) {
  std::vector<std::string> out;
  glob_t g{};
  if (::glob(pattern.c_str(), GLOB_PERIOD | GLOB_NOSORT, nullptr, &g) == 0)
    for (size_t i = 0; i < g.gl_pathc; ++i) {
      std::string p = g.gl_pathv[i];
      std::string base = p.substr(p.find_last_of('/') + 1);
      if (base != "." && base != "..") out.push_back(p);
    }
  ::globfree(&g);
  std::sort(out.begin(), out.end());
  return out;
}

void makeDirsOrRaise(Interpreter &in, const std::string &path) {
  if (in.options().readOnlyFiles) raiseTf(in, "PermissionDeniedError", fmt::format("{}; file writes are disabled", path));
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec && !isDirectory(path)) raiseFileError(in, path, ec.value());
}

void installGfile(Interpreter &in, ModuleObject &io) {
  auto gfile = submodule(in, io, "gfile");
  auto &vars = gfile->scope->vars;
  auto fn = [&](const char *signature, SignedFn f) { defSig(in, *gfile, signature, std::move(f)); };

  fn("exists(path)", [](Interpreter &in, const Bound &a) {
    struct stat st;
    return Value::boolean(::stat(pathArg(in, a["path"]).c_str(), &st) == 0);
  });
  fn("isdir(path)", [](Interpreter &in, const Bound &a) { return Value::boolean(isDirectory(pathArg(in, a["path"]))); });
  fn("listdir(path)", [](Interpreter &in, const Bound &a) {
    std::string path = pathArg(in, a["path"]);
    if (!isDirectory(path)) raiseTf(in, "NotFoundError", fmt::format("Could not find directory {}", path));
    return strList(in, children(path));
  });
  fn("glob(pattern)", [](Interpreter &in, const Bound &a) {
    std::vector<std::string> out;
    const Value &p = a["pattern"];
    std::vector<Value> patterns = p.as<StrObject>() || p.as<BytesObject>() ? std::vector<Value>{p} : in.toList(p);
    for (const auto &one : patterns)
      for (auto &m : globFiles(pathArg(in, one))) out.push_back(std::move(m));
    return strList(in, out);
  });
  fn("makedirs(path)", [](Interpreter &in, const Bound &a) {
    makeDirsOrRaise(in, pathArg(in, a["path"]));
    return Value();
  });
  fn("mkdir(path)", [](Interpreter &in, const Bound &a) {
    std::string path = pathArg(in, a["path"]);
    if (in.options().readOnlyFiles) raiseTf(in, "PermissionDeniedError", fmt::format("{}; file writes are disabled", path));
    if (::mkdir(path.c_str(), 0755) != 0) raiseFileError(in, path, errno);
    return Value();
  });
  fn("remove(path)", [](Interpreter &in, const Bound &a) {
    std::string path = pathArg(in, a["path"]);
    if (in.options().readOnlyFiles) raiseTf(in, "PermissionDeniedError", fmt::format("{}; file writes are disabled", path));
    if (::unlink(path.c_str()) != 0) raiseFileError(in, path, errno);
    return Value();
  });
  fn("rmtree(path)", [](Interpreter &in, const Bound &a) {
    std::string path = pathArg(in, a["path"]);
    if (in.options().readOnlyFiles) raiseTf(in, "PermissionDeniedError", fmt::format("{}; file writes are disabled", path));
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) raiseFileError(in, path, errno);
    std::error_code ec;
    fs::remove_all(path, ec);
    if (ec) raiseFileError(in, path, ec.value());
    return Value();
  });
  for (bool copy : {false, true}) {
    const char *sig = copy ? "copy(src, dst, overwrite=False)" : "rename(src, dst, overwrite=False)";
    fn(sig, [copy](Interpreter &in, const Bound &a) {
      std::string src = pathArg(in, a["src"]), dst = pathArg(in, a["dst"]);
      if (in.options().readOnlyFiles) raiseTf(in, "PermissionDeniedError", fmt::format("{}; file writes are disabled", dst));
      struct stat st;
      if (::stat(src.c_str(), &st) != 0) raiseFileError(in, src, errno);
      if (!in.truth(a["overwrite"]) && ::stat(dst.c_str(), &st) == 0)
        raiseTf(in, "AlreadyExistsError", "file already exists");
      if (copy) {
        writeFileOrRaise(in, dst, readFileOrRaise(in, src));
      } else if (::rename(src.c_str(), dst.c_str()) != 0) {
        raiseFileError(in, src, errno);
      }
      return Value();
    });
  }
  fn("stat(path)", [](Interpreter &in, const Bound &a) {
    std::string path = pathArg(in, a["path"]);
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) raiseFileError(in, path, errno);
    // TF's FileStatistics: length, mtime_nsec, is_directory.
    auto stats = make<ModuleObject>("FileStatistics");
    stats->scope->vars["length"] = Value::integer(int64_t(st.st_size));
    stats->scope->vars["mtime_nsec"] = Value::integer(int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec);
    stats->scope->vars["is_directory"] = Value::boolean(S_ISDIR(st.st_mode));
    return Value(stats);
  });
  fn("walk(top, topdown=True, onerror=!None)", [](Interpreter &in, const Bound &a) {
    std::vector<Value> out;
    walk(pathArg(in, a["top"]), in.truth(a["topdown"]), out, in);
    return in.iter(in.list(out));
  });
  fn("join(path, *paths)", [](Interpreter &in, const Bound &a) {
    std::string out = pathArg(in, a["path"]);
    for (const auto &p : a.varArgs()) {
      std::string s = pathArg(in, p);
      if (!s.empty() && s[0] == '/') out = s;
      else if (out.empty() || out.back() == '/') out += s;
      else out += "/" + s;
    }
    return in.str(out);
  });
  fn("GFile(name, mode='r')", openGFile);
  vars["Open"] = vars["GFile"];
  fn("get_registered_schemes()", [](Interpreter &in, const Bound &) { return in.list({in.str("file")}); });
}

}  // namespace tfs::runtime::tf::io
