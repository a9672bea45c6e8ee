// `_pickle_codec`: pickles of plain data (None, bool, int, float, str,
// bytes, tuple, list, dict, set, frozenset) under pickle.tfs. dumps writes
// protocol 4/5 as CPython 3.11's pickler does for such data (FRAME, MEMOIZE,
// SHORT_BINUNICODE, EMPTY_LIST + APPENDS batches of 1000, TUPLE1..3, ...);
// loads reads every protocol's opcodes for plain data, so pickles CPython
// wrote load. Objects of classes (GLOBAL, REDUCE, BUILD, NEWOBJ) are refused
// by name.
#include "lib/python/python_modules.h"
#include "runtime/interp/big_int.h"
#include "runtime/interp/interpreter.h"
#include "runtime/interp/signature.h"

#include <bit>
#include <cstring>
#include <fmt/format.h>
#include <unordered_map>

namespace tfs::runtime {

namespace {

class Writer {
public:
  Writer(Interpreter &in, Value errorClass) : in_(in), error_(std::move(errorClass)) {}

  std::string dump(const Value &v, int protocol) {
    save(v);
    body_ += '.';
    std::string out = "\x80";
    out += char(protocol);
    if (body_.size() >= 4) {
      out += '\x95';
      appendLittle(out, body_.size(), 8);
    }
    return out + body_;
  }

private:
  static void appendLittle(std::string &out, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out += char((v >> (8 * i)) & 0xFF);
  }

  bool fromMemo(const Value &v) {
    auto it = memo_.find(v.obj());
    if (it == memo_.end()) return false;
    if (it->second < 256) {
      body_ += 'h';
      body_ += char(it->second);
    } else {
      body_ += 'j';
      appendLittle(body_, it->second, 4);
    }
    return true;
  }
  void memoize(const Value &v) {
    if (memo_.count(v.obj())) return;
    size_t index = memo_.size();
    memo_[v.obj()] = index;
    keep_.push_back(v);
    body_ += '\x94';
  }

  void saveInt(int64_t x) {
    if (x >= 0 && x < 256) {
      body_ += 'K';
      body_ += char(x);
    } else if (x >= 0 && x < 65536) {
      body_ += 'M';
      appendLittle(body_, uint64_t(x), 2);
    } else if (x >= -(int64_t(1) << 31) && x < (int64_t(1) << 31)) {
      body_ += 'J';
      appendLittle(body_, uint64_t(x), 4);
    } else {
      // LONG1: the shortest little-endian two's complement
      std::string bytes;
      appendLittle(bytes, uint64_t(x), 8);
      while (bytes.size() > 1) {
        char top = bytes.back(), next = bytes[bytes.size() - 2];
        if ((top == 0 && !(next & 0x80)) || (top == char(0xFF) && (next & 0x80))) bytes.pop_back();
        else break;
      }
      body_ += '\x8a';
      body_ += char(bytes.size());
      body_ += bytes;
    }
  }

  // An int past 64 bits: LONG1 (under 256 bytes) or LONG4 of its shortest
  // little-endian two's complement, as CPython's save_long.
  void saveBigInt(const mpz_class &z) {
    size_t nbytes = mpz_sizeinbase(z.get_mpz_t(), 2) / 8 + 1;
    mpz_class bits = z < 0 ? mpz_class(z + (mpz_class(1) << (8 * nbytes))) : z;
    std::string bytes(nbytes, '\0');
    size_t written = 0;
    mpz_export(bytes.data(), &written, -1, 1, 0, 0, bits.get_mpz_t());
    if (z < 0 && nbytes > 1 && bytes[nbytes - 1] == char(0xFF) && (bytes[nbytes - 2] & 0x80)) bytes.pop_back();
    if (bytes.size() < 256) {
      body_ += '\x8a';
      body_ += char(bytes.size());
    } else {
      body_ += '\x8b';
      appendLittle(body_, bytes.size(), 4);
    }
    body_ += bytes;
  }

