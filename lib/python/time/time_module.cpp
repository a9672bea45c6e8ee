// The `time` and `timeit` modules: clocks, sleep, and timing a callable --
// what scripts use to compare a tf.function with eager code.
//
// time: time(), time_ns(), perf_counter(), perf_counter_ns(), monotonic(),
//       monotonic_ns(), process_time(), sleep(seconds).
//       localtime(), gmtime(), mktime(), strftime(), asctime(), ctime(),
//       timezone/altzone/daylight/tzname (C library calls, C locale, as
//       CPython's), struct_time (_time_types.tfs).
// timeit: timeit(stmt, number=1000000), repeat(stmt, repeat=5, number=1000000),
//       default_timer. The statement must be a callable: tfs has no exec(),
//       so a statement string is an error that says so.
#include "lib/python/python_modules.h"
#include "runtime/interp/interpreter.h"
#include "runtime/interp/signature.h"

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

// The seconds argument of localtime()/gmtime()/ctime(): now when None,
// floored like CPython's.
time_t secondsArg(Interpreter &in, const Value &v) {
  if (v.isNone()) return ::time(nullptr);
  if (!v.isInt() && !v.isFloat() && !v.isBool())
    in.raise("TypeError", fmt::format("'{}' object cannot be interpreted as an integer", in.typeName(v)));
  double s = in.toFloat(v);
  if (std::isnan(s)) in.raise("ValueError", "Invalid value NaN (not a number)");
  if (!(s > -1e17 && s < 1e17)) in.raise("OverflowError", "timestamp out of range for platform time_t");
  return time_t(std::floor(s));
}

Value structTime(Interpreter &in, const std::tm &t) {
  Value cls = in.getAttr(in.importModule("_time_types"), "struct_time");
  std::vector<Value> f = {Value::integer(t.tm_year + 1900), Value::integer(t.tm_mon + 1), Value::integer(t.tm_mday),
                          Value::integer(t.tm_hour),        Value::integer(t.tm_min),     Value::integer(t.tm_sec),
                          Value::integer((t.tm_wday + 6) % 7), Value::integer(t.tm_yday + 1), Value::integer(t.tm_isdst)};
  Value args[3] = {in.tuple(std::move(f)), in.str(t.tm_zone ? t.tm_zone : ""), Value::integer(t.tm_gmtoff)};
  return in.call(cls, Args(args, 3));
}

// A struct_time or 9-tuple as a C struct tm (the checks CPython makes).
std::tm tmFromTuple(Interpreter &in, const Value &v, const char *fn) {
  auto f = in.toList(v);
  if (f.size() != 9)
    in.raise("TypeError", fmt::format("{}(): illegal time tuple argument", fn));
  std::tm t{};
  t.tm_year = int(in.toIndex(f[0]) - 1900);
  t.tm_mon = int(in.toIndex(f[1]) - 1);
  t.tm_mday = int(in.toIndex(f[2]));
  t.tm_hour = int(in.toIndex(f[3]));
  t.tm_min = int(in.toIndex(f[4]));
  t.tm_sec = int(in.toIndex(f[5]));
  t.tm_wday = int((in.toIndex(f[6]) + 1) % 7);
  t.tm_yday = int(in.toIndex(f[7]) - 1);
  t.tm_isdst = int(in.toIndex(f[8]));
  // CPython accepts 0 for month, day and yday (as 1).
  if (t.tm_mon == -1) t.tm_mon = 0;
  else if (t.tm_mon < 0 || t.tm_mon > 11) in.raise("ValueError", "month out of range");
  if (t.tm_mday == 0) t.tm_mday = 1;
  else if (t.tm_mday < 0 || t.tm_mday > 31) in.raise("ValueError", "day of month out of range");
  if (t.tm_hour < 0 || t.tm_hour > 23) in.raise("ValueError", "hour out of range");
  if (t.tm_min < 0 || t.tm_min > 59) in.raise("ValueError", "minute out of range");
  if (t.tm_sec < 0 || t.tm_sec > 61) in.raise("ValueError", "seconds out of range");
  if (t.tm_wday < 0) in.raise("ValueError", "day of week out of range");
  if (t.tm_yday == -1) t.tm_yday = 0;
  else if (t.tm_yday < 0 || t.tm_yday > 365) in.raise("ValueError", "day of year out of range");
  return t;
}

