// numpy indexing: a[key] and a[key] = value.
//
// Basic indices (integers, slices, None, `...`) select a strided part of the
// array: reading gives a view (a numpy scalar when integers consume every
// axis). Advanced indices (integer arrays or lists, boolean masks) select
// arbitrary elements and give a copy: the integer arrays broadcast together,
// and their shape replaces the indexed axes where they stand when they are
// adjacent, or comes first when slices separate them (numpy's rule).
// Booleans masks are their nonzero() positions. Assignment writes through
// the same positions (ndarray_view.cpp).
#include "lib/numpy/ndarray.h"

#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

enum class ItemKind { Int, Slice, NewAxis, Ellipsis, IntArray, BoolArray };

struct Item {
  ItemKind kind;
  int64_t value = 0;
  const SliceObject *slice = nullptr;
  Tensor array = {};  // IntArray (int64) / BoolArray
};

[[noreturn]] void invalidIndex(Interpreter &in) {
  in.raise("IndexError", "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
                         "boolean arrays are valid indices");
}

Item parseItem(Interpreter &in, const Value &v) {
  if (v.isNone()) return {ItemKind::NewAxis};
  if (v.is(in.builtin("Ellipsis"))) return {ItemKind::Ellipsis};
  if (auto *s = v.as<SliceObject>()) return {ItemKind::Slice, 0, s};
  if (v.isBool()) in.raise("NotImplementedError", "a Python bool as an index is not supported by tfs");
  if (v.isInt()) return {ItemKind::Int, v.asInt()};
  if (v.isFloat()) invalidIndex(in);
  bool arrayLike = v.as<ListObject>() || v.as<TupleObject>() || v.as<TensorObject>() || v.as<VariableObject>();
  if (!arrayLike) {
    if (v.as<StrObject>()) invalidIndex(in);
    return {ItemKind::Int, in.toIndex(v)};
  }
  Tensor t;
  auto *list = v.as<ListObject>();
  if (list && list->items.empty()) t = Tensor::empty(DType::Int64, {0});
  else t = asTensor(in, v);
  if (t.dtype() == DType::Bool) return {ItemKind::BoolArray, 0, nullptr, t};
  if (!ir::isInteger(t.dtype())) {
    if (t.rank() == 0) invalidIndex(in);
    in.raise("IndexError", "arrays used as indices must be of integer (or boolean) type");
  }
  if (t.rank() == 0 && v.as<TensorObject>()) return {ItemKind::Int, t.elementAsInt(0)};
  return {ItemKind::IntArray, 0, nullptr, cast(t, DType::Int64)};
}

int64_t checkIndex(Interpreter &in, int64_t i, int64_t size, size_t axis) {
  if (i < -size || i >= size)
    in.raise("IndexError", fmt::format("index {} is out of bounds for axis {} with size {}", i, axis, size));
  return i < 0 ? i + size : i;
}

// Python's slice.indices(n): start, step and the number of elements.
void sliceExtent(Interpreter &in, const SliceObject &s, int64_t n, int64_t &start, int64_t &step, int64_t &len) {
  step = s.step.isNone() ? 1 : in.toIndex(s.step);
  if (step == 0) in.raise("ValueError", "slice step cannot be zero");
  int64_t lo = step < 0 ? -1 : 0, hi = step < 0 ? n - 1 : n;
  auto clamp = [&](const Value &v, int64_t dflt) {
    if (v.isNone()) return dflt;
    int64_t x = in.toIndex(v);
    if (x < 0) x = std::max(x + n, lo);
    else x = std::min(x, hi);
    return x;
  };
  start = clamp(s.lower, step < 0 ? n - 1 : 0);
  int64_t stop = clamp(s.upper, step < 0 ? -1 : n);
  // 128-bit: a step of -2**63 must not overflow.
  __int128 b = start, e = stop, st = step;
  len = int64_t(st > 0 ? (e > b ? (e - b + st - 1) / st : 0) : (b > e ? (b - e - st - 1) / (-st) : 0));
}

