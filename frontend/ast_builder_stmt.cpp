// AstBuilder, statements (Tfs.g4 "Statements"): simple statements by their
// labeled alternative, compound statements by rule; `elif` chains become
// nested Ifs in `orelse`, decorators attach to their def/class.
#include "frontend/ast_builder.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace tfs::frontend {

using namespace tfs::ast;

SourceSpan AstBuilder::span(antlr4::Token *tok) const {
  SourceSpan s;
  s.file = file_;
  s.line = uint32_t(tok->getLine());
  s.col = uint32_t(tok->getCharPositionInLine() + 1);
  s.endLine = s.line;
  // Columns count code points (ANTLR's positions do), not UTF-8 bytes. A
  // lexed token's text is the input's code points start..stop (the input
  // stream holds code points), so its length needs no getText(), which
  // converts the text to UTF-8 (~8% of parsing the Keras prelude). Tokens
  // made by IndentTokenSource (no input interval) and EOF count their text.
  size_t start = tok->getStartIndex(), stop = tok->getStopIndex();
  antlr4::CharStream *input = tok->getInputStream();
  if (input && start != INVALID_INDEX && stop != INVALID_INDEX && stop >= start && stop < input->size()) {
    s.endCol = s.col + uint32_t(stop - start + 1);
    return s;
  }
  std::string text = tok->getText();
  s.endCol = s.col + uint32_t(std::count_if(text.begin(), text.end(), [](char c) {
               return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
             }));
  return s;
}

SourceSpan AstBuilder::span(antlr4::ParserRuleContext *ctx) const {
  SourceSpan s = span(ctx->getStart());
  if (antlr4::Token *stop = ctx->getStop()) {
    SourceSpan e = span(stop);
    if (e.line > s.line || (e.line == s.line && e.endCol >= s.col)) {
      s.endLine = e.endLine;
      s.endCol = e.endCol;
    }
  }
  return s;
}

void AstBuilder::error(const SourceSpan &at, std::string msg, std::string cls) const {
  throw SyntaxErrorException{Diagnostic{std::move(cls), std::move(msg), at, {}, {}}};
}

Body AstBuilder::fileInput(P::File_inputContext *ctx) {
  Body body;
  for (auto *s : ctx->stmt())
    stmt(s, body);
  return body;
}

ExprPtr AstBuilder::evalInput(P::Eval_inputContext *ctx) { return testlist(ctx->testlist()); }

void AstBuilder::stmt(P::StmtContext *ctx, Body &out) {
  if (ctx->simple_stmts())
    simpleStmts(ctx->simple_stmts(), out);
  else
    out.push_back(compoundStmt(ctx->compound_stmt()));
}

void AstBuilder::simpleStmts(P::Simple_stmtsContext *ctx, Body &out) {
  for (auto *s : ctx->simple_stmt())
    out.push_back(simpleStmt(s));
}

Body AstBuilder::block(P::BlockContext *ctx) {
  Body body;
  if (ctx->simple_stmts()) {
    simpleStmts(ctx->simple_stmts(), body);
  } else {
    for (auto *s : ctx->stmt())
      stmt(s, body);
  }
  return body;
}

namespace {
BinOpKind augOpOf(const std::string &s) {
  static const std::pair<const char *, BinOpKind> table[] = {
      {"+=", BinOpKind::Add},     {"-=", BinOpKind::Sub},      {"*=", BinOpKind::Mul},
      {"@=", BinOpKind::MatMul},  {"/=", BinOpKind::Div},      {"%=", BinOpKind::Mod},
      {"&=", BinOpKind::BitAnd},  {"|=", BinOpKind::BitOr},    {"^=", BinOpKind::BitXor},
      {"<<=", BinOpKind::LShift}, {">>=", BinOpKind::RShift},  {"**=", BinOpKind::Pow},
      {"//=", BinOpKind::FloorDiv}};
  for (auto &[text, op] : table)
    if (s == text) return op;
  return BinOpKind::Add;
}

std::string dotted(P::Dotted_nameContext *ctx) {
  std::string out;
  for (auto *n : ctx->NAME()) {
    if (!out.empty()) out += '.';
    out += n->getText();
  }
  return out;
}
}  // namespace

