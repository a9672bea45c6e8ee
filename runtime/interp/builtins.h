// Built-in functions, types and methods of the language (private to the
// interpreter): installed into the builtins scope at start-up.
#pragma once

#include "runtime/interp/interpreter.h"

namespace tfs::runtime {

void installBuiltinFunctions(Interpreter &in, Scope &builtins);
// locals(), globals(), vars(), dir() (frame_names.cpp).
void installFrameBuiltins(Interpreter &in, Scope &builtins);
// Methods of built-in types (str.join, list.append, dict.items, ...).
std::optional<Value> builtinMethod(Interpreter &in, const Value &self, const std::string &name);
// Ordering of built-in values (str < str, tuple < tuple, list == list ...).
std::optional<Value> builtinCompare(Interpreter &in, CmpOp op, const Value &a, const Value &b);
// A KeyError whose args are (key,) (CPython: str(e) is repr(key)).
Value newKeyError(Interpreter &in, const Value &key);
// StopIteration.value, SystemExit.code, OSError's attributes (exceptions.cpp).
void installExceptionDetails(Interpreter &in);
// str(exc) for exceptions whose message is not their args (OSError).
std::optional<std::string> specialExceptionMessage(Interpreter &in, InstanceObject &inst);
// obj.__dict__ of an instance: a live view of its attributes (name_dict.cpp).
Value instanceDict(Interpreter &in, const Value &instance);
// A live dict view of a scope's names: globals(), module.__dict__, locals()
// in a class body (name_dict.cpp).
Value scopeDict(Interpreter &in, Ref<Scope> scope);
// A class's __dict__: a read-only live mappingproxy of its namespace, and
// types.MappingProxyType(mapping) (mapping_proxy.cpp).
Value classMappingProxy(Interpreter &in, ClassObject *cls);
Value newMappingProxy(Interpreter &in, const Value &mapping);
// The scope behind a scopeDict() view; null for anything else.
Ref<Scope> scopeOfDict(const Value &v);
// exec/eval of a source string in these namespaces (dicts or scopeDict
// views; None: a new dict / the globals), exec_eval.cpp.
Value runSourceString(Interpreter &in, bool isEval, const Value &source, const Value &globals, const Value &locals);
void installExecEval(Interpreter &in, Scope &builtins);
// The (key, value) pairs of a mapping (a dict, a dict subclass, anything
// with keys() and [] like CPython's dict(m)); nullopt for a non-mapping.
std::optional<std::vector<std::pair<Value, Value>>> mappingItems(Interpreter &in, const Value &v);
// dict(arg) / d.update(arg) / d |= arg: a mapping's items, else an iterable of
// key/value pairs with CPython's errors for an element that is not a pair.
void dictUpdateFrom(Interpreter &in, DictObject &d, const Value &arg);
// cls.fromkeys bound to dict or a subclass of it (`D.fromkeys(it, v)` and `D().fromkeys` make a D, each
// key set through the class's own __setitem__, as CPython does for subclasses).
Value dictFromKeysOf(Interpreter &in, const Value &cls);
// --- classes (classes.cpp) ---
ClassObject *typeClass(Interpreter &in);
bool isMetaclass(Interpreter &in, const ClassObject *c);  // a subclass of type
// The built-in type a class derives from (dict for class D(dict)), or null.
ClassObject *builtinBase(const ClassObject *cls);
// The built-in value of an instance of such a class, or null.
const Value *builtinPart(const Value &v);
// Text, None, the built-in containers and complex numbers: what round(),
// divmod() and the math functions refuse (round('1.5') is a TypeError in
// CPython, not 2).
bool isNonRealBuiltin(Interpreter &in, const Value &v);
// v itself, or the built-in value inside an instance of a subclass of a built-in type.
inline const Value &unwrapBuiltin(const Value &v) {
  const Value *b = builtinPart(v);
  return b ? *b : v;
}
Ref<ClassObject> createClass(Interpreter &in, const std::string &name, std::vector<Ref<ClassObject>> bases,
                             const std::vector<std::pair<std::string, Value>> &ns, Ref<ClassObject> metaclass,
                             const Kwargs &kwargs);
Value typeNew(Interpreter &in, ClassObject *mcs, Args a, const Kwargs &kw);
Value objectNew(Interpreter &in, const Value &cls, Args rest);
// Calling a class: its metaclass's __call__, else defaultInstantiate.
Value instantiate(Interpreter &in, ClassObject *cls, Args args, const Kwargs &kwargs);
// __new__ then __init__ (type.__call__).
Value defaultInstantiate(Interpreter &in, ClassObject *cls, Args args, const Kwargs &kwargs);
// Dunder methods of built-in values, bound (dunders.cpp): (1).__add__,
// d.__getitem__, and super().__init__ / super().__setitem__ in a subclass
// of a built-in type.
std::optional<Value> builtinDunder(Interpreter &in, const Value &self, const std::string &name);
// list/dict/set.__init__(target, *a, **kw) as CPython runs it on an existing
// object (target: the value, or an instance's built-in part, None until set).
// The methods of bytes and bytearray (bytes_methods.cpp), and their constructors.
std::optional<Value> bytesMethodOf(Interpreter &in, const Value &self, const std::string &name);
Value constructBytes(Interpreter &in, Args a, const Kwargs &kw, bool isMutable);
// bytes.fromhex / bytearray.fromhex.
Value bytesFromHex(Interpreter &in, Args a, const Kwargs &kw, bool isMutable);
// A slice's clamped start, stop and step over a sequence of length n.
void sliceBounds(Interpreter &in, const SliceObject &s, int64_t n, int64_t &start, int64_t &stop, int64_t &step);
// ba[i] = byte, ba[i:j] = bytes-like or iterable of ints.
void setBytearrayItem(Interpreter &in, BytesObject &b, const Value &key, const Value &v);
void initBuiltinInPlace(Interpreter &in, ClassObject *base, Value &target, Args a, const Kwargs &kw);
// The method `name` of cls's metaclass bound to cls, if it has a user metaclass defining it.
std::optional<Value> metaclassMethod(Interpreter &in, const Value &cls, const char *name);
// `del l[a:b:c]`.
void deleteListSlice(Interpreter &in, ListObject &l, const SliceObject &s);
// `del base[idx]` for every built-in container and classes with __delitem__.
void deleteSubscript(Interpreter &in, const Value &base, const Value &idx);
// del b[i] / del b[i:j:k] of a bytearray.
void deleteBytearrayItem(Interpreter &in, BytesObject &b, const Value &index);
// `x in range(...)` for an int x, by arithmetic.
bool rangeContains(const RangeObject &r, int64_t x);
// reversed(range): a lazy iterator from the last element down.
Value reversedRange(Interpreter &in, const RangeObject &r);

// `<__main__.C object at 0x...>`: object.__repr__, whatever the class defines.
std::string defaultObjectRepr(Interpreter &in, const Value &v);
// `ValueError('x')`: BaseException.__repr__ of an exception instance.
std::string exceptionRepr(Interpreter &in, const Value &v);
// object's own slot `name` (object.__repr__, __eq__, __getattribute__, ...)
// as an unbound native taking self first; none for names object lacks or
// keeps in its namespace (object_slots.cpp).
std::optional<Value> objectSlot(Interpreter &in, const std::string &name);
// `list[int]`: the types.GenericAlias of a built-in container type
// subscripted (generic_alias.cpp); none for other classes.
std::optional<Value> builtinGenericAlias(Interpreter &in, const Value &cls, const Value &args);
// `int | None`: the types.UnionType of classes (and None, aliases, unions);
// none when an operand is something else.
std::optional<Value> typeUnion(Interpreter &in, const Value &a, const Value &b);
// isinstance(v, info) (subclass false) or issubclass(v, info) (type_checks.cpp).
bool classInfoCheck(Interpreter &in, const Value &v, const Value &info, bool subclass);
// object.__getattribute__(obj, name) for an instance: no __getattr__.
std::optional<Value> genericInstanceAttr(Interpreter &in, const Value &obj, const std::string &name);

}  // namespace tfs::runtime
