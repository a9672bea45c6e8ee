// TensorFlow's tensor bundle (lib/tf/train/tensor_bundle.h): the bytes of
// the table TF's BundleWriter starts with, round trips through many blocks,
// and a BundleError for every kind of damage.
#include "lib/tf/train/tensor_bundle.h"

#include <doctest/doctest.h>

#include <cstring>
#include <functional>
#include <string>

using namespace tfs::lib::bundle;
using tfs::ir::DType;

namespace {

BundleTensor floats(const std::string &key, std::vector<float> v) {
  BundleTensor t;
  t.key = key;
  t.dtype = DType::Float32;
  t.dims = {int64_t(v.size())};
  t.bytes.assign(reinterpret_cast<const char *>(v.data()), v.size() * sizeof(float));
  return t;
}

std::vector<BundleEntry> entriesOf(const std::string &index) {
  int32_t shards = 0;
  auto entries = readBundleIndex(index, shards);
  CHECK(shards == 1);
  return entries;
}

std::string errorOf(const std::function<void()> &f) {
  try {
    f();
  } catch (const BundleError &e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the index starts with the header entry and ends with the table magic") {
  BundleFiles files = encodeBundle({floats("v", {1.0f, 2.0f})});
  // Entry "" (shared 0, unshared 0, value 6 bytes): BundleHeaderProto
  // num_shards 1, version { producer 1 }.
  const char header[] = {0, 0, 6, 0x08, 0x01, 0x1a, 0x02, 0x08, 0x01};
  REQUIRE(files.index.size() > sizeof header);
  CHECK(files.index.compare(0, sizeof header, std::string(header, sizeof header)) == 0);
  CHECK(isBundleIndex(files.index));
  const unsigned char magic[] = {0x57, 0xfb, 0x80, 0x8b, 0x24, 0x75, 0x47, 0xdb};
  CHECK(std::memcmp(files.index.data() + files.index.size() - 8, magic, 8) == 0);
  // The data shard is the raw float bytes.
  float back[2];
  REQUIRE(files.data.size() == sizeof back);
  std::memcpy(back, files.data.data(), sizeof back);
  CHECK(back[0] == 1.0f);
  CHECK(back[1] == 2.0f);
}

TEST_CASE("round trip: sorted entries, strings, empty tensors, several blocks") {
  std::vector<BundleTensor> in;
  // Long keys with short common prefixes: their index entries fill more
  // than one 256 KiB table block.
  for (int i = 0; i < 400; ++i) in.push_back(floats(std::to_string(1000 + i) + std::string(900, 'k'), {float(i)}));
  BundleTensor s;
  s.key = "names";
  s.dtype = DType::String;
  s.dims = {3};
  s.strings = {"a", "", std::string(300, 'z')};
  in.push_back(s);
  BundleTensor empty;
  empty.key = "empty";
  empty.dtype = DType::Int64;
  empty.dims = {0, 4};
  in.push_back(empty);
  BundleFiles files = encodeBundle(in);
  CHECK(files.index.size() > 262144);
  auto entries = entriesOf(files.index);
  REQUIRE(entries.size() == in.size());
  for (size_t i = 1; i < entries.size(); ++i) CHECK(entries[i - 1].key < entries[i].key);
  CHECK(entries[400].key == "empty");
  CHECK(entries[401].key == "names");
  BundleTensor e = readBundleTensor(entries[400], files.data);
  CHECK(e.dims == std::vector<int64_t>{0, 4});
  CHECK(e.bytes.empty());
  BundleTensor n = readBundleTensor(entries[401], files.data);
  CHECK(n.strings == s.strings);
  for (size_t i = 0; i < 400; ++i) {
    BundleTensor t = readBundleTensor(entries[i], files.data);
    float v = 0;
    REQUIRE(t.bytes.size() == sizeof v);
    std::memcpy(&v, t.bytes.data(), sizeof v);
    CHECK(v == float(i));
  }
}

TEST_CASE("damage is a BundleError") {
  BundleFiles files = encodeBundle({floats("v", {1.0f, 2.0f, 3.0f})});
  std::string flipped = files.index;
  flipped[5] ^= 0x40;
  CHECK(errorOf([&] { entriesOf(flipped); }) == "block checksum mismatch");
  CHECK(errorOf([&] { entriesOf(files.index.substr(0, files.index.size() - 1)); }) ==
        "not an sstable (bad magic number)");
  CHECK(errorOf([&] { entriesOf(files.index.substr(0, 20)); }) == "file is too short to be an sstable");
  auto entries = entriesOf(files.index);
  REQUIRE(entries.size() == 1);
  std::string data = files.data;
  data[4] ^= 1;
  CHECK(errorOf([&] { readBundleTensor(entries[0], data); }).find("Checksum does not match") != std::string::npos);
  CHECK(errorOf([&] { readBundleTensor(entries[0], files.data.substr(0, 8)); }).find("truncated") != std::string::npos);
}
