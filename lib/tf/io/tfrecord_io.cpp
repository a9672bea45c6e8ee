// tf.io.TFRecordWriter and the record reader of tf.data.TFRecordDataset, on
// the TFRecord framing of lib/tf/io/tfrecord.h (so files interoperate with
// TensorFlow's).
//
// Note [TFRecordWriter writes atomically]: TF's writer streams records into
// the file. Here they stream into a temporary sibling that close() (or the
// writer's end) renames over the path: a script that stops with an error
// before closing leaves no half-written file, and a reader never sees a
// record cut short. flush() publishes what was written so far the same way.
#include "lib/python/zlib/inflate.h"
#include "lib/tf/io/io_lib.h"
#include "lib/tf/io/tfrecord.h"
#include "runtime/interp/native_context_managers.h"

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <sys/stat.h>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <zlib.h>

namespace tfs::runtime::tf::io {

namespace {

namespace fs = std::filesystem;
using lib::tfrecord::RecordIoError;

[[noreturn]] void raiseRecordError(Interpreter &in, const RecordIoError &e) { raiseTf(in, e.tfClass, e.what()); }

// The framed records compressed as TF's ZlibOutputBuffer writes them with
// compression_type "GZIP" (gzip framing) or "ZLIB" (zlib framing).
std::string compressRecords(const std::string &data, const std::string &compression, int level) {
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, compression == "GZIP" ? 16 + MAX_WBITS : MAX_WBITS, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK)
    throw RecordIoError("InternalError", "deflateInit2 failed");
  std::string out;
  int rc = deflateFinishInto(zs, data.data(), data.size(), out);
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) throw RecordIoError("InternalError", "deflate failed");
  return out;
}

std::string slurp(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

struct TFRecordWriterObject final : Object {
  std::string path, tmpPath;
  std::string compression;  // "", "GZIP" or "ZLIB"
  int level = Z_DEFAULT_COMPRESSION;
  std::unique_ptr<lib::tfrecord::RecordWriter> writer;
  const char *typeName() const override { return "TFRecordWriter"; }
  ~TFRecordWriterObject() override {
    try {
      finish();
    } catch (const RecordIoError &) {
      std::remove(tmpPath.c_str());
    }
  }
  // Closes the temporary file (compressed now when asked) and renames it
  // over the path.
  void finish() {
    if (!writer) return;
    writer->close();
    writer.reset();
    if (!compression.empty()) {
      std::string packed = compressRecords(slurp(tmpPath), compression, level);
      std::ofstream f(tmpPath, std::ios::binary | std::ios::trunc);
      f.write(packed.data(), std::streamsize(packed.size()));
      if (!f) throw RecordIoError("UnknownError", fmt::format("{}; {}", path, std::strerror(errno)));
    }
    if (std::rename(tmpPath.c_str(), path.c_str()) != 0)
      throw RecordIoError("UnknownError", fmt::format("{}; {}", path, std::strerror(errno)));
  }
  void publish(Interpreter &in) {
    try {
      writer->flush();
    } catch (const RecordIoError &e) {
      raiseRecordError(in, e);
    }
    std::string bytes = readFileOrRaise(in, tmpPath);
    try {
      if (!compression.empty()) bytes = compressRecords(bytes, compression, level);
    } catch (const RecordIoError &e) {
      raiseRecordError(in, e);
    }
    writeFileOrRaise(in, path, bytes);
  }
  std::optional<Value> enter(Interpreter &) override { return Value(Ref<Object>(this)); }
  bool exit(Interpreter &in, bool) override {
    close(in);
    return false;
  }
  void close(Interpreter &in) {
    try {
      finish();
    } catch (const RecordIoError &e) {
      raiseRecordError(in, e);
    }
  }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override {
    Ref<TFRecordWriterObject> self(this);
    if (name == "write")
      return nativeWithSignature(in, "write(record)", [self](Interpreter &in, const Bound &a) {
        const Value &r = a["record"];
        std::string bytes;
        if (auto *b = r.as<BytesObject>()) bytes = b->s;
        else if (auto *s = r.as<StrObject>()) bytes = s->s;
        else in.raise("TypeError", fmt::format("write(): incompatible function arguments. The following argument "
                                               "types are supported:\n    1. (self: tensorflow.python.lib.io."
                                               "_pywrap_record_io.RecordWriter, record: str) -> None\n\nInvoked "
                                               "with: {}",
                                               in.repr(r)));
        if (!self->writer) raiseTf(in, "FailedPreconditionError", "Writer is closed.");
        try {
          self->writer->write(bytes);
        } catch (const RecordIoError &e) {
          raiseRecordError(in, e);
        }
        return Value();
      });
    if (name == "flush")
      return nativeWithSignature(in, "flush()", [self](Interpreter &in, const Bound &) {
        if (!self->writer) raiseTf(in, "FailedPreconditionError", "Writer is closed.");
        self->publish(in);
        return Value();
      });
    if (name == "close")
      return nativeWithSignature(in, "close()", [self](Interpreter &in, const Bound &) {
        self->close(in);
        return Value();
      });
    if (name == "__enter__")
      return nativeWithSignature(in, "__enter__()", [self](Interpreter &, const Bound &) { return Value(Ref<Object>(self)); });
    if (name == "__exit__")
      return nativeWithSignature(in, "__exit__(unused_type, unused_value, unused_traceback)",
                                 [self](Interpreter &in, const Bound &) {
                                   self->close(in);
                                   return Value();
                                 });
    return std::nullopt;
  }
};
TFS_NATIVE_CONTEXT_MANAGER(TFRecordWriterObject);

// options: None, "", "GZIP", "ZLIB" or a tf.io.TFRecordOptions (its
// compression_type and compression_level; _tf_io.tfs refuses its other
// zlib settings).
Value openWriter(Interpreter &in, const Bound &a) {
  const Value &options = a["options"];
  auto w = make<TFRecordWriterObject>();
  Value type = options;
  if (!options.isNone() && !options.as<StrObject>()) {
    type = in.getAttr(options, "compression_type");
    if (Value level = in.getAttr(options, "compression_level"); !level.isNone()) w->level = int(in.toInt(level));
  }
  if (!type.isNone()) {
    std::string t = in.str(type);
    if (t != "" && t != "GZIP" && t != "ZLIB") in.raise("ValueError", fmt::format("Not a valid compression_type: \"{}\"", t));
    w->compression = t;
  }
  w->path = pathArg(in, a["path"]);
  if (in.options().readOnlyFiles) raiseTf(in, "PermissionDeniedError", fmt::format("{}; file writes are disabled", w->path));
  fs::path parent = fs::path(w->path).parent_path();
  struct stat st;
  if (!parent.empty() && (::stat(parent.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))) raiseFileError(in, w->path, ENOENT);
  if (::stat(w->path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) raiseFileError(in, w->path, EISDIR);
  w->tmpPath = w->path + fmt::format(".tmp-{}-{}", ::getpid(), static_cast<const void *>(w.get()));
  try {
    w->writer = std::make_unique<lib::tfrecord::RecordWriter>(w->tmpPath);
  } catch (const RecordIoError &e) {
    raiseRecordError(in, e);
  }
  return Value(w);
}

}  // namespace

void installTFRecordWriter(Interpreter &in, ModuleObject &io) {
  defSig(in, io, "TFRecordWriter(path, options=None)", openWriter);
}

}  // namespace tfs::runtime::tf::io
