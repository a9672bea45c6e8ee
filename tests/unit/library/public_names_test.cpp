// The public-name tables (lib/**/public_names/*.names): each one is sorted
// and unique (the engine binary-searches them), names a module, and turns
// a real-but-missing name into "not supported by tfs" while a misspelt one
// stays an AttributeError.
#include "lib/library.h"
#include "lib/public_names.h"
#include "runtime/interp/interpreter.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>

using namespace tfs::runtime;

namespace {

std::string raised(Interpreter &in, const Value &obj, const std::string &name) {
  try {
    in.getAttr(obj, name);
  } catch (const PyException &e) {
    return in.typeName(e.exc) + ": " + in.exceptionMessage(e.exc);
  }
  return "";
}

}  // namespace

TEST_CASE("public-name tables are sorted, unique and named") {
  const auto &files = tfs::lib::publicNamesFiles();
  REQUIRE(files.size() > 40);
  std::set<std::string> modules;
  for (const auto &file : files) {
    auto table = tfs::lib::parsePublicNames(file);
    INFO("table " << table.module);
    CHECK(modules.insert(table.module).second);
    CHECK((table.moduleList || !table.shown.empty()));
    CHECK(!table.names.empty());
    CHECK(std::is_sorted(table.names.begin(), table.names.end()));
    CHECK(std::adjacent_find(table.names.begin(), table.names.end()) == table.names.end());
    for (const auto &name : table.names) CHECK((!name.empty() && name[0] != '_'));
  }
  CHECK(modules.count("tensorflow"));
  CHECK(modules.count("tensorflow.linalg"));
  CHECK(modules.count("keras.api._v2.keras.layers"));
  CHECK(modules.count("numpy.linalg"));
  CHECK(modules.count("posixpath"));
}

TEST_CASE("a name the real module has is not supported by tfs, a misspelt one is an AttributeError") {
  tfs::lib::registerLibrary();
  Interpreter in(RunOptions{});
  Value tf = in.importModule("tensorflow");
  Value linalg = in.getAttr(tf, "linalg");
  CHECK(raised(in, linalg, "logm") == "NotImplementedError: tf.linalg.logm is not supported by tfs");
  CHECK(raised(in, linalg, "expmm") == "AttributeError: module 'tensorflow.linalg' has no attribute 'expmm'");
  CHECK(raised(in, tf, "mlir") == "NotImplementedError: tf.mlir is not supported by tfs");
  Value np = in.importModule("numpy");
  CHECK(raised(in, np, "matrix") == "NotImplementedError: np.matrix is not supported by tfs");
  CHECK(raised(in, np, "fftt") == "AttributeError: module 'numpy' has no attribute 'fftt'");
  // Only the attribute lookup consults the tables: getAttrOpt on an
  // unknown name still answers "absent".
  CHECK(!in.getAttrOpt(linalg, "no_such_name").has_value());
}
