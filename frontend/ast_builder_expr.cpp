// AstBuilder, expressions: one function per grammar level (Tfs.g4
// "Expressions"). Binary chains are folded left to right; comparisons keep
// their chain (`a < b <= c` is one Compare).
#include "frontend/ast_builder.h"
#include "frontend/literals.h"

#include <fmt/format.h>

namespace tfs::frontend {

using namespace tfs::ast;

namespace {
constexpr int kMaxDepth = 1500;

BinOpKind binOpOf(const std::string &s) {
  if (s == "+") return BinOpKind::Add;
  if (s == "-") return BinOpKind::Sub;
  if (s == "*") return BinOpKind::Mul;
  if (s == "/") return BinOpKind::Div;
  if (s == "//") return BinOpKind::FloorDiv;
  if (s == "%") return BinOpKind::Mod;
  if (s == "**") return BinOpKind::Pow;
  if (s == "@") return BinOpKind::MatMul;
  if (s == "<<") return BinOpKind::LShift;
  if (s == ">>") return BinOpKind::RShift;
  if (s == "&") return BinOpKind::BitAnd;
  if (s == "|") return BinOpKind::BitOr;
  return BinOpKind::BitXor;
}

CmpOpKind cmpOpOf(const std::string &s) {
  if (s == "==") return CmpOpKind::Eq;
  if (s == "!=") return CmpOpKind::NotEq;
  if (s == "<") return CmpOpKind::Lt;
  if (s == "<=") return CmpOpKind::LtE;
  if (s == ">") return CmpOpKind::Gt;
  if (s == ">=") return CmpOpKind::GtE;
  if (s == "is") return CmpOpKind::Is;
  if (s == "isnot") return CmpOpKind::IsNot;
  if (s == "in") return CmpOpKind::In;
  return CmpOpKind::NotIn;
}

SourceSpan join(SourceSpan a, const SourceSpan &b) {
  a.endLine = b.endLine;
  a.endCol = b.endCol;
  return a;
}

// Folds `first (op operand)*` left-associatively.
template <class OpCtx, class Operand, class F>
ExprPtr foldChain(AstBuilder &b, std::vector<Operand *> operands, std::vector<OpCtx *> ops,
                  F build) {
  ExprPtr lhs = build(operands[0]);
  for (size_t i = 0; i < ops.size(); ++i) {
    ExprPtr rhs = build(operands[i + 1]);
    SourceSpan s = join(lhs->span, rhs->span);
    lhs = std::make_unique<BinOp>(binOpOf(ops[i]->getText()), std::move(lhs), std::move(rhs), s);
  }
  return lhs;
}
}  // namespace

AstBuilder::DepthGuard::DepthGuard(AstBuilder &b, const SourceSpan &at) : b(b) {
  if (++b.depth_ > kMaxDepth)
    b.error(at, "maximum recursion depth exceeded during compilation", "RecursionError");
}

void AstBuilder::chainCheck(size_t chainLength, const SourceSpan &at) {
  if (depth_ + int(chainLength) > kMaxDepth)
    error(at, "maximum recursion depth exceeded during compilation", "RecursionError");
}

ExprPtr AstBuilder::test(P::TestContext *ctx) {
  DepthGuard g(*this, span(ctx));
  if (ctx->lambdef())
    return lambdef(ctx->lambdef());
  ExprPtr body = orTest(ctx->or_test(0));
  if (!ctx->test())
    return body;
  auto e = std::make_unique<IfExp>(span(ctx));
  e->body = std::move(body);
  e->test = orTest(ctx->or_test(1));
  e->orelse = test(ctx->test());
  return e;
}

ExprPtr AstBuilder::testNocond(P::Test_nocondContext *ctx) {
  if (ctx->lambdef_nocond())
    return lambdefNocond(ctx->lambdef_nocond());
  return orTest(ctx->or_test());
}

ExprPtr AstBuilder::lambdef(P::LambdefContext *ctx) {
  auto l = std::make_unique<Lambda>(span(ctx));
  if (ctx->lambda_params())
    l->params = lambdaParams(ctx->lambda_params());
  ++functionDepth_;
  int savedLoops = loopDepth_;
  bool *savedGenerator = generatorFlag_;
  loopDepth_ = 0;
  generatorFlag_ = &l->isGenerator;
  bool savedClass = classScope_;
  classScope_ = false;
  l->body = test(ctx->test());
  classScope_ = savedClass;
  generatorFlag_ = savedGenerator;
  loopDepth_ = savedLoops;
  --functionDepth_;
  return l;
}

ExprPtr AstBuilder::lambdefNocond(P::Lambdef_nocondContext *ctx) {
  auto l = std::make_unique<Lambda>(span(ctx));
  if (ctx->lambda_params())
    l->params = lambdaParams(ctx->lambda_params());
  bool *savedGenerator = generatorFlag_;
  generatorFlag_ = &l->isGenerator;
  bool savedClass = classScope_;
  classScope_ = false;
  l->body = testNocond(ctx->test_nocond());
  classScope_ = savedClass;
  generatorFlag_ = savedGenerator;
  return l;
}

ExprPtr AstBuilder::yieldExpr(P::Yield_exprContext *ctx) {
  SourceSpan s = span(ctx);
  if (!generatorFlag_) error(s, "'yield' outside function");
  *generatorFlag_ = true;
  ++yieldCount_;
  lastYield_ = s;
  DepthGuard g(*this, s);
  if (ctx->test()) return std::make_unique<Yield>(ExprKind::YieldFrom, test(ctx->test()), s);
  return std::make_unique<Yield>(ExprKind::Yield,
                                 ctx->testlist_star() ? testlistStar(ctx->testlist_star()) : nullptr, s);
}

ExprPtr AstBuilder::assignValue(P::Assign_valueContext *ctx) {
  if (ctx->yield_expr()) return yieldExpr(ctx->yield_expr());
  return testlistStar(ctx->testlist_star());
}

void AstBuilder::checkNoYieldIn(const Comprehension &c, int yieldsBefore) {
  if (yieldCount_ == yieldsBefore) return;
  static const char *const kinds[] = {"list comprehension", "set comprehension", "dict comprehension",
                                      "generator expression"};
  error(lastYield_, fmt::format("'yield' inside {}", kinds[int(c.type)]));
}

ExprPtr AstBuilder::orTest(P::Or_testContext *ctx) {
  if (ctx->and_test().size() == 1)
    return andTest(ctx->and_test(0));
  auto e = std::make_unique<BoolOp>(span(ctx));
  e->isAnd = false;
  for (auto *a : ctx->and_test())
    e->values.push_back(andTest(a));
  return e;
}

ExprPtr AstBuilder::andTest(P::And_testContext *ctx) {
  if (ctx->not_test().size() == 1)
    return notTest(ctx->not_test(0));
  auto e = std::make_unique<BoolOp>(span(ctx));
  e->isAnd = true;
  for (auto *n : ctx->not_test())
    e->values.push_back(notTest(n));
  return e;
}

ExprPtr AstBuilder::notTest(P::Not_testContext *ctx) {
  if (ctx->comparison())
    return comparison(ctx->comparison());
  DepthGuard g(*this, span(ctx));
  return std::make_unique<UnaryOp>(UnaryOpKind::Not, notTest(ctx->not_test()), span(ctx));
}

ExprPtr AstBuilder::comparison(P::ComparisonContext *ctx) {
  // The child lists are fetched once: ANTLR's indexed accessors scan all
  // children, which made a long chain (`a < b < c < ...`) quadratic.
  auto ops = ctx->comp_op();
  auto operands = ctx->expr();
  if (ops.empty())
    return expr(operands[0]);
  auto c = std::make_unique<Compare>(span(ctx));
  c->left = expr(operands[0]);
  for (size_t i = 0; i < ops.size(); ++i) {
    c->ops.push_back(cmpOpOf(ops[i]->getText()));
    c->comparators.push_back(expr(operands[i + 1]));
  }
  return c;
}

ExprPtr AstBuilder::expr(P::ExprContext *ctx) {
  chainCheck(ctx->xor_expr().size(), span(ctx));
  auto operands = ctx->xor_expr();
  ExprPtr lhs = xorExpr(operands[0]);
  for (size_t i = 1; i < operands.size(); ++i) {
    ExprPtr rhs = xorExpr(operands[i]);
    SourceSpan s = join(lhs->span, rhs->span);
    lhs = std::make_unique<BinOp>(BinOpKind::BitOr, std::move(lhs), std::move(rhs), s);
  }
  return lhs;
}

ExprPtr AstBuilder::xorExpr(P::Xor_exprContext *ctx) {
  auto operands = ctx->and_expr();
  chainCheck(operands.size(), span(ctx));
  ExprPtr lhs = andExpr(operands[0]);
  for (size_t i = 1; i < operands.size(); ++i) {
    ExprPtr rhs = andExpr(operands[i]);
    SourceSpan s = join(lhs->span, rhs->span);
    lhs = std::make_unique<BinOp>(BinOpKind::BitXor, std::move(lhs), std::move(rhs), s);
  }
  return lhs;
}

ExprPtr AstBuilder::andExpr(P::And_exprContext *ctx) {
  auto operands = ctx->shift_expr();
  chainCheck(operands.size(), span(ctx));
  ExprPtr lhs = shiftExpr(operands[0]);
  for (size_t i = 1; i < operands.size(); ++i) {
    ExprPtr rhs = shiftExpr(operands[i]);
    SourceSpan s = join(lhs->span, rhs->span);
    lhs = std::make_unique<BinOp>(BinOpKind::BitAnd, std::move(lhs), std::move(rhs), s);
  }
  return lhs;
}

ExprPtr AstBuilder::shiftExpr(P::Shift_exprContext *ctx) {
  chainCheck(ctx->arith_expr().size(), span(ctx));
  return foldChain(*this, ctx->arith_expr(), ctx->shift_op(),
                   [&](P::Arith_exprContext *c) { return arithExpr(c); });
}

ExprPtr AstBuilder::arithExpr(P::Arith_exprContext *ctx) {
  chainCheck(ctx->term().size(), span(ctx));
  return foldChain(*this, ctx->term(), ctx->arith_op(),
                   [&](P::TermContext *c) { return term(c); });
}

ExprPtr AstBuilder::term(P::TermContext *ctx) {
  chainCheck(ctx->factor().size(), span(ctx));
  return foldChain(*this, ctx->factor(), ctx->term_op(),
                   [&](P::FactorContext *c) { return factor(c); });
}

ExprPtr AstBuilder::factor(P::FactorContext *ctx) {
  if (ctx->power())
    return power(ctx->power());
  DepthGuard g(*this, span(ctx));
  std::string op = ctx->unary_op()->getText();
  UnaryOpKind k = op == "-" ? UnaryOpKind::Neg : op == "+" ? UnaryOpKind::Pos : UnaryOpKind::Invert;
  return std::make_unique<UnaryOp>(k, factor(ctx->factor()), span(ctx));
}

ExprPtr AstBuilder::power(P::PowerContext *ctx) {
  ExprPtr base = atomExpr(ctx->atom_expr());
  if (!ctx->factor())
    return base;
  DepthGuard g(*this, span(ctx));
  ExprPtr exp = factor(ctx->factor());
  return std::make_unique<BinOp>(BinOpKind::Pow, std::move(base), std::move(exp), span(ctx));
}

ExprPtr AstBuilder::atomExpr(P::Atom_exprContext *ctx) {
  ExprPtr e = atom(ctx->atom());
  chainCheck(ctx->trailer().size(), span(ctx));
  for (auto *t : ctx->trailer()) {
    SourceSpan s = join(e->span, span(t));
    if (auto *call = dynamic_cast<P::CallTrailerContext *>(t)) {
      auto c = std::make_unique<Call>(s);
      c->func = std::move(e);
      if (call->arglist())
        arguments(call->arglist(), *c);
      e = std::move(c);
    } else if (auto *sub = dynamic_cast<P::SubscriptTrailerContext *>(t)) {
      auto *list = sub->subscriptlist();
      ExprPtr index;
      std::vector<ExprPtr> items;
      for (auto *item : list->subscript()) {
        if (auto *i = dynamic_cast<P::IndexSubscriptContext *>(item)) {
          items.push_back(namedexprTest(i->namedexpr_test()));
        } else if (auto *st = dynamic_cast<P::StarSubscriptContext *>(item)) {
          items.push_back(starExpr(st->star_expr()));
        } else {
          auto *sl = static_cast<P::SliceSubscriptContext *>(item);
          auto slice = std::make_unique<Slice>(span(sl));
          if (sl->lower) slice->lower = test(sl->lower);
          if (sl->upper) slice->upper = test(sl->upper);
          if (sl->sliceop() && sl->sliceop()->test())
            slice->step = test(sl->sliceop()->test());
          items.push_back(std::move(slice));
        }
      }
      if (items.size() == 1 && !list->trailing) {
        index = std::move(items[0]);
      } else {
        auto tup = std::make_unique<Sequence>(ExprKind::Tuple, span(list));
        tup->elts = std::move(items);
        index = std::move(tup);
      }
      e = std::make_unique<Subscript>(std::move(e), std::move(index), s);
    } else {
      auto *attr = static_cast<P::AttributeTrailerContext *>(t);
      e = std::make_unique<Attribute>(std::move(e), mangle(attr->NAME()->getText()), s);
    }
  }
  return e;
}

ExprPtr AstBuilder::starExpr(P::Star_exprContext *ctx) {
  return std::make_unique<Starred>(expr(ctx->expr()), span(ctx));
}

ExprPtr AstBuilder::testOrStar(antlr4::ParserRuleContext *ctx) {
  if (auto *t = dynamic_cast<P::TestContext *>(ctx))
    return test(t);
  if (auto *n = dynamic_cast<P::Namedexpr_testContext *>(ctx))
    return namedexprTest(n);
  return starExpr(static_cast<P::Star_exprContext *>(ctx));
}

namespace {
// Children of a list rule that are elements (test / star_expr / expr).
std::vector<antlr4::ParserRuleContext *> elementsOf(antlr4::ParserRuleContext *ctx) {
  std::vector<antlr4::ParserRuleContext *> out;
  for (auto *child : ctx->children)
    if (auto *r = dynamic_cast<antlr4::ParserRuleContext *>(child))
      if (!dynamic_cast<P::Comp_forContext *>(r))
        out.push_back(r);
  return out;
}
}  // namespace

ExprPtr AstBuilder::atom(P::AtomContext *ctx) {
  SourceSpan s = span(ctx);
  if (auto *n = dynamic_cast<P::NameAtomContext *>(ctx))
    return std::make_unique<Name>(mangle(n->NAME()->getText()), s);
  if (auto *num = dynamic_cast<P::NumberAtomContext *>(ctx)) {
    auto c = std::make_unique<Constant>(s);
    decodeNumber(num->NUMBER()->getText(), *c);
    return c;
  }
  if (auto *str = dynamic_cast<P::StringAtomContext *>(ctx))
    return strings(str);
  if (dynamic_cast<P::NoneAtomContext *>(ctx))
    return std::make_unique<Constant>(s);
  if (dynamic_cast<P::TrueAtomContext *>(ctx) || dynamic_cast<P::FalseAtomContext *>(ctx)) {
    auto c = std::make_unique<Constant>(s);
    c->type = Constant::Type::Bool;
    c->b = dynamic_cast<P::TrueAtomContext *>(ctx) != nullptr;
    return c;
  }
  if (dynamic_cast<P::EllipsisAtomContext *>(ctx)) {
    auto c = std::make_unique<Constant>(s);
    c->type = Constant::Type::Ellipsis;
    return c;
  }
  if (auto *d = dynamic_cast<P::DictAtomContext *>(ctx)) {
    DepthGuard g(*this, s);
    auto *m = d->dictorsetmaker();
    if (!m)
      return std::make_unique<Dict>(s);
    if (auto *dc = dynamic_cast<P::DictCompContext *>(m)) {
      auto c = std::make_unique<Comprehension>(s);
      c->type = Comprehension::Type::Dict;
      int yields = yieldCount_;
      auto *item = dc->dict_item();
      if (!item->test().empty()) {
        c->elt = test(item->test(0));
        c->value = test(item->test(1));
      } else {
        error(span(item), "dict unpacking cannot be used in dict comprehension");
      }
      comprehension(dc->comp_for(), *c);
      checkComprehensionWalrus(*c);
      checkNoYieldIn(*c, yields);
      return c;
    }
    if (auto *dd = dynamic_cast<P::DictDisplayContext *>(m)) {
      auto dict = std::make_unique<Dict>(s);
      for (auto *item : dd->dict_item()) {
        if (!item->test().empty()) {
          dict->keys.push_back(test(item->test(0)));
          dict->values.push_back(test(item->test(1)));
        } else {
          dict->keys.push_back(nullptr);
          dict->values.push_back(expr(item->expr()));
        }
      }
      return dict;
    }
    if (auto *sc = dynamic_cast<P::SetCompContext *>(m)) {
      auto c = std::make_unique<Comprehension>(s);
      c->type = Comprehension::Type::Set;
      int yields = yieldCount_;
      c->elt = testOrStar(elementsOf(sc)[0]);
      comprehension(sc->comp_for(), *c);
      checkComprehensionWalrus(*c);
      checkNoYieldIn(*c, yields);
      return c;
    }
    auto set = std::make_unique<Sequence>(ExprKind::Set, s);
    for (auto *el : elementsOf(m))
      set->elts.push_back(testOrStar(el));
    return set;
  }
  // ( ... ) and [ ... ]
  bool isList = dynamic_cast<P::ListAtomContext *>(ctx) != nullptr;
  if (!isList)
    if (auto *y = static_cast<P::ParenAtomContext *>(ctx)->yield_expr()) return yieldExpr(y);
  P::Testlist_compContext *tl = isList ? static_cast<P::ListAtomContext *>(ctx)->testlist_comp()
                                       : static_cast<P::ParenAtomContext *>(ctx)->testlist_comp();
  DepthGuard g(*this, s);
  if (tl && tl->comp_for()) {
    auto c = std::make_unique<Comprehension>(s);
    c->type = isList ? Comprehension::Type::List : Comprehension::Type::Generator;
    int yields = yieldCount_;
    c->elt = testOrStar(elementsOf(tl)[0]);
    comprehension(tl->comp_for(), *c);
    checkComprehensionWalrus(*c);
    checkNoYieldIn(*c, yields);
    return c;
  }
  std::vector<ExprPtr> elts;
  if (tl)
    for (auto *el : elementsOf(tl))
      elts.push_back(testOrStar(el));
  if (!isList && elts.size() == 1 && !tl->trailing && !llvm::isa<Starred>(elts[0].get())) {
    // A parenthesized expression keeps its own node (its span widens to the parens).
    return std::move(elts[0]);
  }
  auto seq = std::make_unique<Sequence>(isList ? ExprKind::List : ExprKind::Tuple, s);
  seq->elts = std::move(elts);
  return seq;
}

ExprPtr AstBuilder::strings(P::StringAtomContext *ctx) { return strings(ctx->STRING(), span(ctx)); }

ExprPtr AstBuilder::strings(const std::vector<antlr4::tree::TerminalNode *> &tokens, SourceSpan s) {
  bool anyF = false, anyBytes = false, anyStr = false;
  for (auto *t : tokens) {
    StringPrefix p = stringPrefix(t->getText());
    anyF |= p.fstring;
    (p.bytes ? anyBytes : anyStr) = true;
  }
  if (anyBytes && anyStr)
    error(s, "cannot mix bytes and nonbytes literals");
  if (!anyF) {
    auto c = std::make_unique<Constant>(s);
    c->type = anyBytes ? Constant::Type::Bytes : Constant::Type::Str;
    for (auto *t : tokens) {
      const std::string &text = t->getText();
      StringPrefix p = stringPrefix(text);
      std::string body = text.substr(p.prefixLen + p.quoteLen,
                                     text.size() - p.prefixLen - 2 * p.quoteLen);
      c->s += decodeStringBody(body, p.raw, p.bytes, span(t));
    }
    return c;
  }
  auto f = std::make_unique<FString>(s);
  for (auto *t : tokens) {
    const std::string &text = t->getText();
    StringPrefix p = stringPrefix(text);
    if (p.fstring) {
      fstringParts(t->getSymbol(), *f);
      continue;
    }
    std::string body = text.substr(p.prefixLen + p.quoteLen,
                                   text.size() - p.prefixLen - 2 * p.quoteLen);
    FString::Part part;
    part.literal = decodeStringBody(body, p.raw, false, span(t));
    f->parts.push_back(std::move(part));
  }
  return f;
}

void AstBuilder::comprehension(P::Comp_forContext *ctx, Comprehension &out) {
  while (ctx) {
    ComprehensionFor gen;
    gen.target = exprlist(ctx->exprlist());
    setContext(*gen.target, Ctx::Store);
    gen.iter = orTest(ctx->or_test());
    P::Comp_iterContext *iter = ctx->comp_iter();
    ctx = nullptr;
    while (iter) {
      if (iter->comp_for()) {
        ctx = iter->comp_for();
        break;
      }
      auto *cif = iter->comp_if();
      gen.ifs.push_back(testNocond(cif->test_nocond()));
      iter = cif->comp_iter();
    }
    out.generators.push_back(std::move(gen));
  }
}

void AstBuilder::arguments(P::ArglistContext *ctx, Call &call) {
  bool sawKeyword = false;
  for (auto *arg : ctx->argument()) {
    if (auto *g = dynamic_cast<P::GenArgumentContext *>(arg)) {
      auto c = std::make_unique<Comprehension>(span(g));
      c->type = Comprehension::Type::Generator;
      int yields = yieldCount_;
      c->elt = namedexprTest(g->namedexpr_test());
      comprehension(g->comp_for(), *c);
      checkComprehensionWalrus(*c);
      checkNoYieldIn(*c, yields);
      call.args.push_back(std::move(c));
    } else if (auto *k = dynamic_cast<P::KeywordArgumentContext *>(arg)) {
      sawKeyword = true;
      std::string name = k->NAME()->getText();
      for (const Keyword &prev : call.keywords)
        if (prev.name == name) error(span(k), "keyword argument repeated: " + name);
      call.keywords.push_back(Keyword{name, test(k->test()), span(k)});
    } else if (auto *ds = dynamic_cast<P::DoubleStarArgumentContext *>(arg)) {
      sawKeyword = true;
      call.keywords.push_back(Keyword{"", test(ds->test()), span(ds)});
    } else if (auto *st = dynamic_cast<P::StarArgumentContext *>(arg)) {
      call.args.push_back(std::make_unique<Starred>(test(st->test()), span(st)));
    } else {
      auto *p = static_cast<P::PlainArgumentContext *>(arg);
      if (sawKeyword)
        error(span(p), call.keywords.back().name.empty()
                           ? "positional argument follows keyword argument unpacking"
                           : "positional argument follows keyword argument");
      call.args.push_back(namedexprTest(p->namedexpr_test()));
    }
  }
}

namespace {
template <class Ctx>
ExprPtr listOrTuple(AstBuilder &b, Ctx *ctx, std::vector<ExprPtr> elts) {
  if (elts.size() == 1 && !ctx->trailing)
    return std::move(elts[0]);
  auto t = std::make_unique<Sequence>(ExprKind::Tuple, b.span(ctx));
  t->elts = std::move(elts);
  return t;
}
}  // namespace

ExprPtr AstBuilder::testlist(P::TestlistContext *ctx) {
  std::vector<ExprPtr> elts;
  for (auto *t : ctx->test())
    elts.push_back(test(t));
  return listOrTuple(*this, ctx, std::move(elts));
}

ExprPtr AstBuilder::testlistStar(P::Testlist_starContext *ctx) {
  std::vector<ExprPtr> elts;
  for (auto *el : elementsOf(ctx))
    elts.push_back(testOrStar(el));
  return listOrTuple(*this, ctx, std::move(elts));
}

ExprPtr AstBuilder::exprlist(P::ExprlistContext *ctx) {
  std::vector<ExprPtr> elts;
  for (auto *el : elementsOf(ctx)) {
    if (auto *e = dynamic_cast<P::ExprContext *>(el))
      elts.push_back(expr(e));
    else
      elts.push_back(starExpr(static_cast<P::Star_exprContext *>(el)));
  }
  return listOrTuple(*this, ctx, std::move(elts));
}

void AstBuilder::setContext(Expr &e, Ctx ctx) const {
  const char *what = nullptr;
  switch (e.kind) {
  case ExprKind::Name: static_cast<Name &>(e).ctx = ctx; return;
  case ExprKind::Attribute: static_cast<Attribute &>(e).ctx = ctx; return;
  case ExprKind::Subscript: static_cast<Subscript &>(e).ctx = ctx; return;
  case ExprKind::Starred:
    static_cast<Starred &>(e).ctx = ctx;
    setContext(*static_cast<Starred &>(e).value, ctx);
    return;
  case ExprKind::List:
  case ExprKind::Tuple: {
    auto &seq = static_cast<Sequence &>(e);
    seq.ctx = ctx;
    for (auto &el : seq.elts)
      setContext(*el, ctx);
    return;
  }
  case ExprKind::Constant:
    what = static_cast<Constant &>(e).type == Constant::Type::None ? "None" : "literal";
    break;
  case ExprKind::Call: what = "function call"; break;
  case ExprKind::BinOp:
  case ExprKind::UnaryOp: what = "expression"; break;
  case ExprKind::BoolOp: what = "expression"; break;
  case ExprKind::Compare: what = "comparison"; break;
  case ExprKind::Lambda: what = "lambda"; break;
  case ExprKind::IfExp: what = "conditional expression"; break;
  case ExprKind::FString: what = "f-string expression"; break;
  case ExprKind::Comprehension: what = "comprehension"; break;
  case ExprKind::Dict: what = "dict literal"; break;
  case ExprKind::Set: what = "set display"; break;
  case ExprKind::Yield:
  case ExprKind::YieldFrom: what = "yield expression"; break;
  default: what = "expression"; break;
  }
  if (ctx == Ctx::Del)
    error(e.span, fmt::format("cannot delete {}", what));
  // CPython suggests '==' only when the target could be one operand of a
  // comparison (a bitwise-or level expression), not for `a == b = c`.
  bool operand = e.kind != ExprKind::Compare && e.kind != ExprKind::BoolOp &&
                 e.kind != ExprKind::Lambda && e.kind != ExprKind::IfExp &&
                 e.kind != ExprKind::Yield && e.kind != ExprKind::YieldFrom &&
                 !(e.kind == ExprKind::UnaryOp &&
                   static_cast<UnaryOp &>(e).op == UnaryOpKind::Not) &&
                 std::string(what) != "None";
  error(e.span, fmt::format("cannot assign to {}{}", what,
                            operand ? " here. Maybe you meant '==' instead of '='?" : ""));
}

}  // namespace tfs::frontend
