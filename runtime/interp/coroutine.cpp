// Coroutine (see coroutine.h): Boost.Context fibers (fcontext: a stack
// switch costs a few nanoseconds, no system call) on stacks from a
// per-thread pool, with the C++ exception state and AddressSanitizer's view
// of the stack switched alongside.
#include "runtime/interp/coroutine.h"

#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>

#include <cxxabi.h>
#include <new>
#include <sys/mman.h>
#include <utility>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define TFS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TFS_ASAN 1
#endif
#endif
#ifdef TFS_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

namespace tfs::runtime {

namespace ctx = boost::context;

namespace {

// The Itanium C++ ABI's per-thread exception-handling globals: the chain of
// exceptions being handled (catch blocks entered, not left) and the count of
// exceptions in flight. Both belong to the stack that entered those catch
// blocks, so each coroutine keeps its own copy while it is switched out.
struct EhGlobals {
  void *caughtExceptions = nullptr;
  unsigned int uncaughtExceptions = 0;
};
EhGlobals &ehGlobals() { return *reinterpret_cast<EhGlobals *>(abi::__cxa_get_globals()); }

constexpr size_t kStackSize = size_t(16) << 20;  // virtual; pages commit on touch
constexpr size_t kGuardSize = size_t(64) << 10;  // left unused at the bottom
constexpr size_t kKeepCommitted = size_t(256) << 10;  // hot top kept when pooled
constexpr size_t kPoolMax = 64;

// Lowest usable address of the stack the thread runs on now (null: the
// thread's own stack, which the interpreter's depth limit protects), and the
// lowest stack pointer seen there (to give back deep pages when pooled).
thread_local char *currentStackLow = nullptr;
thread_local char *currentLowWater = nullptr;

struct StackPool {
  std::vector<ctx::stack_context> free;
  size_t live = 0;

  ctx::stack_context allocate() {
    ctx::stack_context sc;
    if (!free.empty()) {
      sc = free.back();
      free.pop_back();
    } else {
      // MAP_GROWSDOWN: a stack mapping, which RLIMIT_DATA (the driver caps
      // it near the memory budget) does not count; 16 MiB of plain private
      // memory per generator would exhaust that cap after a few hundred.
      // Below it the kernel keeps its stack guard gap unmapped, and growth
      // past RLIMIT_STACK is refused: an overflow faults, it cannot write
      // over a neighbour.
      void *p = ::mmap(nullptr, kStackSize, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK | MAP_GROWSDOWN, -1, 0);
      if (p == MAP_FAILED) throw std::bad_alloc();
      sc.size = kStackSize;
      sc.sp = static_cast<char *>(p) + kStackSize;
    }
    ++live;
    return sc;
  }

