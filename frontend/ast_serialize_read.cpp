// The reader of the binary AST form: mirrors ast_serialize_write.cpp (see
// the layout there). Every read is bounds-checked and every kind and enum
// value range-checked, so a damaged blob yields null (and a parse), never
// a bad tree.
#include "frontend/ast_serialize.h"

#include <cstring>

namespace tfs::frontend {

using namespace tfs::ast;

namespace {

struct Malformed {};

class Reader {
public:
  Reader(std::string_view in, const SourceFile *file) : in_(in), file_(file) {}

  bool header(uint64_t hash) {
    if (in_.size() < 16 || in_.substr(0, 8) != "TFSAST02") return false;
    uint64_t h = 0;
    for (int i = 0; i < 8; ++i) h |= uint64_t(uint8_t(in_[8 + i])) << (8 * i);
    pos_ = 16;
    if (h != hash) return false;
    uint64_t n = varint();
    if (n > in_.size()) throw Malformed{};
    strings_.reserve(n);
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t len = varint();
      need(len);
      strings_.emplace_back(in_.substr(pos_, len));
      pos_ += len;
    }
    return true;
  }

  void body(Body &out) {
    uint64_t n = count();
    out.reserve(n);
    for (uint64_t i = 0; i < n; ++i) out.push_back(stmt());
  }

  bool atEnd() const { return pos_ == in_.size(); }

private:
  std::string_view in_;
  const SourceFile *file_;
  size_t pos_ = 0;
  std::vector<std::string> strings_;

  void need(uint64_t n) {
    if (n > in_.size() - pos_) throw Malformed{};
  }
  uint8_t byte() {
    need(1);
    return uint8_t(in_[pos_++]);
  }
  // An enum value below `limit`.
  template <class E>
  E small(unsigned limit) {
    uint8_t b = byte();
    if (b >= limit) throw Malformed{};
    return E(b);
  }
  bool flag() { return small<uint8_t>(2) != 0; }
  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      uint8_t b = byte();
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    throw Malformed{};
  }
  // A count of items that each take at least one byte.
  uint64_t count() {
    uint64_t n = varint();
    need(n);
    return n;
  }
  uint32_t u32() {
    uint64_t v = varint();
    if (v > UINT32_MAX) throw Malformed{};
    return uint32_t(v);
  }
  int64_t svarint() {
    uint64_t v = varint();
    return int64_t(v >> 1) ^ -int64_t(v & 1);
  }
  double dbl() {
    need(8);
    double d;
    std::memcpy(&d, in_.data() + pos_, 8);
    pos_ += 8;
    return d;
  }
  const std::string &str() {
    uint64_t i = varint();
    if (i >= strings_.size()) throw Malformed{};
    return strings_[i];
  }
  SourceSpan span() {
    SourceSpan s;
    uint64_t lineAndFile = varint();
    if ((lineAndFile >> 1) > UINT32_MAX) throw Malformed{};
    s.file = (lineAndFile & 1) ? file_ : nullptr;
    s.line = uint32_t(lineAndFile >> 1);
    s.col = u32();
    s.endLine = u32();
    s.endCol = u32();
    return s;
  }
  Ctx ctx() { return small<Ctx>(3); }

  Pattern pattern() {
    if (++depth_ > kMaxPatternDepth) throw Malformed{};
    Pattern p;
    p.kind = small<Pattern::Kind>(uint8_t(Pattern::Kind::Or) + 1);
    p.span = span();
    p.value = expr();
    uint64_t n = count();
    for (uint64_t i = 0; i < n; ++i) p.patterns.push_back(pattern());
    p.keys = exprs();
    n = count();
    for (uint64_t i = 0; i < n; ++i) p.kwdAttrs.push_back(str());
    n = count();
    for (uint64_t i = 0; i < n; ++i) p.kwdPatterns.push_back(pattern());
    if (flag()) p.pattern = std::make_unique<Pattern>(pattern());
    p.target = expr();
    if (p.target && !llvm::isa<Name>(p.target.get())) throw Malformed{};
    --depth_;
    return p;
  }
  static constexpr int kMaxPatternDepth = 10000;
  int depth_ = 0;
  std::vector<ExprPtr> exprs() {
    uint64_t n = count();
    std::vector<ExprPtr> v;
    v.reserve(n);
    for (uint64_t i = 0; i < n; ++i) v.push_back(expr());
    return v;
  }
  std::vector<Keyword> keywords() {
    uint64_t n = count();
    std::vector<Keyword> v(n);
    for (auto &k : v) {
      k.name = str();
      k.value = expr();
      k.span = span();
    }
    return v;
  }
  std::vector<Param> params() {
    uint64_t n = count();
    std::vector<Param> v(n);
    for (auto &p : v) {
      p.name = str();
      p.kind = small<Param::Kind>(4);
      p.defaultValue = expr();
      p.annotation = expr();
      p.span = span();
    }
    return v;
  }
  std::vector<Alias> aliases() {
    uint64_t n = count();
    std::vector<Alias> v(n);
    for (auto &a : v) {
      a.name = str();
      a.asname = str();
      a.span = span();
    }
    return v;
  }

