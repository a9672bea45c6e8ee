// Interpreter unit tests: Python text forms (float repr, %-formatting, the
// format-spec mini-language), the object protocol on built-in values, error
// classes and messages raised through the API.
#include "runtime/interp/interpreter.h"
#include "runtime/interp/pyformat.h"

#include <doctest/doctest.h>

using namespace tfs::runtime;

namespace {

// The class name and message of the exception `fn` raises, or "" when none.
template <class F> std::string raised(Interpreter &in, F fn) {
  try {
    fn();
  } catch (const PyException &e) {
    return in.typeName(e.exc) + ": " + in.exceptionMessage(e.exc);
  }
  return "";
}

}  // namespace

TEST_CASE("float repr is the shortest round trip") {
  Interpreter in(RunOptions{});
  CHECK(in.repr(Value::real(0.1)) == "0.1");
  CHECK(in.repr(Value::real(1e16)) == "1e+16");
  CHECK(in.repr(Value::real(1.5e-7)) == "1.5e-07");
  CHECK(in.repr(Value::real(-0.0)) == "-0.0");
  CHECK(in.repr(Value::real(3.0)) == "3.0");
  CHECK(in.repr(in.binary(BinOp::Add, Value::real(0.1), Value::real(0.2))) == "0.30000000000000004");
}

TEST_CASE("percent formatting") {
  Interpreter in(RunOptions{});
  CHECK(percentFormat(in, "%5d|%-5d|%05d", in.tuple({Value::integer(42), Value::integer(42), Value::integer(42)})) ==
        "   42|42   |00042");
  CHECK(percentFormat(in, "%.2f %e", in.tuple({Value::real(3.14159), Value::real(12345.678)})) ==
        "3.14 1.234568e+04");
  CHECK(percentFormat(in, "%s%%", in.str("x")) == "x%");
}

TEST_CASE("format spec mini-language") {
  Interpreter in(RunOptions{});
  CHECK(formatWithSpec(in, Value::integer(1234567), ",") == "1,234,567");
  CHECK(formatWithSpec(in, Value::integer(12345678), "_x") == "bc_614e");
  CHECK(formatWithSpec(in, Value::real(3.14159), "*^10.2f") == "***3.14***");
  CHECK(formatWithSpec(in, Value::real(0.25), ".1%") == "25.0%");
  CHECK(formatWithSpec(in, Value::integer(5), "#010b") == "0b00000101");
}

TEST_CASE("dict views and KeyError") {
  Interpreter in(RunOptions{});
  auto d = make<DictObject>();
  d->set(in, in.str("a"), Value::integer(1));
  Value keys = in.call(in.getAttr(Value(d), "keys"), {});
  CHECK(in.repr(keys) == "dict_keys(['a'])");
  CHECK(in.length(keys) == 1);
  d->set(in, in.str("b"), Value::integer(2));
  CHECK(in.repr(keys) == "dict_keys(['a', 'b'])");  // a live view
  CHECK(raised(in, [&] { in.getItem(Value(d), in.str("zz")); }) == "KeyError: 'zz'");
}

TEST_CASE("operator errors carry CPython's messages") {
  Interpreter in(RunOptions{});
  CHECK(raised(in, [&] { in.binary(BinOp::Add, Value::integer(1), in.str("a")); }) ==
        "TypeError: unsupported operand type(s) for +: 'int' and 'str'");
  CHECK(raised(in, [&] { in.binary(BinOp::Div, Value::integer(1), Value::integer(0)); }) ==
        "ZeroDivisionError: division by zero");
  CHECK(raised(in, [&] { in.getItem(in.list({}), Value::integer(3)); }) == "IndexError: list index out of range");
}