StmtPtr AstBuilder::simpleStmt(P::Simple_stmtContext *ctx) {
  SourceSpan s = span(ctx);
  if (dynamic_cast<P::PassStmtContext *>(ctx))
    return std::make_unique<Pass>(s);
  if (dynamic_cast<P::BreakStmtContext *>(ctx)) {
    if (loopDepth_ == 0) error(s, "'break' outside loop");
    return std::make_unique<Break>(s);
  }
  if (dynamic_cast<P::ContinueStmtContext *>(ctx)) {
    if (loopDepth_ == 0) error(s, "'continue' not properly in loop");
    return std::make_unique<Continue>(s);
  }
  if (auto *r = dynamic_cast<P::ReturnStmtContext *>(ctx)) {
    if (functionDepth_ == 0) error(s, "'return' outside function");
    auto ret = std::make_unique<Return>(s);
    if (r->testlist_star()) ret->value = testlistStar(r->testlist_star());
    return ret;
  }
  if (auto *r = dynamic_cast<P::RaiseStmtContext *>(ctx)) {
    auto raise = std::make_unique<Raise>(s);
    if (!r->test().empty()) raise->exc = test(r->test(0));
    if (r->test().size() > 1) raise->cause = test(r->test(1));
    return raise;
  }
  if (auto *g = dynamic_cast<P::GlobalStmtContext *>(ctx)) {
    auto d = std::make_unique<ScopeDecl>(StmtKind::Global, s);
    for (auto *n : g->NAME()) d->names.push_back(n->getText());
    return d;
  }
  if (auto *g = dynamic_cast<P::NonlocalStmtContext *>(ctx)) {
    if (functionDepth_ == 0) error(s, "nonlocal declaration not allowed at module level");
    auto d = std::make_unique<ScopeDecl>(StmtKind::Nonlocal, s);
    for (auto *n : g->NAME()) d->names.push_back(n->getText());
    return d;
  }
  if (auto *d = dynamic_cast<P::DelStmtContext *>(ctx)) {
    auto del = std::make_unique<Delete>(s);
    ExprPtr targets = exprlist(d->exprlist());
    if (targets->kind == ExprKind::Tuple && !d->exprlist()->trailing) {
      for (auto &t : static_cast<Sequence &>(*targets).elts) {
        setContext(*t, Ctx::Del);
        del->targets.push_back(std::move(t));
      }
    } else {
      setContext(*targets, Ctx::Del);
      del->targets.push_back(std::move(targets));
    }
    return del;
  }
  if (auto *a = dynamic_cast<P::AssertStmtContext *>(ctx)) {
    auto as = std::make_unique<Assert>(s);
    as->test = test(a->test(0));
    if (a->test().size() > 1) as->msg = test(a->test(1));
    return as;
  }
  if (auto *im = dynamic_cast<P::ImportStmtContext *>(ctx)) {
    auto imp = std::make_unique<Import>(s);
    for (auto *n : im->dotted_as_name())
      imp->names.push_back(Alias{dotted(n->dotted_name()), n->NAME() ? n->NAME()->getText() : "",
                                 span(n)});
    return imp;
  }
  if (auto *im = dynamic_cast<P::ImportFromStmtContext *>(ctx)) {
    auto imp = std::make_unique<ImportFrom>(s);
    auto *source = im->import_source();
    for (auto *d : source->relative_dot()) imp->level += d->getText() == "..." ? 3 : 1;
    if (source->dotted_name()) imp->module = dotted(source->dotted_name());
    if (imp->module == "__future__" && im->import_as_names())
      for (auto *n : im->import_as_names()->import_as_name()) {
        static const std::set<std::string> kFeatures = {
            "nested_scopes",  "generators",       "division",       "absolute_import", "with_statement",
            "print_function", "unicode_literals", "barry_as_FLUFL", "generator_stop",  "annotations"};
        std::string feature = n->NAME(0)->getText();
        if (!kFeatures.count(feature)) error(s, "future feature " + feature + " is not defined");
        if (feature == "barry_as_FLUFL") error(s, "'from __future__ import barry_as_FLUFL' is not supported by tfs");
        if (feature == "annotations") postponedAnnotations_ = true;
      }
    if (!im->import_as_names()) {
      if (functionDepth_ > 0) error(s, "import * only allowed at module level");
      imp->names.push_back(Alias{"*", "", s});
    } else {
      for (auto *n : im->import_as_names()->import_as_name())
        imp->names.push_back(Alias{n->NAME(0)->getText(),
                                   n->NAME().size() > 1 ? n->NAME(1)->getText() : "", span(n)});
    }
    return imp;
  }
  if (auto *aug = dynamic_cast<P::AugAssignStmtContext *>(ctx)) {
    auto st = std::make_unique<AugAssign>(s);
    st->target = testlistStar(aug->testlist_star());
    if (!llvm::isa<Name>(st->target.get()) && !llvm::isa<Attribute>(st->target.get()) &&
        !llvm::isa<Subscript>(st->target.get())) {
      // CPython names the kind of expression ('tuple', 'literal', ...).
      ExprKind k = st->target->kind;
      const char *what = k == ExprKind::Tuple ? "tuple"
                         : k == ExprKind::List ? "list"
                         : k == ExprKind::Constant ? "literal"
                         : k == ExprKind::Call ? "function call"
                         : k == ExprKind::Compare ? "comparison"
                         : k == ExprKind::Starred ? "starred"
                                                  : "expression";
      error(st->target->span,
            fmt::format("'{}' is an illegal expression for augmented assignment", what));
    }
    setContext(*st->target, Ctx::Store);
    st->op = augOpOf(aug->augassign()->getText());
    st->value = aug->yield_expr() ? yieldExpr(aug->yield_expr()) : testlist(aug->testlist());
    return st;
  }
  if (auto *ann = dynamic_cast<P::AnnAssignStmtContext *>(ctx)) {
    auto st = std::make_unique<Assign>(s);
    st->targets.push_back(testlistStar(ann->testlist_star()));
    setContext(*st->targets.back(), Ctx::Store);
    if (functionDepth_ == 0) {
      // Module and class level: the annotation is recorded.
      st->annotation = annotation(ann->test());
    } else if (!ann->assign_value()) {
      return std::make_unique<Pass>(s);  // a bare annotation binds nothing
    }
    if (ann->assign_value()) st->value = assignValue(ann->assign_value());
    return st;
  }
  auto *es = static_cast<P::ExprStmtContext *>(ctx);
  auto parts = es->assign_value();
  if (parts.size() == 1)
    return std::make_unique<ExprStmt>(assignValue(parts[0]), s);
  auto st = std::make_unique<Assign>(s);
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    st->targets.push_back(assignValue(parts[i]));
    if (st->targets.back()->kind == ExprKind::Starred)  // `*a = ...`
      error(st->targets.back()->span, "starred assignment target must be in a list or tuple");
    setContext(*st->targets.back(), Ctx::Store);
  }
  st->value = assignValue(parts.back());
  return st;
}

