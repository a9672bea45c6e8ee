// markSoftKeywords: see soft_keywords.h.
#include "frontend/soft_keywords.h"

#include "TfsParser.h"

namespace tfs::frontend {

using grammar::TfsParser;

void markSoftKeywords(const std::vector<antlr4::Token *> &tokens) {
  // One entry per open indented block: is it a match statement's?
  std::vector<bool> matchBlocks;
  size_t matchNewline = size_t(-1);  // the NEWLINE ending the last `match ...:` line
  auto setType = [](antlr4::Token *t, size_t type) { static_cast<antlr4::CommonToken *>(t)->setType(type); };
  for (size_t i = 0; i < tokens.size(); ++i) {
    antlr4::Token *t = tokens[i];
    size_t type = t->getType();
    if (type == TfsParser::INDENT) {
      matchBlocks.push_back(i == matchNewline + 1);
      continue;
    }
    if (type == TfsParser::DEDENT) {
      if (!matchBlocks.empty()) matchBlocks.pop_back();
      continue;
    }
    if (type != TfsParser::NAME) continue;
    size_t prev = i == 0 ? TfsParser::NEWLINE : tokens[i - 1]->getType();
    bool statementStart = prev == TfsParser::NEWLINE || prev == TfsParser::INDENT || prev == TfsParser::DEDENT;
    if (!statementStart) continue;
    const std::string &text = t->getText();
    if (text == "case" && !matchBlocks.empty() && matchBlocks.back()) {
      setType(t, TfsParser::CASE);
    } else if (text == "match") {
      size_t end = i + 1;
      while (end < tokens.size() && tokens[end]->getType() != TfsParser::NEWLINE &&
             tokens[end]->getType() != antlr4::Token::EOF)
        ++end;
      antlr4::Token *last = tokens[end - 1];
      if (end >= i + 3 && last->getType() != TfsParser::STRING && last->getText() == ":") {
        setType(t, TfsParser::MATCH);
        matchNewline = end;
      }
    }
  }
}

}  // namespace tfs::frontend