  void batch(const std::vector<Value> &items, char many, char one, bool pairs) {
    size_t step = pairs ? 2 : 1, n = items.size() / step;
    for (size_t start = 0; start < n; start += 1000) {
      size_t count = std::min<size_t>(1000, n - start);
      if (count > 1) body_ += '(';
      for (size_t k = (start)*step; k < (start + count) * step; ++k) save(items[k]);
      body_ += count > 1 ? many : one;
    }
  }

  void save(const Value &v) {
    in_.pollInterrupt();
    if (v.isNone()) return void(body_ += 'N');
    if (v.isBool()) return void(body_ += v.asBool() ? '\x88' : '\x89');
    if (v.isInt()) return saveInt(v.asInt());
    if (auto *big = v.as<BigIntObject>()) return saveBigInt(big->v);
    if (v.isFloat()) {
      body_ += 'G';
      uint64_t bits = std::bit_cast<uint64_t>(v.asFloat());
      for (int i = 7; i >= 0; --i) body_ += char((bits >> (8 * i)) & 0xFF);
      return;
    }
    if (fromMemo(v)) return;
    if (auto *s = v.as<StrObject>()) {
      if (s->s.size() < 256) {
        body_ += '\x8c';
        body_ += char(s->s.size());
      } else {
        body_ += 'X';
        appendLittle(body_, s->s.size(), 4);
      }
      body_ += s->s;
      return memoize(v);
    }
    if (auto *b = v.as<BytesObject>()) {
      if (b->s.size() < 256) {
        body_ += 'C';
        body_ += char(b->s.size());
      } else {
        body_ += 'B';
        appendLittle(body_, b->s.size(), 4);
      }
      body_ += b->s;
      return memoize(v);
    }
    if (auto *t = v.as<TupleObject>()) {
      if (t->items.empty()) return void(body_ += ')');
      if (t->items.size() <= 3) {
        for (auto &item : t->items) save(item);
        if (fromMemo(v)) return;  // the tuple was reached through itself
        body_ += "\x85\x86\x87"[t->items.size() - 1];
        return memoize(v);
      }
      body_ += '(';
      for (auto &item : t->items) save(item);
      body_ += 't';
      return memoize(v);
    }
    if (auto *l = v.as<ListObject>()) {
      body_ += ']';
      memoize(v);
      std::vector<Value> items = l->items;
      return batch(items, 'e', 'a', false);
    }
    if (auto *d = v.as<DictObject>()) {
      body_ += '}';
      memoize(v);
      std::vector<Value> flat;
      for (auto &[k, val] : d->items()) flat.push_back(k), flat.push_back(val);
      return batch(flat, 'u', 's', true);
    }
    if (auto *set = v.as<SetObject>(); set && set->frozen) {
      // FROZENSET: the items after a mark (CPython memoizes it afterwards).
      body_ += '(';
      for (auto &k : set->t.keys()) save(k);
      body_ += '\x91';
      memoize(v);
      return;
    }
    if (auto *set = v.as<SetObject>()) {
      body_ += '\x8f';
      memoize(v);
      std::vector<Value> items;
      for (auto &k : set->t.keys()) items.push_back(k);
      for (size_t start = 0; start < items.size(); start += 1000) {
        body_ += '(';
        for (size_t k = start; k < std::min(items.size(), start + 1000); ++k) save(items[k]);
        body_ += '\x90';
      }
      return;
    }
    Value err = in_.call(error_, std::vector<Value>{in_.str(fmt::format(
                                     "pickling an object of type '{}' is not supported by tfs (plain data only)", in_.typeName(v)))});
    in_.raiseValue(err);
  }

  Interpreter &in_;
  Value error_;
  std::string body_;
  std::unordered_map<Object *, size_t> memo_;
  std::vector<Value> keep_;
};

class Reader {
public:
  Reader(Interpreter &in, const std::string &data, Value errorClass, Value findClass = Value())
      : in_(in), d_(data), error_(std::move(errorClass)), findClass_(std::move(findClass)) {}

