// AstBuilder, `match` statements (PEP 634): the case patterns of Tfs.g4's
// match_stmt as ast::Pattern, and the SyntaxErrors CPython 3.11's parser
// and compiler raise for them (compile-time errors there, so parse-time
// ones here: a file with one runs nothing).
#include "frontend/ast_builder.h"
#include "frontend/literals.h"

#include <fmt/format.h>

#include <algorithm>

#include <set>

namespace tfs::frontend {

using namespace tfs::ast;

namespace {

std::unique_ptr<Name> storeName(const std::string &id, SourceSpan s) {
  auto n = std::make_unique<Name>(id, s);
  n->ctx = Ctx::Store;
  return n;
}

// The first token child of `ctx` spelled `text` (a ':' or '(' of the rule).
antlr4::tree::TerminalNode *childToken(antlr4::ParserRuleContext *ctx, const std::string &text) {
  for (auto *child : ctx->children)
    if (auto *term = dynamic_cast<antlr4::tree::TerminalNode *>(child); term && term->getText() == text) return term;
  return nullptr;
}

bool isImaginary(const std::string &number) {
  return !number.empty() && (number.back() == 'j' || number.back() == 'J');
}

// The repr CPython's "duplicate key" message shows of a literal key.
std::string keyRepr(const Expr &e) {
  auto *c = llvm::dyn_cast<Constant>(&e);
  if (!c) return "...";
  switch (c->type) {
  case Constant::Type::None: return "None";
  case Constant::Type::Bool: return c->b ? "True" : "False";
  case Constant::Type::Int: return std::to_string(c->i);
  case Constant::Type::Float: return fmt::format("{}", c->f);
  case Constant::Type::Str: return "'" + c->s + "'";
  case Constant::Type::Bytes: return "b'" + c->s + "'";
  case Constant::Type::BigInt: return c->s;
  default: return "...";
  }
}

// A literal key's identity for the duplicate check (1, 1.0 and True are
// one key to CPython, as they are to a dict).
std::optional<std::string> literalKey(const Expr &e) {
  auto *c = llvm::dyn_cast<Constant>(&e);
  if (!c) return std::nullopt;
  switch (c->type) {
  case Constant::Type::None: return "None";
  case Constant::Type::Bool: return fmt::format("n{}", c->b ? 1.0 : 0.0);
  case Constant::Type::Int: return fmt::format("n{}", double(c->i));
  case Constant::Type::Float: return fmt::format("n{}", c->f);
  case Constant::Type::Str: return "s" + c->s;
  case Constant::Type::Bytes: return "b" + c->s;
  case Constant::Type::BigInt: return "i" + c->s;
  default: return std::nullopt;
  }
}

// CPython's compiler checks on one case's pattern, in its compile order:
// an irrefutable pattern where later alternatives or cases could no longer
// match, a name bound twice, or-alternatives binding different names.
class PatternChecker {
public:
  explicit PatternChecker(const AstBuilder &b) : b_(b) {}

