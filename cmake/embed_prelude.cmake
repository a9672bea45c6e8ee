# Turns the prelude .tfs sources (modules of the `tf` API written in the
# language itself: tf.Module, Keras layers, optimizers) into a C++ file that
# the runtime registers at start-up. Invoked at build time:
#   cmake -DOUT=<file.cpp> -DSRC_DIR=<dir> -P embed_prelude.cmake
file(GLOB_RECURSE PRELUDES ${SRC_DIR}/*.tfs)
list(SORT PRELUDES)
set(body "// Generated from lib/**/*.tfs by cmake/embed_prelude.cmake.\n")
string(APPEND body "#include \"lib/prelude.h\"\n\nnamespace tfs::runtime::tf {\n")
string(APPEND body "const std::vector<PreludeSource> &preludeSources() {\n")
string(APPEND body "  static const std::vector<PreludeSource> sources = {\n")
foreach(f ${PRELUDES})
  get_filename_component(name ${f} NAME_WLE)
  file(READ ${f} text)
  string(APPEND body "    {\"${name}\", R\"tfsprelude(${text})tfsprelude\"},\n")
endforeach()
string(APPEND body "  };\n  return sources;\n}\n}  // namespace tfs::runtime::tf\n")
file(WRITE ${OUT}.tmp "${body}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
