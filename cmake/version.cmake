# Writes OUT (a header defining TFS_GIT_COMMIT) from the git commit of SRC,
# rewriting it only when the text changes so that builds stay incremental.
# Run at every build (see the tfs_version target in CMakeLists.txt).
execute_process(COMMAND git -C ${SRC} rev-parse --short=12 HEAD
                OUTPUT_VARIABLE commit RESULT_VARIABLE rc
                ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown")
else()
  execute_process(COMMAND git -C ${SRC} status --porcelain --untracked-files=no
                  OUTPUT_VARIABLE dirty ERROR_QUIET)
  if(NOT dirty STREQUAL "")
    set(commit "${commit}-dirty")
  endif()
endif()
set(text "#define TFS_GIT_COMMIT \"${commit}\"\n")
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