  ExprPtr expr() {
    uint8_t k = byte();
    if (k == 0) return nullptr;
    if (k > uint8_t(ExprKind::NamedExpr) + 1) throw Malformed{};
    auto kind = ExprKind(k - 1);
    SourceSpan sp = span();
    switch (kind) {
    case ExprKind::Name: {
      auto n = std::make_unique<Name>(str(), sp);
      n->ctx = ctx();
      return n;
    }
    case ExprKind::Constant: {
      auto c = std::make_unique<Constant>(sp);
      c->type = small<Constant::Type>(uint8_t(Constant::Type::BigInt) + 1);
      c->b = flag();
      c->i = svarint();
      c->f = dbl();
      c->s = str();
      return c;
    }
    case ExprKind::FString: {
      auto f = std::make_unique<FString>(sp);
      uint64_t n = count();
      f->parts.resize(n);
      for (auto &p : f->parts) {
        p.literal = str();
        if (!flag()) continue;
        FormattedValue v;
        v.value = expr();
        v.conversion = char(byte());
        v.formatSpec = expr();
        v.selfDocumenting = flag();
        v.exprText = str();
        p.value = std::move(v);
      }
      return f;
    }
    case ExprKind::BinOp: {
      auto op = small<BinOpKind>(uint8_t(BinOpKind::BitXor) + 1);
      ExprPtr l = expr();
      ExprPtr r = expr();
      return std::make_unique<BinOp>(op, std::move(l), std::move(r), sp);
    }
    case ExprKind::UnaryOp: {
      auto op = small<UnaryOpKind>(uint8_t(UnaryOpKind::Invert) + 1);
      return std::make_unique<UnaryOp>(op, expr(), sp);
    }
    case ExprKind::BoolOp: {
      auto b = std::make_unique<BoolOp>(sp);
      b->isAnd = flag();
      b->values = exprs();
      return b;
    }
    case ExprKind::Compare: {
      auto c = std::make_unique<Compare>(sp);
      c->left = expr();
      uint64_t n = count();
      for (uint64_t i = 0; i < n; ++i) c->ops.push_back(small<CmpOpKind>(uint8_t(CmpOpKind::NotIn) + 1));
      c->comparators = exprs();
      return c;
    }
    case ExprKind::Call: {
      auto c = std::make_unique<Call>(sp);
      c->func = expr();
      c->args = exprs();
      c->keywords = keywords();
      return c;
    }
    case ExprKind::Attribute: {
      ExprPtr v = expr();
      auto a = std::make_unique<Attribute>(std::move(v), str(), sp);
      a->ctx = ctx();
      return a;
    }
    case ExprKind::Subscript: {
      ExprPtr v = expr();
      ExprPtr i = expr();
      auto s = std::make_unique<Subscript>(std::move(v), std::move(i), sp);
      s->ctx = ctx();
      return s;
    }
    case ExprKind::Slice: {
      auto s = std::make_unique<Slice>(sp);
      s->lower = expr();
      s->upper = expr();
      s->step = expr();
      return s;
    }
    case ExprKind::List:
    case ExprKind::Tuple:
    case ExprKind::Set: {
      auto s = std::make_unique<Sequence>(kind, sp);
      s->elts = exprs();
      s->ctx = ctx();
      return s;
    }
    case ExprKind::Dict: {
      auto d = std::make_unique<Dict>(sp);
      d->keys = exprs();
      d->values = exprs();
      return d;
    }
    case ExprKind::Comprehension: {
      auto c = std::make_unique<Comprehension>(sp);
      c->type = small<Comprehension::Type>(uint8_t(Comprehension::Type::Generator) + 1);
      c->elt = expr();
      c->value = expr();
      uint64_t n = count();
      c->generators.resize(n);
      for (auto &g : c->generators) {
        g.target = expr();
        g.iter = expr();
        g.ifs = exprs();
      }
      return c;
    }
    case ExprKind::Lambda: {
      auto l = std::make_unique<Lambda>(sp);
      l->params = params();
      l->body = expr();
      l->isGenerator = flag();
      return l;
    }
    case ExprKind::IfExp: {
      auto i = std::make_unique<IfExp>(sp);
      i->test = expr();
      i->body = expr();
      i->orelse = expr();
      return i;
    }
    case ExprKind::Starred: {
      auto s = std::make_unique<Starred>(expr(), sp);
      s->ctx = ctx();
      return s;
    }
    case ExprKind::Yield:
    case ExprKind::YieldFrom:
      return std::make_unique<Yield>(kind, expr(), sp);
    case ExprKind::NamedExpr: {
      ExprPtr target = expr();
      if (!target || !llvm::isa<Name>(target.get())) throw Malformed{};
      ExprPtr value = expr();
      if (!value) throw Malformed{};
      return std::make_unique<NamedExpr>(std::move(target), std::move(value), sp);
    }
    }
    throw Malformed{};
  }

