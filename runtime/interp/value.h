// Values of the .tfs language and the object model the interpreter and the
// native modules (tf, numpy) share.
//
// A Value is a small tagged union: None, bool, int (64-bit) and float are
// unboxed; everything else is a reference-counted Object. Native types
// (tensors, variables, tf modules) subclass Object and override the hooks
// they support; a hook that does not apply returns std::nullopt
// ("NotImplemented"), so binary operators try the reflected operand next,
// exactly like CPython.
//
//   struct MyType : Object {
//     const char *typeName() const override { return "MyType"; }
//     std::optional<Value> getAttr(Interpreter &, const std::string &name) override;
//   };
#pragma once

#include "frontend/ast.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <unordered_map>
#include <vector>

namespace tfs::runtime {

class Interpreter;
struct Object;
struct ClassObject;

// Intrusive reference-counted pointer.
// GCC 12's -Wuse-after-free cannot tell that the count of a deleted object
// never reaches a later copy or release (it reports every inlined
// Ref through a devirtualized destructor); the warning is off for Ref alone.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuse-after-free"
#endif
template <class T> class Ref {
public:
  Ref() = default;
  Ref(std::nullptr_t) {}
  Ref(T *p) : p_(p) { if (p_) p_->refs++; }
  Ref(const Ref &o) : p_(o.p_) { if (p_) p_->refs++; }
  Ref(Ref &&o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  template <class U> Ref(const Ref<U> &o) : p_(o.get()) { if (p_) p_->refs++; }
  ~Ref() { release(); }
  Ref &operator=(Ref o) noexcept { std::swap(p_, o.p_); return *this; }
  T *get() const { return p_; }
  // Gives up this reference without dropping the count (the caller owns it).
  T *detach() {
    T *p = p_;
    p_ = nullptr;
    return p;
  }
  T *operator->() const { return p_; }
  T &operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  bool operator==(const Ref &o) const { return p_ == o.p_; }

private:
  // Inline down to the count; the (virtual) destruction is out of line, so
  // that dropping a Value stays a few instructions wherever it happens.
  void release() {
    T *p = p_;
    p_ = nullptr;
    if (p && --p->refs == 0) [[unlikely]] destroy(p);
  }
  [[gnu::noinline]] static void destroy(T *p) { delete p; }
  T *p_ = nullptr;
};

#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic pop
#endif

template <class T, class... A> Ref<T> make(A &&...a) { return Ref<T>(new T(std::forward<A>(a)...)); }

class Value {
public:
  enum class Tag : uint8_t { None, Bool, Int, Float, Obj };

  Value() = default;
  // 16 bytes: the tag and one word (the object's count is touched only for
  // Obj), so that copying, returning and dropping an unboxed value is a
  // couple of moves.
  Value(const Value &o) : tag_(o.tag_), i_(o.i_) {
    if (tag_ == Tag::Obj) retain(o_);
  }
  Value(Value &&o) noexcept : tag_(o.tag_), i_(o.i_) { o.tag_ = Tag::None; }
  Value &operator=(const Value &o) {
    Value copy(o);
    swap(copy);
    return *this;
  }
  Value &operator=(Value &&o) noexcept {
    Value taken(std::move(o));
    swap(taken);
    return *this;
  }
  ~Value() {
    if (tag_ == Tag::Obj) release(o_);
  }
  void swap(Value &o) noexcept {
    std::swap(tag_, o.tag_);
    std::swap(i_, o.i_);
  }
  static Value none() { return Value(); }
  static Value boolean(bool b) { Value v; v.tag_ = Tag::Bool; v.i_ = b; return v; }
  static Value integer(int64_t i) { Value v; v.tag_ = Tag::Int; v.i_ = i; return v; }
  static Value real(double d) { Value v; v.tag_ = Tag::Float; v.d_ = d; return v; }
  Value(Ref<Object> o) {
    if (Object *p = o.detach()) {
      tag_ = Tag::Obj;
      o_ = p;
    }
  }
  template <class T> Value(Ref<T> o) : Value(Ref<Object>(o)) {}

  Tag tag() const { return tag_; }
  bool isNone() const { return tag_ == Tag::None; }
  bool isBool() const { return tag_ == Tag::Bool; }
  bool isInt() const { return tag_ == Tag::Int; }
  bool isFloat() const { return tag_ == Tag::Float; }
  bool isObj() const { return tag_ == Tag::Obj; }
  bool asBool() const { return i_ != 0; }
  int64_t asInt() const { return i_; }
  double asFloat() const { return d_; }
  Object *obj() const { return tag_ == Tag::Obj ? o_ : nullptr; }
  // The object as T if it is one, else null. For a `final` T the dynamic
  // type is compared (a few instructions; a failed dynamic_cast through
  // Object's multiple-inheritance types costs hundreds, and the call and
  // operator paths test several types per operation); other T use
  // dynamic_cast. tfs links its layers statically into one executable, so
  // each type_info object is unique and comparing addresses is exact.
  // Defined after Object (clang checks typeid of a non-dependent operand
  // where the template is defined).
  template <class T> T *as() const;
  bool is(const Value &o) const;  // Python `is`

private:
  static void retain(Object *p);   // defined after Object
  static void release(Object *p);
  [[gnu::noinline]] static void destroy(Object *p);  // the last reference went (objects.cpp)

  Tag tag_ = Tag::None;
  union {
    int64_t i_ = 0;  // also copies the other members' bits (GCC and clang define union punning)
    double d_;
    Object *o_;      // owns one reference while tag_ == Obj
  };
};

// Thrown by Args::operator[] past the last argument; Interpreter::call turns
// it into Python's TypeError naming the callee.
struct MissingArgument {
  size_t index;
};

// The positional arguments of a native function. Natives index the
// arguments they need; a script that passes too few gets a TypeError
// instead of a read past the end (so `divmod(1)` cannot crash tfs).
class Args : public std::span<const Value> {
public:
  using std::span<const Value>::span;
  Args(std::span<const Value> s) : std::span<const Value>(s) {}
  const Value &operator[](size_t i) const {
    if (i >= size()) throw MissingArgument{i};
    return data()[i];
  }
};
using Kwargs = std::vector<std::pair<std::string, Value>>;

enum class BinOp : uint8_t {
  Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul, LShift, RShift, And, Or, Xor,
};
enum class CmpOp : uint8_t { Lt, Le, Eq, Ne, Gt, Ge };
enum class UnaryOp : uint8_t { Neg, Pos, Invert };

// Base of every heap value. Hooks default to "not supported".
struct Object {
  int64_t refs = 0;
  Object() = default;
  Object(const Object &) : refs(0) {}  // a copy is a new object
  Object &operator=(const Object &) { return *this; }
  virtual ~Object() = default;

  // The Python type name (`type(x).__name__`).
  virtual const char *typeName() const = 0;
  // The class object for isinstance/type(); null: a plain native type.
  virtual ClassObject *cls() const { return nullptr; }

  virtual std::optional<Value> getAttr(Interpreter &, const std::string &) { return std::nullopt; }
  virtual bool setAttr(Interpreter &, const std::string &, const Value &) { return false; }
  virtual std::optional<Value> call(Interpreter &, Args, const Kwargs &) { return std::nullopt; }
  // `reflected`: this object is the right operand (`2 * x` -> x.binary(Mul, 2, true)).
  virtual std::optional<Value> binary(Interpreter &, BinOp, const Value &, bool reflected) {
    return std::nullopt;
  }
  virtual std::optional<Value> compare(Interpreter &, CmpOp, const Value &) { return std::nullopt; }
  virtual std::optional<Value> unary(Interpreter &, UnaryOp) { return std::nullopt; }
  virtual std::optional<bool> truth(Interpreter &) { return std::nullopt; }
  virtual std::optional<int64_t> length(Interpreter &) { return std::nullopt; }
  // An iterator object (with next()) over this value.
  virtual std::optional<Value> iter(Interpreter &) { return std::nullopt; }
  // Iterator protocol: the next item, or nullopt when exhausted.
  virtual std::optional<Value> next(Interpreter &) { return std::nullopt; }
  virtual std::optional<Value> getItem(Interpreter &, const Value &) { return std::nullopt; }
  virtual bool setItem(Interpreter &, const Value &, const Value &) { return false; }
  virtual std::optional<bool> contains(Interpreter &, const Value &) { return std::nullopt; }
  virtual std::optional<std::string> repr(Interpreter &) { return std::nullopt; }
  virtual std::optional<std::string> str(Interpreter &) { return std::nullopt; }
  virtual std::optional<std::string> format(Interpreter &, const std::string &) { return std::nullopt; }
  virtual std::optional<int64_t> toInt(Interpreter &) { return std::nullopt; }
  virtual std::optional<double> toFloat(Interpreter &) { return std::nullopt; }
  virtual std::optional<int64_t> hash(Interpreter &) { return std::nullopt; }
  // Descriptor protocol (__get__): a native object stored on a class and
  // read through an instance, e.g. a tf.function used as a method.
  virtual std::optional<Value> bind(Interpreter &, const Value & /*self*/) { return std::nullopt; }
  // Context manager protocol.
  virtual std::optional<Value> enter(Interpreter &) { return std::nullopt; }
  virtual bool exit(Interpreter &, bool /*raised*/) { return false; }
};

inline void Value::retain(Object *p) { p->refs++; }
inline void Value::release(Object *p) {
  if (--p->refs == 0) [[unlikely]] destroy(p);
}

template <class T> T *Value::as() const {
  if (tag_ != Tag::Obj) return nullptr;
  if constexpr (std::is_final_v<T>)
    return &typeid(*o_) == &typeid(T) ? static_cast<T *>(o_) : nullptr;
  else
    return dynamic_cast<T *>(o_);
}

// --- cycle tracking --------------------------------------------------------------

// Reference counting cannot free cycles (a function and the scope holding
// it, an instance whose attribute refers back to it). Containers that can
// close a cycle link themselves into one list, and clearAll() empties every
// one at the end of a run, as CPython clears modules at exit. Single-threaded:
// only the interpreter thread creates these objects.
struct CycleTracked {
  CycleTracked() { link(); }
  CycleTracked(const CycleTracked &) { link(); }
  CycleTracked &operator=(const CycleTracked &) { return *this; }
  virtual ~CycleTracked() { unlink(); }
  // Drops every reference this container holds.
  virtual void clearReferences() = 0;
  static void clearAll();

private:
  void link();
  void unlink();
  CycleTracked *prev_ = nullptr, *next_ = nullptr;
};

// --- core object types -------------------------------------------------------

struct StrObject final : Object {
  std::string s;  // UTF-8; not changed once the str is in use (a cached hash)
  // hash(s) once computed (Interpreter::hash); -1, which no hash is: not yet.
  int64_t hashCache = -1;
  explicit StrObject(std::string v) : s(std::move(v)) {}
  const char *typeName() const override { return "str"; }
};
struct BytesObject final : Object {
  std::string s;
  bool isMutable = false;  // a bytearray
  explicit BytesObject(std::string v) : s(std::move(v)) {}
  const char *typeName() const override { return isMutable ? "bytearray" : "bytes"; }
};
struct ListObject final : Object, CycleTracked {
  std::vector<Value> items;
  ListObject() = default;
  explicit ListObject(std::vector<Value> v) : items(std::move(v)) {}
  const char *typeName() const override { return "list"; }
  void clearReferences() override { std::vector<Value>().swap(items); }
};
struct TupleObject final : Object {
  std::vector<Value> items;
  TupleObject() = default;
  explicit TupleObject(std::vector<Value> v) : items(std::move(v)) {}
  const char *typeName() const override { return "tuple"; }
};

// Hashable key wrapper used by dict and set (hash + equality via the interpreter).
struct DictObject final : Object, CycleTracked {
  // Insertion-ordered: entries in order, index by hash buckets.
  struct Entry {
    Value key, value;
    int64_t hash;
    bool live = true;
  };
  std::vector<Entry> entries;
  // The positions in `entries` of the live ones, by hash: an open-addressing
  // table as CPython's dicts (a power-of-two size, perturbed probes).
  struct Index {
    static constexpr int32_t kEmpty = -1, kDummy = -2;
    std::vector<int32_t> slots;
    size_t fill = 0;  // slots not empty (live positions and dummies)
    void clear() { std::vector<int32_t>().swap(slots); fill = 0; }
  } index;
  size_t liveCount = 0;
  const char *typeName() const override { return "dict"; }
  std::optional<Value> get(Interpreter &in, const Value &key);
  void set(Interpreter &in, const Value &key, const Value &value);
  bool erase(Interpreter &in, const Value &key);
  std::vector<std::pair<Value, Value>> items() const;
  void clearReferences() override {
    std::vector<Entry>().swap(entries);
    index.clear();
    liveCount = 0;
  }
};
// A set's hash table, laid out as CPython 3.11 lays out its sets (open
// addressing: a run of linear probes, then perturbed jumps; removals leave
// dummies; the same growth and copy rules; set_table.cpp), so iterating and
// printing a set gives CPython's order ({5, 3, 1} prints {1, 3, 5}) wherever
// CPython's own order is reproducible (its str and bytes hashes are salted
// per run, so the order of sets of those is arbitrary in CPython too).
class SetTable {
public:
  SetTable() : slots_(kMinSize) {}
  size_t size() const { return used_; }
  bool contains(Interpreter &in, const Value &key) const;
  bool containsHashed(Interpreter &in, const Value &key, int64_t hash) const;
  void add(Interpreter &in, const Value &key);
  void addHashed(Interpreter &in, const Value &key, int64_t hash);
  bool discard(Interpreter &in, const Value &key);
  bool discardHashed(Interpreter &in, const Value &key, int64_t hash);
  std::optional<Value> pop();  // the next live slot after the last pop, as set.pop()
  void clear();
  // Everything in `other` (another set), CPython's set_merge: one resize
  // up front, and the slots copied as they are into an empty table.
  void merge(Interpreter &in, const SetTable &other);
  // The one resize before adding `incoming` keys whose hashes are known.
  void reserveFor(size_t incoming);
  // After removals: rebuilds the table when dummies exceed a quarter of it.
  void shrinkIfSparse();
  std::vector<Value> keys() const;
  // Exchanges the contents of two tables (set.intersection_update keeps the result's).
  void swapWith(SetTable &other);
  // Calls f(key, hash) for each element in table order. f may change other
  // tables, not this one (the key and hash are copied out before the call).
  template <class F> void forEach(F &&f) const {
    for (size_t i = 0; i < slots_.size(); ++i)
      if (slots_[i].state == Slot::Active) {
        Value k = slots_[i].key;
        int64_t h = slots_[i].hash;
        f(k, h);
      }
  }

private:
  static constexpr size_t kMinSize = 8, kLinearProbes = 9;
  struct Slot {
    Value key;
    int64_t hash = 0;
    enum : uint8_t { Empty, Active, Dummy } state = Empty;
  };
  // The slot holding key, or the slot where the search ended: the empty
  // slot, or (when adding) the last dummy passed on the way to it.
  size_t find(Interpreter &in, const Value &key, int64_t hash, bool forAdd, bool &found) const;
  void resize(size_t minUsed);
  static void insertClean(std::vector<Slot> &table, const Value &key, int64_t hash);
  std::vector<Slot> slots_;
  size_t fill_ = 0, used_ = 0, finger_ = 0;
  uint64_t version_ = 0;  // changes with the layout: a probe restarts when an __eq__ changed it
};

struct SetObject final : Object {
  SetTable t;
  bool frozen = false;  // a frozenset: hashable, without the mutating methods
  const char *typeName() const override { return frozen ? "frozenset" : "set"; }
};

struct RangeObject final : Object {
  int64_t start, stop, step;
  RangeObject(int64_t a, int64_t b, int64_t c) : start(a), stop(b), step(c) {}
  int64_t size() const;
  const char *typeName() const override { return "range"; }
};
struct SliceObject final : Object {
  Value lower, upper, step;
  const char *typeName() const override { return "slice"; }
};

// A native function (builtins, methods of builtin types, tf functions).
using NativeFn = std::function<Value(Interpreter &, Args, const Kwargs &)>;
struct NativeFunction final : Object {
  std::string name;
  NativeFn fn;
  NativeFunction(std::string n, NativeFn f) : name(std::move(n)), fn(std::move(f)) {}
  const char *typeName() const override { return "builtin_function_or_method"; }
};

// The names of a scope. Adding or removing a name gives the table a new
// version (unique for the life of the process, so a table at the address of
// a freed one never matches an old version): a cached lookup (a pointer to a
// bound value, ast::Name's cache) holds while the versions it saw stay;
// rebinding a name changes the value in place and keeps the pointer valid.
class ScopeVars {
  using Map = std::unordered_map<std::string, Value>;

public:
  using iterator = Map::iterator;
  using const_iterator = Map::const_iterator;
  using value_type = Map::value_type;
  ScopeVars() = default;
  ScopeVars(const ScopeVars &o) : m_(o.m_), order_(o.order_ ? std::make_unique<Order>(*o.order_) : nullptr) {}
  ScopeVars(ScopeVars &&o) noexcept : m_(std::move(o.m_)), order_(std::move(o.order_)) { o.m_.clear(); o.bump(); }
  ScopeVars &operator=(ScopeVars o) noexcept { swap(o); return *this; }
  uint64_t version() const { return version_; }
  iterator begin() { return m_.begin(); }
  iterator end() { return m_.end(); }
  const_iterator begin() const { return m_.begin(); }
  const_iterator end() const { return m_.end(); }
  iterator find(const std::string &k) { return m_.find(k); }
  const_iterator find(const std::string &k) const { return m_.find(k); }
  size_t count(const std::string &k) const { return m_.count(k); }
  bool contains(const std::string &k) const { return m_.count(k) != 0; }
  size_t size() const { return m_.size(); }
  bool empty() const { return m_.empty(); }
  Value &operator[](const std::string &k) {
    size_t n = m_.size();
    Value &v = m_[k];
    if (m_.size() != n) added(k);
    return v;
  }
  template <class V> std::pair<iterator, bool> try_emplace(const std::string &k, V &&v) {
    auto r = m_.try_emplace(k, std::forward<V>(v));
    if (r.second) added(k);
    return r;
  }
  template <class V> std::pair<iterator, bool> emplace(const std::string &k, V &&v) {
    return try_emplace(k, std::forward<V>(v));
  }
  template <class V> std::pair<iterator, bool> insert_or_assign(const std::string &k, V &&v) {
    auto r = m_.insert_or_assign(k, std::forward<V>(v));
    if (r.second) added(k);
    return r;
  }
  size_t erase(const std::string &k) {
    size_t n = m_.erase(k);
    if (n) removed(k);
    return n;
  }
  iterator erase(const_iterator it) {
    if (order_) [[unlikely]] removed(it->first);
    else bump();
    return m_.erase(it);
  }
  void clear() {
    if (m_.empty()) return;
    m_.clear();
    if (order_) order_->clear();
    bump();
  }
  void swap(ScopeVars &o) noexcept {
    m_.swap(o.m_);
    order_.swap(o.order_);
    bump();
    o.bump();
  }
  // The order names were first bound, for the tables whose order Python
  // shows (a module's globals(), a class namespace): kept only once asked
  // for, so function scopes pay nothing. Names bound before the call are
  // listed first, sorted.
  void trackOrder() {
    if (order_) return;
    order_ = std::make_unique<Order>();
    for (const auto &kv : m_) order_->push_back(kv.first);
    std::sort(order_->begin(), order_->end());
  }
  // The names in binding order (trackOrder() first); null when not tracked.
  const std::vector<std::string> *order() const { return order_.get(); }

private:
  using Order = std::vector<std::string>;
  static uint64_t nextVersion() {
    static std::atomic<uint64_t> last{0};
    return last.fetch_add(1, std::memory_order_relaxed) + 1;
  }
  void bump() { version_ = nextVersion(); }
  void added(const std::string &k) {
    bump();
    if (order_) [[unlikely]] order_->push_back(k);
  }
  void removed(const std::string &k) {
    bump();
    if (order_) [[unlikely]]
      if (auto it = std::find(order_->begin(), order_->end(), k); it != order_->end()) order_->erase(it);
  }
  Map m_;
  std::unique_ptr<Order> order_;
  uint64_t version_ = nextVersion();
};

// A lexical scope: a function activation, a module's globals or a class body.
struct Scope final : Object, CycleTracked {
  ScopeVars vars;
  Ref<Scope> parent;          // enclosing function scope (closures), null at module level
  const char *typeName() const override { return "scope"; }
  void clearReferences() override {
    ScopeVars().swap(vars);
    parent = Ref<Scope>();
  }
};

struct LocalsLayout;  // frame_names.cpp

// Per-FunctionDef facts computed once (which names are local, ...).
struct CodeInfo {
  // Unique for the life of the process (never reused, unlike an address):
  // what a resolved ast::Name records as its owner.
  uint64_t id = 0;
  std::vector<std::string> localNames;  // sorted; a local's slot is its index here
  std::unordered_map<std::string, int32_t> slotOf;  // assigned here, not global/nonlocal
  std::unordered_map<std::string, bool> globals, nonlocals;
  // Every parameter is a plain positional one (no *args, **kwargs or
  // keyword-only): a call with one positional argument per parameter binds
  // them in order. paramSlots: each parameter's slot.
  bool plainParams = false;
  std::vector<int32_t> paramSlots;
  // The order locals() lists the locals in, made at its first call here.
  mutable std::shared_ptr<const LocalsLayout> localsLayout;
};

struct FunctionObject final : Object, CycleTracked {
  std::string name, qualname;
  const ast::FunctionDef *def = nullptr;  // or lambda:
  const ast::Lambda *lambda = nullptr;
  std::shared_ptr<const void> keepAlive;  // owner of def (converted code)
  std::shared_ptr<CodeInfo> code;
  std::vector<Value> defaults;            // one per param with a default, in order
  Ref<Scope> closure;                     // defining scope (null at module level)
  Ref<Scope> globals;
  ClassObject *definingClass = nullptr;   // for zero-argument super()
  std::unordered_map<std::string, Value> attrs;  // function attributes
  const char *typeName() const override { return "function"; }
  void clearReferences() override {
    std::vector<Value>().swap(defaults);
    closure = Ref<Scope>();
    globals = Ref<Scope>();
    std::unordered_map<std::string, Value>().swap(attrs);
  }
};

struct BoundMethod final : Object {
  Value self, func;
  BoundMethod(Value s, Value f) : self(std::move(s)), func(std::move(f)) {}
  const char *typeName() const override { return "method"; }
};

// Class namespaces change rarely once a class is made. Every change to any
// class's namespace (ClassObject::setAttr, `del C.x`, a new class, the end
// of the run) moves this process-wide counter on, so a cached class lookup
// (an attribute site's, a class's instantiation plan) holds while the epoch
// it saw is current. A new class moves it too: a cache that remembers a
// freed class's address never matches a class made later at that address.
inline std::atomic<uint64_t> classEpoch{1};
inline uint64_t currentClassEpoch() { return classEpoch.load(std::memory_order_relaxed); }
inline void bumpClassEpoch() { classEpoch.fetch_add(1, std::memory_order_relaxed); }

struct ClassObject final : Object, CycleTracked {
  ClassObject() { bumpClassEpoch(); }
  std::string name;
  // The defining module of a library type (`numpy` for numpy.ndarray): its
  // repr is then `<class 'numpy.ndarray'>`; empty for builtins and classes
  // of the script.
  std::string module;
  std::vector<Ref<ClassObject>> bases;
  std::vector<ClassObject *> mro;  // self first
  std::vector<std::pair<std::string, Value>> dictOrder;
  std::unordered_map<std::string, Value> dict;
  bool isException = false;
  // Native factory for instances of built-in types (int(), list()...).
  NativeFn construct;
  // A metaclass other than `type` (class C(metaclass=M)): type(C) is M, and
  // C's own operations (C(), iter(C), C[k], unknown attributes) go to M.
  Ref<ClassObject> metaclass;
  // How calling the class makes an instance (instantiate()), worked out
  // once per class epoch: planInit is the plain user __init__ to call on a
  // new plain instance, when that is all calling the class does.
  uint64_t planEpoch = 0;
  bool planSimple = false;
  FunctionObject *planInit = nullptr;
  const char *typeName() const override { return "type"; }
  ClassObject *cls() const override { return metaclass.get(); }
  std::optional<Value> lookup(const std::string &attr) const;  // through the MRO
  void setAttr(const std::string &k, Value v);
  bool isSubclassOf(const ClassObject *other) const;
  void clearReferences() override {
    bumpClassEpoch();
    std::vector<std::pair<std::string, Value>>().swap(dictOrder);
    std::unordered_map<std::string, Value>().swap(dict);
    construct = nullptr;
    metaclass = Ref<ClassObject>();
  }
};

// An instance's attributes in insertion order (vars() order, as CPython's
// instance dicts keep it): a flat vector searched by comparing names.
// Instances have a few attributes, and comparing lengths and bytes of a
// few names costs less than hashing one and allocating a node per entry.
// The subset of std::unordered_map's interface the interpreter uses; unlike
// the map, adding an attribute may move the others (hold no reference to a
// value across an insertion).
class AttrTable {
  using Items = std::vector<std::pair<std::string, Value>>;

public:
  using value_type = Items::value_type;
  using iterator = Items::iterator;
  using const_iterator = Items::const_iterator;
  iterator begin() { return items_.begin(); }
  iterator end() { return items_.end(); }
  const_iterator begin() const { return items_.begin(); }
  const_iterator end() const { return items_.end(); }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  iterator find(std::string_view k) {
    for (auto it = items_.begin(); it != items_.end(); ++it)
      if (it->first.size() == k.size() && std::char_traits<char>::compare(it->first.data(), k.data(), k.size()) == 0)
        return it;
    return items_.end();
  }
  const_iterator find(std::string_view k) const { return const_cast<AttrTable *>(this)->find(k); }
  size_t count(std::string_view k) const { return find(k) != end() ? 1 : 0; }
  bool contains(std::string_view k) const { return find(k) != end(); }
  Value &operator[](std::string_view k) {
    auto it = find(k);
    if (it != items_.end()) return it->second;
    return items_.emplace_back(std::string(k), Value()).second;
  }
  size_t erase(std::string_view k) {
    auto it = find(k);
    if (it == items_.end()) return 0;
    items_.erase(it);
    return 1;
  }
  iterator erase(const_iterator it) { return items_.erase(it); }
  void clear() { items_.clear(); }
  void swap(AttrTable &o) noexcept { items_.swap(o.items_); }

private:
  Items items_;
};

struct InstanceObject final : Object, CycleTracked {
  Ref<ClassObject> klass;
  AttrTable attrs;  // in vars() order
  // For an instance of a subclass of a built-in type (class D(dict)): the
  // built-in value its inherited behaviour works on.
  Value builtinValue;
  explicit InstanceObject(Ref<ClassObject> c) : klass(std::move(c)) {}
  const char *typeName() const override { return klass->name.c_str(); }
  ClassObject *cls() const override { return klass.get(); }
  void set(const std::string &k, Value v) { attrs[k] = std::move(v); }
  void clearReferences() override {
    AttrTable().swap(attrs);
    builtinValue = Value();
  }
};

struct ModuleObject : Object {
  std::string name;
  Ref<Scope> scope = make<Scope>();
  // Lazily resolved attributes (submodules, prelude classes).
  std::function<std::optional<Value>(Interpreter &, const std::string &)> lazy;
  // `lazy` only rejects names (API tfs lacks) and never makes one: every
  // attribute is in scope, so `from m import *` can list them.
  bool lazyOnlyRejects = false;
  explicit ModuleObject(std::string n) : name(std::move(n)) { scope->vars.trackOrder(); }
  const char *typeName() const override { return "module"; }
};

struct PropertyObject final : Object {
  Value getter, setter, deleter, doc;
  const char *typeName() const override { return "property"; }
};
struct StaticMethodObject final : Object {
  Value func;
  const char *typeName() const override { return "staticmethod"; }
};
struct ClassMethodObject final : Object {
  Value func;
  const char *typeName() const override { return "classmethod"; }
};
struct SuperObject final : Object {
  ClassObject *start = nullptr;  // search the MRO of self's class after this
  Value self;
  const char *typeName() const override { return "super"; }
};

// A Python exception in flight (thrown as a C++ exception).
struct PyException {
  Value exc;  // an InstanceObject of an exception class
  frontend::SourceSpan span;
  std::vector<frontend::SourceSpan> callChain;
};

}  // namespace tfs::runtime
