// The on-disk cache of compiled code (object_cache.h, Note [On-disk
// compiled-code cache]).
#include "codegen/object_cache.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/SHA1.h>
#include <llvm/Support/xxhash.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <elf.h>
#include <filesystem>
#include <fstream>
#include <link.h>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace tfs::codegen {

namespace fs = std::filesystem;

namespace {

// Entry layout: magic, key size, object size, checksum (xxHash64 of the key
// then the object), key bytes, object bytes. Sizes are little-endian u64.
constexpr char kMagic[8] = {'T', 'F', 'S', 'O', 'B', 'J', '1', '\n'};
constexpr size_t kHeaderBytes = sizeof kMagic + 3 * sizeof(uint64_t);
constexpr uintmax_t kMaxCacheBytes = uintmax_t(256) << 20;

std::string hexSha1(std::string_view text) {
  llvm::SHA1 sha;
  sha.update(llvm::StringRef(text.data(), text.size()));
  return llvm::toHex(sha.final(), /*LowerCase=*/true);
}

uint64_t checksum(std::string_view key, std::string_view object) {
  std::string both;
  both.reserve(key.size() + object.size());
  both.append(key).append(object);
  return llvm::xxHash64(llvm::StringRef(both));
}

void putU64(std::string &out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out += char((v >> (8 * i)) & 0xff);
}
uint64_t getU64(const char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | uint8_t(p[i]);
  return v;
}

int findBuildId(dl_phdr_info *info, size_t, void *data) {
  auto *out = static_cast<std::string *>(data);
  // The first object reported is the executable itself.
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const char *p = reinterpret_cast<const char *>(info->dlpi_addr + ph.p_vaddr);
    const char *end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      const auto *note = reinterpret_cast<const ElfW(Nhdr) *>(p);
      const char *name = p + sizeof(ElfW(Nhdr));
      const char *desc = name + ((note->n_namesz + 3) & ~3u);
      if (desc + note->n_descsz > end) break;
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        *out = llvm::toHex(llvm::StringRef(desc, note->n_descsz), /*LowerCase=*/true);
        return 1;
      }
      p = desc + ((note->n_descsz + 3) & ~3u);
    }
  }
  return 1;  // only the executable
}

}  // namespace

const std::string &executableBuildId() {
  static const std::string id = [] {
    std::string s;
    dl_iterate_phdr(findBuildId, &s);
    return s;
  }();
  return id;
}

std::optional<std::string> defaultObjectCacheDirectory() {
  auto env = [](const char *name) -> std::string {
    const char *v = std::getenv(name);
    return v ? std::string(v) : std::string();
  };
  std::string off = env("TFS_NO_COMPILE_CACHE");
  if (!off.empty() && off != "0") return std::nullopt;
  if (std::string dir = env("TFS_COMPILE_CACHE_DIR"); !dir.empty()) return dir;
  if (std::string xdg = env("XDG_CACHE_HOME"); !xdg.empty()) return xdg + "/tfs";
  if (std::string home = env("HOME"); !home.empty()) return home + "/.cache/tfs";
  return std::nullopt;
}

ObjectCache::ObjectCache(std::optional<std::string> root, std::string hostKey)
    : root_(std::move(root)), hostKey_(std::move(hostKey)) {
  if (root_ && !executableBuildId().empty())
    dir_ = *root_ + "/" + hexSha1(hostKey_).substr(0, 16);
}

std::string ObjectCache::fullKey(std::string_view key) const {
  std::string full = hostKey_;
  full += '\n';
  full.append(key);
  return full;
}

std::string ObjectCache::entryPath(std::string_view key) const {
  return dir_ ? *dir_ + "/" + hexSha1(fullKey(key)).substr(0, 32) + ".o" : std::string();
}

std::optional<std::string> ObjectCache::load(std::string_view key, bool &rejected) const {
  rejected = false;
  if (!dir_) return std::nullopt;
  std::ifstream in(entryPath(key), std::ios::binary);
  if (!in) return std::nullopt;
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string full = fullKey(key);
  rejected = true;
  if (bytes.size() < kHeaderBytes || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) return std::nullopt;
  uint64_t keySize = getU64(bytes.data() + 8), objectSize = getU64(bytes.data() + 16);
  uint64_t sum = getU64(bytes.data() + 24);
  if (keySize != full.size() || objectSize > bytes.size() ||
      bytes.size() - kHeaderBytes != keySize + objectSize)
    return std::nullopt;
  std::string_view storedKey(bytes.data() + kHeaderBytes, keySize);
  std::string_view object(bytes.data() + kHeaderBytes + keySize, objectSize);
  if (storedKey != full || checksum(storedKey, object) != sum) return std::nullopt;
  rejected = false;
  return std::string(object);
}

bool ObjectCache::store(std::string_view key, std::string_view object) {
  if (!dir_) return false;
  std::error_code ec;
  fs::create_directories(*dir_, ec);
  if (ec) return false;
  trimOnce();
  std::string full = fullKey(key);
  std::string bytes(kMagic, sizeof kMagic);
  putU64(bytes, full.size());
  putU64(bytes, object.size());
  putU64(bytes, checksum(full, object));
  bytes += full;
  bytes.append(object);
  static std::atomic<uint64_t> counter{0};
  std::string path = entryPath(key);
  std::string tmp = path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(counter++);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    out.close();
    if (!out) {
      fs::remove(tmp, ec);
      return false;
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) fs::remove(tmp, ec);
  return !ec;
}

// Before the first store of a process, at most once an hour across
// processes (the walk over every build's entries costs tens of
// milliseconds on a large cache, which a script's first compile would pay):
// when the whole cache holds more than kMaxCacheBytes, other builds'
// subdirectories go, least recently written first (this build's entries
// are the ones in use).
void ObjectCache::trimOnce() {
  if (trimmed_) return;
  trimmed_ = true;
  std::error_code ec;
  fs::path stamp = fs::path(*root_) / "last-trim";
  auto stamped = fs::last_write_time(stamp, ec);
  if (!ec && fs::file_time_type::clock::now() - stamped < std::chrono::hours(1)) return;
  std::ofstream(stamp, std::ios::trunc).put('\n');  // creates it or moves its time forward
  ec.clear();
  struct Build {
    fs::path dir;
    fs::file_time_type written;
    uintmax_t bytes = 0;
  };
  std::vector<Build> others;
  uintmax_t total = 0;
  for (auto it = fs::directory_iterator(*root_, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    if (!it->is_directory(ec)) continue;
    std::error_code fe;
    Build b{it->path(), fs::last_write_time(it->path(), fe), 0};
    for (auto f = fs::directory_iterator(b.dir, fe); !fe && f != fs::directory_iterator(); f.increment(fe))
      if (uintmax_t size = f->file_size(fe); !fe) b.bytes += size;
    total += b.bytes;
    if (b.dir != fs::path(*dir_)) others.push_back(std::move(b));
  }
  std::sort(others.begin(), others.end(), [](const Build &a, const Build &b) { return a.written < b.written; });
  for (const Build &b : others) {
    if (total <= kMaxCacheBytes) break;
    std::error_code re;
    fs::remove_all(b.dir, re);
    total -= std::min(total, b.bytes);
  }
}

}  // namespace tfs::codegen