  StmtPtr stmt() {
    uint8_t k = byte();
    if (k == 0 || k > uint8_t(StmtKind::Match) + 1) throw Malformed{};
    auto kind = StmtKind(k - 1);
    SourceSpan sp = span();
    switch (kind) {
    case StmtKind::FunctionDef: {
      auto f = std::make_unique<FunctionDef>(str(), sp);
      f->params = params();
      body(f->body);
      f->decorators = exprs();
      f->returns = expr();
      f->isGenerator = flag();
      return f;
    }
    case StmtKind::ClassDef: {
      auto c = std::make_unique<ClassDef>(str(), sp);
      c->bases = exprs();
      c->keywords = keywords();
      body(c->body);
      c->decorators = exprs();
      return c;
    }
    case StmtKind::Return: {
      auto r = std::make_unique<Return>(sp);
      r->value = expr();
      return r;
    }
    case StmtKind::Assign: {
      auto a = std::make_unique<Assign>(sp);
      a->targets = exprs();
      a->value = expr();
      a->annotation = expr();
      return a;
    }
    case StmtKind::AugAssign: {
      auto a = std::make_unique<AugAssign>(sp);
      a->target = expr();
      a->op = small<BinOpKind>(uint8_t(BinOpKind::BitXor) + 1);
      a->value = expr();
      return a;
    }
    case StmtKind::ExprStmt:
      return std::make_unique<ExprStmt>(expr(), sp);
    case StmtKind::If: {
      auto i = std::make_unique<If>(sp);
      i->test = expr();
      body(i->body);
      body(i->orelse);
      return i;
    }
    case StmtKind::While: {
      auto w = std::make_unique<While>(sp);
      w->test = expr();
      body(w->body);
      body(w->orelse);
      return w;
    }
    case StmtKind::For: {
      auto f = std::make_unique<For>(sp);
      f->target = expr();
      f->iter = expr();
      body(f->body);
      body(f->orelse);
      return f;
    }
    case StmtKind::Break:
      return std::make_unique<Break>(sp);
    case StmtKind::Continue:
      return std::make_unique<Continue>(sp);
    case StmtKind::Pass:
      return std::make_unique<Pass>(sp);
    case StmtKind::With: {
      auto w = std::make_unique<With>(sp);
      uint64_t n = count();
      w->items.resize(n);
      for (auto &it : w->items) {
        it.context = expr();
        it.target = expr();
      }
      body(w->body);
      return w;
    }
    case StmtKind::Try: {
      auto t = std::make_unique<Try>(sp);
      body(t->body);
      uint64_t n = count();
      t->handlers.resize(n);
      for (auto &h : t->handlers) {
        h.type = expr();
        h.name = str();
        body(h.body);
        h.span = span();
      }
      body(t->orelse);
      body(t->finalbody);
      t->isStar = flag();
      return t;
    }
    case StmtKind::Raise: {
      auto r = std::make_unique<Raise>(sp);
      r->exc = expr();
      r->cause = expr();
      return r;
    }
    case StmtKind::Assert: {
      auto a = std::make_unique<Assert>(sp);
      a->test = expr();
      a->msg = expr();
      return a;
    }
    case StmtKind::Import: {
      auto i = std::make_unique<Import>(sp);
      i->names = aliases();
      return i;
    }
    case StmtKind::ImportFrom: {
      auto i = std::make_unique<ImportFrom>(sp);
      i->module = str();
      int64_t level = svarint();
      if (level < 0 || level > INT32_MAX) throw Malformed{};
      i->level = int(level);
      i->names = aliases();
      return i;
    }
    case StmtKind::Global:
    case StmtKind::Nonlocal: {
      auto d = std::make_unique<ScopeDecl>(kind, sp);
      uint64_t n = count();
      for (uint64_t i = 0; i < n; ++i) d->names.push_back(str());
      return d;
    }
    case StmtKind::Delete: {
      auto d = std::make_unique<Delete>(sp);
      d->targets = exprs();
      return d;
    }
    case StmtKind::Match: {
      auto m = std::make_unique<Match>(sp);
      m->subject = expr();
      if (!m->subject) throw Malformed{};
      uint64_t n = count();
      m->cases.resize(n);
      for (auto &c : m->cases) {
        c.pattern = pattern();
        c.guard = expr();
        body(c.body);
        c.span = span();
      }
      return m;
    }
    }
    throw Malformed{};
  }
};

}  // namespace

std::unique_ptr<Module> deserializeModule(std::string_view blob, std::shared_ptr<const SourceFile> file) {
  Reader r(blob, file.get());
  auto module = std::make_unique<Module>();
  try {
    if (!r.header(sourceTextHash(file->text()))) return nullptr;
    r.body(module->body);
  } catch (Malformed &) {
    return nullptr;
  }
  if (!r.atEnd()) return nullptr;
  module->file = file.get();
  module->owner = std::move(file);
  return module;
}

}  // namespace tfs::frontend
