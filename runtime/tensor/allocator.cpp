// Caching allocator: see allocator.h.
#include "runtime/tensor/allocator.h"

#include "ir/op_table.h"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace tfs::runtime {

namespace {
constexpr size_t kMinClass = 6;    // 64 B
constexpr size_t kMaxClass = 40;   // 1 TiB
constexpr size_t kHuge = size_t(2) << 20;
constexpr size_t kMaxCachedPerClass = 64;

struct Cache {
  std::mutex mu;
  std::vector<void *> free[kMaxClass + 1];
  int64_t inUse = 0, limit = 0;
  int64_t cached = 0;  // bytes held in `free`, not in use
};

// Cached (freed but kept) bytes stay below this, so the process's footprint
// is bounded by limit + maxCached.
int64_t maxCached(const Cache &c) {
  constexpr int64_t kCap = int64_t(1) << 30;
  return c.limit > 0 ? std::min(kCap, c.limit / 4) : kCap;
}

// Returns every cached buffer to the system (called with mu held).
void dropCache(Cache &c) {
  for (size_t k = 0; k <= kMaxClass; ++k) {
    for (void *p : c.free[k]) std::free(p);
    c.free[k].clear();
  }
  c.cached = 0;
}
Cache &cache() {
  static Cache *c = new Cache();  // never destroyed: buffers may outlive statics
  return *c;
}

size_t classOf(size_t bytes) {
  size_t c = kMinClass;
  while ((size_t(1) << c) < bytes) ++c;
  return c;
}
}  // namespace

void setMemoryLimit(int64_t bytes) { cache().limit = bytes; }
int64_t memoryLimit() { return cache().limit; }

int64_t defaultMemoryLimit() {
  // Half of physical memory: a runaway allocation fails with TF's
  // ResourceExhaustedError long before the kernel's OOM killer picks a victim.
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0) return int64_t(8) << 30;
  return int64_t(pages) * pageSize / 2;
}
int64_t bytesInUse() { return cache().inUse; }

void *allocateBuffer(size_t bytes) {
  size_t c = classOf(bytes == 0 ? 1 : bytes);
  if (c > kMaxClass)
    throw ir::OpError{"ResourceExhaustedError",
                      fmt::format("OOM when allocating tensor of {} bytes", bytes)};
  size_t size = size_t(1) << c;
  Cache &ca = cache();
  {
    std::lock_guard<std::mutex> lock(ca.mu);
    if (ca.limit > 0 && ca.inUse + int64_t(size) > ca.limit)
      throw ir::OpError{"ResourceExhaustedError",
                        fmt::format("OOM when allocating tensor of {} bytes: the memory limit "
                                    "(--max-memory={}) would be exceeded",
                                    bytes, ca.limit)};
    ca.inUse += int64_t(size);
    if (!ca.free[c].empty()) {
      void *p = ca.free[c].back();
      ca.free[c].pop_back();
      ca.cached -= int64_t(size);
      return p;
    }
    // A miss: cached buffers of other sizes go back first when keeping them
    // would push the footprint past the budget.
    if (ca.limit > 0 && ca.inUse + ca.cached > ca.limit) dropCache(ca);
  }
  void *p = nullptr;
  size_t align = size >= kHuge ? kHuge : 64;
  if (posix_memalign(&p, align, size) != 0 || !p) {
    std::lock_guard<std::mutex> lock(ca.mu);
    ca.inUse -= int64_t(size);
    throw ir::OpError{"ResourceExhaustedError",
                      fmt::format("OOM when allocating tensor of {} bytes", bytes)};
  }
  if (size >= kHuge)
    madvise(p, size, MADV_HUGEPAGE);
  return p;
}

void releaseBuffer(void *ptr, size_t bytes) {
  if (!ptr) return;
  size_t c = classOf(bytes == 0 ? 1 : bytes);
  Cache &ca = cache();
  std::lock_guard<std::mutex> lock(ca.mu);
  int64_t size = int64_t(size_t(1) << c);
  ca.inUse -= size;
  if (ca.free[c].size() < kMaxCachedPerClass && ca.cached + size <= maxCached(ca)) {
    ca.free[c].push_back(ptr);
    ca.cached += size;
    return;
  }
  std::free(ptr);
}

}  // namespace tfs::runtime
