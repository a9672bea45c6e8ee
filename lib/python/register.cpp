// The standard-library modules implemented in C++ (lib/python/<module>/),
// registered once at start-up. Modules written in .tfs under lib/python/
// register themselves through the embedded prelude.
#include "lib/python/io/stream.h"
#include "lib/python/python_modules.h"
#include "runtime/interp/interpreter.h"

namespace tfs::runtime {

void registerLanguageModules() {
  static bool done = false;
  if (done) return;
  done = true;
  registerMathModule();
  registerAstModule();
  registerCmathModule();
  registerBuiltinsModule();
  registerSysModule();
  registerTimeModules();
  registerImportlibModule();
  registerRandomCoreModule();
  registerJsonScannerModule();
  registerPcreModule();
  registerPickleCodecModule();
  registerHashlibCoreModule();
  registerZlibModule();
  registerZipCoreModule();
  registerTarCoreModule();
  registerStructModule();
  pyio::registerIo();
  registerPosixModule();
  registerTypesCoreModule();
  registerWeakrefCoreModule();
  registerTracebackModules();
  registerUnsupportedModuleNames();
}

}  // namespace tfs::runtime
