// The native parts of the pandas module (lib/pandas/): `_pandas_csv`, the
// tokenizer and column converter under pandas.read_csv.
#pragma once

namespace tfs::runtime {

// Registers `_pandas_csv` (csv_native.cpp). Called by lib::registerLibrary.
void registerPandasModules();

}  // namespace tfs::runtime
