// Protocol buffer messages as Python's protobuf library presents them, for
// tf.train.Example and its parts (lib/tf/proto/example.proto,
// feature.proto): a message class is callable with field keywords
// (`tf.train.Int64List(value=[1, 2])`, message fields from messages or
// dicts, map fields from dicts) and has FromString; a message has its
// fields as attributes, SerializeToString / ParseFromString / CopyFrom /
// MergeFrom / Clear / HasField / WhichOneof / ByteSize, and prints as
// Python's text_format does (fields by number, map entries by key, floats
// as their shortest float32 text, as Python's ToShortestFloat, bytes
// C-escaped with octal escapes).
//
// Fields are reached through protobuf's reflection. A sub-message, repeated
// field or map wrapper holds the root message (shared) and a pointer into
// it; ParseFromString / Clear / CopyFrom start a new generation and
// wrappers of an older one refuse use instead of touching freed memory.
// Map fields are used through their repeated view of key/value entries,
// whose element pointers stay put while entries are only added.
#include "lib/tf/io/io_lib.h"
#include "lib/tf/proto/example.pb.h"
#include "runtime/tensor/format.h"

#include <fmt/format.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/message.h>
#include <google/protobuf/util/message_differencer.h>
#include <memory>

namespace tfs::runtime::tf::io {

namespace {

namespace pb = google::protobuf;
using FD = pb::FieldDescriptor;

struct Root {
  std::unique_ptr<pb::Message> message;
  uint64_t generation = 0;
};

struct Handle {
  std::shared_ptr<Root> root;
  pb::Message *msg = nullptr;
  uint64_t generation = 0;
  pb::Message *get(Interpreter &in) const {
    if (generation != root->generation)
      in.raise("RuntimeError", "this part of a protocol buffer message was replaced (ParseFromString, Clear or "
                               "CopyFrom of its parent)");
    return msg;
  }
};

Value wrapMessage(std::shared_ptr<Root> root, pb::Message *msg);
Value newMessage(Interpreter &in, const pb::Descriptor *d, Args args, const Kwargs &kw);
void setField(Interpreter &in, pb::Message *m, const FD *f, const Value &v);

// --- printing (Python's text_format) ----------------------------------------------

std::string scalarText(const pb::Message &m, const FD *f, int index) {
  const pb::Reflection *r = m.GetReflection();
  bool rep = f->is_repeated();
  switch (f->cpp_type()) {
  case FD::CPPTYPE_INT32: return std::to_string(rep ? r->GetRepeatedInt32(m, f, index) : r->GetInt32(m, f));
  case FD::CPPTYPE_INT64: return std::to_string(rep ? r->GetRepeatedInt64(m, f, index) : r->GetInt64(m, f));
  case FD::CPPTYPE_UINT32: return std::to_string(rep ? r->GetRepeatedUInt32(m, f, index) : r->GetUInt32(m, f));
  case FD::CPPTYPE_UINT64: return std::to_string(rep ? r->GetRepeatedUInt64(m, f, index) : r->GetUInt64(m, f));
  case FD::CPPTYPE_FLOAT: return float32Repr(rep ? r->GetRepeatedFloat(m, f, index) : r->GetFloat(m, f));
  case FD::CPPTYPE_DOUBLE: return pythonFloatRepr(rep ? r->GetRepeatedDouble(m, f, index) : r->GetDouble(m, f));
  case FD::CPPTYPE_BOOL: return (rep ? r->GetRepeatedBool(m, f, index) : r->GetBool(m, f)) ? "true" : "false";
  case FD::CPPTYPE_STRING:
    return "\"" + cEscape(rep ? r->GetRepeatedString(m, f, index) : r->GetString(m, f), true) + "\"";
  case FD::CPPTYPE_ENUM: {
    const pb::EnumValueDescriptor *e = rep ? r->GetRepeatedEnum(m, f, index) : r->GetEnum(m, f);
    return e->name();
  }
  case FD::CPPTYPE_MESSAGE: break;
  }
  return "";
}

void printMessage(const pb::Message &m, int indent, std::string &out);

void printField(const pb::Message &m, const FD *f, int index, int indent, std::string &out) {
  std::string pad(size_t(indent), ' ');
  if (f->cpp_type() != FD::CPPTYPE_MESSAGE) {
    out += pad + f->name() + ": " + scalarText(m, f, index) + "\n";
    return;
  }
  const pb::Reflection *r = m.GetReflection();
  const pb::Message &sub = f->is_repeated() ? r->GetRepeatedMessage(m, f, index) : r->GetMessage(m, f);
  out += pad + f->name() + " {\n";
  printMessage(sub, indent + 2, out);
  out += pad + "}\n";
}

// A map entry's key as text_format sorts it (by the key value).
std::string mapKeyOf(const pb::Message &entry) {
  const FD *k = entry.GetDescriptor()->FindFieldByNumber(1);
  const pb::Reflection *r = entry.GetReflection();
  if (k->cpp_type() == FD::CPPTYPE_STRING) return r->GetString(entry, k);
  return fmt::format("{:020}", r->GetInt64(entry, k));
}

void printMessage(const pb::Message &m, int indent, std::string &out) {
  std::vector<const FD *> fields;
  m.GetReflection()->ListFields(m, &fields);
  for (const FD *f : fields) {
    if (f->is_map()) {
      const pb::Reflection *r = m.GetReflection();
      std::vector<std::pair<std::string, int>> order;
      for (int i = 0; i < r->FieldSize(m, f); ++i) order.emplace_back(mapKeyOf(r->GetRepeatedMessage(m, f, i)), i);
      std::sort(order.begin(), order.end());
      for (auto &[key, i] : order) printField(m, f, i, indent, out);
    } else if (f->is_repeated()) {
      for (int i = 0; i < m.GetReflection()->FieldSize(m, f); ++i) printField(m, f, i, indent, out);
    } else {
      printField(m, f, -1, indent, out);
    }
  }
}

}  // namespace

std::string pythonTextFormat(const google::protobuf::Message &m) {
  std::string out;
  printMessage(m, 0, out);
  return out;
}

namespace {

// --- values ----------------------------------------------------------------------

Value scalarValue(Interpreter &in, const pb::Message &m, const FD *f, int index) {
  const pb::Reflection *r = m.GetReflection();
  bool rep = f->is_repeated();
  switch (f->cpp_type()) {
  case FD::CPPTYPE_INT32: return Value::integer(int64_t(rep ? r->GetRepeatedInt32(m, f, index) : r->GetInt32(m, f)));
  case FD::CPPTYPE_INT64: return Value::integer(int64_t(rep ? r->GetRepeatedInt64(m, f, index) : r->GetInt64(m, f)));
  case FD::CPPTYPE_UINT32: return Value::integer(int64_t(rep ? r->GetRepeatedUInt32(m, f, index) : r->GetUInt32(m, f)));
  case FD::CPPTYPE_UINT64: return Value::integer(int64_t(rep ? r->GetRepeatedUInt64(m, f, index) : r->GetUInt64(m, f)));
  case FD::CPPTYPE_FLOAT: return Value::real(double(rep ? r->GetRepeatedFloat(m, f, index) : r->GetFloat(m, f)));
  case FD::CPPTYPE_DOUBLE: return Value::real(rep ? r->GetRepeatedDouble(m, f, index) : r->GetDouble(m, f));
  case FD::CPPTYPE_BOOL: return Value::boolean(rep ? r->GetRepeatedBool(m, f, index) : r->GetBool(m, f));
  case FD::CPPTYPE_STRING: {
    std::string s = rep ? r->GetRepeatedString(m, f, index) : r->GetString(m, f);
    if (f->type() == FD::TYPE_BYTES) return Value(make<BytesObject>(std::move(s)));
    return in.str(std::move(s));
  }
  case FD::CPPTYPE_ENUM: return Value::integer(int64_t(rep ? r->GetRepeatedEnumValue(m, f, index) : r->GetEnumValue(m, f)));
  case FD::CPPTYPE_MESSAGE: break;
  }
  return Value();
}

// Python protobuf's type checks: ints for integer fields, numbers for float
// fields, str/bytes for string fields.
void addScalar(Interpreter &in, pb::Message *m, const FD *f, const Value &v, int index = -1) {
  const pb::Reflection *r = m->GetReflection();
  bool rep = f->is_repeated(), add = rep && index < 0;
  auto typeError = [&](const char *want) {
    in.raise("TypeError", fmt::format("{} has type {}, but expected one of: {}", in.repr(v), in.typeName(v), want));
  };
  switch (f->cpp_type()) {
  case FD::CPPTYPE_INT32: case FD::CPPTYPE_INT64: case FD::CPPTYPE_UINT32: case FD::CPPTYPE_UINT64:
  case FD::CPPTYPE_ENUM: {
    if (v.isFloat() || v.as<StrObject>() || v.as<BytesObject>() || v.isNone()) typeError("int");
    int64_t x = in.toInt(v);
    if (f->cpp_type() == FD::CPPTYPE_INT64) {
      if (add) r->AddInt64(m, f, x); else if (rep) r->SetRepeatedInt64(m, f, index, x); else r->SetInt64(m, f, x);
    } else if (f->cpp_type() == FD::CPPTYPE_INT32) {
      if (x < INT32_MIN || x > INT32_MAX) in.raise("ValueError", fmt::format("Value out of range: {}", x));
      if (add) r->AddInt32(m, f, int32_t(x)); else if (rep) r->SetRepeatedInt32(m, f, index, int32_t(x)); else r->SetInt32(m, f, int32_t(x));
    } else if (f->cpp_type() == FD::CPPTYPE_ENUM) {
      if (add) r->AddEnumValue(m, f, int(x)); else if (rep) r->SetRepeatedEnumValue(m, f, index, int(x)); else r->SetEnumValue(m, f, int(x));
    } else {
      if (x < 0) in.raise("ValueError", fmt::format("Value out of range: {}", x));
      if (f->cpp_type() == FD::CPPTYPE_UINT64) {
        if (add) r->AddUInt64(m, f, uint64_t(x)); else if (rep) r->SetRepeatedUInt64(m, f, index, uint64_t(x)); else r->SetUInt64(m, f, uint64_t(x));
      } else {
        if (add) r->AddUInt32(m, f, uint32_t(x)); else if (rep) r->SetRepeatedUInt32(m, f, index, uint32_t(x)); else r->SetUInt32(m, f, uint32_t(x));
      }
    }
    return;
  }
  case FD::CPPTYPE_FLOAT: case FD::CPPTYPE_DOUBLE: {
    if (v.as<StrObject>() || v.as<BytesObject>() || v.isNone()) typeError("int, float");
    double x = in.toFloat(v);
    if (f->cpp_type() == FD::CPPTYPE_FLOAT) {
      if (add) r->AddFloat(m, f, float(x)); else if (rep) r->SetRepeatedFloat(m, f, index, float(x)); else r->SetFloat(m, f, float(x));
    } else {
      if (add) r->AddDouble(m, f, x); else if (rep) r->SetRepeatedDouble(m, f, index, x); else r->SetDouble(m, f, x);
    }
    return;
  }
  case FD::CPPTYPE_BOOL: {
    bool x = in.truth(v);
    if (add) r->AddBool(m, f, x); else if (rep) r->SetRepeatedBool(m, f, index, x); else r->SetBool(m, f, x);
    return;
  }
  case FD::CPPTYPE_STRING: {
    std::string x;
    if (auto *s = v.as<StrObject>()) x = s->s;
    else if (auto *b = v.as<BytesObject>()) x = b->s;
    else typeError(f->type() == FD::TYPE_BYTES ? "bytes" : "bytes, unicode");
    if (add) r->AddString(m, f, x); else if (rep) r->SetRepeatedString(m, f, index, x); else r->SetString(m, f, x);
    return;
  }
  case FD::CPPTYPE_MESSAGE: break;
  }
}

// --- wrappers ----------------------------------------------------------------------

struct MessageObject;

const pb::Message *messageOf(const Value &v);

// The entry of `key` in map field f of m (added when absent and `create`).
pb::Message *mapEntry(Interpreter &in, pb::Message *m, const FD *f, const Value &key, bool create) {
  const pb::Reflection *r = m->GetReflection();
  const FD *keyField = f->message_type()->FindFieldByNumber(1);
  for (int i = 0; i < r->FieldSize(*m, f); ++i) {
    pb::Message *e = r->MutableRepeatedMessage(m, f, i);
    Value k = scalarValue(in, *e, keyField, -1);
    if (in.truth(in.compare(CmpOp::Eq, k, key))) return e;
  }
  if (!create) return nullptr;
  pb::Message *e = r->AddMessage(m, f);
  addScalar(in, e, keyField, key);
  return e;
}

struct RepeatedObject final : Object {
  Handle h;
  const FD *field;
  const char *typeName() const override {
    return field->is_map() ? (field->message_type()->FindFieldByNumber(2)->cpp_type() == FD::CPPTYPE_MESSAGE
                                  ? "MessageMap"
                                  : "ScalarMap")
           : field->cpp_type() == FD::CPPTYPE_MESSAGE ? "RepeatedCompositeContainer"
                                                      : "RepeatedScalarContainer";
  }
  int size(Interpreter &in) const { return h.get(in)->GetReflection()->FieldSize(*h.get(in), field); }
  Value item(Interpreter &in, int i) const {
    pb::Message *m = h.get(in);
    if (field->cpp_type() == FD::CPPTYPE_MESSAGE)
      return wrapMessage(h.root, m->GetReflection()->MutableRepeatedMessage(m, field, i));
    return scalarValue(in, *m, field, i);
  }
  int index(Interpreter &in, const Value &v) const {
    int64_t i = in.toInt(v), n = size(in);
    if (i < 0) i += n;
    if (i < 0 || i >= n) in.raise("IndexError", "list index out of range");
    return int(i);
  }
  std::vector<Value> items(Interpreter &in) const {
    std::vector<Value> out;
    if (field->is_map()) {
      const FD *k = field->message_type()->FindFieldByNumber(1);
      pb::Message *m = h.get(in);
      for (int i = 0; i < size(in); ++i) out.push_back(scalarValue(in, m->GetReflection()->GetRepeatedMessage(*m, field, i), k, -1));
      return out;
    }
    for (int i = 0; i < size(in); ++i) out.push_back(item(in, i));
    return out;
  }
  Value mapValue(Interpreter &in, const Value &key, bool create) const {
    pb::Message *e = mapEntry(in, h.get(in), field, key, create);
    if (!e) return Value();
    const FD *vf = field->message_type()->FindFieldByNumber(2);
    if (vf->cpp_type() == FD::CPPTYPE_MESSAGE) return wrapMessage(h.root, e->GetReflection()->MutableMessage(e, vf));
    return scalarValue(in, *e, vf, -1);
  }

