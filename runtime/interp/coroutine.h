// Coroutine: a body that runs on its own stack and can suspend itself in
// the middle of any C++ call chain, then be resumed where it stopped. The
// interpreter is a recursive tree walker, so a generator's frame is its C++
// call stack; running the generator body on a separate stack is what lets
// `yield` stop inside loops, `try`, `with` and nested expressions.
//
//   Coroutine co([&](Coroutine &self) { produce(1); self.suspend(); produce(2); });
//   co.resume();   // runs to the suspend(): returns true (suspended)
//   co.resume();   // runs to the end: returns false (finished)
//
// Stacks come from a per-thread pool (mmap'd stack mappings, 16 MiB
// virtual each, committed only where touched and reused hot: a first page
// touch costs ~10 us here). An exception escaping the body is rethrown
// from resume(). The C++ runtime's per-thread exception-handling state
// (__cxa_eh_globals: the caught-exception chain) is switched with the stack,
// so a body may suspend inside a catch block. AddressSanitizer is told
// about every switch.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <memory>

namespace tfs::runtime {

class Coroutine {
public:
  using Body = std::function<void(Coroutine &)>;
  explicit Coroutine(Body body);
  // A coroutine destroyed while suspended cannot unwind its stack safely
  // (no code may run there now): its stack is leaked, never reused.
  ~Coroutine();
  Coroutine(const Coroutine &) = delete;
  Coroutine &operator=(const Coroutine &) = delete;

  // Runs the body until it suspends (true) or returns (false). Rethrows an
  // exception escaping the body. Must not be called on a finished or
  // running coroutine.
  bool resume();
  // From inside the body: hands control back to resume()'s caller.
  void suspend();

  bool started() const { return started_; }
  bool finished() const { return finished_; }
  bool running() const { return running_; }

  // Coroutine stacks alive now (started, not finished) and the most allowed
  // at once: each holds a mapping, and the kernel limits their number.
  static size_t liveStacks();
  static constexpr size_t kMaxLiveStacks = 30000;

  struct Impl;  // public so the stack allocator can name it

private:
  std::unique_ptr<Impl> impl_;
  bool started_ = false, finished_ = false, running_ = false;
};

// True when the current stack (the thread's, or a coroutine's) has less
// than `margin` bytes left. Lets the interpreter raise RecursionError
// before a deep recursion overflows a coroutine stack.
bool stackNearlyExhausted(size_t margin = 256 * 1024);

}  // namespace tfs::runtime