StmtPtr AstBuilder::compoundStmt(P::Compound_stmtContext *ctx) {
  if (ctx->if_stmt())
    return ifStmt(ctx->if_stmt());
  if (auto *m = ctx->match_stmt())
    return matchStmt(m);
  if (auto *w = ctx->while_stmt()) {
    auto st = std::make_unique<While>(span(w));
    st->test = namedexprTest(w->namedexpr_test());
    ++loopDepth_;
    st->body = block(w->block(0));
    --loopDepth_;
    if (w->block().size() > 1) st->orelse = block(w->block(1));
    return st;
  }
  if (auto *f = ctx->for_stmt()) {
    auto st = std::make_unique<For>(span(f));
    st->target = exprlist(f->exprlist());
    setContext(*st->target, Ctx::Store);
    st->iter = testlist(f->testlist());
    ++loopDepth_;
    st->body = block(f->block(0));
    --loopDepth_;
    if (f->block().size() > 1) st->orelse = block(f->block(1));
    return st;
  }
  if (ctx->try_stmt())
    return tryStmt(ctx->try_stmt());
  if (auto *w = ctx->with_stmt()) {
    auto st = std::make_unique<With>(span(w));
    for (auto *item : w->with_item()) {
      WithItem wi;
      wi.context = test(item->test());
      if (item->expr()) {
        wi.target = expr(item->expr());
        setContext(*wi.target, Ctx::Store);
      }
      st->items.push_back(std::move(wi));
    }
    st->body = block(w->block());
    return st;
  }
  if (ctx->funcdef())
    return funcdef(ctx->funcdef());
  if (ctx->classdef())
    return classdef(ctx->classdef());
  auto *dec = ctx->decorated();
  std::vector<ExprPtr> decorators;
  for (auto *d : dec->decorator())
    decorators.push_back(test(d->test()));
  StmtPtr target = dec->funcdef() ? funcdef(dec->funcdef()) : classdef(dec->classdef());
  if (auto *fn = llvm::dyn_cast<FunctionDef>(target.get()))
    fn->decorators = std::move(decorators);
  else
    llvm::cast<ClassDef>(target.get())->decorators = std::move(decorators);
  return target;
}

