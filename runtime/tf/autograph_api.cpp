// tf.autograph's entry points that only wrap or refuse (autograph_api.cpp):
// to_code (TF's generated code text, autograph/tf_code.cpp) and
// experimental.do_not_convert. The rest of the module (to_graph,
// set_verbosity, set_loop_options) is installed with AutoGraph's runtime
// (autograph_ops.cpp).
#include "autograph/autograph.h"
#include "frontend/ast.h"
#include "runtime/interp/signature.h"
#include "runtime/tf/tf.h"

#include <fmt/format.h>

namespace tfs::runtime::tf {

void installAutographApi(Interpreter &in, ModuleObject &autograph, ModuleObject &experimental) {
  // TF prints the Python source its own converters generate (ag__.ld,
  // FunctionScope, get_state/set_state, ...); autograph/tf_code.cpp writes
  // that text for the constructs it covers and refuses the rest. tfs's own
  // converted code is `tfs run --emit=autograph`.
  autograph.scope->vars["to_code"] = nativeWithSignature(
      in, "to_code(entity, recursive=True, experimental_optional_features=None)",
      [](Interpreter &in, const Bound &b) -> Value {
        if (!b.isNone("experimental_optional_features"))
          in.raise("NotImplementedError",
                   "tf.autograph.to_code(experimental_optional_features=...) is not supported by tfs");
        auto *fn = b["entity"].as<FunctionObject>();
        if (!fn || !fn->def)
          in.raise("NotImplementedError", fmt::format("tf.autograph.to_code of a {} is not supported by tfs (only "
                                                      "of a Python function defined with def)",
                                                      in.typeName(b["entity"])));
        Ref<Scope> globals = fn->globals;
        auto isGlobal = [globals](const std::string &name) { return globals && globals->vars.count(name) > 0; };
        try {
          return in.str(autograph::printTfCode(*fn->def, in.truth(b["recursive"]), isGlobal));
        } catch (const autograph::TfCodeUnsupported &e) {
          in.raise("NotImplementedError", fmt::format("tf.autograph.to_code of a function with {} is not supported "
                                                      "by tfs (tfs run --emit=autograph prints the code tfs "
                                                      "converts it to)",
                                                      e.what()));
        }
      });
  // TF's do_not_convert: the function runs as written inside a tf.function
  // (a Python `if` on a tensor is then TF's error); usable as a decorator
  // with or without the call.
  auto doNotConvert = [](Interpreter &in, const Value &f) -> Value {
    std::string name = "do_not_convert";
    if (auto *fn = f.as<FunctionObject>(); fn && fn->def) name = fn->def->name;
    return in.native(name, [f](Interpreter &in, Args args, const Kwargs &kw) { return in.call(f, args, kw); });
  };
  experimental.scope->vars["do_not_convert"] = nativeWithSignature(
      in, "do_not_convert(func=None)", [doNotConvert](Interpreter &in, const Bound &b) -> Value {
        if (!b.isNone("func")) return doNotConvert(in, b["func"]);
        return in.native("decorator", [doNotConvert](Interpreter &in, Args a, const Kwargs &) {
          if (a.size() != 1) in.raise("TypeError", "decorator() takes 1 positional argument");
          return doNotConvert(in, a[0]);
        });
      });
}

}  // namespace tfs::runtime::tf
