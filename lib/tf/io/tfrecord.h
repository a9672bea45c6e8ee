// TFRecord framing: the container of TensorBoard event files and of
// tf.data.TFRecordDataset / tf.io.TFRecordWriter. Each record is
//   uint64 length (little-endian) | uint32 masked CRC32C of those 8 bytes |
//   length bytes of data          | uint32 masked CRC32C of the data
// where the mask is TF's: rotate the CRC right by 15 bits and add 0xa282ead8
// (so a CRC of data that itself holds CRCs stays well distributed).
//
// Plain C++ with no interpreter: errors are RecordIoError carrying the TF
// error class the binding raises (DataLossError for a corrupt or truncated
// record, as TF's RecordReader reports them).
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tfs::lib::tfrecord {

// CRC-32C (Castagnoli polynomial, reflected 0x82f63b78) of `data`, extending
// a previous CRC `crc` (0 starts afresh).
uint32_t crc32c(std::string_view data, uint32_t crc = 0);
uint32_t maskCrc(uint32_t crc);
uint32_t unmaskCrc(uint32_t masked);

// The bytes of one framed record (header, data, footer).
std::string frameRecord(std::string_view data);

// A failure with the TF error class to raise ("DataLossError",
// "NotFoundError", "PermissionDeniedError", ...) and TF's message.
struct RecordIoError : std::runtime_error {
  RecordIoError(std::string tfClass, const std::string &message)
      : std::runtime_error(message), tfClass(std::move(tfClass)) {}
  std::string tfClass;
};

// Appends framed records to a file (created or truncated at construction).
class RecordWriter {
public:
  explicit RecordWriter(const std::string &path);
  ~RecordWriter();
  RecordWriter(const RecordWriter &) = delete;
  RecordWriter &operator=(const RecordWriter &) = delete;

  void write(std::string_view data);
  void flush();  // to the operating system (fflush)
  void close();  // flushes; further writes raise
  bool closed() const { return file_ == nullptr; }
  const std::string &path() const { return path_; }

private:
  std::string path_;
  std::FILE *file_ = nullptr;
};

// Reads the records of a file in order, checking both CRCs of each.
class RecordReader {
public:
  explicit RecordReader(const std::string &path);
  struct InMemory {};
  RecordReader(std::string bytes, InMemory);  // records held in a string
  ~RecordReader();
  RecordReader(const RecordReader &) = delete;
  RecordReader &operator=(const RecordReader &) = delete;

  // The next record, or nullopt at a clean end of file. RecordIoError
  // ("DataLossError": "truncated record at N" / "corrupted record at N",
  // N the byte offset of the record's header or data) otherwise.
  std::optional<std::string> next();
  uint64_t offset() const { return offset_; }

private:
  // Reads n bytes plus their masked CRC; false at EOF before any byte.
  bool readChecksummed(uint64_t at, size_t n, std::string &out);
  void measureSize();

  std::string path_;
  std::string bytes_;  // the records of an in-memory reader
  std::FILE *file_ = nullptr;
  uint64_t size_ = 0;  // the file's size when opened
  uint64_t offset_ = 0;
};

// Every record of an in-memory byte string (tests, small files).
std::vector<std::string> parseRecords(std::string bytes);

}  // namespace tfs::lib::tfrecord