StmtPtr AstBuilder::ifStmt(P::If_stmtContext *ctx) {
  auto top = std::make_unique<If>(span(ctx));
  top->test = namedexprTest(ctx->namedexpr_test());
  top->body = block(ctx->block(0));
  If *cur = top.get();
  for (auto *elif : ctx->elif_clause()) {
    auto next = std::make_unique<If>(span(elif));
    next->test = namedexprTest(elif->namedexpr_test());
    next->body = block(elif->block());
    If *raw = next.get();
    cur->orelse.push_back(std::move(next));
    cur = raw;
  }
  if (ctx->block().size() > 1)
    cur->orelse = block(ctx->block(1));
  return top;
}

// CPython: an except* block cannot jump out of the handler (the other
// handlers of the group still have to run): break / continue outside a loop
// of its own, or return, are SyntaxErrors.
void AstBuilder::checkExceptStarBody(const Body &body, bool inLoop) const {
  for (const auto &s : body) {
    switch (s->kind) {
    case StmtKind::Break:
    case StmtKind::Continue:
      if (inLoop) break;
      [[fallthrough]];
    case StmtKind::Return: error(s->span, "'break', 'continue' and 'return' cannot appear in an except* block");
    case StmtKind::If: {
      auto &i = static_cast<const If &>(*s);
      checkExceptStarBody(i.body, inLoop);
      checkExceptStarBody(i.orelse, inLoop);
      break;
    }
    case StmtKind::While:
    case StmtKind::For: {
      auto &loopBody = s->kind == StmtKind::While ? static_cast<const While &>(*s).body : static_cast<const For &>(*s).body;
      auto &orelse = s->kind == StmtKind::While ? static_cast<const While &>(*s).orelse : static_cast<const For &>(*s).orelse;
      checkExceptStarBody(loopBody, true);
      checkExceptStarBody(orelse, inLoop);
      break;
    }
    case StmtKind::With: checkExceptStarBody(static_cast<const With &>(*s).body, inLoop); break;
    case StmtKind::Try: {
      auto &t = static_cast<const Try &>(*s);
      checkExceptStarBody(t.body, inLoop);
      for (const auto &h : t.handlers) checkExceptStarBody(h.body, inLoop);
      checkExceptStarBody(t.orelse, inLoop);
      checkExceptStarBody(t.finalbody, inLoop);
      break;
    }
    case StmtKind::Match:
      for (const auto &c : static_cast<const Match &>(*s).cases) checkExceptStarBody(c.body, inLoop);
      break;
    default: break;
    }
  }
}

