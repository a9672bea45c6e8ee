// tf.io.read_file / tf.io.write_file: a whole file as a scalar string tensor
// (the way TF scripts load small text data files).
#include "lib/tf/tf_lib.h"
#include "runtime/interp/signature.h"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

namespace tfs::runtime::tf {

void installIo(Interpreter &in, ModuleObject &tf) {
  auto io = submodule(in, tf, "io");
  io->scope->vars["read_file"] = nativeWithSignature(in, "read_file(filename, name=None)", [](Interpreter &in, const Bound &a) -> Value {
    auto t = toTensor(in, a["filename"]);
    if (t->symbolic()) raiseTf(in, "NotImplementedError", "tf.io.read_file inside a tf.function is not supported by tfs");
    if (t->dtype() != DType::String || t->eager.numElements() != 1)
      raiseTf(in, "InvalidArgumentError", "filename must be a scalar string");
    std::string path = t->eager.data<std::string>()[0];
    std::ifstream f(path, std::ios::binary);
    if (!f) raiseTf(in, "NotFoundError", fmt::format("{}; No such file or directory", path));
    std::stringstream ss;
    ss << f.rdbuf();
    return Value(callOp1(in, ir::OpKind::Identity, {toTensor(in, make<BytesObject>(ss.str()))}, {}, "ReadFile"));
  });
  io->scope->vars["write_file"] = nativeWithSignature(in, "write_file(filename, contents, name=None)", [](Interpreter &in, const Bound &a) -> Value {
    if (in.options().readOnlyFiles) in.raise("OSError", "file writes are disabled");
    auto name = toTensor(in, a["filename"]), data = toTensor(in, a["contents"]);
    if (name->symbolic() || data->symbolic())
      raiseTf(in, "NotImplementedError", "tf.io.write_file inside a tf.function is not supported by tfs");
    if (name->dtype() != DType::String || data->dtype() != DType::String)
      raiseTf(in, "InvalidArgumentError", "filename and contents must be scalar strings");
    std::string path = name->eager.data<std::string>()[0];
    std::ofstream f(path, std::ios::binary);
    const std::string &s = data->eager.data<std::string>()[0];
    if (!f || !f.write(s.data(), std::streamsize(s.size())))
      raiseTf(in, "NotFoundError", fmt::format("{}; {}", path, std::strerror(errno)));
    return Value();
  });
}

}  // namespace tfs::runtime::tf
