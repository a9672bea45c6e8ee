// StreamObject's operations: reading, writing, positioning and closing,
// with CPython's checks and messages. The methods scripts call are bound
// in stream_methods.cpp.
#include "lib/python/io/stream.h"

#include <cerrno>
#include <fmt/format.h>
#include <unistd.h>

namespace tfs::runtime::pyio {

namespace {

size_t countChars(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// The byte offset of character `chars` in UTF-8 `s` (s.size() past the end).
size_t byteOfChar(std::string_view s, size_t chars) {
  size_t seen = 0;
  for (size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
      if (seen == chars) return i;
      ++seen;
    }
  return s.size();
}

}  // namespace

[[noreturn]] void raiseUnsupported(Interpreter &in, const std::string &message) {
  Value cls = in.getAttr(in.importModule("io"), "UnsupportedOperation");
  in.raiseValue(in.newException(Ref<ClassObject>(cls.as<ClassObject>()), message));
}

StreamObject::~StreamObject() {
  if (file && kind == Kind::File && !closed) {
    if (closefd) std::fclose(file);
    else std::fflush(file);
  }
}

const char *StreamObject::typeName() const {
  switch (kind) {
  case Kind::StringIO: return "StringIO";
  case Kind::BytesIO: return "BytesIO";
  case Kind::StdStream: return "TextIOWrapper";
  case Kind::File: break;
  }
  if (!binary) return "TextIOWrapper";
  if (readable && writable) return "BufferedRandom";
  return readable ? "BufferedReader" : "BufferedWriter";
}

std::optional<std::string> StreamObject::repr(Interpreter &in) {
  if (kind == Kind::StringIO || kind == Kind::BytesIO)
    return fmt::format("<_io.{} object at {}>", typeName(), static_cast<const void *>(this));
  if (closed && kind == Kind::File) return fmt::format("<_io.{} name={}>", typeName(), in.repr(name));
  if (binary) return fmt::format("<_io.{} name={}>", typeName(), in.repr(name));
  return fmt::format("<_io.TextIOWrapper name={} mode='{}' encoding='{}'>", in.repr(name), mode, encodingText);
}

void StreamObject::checkOpen(Interpreter &in) const {
  // (CPython's StringIO says it without the period.)
  if (closed) in.raise("ValueError", kind == Kind::StringIO ? "I/O operation on closed file" : "I/O operation on closed file.");
}
void StreamObject::checkReadable(Interpreter &in) const {
  checkOpen(in);
  if (!readable) raiseUnsupported(in, binary ? "read" : "not readable");
}
void StreamObject::checkWritable(Interpreter &in) const {
  checkOpen(in);
  if (!writable) raiseUnsupported(in, binary ? "write" : "not writable");
}

void StreamObject::switchDirection(LastOp op) {
  // C stdio needs a seek between reading and writing an update stream.
  if (lastOp != LastOp::None && lastOp != op && kind == Kind::File) std::fseek(file, 0, SEEK_CUR);
  lastOp = op;
}

int StreamObject::getByte() {
  if (file) return getc_unlocked(file);
  if (memPos >= memory.size()) return EOF;
  return static_cast<unsigned char>(memory[memPos++]);
}

void StreamObject::ungetByte(int c) {
  if (c == EOF) return;
  if (file) std::ungetc(c, file);
  else --memPos;
}

int64_t StreamObject::bytePosition() const {
  if (file) return std::ftell(file);
  return int64_t(memPos);
}

void StreamObject::putBytes(Interpreter &in, std::string_view bytes) {
  if (file) {
    switchDirection(LastOp::Write);
    if (std::fwrite(bytes.data(), 1, bytes.size(), file) != bytes.size() || std::ferror(file)) {
      int err = errno;
      std::clearerr(file);
      in.raiseValue(in.newOSError(err ? err : EIO));
    }
    return;
  }
  if (memPos > memory.size()) memory.resize(memPos, '\0');
  memory.replace(memPos, std::min(bytes.size(), memory.size() - memPos), bytes);
  memPos += bytes.size();
}

std::string StreamObject::readRawLine(int64_t limitChars, bool *hitLimit) {
  std::string raw;
  int64_t chars = 0;
  *hitLimit = false;
  const bool utf8 = binary || encoding == Encoding::Utf8 || encoding == Encoding::Utf8Sig;
  for (;;) {
    int c = getByte();
    if (c == EOF) break;
    bool lead = !utf8 || (c & 0xC0) != 0x80 || binary;
    if (lead && limitChars >= 0 && chars >= limitChars) {
      ungetByte(c);
      *hitLimit = true;
      break;
    }
    raw += char(c);
    chars += lead;
    if (binary) {
      if (c == '\n') break;
      continue;
    }
    if (c == '\n' && newline != NewlineMode::CR && newline != NewlineMode::CRLF) break;
    if (c == '\n' && newline == NewlineMode::CRLF && raw.size() >= 2 && raw[raw.size() - 2] == '\r') break;
    if (c == '\r' && newline == NewlineMode::CR) break;
    if (c == '\r' && (newline == NewlineMode::Universal || newline == NewlineMode::Untranslated)) {
      int d = getByte();
      if (d == '\n') raw += '\n';
      else ungetByte(d);
      break;
    }
  }
  return raw;
}

std::string StreamObject::decodeChunk(Interpreter &in, std::string_view raw, int64_t startOffset) {
  if (kind == Kind::StringIO) return std::string(raw);
  // CPython decodes text files in chunks of 8192 bytes; an error's position
  // is within its chunk.
  size_t base = startOffset >= 0 ? size_t(startOffset % 8192) : 0;
  return decodeText(in, raw, encoding, errors, nullptr, true, base);
}

std::string StreamObject::translateRead(std::string text) const {
  if (newline != NewlineMode::Universal || text.find('\r') == std::string::npos) return text;
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r') {
      out += '\n';
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

Value StreamObject::read(Interpreter &in, int64_t size) {
  checkReadable(in);
  if (file) switchDirection(LastOp::Read);
  int64_t start = bytePosition();
  std::string raw;
  if (size < 0) {
    if (file) {
      char buf[65536];
      size_t n;
      while ((n = std::fread(buf, 1, sizeof buf, file)) > 0) raw.append(buf, n);
      if (std::ferror(file)) {
        int err = errno;
        std::clearerr(file);
        in.raiseValue(in.newOSError(err ? err : EIO));
      }
      std::clearerr(file);  // EOF is not sticky: a later read sees appended data
    } else {
      raw = memory.substr(std::min(memPos, memory.size()));
      memPos = std::max(memPos, memory.size());
    }
  } else if (binary) {
    raw.resize(size_t(size));
    if (file) {
      raw.resize(std::fread(raw.data(), 1, raw.size(), file));
      std::clearerr(file);
    } else {
      size_t from = std::min(memPos, memory.size());
      raw = memory.substr(from, size_t(size));
      memPos = from + raw.size();
    }
  } else {
    // `size` characters: whole UTF-8 sequences, \r\n as one in universal mode.
    const bool utf8 = encoding == Encoding::Utf8 || encoding == Encoding::Utf8Sig || kind == Kind::StringIO;
    for (int64_t chars = 0; chars < size; ++chars) {
      int c = getByte();
      if (c == EOF) break;
      raw += char(c);
      if (c == '\r' && newline == NewlineMode::Universal) {
        int d = getByte();
        if (d == '\n') raw += '\n';
        else ungetByte(d);
        continue;
      }
      if (!utf8) continue;
      for (size_t k = utf8SequenceLength(static_cast<unsigned char>(c)); k > 1; --k) {
        int d = getByte();
        if (d == EOF) break;
        if ((d & 0xC0) != 0x80) {
          ungetByte(d);
          break;
        }
        raw += char(d);
      }
    }
    if (file) std::clearerr(file);
  }
  if (binary) return Value(make<BytesObject>(std::move(raw)));
  if (encoding == Encoding::Utf8Sig && start == 0 && kind == Kind::File && raw.compare(0, 3, "\xEF\xBB\xBF") == 0)
    raw.erase(0, 3);
  std::string text = kind == Kind::StringIO ? raw : decodeText(in, raw, encoding, errors, nullptr, true, 0);
  return in.str(translateRead(std::move(text)));
}

Value StreamObject::readline(Interpreter &in, int64_t limit) {
  checkReadable(in);
  if (file) switchDirection(LastOp::Read);
  int64_t start = bytePosition();
  bool hitLimit = false;
  std::string raw = readRawLine(limit, &hitLimit);
  if (file) std::clearerr(file);
  if (binary) return Value(make<BytesObject>(std::move(raw)));
  if (encoding == Encoding::Utf8Sig && start == 0 && kind == Kind::File && raw.compare(0, 3, "\xEF\xBB\xBF") == 0)
    raw.erase(0, 3);
  return in.str(translateRead(decodeChunk(in, raw, start)));
}

void StreamObject::writeText(Interpreter &in, std::string_view text) {
  checkWritable(in);
  std::string translated;
  if ((newline == NewlineMode::CR || newline == NewlineMode::CRLF) && text.find('\n') != std::string_view::npos) {
    const char *nl = newline == NewlineMode::CR ? "\r" : "\r\n";
    for (char c : text) {
      if (c == '\n') translated += nl;
      else translated += c;
    }
    text = translated;
  }
  if (kind == Kind::StringIO || encoding == Encoding::Utf8) {
    putBytes(in, text);
  } else {
    Encoding e = encoding;
    // The byte order mark goes only at the start of the file.
    if (e == Encoding::Utf8Sig && bytePosition() != 0) e = Encoding::Utf8;
    putBytes(in, encodeText(in, text, e, errors));
  }
}

int64_t StreamObject::write(Interpreter &in, const Value &data) {
  checkOpen(in);
  if (binary) {
    auto *b = data.as<BytesObject>();
    if (!b) in.raise("TypeError", fmt::format("a bytes-like object is required, not '{}'", in.typeName(data)));
    checkWritable(in);
    putBytes(in, b->s);
    return int64_t(b->s.size());
  }
  auto *s = data.as<StrObject>();
  if (!s) in.raise("TypeError", fmt::format("write() argument must be str, not {}", in.typeName(data)));
  writeText(in, s->s);
  return int64_t(countChars(s->s));
}

void StreamObject::flush(Interpreter &in) {
  checkOpen(in);
  if (file && writable && std::fflush(file) != 0) in.raiseValue(in.newOSError(errno));
}

void StreamObject::close(Interpreter &in) {
  if (closed) return;
  closed = true;
  if (!file) return;
  if (kind == Kind::StdStream) {
    std::fflush(file);
    return;
  }
  int rc = closefd ? std::fclose(file) : std::fflush(file);
  file = nullptr;
  if (rc != 0) in.raiseValue(in.newOSError(errno));
}

int64_t StreamObject::tell(Interpreter &in) {
  checkOpen(in);
  if (kind == Kind::StringIO) return int64_t(countChars(std::string_view(memory).substr(0, std::min(memPos, memory.size())))) +
                                     int64_t(memPos > memory.size() ? memPos - memory.size() : 0);
  int64_t pos = bytePosition();
  if (pos < 0) in.raiseValue(in.newOSError(errno));
  return pos;
}

int64_t StreamObject::seek(Interpreter &in, int64_t offset, int whence) {
  checkOpen(in);
  if (whence < 0 || whence > 2) {
    if (binary && kind == Kind::File) in.raise("ValueError", fmt::format("whence value {} unsupported", whence));
    in.raise("ValueError", fmt::format("{}nvalid whence ({}, should be 0, 1 or 2)", kind == Kind::StringIO ? "I" : "i", whence));
  }
  if (!binary) {
    if (whence == 1 && offset != 0) raiseUnsupported(in, "can't do nonzero cur-relative seeks");
    if (whence == 2 && offset != 0) raiseUnsupported(in, "can't do nonzero end-relative seeks");
    if (whence == 0 && offset < 0) in.raise("ValueError", fmt::format("negative seek position {}", offset));
  }
  if (file) {
    std::fflush(file);
    lastOp = LastOp::None;
    if (std::fseek(file, long(offset), whence) != 0) in.raiseValue(in.newOSError(errno));
    return std::ftell(file);
  }
  if (kind == Kind::BytesIO && whence == 0 && offset < 0)
    in.raise("ValueError", fmt::format("negative seek value {}", offset));
  int64_t base = whence == 0 ? 0 : whence == 1 ? int64_t(memPos) : int64_t(memory.size());
  if (kind == Kind::StringIO) {
    if (whence == 0) {
      size_t total = countChars(memory);
      memPos = size_t(offset) <= total ? byteOfChar(memory, size_t(offset)) : memory.size() + (size_t(offset) - total);
      return offset;
    }
    memPos = size_t(base);
    return tell(in);
  }
  memPos = size_t(std::max<int64_t>(0, base + offset));
  return int64_t(memPos);
}

}  // namespace tfs::runtime::pyio
