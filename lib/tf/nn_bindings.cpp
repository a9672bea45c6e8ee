// tf.nn convolution and pooling functions over the window ops of the op
// table (conv2d, depthwise_conv2d_native, max_pool, avg_pool and the conv2d
// backprop that is conv2d_transpose). The 1-D forms insert a unit height
// and call the 2-D op, as TF's nn_ops.py does; separable_conv2d is a
// depthwise conv followed by a 1x1 conv. Only the channels-last layouts
// (NWC, NHWC) exist in tfs: another data_format is NotImplementedError.
#include "lib/tf/tf_lib.h"
#include "runtime/interp/signature.h"

#include <fmt/format.h>

namespace tfs::runtime::tf {

using ir::OpKind;

namespace {

std::string nameOr(Interpreter &in, const Value &v, const char *dflt) { return v.isNone() ? dflt : in.str(v); }

std::vector<int64_t> ints(Interpreter &in, const Value &v) {
  std::vector<int64_t> out;
  if (v.isInt()) return {v.asInt()};
  if (auto *t = v.as<TensorObject>()) {
    if (t->symbolic()) raiseTf(in, "TypeError", "expected a static list of ints, got a symbolic tensor");
    for (int64_t i = 0; i < t->eager.numElements(); ++i) out.push_back(t->eager.elementAsInt(i));
    return out;
  }
  if (auto *s = v.as<TensorShapeObject>()) return s->shape.dims;
  for (auto &x : in.toList(v)) out.push_back(in.toInt(x));
  return out;
}

// An NHWC window attr (strides, ksize, dilations) from TF's accepted forms:
// an int, or a list of 1, 2 (= spatial) or 4 ints.
std::vector<int64_t> spatial2d(Interpreter &in, const Value &v, const char *what, int64_t dflt) {
  if (v.isNone()) return {1, dflt, dflt, 1};
  std::vector<int64_t> s = ints(in, v);
  if (s.size() == 1) return {1, s[0], s[0], 1};
  if (s.size() == 2) return {1, s[0], s[1], 1};
  if (s.size() == 4) return s;
  in.raise("ValueError", fmt::format("{} should be of length 1, 2 or 4. Received: {}={} of length {}", what, what,
                                     in.repr(v), s.size()));
}

// The 1-D form of an attr as the 2-D op's: width only, unit height.
std::vector<int64_t> spatial1d(Interpreter &in, const Value &v, const char *what, int64_t dflt) {
  if (v.isNone()) return {1, 1, dflt, 1};
  std::vector<int64_t> s = ints(in, v);
  if (s.size() == 1) return {1, 1, s[0], 1};
  if (s.size() == 3) return {1, 1, s[1], 1};
  in.raise("ValueError", fmt::format("{} should be of length 1 or 3. Received: {}={} of length {}", what, what,
                                     in.repr(v), s.size()));
}

std::string padding(Interpreter &in, const Value &v) {
  if (!v.as<StrObject>())
    raiseTf(in, "NotImplementedError", "explicit padding lists are not supported by tfs; use 'SAME' or 'VALID'");
  std::string p = in.str(v);
  for (auto &c : p) c = char(std::toupper(static_cast<unsigned char>(c)));
  if (p != "SAME" && p != "VALID")
    in.raise("ValueError", fmt::format("Unknown padding: {}. Expected 'SAME' or 'VALID'", in.repr(v)));
  return p;
}

void requireLayout(Interpreter &in, const Value &v, std::initializer_list<const char *> ok) {
  if (v.isNone()) return;
  std::string f = in.str(v);
  for (const char *o : ok)
    if (f == o) return;
  raiseTf(in, "NotImplementedError", fmt::format("data_format='{}' is not supported by tfs (channels-last only)", f));
}

Ref<TensorObject> floatTensor(Interpreter &in, const Value &v, std::optional<DType> like = std::nullopt) {
  return toTensor(in, v, std::nullopt, like.value_or(DType::Float32));
}

Ref<TensorObject> expandHeight(Interpreter &in, const Ref<TensorObject> &x, int64_t axis) {
  return callOp1(in, OpKind::ExpandDims, {x}, {{"axis", axis}}, "ExpandDims");
}

Ref<TensorObject> squeezeHeight(Interpreter &in, const Ref<TensorObject> &y, const std::string &name) {
  return callOp1(in, OpKind::Squeeze, {y}, {{"axis", std::vector<int64_t>{1}}}, name);
}

Value pool2d(Interpreter &in, OpKind k, const Bound &a, const char *dflt) {
  requireLayout(in, a["data_format"], {"NHWC"});
  auto x = floatTensor(in, a["input"]);
  ir::Attrs attrs{{"ksize", spatial2d(in, a["ksize"], "ksize", 1)},
                  {"strides", spatial2d(in, a["strides"], "strides", 1)},
                  {"padding", padding(in, a["padding"])}};
  return Value(callOp1(in, k, {x}, attrs, nameOr(in, a["name"], dflt)));
}

Value pool1d(Interpreter &in, OpKind k, const Bound &a, const char *dflt) {
  requireLayout(in, a["data_format"], {"NWC"});
  auto x = expandHeight(in, floatTensor(in, a["input"]), 1);
  ir::Attrs attrs{{"ksize", spatial1d(in, a["ksize"], "ksize", 1)},
                  {"strides", spatial1d(in, a["strides"], "strides", 1)},
                  {"padding", padding(in, a["padding"])}};
  return Value(squeezeHeight(in, callOp1(in, k, {x}, attrs, dflt), nameOr(in, a["name"], dflt)));
}

// tf.nn.max_pool / avg_pool: the rank of the input picks the 1-D or 2-D op.
Value poolNd(Interpreter &in, OpKind k, const Bound &a, const char *dflt) {
  auto x = floatTensor(in, a["input"]);
  int64_t rank = x->symbolic() ? (x->sym->type.shape.ranked ? int64_t(x->sym->type.shape.rank()) : -1)
                               : int64_t(x->eager.rank());
  if (rank == 3) return pool1d(in, k, a, dflt);
  if (rank == 4) return pool2d(in, k, a, dflt);
  raiseTf(in, "NotImplementedError",
          fmt::format("{} of a rank-{} input is not supported by tfs (1-D and 2-D pooling only)", dflt, rank));
}

Ref<TensorObject> conv2d(Interpreter &in, const Ref<TensorObject> &x, const Ref<TensorObject> &w,
                         std::vector<int64_t> strides, std::vector<int64_t> dilations, const std::string &pad,
                         const std::string &name) {
  return callOp1(in, OpKind::Conv2D, {x, w}, {{"strides", strides}, {"dilations", dilations}, {"padding", pad}}, name);
}

}  // namespace

void installNnWindowOps(Interpreter &in, ModuleObject &nn) {
  auto bind = [&](std::string_view sig, SignedFn fn) {
    Value f = nativeWithSignature(in, sig, std::move(fn));
    nn.scope->vars[f.as<NativeFunction>()->name] = f;
  };
  bind("conv2d(input, filters, strides, padding, data_format='NHWC', dilations=None, name=None)",
       [](Interpreter &in, const Bound &a) -> Value {
         requireLayout(in, a["data_format"], {"NHWC"});
         auto x = floatTensor(in, a["input"]);
         auto w = floatTensor(in, a["filters"], x->dtype());
         Value pad = a["padding"];
         if (pad.as<ListObject>() || pad.as<TupleObject>()) {
           // TF's explicit padding [[0, 0], [top, bottom], [left, right], [0, 0]]:
           // zeros around the input, then a VALID convolution (the same sums).
           std::vector<Value> pairs = in.toList(pad);
           if (pairs.size() != 4)
             in.raise("ValueError", fmt::format("When padding is a list, it must be of size 4. Received: "
                                                "padding={} of size {}", in.repr(pad), pairs.size()));
           for (size_t i : {size_t(0), size_t(3)})
             if (ints(in, pairs[i]) != std::vector<int64_t>{0, 0})
               raiseTf(in, "InvalidArgumentError",
                       "Nonzero explicit padding in the batch or depth dimensions is not supported [Op:Conv2D]");
           Value tfPad = in.getAttr(in.importModule("tensorflow"), "pad");
           x = toTensor(in, in.call(tfPad, std::vector<Value>{Value(x), pad}));
           pad = in.str("VALID");
         }
         return Value(conv2d(in, x, w, spatial2d(in, a["strides"], "strides", 1),
                             spatial2d(in, a["dilations"], "dilations", 1), padding(in, pad),
                             nameOr(in, a["name"], "Conv2D")));
       });
  bind("conv1d(input, filters, stride, padding, data_format='NWC', dilations=None, name=None)",
       [](Interpreter &in, const Bound &a) -> Value {
         requireLayout(in, a["data_format"], {"NWC"});
         auto x = expandHeight(in, floatTensor(in, a["input"]), 1);
         auto w = expandHeight(in, floatTensor(in, a["filters"], x->dtype()), 0);
         auto y = conv2d(in, x, w, spatial1d(in, a["stride"], "stride", 1), spatial1d(in, a["dilations"], "dilations", 1),
                         padding(in, a["padding"]), "Conv2D");
         return Value(squeezeHeight(in, y, nameOr(in, a["name"], "conv1d")));
       });
  bind("conv2d_transpose(input, filters, output_shape, strides, padding='SAME', data_format='NHWC', dilations=None, "
       "name=None)",
       [](Interpreter &in, const Bound &a) -> Value {
         requireLayout(in, a["data_format"], {"NHWC"});
         auto dy = floatTensor(in, a["input"]);
         auto w = floatTensor(in, a["filters"], dy->dtype());
         ir::Attrs attrs{{"strides", spatial2d(in, a["strides"], "strides", 1)},
                         {"dilations", spatial2d(in, a["dilations"], "dilations", 1)},
                         {"padding", padding(in, a["padding"])}};
         std::vector<Ref<TensorObject>> xs{w, dy};
         // The output shape may be a run-time tensor ([tf.shape(x)[0], h, w, c]).
         addShapeArg(xs, attrs, "input_sizes", shapeArg(in, a["output_shape"], "output_shape"));
         return Value(callOp1(in, OpKind::Conv2DBackpropInput, xs, attrs, nameOr(in, a["name"], "conv2d_transpose")));
       });
  // TF's nn_ops.conv1d_transpose: the 2-D backprop with a unit height
  // inserted in the input, the filters and the output shape.
  bind("conv1d_transpose(input, filters, output_shape, strides, padding='SAME', data_format='NWC', dilations=None, "
       "name=None)",
       [](Interpreter &in, const Bound &a) -> Value {
         requireLayout(in, a["data_format"], {"NWC"});
         auto dy = expandHeight(in, floatTensor(in, a["input"]), 1);
         auto w = expandHeight(in, floatTensor(in, a["filters"], dy->dtype()), 0);
         ir::Attrs attrs{{"strides", spatial1d(in, a["strides"], "strides", 1)},
                         {"dilations", spatial1d(in, a["dilations"], "dilations", 1)},
                         {"padding", padding(in, a["padding"])}};
         ShapeArg out = shapeArg(in, a["output_shape"], "output_shape");
         std::vector<Ref<TensorObject>> xs{w, dy};
         if (out.known()) {
           if (out.ints->size() != 3)
             in.raise("ValueError", fmt::format("output_shape must have length 3, got {}", out.ints->size()));
           out.ints->insert(out.ints->begin() + 1, 1);
         } else {
           // [n, width, c] -> [n, 1, width, c] at run time.
           auto t = out.tensor;
           using V = std::vector<int64_t>;
           // Strided slices and a concat: what the shape inference reads
           // through (ir/shape_args.h), so a known width stays static.
           auto slice = [&](int64_t begin, int64_t end, int64_t endMask) {
             ir::Attrs sa{{"begin", V{begin}}, {"end", V{end}}, {"strides", V{1}}, {"begin_mask", int64_t(0)},
                          {"end_mask", endMask}, {"shrink_axis_mask", int64_t(0)}, {"new_axis_mask", int64_t(0)},
                          {"ellipsis_mask", int64_t(0)}};
             return callOp1(in, OpKind::StridedSlice, {t}, sa, "strided_slice");
           };
           auto head = slice(0, 1, 0), tail = slice(1, 0, 1);
           ShapeArg one;
           one.ints = V{1};
           auto unit = shapeTensor(in, one);
           if (unit->dtype() != t->dtype()) unit = callOp1(in, OpKind::Cast, {unit}, {{"dtype", t->dtype()}}, "Cast");
           out.tensor = callOp1(in, OpKind::Concat, {head, unit, tail}, {{"axis", int64_t(0)}}, "concat");
         }
         addShapeArg(xs, attrs, "input_sizes", out);
         auto y = callOp1(in, OpKind::Conv2DBackpropInput, xs, attrs, "conv2d_transpose");
         return Value(squeezeHeight(in, y, nameOr(in, a["name"], "conv1d_transpose")));
       });
  bind("depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None, name=None)",
       [](Interpreter &in, const Bound &a) -> Value {
         requireLayout(in, a["data_format"], {"NHWC"});
         auto x = floatTensor(in, a["input"]);
         auto w = floatTensor(in, a["filter"], x->dtype());
         ir::Attrs attrs{{"strides", spatial2d(in, a["strides"], "strides", 1)},
                         {"dilations", spatial2d(in, a["dilations"], "dilations", 1)},
                         {"padding", padding(in, a["padding"])}};
         return Value(callOp1(in, OpKind::DepthwiseConv2D, {x, w}, attrs, nameOr(in, a["name"], "depthwise")));
       });
  bind("separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding, data_format=None, "
       "dilations=None, name=None)",
       [](Interpreter &in, const Bound &a) -> Value {
         requireLayout(in, a["data_format"], {"NHWC"});
         auto x = floatTensor(in, a["input"]);
         auto dw = floatTensor(in, a["depthwise_filter"], x->dtype());
         auto pw = floatTensor(in, a["pointwise_filter"], x->dtype());
         ir::Attrs attrs{{"strides", spatial2d(in, a["strides"], "strides", 1)},
                         {"dilations", spatial2d(in, a["dilations"], "dilations", 1)},
                         {"padding", padding(in, a["padding"])}};
         auto depthwise = callOp1(in, OpKind::DepthwiseConv2D, {x, dw}, attrs, "depthwise");
         return Value(conv2d(in, depthwise, pw, {1, 1, 1, 1}, {1, 1, 1, 1}, "VALID",
                             nameOr(in, a["name"], "separable_conv2d")));
       });
  bind("max_pool2d(input, ksize, strides, padding, data_format='NHWC', name=None)",
       [](Interpreter &in, const Bound &a) { return pool2d(in, OpKind::MaxPool, a, "MaxPool2d"); });
  bind("avg_pool2d(input, ksize, strides, padding, data_format='NHWC', name=None)",
       [](Interpreter &in, const Bound &a) { return pool2d(in, OpKind::AvgPool, a, "AvgPool2D"); });
  bind("max_pool1d(input, ksize, strides, padding, data_format='NWC', name=None)",
       [](Interpreter &in, const Bound &a) { return pool1d(in, OpKind::MaxPool, a, "MaxPool1d"); });
  bind("avg_pool1d(input, ksize, strides, padding, data_format='NWC', name=None)",
       [](Interpreter &in, const Bound &a) { return pool1d(in, OpKind::AvgPool, a, "AvgPool1D"); });
  bind("max_pool(input, ksize, strides, padding, data_format=None, name=None)",
       [](Interpreter &in, const Bound &a) { return poolNd(in, OpKind::MaxPool, a, "MaxPool"); });
  bind("avg_pool(input, ksize, strides, padding, data_format=None, name=None)",
       [](Interpreter &in, const Bound &a) { return poolNd(in, OpKind::AvgPool, a, "AvgPool"); });
}

}  // namespace tfs::runtime::tf
