// The object graph of a SavedModel (TF's SavedObjectGraph, in tfs's own
// files): the objects reachable from the exported root (tf.Module
// attributes, lists, dicts), their variables, and each tf.function
// attribute's concrete functions. tf.saved_model.load rebuilds it: restored
// objects whose attributes are the restored sub-objects, tf.Variables, and
// functions callable with inputs matching a saved trace.
//
// Files, next to saved_model.cpp's signature files:
//   objects.txt          "tfs-saved-objects 1", then tab-separated records:
//                        node ID KIND / edge PARENT NAME CHILD /
//                        variable PARENT NAME KEY / varinfo KEY TRAINABLE NAME /
//                        function NODE NAME FILE STRUCTURE ARGNAMES... /
//                        capture FILE CAPTURE KEY
//   functions/FILE.ir    one concrete function's graph (IR text)
//   variables/variables.index, variables.data-00000-of-00001
//                        the variables' values, a tensor bundle keyed by KEY
#pragma once

#include <map>
#include "lib/tf/saved_model/saved_host_callbacks.h"
#include "lib/tf/tf_lib.h"

#include <filesystem>

namespace tfs::runtime::tf {

// The object tf.saved_model.load returns (and each restored sub-object): the
// saved functions and children as attributes; calling it calls the saved
// `__call__`, like TF's restored _UserObject.
struct LoadedObject : ModuleObject {
  LoadedObject() : ModuleObject("_UserObject") {}
  const char *typeName() const override { return "_UserObject"; }
  std::optional<Value> call(Interpreter &in, Args args, const Kwargs &kw) override {
    auto it = scope->vars.find("__call__");
    if (it == scope->vars.end()) return std::nullopt;
    return in.call(it->second, args, kw);
  }
};

// Calls `name` of _tf_saved_model.tfs (the options classes' checks, the
// object graph walk); the script's source position is kept, so errors
// raised afterwards point at the script's call.
Value callSavedModelHelper(Interpreter &in, const char *name, std::vector<Value> args);
Value savedModelHelper(Interpreter &in, const char *name);

// Writes the object graph of `root` into the SavedModel directory `dir`.
// Its graphs' py_function callbacks go to `callbacks`.
void saveObjectGraph(Interpreter &in, const Value &root, const std::filesystem::path &dir,
                     HostCallbackSaver &callbacks);

// Restores the object graph saved in `dir` onto `root` (node 0); false when
// the directory has none (a SavedModel of an earlier tfs).
// `callbacks` repoints the graphs' py_function nodes. `variableCaptures`
// (when given) receives, by capture name, the storage of each restored
// variable the functions capture, so that the signature functions read the
// same variables.
bool loadObjectGraph(Interpreter &in, const std::filesystem::path &dir, const Value &root,
                     HostCallbackLoader &callbacks,
                     std::map<std::string, std::shared_ptr<Tensor>> *variableCaptures = nullptr);

}  // namespace tfs::runtime::tf
