// The caching allocator behind every tensor buffer.
//
// Why: a first touch of a 4 KiB page costs ~10 µs on these machines, so
// freshly mmapped memory is slow; buffers are recycled through per-size-class
// free lists instead of going back to the OS. Size classes are powers of two
// from 64 B; buffers of 2 MiB and more are 2 MiB aligned and advised
// MADV_HUGEPAGE (~0.3 µs per 4 KiB when faulted). All buffers are 64-byte
// aligned for vector loads.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tfs::runtime {

void *allocateBuffer(size_t bytes);
void releaseBuffer(void *ptr, size_t bytes);

// Limits and accounting (ResourceExhaustedError when exceeded).
void setMemoryLimit(int64_t bytes);  // 0: no limit
int64_t memoryLimit();
int64_t defaultMemoryLimit();        // --max-memory's default: half of physical RAM
int64_t bytesInUse();

}  // namespace tfs::runtime
