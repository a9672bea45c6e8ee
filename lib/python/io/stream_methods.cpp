// The methods and attributes of file objects (StreamObject) as scripts see
// them, each bound by CPython's signature.
#include "lib/python/io/stream.h"
#include "runtime/interp/signature.h"

#include <fmt/format.h>
#include <unistd.h>

namespace tfs::runtime::pyio {

namespace {

int64_t sizeArg(Interpreter &in, const Value &v) { return v.isNone() ? -1 : in.toIndex(v); }

// fileno()/isatty()/readable()... say "closed file" without CPython's period.
void checkOpenNoPeriod(Interpreter &in, const StreamObject &s) {
  if (s.closed) in.raise("ValueError", "I/O operation on closed file");
}

Value readlines(Interpreter &in, StreamObject &s, int64_t hint) {
  std::vector<Value> lines;
  int64_t total = 0;
  for (;;) {
    Value line = s.readline(in, -1);
    int64_t n = in.length(line);
    if (n == 0) break;
    lines.push_back(line);
    total += n;
    if (hint > 0 && total >= hint) break;
  }
  return in.list(std::move(lines));
}

Value truncate(Interpreter &in, StreamObject &s, const Value &pos) {
  s.checkOpen(in);
  if (!s.writable) raiseUnsupported(in, "truncate");
  int64_t size = pos.isNone() ? s.tell(in) : in.toIndex(pos);
  if (s.file) {
    std::fflush(s.file);
    if (::ftruncate(fileno(s.file), off_t(size)) != 0) in.raiseValue(in.newOSError(errno));
    return Value::integer(size);
  }
  if (size < 0) in.raise("ValueError", fmt::format("negative size value {}", size));
  if (size_t(size) < s.memory.size()) {
    size_t bytes = size_t(size);
    if (s.kind == StreamObject::Kind::StringIO) {
      size_t chars = 0;
      bytes = 0;
      while (bytes < s.memory.size() && chars <= size_t(size)) {
        if ((static_cast<unsigned char>(s.memory[bytes]) & 0xC0) != 0x80 && chars++ == size_t(size)) break;
        ++bytes;
      }
    }
    s.memory.resize(bytes);
  }
  return Value::integer(size);
}

// Names CPython's io objects have that tfs does not implement.
bool unimplementedIoName(const std::string &attr) {
  static const char *const names[] = {"detach", "peek", "read1", "readinto", "readinto1", "raw", "buffer",
                                      "getbuffer", "write_through", "newlines"};
  for (const char *n : names)
    if (attr == n) return true;
  return false;
}

}  // namespace

std::optional<Value> StreamObject::getAttr(Interpreter &in, const std::string &attr) {
  Ref<StreamObject> self(this);
  auto method = [&](const char *sig, std::function<Value(StreamObject &, Interpreter &, const Bound &)> fn) {
    return nativeWithSignature(in, sig, [self, fn](Interpreter &in, const Bound &a) { return fn(*self, in, a); });
  };
  const bool memoryStream = kind == Kind::StringIO || kind == Kind::BytesIO;
  if (attr == "read")
    return method("read(size=-1, /)", [](StreamObject &s, Interpreter &in, const Bound &a) {
      return s.read(in, sizeArg(in, a[0]));
    });
  if (attr == "readline")
    return method("readline(size=-1, /)", [](StreamObject &s, Interpreter &in, const Bound &a) {
      return s.readline(in, sizeArg(in, a[0]));
    });
  if (attr == "readlines")
    return method("readlines(hint=-1, /)", [](StreamObject &s, Interpreter &in, const Bound &a) {
      s.checkReadable(in);
      return readlines(in, s, sizeArg(in, a[0]));
    });
  if (attr == "write")
    return method("write(s, /)", [](StreamObject &s, Interpreter &in, const Bound &a) {
      return Value::integer(s.write(in, a[0]));
    });
  if (attr == "writelines")
    return method("writelines(lines, /)", [](StreamObject &s, Interpreter &in, const Bound &a) {
      s.checkOpen(in);
      Value it = in.iter(a[0]);
      while (auto line = in.next(it)) s.write(in, *line);
      return Value();
    });
  if (attr == "flush")
    return method("flush()", [](StreamObject &s, Interpreter &in, const Bound &) {
      s.flush(in);
      return Value();
    });
  if (attr == "close")
    return method("close()", [](StreamObject &s, Interpreter &in, const Bound &) {
      s.close(in);
      return Value();
    });
  if (attr == "tell")
    return method("tell()", [](StreamObject &s, Interpreter &in, const Bound &) { return Value::integer(s.tell(in)); });
  if (attr == "seek")
    return method("seek(cookie, whence=0, /)", [](StreamObject &s, Interpreter &in, const Bound &a) {
      return Value::integer(s.seek(in, in.toIndex(a[0]), int(in.toIndex(a[1]))));
    });
  if (attr == "truncate")
    return method("truncate(pos=None, /)", [](StreamObject &s, Interpreter &in, const Bound &a) {
      return truncate(in, s, a[0]);
    });
  if (attr == "fileno" && !memoryStream)
    return method("fileno()", [](StreamObject &s, Interpreter &in, const Bound &) {
      checkOpenNoPeriod(in, s);
      return Value::integer(fileno(s.file));
    });
  if (attr == "fileno") return method("fileno()", [](StreamObject &, Interpreter &in, const Bound &) -> Value {
      raiseUnsupported(in, "fileno");
    });
  if (attr == "isatty")
    return method("isatty()", [](StreamObject &s, Interpreter &in, const Bound &) {
      checkOpenNoPeriod(in, s);
      return Value::boolean(s.file && ::isatty(fileno(s.file)));
    });
  if (attr == "readable" || attr == "writable" || attr == "seekable") {
    std::string which = attr;
    return method((attr + "()").c_str(), [which](StreamObject &s, Interpreter &in, const Bound &) {
      bool answer = which == "readable" ? s.readable : which == "writable" ? s.writable : s.seekable;
      if (s.kind == Kind::StringIO || s.kind == Kind::BytesIO) s.checkOpen(in);
      else if (answer || which == "seekable") checkOpenNoPeriod(in, s);  // CPython checks only then
      return Value::boolean(answer);
    });
  }
  if (attr == "getvalue" && memoryStream)
    return method("getvalue()", [](StreamObject &s, Interpreter &in, const Bound &) -> Value {
      s.checkOpen(in);
      if (s.kind == Kind::BytesIO) return Value(make<BytesObject>(s.memory));
      return in.str(s.memory);
    });
  if (attr == "__enter__")
    return method("__enter__()", [](StreamObject &s, Interpreter &in, const Bound &) {
      s.checkOpen(in);
      return Value(Ref<StreamObject>(&s));
    });
  if (attr == "__exit__")
    return method("__exit__(*args)", [](StreamObject &s, Interpreter &in, const Bound &) {
      s.close(in);
      return Value();
    });
  if (attr == "__iter__")
    return method("__iter__()", [](StreamObject &s, Interpreter &in, const Bound &) {
      s.checkOpen(in);
      return Value(Ref<StreamObject>(&s));
    });
  if (attr == "__next__")
    return method("__next__()", [](StreamObject &s, Interpreter &in, const Bound &) -> Value {
      if (auto v = s.next(in)) return *v;
      in.raise("StopIteration", "");
    });
  if (attr == "closed") return Value::boolean(closed);
  if (attr == "name" && !memoryStream) return name;
  if (attr == "mode" && !memoryStream) return in.str(mode);
  if (!binary && (attr == "encoding" || attr == "errors") && kind != Kind::BytesIO) {
    if (kind == Kind::StringIO) return Value();
    return in.str(attr == "encoding" ? encodingText : errors);
  }
  if (!binary && attr == "line_buffering") return Value::boolean(kind == Kind::StdStream && file && ::isatty(fileno(file)));
  if (!binary && attr == "reconfigure")
    return method("reconfigure(*, encoding=None, errors=None, newline=!None, line_buffering=None, write_through=None)",
                  [](StreamObject &s, Interpreter &in, const Bound &a) {
                    s.checkOpen(in);
                    if (!a.isNone("encoding")) {
                      s.encoding = lookupEncoding(in, in.str(a["encoding"]));
                      s.encodingText = in.str(a["encoding"]);
                    }
                    if (!a.isNone("errors")) s.errors = in.str(a["errors"]);
                    if (s.file && !a.isNone("line_buffering") && in.truth(a["line_buffering"])) std::fflush(s.file);
                    return Value();
                  });
  if (unimplementedIoName(attr))
    in.raise("NotImplementedError", fmt::format("{}.{} is not supported by tfs", typeName(), attr));
  return std::nullopt;
}

bool StreamObject::setAttr(Interpreter &in, const std::string &attr, const Value &) {
  if (attr == "closed" || attr == "name" || attr == "mode" || attr == "encoding")
    in.raise("AttributeError", fmt::format("attribute '{}' of '_io.{}' objects is not writable", attr, typeName()));
  return false;
}

std::optional<Value> StreamObject::iter(Interpreter &in) {
  checkOpen(in);
  return Value(Ref<StreamObject>(this));
}

std::optional<Value> StreamObject::next(Interpreter &in) {
  Value line = readline(in, -1);
  if (in.length(line) == 0) return std::nullopt;
  return line;
}

std::optional<Value> StreamObject::enter(Interpreter &in) {
  checkOpen(in);
  return Value(Ref<StreamObject>(this));
}

bool StreamObject::exit(Interpreter &in, bool) {
  close(in);
  return false;
}

}  // namespace tfs::runtime::pyio
