// Imports of the user's own modules: `import utils` finds utils.tfs (or
// utils.py) in a directory of sys.path, whose first entry is the script's
// directory, as in CPython. Packages are directories with __init__.tfs /
// __init__.py; a directory without one is a namespace package. A module's
// body runs once; while it runs it is already in the module table (circular
// imports see the partly initialized module), and a failed body leaves no
// module behind.
#include "frontend/frontend.h"
#include "runtime/interp/interpreter.h"

#include <filesystem>
#include <system_error>

namespace tfs::runtime {

namespace fs = std::filesystem;

namespace {
bool isFile(const fs::path &p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}
bool isDirectory(const fs::path &p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

// Where `name` lives under one of `dirs`: the file to run (empty for a
// namespace package) and, for a package, its directory.
struct ModuleLocation {
  fs::path file;
  std::vector<fs::path> packageDirs;
};

std::optional<ModuleLocation> locate(const std::vector<fs::path> &dirs, const std::string &name) {
  std::vector<fs::path> namespaceDirs;
  for (const auto &dir : dirs) {
    fs::path base = dir / name;
    if (isDirectory(base)) {
      for (const char *init : {"__init__.tfs", "__init__.py"})
        if (isFile(base / init)) return ModuleLocation{base / init, {base}};
    }
    for (const char *ext : {".tfs", ".py"}) {
      fs::path file = base;
      file += ext;
      if (isFile(file)) return ModuleLocation{file, {}};
    }
    if (isDirectory(base)) namespaceDirs.push_back(base);
  }
  if (!namespaceDirs.empty()) return ModuleLocation{fs::path(), namespaceDirs};
  return std::nullopt;
}

std::string absolutePath(const fs::path &p) {
  std::error_code ec;
  fs::path a = fs::absolute(p, ec);
  return ec ? p.string() : a.string();
}
}  // namespace

Value Interpreter::searchPath() {
  if (searchPath_.isNone()) {
    std::string scriptDir;
    if (!options_.argv.empty() && !options_.argv[0].empty()) {
      std::error_code ec;
      fs::path dir = fs::weakly_canonical(fs::absolute(options_.argv[0], ec), ec).parent_path();
      scriptDir = ec ? fs::path(options_.argv[0]).parent_path().string() : dir.string();
    }
    searchPath_ = list({str(scriptDir)});
  }
  return searchPath_;
}

std::optional<Value> Interpreter::importFromFiles(const std::string &dotted, const Value *parent) {
  std::vector<fs::path> dirs;
  auto addDirs = [&](const Value &listValue) {
    if (auto *l = listValue.as<ListObject>())
      for (const auto &entry : l->items)
        if (auto *s = entry.as<StrObject>()) dirs.emplace_back(s->s.empty() ? "." : s->s);
  };
  if (parent) {
    // Read from the module's namespace: its __getattr__ (PEP 562) is not
    // asked, as it answers the script's names, not the import system's.
    std::optional<Value> path;
    if (auto *m = parent->as<ModuleObject>()) {
      auto it = m->scope->vars.find("__path__");
      if (it != m->scope->vars.end()) path = it->second;
    } else {
      path = getAttrOpt(*parent, "__path__");
    }
    if (!path) return std::nullopt;  // the parent is a module, not a package
    addDirs(*path);
  } else {
    addDirs(searchPath());
  }
  std::string name = dotted.substr(dotted.rfind('.') + 1);  // npos + 1 == 0
  auto where = locate(dirs, name);
  if (!where) return std::nullopt;

  auto mod = make<ModuleObject>(dotted);
  auto &vars = mod->scope->vars;
  vars["__name__"] = str(dotted);
  vars["__doc__"] = Value();  // the module's docstring once its body runs
  size_t lastDot = dotted.rfind('.');
  bool isPackage = !where->packageDirs.empty();
  vars["__package__"] = str(isPackage ? dotted : lastDot == std::string::npos ? "" : dotted.substr(0, lastDot));
  if (isPackage) {
    std::vector<Value> path;
    for (const auto &d : where->packageDirs) path.push_back(str(absolutePath(d)));
    vars["__path__"] = list(std::move(path));
  }
  if (where->file.empty()) {  // a namespace package: nothing to run
    modules_[dotted] = mod;
    return Value(mod);
  }

  std::string error, file = absolutePath(where->file);
  auto source = frontend::readSourceFile(file, error);
  if (!source) raiseValue(newException(exceptionClass("ImportError"), error));
  std::shared_ptr<ast::Module> module;
  try {
    module = frontend::parseFile(source);
  } catch (const frontend::SyntaxErrorException &e) {
    loadedSources_.push_back(source);  // the error's span points into it
    for (auto &f : e.diag.keepAlive) loadedSources_.push_back(f);
    span_ = e.diag.span;
    raise("SyntaxError", e.diag.message);
  }
  loadedModules_.push_back(module);  // functions defined there point into it
  vars["__file__"] = str(file);
  modules_[dotted] = mod;
  frontend::SourceSpan importSite = span_;
  enterFrame(importSite);
  try {
    runModuleBody(*module, mod->scope);
  } catch (...) {
    leaveFrame();
    modules_.erase(dotted);
    throw;
  }
  leaveFrame();
  span_ = importSite;
  return Value(mod);
}

}  // namespace tfs::runtime
