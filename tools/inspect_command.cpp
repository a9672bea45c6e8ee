// inspectSavedModel (driver.h): `tfs inspect DIR` prints a tfs SavedModel
// directory the way `saved_model_cli show --dir DIR --all` prints TF's: one
// signature_def per saved function (inputs with their dtype, shape and
// tensor name, outputs by key), then the saved variables. It reads the
// files only (NAME.ir graphs, NAME.outputs keys, variables.txt); nothing
// runs (signatures.txt says which graphs are signatures). A missing or
// corrupted model is an error naming the file.
#include "tools/driver.h"

#include "ir/graph.h"
#include "ir/text.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

namespace tfs::tools {
namespace {

namespace fs = std::filesystem;

// saved_model_cli's shape text: `(-1, 2)`, `()`, `unknown_rank`.
std::string shapeText(const ir::Shape &s) {
  if (!s.ranked) return "unknown_rank";
  std::string out = "(";
  for (size_t i = 0; i < s.dims.size(); ++i) out += (i ? ", " : "") + std::to_string(s.dims[i]);
  return out + ")";
}

void printTensorInfo(const char *kind, const std::string &key, const ir::TensorType &t, const std::string &name) {
  std::printf("    %s['%s'] tensor_info:\n", kind, key.c_str());
  std::printf("        dtype: %s\n", ir::dtypeEnumName(t.dtype));
  std::printf("        shape: %s\n", shapeText(t.shape).c_str());
  std::printf("        name: %s\n", name.c_str());
}

std::string readFile(const fs::path &p) {
  std::ifstream f(p);
  std::stringstream text;
  text << f.rdbuf();
  return text.str();
}

// One signature: the function's parameters are its inputs; its results are
// the outputs named by NAME.outputs (a dict result) or output_0, output_1...
// TF lists outputs sorted by key and numbers the call's results in that
// order.
bool printSignature(const fs::path &file) {
  std::string key = file.stem().string();
  ir::ParsedModule parsed = ir::parseModule(readFile(file));
  if (!parsed.ok()) {
    std::fflush(stdout);
    std::fprintf(stderr, "tfs: error: corrupted SavedModel graph: %s\n", parsed.error->str(file.string()).c_str());
    return false;
  }
  if (parsed.module->functions().empty()) {
    std::fflush(stdout);
    std::fprintf(stderr, "tfs: error: %s: no function\n", file.string().c_str());
    return false;
  }
  const ir::Function &fn = *parsed.module->functions()[0];
  std::vector<std::string> keys;
  std::ifstream outputs(file.parent_path() / (key + ".outputs"));
  for (std::string line; std::getline(outputs, line);) keys.push_back(line);
  if (keys.size() != fn.resultTypes.size()) {
    keys.clear();
    for (size_t i = 0; i < fn.resultTypes.size(); ++i) keys.push_back(fmt::format("output_{}", i));
  }
  std::printf("\nsignature_def['%s']:\n", key.c_str());
  std::printf("  The given SavedModel SignatureDef contains the following input(s):\n");
  for (const ir::Value *p : fn.params()) printTensorInfo("inputs", p->name, p->type, key + "_" + p->name + ":0");
  std::printf("  The given SavedModel SignatureDef contains the following output(s):\n");
  std::vector<size_t> order(keys.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  const char *call = fn.captures().empty() ? "PartitionedCall" : "StatefulPartitionedCall";
  for (size_t rank = 0; rank < order.size(); ++rank)
    printTensorInfo("outputs", keys[order[rank]], fn.resultTypes[order[rank]], fmt::format("{}:{}", call, rank));
  std::printf("  Method name is: tensorflow/serving/predict\n");
  return true;
}

// variables.txt: `NAME DTYPE RANK DIMS... VALUES...` per line.
bool printVariables(const fs::path &file) {
  std::ifstream f(file);
  if (!f) {
    std::fflush(stdout);
    std::fprintf(stderr, "tfs: error: SavedModel at %s has no variables.txt\n", file.parent_path().string().c_str());
    return false;
  }
  std::printf("\nVariables:\n");
  int lineNo = 0;
  for (std::string line; std::getline(f, line);) {
    ++lineNo;
    if (line.empty()) continue;
    std::istringstream ss(line);
    std::string name, dt;
    size_t rank = 0;
    auto dtype = (ss >> name >> dt >> rank) && rank <= 32 ? ir::parseDTypeShortName(dt) : std::nullopt;
    ir::Shape shape;
    for (size_t i = 0; dtype && i < rank; ++i) {
      int64_t d = -1;
      if (!(ss >> d) || d < 0) dtype.reset();
      shape.dims.push_back(d);
    }
    if (!dtype) {
      std::fflush(stdout);
      std::fprintf(stderr, "tfs: error: %s:%d: corrupted variable record\n", file.string().c_str(), lineNo);
      return false;
    }
    std::printf("  %s: dtype: %s shape: %s\n", name.c_str(), ir::dtypeEnumName(*dtype), shapeText(shape).c_str());
  }
  return true;
}

}  // namespace

int inspectSavedModel(const DriverOptions &o) {
  fs::path root(o.file);
  if (!fs::is_directory(root)) {
    std::fprintf(stderr, "tfs: error: SavedModel file does not exist at: %s\n", o.file.c_str());
    return 1;
  }
  // signatures.txt names the serving signatures (the other NAME.ir graphs
  // are functions exported by name); a model of an earlier tfs has none.
  std::vector<std::string> named;
  bool listed = false;
  if (std::ifstream list(root / "signatures.txt"); list) {
    listed = true;
    for (std::string line; std::getline(list, line);)
      if (!line.empty()) named.push_back(line);
  }
  std::vector<fs::path> graphs;
  for (const auto &entry : fs::directory_iterator(root))
    if (entry.path().extension() == ".ir" &&
        (!listed || std::find(named.begin(), named.end(), entry.path().stem().string()) != named.end()))
      graphs.push_back(entry.path());
  std::sort(graphs.begin(), graphs.end());
  std::printf("MetaGraphDef with tag-set: 'serve' contains the following SignatureDefs:\n");
  for (const fs::path &g : graphs)
    if (!printSignature(g)) return 1;
  return printVariables(root / "variables.txt") ? 0 : 1;
}

}  // namespace tfs::tools