StmtPtr AstBuilder::tryStmt(P::Try_stmtContext *ctx) {
  auto st = std::make_unique<Try>(span(ctx));
  auto blocks = ctx->block();
  st->body = block(blocks[0]);
  size_t next = 1;
  auto clauses = ctx->except_clause();
  for (auto *ex : clauses) {
    bool star = ex->star != nullptr;
    if (ex == clauses[0]) st->isStar = star;
    else if (star != st->isStar) error(span(ex->getStart()), "cannot have both 'except' and 'except*' on the same 'try'");
    if (star && !ex->test()) error(span(ex->star), "expected one or more exception types");
    ExceptHandler h;
    h.span = span(ex);
    if (ex->test()) h.type = test(ex->test());
    if (ex->NAME()) h.name = ex->NAME()->getText();
    h.body = block(ex->block());
    if (star) checkExceptStarBody(h.body, false);
    st->handlers.push_back(std::move(h));
  }
  // Remaining blocks: `else` then `finally` (the keywords tell which).
  for (auto *child : ctx->children) {
    auto *term = dynamic_cast<antlr4::tree::TerminalNode *>(child);
    if (!term) continue;
    std::string kw = term->getText();
    if ((kw == "else" || kw == "finally") && next < blocks.size()) {
      (kw == "else" ? st->orelse : st->finalbody) = block(blocks[next++]);
    }
  }
  return st;
}

ExprPtr AstBuilder::annotation(P::TestContext *ctx) {
  if (!postponedAnnotations_) return test(ctx);
  auto text = std::make_unique<Constant>(span(ctx));
  text->type = Constant::Type::Str;
  antlr4::Token *a = ctx->getStart(), *b = ctx->getStop();
  text->s = a->getInputStream()->getText(antlr4::misc::Interval(a->getStartIndex(), b->getStopIndex()));
  // CPython stores the unparsed expression: a string literal in its repr.
  if (text->s.size() >= 2 && text->s.front() == '"' && text->s.back() == '"' &&
      text->s.find('\'') == std::string::npos && text->s.find('"', 1) == text->s.size() - 1)
    text->s = "'" + text->s.substr(1, text->s.size() - 2) + "'";
  return text;
}

namespace {
// CPython's SyntaxError for a `/` (positional-only) marker where it cannot
// stand, or null. The AST keeps no marker: the runtime finds it in the
// source between two parameters (positional_only.cpp).
const char *slashMarkerError(bool first, bool afterStar, bool seenBefore) {
  if (seenBefore) return "/ may appear only once";
  if (afterStar) return "/ must be ahead of *";
  if (first) return "at least one argument must precede /";
  return nullptr;
}
}  // namespace

std::vector<Param> AstBuilder::parameters(P::ParametersContext *ctx) {
  std::vector<Param> out;
  bool keywordOnly = false, sawDefault = false, slashSeen = false;
  for (auto *p : ctx->param()) {
    Param param;
    param.span = span(p);
    if (auto *pl = dynamic_cast<P::PlainParamContext *>(p)) {
      param.name = pl->NAME()->getText();
      param.kind = keywordOnly ? Param::Kind::KeywordOnly : Param::Kind::Positional;
      auto tests = pl->test();
      // `x: T = d` has two tests, `x = d` one after '=', `x: T` one after ':'.
      bool hasDefault = false;
      for (auto *child : pl->children)
        if (child->getText() == "=") hasDefault = true;
      if (tests.size() == 2 || (tests.size() == 1 && !hasDefault)) param.annotation = annotation(tests[0]);
      if (hasDefault) {
        param.defaultValue = test(tests.back());
        sawDefault = true;
      } else if (sawDefault && !keywordOnly) {
        error(param.span, "non-default argument follows default argument");
      }
    } else if (auto *st = dynamic_cast<P::StarParamContext *>(p)) {
      keywordOnly = true;
      if (!st->NAME()) continue;
      param.name = st->NAME()->getText();
      param.kind = Param::Kind::VarArgs;
      if (st->test()) param.annotation = annotation(st->test());
    } else if (auto *ds = dynamic_cast<P::DoubleStarParamContext *>(p)) {
      param.name = ds->NAME()->getText();
      param.kind = Param::Kind::VarKeywords;
      if (ds->test()) param.annotation = annotation(ds->test());
    } else {
      if (const char *why = slashMarkerError(out.empty(), keywordOnly, slashSeen)) error(span(p), why);
      slashSeen = true;
      continue;
    }
    for (const Param &q : out)
      if (q.name == param.name)
        error(param.span, fmt::format("duplicate argument '{}' in function definition", q.name));
    out.push_back(std::move(param));
  }
  return out;
}

