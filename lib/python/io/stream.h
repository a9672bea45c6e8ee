// The file objects of Python's io layer: what open() returns (text or
// binary, over a C stdio FILE), sys.stdin/stdout/stderr, io.StringIO and
// io.BytesIO (in memory). One native type with CPython's methods, errors
// and reprs (TextIOWrapper, BufferedReader/Writer/Random, StringIO, BytesIO).
//
// Text streams decode with runtime/interp/codecs (utf-8, ascii, latin-1)
// and translate newlines as CPython's TextIOWrapper does for each
// `newline=` value; tell() is the byte offset (CPython's cookie for these
// stateless codecs), StringIO's tell() counts characters.
#pragma once

#include "runtime/interp/codecs.h"
#include "runtime/interp/interpreter.h"

#include <cstdio>
#include <string>

namespace tfs::runtime::pyio {

enum class NewlineMode : uint8_t { Universal, Untranslated, LF, CR, CRLF };

struct StreamObject final : Object {
  enum class Kind : uint8_t { File, StdStream, StringIO, BytesIO };
  Kind kind = Kind::File;
  std::FILE *file = nullptr;      // File / StdStream
  std::string memory;             // StringIO (UTF-8) / BytesIO
  size_t memPos = 0;              // byte offset into memory
  bool binary = false, readable = false, writable = false, appending = false;
  bool closed = false, seekable = true, closefd = true;
  Encoding encoding = Encoding::Utf8;
  std::string encodingText = "UTF-8";  // as the user named it (f.encoding)
  std::string errors = "strict";
  NewlineMode newline = NewlineMode::Universal;
  Value newlineArg;               // newline= as given (None or str)
  Value name;                     // the path (str) or fd (int)
  std::string mode;               // f.mode
  enum class LastOp : uint8_t { None, Read, Write };
  LastOp lastOp = LastOp::None;   // an update stream seeks when it turns

  ~StreamObject() override;
  const char *typeName() const override;
  std::optional<Value> getAttr(Interpreter &in, const std::string &attr) override;
  bool setAttr(Interpreter &in, const std::string &attr, const Value &v) override;
  std::optional<std::string> repr(Interpreter &in) override;
  std::optional<Value> iter(Interpreter &in) override;
  std::optional<Value> next(Interpreter &in) override;
  std::optional<Value> enter(Interpreter &in) override;
  bool exit(Interpreter &in, bool raised) override;

  // --- operations (each checks closed / readable / writable like CPython) ---
  Value read(Interpreter &in, int64_t size);       // size < 0: everything
  Value readline(Interpreter &in, int64_t limit);  // "" / b"" at EOF
  // Text: writes a str (returns characters); binary: bytes (returns bytes).
  int64_t write(Interpreter &in, const Value &data);
  // Writes UTF-8 text to a text stream (print's path; no Value boxing).
  void writeText(Interpreter &in, std::string_view text);
  void flush(Interpreter &in);
  void close(Interpreter &in);
  int64_t tell(Interpreter &in);
  int64_t seek(Interpreter &in, int64_t offset, int whence);

  void checkOpen(Interpreter &in) const;
  void checkReadable(Interpreter &in) const;
  void checkWritable(Interpreter &in) const;

  // Byte-level access to the backing store.
  int getByte();
  void ungetByte(int c);
  void putBytes(Interpreter &in, std::string_view bytes);
  int64_t bytePosition() const;

private:
  void switchDirection(LastOp op);
  // One text line's raw bytes (up to and including its terminator), and
  // the line as the reader returns it (newline translated).
  std::string readRawLine(int64_t limitChars, bool *hitLimit);
  std::string decodeChunk(Interpreter &in, std::string_view raw, int64_t startOffset);
  std::string translateRead(std::string text) const;
};

// io.UnsupportedOperation (a subclass of OSError and ValueError).
[[noreturn]] void raiseUnsupported(Interpreter &in, const std::string &message);

// open()'s body: `open(file, mode='r', buffering=-1, encoding=None,
// errors=None, newline=None, closefd=True, opener=None)`.
Value openFile(Interpreter &in, const Value &file, const std::string &mode, int64_t buffering,
               const Value &encoding, const Value &errors, const Value &newline, bool closefd);

// The path a file argument names: str, bytes, or an os.PathLike
// (__fspath__); else CPython's TypeError.
std::string fsPath(Interpreter &in, const Value &file);

// The interpreter's sys.stdin / sys.stdout / sys.stderr objects, made once
// per interpreter by the sys module.
Value makeStdStream(Interpreter &in, int fd);

// print() writes to sys.stdout, which only a script that imported sys can
// have replaced: until then print() uses a stdout stream of its own (the
// same C stream) and does not build the sys module, whose version_info and
// float_info come from parsing a .tfs file. The sys module calls
// noteSysModuleLoaded when it is made; from then on print() reads sys.stdout.
void noteSysModuleLoaded(Interpreter &in, const Value &sys);

// Registers `io` and the builtins open / print / input.
void registerIo();

}  // namespace tfs::runtime::pyio