std::tm nowOr(Interpreter &in, const Value &t, const char *fn) {
  if (!t.isNone()) return tmFromTuple(in, t, fn);
  time_t now = ::time(nullptr);
  std::tm out{};
  ::localtime_r(&now, &out);
  return out;
}

std::string asctimeText(const std::tm &t) {
  static const char *const days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  return fmt::format("{} {}{:3d} {:02d}:{:02d}:{:02d} {}", days[(t.tm_wday % 7 + 7) % 7], months[(t.tm_mon % 12 + 12) % 12],
                     t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec, t.tm_year + 1900);
}

void addCalendarFunctions(Interpreter &in, ScopeVars &vars) {
  auto def = [&](const char *sig, SignedFn fn) {
    Value f = nativeWithSignature(in, sig, std::move(fn));
    vars[f.as<NativeFunction>()->name] = f;
  };
  def("localtime(seconds=None, /)", [](Interpreter &in, const Bound &a) {
    time_t s = secondsArg(in, a[0]);
    std::tm t{};
    if (!::localtime_r(&s, &t)) in.raise("OverflowError", "timestamp out of range for platform time_t");
    return structTime(in, t);
  });
  def("gmtime(seconds=None, /)", [](Interpreter &in, const Bound &a) {
    time_t s = secondsArg(in, a[0]);
    std::tm t{};
    if (!::gmtime_r(&s, &t)) in.raise("OverflowError", "timestamp out of range for platform time_t");
    return structTime(in, t);
  });
  def("mktime(t, /)", [](Interpreter &in, const Bound &a) {
    std::tm t = tmFromTuple(in, a[0], "mktime");
    t.tm_wday = -1;
    time_t r = ::mktime(&t);
    if (r == time_t(-1) && t.tm_wday == -1) in.raise("OverflowError", "mktime argument out of range");
    return Value::real(double(r));
  });
  def("strftime(format, t=None, /)", [](Interpreter &in, const Bound &a) {
    auto *f = a[0].as<StrObject>();
    if (!f) in.raise("TypeError", fmt::format("strftime() argument 1 must be str, not {}", in.typeName(a[0])));
    if (f->s.find('\0') != std::string::npos) in.raise("ValueError", "embedded null character");
    std::tm t = nowOr(in, a[1], "strftime");
    if (f->s.empty()) return in.str("");
    // strftime returns 0 both for "too small" and for an empty result:
    // grow the buffer a few times, then accept empty.
    for (size_t cap = 256; cap <= (1u << 20); cap *= 4) {
      std::string buf(cap, '\0');
      size_t n = std::strftime(buf.data(), cap, f->s.c_str(), &t);
      if (n > 0) return in.str(buf.substr(0, n));
    }
    return in.str("");
  });
  def("asctime(t=None, /)", [](Interpreter &in, const Bound &a) { return in.str(asctimeText(nowOr(in, a[0], "asctime"))); });
  def("ctime(seconds=None, /)", [](Interpreter &in, const Bound &a) {
    time_t s = secondsArg(in, a[0]);
    std::tm t{};
    ::localtime_r(&s, &t);
    return in.str(asctimeText(t));
  });
  ::tzset();
  vars["timezone"] = Value::integer(::timezone);
  vars["altzone"] = Value::integer(::timezone - 3600 * (::daylight ? 1 : 0));
  vars["daylight"] = Value::integer(::daylight);
  vars["tzname"] = in.tuple({in.str(::tzname[0]), in.str(::tzname[1])});
  vars["struct_time"] = in.getAttr(in.importModule("_time_types"), "struct_time");
  vars["strptime"] = in.getAttr(in.importModule("_time_types"), "strptime");
}

Value makeTimeModule(Interpreter &in) {
  auto m = make<ModuleObject>("time");
  auto &vars = m->scope->vars;
  addCalendarFunctions(in, vars);
  auto clock = [&](const char *name, clockid_t id, bool ns) {
    std::string qualified = std::string("time.") + name;
    vars[name] = in.native(name, [id, ns, qualified](Interpreter &in, Args a, const Kwargs &kw) {
      if (!kw.empty()) in.raise("TypeError", qualified + "() takes no keyword arguments");
      if (!a.empty()) in.raise("TypeError", fmt::format("{}() takes no arguments ({} given)", qualified, a.size()));
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