std::vector<Param> AstBuilder::lambdaParams(P::Lambda_paramsContext *ctx) {
  std::vector<Param> out;
  bool keywordOnly = false, sawDefault = false, slashSeen = false;
  for (auto *p : ctx->lambda_param()) {
    Param param;
    param.span = span(p);
    if (auto *pl = dynamic_cast<P::PlainLambdaParamContext *>(p)) {
      param.name = pl->NAME()->getText();
      param.kind = keywordOnly ? Param::Kind::KeywordOnly : Param::Kind::Positional;
      if (pl->test()) {
        param.defaultValue = test(pl->test());
        sawDefault = true;
      } else if (sawDefault && !keywordOnly) {
        error(param.span, "non-default argument follows default argument");
      }
    } else if (auto *st = dynamic_cast<P::StarLambdaParamContext *>(p)) {
      keywordOnly = true;
      if (!st->NAME()) continue;
      param.name = st->NAME()->getText();
      param.kind = Param::Kind::VarArgs;
    } else if (auto *ds = dynamic_cast<P::DoubleStarLambdaParamContext *>(p)) {
      param.name = ds->NAME()->getText();
      param.kind = Param::Kind::VarKeywords;
    } else {
      if (const char *why = slashMarkerError(out.empty(), keywordOnly, slashSeen)) error(span(p), why);
      slashSeen = true;
      continue;
    }
    for (const Param &q : out)
      if (q.name == param.name)
        error(param.span, fmt::format("duplicate argument '{}' in function definition", q.name));
    out.push_back(std::move(param));
  }
  return out;
}

StmtPtr AstBuilder::funcdef(P::FuncdefContext *ctx) {
  auto fn = std::make_unique<FunctionDef>(mangle(ctx->NAME()->getText()), span(ctx));
  if (ctx->parameters())
    fn->params = parameters(ctx->parameters());
  if (ctx->test()) fn->returns = annotation(ctx->test());
  ++functionDepth_;
  int savedLoops = loopDepth_;
  bool *savedGenerator = generatorFlag_;
  loopDepth_ = 0;
  generatorFlag_ = &fn->isGenerator;
  bool savedClass = classScope_;
  classScope_ = false;
  fn->body = block(ctx->block());
  classScope_ = savedClass;
  generatorFlag_ = savedGenerator;
  loopDepth_ = savedLoops;
  --functionDepth_;
  return fn;
}

StmtPtr AstBuilder::classdef(P::ClassdefContext *ctx) {
  auto cls = std::make_unique<ClassDef>(ctx->NAME()->getText(), span(ctx));
  if (ctx->arglist()) {
    Call tmp(span(ctx));
    arguments(ctx->arglist(), tmp);
    cls->bases = std::move(tmp.args);
    cls->keywords = std::move(tmp.keywords);
  }
  int savedLoops = loopDepth_, savedFns = functionDepth_;
  bool *savedGenerator = generatorFlag_;
  loopDepth_ = 0;
  functionDepth_ = 0;
  generatorFlag_ = nullptr;
  bool savedClass = classScope_;
  classScope_ = true;
  std::string savedClassName = className_;
  className_ = cls->name;
  cls->body = block(ctx->block());
  className_ = savedClassName;
  classScope_ = savedClass;
  generatorFlag_ = savedGenerator;
  loopDepth_ = savedLoops;
  functionDepth_ = savedFns;
  return cls;
}

// CPython's private name mangling: `__x` (not a dunder, no dot) inside
// class C is `_C__x`; a class named only of underscores mangles nothing.
std::string AstBuilder::mangle(std::string name) const {
  if (className_.empty() || name.size() < 3 || name[0] != '_' || name[1] != '_') return name;
  if (name.size() >= 4 && name[name.size() - 1] == '_' && name[name.size() - 2] == '_') return name;
  size_t lead = className_.find_first_not_of('_');
  if (lead == std::string::npos) return name;
  return "_" + className_.substr(lead) + name;
}

}  // namespace tfs::frontend
