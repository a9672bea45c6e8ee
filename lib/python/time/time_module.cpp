// The `time` and `timeit` modules: clocks, sleep, and timing a callable --
// what scripts use to compare a tf.function with eager code.
//
// time: time(), time_ns(), perf_counter(), perf_counter_ns(), monotonic(),
//       monotonic_ns(), process_time(), sleep(seconds).
// timeit: timeit(stmt, number=1000000), repeat(stmt, repeat=5, number=1000000),
//       default_timer. The statement must be a callable: tfs has no exec(),
//       so a statement string is an error that says so.
#include "lib/python/python_modules.h"
#include "runtime/interp/interpreter.h"

#include <chrono>
#include <cmath>
#include <ctime>
#include <fmt/format.h>
#include <thread>

namespace tfs::runtime {

namespace {

double seconds(clockid_t clock) {
  timespec ts{};
  ::clock_gettime(clock, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}
int64_t nanoseconds(clockid_t clock) {
  timespec ts{};
  ::clock_gettime(clock, &ts);
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

void sleepFor(Interpreter &in, const Value &arg) {
  double s = in.toFloat(arg);
  if (std::isnan(s)) in.raise("ValueError", "Invalid value NaN (not a number)");
  if (s < 0) in.raise("ValueError", "sleep length must be non-negative");
  if (in.options().skipSleep) return;
  // In slices, so that Ctrl-C stops a long sleep promptly. (Capped at ~3
  // years so that the conversion to the clock's integer ticks is defined.)
  using Clock = std::chrono::steady_clock;
  auto length = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(std::min(s, 1e8)));
  const Clock::time_point end = Clock::now() + length;
  for (;;) {
    in.pollInterrupt();
    Clock::time_point now = Clock::now();
    if (now >= end) break;
    Clock::duration slice = std::chrono::milliseconds(20);
    std::this_thread::sleep_for(std::min(slice, Clock::duration(end - now)));
  }
  in.pollInterrupt();
}

Value makeTimeModule(Interpreter &in) {
  auto m = make<ModuleObject>("time");
  auto &vars = m->scope->vars;
  auto clock = [&](const char *name, clockid_t id, bool ns) {
    vars[name] = in.native(name, [id, ns](Interpreter &, Args, const Kwargs &) {
      return ns ? Value::integer(nanoseconds(id)) : Value::real(seconds(id));
    });
  };
  clock("time", CLOCK_REALTIME, false);
  clock("time_ns", CLOCK_REALTIME, true);
  clock("perf_counter", CLOCK_MONOTONIC, false);
  clock("perf_counter_ns", CLOCK_MONOTONIC, true);
  clock("monotonic", CLOCK_MONOTONIC, false);
  clock("monotonic_ns", CLOCK_MONOTONIC, true);
  clock("process_time", CLOCK_PROCESS_CPUTIME_ID, false);
  vars["sleep"] = in.native("sleep", [](Interpreter &in, Args a, const Kwargs &kw) {
    auto args = in.bindArgs("sleep", a, kw, {"secs"}, {std::nullopt});
    sleepFor(in, args[0]);
    return Value();
  });
  return Value(m);
}

// Runs `stmt` `number` times and returns the seconds it took.
double timeCalls(Interpreter &in, const Value &stmt, int64_t number) {
  if (stmt.as<StrObject>())
    in.raise("NotImplementedError",
             "timeit with a statement string is not supported by tfs (it has no exec()); pass a callable, "
             "e.g. timeit.timeit(lambda: f(x), number=10)");
  if (number < 0) in.raise("ValueError", "number must be non-negative");
  double t0 = seconds(CLOCK_MONOTONIC);
  for (int64_t i = 0; i < number; ++i) {
    in.step();  // each call counts for --max-steps and notices Ctrl-C
    in.call(stmt, {});
  }
  return seconds(CLOCK_MONOTONIC) - t0;
}

Value makeTimeitModule(Interpreter &in) {
  auto m = make<ModuleObject>("timeit");
  auto &vars = m->scope->vars;
  vars["default_timer"] = in.getAttr(in.importModule("time"), "perf_counter");
  vars["timeit"] = in.native("timeit", [](Interpreter &in, Args a, const Kwargs &kw) {
    auto args = in.bindArgs("timeit", a, kw, {"stmt", "setup", "timer", "number", "globals"},
                            {in.str("pass"), in.str("pass"), Value(), Value::integer(1000000), Value()});
    return Value::real(timeCalls(in, args[0], in.toInt(args[3])));
  });
  vars["repeat"] = in.native("repeat", [](Interpreter &in, Args a, const Kwargs &kw) {
    auto args = in.bindArgs("repeat", a, kw, {"stmt", "setup", "timer", "repeat", "number", "globals"},
                            {in.str("pass"), in.str("pass"), Value(), Value::integer(5), Value::integer(1000000), Value()});
    std::vector<Value> times;
    for (int64_t r = 0, n = in.toInt(args[3]); r < n; ++r)
      times.push_back(Value::real(timeCalls(in, args[0], in.toInt(args[4]))));
    return in.list(std::move(times));
  });
  return Value(m);
}

}  // namespace

void registerTimeModules() {
  Interpreter::registerNativeModule("time", makeTimeModule);
  Interpreter::registerNativeModule("timeit", makeTimeitModule);
}

}  // namespace tfs::runtime