  // `allowIrrefutable`: the pattern may match everything (the last case,
  // a guarded case, the last alternative of such a pattern, any
  // sub-pattern).
  void check(const Pattern &p, bool allowIrrefutable, std::vector<std::string> &bound) {
    switch (p.kind) {
    case Pattern::Kind::As:
      if (!p.pattern) {
        if (!allowIrrefutable) {
          if (p.target)
            b_.error(p.span, fmt::format("name capture '{}' makes remaining patterns unreachable",
                                         static_cast<const Name &>(*p.target).id));
          b_.error(p.span, "wildcard makes remaining patterns unreachable");
        }
      } else {
        check(*p.pattern, allowIrrefutable, bound);
      }
      bind(p.target.get(), bound);
      return;
    case Pattern::Kind::Star: bind(p.target.get(), bound); return;
    case Pattern::Kind::Or: {
      std::vector<std::string> first;
      for (size_t i = 0; i < p.patterns.size(); ++i) {
        std::vector<std::string> names = bound;
        check(p.patterns[i], allowIrrefutable && i + 1 == p.patterns.size(), names);
        std::set<std::string> mine(names.begin() + std::ptrdiff_t(bound.size()), names.end());
        if (i == 0) {
          first.assign(mine.begin(), mine.end());
        } else if (std::vector<std::string>(mine.begin(), mine.end()) != first) {
          b_.error(p.patterns[i].span, "alternative patterns bind different names");
        }
      }
      bound.insert(bound.end(), first.begin(), first.end());
      return;
    }
    case Pattern::Kind::Sequence:
    case Pattern::Kind::Class:
      for (const auto &q : p.patterns) check(q, true, bound);
      for (const auto &q : p.kwdPatterns) check(q, true, bound);
      return;
    case Pattern::Kind::Mapping:
      for (const auto &q : p.patterns) check(q, true, bound);
      bind(p.target.get(), bound);
      return;
    case Pattern::Kind::Value:
    case Pattern::Kind::Singleton: return;
    }
  }

private:
  void bind(const Expr *target, std::vector<std::string> &bound) {
    if (!target) return;
    const std::string &id = static_cast<const Name &>(*target).id;
    if (std::find(bound.begin(), bound.end(), id) != bound.end())
      b_.error(target->span, fmt::format("multiple assignments to name '{}' in pattern", id));
    bound.push_back(id);
  }
  const AstBuilder &b_;
};

}  // namespace

StmtPtr AstBuilder::matchStmt(P::Match_stmtContext *ctx) {
  auto st = std::make_unique<Match>(span(ctx));
  P::Match_subjectContext *subj = ctx->match_subject();
  std::vector<ExprPtr> items;
  for (auto *child : subj->children) {
    if (auto *n = dynamic_cast<P::Namedexpr_testContext *>(child)) items.push_back(namedexprTest(n));
    else if (auto *s = dynamic_cast<P::Star_exprContext *>(child)) items.push_back(starExpr(s));
  }
  if (items.size() == 1 && !subj->trailing) {
    if (items[0]->kind == ExprKind::Starred) error(span(childToken(ctx, ":")), "invalid syntax");
    st->subject = std::move(items[0]);
  } else {
    auto tuple = std::make_unique<Sequence>(ExprKind::Tuple, span(subj));
    tuple->elts = std::move(items);
    st->subject = std::move(tuple);
  }
  auto blocks = ctx->case_block();
  for (size_t i = 0; i < blocks.size(); ++i) {
    P::Case_blockContext *cb = blocks[i];
    MatchCase c;
    c.span = span(cb);
    auto *pats = cb->case_patterns();
    auto top = pats->star_pattern();
    if (top.size() == 1 && !pats->trailing) {
      if (!top[0]->pattern()) error(span(childToken(cb, ":")), "invalid syntax");
      c.pattern = starPattern(top[0]);
    } else {
      c.pattern = sequencePattern(top, false, span(pats));
    }
    if (cb->guard) c.guard = namedexprTest(cb->guard);
    c.body = block(cb->block());
    std::vector<std::string> bound;
    PatternChecker(*this).check(c.pattern, c.guard != nullptr || i + 1 == blocks.size(), bound);
    st->cases.push_back(std::move(c));
  }
  return st;
}

Pattern AstBuilder::starPattern(P::Star_patternContext *ctx) {
  if (ctx->pattern()) return pattern(ctx->pattern());
  Pattern p;
  p.kind = Pattern::Kind::Star;
  p.span = span(ctx);
  std::string id = ctx->NAME()->getText();
  if (id != "_") p.target = storeName(mangle(id), span(ctx->NAME()));
  return p;
}

Pattern AstBuilder::pattern(P::PatternContext *ctx) {
  auto closed = ctx->or_pattern()->closed_pattern();
  Pattern p;
  if (closed.size() == 1) {
    p = closedPattern(closed[0]);
  } else {
    p.kind = Pattern::Kind::Or;
    p.span = span(ctx->or_pattern());
    for (auto *c : closed) p.patterns.push_back(closedPattern(c));
  }
  if (!ctx->NAME()) return p;
  std::string id = ctx->NAME()->getText();
  if (id == "_") error(span(ctx->NAME()), "cannot use '_' as a target");
  Pattern as;
  as.kind = Pattern::Kind::As;
  as.span = span(ctx);
  as.pattern = std::make_unique<Pattern>(std::move(p));
  as.target = storeName(mangle(id), span(ctx->NAME()));
  return as;
}

ExprPtr AstBuilder::literalPattern(P::Literal_patternContext *ctx) {
  SourceSpan s = span(ctx);
  if (!ctx->STRING().empty()) {
    ExprPtr e = strings(ctx->STRING(), s);
    if (e->kind == ExprKind::FString) error(s, "patterns may only match literals and attribute lookups");
    return e;
  }
  auto numbers = ctx->NUMBER();
  if (numbers.empty()) {
    auto c = std::make_unique<Constant>(s);
    if (ctx->getStart()->getText() != "None") {
      c->type = Constant::Type::Bool;
      c->b = ctx->getStart()->getText() == "True";
    }
    return c;
  }
  auto number = [&](antlr4::tree::TerminalNode *t) {
    auto c = std::make_unique<Constant>(span(t));
    decodeNumber(t->getText(), *c);
    return c;
  };
  ExprPtr real = number(numbers[0]);
  if (ctx->getStart()->getText() == "-") {
    SourceSpan neg = span(ctx->getStart());
    neg.endLine = real->span.endLine;
    neg.endCol = real->span.endCol;
    real = std::make_unique<UnaryOp>(UnaryOpKind::Neg, std::move(real), neg);
  }
  if (numbers.size() == 1) return real;
  // real +/- imaginary: CPython's complex literal pattern.
  if (isImaginary(numbers[0]->getText())) error(span(numbers[0]), "real number required in complex literal");
  if (!isImaginary(numbers[1]->getText())) error(span(numbers[1]), "imaginary number required in complex literal");
  bool minus = false;
  for (auto *child : ctx->children)
    if (auto *term = dynamic_cast<antlr4::tree::TerminalNode *>(child);
        term && term->getSymbol() != ctx->getStart() && term->getText() == "-")
      minus = true;
  return std::make_unique<BinOp>(minus ? BinOpKind::Sub : BinOpKind::Add, std::move(real), number(numbers[1]), s);
}

Pattern AstBuilder::sequencePattern(const std::vector<P::Star_patternContext *> &items, bool group,
                                    const SourceSpan &at) {
  if (group) return pattern(items[0]->pattern());
  Pattern p;
  p.kind = Pattern::Kind::Sequence;
  p.span = at;
  size_t stars = 0;
  for (auto *item : items) {
    p.patterns.push_back(starPattern(item));
    if (p.patterns.back().kind == Pattern::Kind::Star) ++stars;
  }
  if (stars > 1) error(at, "multiple starred names in sequence pattern");
  return p;
}

Pattern AstBuilder::closedPattern(P::Closed_patternContext *ctx) {
  SourceSpan s = span(ctx);
  Pattern p;
  p.span = s;
  if (auto *lit = dynamic_cast<P::LiteralPatternContext *>(ctx)) {
    p.value = literalPattern(lit->literal_pattern());
    auto *c = llvm::dyn_cast<Constant>(p.value.get());
    bool singleton = c && (c->type == Constant::Type::None || c->type == Constant::Type::Bool);
    p.kind = singleton ? Pattern::Kind::Singleton : Pattern::Kind::Value;
    return p;
  }
  if (auto *np = dynamic_cast<P::NamePatternContext *>(ctx)) {
    auto names = np->NAME();
    bool isClass = childToken(np, "(") != nullptr;
    if (names.size() == 1 && !isClass) {
      p.kind = Pattern::Kind::As;
      std::string id = names[0]->getText();
      if (id != "_") p.target = storeName(mangle(id), s);
      return p;
    }
    ExprPtr value = std::make_unique<Name>(mangle(names[0]->getText()), span(names[0]));
    for (size_t i = 1; i < names.size(); ++i) {
      SourceSpan as = value->span;
      SourceSpan end = span(names[i]);
      as.endLine = end.endLine;
      as.endCol = end.endCol;
      value = std::make_unique<Attribute>(std::move(value), names[i]->getText(), as);
    }
    p.value = std::move(value);
    if (!isClass) {
      p.kind = Pattern::Kind::Value;
      return p;
    }
    p.kind = Pattern::Kind::Class;
    if (auto *args = np->class_pattern_args()) {
      for (auto *arg : args->class_pattern_arg()) {
        if (arg->NAME()) {
          std::string attr = arg->NAME()->getText();
          if (std::find(p.kwdAttrs.begin(), p.kwdAttrs.end(), attr) != p.kwdAttrs.end())
            error(span(arg->pattern()), "attribute name repeated in class pattern: " + attr);
          p.kwdAttrs.push_back(attr);
          p.kwdPatterns.push_back(pattern(arg->pattern()));
        } else {
          if (!p.kwdAttrs.empty()) error(span(arg), "positional patterns follow keyword patterns");
          p.patterns.push_back(pattern(arg->pattern()));
        }
      }
    }
    return p;
  }
  if (auto *paren = dynamic_cast<P::ParenPatternContext *>(ctx)) {
    auto items = paren->star_pattern();
    if (items.size() == 1 && !paren->trailing) {
      if (!items[0]->pattern()) error(span(paren->getStop()), "invalid syntax");
      return sequencePattern(items, true, s);
    }
    return sequencePattern(items, false, s);
  }
  if (auto *list = dynamic_cast<P::ListPatternContext *>(ctx)) return sequencePattern(list->star_pattern(), false, s);
  auto *mapping = static_cast<P::MappingPatternContext *>(ctx);
  p.kind = Pattern::Kind::Mapping;
  std::set<std::string> seen;
  auto items = mapping->mapping_item();
  for (size_t i = 0; i < items.size(); ++i) {
    P::Mapping_itemContext *item = items[i];
    if (item->NAME()) {
      if (i + 1 < items.size()) error(span(items[i + 1]), "invalid syntax");
      std::string id = item->NAME()->getText();
      if (id == "_") error(span(item->NAME()), "invalid syntax");
      p.target = storeName(mangle(id), span(item->NAME()));
      continue;
    }
    P::Mapping_keyContext *key = item->mapping_key();
    ExprPtr k;
    if (key->literal_pattern()) {
      k = literalPattern(key->literal_pattern());
      if (auto id = literalKey(*k); id && !seen.insert(*id).second)
        error(s, fmt::format("mapping pattern checks duplicate key ({})", keyRepr(*k)));
    } else {
      auto names = key->NAME();
      k = std::make_unique<Name>(mangle(names[0]->getText()), span(names[0]));
      for (size_t j = 1; j < names.size(); ++j) {
        SourceSpan as = k->span;
        SourceSpan end = span(names[j]);
        as.endLine = end.endLine;
        as.endCol = end.endCol;
        k = std::make_unique<Attribute>(std::move(k), names[j]->getText(), as);
      }
    }
    p.keys.push_back(std::move(k));
    p.patterns.push_back(pattern(item->pattern()));
  }
  return p;
}

}  // namespace tfs::frontend
