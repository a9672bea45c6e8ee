#include "lib/library.h"

#include "frontend/ast_serialize.h"
#include "lib/prelude.h"
#include "lib/public_names.h"
#include "lib/python/python_modules.h"
#include "runtime/interp/interpreter.h"
#include "lib/tf/keras/keras_native.h"
#include "lib/tf/saved_model/saved_model_files.h"
#include "lib/tf/summary/summary.h"
#include "lib/tf/tf_lib.h"
#include "lib/numpy/numpy_lib.h"
#include "lib/pandas/pandas_native.h"
#include "lib/tf/distribute/mpi_world.h"

namespace tfs::lib {

void registerLibrary() {
  static bool done = false;
  if (done) return;
  done = true;
  runtime::registerLanguageModules();
  runtime::tf::registerTfModules();
  runtime::tf::registerKerasModules();
  runtime::tf::registerTrainModules();
  runtime::tf::registerSavedModelV1Module();
  runtime::tf::registerDataModules();
  summary::registerSummaryModules();
  runtime::tf::numpy::registerNdarrayHooks();
  runtime::registerPandasModules();
  registerPublicNameTables();
  for (const auto &src : runtime::tf::preludeSources())
    runtime::Interpreter::registerSourceModule(src.name, src.text);
  for (const auto &tree : runtime::tf::preludeAsts())
    frontend::registerSerializedModule(tree.name, std::string_view(tree.data, tree.size));
}

std::string errorReportPrefix() { return distribute::errorReportPrefix(); }

int finishRun(int status) { return distribute::finishRun(status); }

}  // namespace tfs::lib