TEST_CASE("a scope's version changes when it gains or loses a name, not when a name is rebound") {
  ScopeVars vars;
  uint64_t v0 = vars.version();
  vars["a"] = Value::integer(1);
  uint64_t v1 = vars.version();
  CHECK(v1 != v0);
  Value *a = &vars["a"];
  vars["a"] = Value::integer(2);  // rebinding: the same value slot, same version
  CHECK(vars.version() == v1);
  CHECK(a == &vars.find("a")->second);
  CHECK(vars.insert_or_assign("a", Value::integer(3)).first->second.asInt() == 3);
  CHECK(vars.version() == v1);
  vars.try_emplace("b", Value::integer(4));
  uint64_t v2 = vars.version();
  CHECK(v2 != v1);
  CHECK(vars.erase("zzz") == 0);
  CHECK(vars.version() == v2);
  vars.erase("b");
  CHECK(vars.version() != v2);
  // Versions are unique across tables: a new table never repeats an old one's.
  ScopeVars other;
  CHECK(other.version() != vars.version());
  uint64_t before = vars.version();
  ScopeVars moved(std::move(vars));
  CHECK(vars.empty());
  CHECK(vars.version() != before);
  CHECK(moved.count("a") == 1);
}

TEST_CASE("dict storage: lookups, deletions and reinsertions through the open-addressing index") {
  Interpreter in(RunOptions{});
  auto d = make<DictObject>();
  for (int64_t i = 0; i < 1000; ++i) d->set(in, Value::integer(i * 7), Value::integer(i));
  for (int64_t i = 0; i < 1000; i += 2) CHECK(d->erase(in, Value::integer(i * 7)));
  CHECK(!d->erase(in, Value::integer(0)));
  CHECK(d->liveCount == 500);
  for (int64_t i = 0; i < 1000; ++i) {
    auto v = d->get(in, Value::integer(i * 7));
    CHECK(v.has_value() == (i % 2 == 1));
    if (v) CHECK(v->asInt() == i);
  }
  d->set(in, Value::integer(0), in.str("again"));
  auto items = d->items();
  REQUIRE(items.size() == 501);
  CHECK(items.front().first.asInt() == 7);  // insertion order: the survivors, then the new key
  CHECK(in.str(items.back().second) == "again");
  // Equal keys of different types are one key (1 == 1.0 == True), strs by value.
  d->set(in, Value::real(7.0), in.str("float"));
  CHECK(in.str(*d->get(in, Value::integer(7))) == "float");
  d->set(in, in.str("key"), Value::integer(1));
  CHECK(d->get(in, in.str(std::string("ke") + "y"))->asInt() == 1);
}

TEST_CASE("an instance's attribute table keeps insertion order; a removed name comes back last") {
  AttrTable t;
  t["b"] = Value::integer(1);
  t["a"] = Value::integer(2);
  t["bb"] = Value::integer(3);
  t["a"] = Value::integer(4);  // rebinding keeps the place
  std::vector<std::string> order;
  for (auto &[k, v] : t) order.push_back(k);
  CHECK(order == std::vector<std::string>{"b", "a", "bb"});
  CHECK(t.find("a")->second.asInt() == 4);
  CHECK(t.find("c") == t.end());
  CHECK(t.count("bb") == 1);
  CHECK(t.erase("b") == 1);
  CHECK(t.erase("b") == 0);
  t["b"] = Value::integer(5);
  order.clear();
  for (auto &[k, v] : t) order.push_back(k);
  CHECK(order == std::vector<std::string>{"a", "bb", "b"});
  CHECK(t.size() == 3);
}

TEST_CASE("the class epoch moves with every change to a class namespace and with every new class") {
  uint64_t e0 = currentClassEpoch();
  auto c = make<ClassObject>();
  uint64_t e1 = currentClassEpoch();
  CHECK(e1 != e0);
  c->setAttr("f", Value::integer(1));
  uint64_t e2 = currentClassEpoch();
  CHECK(e2 != e1);
  c->setAttr("f", Value::integer(2));  // rebinding changes what a cache saw
  CHECK(currentClassEpoch() != e2);
}
