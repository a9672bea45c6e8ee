// TFRecord framing (see tfrecord.h). CRC-32C by a 256-entry table: event
// files and TFRecord datasets are read at disk speed, far below the table's.
#include "lib/tf/io/tfrecord.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <vector>

namespace tfs::lib::tfrecord {
namespace {

constexpr uint32_t kCastagnoliReflected = 0x82f63b78u;
constexpr uint32_t kMaskDelta = 0xa282ead8u;
constexpr size_t kHeaderSize = sizeof(uint64_t) + sizeof(uint32_t);

constexpr std::array<uint32_t, 256> makeTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ kCastagnoliReflected : c >> 1;
    table[i] = c;
  }
  return table;
}
constexpr std::array<uint32_t, 256> kTable = makeTable();

void putLittleEndian(std::string &out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(char((v >> (8 * i)) & 0xff));
}

uint64_t getLittleEndian(const char *p, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | uint8_t(p[i]);
  return v;
}

// TF's own messages for files it cannot open ("<path>; No such file or
// directory").
RecordIoError openError(const std::string &path) {
  int e = errno;
  std::string cls = e == ENOENT ? "NotFoundError" : e == EACCES ? "PermissionDeniedError" : "UnknownError";
  return RecordIoError(cls, fmt::format("{}; {}", path, std::strerror(e)));
}

}  // namespace

uint32_t crc32c(std::string_view data, uint32_t crc) {
  crc = ~crc;
  for (unsigned char b : data) crc = kTable[(crc ^ b) & 0xff] ^ (crc >> 8);
  return ~crc;
}

uint32_t maskCrc(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + kMaskDelta; }

uint32_t unmaskCrc(uint32_t masked) {
  uint32_t rot = masked - kMaskDelta;
  return (rot >> 17) | (rot << 15);
}

std::string frameRecord(std::string_view data) {
  std::string out;
  out.reserve(data.size() + 16);
  putLittleEndian(out, data.size(), 8);
  putLittleEndian(out, maskCrc(crc32c(out)), 4);
  out.append(data);
  putLittleEndian(out, maskCrc(crc32c(data)), 4);
  return out;
}

RecordWriter::RecordWriter(const std::string &path) : path_(path) {
  file_ = std::fopen(path.c_str(), "wb");
  if (!file_) throw openError(path);
}

RecordWriter::~RecordWriter() {
  if (file_) std::fclose(file_);
}

void RecordWriter::write(std::string_view data) {
  if (!file_) throw RecordIoError("FailedPreconditionError", fmt::format("{} is closed", path_));
  std::string framed = frameRecord(data);
  if (std::fwrite(framed.data(), 1, framed.size(), file_) != framed.size())
    throw RecordIoError("UnknownError", fmt::format("{}; {}", path_, std::strerror(errno)));
}

void RecordWriter::flush() {
  if (file_ && std::fflush(file_) != 0)
    throw RecordIoError("UnknownError", fmt::format("{}; {}", path_, std::strerror(errno)));
}

void RecordWriter::close() {
  if (!file_) return;
  int rc = std::fclose(file_);
  file_ = nullptr;
  if (rc != 0) throw RecordIoError("UnknownError", fmt::format("{}; {}", path_, std::strerror(errno)));
}

RecordReader::RecordReader(const std::string &path) : path_(path) {
  file_ = std::fopen(path.c_str(), "rb");
  if (!file_) throw openError(path);
  measureSize();
}

RecordReader::RecordReader(std::string bytes, InMemory) : path_("<memory>"), bytes_(std::move(bytes)) {
  // glibc's fmemopen reads the string through the same FILE path as a file.
  file_ = bytes_.empty() ? std::tmpfile() : fmemopen(bytes_.data(), bytes_.size(), "rb");
  if (!file_) throw RecordIoError("UnknownError", std::strerror(errno));
  measureSize();
}

RecordReader::~RecordReader() {
  if (file_) std::fclose(file_);
}

void RecordReader::measureSize() {
  if (std::fseek(file_, 0, SEEK_END) == 0) {
    long end = std::ftell(file_);
    if (end >= 0) size_ = uint64_t(end);
  }
  std::fseek(file_, 0, SEEK_SET);
}

bool RecordReader::readChecksummed(uint64_t at, size_t n, std::string &out) {
  out.resize(n + sizeof(uint32_t));
  size_t got = std::fread(out.data(), 1, out.size(), file_);
  if (got == 0 && std::feof(file_)) return false;
  if (got != out.size()) throw RecordIoError("DataLossError", fmt::format("truncated record at {}", at));
  uint32_t stored = uint32_t(getLittleEndian(out.data() + n, 4));
  out.resize(n);
  if (unmaskCrc(stored) != crc32c(out)) throw RecordIoError("DataLossError", fmt::format("corrupted record at {}", at));
  return true;
}

std::optional<std::string> RecordReader::next() {
  std::string header;
  if (!readChecksummed(offset_, sizeof(uint64_t), header)) return std::nullopt;
  uint64_t length = getLittleEndian(header.data(), 8);
  uint64_t dataAt = offset_ + kHeaderSize;
  // A length past the end of the file is a truncated record, found before
  // allocating that (possibly huge) length.
  if (length > size_ || length + sizeof(uint32_t) > size_ - std::min(size_, dataAt))
    throw RecordIoError("DataLossError", fmt::format("truncated record at {}", dataAt));
  std::string data;
  if (!readChecksummed(dataAt, length, data))
    throw RecordIoError("DataLossError", fmt::format("truncated record at {}", dataAt));
  offset_ = dataAt + length + sizeof(uint32_t);
  return data;
}

std::vector<std::string> parseRecords(std::string bytes) {
  RecordReader reader(std::move(bytes), RecordReader::InMemory{});
  std::vector<std::string> records;
  while (auto r = reader.next()) records.push_back(std::move(*r));
  return records;
}

}  // namespace tfs::lib::tfrecord
