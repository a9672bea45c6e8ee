// Shared by the libFuzzer targets in tests/fuzz (built with TFS_FUZZ=ON,
// run by scripts/fuzz.sh).
//
// * BigStack: the parser and the interpreter recurse as deep as the input
//   nests (up to their own limits: parse depth 6000, Python's recursion
//   limit), which the 8 MiB main stack cannot hold under ASan. Like the
//   `tfs` driver (tools/tfs.cpp), each input runs on a thread with a 1 GiB
//   stack (reserved lazily); one long-lived thread, so that inputs do not pay
//   for thread creation.
// * The per-input time limit: libFuzzer's -timeout is a SIGALRM whose handler
//   acts only on the fuzzing thread, which here just waits for the big-stack
//   thread, so it never fires. runJob therefore waits at most -timeout
//   seconds (read from the command line by quietOutput; libFuzzer's default
//   1200 s otherwise) and then reports the input as a finding: abort() on the
//   fuzzing thread is libFuzzer's deadly signal, which saves the input as a
//   crash-* artifact.
// * quietOutput: scripts print (and fail) to stdout/stderr; thousands of
//   runs a second of that would drown libFuzzer's own log. libFuzzer's
//   -close_fd_mask=3 discards fds 1 and 2 for the target while keeping its
//   own output and the sanitizer reports; it is added unless the command
//   line sets it (pass -close_fd_mask=0 to see a reproducer's output).
//   stdin is /dev/null so that input() fails with EOFError instead of
//   waiting.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <mutex>
#include <pthread.h>
#include <string>
#include <unistd.h>

namespace tfs::fuzz {

// Seconds one input may run (see the header comment).
inline long &timeoutSeconds() {
  static long seconds = 1200;
  return seconds;
}

[[noreturn]] inline void fail(const std::string &message);

class BigStack {
public:
  // Runs `job` on the big-stack thread and waits for it. An exception that
  // escapes `job` terminates the process: a finding, as it would be in tfs.
  static void run(const std::function<void()> &job) { instance().runJob(job); }

private:
  static BigStack &instance() {
    static BigStack *s = new BigStack();  // never destroyed: the thread outlives main
    return *s;
  }
  BigStack() {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, size_t(1) << 30);
    pthread_t t;
    if (pthread_create(&t, &attr, &BigStack::loop, this) == 0) {
      pthread_detach(t);
      threaded_ = true;
    }
    pthread_attr_destroy(&attr);
  }
  void runJob(const std::function<void()> &job) {
    if (!threaded_) {
      job();
      return;
    }
    std::unique_lock<std::mutex> lock(mu_);
    job_ = &job;
    cv_.notify_all();
    if (!cv_.wait_for(lock, std::chrono::seconds(timeoutSeconds()),
                      [&] { return job_ == nullptr; }))
      fail("timeout: the input ran longer than -timeout=" +
           std::to_string(timeoutSeconds()) + " s");
  }
  static void *loop(void *self) {
    auto *b = static_cast<BigStack *>(self);
    std::unique_lock<std::mutex> lock(b->mu_);
    for (;;) {
      b->cv_.wait(lock, [&] { return b->job_ != nullptr; });
      // Unlocked while the job runs: the waiting thread must be able to
      // wake at its time limit.
      const std::function<void()> *job = b->job_;
      lock.unlock();
      (*job)();
      lock.lock();
      b->job_ = nullptr;
      b->cv_.notify_all();
    }
    return nullptr;
  }
  std::mutex mu_;
  std::condition_variable cv_;
  const std::function<void()> *job_ = nullptr;
  bool threaded_ = false;
};

// Where a target reports a broken invariant before aborting: stderr as it
// was at start-up, which -close_fd_mask leaves open.
inline int &reportFd() {
  static int fd = 2;
  return fd;
}
[[noreturn]] inline void fail(const std::string &message) {
  std::string m = "tfs fuzz target: " + message + "\n";
  ssize_t n = ::write(reportFd(), m.data(), m.size());
  (void)n;
  std::abort();
}

// Call from LLVMFuzzerInitialize (see the header comment).
inline void quietOutput(int *argc, char ***argv) {
  int saved = ::dup(2);
  if (saved >= 0) reportFd() = saved;
  int fd = ::open("/dev/null", O_RDONLY);
  if (fd >= 0) {
    ::dup2(fd, 0);
    ::close(fd);
  }
  bool hasMask = false;
  for (int i = 1; i < *argc; ++i) {
    if (std::strncmp((*argv)[i], "-timeout=", 9) == 0) {
      long t = std::strtol((*argv)[i] + 9, nullptr, 10);
      if (t > 0) timeoutSeconds() = t;
    }
    if (std::strncmp((*argv)[i], "-close_fd_mask=", 15) == 0) hasMask = true;
  }
  if (hasMask) return;
  // libFuzzer reads the flags after LLVMFuzzerInitialize; the new argv must
  // outlive the process.
  char **args = new char *[size_t(*argc) + 2];
  args[0] = (*argv)[0];
  static char flag[] = "-close_fd_mask=3";
  args[1] = flag;
  for (int i = 1; i < *argc; ++i) args[i + 1] = (*argv)[i];
  args[*argc + 1] = nullptr;
  ++*argc;
  *argv = args;
}

}  // namespace tfs::fuzz