  void deallocate(ctx::stack_context &sc, char *lowWater) {
    --live;
    char *top = static_cast<char *>(sc.sp), *base = top - sc.size;
    if (free.size() >= kPoolMax) {
      ::munmap(base, sc.size);
      return;
    }
    // Give back what a deep recursion committed; keep the hot top.
    if (lowWater && lowWater < top - kKeepCommitted)
      ::madvise(base + kGuardSize, size_t(top - kKeepCommitted - (base + kGuardSize)), MADV_DONTNEED);
    free.push_back(sc);
  }
};

StackPool &pool() {
  static thread_local StackPool p;
  return p;
}

#ifdef TFS_ASAN
void asanStartSwitch(void **fakeStack, const void *bottom, size_t size) {
  __sanitizer_start_switch_fiber(fakeStack, bottom, size);
}
void asanFinishSwitch(void *fakeStack, const void **oldBottom, size_t *oldSize) {
  __sanitizer_finish_switch_fiber(fakeStack, oldBottom, oldSize);
}
#else
void asanStartSwitch(void **, const void *, size_t) {}
void asanFinishSwitch(void *, const void **, size_t *) {}
#endif

}  // namespace

struct Coroutine::Impl {
  Body body;
  ctx::fiber fiber;   // the body, while it is suspended
  ctx::fiber caller;  // whoever resumed it, while it runs
  ctx::stack_context stack{};
  std::exception_ptr error;
  EhGlobals eh;       // the body's exception state while switched out
  char *lowWater = nullptr;
  // AddressSanitizer bookkeeping.
  void *callerFakeStack = nullptr, *bodyFakeStack = nullptr;
  const void *callerBottom = nullptr;
  size_t callerSize = 0;
};

// Boost.Context's StackAllocator concept, backed by the pool; records the
// stack it handed out so the coroutine knows its bounds.
struct PooledStack {
  Coroutine::Impl *impl;
  ctx::stack_context allocate() { return impl->stack = pool().allocate(); }
  void deallocate(ctx::stack_context &sc) noexcept { pool().deallocate(sc, impl->lowWater); }
};

Coroutine::Coroutine(Body body) : impl_(std::make_unique<Impl>()) { impl_->body = std::move(body); }

Coroutine::~Coroutine() {
  // Suspended (a generator that ignored GeneratorExit): unwinding would run
  // interpreter code on a stack nobody expects to resume, so the fiber (and
  // its stack) is abandoned instead. It is parked in a list that lives until
  // exit, so the leak is deliberate and visible to LeakSanitizer as
  // reachable, not reported as a lost allocation.
  if (started_ && !finished_) {
    static auto *abandoned = new std::vector<ctx::fiber>();
    abandoned->push_back(std::move(impl_->fiber));
  }
}

size_t Coroutine::liveStacks() { return pool().live; }

bool Coroutine::resume() {
  Impl &im = *impl_;
  if (!started_) {
    started_ = true;
    im.fiber = ctx::fiber(std::allocator_arg, PooledStack{&im}, [this](ctx::fiber &&caller) {
      Impl &im = *impl_;
      im.caller = std::move(caller);
      asanFinishSwitch(nullptr, &im.callerBottom, &im.callerSize);
      try {
        im.body(*this);
      } catch (const ctx::detail::forced_unwind &) {
        throw;
      } catch (...) {
        im.error = std::current_exception();
      }
      finished_ = true;
      asanStartSwitch(nullptr, im.callerBottom, im.callerSize);  // this stack ends
      return std::move(im.caller);
    });
  }
  EhGlobals &eh = ehGlobals();
  EhGlobals callerEh = eh;
  eh = im.eh;
  char *savedLow = currentStackLow, *savedWater = currentLowWater;
  char *top = static_cast<char *>(im.stack.sp);
  currentStackLow = top - im.stack.size + kGuardSize;
  currentLowWater = im.lowWater ? im.lowWater : top;
  running_ = true;
  asanStartSwitch(&im.callerFakeStack, currentStackLow, size_t(top - currentStackLow));
  im.fiber = std::move(im.fiber).resume();
  asanFinishSwitch(im.callerFakeStack, nullptr, nullptr);
  running_ = false;
  im.lowWater = currentLowWater;
  currentStackLow = savedLow;
  currentLowWater = savedWater;
  im.eh = eh;
  eh = callerEh;
  if (im.error) std::rethrow_exception(std::exchange(im.error, nullptr));
  return !finished_;
}

void Coroutine::suspend() {
  Impl &im = *impl_;
  asanStartSwitch(&im.bodyFakeStack, im.callerBottom, im.callerSize);
  im.caller = std::move(im.caller).resume();
  asanFinishSwitch(im.bodyFakeStack, &im.callerBottom, &im.callerSize);
}

bool stackNearlyExhausted(size_t margin) {
  if (!currentStackLow) return false;
  char *sp = static_cast<char *>(__builtin_frame_address(0));
  if (sp < currentLowWater) currentLowWater = sp;
  return sp < currentStackLow + margin;
}

}  // namespace tfs::runtime
