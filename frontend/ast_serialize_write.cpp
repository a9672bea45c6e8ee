// The writer of the binary AST form (ast_serialize.h). Layout:
//   magic "TFSAST02", u64 text hash (little-endian),
//   varint string count, then each string (varint length, bytes),
//   the module body.
// A node is its kind (+1; 0 is a null expression) then its fields in the
// order of ast.h; strings are indices into the table (names repeat a lot),
// integers LEB128 varints (signed ones zigzag-coded), a double its 8 bytes.
// A span is line*2+(has file), col, endLine, endCol: every span of a parsed
// module is in its own file or in none. The reader
// (ast_serialize_read.cpp) mirrors this function for function.
#include "frontend/ast_serialize.h"

#include <cstring>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

namespace tfs::frontend {

using namespace tfs::ast;

uint64_t sourceTextHash(std::string_view text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

namespace {

class Writer {
public:
  explicit Writer(const SourceFile *file) : file_(file) {}

  std::string finish(uint64_t hash) {
    std::string head = "TFSAST02";
    for (int i = 0; i < 8; ++i) head += char((hash >> (8 * i)) & 0xff);
    std::swap(out_, head);  // out_: header then table; head: the body written so far
    varint(strings_.size());
    for (const std::string *s : strings_) {
      varint(s->size());
      out_ += *s;
    }
    return out_ + head;
  }

  void body(const Body &b) {
    varint(b.size());
    for (const auto &s : b) stmt(*s);
  }

private:
  const SourceFile *file_;
  std::string out_;
  std::unordered_map<std::string, uint64_t> index_;
  std::vector<const std::string *> strings_;

  void byte(uint8_t b) { out_ += char(b); }
  void varint(uint64_t v) {
    while (v >= 0x80) {
      out_ += char((v & 0x7f) | 0x80);
      v >>= 7;
    }
    out_ += char(v);
  }
  void svarint(int64_t v) { varint((uint64_t(v) << 1) ^ uint64_t(v >> 63)); }
  void dbl(double d) {
    char b[8];
    std::memcpy(b, &d, 8);
    out_.append(b, 8);
  }
  void str(const std::string &s) {
    auto [it, fresh] = index_.emplace(s, strings_.size());
    if (fresh) strings_.push_back(&it->first);
    varint(it->second);
  }
  void span(const SourceSpan &s) {
    if (s.file && s.file != file_) throw std::logic_error("AST span into another file");
    varint(uint64_t(s.line) * 2 + (s.file ? 1 : 0));
    varint(s.col);
    varint(s.endLine);
    varint(s.endCol);
  }
  template <class E>
  void ctx(const E &e) { byte(uint8_t(e.ctx)); }

  void pattern(const Pattern &p) {
    byte(uint8_t(p.kind));
    span(p.span);
    expr(p.value.get());
    varint(p.patterns.size());
    for (const auto &q : p.patterns) pattern(q);
    exprs(p.keys);
    varint(p.kwdAttrs.size());
    for (const auto &a : p.kwdAttrs) str(a);
    varint(p.kwdPatterns.size());
    for (const auto &q : p.kwdPatterns) pattern(q);
    byte(p.pattern ? 1 : 0);
    if (p.pattern) pattern(*p.pattern);
    expr(p.target.get());
  }
  void exprs(const std::vector<ExprPtr> &v) {
    varint(v.size());
    for (const auto &e : v) expr(e.get());
  }
  void keywords(const std::vector<Keyword> &v) {
    varint(v.size());
    for (const auto &k : v) {
      str(k.name);
      expr(k.value.get());
      span(k.span);
    }
  }
  void params(const std::vector<Param> &v) {
    varint(v.size());
    for (const auto &p : v) {
      str(p.name);
      byte(uint8_t(p.kind));
      expr(p.defaultValue.get());
      expr(p.annotation.get());
      span(p.span);
    }
  }
  void aliases(const std::vector<Alias> &v) {
    varint(v.size());
    for (const auto &a : v) {
      str(a.name);
      str(a.asname);
      span(a.span);
    }
  }

  void expr(const Expr *e) {
    if (!e) return byte(0);
    byte(uint8_t(e->kind) + 1);
    span(e->span);
    switch (e->kind) {
    case ExprKind::Name: {
      auto &n = static_cast<const Name &>(*e);
      str(n.id);
      ctx(n);
      return;
    }
    case ExprKind::Constant: {
      auto &c = static_cast<const Constant &>(*e);
      byte(uint8_t(c.type));
      byte(c.b);
      svarint(c.i);
      dbl(c.f);
      str(c.s);
      return;
    }
    case ExprKind::FString: {
      auto &f = static_cast<const FString &>(*e);
      varint(f.parts.size());
      for (const auto &p : f.parts) {
        str(p.literal);
        byte(p.value.has_value());
        if (!p.value) continue;
        expr(p.value->value.get());
        byte(uint8_t(p.value->conversion));
        expr(p.value->formatSpec.get());
        byte(p.value->selfDocumenting);
        str(p.value->exprText);
      }
      return;
    }
    case ExprKind::BinOp: {
      auto &b = static_cast<const BinOp &>(*e);
      byte(uint8_t(b.op));
      expr(b.lhs.get());
      expr(b.rhs.get());
      return;
    }
    case ExprKind::UnaryOp: {
      auto &u = static_cast<const UnaryOp &>(*e);
      byte(uint8_t(u.op));
      expr(u.operand.get());
      return;
    }
    case ExprKind::BoolOp: {
      auto &b = static_cast<const BoolOp &>(*e);
      byte(b.isAnd);
      exprs(b.values);
      return;
    }
    case ExprKind::Compare: {
      auto &c = static_cast<const Compare &>(*e);
      expr(c.left.get());
      varint(c.ops.size());
      for (CmpOpKind k : c.ops) byte(uint8_t(k));
      exprs(c.comparators);
      return;
    }
    case ExprKind::Call: {
      auto &c = static_cast<const Call &>(*e);
      expr(c.func.get());
      exprs(c.args);
      keywords(c.keywords);
      return;
    }
    case ExprKind::Attribute: {
      auto &a = static_cast<const Attribute &>(*e);
      expr(a.value.get());
      str(a.attr);
      ctx(a);
      return;
    }
    case ExprKind::Subscript: {
      auto &s = static_cast<const Subscript &>(*e);
      expr(s.value.get());
      expr(s.index.get());
      ctx(s);
      return;
    }
    case ExprKind::Slice: {
      auto &s = static_cast<const Slice &>(*e);
      expr(s.lower.get());
      expr(s.upper.get());
      expr(s.step.get());
      return;
    }
    case ExprKind::List:
    case ExprKind::Tuple:
    case ExprKind::Set: {
      auto &s = static_cast<const Sequence &>(*e);
      exprs(s.elts);
      ctx(s);
      return;
    }
    case ExprKind::Dict: {
      auto &d = static_cast<const Dict &>(*e);
      exprs(d.keys);
      exprs(d.values);
      return;
    }
    case ExprKind::Comprehension: {
      auto &c = static_cast<const Comprehension &>(*e);
      byte(uint8_t(c.type));
      expr(c.elt.get());
      expr(c.value.get());
      varint(c.generators.size());
      for (const auto &g : c.generators) {
        expr(g.target.get());
        expr(g.iter.get());
        exprs(g.ifs);
      }
      return;
    }
    case ExprKind::Lambda: {
      auto &l = static_cast<const Lambda &>(*e);
      params(l.params);
      expr(l.body.get());
      byte(l.isGenerator);
      return;
    }
    case ExprKind::IfExp: {
      auto &i = static_cast<const IfExp &>(*e);
      expr(i.test.get());
      expr(i.body.get());
      expr(i.orelse.get());
      return;
    }
    case ExprKind::Starred: {
      auto &s = static_cast<const Starred &>(*e);
      expr(s.value.get());
      ctx(s);
      return;
    }
    case ExprKind::Yield:
    case ExprKind::YieldFrom:
      expr(static_cast<const Yield &>(*e).value.get());
      return;
    case ExprKind::NamedExpr: {
      auto &n = static_cast<const NamedExpr &>(*e);
      expr(n.target.get());
      expr(n.value.get());
      return;
    }
    }
    throw std::logic_error("AST writer: unknown expression kind");
  }

  void stmt(const Stmt &s) {
    byte(uint8_t(s.kind) + 1);
    span(s.span);
    switch (s.kind) {
    case StmtKind::FunctionDef: {
      auto &f = static_cast<const FunctionDef &>(s);
      str(f.name);
      params(f.params);
      body(f.body);
      exprs(f.decorators);
      expr(f.returns.get());
      byte(f.isGenerator);
      return;
    }
    case StmtKind::ClassDef: {
      auto &c = static_cast<const ClassDef &>(s);
      str(c.name);
      exprs(c.bases);
      keywords(c.keywords);
      body(c.body);
      exprs(c.decorators);
      return;
    }
    case StmtKind::Return:
      expr(static_cast<const Return &>(s).value.get());
      return;
    case StmtKind::Assign: {
      auto &a = static_cast<const Assign &>(s);
      exprs(a.targets);
      expr(a.value.get());
      expr(a.annotation.get());
      return;
    }
    case StmtKind::AugAssign: {
      auto &a = static_cast<const AugAssign &>(s);
      expr(a.target.get());
      byte(uint8_t(a.op));
      expr(a.value.get());
      return;
    }
    case StmtKind::ExprStmt:
      expr(static_cast<const ExprStmt &>(s).value.get());
      return;
    case StmtKind::If: {
      auto &i = static_cast<const If &>(s);
      expr(i.test.get());
      body(i.body);
      body(i.orelse);
      return;
    }
    case StmtKind::While: {
      auto &w = static_cast<const While &>(s);
      expr(w.test.get());
      body(w.body);
      body(w.orelse);
      return;
    }
    case StmtKind::For: {
      auto &f = static_cast<const For &>(s);
      expr(f.target.get());
      expr(f.iter.get());
      body(f.body);
      body(f.orelse);
      return;
    }
    case StmtKind::Break:
    case StmtKind::Continue:
    case StmtKind::Pass:
      return;
    case StmtKind::With: {
      auto &w = static_cast<const With &>(s);
      varint(w.items.size());
      for (const auto &it : w.items) {
        expr(it.context.get());
        expr(it.target.get());
      }
      body(w.body);
      return;
    }
    case StmtKind::Try: {
      auto &t = static_cast<const Try &>(s);
      body(t.body);
      varint(t.handlers.size());
      for (const auto &h : t.handlers) {
        expr(h.type.get());
        str(h.name);
        body(h.body);
        span(h.span);
      }
      body(t.orelse);
      body(t.finalbody);
      byte(t.isStar ? 1 : 0);
      return;
    }
    case StmtKind::Raise: {
      auto &r = static_cast<const Raise &>(s);
      expr(r.exc.get());
      expr(r.cause.get());
      return;
    }
    case StmtKind::Assert: {
      auto &a = static_cast<const Assert &>(s);
      expr(a.test.get());
      expr(a.msg.get());
      return;
    }
    case StmtKind::Import:
      aliases(static_cast<const Import &>(s).names);
      return;
    case StmtKind::ImportFrom: {
      auto &i = static_cast<const ImportFrom &>(s);
      str(i.module);
      svarint(i.level);
      aliases(i.names);
      return;
    }
    case StmtKind::Global:
    case StmtKind::Nonlocal: {
      auto &d = static_cast<const ScopeDecl &>(s);
      varint(d.names.size());
      for (const auto &n : d.names) str(n);
      return;
    }
    case StmtKind::Delete:
      exprs(static_cast<const Delete &>(s).targets);
      return;
    case StmtKind::Match: {
      auto &m = static_cast<const Match &>(s);
      expr(m.subject.get());
      varint(m.cases.size());
      for (const auto &c : m.cases) {
        pattern(c.pattern);
        expr(c.guard.get());
        body(c.body);
        span(c.span);
      }
      return;
    }
    }
    throw std::logic_error("AST writer: unknown statement kind");
  }
};

std::mutex &registryMutex() {
  static std::mutex mu;
  return mu;
}
std::unordered_map<std::string, std::string_view> &registry() {
  static std::unordered_map<std::string, std::string_view> r;
  return r;
}

}  // namespace

std::string serializeModule(const Module &module, std::string_view text) {
  Writer w(module.file);
  w.body(module.body);
  return w.finish(sourceTextHash(text));
}

void registerSerializedModule(const std::string &name, std::string_view blob) {
  std::lock_guard<std::mutex> lock(registryMutex());
  registry()[name] = blob;
}

std::string_view serializedModule(const std::string &name) {
  std::lock_guard<std::mutex> lock(registryMutex());
  auto it = registry().find(name);
  return it == registry().end() ? std::string_view() : it->second;
}

}  // namespace tfs::frontend
