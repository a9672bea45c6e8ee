// convertFunction: the converter pipeline (see autograph.h). Nested user
// functions are converted first, each with its own context; then the
// passes run over the function body in a fixed order.
#include "autograph/autograph.h"
#include "autograph/passes.h"

namespace tfs::autograph {

using namespace tfs::ast;

namespace {
void convertNestedDefs(Body &body, const ConvertOptions &options) {
  for (auto &s : body) {
    switch (s->kind) {
    case StmtKind::FunctionDef: {
      auto &f = static_cast<FunctionDef &>(*s);
      std::vector<ExprPtr> decorators = std::move(f.decorators);
      auto converted = convertFunction(f, options);
      converted->decorators = std::move(decorators);
      s = std::move(converted);
      break;
    }
    case StmtKind::If: {
      auto &i = static_cast<If &>(*s);
      convertNestedDefs(i.body, options);
      convertNestedDefs(i.orelse, options);
      break;
    }
    case StmtKind::While: convertNestedDefs(static_cast<While &>(*s).body, options); break;
    case StmtKind::For: convertNestedDefs(static_cast<For &>(*s).body, options); break;
    case StmtKind::With: convertNestedDefs(static_cast<With &>(*s).body, options); break;
    case StmtKind::Try: {
      auto &t = static_cast<Try &>(*s);
      convertNestedDefs(t.body, options);
      for (auto &h : t.handlers) convertNestedDefs(h.body, options);
      convertNestedDefs(t.orelse, options);
      convertNestedDefs(t.finalbody, options);
      break;
    }
    default: break;
    }
  }
}
}  // namespace

std::unique_ptr<FunctionDef> convertFunction(const FunctionDef &fn, const ConvertOptions &options) {
  auto out = std::unique_ptr<FunctionDef>(static_cast<FunctionDef *>(fn.clone().release()));
  out->decorators.clear();  // the converted function is the undecorated body
  // A generator runs as written: TF's AutoGraph does not convert generators.
  if (out->isGenerator) return out;
  convertNestedDefs(out->body, options);
  ConvertContext ctx;
  ctx.convertCalls = options.convertCalls;
  for (const auto &p : out->params) ctx.taken.insert(p.name);
  Usage usage = usageOf(out->body);
  ctx.taken.insert(usage.reads.begin(), usage.reads.end());
  ctx.taken.insert(usage.writes.begin(), usage.writes.end());
  forEachExprSlot(out->body, [&](ExprPtr &slot) {
    rewriteExpr(slot, [&](ExprPtr &e) {
      if (auto *n = llvm::dyn_cast<Name>(e.get())) ctx.taken.insert(n->id);
    });
  }, /*intoFunctions=*/true);
  convertBreaks(out->body, ctx);
  convertContinues(out->body, ctx);
  convertReturns(*out, ctx);
  convertCallTrees(out->body, ctx);
  convertExpressions(out->body, ctx);
  convertControlFlow(*out, ctx);
  return out;
}

}  // namespace tfs::autograph
