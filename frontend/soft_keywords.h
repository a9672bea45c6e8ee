// The soft keywords `match` and `case` (PEP 634): names everywhere except
// where one begins a match statement or a case block inside one.
#pragma once

#include <antlr4-runtime.h>

#include <vector>

namespace tfs::frontend {

// Retags, in a file's token list (IndentTokenSource's output, EOF last),
// the NAME tokens that are the soft keywords as MATCH / CASE (Tfs.g4):
//  * `match` first on a logical line of three tokens or more that ends
//    with ':' (CPython's parser tries a match statement there first; no
//    other statement can end so on its own line);
//  * `case` first on a logical line directly inside a match statement's
//    indented block.
void markSoftKeywords(const std::vector<antlr4::Token *> &tokens);

}  // namespace tfs::frontend
