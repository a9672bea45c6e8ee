// TFRecord framing (lib/tf/io/tfrecord.h): CRC-32C against the published
// check vectors, TF's CRC mask, and the reader's DataLossError on every kind
// of damage.
#include "lib/tf/io/tfrecord.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <unistd.h>

using namespace tfs::lib::tfrecord;

namespace {

std::string bytesOf(std::initializer_list<int> v) {
  std::string s;
  for (int b : v) s.push_back(char(b));
  return s;
}

// "DataLossError: <message>" for the failure of reading every record.
std::string failure(std::string bytes) {
  try {
    parseRecords(std::move(bytes));
  } catch (const RecordIoError &e) {
    return e.tfClass + ": " + e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("crc32c matches the published check values") {
  // The CRC catalogue's check value for "123456789" and RFC 3720 B.4's
  // 32-byte vectors.
  CHECK(crc32c("123456789") == 0xe3069283u);
  CHECK(crc32c(std::string(32, '\0')) == 0x8a9136aau);
  CHECK(crc32c(std::string(32, '\xff')) == 0x62a8ab43u);
  std::string ascending, descending;
  for (int i = 0; i < 32; ++i) ascending.push_back(char(i)), descending.push_back(char(31 - i));
  CHECK(crc32c(ascending) == 0x46dd794eu);
  CHECK(crc32c(descending) == 0x113fdb5cu);
  // Extending a CRC equals the CRC of the concatenation.
  CHECK(crc32c("56789", crc32c("1234")) == 0xe3069283u);
}

TEST_CASE("TF's crc mask: rotate right 15, add 0xa282ead8") {
  // Hand computed: rotr15(0) + delta; rotr15(0xe3069283) = 0x2507c60d.
  CHECK(maskCrc(0) == 0xa282ead8u);
  CHECK(maskCrc(0xe3069283u) == 0xc78ab0e5u);
  for (uint32_t c : {0u, 1u, 0xe3069283u, 0xffffffffu, 0x8a9136aau}) CHECK(unmaskCrc(maskCrc(c)) == c);
}

TEST_CASE("a framed record: length, its crc, data, data crc") {
  std::string r = frameRecord("abc");
  REQUIRE(r.size() == 8 + 4 + 3 + 4);
  CHECK(r.substr(0, 8) == bytesOf({3, 0, 0, 0, 0, 0, 0, 0}));
  uint32_t headerCrc = uint8_t(r[8]) | uint8_t(r[9]) << 8 | uint8_t(r[10]) << 16 | uint32_t(uint8_t(r[11])) << 24;
  CHECK(headerCrc == maskCrc(crc32c(r.substr(0, 8))));
  CHECK(r.substr(12, 3) == "abc");
  uint32_t dataCrc = uint8_t(r[15]) | uint8_t(r[16]) << 8 | uint8_t(r[17]) << 16 | uint32_t(uint8_t(r[18])) << 24;
  CHECK(dataCrc == maskCrc(crc32c("abc")));
}

TEST_CASE("records round trip through a file") {
  char name[] = "/tmp/tfs_tfrecord_XXXXXX";
  int fd = mkstemp(name);
  REQUIRE(fd >= 0);
  close(fd);
  std::string path = name;
  {
    RecordWriter w(path);
    w.write("first");
    w.write("");
    w.write(std::string(100000, 'x'));
    w.close();
    CHECK(w.closed());
  }
  RecordReader r(path);
  CHECK(*r.next() == "first");
  CHECK(*r.next() == "");
  CHECK(r.next()->size() == 100000);
  CHECK(!r.next().has_value());
  std::remove(path.c_str());
}

TEST_CASE("damaged records raise DataLossError with TF's message") {
  std::string two = frameRecord("hello") + frameRecord("world");  // 21 bytes each
  CHECK(parseRecords(two) == std::vector<std::string>{"hello", "world"});
  CHECK(parseRecords("").empty());
  std::string badHeader = two;
  badHeader[21 + 9] ^= 1;  // the second record's length crc
  CHECK(failure(badHeader) == "DataLossError: corrupted record at 21");
  std::string badData = two;
  badData[21 + 12] ^= 0x20;  // 'w' -> 'W'
  CHECK(failure(badData) == "DataLossError: corrupted record at 33");
  CHECK(failure(two.substr(0, 21 + 5)) == "DataLossError: truncated record at 21");
  CHECK(failure(two.substr(0, 21 + 14)) == "DataLossError: truncated record at 33");
  // A corrupt length that is still consistent with its crc: far past the end.
  std::string huge = frameRecord("x");
  huge[7] = char(0x7f);
  std::string hugeLength = huge.substr(0, 8);
  uint32_t crc = maskCrc(crc32c(hugeLength));
  for (int i = 0; i < 4; ++i) huge[8 + i] = char((crc >> (8 * i)) & 0xff);
  CHECK(failure(huge) == "DataLossError: truncated record at 12");
  CHECK(failure("garbage") == "DataLossError: truncated record at 0");
}

TEST_CASE("a missing file is TF's NotFoundError") {
  try {
    RecordReader r("/nonexistent/dir/x.tfrecord");
    FAIL("no error");
  } catch (const RecordIoError &e) {
    CHECK(e.tfClass == "NotFoundError");
    CHECK(std::string(e.what()) == "/nonexistent/dir/x.tfrecord; No such file or directory");
  }
}