// The key as one item per indexed axis (trailing axes get full slices),
// booleans masks expanded to their nonzero positions.
std::vector<Item> expandKey(Interpreter &in, const Value &key, const Shape &shape, bool &integersOnly) {
  std::vector<Value> raw = key.as<TupleObject>() ? key.as<TupleObject>()->items : std::vector<Value>{key};
  std::vector<Item> items;
  size_t consumed = 0, ellipses = 0;
  integersOnly = true;
  for (const Value &v : raw) {
    Item it = parseItem(in, v);
    if (it.kind != ItemKind::Int) integersOnly = false;
    if (it.kind == ItemKind::Ellipsis && ++ellipses > 1)
      in.raise("IndexError", "an index can only have a single ellipsis ('...')");
    if (it.kind == ItemKind::BoolArray) consumed += it.array.rank();
    else if (it.kind != ItemKind::NewAxis && it.kind != ItemKind::Ellipsis) consumed += 1;
    items.push_back(std::move(it));
  }
  if (consumed > shape.size())
    in.raise("IndexError", fmt::format("too many indices for array: array is {}-dimensional, but {} were indexed",
                                       shape.size(), consumed));
  static const SliceObject fullSlice{};
  std::vector<Item> out;
  size_t axis = 0;
  for (auto &it : items) {
    if (it.kind == ItemKind::Ellipsis) {
      for (size_t k = 0; k < shape.size() - consumed; ++k) out.push_back({ItemKind::Slice, 0, &fullSlice});
      axis += shape.size() - consumed;
      continue;
    }
    if (it.kind == ItemKind::BoolArray) {
      const Tensor &m = it.array;
      for (size_t k = 0; k < m.rank(); ++k)
        if (m.shape()[k] != shape[axis + k])
          in.raise("IndexError", fmt::format("boolean index did not match indexed array along dimension {}; "
                                             "dimension is {} but corresponding boolean dimension is {}",
                                             axis + k, shape[axis + k], m.shape()[k]));
      // One int64 index array per mask axis: the coordinates of its True elements.
      Shape ms = cStrides(m.shape());
      std::vector<std::vector<int64_t>> coords(m.rank());
      for (int64_t i = 0; i < m.numElements(); ++i) {
        if (!m.data<bool>()[i]) continue;
        for (size_t k = 0; k < m.rank(); ++k) coords[k].push_back((i / ms[k]) % m.shape()[k]);
      }
      if (m.rank() == 0) in.raise("NotImplementedError", "a 0-d boolean index is not supported by tfs");
      for (size_t k = 0; k < m.rank(); ++k) {
        Tensor t = Tensor::empty(DType::Int64, {int64_t(coords[k].size())});
        std::copy(coords[k].begin(), coords[k].end(), t.data<int64_t>());
        out.push_back({ItemKind::IntArray, 0, nullptr, t});
      }
      axis += m.rank();
      continue;
    }
    if (it.kind != ItemKind::NewAxis) ++axis;
    out.push_back(std::move(it));
  }
  for (; axis < shape.size(); ++axis) out.push_back({ItemKind::Slice, 0, &fullSlice});
  for (const Item &it : out) integersOnly = integersOnly && it.kind == ItemKind::Int;
  return out;
}

struct Selection {
  Shape shape;
  // Basic: a strided placement; advanced: explicit positions.
  bool basic = true;
  int64_t offset = 0;
  Shape strides;
  std::vector<int64_t> positions;
};

// Selection of a basic key against a layout (offset, strides) of `shape`.
Selection basicSelection(Interpreter &in, const std::vector<Item> &items, const Shape &shape, int64_t offset,
                         const Shape &strides) {
  Selection s;
  s.offset = offset;
  size_t axis = 0;
  for (const Item &it : items) {
    if (it.kind == ItemKind::NewAxis) {
      s.shape.push_back(1);
      s.strides.push_back(0);
      continue;
    }
    if (it.kind == ItemKind::Int) {
      s.offset += checkIndex(in, it.value, shape[axis], axis) * strides[axis];
    } else {
      int64_t start, step, len;
      sliceExtent(in, *it.slice, shape[axis], start, step, len);
      if (len > 0) s.offset += start * strides[axis];
      s.shape.push_back(len);
      s.strides.push_back(step * strides[axis]);
    }
    ++axis;
  }
  return s;
}