  std::optional<int64_t> length(Interpreter &in) override { return size(in); }
  std::optional<Value> iter(Interpreter &in) override { return in.iter(in.list(items(in))); }
  std::optional<bool> contains(Interpreter &in, const Value &v) override {
    if (field->is_map()) return mapEntry(in, h.get(in), field, v, false) != nullptr;
    for (const Value &x : items(in))
      if (in.truth(in.compare(CmpOp::Eq, x, v))) return true;
    return false;
  }
  std::optional<Value> getItem(Interpreter &in, const Value &key) override {
    if (field->is_map()) {
      // A message map adds a missing key on read, as Python's does.
      bool messages = field->message_type()->FindFieldByNumber(2)->cpp_type() == FD::CPPTYPE_MESSAGE;
      Value v = mapValue(in, key, messages);
      if (!messages && !mapEntry(in, h.get(in), field, key, false)) in.raiseValue(in.newException(in.exceptionClass("KeyError"), in.repr(key)));
      return v;
    }
    if (key.as<SliceObject>()) return in.getItem(in.list(items(in)), key);
    return item(in, index(in, key));
  }
  bool setItem(Interpreter &in, const Value &key, const Value &v) override {
    if (field->is_map()) {
      const FD *vf = field->message_type()->FindFieldByNumber(2);
      if (vf->cpp_type() == FD::CPPTYPE_MESSAGE) in.raise("ValueError", "Direct assignment of submessage not allowed");
      addScalar(in, mapEntry(in, h.get(in), field, key, true), vf, v);
      return true;
    }
    if (field->cpp_type() == FD::CPPTYPE_MESSAGE)
      in.raise("TypeError", "does not support assignment");
    addScalar(in, h.get(in), field, v, index(in, key));
    return true;
  }
  std::optional<Value> compare(Interpreter &in, CmpOp op, const Value &other) override {
    if (op != CmpOp::Eq && op != CmpOp::Ne) return std::nullopt;
    std::vector<Value> others;
    if (auto *o = other.as<RepeatedObject>()) others = o->items(in);
    else if (other.as<ListObject>()) others = in.toList(other);
    else return Value::boolean(op == CmpOp::Ne);
    bool eq = in.truth(in.compare(CmpOp::Eq, in.list(items(in)), in.list(others)));
    return Value::boolean(op == CmpOp::Eq ? eq : !eq);
  }
  std::optional<std::string> repr(Interpreter &in) override {
    if (!field->is_map()) return in.repr(in.list(items(in)));
    std::string out = "{";
    std::vector<Value> keys = items(in);
    for (size_t i = 0; i < keys.size(); ++i) {
      if (i) out += ", ";
      out += in.repr(keys[i]) + ": " + in.repr(mapValue(in, keys[i], false));
    }
    return out + "}";
  }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override;
};

struct MessageObject final : Object {
  Handle h;
  const char *typeName() const override { return h.msg->GetDescriptor()->name().c_str(); }
  const FD *field(Interpreter &in, const std::string &name) const {
    const FD *f = h.msg->GetDescriptor()->FindFieldByName(name);
    if (!f)
      in.raise("AttributeError", fmt::format("{} has no field {}", h.msg->GetDescriptor()->name(), name));
    return f;
  }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override;
  bool setAttr(Interpreter &in, const std::string &name, const Value &v) override {
    pb::Message *m = h.get(in);
    const FD *f = m->GetDescriptor()->FindFieldByName(name);
    if (!f) in.raise("AttributeError", fmt::format("Assignment not allowed (no field \"{}\" in protocol message object).", name));
    if (f->is_repeated() || f->cpp_type() == FD::CPPTYPE_MESSAGE)
      in.raise("AttributeError", fmt::format("Assignment not allowed to field \"{}\" in protocol message object.", name));
    addScalar(in, m, f, v);
    return true;
  }
  std::optional<std::string> str(Interpreter &in) override {
    std::string out;
    printMessage(*h.get(in), 0, out);
    return out;
  }
  std::optional<std::string> repr(Interpreter &in) override { return str(in); }
  std::optional<Value> compare(Interpreter &in, CmpOp op, const Value &other) override {
    if (op != CmpOp::Eq && op != CmpOp::Ne) return std::nullopt;
    const pb::Message *o = messageOf(other);
    bool eq = o && o->GetDescriptor() == h.get(in)->GetDescriptor() &&
              pb::util::MessageDifferencer::Equals(*o, *h.get(in));
    return Value::boolean(op == CmpOp::Eq ? eq : !eq);
  }
};

const pb::Message *messageOf(const Value &v) {
  auto *m = v.as<MessageObject>();
  return m ? m->h.msg : nullptr;
}

Value wrapMessage(std::shared_ptr<Root> root, pb::Message *msg) {
  auto w = make<MessageObject>();
  w->h = Handle{root, msg, root->generation};
  return Value(w);
}

Value wrapRepeated(const Handle &h, const FD *f) {
  auto w = make<RepeatedObject>();
  w->h = h;
  w->field = f;
  return Value(w);
}

std::optional<Value> RepeatedObject::getAttr(Interpreter &in, const std::string &name) {
  Ref<RepeatedObject> self(this);
  bool messages = field->cpp_type() == FD::CPPTYPE_MESSAGE;
  if (field->is_map()) {
    if (name == "keys") return nativeWithSignature(in, "keys()", [self](Interpreter &in, const Bound &) { return in.list(self->items(in)); });
    if (name == "values" || name == "items") {
      bool items = name == "items";
      return nativeWithSignature(in, items ? "items()" : "values()", [self, items](Interpreter &in, const Bound &) {
        std::vector<Value> out;
        for (const Value &k : self->items(in)) {
          Value v = self->mapValue(in, k, false);
          out.push_back(items ? in.tuple({k, v}) : v);
        }
        return in.list(out);
      });
    }
    if (name == "get")
      return nativeWithSignature(in, "get(key, default=None)", [self](Interpreter &in, const Bound &a) {
        return mapEntry(in, self->h.get(in), self->field, a["key"], false) ? self->mapValue(in, a["key"], false) : a["default"];
      });
    return std::nullopt;
  }
  if (name == "add" && messages)
    return nativeWithSignature(in, "add(**kwargs)", [self](Interpreter &in, const Bound &a) {
      pb::Message *m = self->h.get(in);
      pb::Message *sub = m->GetReflection()->AddMessage(m, self->field);
      for (auto &[k, v] : a.varKwargs()) setField(in, sub, sub->GetDescriptor()->FindFieldByName(k), v);
      return wrapMessage(self->h.root, sub);
    });
  if (name == "append" || name == "extend") {
    bool extend = name == "extend";
    return nativeWithSignature(in, extend ? "extend(elem_seq)" : "append(value)",
                               [self, extend, messages](Interpreter &in, const Bound &a) {
      std::vector<Value> values = extend ? in.toList(a[0]) : std::vector<Value>{a[0]};
      pb::Message *m = self->h.get(in);
      for (const Value &v : values) {
        if (messages) {
          const pb::Message *src = messageOf(v);
          if (!src || src->GetDescriptor() != self->field->message_type())
            in.raise("TypeError", fmt::format("Expected {}, got {}", self->field->message_type()->full_name(), in.typeName(v)));
          m->GetReflection()->AddMessage(m, self->field)->CopyFrom(*src);
        } else {
          addScalar(in, m, self->field, v);
        }
      }
      return Value();
    });
  }
  return std::nullopt;
}

void setField(Interpreter &in, pb::Message *m, const FD *f, const Value &v) {
  if (!f) in.raise("ValueError", fmt::format("Protocol message {} has no such field.", m->GetDescriptor()->name()));
  const pb::Reflection *r = m->GetReflection();
  if (v.isNone()) return;
  if (f->is_map()) {
    auto *d = v.as<DictObject>();
    if (!d) in.raise("TypeError", fmt::format("Expected a dict for map field {}, got {}", f->name(), in.typeName(v)));
    const FD *vf = f->message_type()->FindFieldByNumber(2);
    for (auto &[key, value] : d->items()) {
      pb::Message *e = mapEntry(in, m, f, key, true);
      if (vf->cpp_type() == FD::CPPTYPE_MESSAGE) setField(in, e, vf, value);
      else addScalar(in, e, vf, value);
    }
  } else if (f->is_repeated()) {
    for (const Value &x : in.toList(v)) {
      if (f->cpp_type() == FD::CPPTYPE_MESSAGE) {
        pb::Message *sub = r->AddMessage(m, f);
        if (const pb::Message *src = messageOf(x)) sub->CopyFrom(*src);
        else setField(in, sub, nullptr, x);
      } else {
        addScalar(in, m, f, x);
      }
    }
  } else if (f->cpp_type() == FD::CPPTYPE_MESSAGE) {
    pb::Message *sub = r->MutableMessage(m, f);
    if (const pb::Message *src = messageOf(v)) {
      if (src->GetDescriptor() != f->message_type())
        in.raise("TypeError", fmt::format("Parameter to CopyFrom() must be instance of same class: expected {} got {}.",
                                          f->message_type()->full_name(), src->GetDescriptor()->full_name()));
      sub->CopyFrom(*src);
    } else if (auto *d = v.as<DictObject>()) {
      for (auto &[k, x] : d->items()) setField(in, sub, sub->GetDescriptor()->FindFieldByName(in.str(k)), x);
    } else {
      in.raise("TypeError", fmt::format("Parameter to initialize message field must be dict or instance of same "
                                        "class: expected {} got {}.",
                                        f->message_type()->full_name(), in.typeName(v)));
    }
  } else {
    addScalar(in, m, f, v);
  }
}

std::optional<Value> MessageObject::getAttr(Interpreter &in, const std::string &name) {
  Ref<MessageObject> self(this);
  pb::Message *m = h.get(in);
  if (const FD *f = m->GetDescriptor()->FindFieldByName(name)) {
    if (f->is_repeated()) return wrapRepeated(h, f);
    if (f->cpp_type() == FD::CPPTYPE_MESSAGE) return wrapMessage(h.root, m->GetReflection()->MutableMessage(m, f));
    return scalarValue(in, *m, f, -1);
  }
  auto method = [&](const char *sig, SignedFn fn) { return nativeWithSignature(in, sig, std::move(fn)); };
  if (name == "SerializeToString")
    return method("SerializeToString(*, deterministic=None)", [self](Interpreter &in, const Bound &) {
      std::string out;
      self->h.get(in)->SerializeToString(&out);
      return Value(make<BytesObject>(std::move(out)));
    });
  if (name == "ParseFromString" || name == "MergeFromString") {
    bool merge = name == "MergeFromString";
    return method(merge ? "MergeFromString(serialized)" : "ParseFromString(serialized)",
                  [self, merge](Interpreter &in, const Bound &a) {
      auto *b = a["serialized"].as<BytesObject>();
      if (!b) in.raise("TypeError", fmt::format("a bytes-like object is required, not '{}'", in.typeName(a["serialized"])));
      pb::Message *m = self->h.get(in);
      if (!merge) {
        m->Clear();
        ++self->h.root->generation;
        self->h.generation = self->h.root->generation;
      }
      if (!m->MergeFromString(b->s)) in.raise("DecodeError", "Error parsing message");
      return Value::integer(int64_t(b->s.size()));
    });
  }
  if (name == "CopyFrom" || name == "MergeFrom") {
    bool copy = name == "CopyFrom";
    return method(copy ? "CopyFrom(other_msg)" : "MergeFrom(msg)", [self, copy](Interpreter &in, const Bound &a) {
      const pb::Message *src = messageOf(a[0]);
      pb::Message *m = self->h.get(in);
      if (!src || src->GetDescriptor() != m->GetDescriptor())
        in.raise("TypeError", fmt::format("Parameter to {}() must be instance of same class: expected {} got {}.",
                                          copy ? "CopyFrom" : "MergeFrom", m->GetDescriptor()->full_name(),
                                          in.typeName(a[0])));
      if (src == m) return Value();
      if (copy) {
        std::unique_ptr<pb::Message> tmp(src->New());
        tmp->CopyFrom(*src);
        m->Clear();
        ++self->h.root->generation;
        self->h.generation = self->h.root->generation;
        m->MergeFrom(*tmp);
      } else {
        m->MergeFrom(*src);
      }
      return Value();
    });
  }
  if (name == "Clear")
    return method("Clear()", [self](Interpreter &in, const Bound &) {
      self->h.get(in)->Clear();
      ++self->h.root->generation;
      self->h.generation = self->h.root->generation;
      return Value();
    });
  if (name == "HasField")
    return method("HasField(field_name)", [self](Interpreter &in, const Bound &a) {
      pb::Message *m = self->h.get(in);
      std::string n = in.str(a[0]);
      if (const pb::OneofDescriptor *o = m->GetDescriptor()->FindOneofByName(n))
        return Value::boolean(m->GetReflection()->HasOneof(*m, o));
      const FD *f = m->GetDescriptor()->FindFieldByName(n);
      if (!f || f->is_repeated())
        in.raise("ValueError", fmt::format("Protocol message {} has no singular \"{}\" field.", m->GetDescriptor()->name(), n));
      return Value::boolean(m->GetReflection()->HasField(*m, f));
    });
  if (name == "WhichOneof")
    return method("WhichOneof(oneof_group)", [self](Interpreter &in, const Bound &a) {
      pb::Message *m = self->h.get(in);
      std::string n = in.str(a[0]);
      const pb::OneofDescriptor *o = m->GetDescriptor()->FindOneofByName(n);
      if (!o) in.raise("ValueError", fmt::format("Protocol message has no oneof \"{}\" field.", n));
      const FD *f = m->GetReflection()->GetOneofFieldDescriptor(*m, o);
      return f ? in.str(f->name()) : Value();
    });
  if (name == "ByteSize")
    return method("ByteSize()", [self](Interpreter &in, const Bound &) { return Value::integer(int64_t(self->h.get(in)->ByteSizeLong())); });
  if (name == "ListFields")
    return method("ListFields()", [self](Interpreter &in, const Bound &) {
      pb::Message *m = self->h.get(in);
      std::vector<const FD *> fields;
      m->GetReflection()->ListFields(*m, &fields);
      std::vector<Value> out;
      for (const FD *f : fields) out.push_back(in.tuple({in.str(f->name()), *self->getAttr(in, f->name())}));
      return in.list(out);
    });
  return std::nullopt;
}

Value newMessage(Interpreter &in, const pb::Descriptor *d, Args args, const Kwargs &kw) {
  if (!args.empty()) in.raise("TypeError", "No positional arguments allowed");
  auto root = std::make_shared<Root>();
  root->message.reset(pb::MessageFactory::generated_factory()->GetPrototype(d)->New());
  for (auto &[k, v] : kw) {
    const FD *f = d->FindFieldByName(k);
    if (!f) in.raise("ValueError", fmt::format("Protocol message {} has no \"{}\" field.", d->name(), k));
    setField(in, root->message.get(), f, v);
  }
  return wrapMessage(root, root->message.get());
}

// A message class: callable with field keywords, with FromString.
struct MessageClassObject final : Object {
  const pb::Descriptor *descriptor;
  explicit MessageClassObject(const pb::Descriptor *d) : descriptor(d) {}
  const char *typeName() const override { return "GeneratedProtocolMessageType"; }
  std::optional<Value> call(Interpreter &in, Args a, const Kwargs &kw) override { return newMessage(in, descriptor, a, kw); }
  std::optional<std::string> repr(Interpreter &) override {
    return fmt::format("<class '{}'>", "tensorflow.core.example." +
                                           std::string(descriptor->file()->name().find("feature") != std::string::npos ? "feature_pb2." : "example_pb2.") +
                                           descriptor->name());
  }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override {
    const pb::Descriptor *d = descriptor;
    if (name == "FromString")
      return nativeWithSignature(in, "FromString(s)", [d](Interpreter &in, const Bound &a) {
        Value msg = newMessage(in, d, Args(std::span<const Value>()), Kwargs{});
        std::vector<Value> args{a["s"]};
        in.call(in.getAttr(msg, "ParseFromString"), args);
        return msg;
      });
    if (name == "__name__") return in.str(d->name());
    return std::nullopt;
  }
};

}  // namespace

std::optional<Value> exampleProtoClass(Interpreter &, const std::string &name) {
  static const char *const kNames[] = {"Example", "SequenceExample", "Features", "Feature", "FeatureList",
                                       "FeatureLists", "BytesList", "FloatList", "Int64List"};
  for (const char *n : kNames)
    if (name == n) {
      // Linking the generated code registers its descriptors.
      (void)tensorflow::Example::descriptor();
      const pb::Descriptor *d = pb::DescriptorPool::generated_pool()->FindMessageTypeByName("tensorflow." + name);
      if (d) return Value(make<MessageClassObject>(d));
    }
  return std::nullopt;
}

}  // namespace tfs::runtime::tf::io