  Value load() {
    while (true) {
      // out of data at an opcode: EOFError; inside an argument: truncated
      if (pos_ >= d_.size()) in_.raise("EOFError", "Ran out of input");
      char op = byte();
      switch (op) {
      case '\x80': byte(); break;                 // PROTO
      case '\x95': little(8); break;              // FRAME
      case '.': return pop();                     // STOP
      case 'N': push(Value()); break;
      case '\x88': push(Value::boolean(true)); break;
      case '\x89': push(Value::boolean(false)); break;
      case 'K': push(Value::integer(int64_t(uint8_t(byte())))); break;
      case 'M': push(Value::integer(int64_t(little(2)))); break;
      case 'J': push(Value::integer(int64_t(int32_t(uint32_t(little(4)))))); break;
      case '\x8a': push(longBytes(size_t(uint8_t(byte())))); break;
      case '\x8b': push(longBytes(size_t(little(4)))); break;
      case 'I': {
        std::string line = readLine();
        if (line == "01") push(Value::boolean(true));
        else if (line == "00") push(Value::boolean(false));
        else push(intOf(in_, in_.str(line)));
        break;
      }
      case 'L': {
        std::string line = readLine();
        if (!line.empty() && line.back() == 'L') line.pop_back();
        push(intOf(in_, in_.str(line)));
        break;
      }
      case 'F': push(Value::real(in_.toFloat(in_.str(readLine())))); break;
      case 'G': {
        uint64_t bits = 0;
        for (int i = 0; i < 8; ++i) bits = bits << 8 | uint8_t(byte());
        push(Value::real(std::bit_cast<double>(bits)));
        break;
      }
      case '\x8c': push(in_.str(take(size_t(uint8_t(byte()))))); break;
      case 'X': push(in_.str(take(size_t(little(4))))); break;
      case '\x8d': push(in_.str(take(size_t(little(8))))); break;
      case 'C': push(Value(make<BytesObject>(take(size_t(uint8_t(byte())))))); break;
      // Python 2's str (SHORT_BINSTRING, BINSTRING), decoded as loads'
      // default encoding='ASCII' decodes it (numpy files from Python 2).
      case 'U': push(asciiStr(take(size_t(uint8_t(byte()))))); break;
      case 'T': push(asciiStr(take(size_t(little(4))))); break;
      case 'B': push(Value(make<BytesObject>(take(size_t(little(4)))))); break;
      case '\x8e': push(Value(make<BytesObject>(take(size_t(little(8)))))); break;
      case ')': push(in_.tuple({})); break;
      case '\x85': case '\x86': case '\x87': {
        size_t n = size_t(op - '\x85' + 1);
        need(n);
        std::vector<Value> items(stack_.end() - long(n), stack_.end());
        stack_.resize(stack_.size() - n);
        push(in_.tuple(std::move(items)));
        break;
      }
      case 't': push(in_.tuple(popMark())); break;
      case ']': push(in_.list({})); break;
      case 'l': push(in_.list(popMark())); break;
      case 'a': {
        Value item = pop();
        listTop().items.push_back(item);
        break;
      }
      case 'e': {
        auto items = popMark();
        auto &l = listTop();
        l.items.insert(l.items.end(), items.begin(), items.end());
        break;
      }
      case '}': push(Value(make<DictObject>())); break;
      case 'd': {
        auto items = popMark();
        auto dict = make<DictObject>();
        for (size_t i = 0; i + 1 < items.size(); i += 2) dict->set(in_, items[i], items[i + 1]);
        push(Value(dict));
        break;
      }
      case 's': {
        Value v = pop(), k = pop();
        dictTop().set(in_, k, v);
        break;
      }
      case 'u': {
        auto items = popMark();
        auto &dict = dictTop();
        for (size_t i = 0; i + 1 < items.size(); i += 2) dict.set(in_, items[i], items[i + 1]);
        break;
      }
      case '\x8f': push(Value(make<SetObject>())); break;
      case '\x90': {
        auto items = popMark();
        need(1);
        auto *set = stack_.back().as<SetObject>();
        if (!set) fail("ADDITEMS on a non-set");
        for (auto &item : items) set->t.add(in_, item);
        break;
      }
      case '\x91': {
        auto items = popMark();
        auto set = make<SetObject>();
        set->frozen = true;
        for (auto &item : items) set->t.add(in_, item);
        push(Value(set));
        break;
      }
      case '(': marks_.push_back(stack_.size()); break;
      case '0': pop(); break;
      case '1': popMark(); break;
      case '2': need(1), push(stack_.back()); break;
      case '\x94': need(1), memo_[memo_.size()] = stack_.back(); break;
      case 'q': need(1), memo_[size_t(uint8_t(byte()))] = stack_.back(); break;
      case 'r': need(1), memo_[size_t(little(4))] = stack_.back(); break;
      case 'p': need(1), memo_[size_t(in_.toInt(in_.str(readLine())))] = stack_.back(); break;
      case 'h': push(memoGet(size_t(uint8_t(byte())))); break;
      case 'j': push(memoGet(size_t(little(4)))); break;
      case 'g': push(memoGet(size_t(in_.toInt(in_.str(readLine()))))); break;
      // Objects of classes, when the caller resolves globals (numpy's
      // np.load of object arrays: find_class maps numpy's reconstructors).
      case 'c':
        if (findClass_.isNone()) refuseObjects();
        {
          std::string module = readLine(), name = readLine();
          push(in_.call(findClass_, std::vector<Value>{in_.str(module), in_.str(name)}));
        }
        break;
      case '\x93':
        if (findClass_.isNone()) refuseObjects();
        {
          Value name = pop(), module = pop();
          push(in_.call(findClass_, std::vector<Value>{module, name}));
        }
        break;
      case 'R':
        if (findClass_.isNone()) refuseObjects();
        {
          Value args = pop(), fn = pop();
          push(in_.call(fn, in_.toList(args)));
        }
        break;
      case 'b':
        if (findClass_.isNone()) refuseObjects();
        {
          Value state = pop();
          need(1);
          in_.call(in_.getAttr(stack_.back(), "__setstate__"), std::vector<Value>{state});
        }
        break;
      case '\x81': case '\x92': case 'i': case 'o': refuseObjects();
      default: fail(fmt::format("invalid load key, '{}'.", escapeByte(op)));
      }
    }
  }

private:
  Value asciiStr(const std::string &s) {
    for (size_t i = 0; i < s.size(); ++i)
      if (uint8_t(s[i]) >= 0x80)
        in_.raise("UnicodeDecodeError", fmt::format("'ascii' codec can't decode byte 0x{:02x} in position {}: ordinal "
                                                    "not in range(128)", uint8_t(s[i]), i));
    return in_.str(s);
  }
  [[noreturn]] void refuseObjects() {
        in_.raise("NotImplementedError",
                  "unpickling objects of classes is not supported by tfs (plain data only: None, bool, int, float, "
                  "str, bytes, tuple, list, dict, set)");
  }
  static std::string escapeByte(char c) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7F) return std::string(1, c);
    return fmt::format("\\x{:02x}", u);
  }
  [[noreturn]] void fail(const std::string &msg) {
    in_.raiseValue(in_.call(error_, std::vector<Value>{in_.str(msg)}));
  }
  char byte() {
    if (pos_ >= d_.size()) fail("pickle data was truncated");
    return d_[pos_++];
  }
  uint64_t little(int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= uint64_t(uint8_t(byte())) << (8 * i);
    return v;
  }
  std::string take(size_t n) {
    if (n > d_.size() - pos_) fail("pickle data was truncated");
    std::string s = d_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  std::string readLine() {
    size_t nl = d_.find('\n', pos_);
    if (nl == std::string::npos) fail("pickle data was truncated");
    std::string s = d_.substr(pos_, nl - pos_);
    pos_ = nl + 1;
    return s;
  }
  Value longBytes(size_t n) {
    std::string b = take(n);
    if (n == 0) return Value::integer(0);
    if (n > 8) {  // little-endian two's complement past 64 bits
      mpz_class z;
      mpz_import(z.get_mpz_t(), n, -1, 1, 0, 0, b.data());
      if (uint8_t(b[n - 1]) & 0x80) z -= mpz_class(1) << (8 * n);
      return intValue(z);
    }
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= uint64_t(uint8_t(b[i])) << (8 * i);
    if (n < 8 && (uint8_t(b[n - 1]) & 0x80)) v |= ~uint64_t(0) << (8 * n);
    return Value::integer(int64_t(v));
  }
  void push(Value v) { stack_.push_back(std::move(v)); }
  void need(size_t n) {
    if (stack_.size() < n || (!marks_.empty() && stack_.size() - marks_.back() < n)) fail("unpickling stack underflow");
  }
  Value pop() {
    need(1);
    Value v = stack_.back();
    stack_.pop_back();
    return v;
  }
  std::vector<Value> popMark() {
    if (marks_.empty()) fail("could not find MARK");
    size_t m = marks_.back();
    marks_.pop_back();
    std::vector<Value> items(stack_.begin() + long(m), stack_.end());
    stack_.resize(m);
    return items;
  }
  ListObject &listTop() {
    need(1);
    auto *l = stack_.back().as<ListObject>();
    if (!l) fail("APPEND on a non-list");
    return *l;
  }
  DictObject &dictTop() {
    need(1);
    auto *d = stack_.back().as<DictObject>();
    if (!d) fail("SETITEM on a non-dict");
    return *d;
  }
  Value memoGet(size_t i) {
    auto it = memo_.find(i);
    if (it == memo_.end()) fail(fmt::format("Memo value not found at index {}", i));
    return it->second;
  }

  Interpreter &in_;
  const std::string &d_;
  Value error_;
  Value findClass_;  // find_class(module, name), None: plain data only
  size_t pos_ = 0;
  std::vector<Value> stack_;
  std::vector<size_t> marks_;
  std::unordered_map<size_t, Value> memo_;
};

Value makePickleCodec(Interpreter &in) {
  auto m = make<ModuleObject>("_pickle_codec");
  m->scope->vars["dumps"] = nativeWithSignature(in, "dumps(obj, protocol, error_class)", [](Interpreter &in, const Bound &b) -> Value {
    int64_t protocol = b["protocol"].isNone() ? 4 : in.toInt(b["protocol"]);
    if (protocol < 0) protocol = 5;
    if (protocol > 5) in.raise("ValueError", "pickle protocol must be <= 5");
    if (protocol < 4) in.raise("NotImplementedError", fmt::format("pickle protocol {} is not supported by tfs (4 and 5 are)", protocol));
    Writer w(in, b["error_class"]);
    return Value(make<BytesObject>(w.dump(b["obj"], int(protocol))));
  });
  m->scope->vars["loads"] = nativeWithSignature(in, "loads(data, error_class, find_class=None)", [](Interpreter &in, const Bound &b) -> Value {
    auto *data = b["data"].as<BytesObject>();
    if (!data) in.raise("TypeError", fmt::format("a bytes-like object is required, not '{}'", in.typeName(b["data"])));
    Reader r(in, data->s, b["error_class"], b["find_class"]);
    return r.load();
  });
  return Value(m);
}

}  // namespace

void registerPickleCodecModule() { Interpreter::registerNativeModule("_pickle_codec", makePickleCodec); }

}  // namespace tfs::runtime