Selection advancedSelection(Interpreter &in, const std::vector<Item> &items, const Shape &shape) {
  // Integers count as 0-d index arrays once any array is present.
  std::vector<size_t> advanced;
  std::vector<Shape> arrayShapes;
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].kind == ItemKind::IntArray || items[i].kind == ItemKind::Int) {
      advanced.push_back(i);
      arrayShapes.push_back(items[i].kind == ItemKind::Int ? Shape{} : items[i].array.shape());
    }
  }
  Shape bshape;
  for (const Shape &a : arrayShapes) bshape.resize(std::max(bshape.size(), a.size()), 1);
  for (const Shape &a : arrayShapes) {
    for (size_t i = 0; i < a.size(); ++i) {
      int64_t &o = bshape[bshape.size() - a.size() + i];
      if (a[i] == o || a[i] == 1) continue;
      if (o != 1) {
        std::string text;
        for (const Shape &t : arrayShapes) text += shapeText(t) + " ";
        in.raise("IndexError", "shape mismatch: indexing arrays could not be broadcast together with shapes " + text);
      }
      o = a[i];
    }
  }
  bool adjacent = advanced.back() - advanced.front() + 1 == advanced.size();
  // Output axes: ("basic", item index) or ("advanced", -1) for the broadcast block.
  struct OutAxis {
    bool isAdvanced;
    size_t item;
    int64_t len;
  };
  std::vector<OutAxis> axes;
  auto pushAdvanced = [&] {
    for (int64_t d : bshape) axes.push_back({true, 0, d});
  };
  if (!adjacent) pushAdvanced();
  std::vector<int64_t> start(items.size()), step(items.size());
  size_t axis = 0;
  std::vector<size_t> itemAxis(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    const Item &it = items[i];
    itemAxis[i] = axis;
    if (adjacent && i == advanced.front()) pushAdvanced();
    if (it.kind == ItemKind::NewAxis) {
      axes.push_back({false, i, 1});
      continue;
    }
    if (it.kind == ItemKind::Slice) {
      int64_t len;
      sliceExtent(in, *it.slice, shape[axis], start[i], step[i], len);
      axes.push_back({false, i, len});
    }
    ++axis;
  }
  Selection s;
  s.basic = false;
  for (auto &a : axes) s.shape.push_back(a.len);
  Shape cs = cStrides(shape);
  // Index arrays broadcast to bshape, bounds-checked once.
  std::vector<std::vector<int64_t>> idx(items.size());
  for (size_t i : advanced) {
    Tensor t = items[i].kind == ItemKind::Int ? Tensor::scalar(items[i].value) : items[i].array;
    Tensor b = broadcastTo(t, bshape);
    auto &v = idx[i];
    v.resize(size_t(b.numElements()));
    for (size_t k = 0; k < v.size(); ++k)
      v[k] = checkIndex(in, b.data<int64_t>()[k], shape[itemAxis[i]], itemAxis[i]) * cs[itemAxis[i]];
  }
  int64_t n = elementCount(s.shape);
  s.positions.resize(size_t(n));
  std::vector<int64_t> outIdx(axes.size(), 0);
  Shape bstrides = cStrides(bshape);
  for (int64_t k = 0; k < n; ++k) {
    int64_t bflat = 0, pos = 0;
    size_t bdim = 0;
    for (size_t j = 0; j < axes.size(); ++j) {
      if (axes[j].isAdvanced) {
        bflat += outIdx[j] * bstrides[bdim++];
      } else if (items[axes[j].item].kind == ItemKind::Slice) {
        size_t i = axes[j].item;
        pos += (start[i] + outIdx[j] * step[i]) * cs[itemAxis[i]];
      }
    }
    for (size_t i : advanced) pos += idx[i][size_t(bflat)];
    s.positions[size_t(k)] = pos;
    for (size_t j = axes.size(); j-- > 0;) {
      if (++outIdx[j] < axes[j].len) break;
      outIdx[j] = 0;
    }
  }
  return s;
}

bool hasArrays(const std::vector<Item> &items) {
  for (const auto &it : items)
    if (it.kind == ItemKind::IntArray) return true;
  return false;
}

}  // namespace

std::optional<Value> getItem(Interpreter &in, TensorObject &a, const Value &key) {
  const Shape &shape = a.eager.shape();
  if (shape.empty() && !a.zeroDimArray && !a.view)
    in.raise("IndexError", "invalid index to scalar variable.");
  bool integersOnly;
  std::vector<Item> items = expandKey(in, key, shape, integersOnly);
  if (hasArrays(items)) {
    Selection s = advancedSelection(in, items, shape);
    return newArray(gather(a.eager, s.shape, s.positions));
  }
  if (integersOnly) {
    Selection s = basicSelection(in, items, shape, 0, cStrides(shape));
    return wrap(gather(a.eager, {}, {s.offset}), true);  // a numpy scalar
  }
  Layout l = layoutOf(a);
  Selection s = basicSelection(in, items, shape, l.offset, l.strides);
  return makeView(a, s.shape, s.offset, s.strides);
}

bool setItem(Interpreter &in, TensorObject &a, const Value &key, const Value &value) {
  const Shape &shape = a.eager.shape();
  bool integersOnly;
  std::vector<Item> items = expandKey(in, key, shape, integersOnly);
  Selection s = hasArrays(items) ? advancedSelection(in, items, shape)
                                 : basicSelection(in, items, shape, 0, cStrides(shape));
  if (s.basic) s.positions = stridedPositions(s.shape, s.offset, s.strides);
  Tensor v = asTensor(in, value);
  writeElements(in, a, s.positions, s.shape, v);
  return true;
}

}  // namespace tfs::runtime::tf::numpy
