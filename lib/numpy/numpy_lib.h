// The numpy library's module-level pieces (numpy_module.cpp assembles them).
#pragma once

#include "lib/numpy/ndarray.h"

namespace tfs::runtime::tf::numpy {

// np.dtype, the scalar types (np.float32, ...), np.finfo / iinfo and the
// type functions (np_types.cpp).
void installTypes(Interpreter &in, ModuleObject &np);
void addTypeFunctions(Defs &defs);
// np.set_printoptions & co (np_printoptions.cpp).
void installPrintOptions(Interpreter &in, ModuleObject &np);
// np.seterr / np.geterr (np_errstate.cpp).
void installErrState(Interpreter &in, ModuleObject &np);
// np.save / load / savez / savetxt / loadtxt / genfromtxt (np_npy.cpp, np_text.cpp).
void addIoFunctions(Defs &defs);
void addTextFunctions(Defs &defs);
// np.partition / np.argpartition: numpy's introselect (np_partition.cpp).
void addPartitionFunctions(Defs &defs);
// np.linalg.lstsq / eigvals (np_lstsq.cpp), added to numpy.linalg's table.
void addLstsqFunctions(Defs &defs);
// np.linalg.qr / eig (np_qr_eig.cpp), added to numpy.linalg's table.
void addQrEigFunctions(Defs &defs);
// np.pad, np.rot90 (np_pad.cpp).
void addPadFunctions(Defs &defs);
// np.convolve, np.correlate, np.cov, np.corrcoef (np_correlate.cpp).
void addCorrelateFunctions(Defs &defs);
// np.einsum, np.isin, np.digitize, np.interp (np_einsum.cpp).
void addEinsumFunctions(Defs &defs);
// np.real / imag / conj / angle / iscomplex & co and numpy.ComplexWarning
// (np_complex.cpp); warnComplexCast gives numpy's ComplexWarning for a cast
// that drops imaginary parts.
void addComplexFunctions(Defs &defs);
void installComplexNames(Interpreter &in, ModuleObject &np);
void warnComplexCast(Interpreter &in);
// An object whose attributes are the functions of a module built for its
// class: np.random's Generator and RandomState instances.
struct MethodTableObject : Object {
  Ref<ModuleObject> methods;
  std::optional<Value> getAttr(Interpreter &, const std::string &name) override {
    auto it = methods->scope->vars.find(name);
    if (it == methods->scope->vars.end()) return std::nullopt;
    return it->second;
  }
};

// numpy.random.default_rng and Generator (np_generator.cpp).
void installRandomGenerator(Interpreter &in, ModuleObject &random);
// np.format_float_positional / format_float_scientific (np_format_float.cpp).
void addFormatFloatFunctions(Defs &defs);
// np.shares_memory / may_share_memory (np_memory_overlap.cpp).
void addMemoryOverlapFunctions(Defs &defs);
// numpy.fft's transforms (np_fft.cpp); fftfreq & co are lib/numpy/_np_fft.tfs.
Defs fftModuleFunctions();
// numpy.char: str methods over text arrays (np_char.cpp).
Value makeCharModule(Interpreter &in);
// numpy.linalg.LinAlgError of this run.
Ref<ClassObject> numpyLinAlgError(Interpreter &in);
// Raises numpy.linalg.LinAlgError(msg).
[[noreturn]] void linAlgError(Interpreter &in, const std::string &msg);
// Registers the engine's ndarray hooks (once, at startup).
// Replaces the module's ufunc functions (np.add, ...) with numpy.ufunc
// objects (np_ufunc_object.cpp): repr <ufunc 'add'>, reduce / accumulate / ...
void installUfuncObjects(Interpreter &in, ModuleObject &np);
// fn as a numpy.ufunc object when `name` is one of the ufuncs written in .tfs
// (np.divmod, np.gcd, ...); fn itself otherwise.
Value asUfunc(const std::string &name, const Value &fn);
void registerNdarrayHooks();
// a.flat = v, a.shape = s (ndarray_set_attr.cpp).
void registerNdarraySetAttr();
Value makeNumpyModule(Interpreter &in);

}  // namespace tfs::runtime::tf::numpy
