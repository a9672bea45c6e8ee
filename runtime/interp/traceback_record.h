// The frames of a caught exception, kept on it as its __traceback__ (a
// CPython traceback object's part that tfs has: where each frame stood),
// so that printing a chained exception (__cause__ / __context__) can show
// where that one was raised after its handler has finished.
#pragma once

#include "runtime/interp/value.h"

#include <vector>

namespace tfs::runtime {

struct TracebackObject final : Object {
  // From the frame whose except clause caught it inward; the raise site last.
  std::vector<frontend::SourceSpan> frames;
  const char *typeName() const override { return "traceback"; }
};

// Sets `e`'s __traceback__ as the except clause running at `callStack`
// catches it. A re-raised exception caught again further out gets the
// longer traceback, as CPython's grows while it propagates.
void recordTraceback(const PyException &e, const std::vector<frontend::SourceSpan> &callStack);

}  // namespace tfs::runtime
