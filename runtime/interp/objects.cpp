// Core object methods: dict/set storage, range length, class MRO lookup;
// object destruction (recycling instance attribute tables, attr_pool.h).
#include "runtime/interp/attr_pool.h"
#include "runtime/interp/interpreter.h"

namespace tfs::runtime {

namespace {
CycleTracked *trackedHead = nullptr;  // most recently created first
}  // namespace

void CycleTracked::link() {
  next_ = trackedHead;
  if (trackedHead) trackedHead->prev_ = this;
  trackedHead = this;
}

void CycleTracked::unlink() {
  if (prev_) prev_->next_ = next_;
  else if (trackedHead == this) trackedHead = next_;
  if (next_) next_->prev_ = prev_;
  prev_ = next_ = nullptr;
}

void CycleTracked::clearAll() {
  // Hold every tracked object first, so that clearing one cannot free
  // another while it is being visited; dropping `alive` frees them all.
  std::vector<Ref<Object>> alive;
  for (CycleTracked *t = trackedHead; t; t = t->next_)
    if (auto *o = dynamic_cast<Object *>(t)) alive.emplace_back(o);
  for (auto &o : alive) dynamic_cast<CycleTracked *>(o.get())->clearReferences();
}

namespace {
constexpr size_t kPooledAttrTables = 32;
std::vector<AttrTable> &attrTablePool() {
  static thread_local std::vector<AttrTable> pool;
  return pool;
}
}  // namespace

void reuseAttrTable(InstanceObject &inst) {
  auto &pool = attrTablePool();
  if (pool.empty() || !inst.attrs.empty()) return;
  inst.attrs.swap(pool.back());
  pool.pop_back();
}

bool recycleAttrTable(InstanceObject &inst) {
  if (inst.attrs.empty() || attrTablePool().size() >= kPooledAttrTables) return false;
  AttrTable table;
  table.swap(inst.attrs);
  // The destructor's order: the built-in value, then the attributes.
  inst.builtinValue = Value();
  table.clear();  // may free other objects, and pool their tables
  auto &pool = attrTablePool();
  if (pool.size() < kPooledAttrTables) pool.push_back(std::move(table));
  return true;
}

void Value::destroy(Object *p) {
  // Addresses, as Value::as compares them (type_info's == may strcmp the names).
  if (&typeid(*p) == &typeid(InstanceObject)) recycleAttrTable(*static_cast<InstanceObject *>(p));
  delete p;
}

bool Value::is(const Value &o) const {
  if (tag_ != o.tag_) return false;
  switch (tag_) {
  case Tag::None: return true;
  // A float is unboxed, so it has no identity of its own: the same bits
  // are the same object. The same NaN is then itself (`x is x`, math.nan as
  // a dict key, `nan in [nan]`, as CPython's one object), and 0.0 is not
  // -0.0. Two NaNs CPython makes separately (float('nan') twice) are one
  // here.
  case Tag::Bool: case Tag::Int: case Tag::Float: return i_ == o.i_;
  case Tag::Obj: return o_ == o.o_;
  }
  return false;
}

namespace {
using Index = DictObject::Index;

// Key equality as dict lookups need it, the common cases inline: the same
// object, two ints, two strs; anything else through ==.
bool sameKey(Interpreter &in, const Value &a, const Value &b) {
  if (a.is(b)) return true;
  if (a.isInt() && b.isInt()) return false;
  if (auto *x = a.as<StrObject>())
    if (auto *y = b.as<StrObject>()) return x->s == y->s;
  return in.equals(a, b);
}

// CPython's probe sequence: i = (5 i + 1 + perturb) mod size, perturb
// shifted right 5 bits each step, so every slot is visited.
struct Probe {
  size_t mask, i;
  uint64_t perturb;
  Probe(size_t size, int64_t hash) : mask(size - 1), i(size_t(hash) & mask), perturb(uint64_t(hash)) {}
  void next() {
    perturb >>= 5;
    i = (i * 5 + 1 + perturb) & mask;
  }
};

// Rebuilds the table for `live` positions at a size with room to grow
// (fill at most 2/3), dropping dummies.
void rebuild(Index &index, const std::vector<DictObject::Entry> &entries, size_t live) {
  size_t size = 8;
  while (size * 2 < (live + 1) * 3) size *= 2;
  index.slots.assign(size, Index::kEmpty);
  index.fill = 0;
  for (size_t pos = 0; pos < entries.size(); ++pos) {
    if (!entries[pos].live) continue;
    Probe p(size, entries[pos].hash);
    while (index.slots[p.i] != Index::kEmpty) p.next();
    index.slots[p.i] = int32_t(pos);
    ++index.fill;
  }
}

// The slot of `key` (hash h) in d's index, or -1. An __eq__ that changes
// the dict's table restarts the search.
ptrdiff_t findSlot(Interpreter &in, DictObject &d, const Value &key, int64_t h) {
restart:
  if (d.index.slots.empty()) return -1;
  const std::vector<int32_t> *table = &d.index.slots;
  size_t size = table->size();
  for (Probe p(size, h);; p.next()) {
    int32_t pos = (*table)[p.i];
    if (pos == Index::kEmpty) return -1;
    if (pos == Index::kDummy) continue;
    const DictObject::Entry &e = d.entries[size_t(pos)];
    if (e.hash != h) continue;
    if (e.key.is(key)) return ptrdiff_t(p.i);
    Value candidate = e.key;  // an __eq__ may drop the entry
    bool same = sameKey(in, candidate, key);
    if (d.index.slots.size() != size || d.index.slots.data() != table->data() || d.index.slots[p.i] != pos)
      goto restart;
    if (same) return ptrdiff_t(p.i);
  }
}
}  // namespace

std::optional<Value> DictObject::get(Interpreter &in, const Value &key) {
  int64_t h = in.hash(key);
  ptrdiff_t slot = findSlot(in, *this, key, h);
  if (slot < 0) return std::nullopt;
  return entries[size_t(index.slots[size_t(slot)])].value;
}

void DictObject::set(Interpreter &in, const Value &key, const Value &value) {
  int64_t h = in.hash(key);
  ptrdiff_t slot = findSlot(in, *this, key, h);
  if (slot >= 0) {
    entries[size_t(index.slots[size_t(slot)])].value = value;
    return;
  }
  if ((index.fill + 1) * 3 > index.slots.size() * 2) rebuild(index, entries, liveCount + 1);
  Probe p(index.slots.size(), h);
  while (index.slots[p.i] >= 0) p.next();  // the first empty or dummy slot
  if (index.slots[p.i] == Index::kEmpty) ++index.fill;
  index.slots[p.i] = int32_t(entries.size());
  entries.push_back(Entry{key, value, h, true});
  ++liveCount;
}

bool DictObject::erase(Interpreter &in, const Value &key) {
  int64_t h = in.hash(key);
  ptrdiff_t slot = findSlot(in, *this, key, h);
  if (slot < 0) return false;
  Entry &e = entries[size_t(index.slots[size_t(slot)])];
  index.slots[size_t(slot)] = Index::kDummy;
  e.live = false;
  --liveCount;
  Value oldKey = std::move(e.key), oldValue = std::move(e.value);  // released last: a __del__ sees a consistent dict
  e.key = Value();
  e.value = Value();
  return true;
}

std::vector<std::pair<Value, Value>> DictObject::items() const {
  std::vector<std::pair<Value, Value>> out;
  out.reserve(liveCount);
  for (const auto &e : entries)
    if (e.live) out.emplace_back(e.key, e.value);
  return out;
}

int64_t RangeObject::size() const {
  // In 128 bits: range(0, 2**63 - 1) must not overflow on the way.
  __int128 n;
  if (step > 0) n = stop > start ? (__int128(stop) - start + step - 1) / step : 0;
  else n = start > stop ? (__int128(start) - stop - step - 1) / -__int128(step) : 0;
  return n > INT64_MAX ? INT64_MAX : int64_t(n);
}

std::optional<Value> ClassObject::lookup(const std::string &attr) const {
  for (const ClassObject *c : mro) {
    auto it = c->dict.find(attr);
    if (it != c->dict.end()) return it->second;
  }
  return std::nullopt;
}

void ClassObject::setAttr(const std::string &k, Value v) {
  bumpClassEpoch();
  if (!dict.count(k)) dictOrder.emplace_back(k, Value());
  dict[k] = std::move(v);
}

bool ClassObject::isSubclassOf(const ClassObject *other) const {
  for (const ClassObject *c : mro)
    if (c == other) return true;
  return false;
}

}  // namespace tfs::runtime
