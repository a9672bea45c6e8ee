// Gradient rules of elementwise ops and reductions (TF 2.15 math_grad.py).
// Binary broadcasting ops sum their gradients back with `unbroadcast`.
#include "runtime/autodiff/rule_macros.h"

namespace tfs::runtime::autodiff_detail {
namespace {


// Keeps gradients only for floating-point and complex inputs (TF never
// backprops into integer tensors).
Grads floatsOnly(GradBuilder &b, const GradOpInfo &op, Grads gs) {
  for (size_t i = 0; i < gs.size() && i < op.inputs.size(); ++i)
    if (gs[i] && !b.isFloat(op.inputs[i]) && !b.isComplex(op.inputs[i]))
      gs[i].reset();
  return gs;
}

bool differentiable(GradBuilder &b, Handle h) { return b.isFloat(h) || b.isComplex(h); }

// Complex operands follow TF's convention (math_grad.py): the gradient
// through a holomorphic f is g * conj(f'(z)), so the factors that real
// rules multiply by are conjugated.
Handle conjIfComplex(GradBuilder &b, Handle h) { return b.isComplex(h) ? b.op(OpKind::Conj, {h}) : h; }


RULE(identityGrad) {
  PRELUDE;
  return {g};
}

RULE(addGrad) {
  COMPLEX_PRELUDE;
  Handle x = op.inputs[0], y = op.inputs[1];
  return floatsOnly(b, op, {b.unbroadcast(g, x), b.unbroadcast(g, y)});
}

RULE(subGrad) {
  COMPLEX_PRELUDE;
  Handle x = op.inputs[0], y = op.inputs[1];
  return floatsOnly(b, op, {b.unbroadcast(g, x), b.unbroadcast(b.neg(g), y)});
}

RULE(mulGrad) {
  COMPLEX_PRELUDE;
  Handle x = op.inputs[0], y = op.inputs[1];
  if (!differentiable(b, x))
    return {std::nullopt, std::nullopt};
  return {b.unbroadcast(b.mul(g, conjIfComplex(b, y)), x), b.unbroadcast(b.mul(conjIfComplex(b, x), g), y)};
}

RULE(divGrad) {
  COMPLEX_PRELUDE;
  Handle x = op.inputs[0], y = op.inputs[1];
  if (!differentiable(b, x))
    return {std::nullopt, std::nullopt};
  Handle gx = b.div(g, conjIfComplex(b, y));
  Handle gy = b.mul(g, conjIfComplex(b, b.div(b.div(b.neg(x), y), y)));
  return {b.unbroadcast(gx, x), b.unbroadcast(gy, y)};
}

// x mod y = x - floor(x / y) * y.
RULE(floorModGrad) {
  PRELUDE;
  Handle x = op.inputs[0], y = op.inputs[1];
  if (!b.isFloat(x))
    return {std::nullopt, std::nullopt};
  Handle q = b.op(OpKind::FloorDiv, {x, y});
  return {b.unbroadcast(g, x), b.unbroadcast(b.mul(g, b.neg(q)), y)};
}

// d/dx x^y = y x^(y-1); d/dy x^y = x^y log(x), taken as 0 where x <= 0.
RULE(powGrad) {
  PRELUDE;
  Handle x = op.inputs[0], y = op.inputs[1], z = op.outputs[0];
  if (!b.isFloat(x))
    return {std::nullopt, std::nullopt};
  Handle ym1 = b.sub(y, b.scalar(1, y));
  Handle gx = b.mul(g, b.mul(y, b.op(OpKind::Pow, {x, ym1})));
  Handle zeros = b.zerosLike(x);
  Handle positive = b.op(OpKind::Greater, {x, zeros});
  Handle safeX = b.select(positive, x, b.onesLike(x));
  Handle logX = b.select(positive, b.op(OpKind::Log, {safeX}), zeros);
  Handle gy = b.mul(g, b.mul(z, logX));
  return {b.unbroadcast(gx, x), b.unbroadcast(gy, y)};
}

// Ties go to x (TF: xmask = x >= y for maximum, x <= y for minimum).
Grads minMaxGrad(GradEmitter &em, const GradOpInfo &op, OG og, OpKind cmp) {
  PRELUDE;
  Handle x = op.inputs[0], y = op.inputs[1];
  if (!b.isFloat(x))
    return {std::nullopt, std::nullopt};
  Handle xmask = b.op(cmp, {x, y});
  Handle zeros = b.zerosLike(g);
  return {b.unbroadcast(b.select(xmask, g, zeros), x),
          b.unbroadcast(b.select(xmask, zeros, g), y)};
}
RULE(maximumGrad) { return minMaxGrad(em, op, og, OpKind::GreaterEqual); }
RULE(minimumGrad) { return minMaxGrad(em, op, og, OpKind::LessEqual); }

RULE(squaredDifferenceGrad) {
  PRELUDE;
  Handle x = op.inputs[0], y = op.inputs[1];
  if (!b.isFloat(x))
    return {std::nullopt, std::nullopt};
  Handle xg = b.mul(b.scalar(2, g), b.mul(g, b.sub(x, y)));
  return {b.unbroadcast(xg, x), b.unbroadcast(b.neg(xg), y)};
}

RULE(selectGrad) {
  PRELUDE;
  Handle c = op.inputs[0], t = op.inputs[1], e = op.inputs[2];
  Handle zeros = b.zerosLike(g);
  Grads gs = {std::nullopt, b.unbroadcast(b.select(c, g, zeros), t),
              b.unbroadcast(b.select(c, zeros, g), e)};
  return floatsOnly(b, op, gs);
}

// --- unary ------------------------------------------------------------------
#define UNARY_RULE(Name, expr)                                                 \
  RULE(Name) {                                                                 \
    PRELUDE;                                                                   \
    Handle x = op.inputs[0], y = op.outputs[0];                                \
    (void)y;                                                                   \
    if (!b.isFloat(x))                                                         \
      return {std::nullopt};                                                   \
    return {expr};                                                             \
  }

RULE(negGrad) {
  COMPLEX_PRELUDE;
  return {differentiable(b, op.inputs[0]) ? OptHandle(b.neg(g)) : OptHandle()};
}
UNARY_RULE(absGrad, b.mul(g, b.op(OpKind::Sign, {x})))
UNARY_RULE(signGrad, b.zerosLike(x))
UNARY_RULE(squareGrad, b.mul(g, b.mul(b.scalar(2, x), x)))
UNARY_RULE(sqrtGrad, b.div(b.mul(g, b.scalar(0.5, y)), y))
// d rsqrt(x) = -0.5 * y^3
UNARY_RULE(rsqrtGrad,
           b.mul(g, b.mul(b.scalar(-0.5, y), b.mul(y, b.mul(y, y)))))
UNARY_RULE(expGrad, b.mul(g, y))
UNARY_RULE(logGrad, b.div(g, x))
UNARY_RULE(sinGrad, b.mul(g, b.op(OpKind::Cos, {x})))
UNARY_RULE(cosGrad, b.neg(b.mul(g, b.op(OpKind::Sin, {x}))))
UNARY_RULE(tanhGrad, b.mul(g, b.sub(b.scalar(1, y), b.mul(y, y))))
UNARY_RULE(sigmoidGrad, b.mul(g, b.mul(y, b.sub(b.scalar(1, y), y))))
// d erf(x) = 2/sqrt(pi) exp(-x^2)
UNARY_RULE(erfGrad, b.mul(g, b.mul(b.scalar(1.1283791670955126, x), b.op(OpKind::Exp, {b.neg(b.mul(x, x))}))))
UNARY_RULE(reluGrad, b.op(OpKind::ReluGrad, {g, x}))
// Inverse trigonometric and hyperbolic functions (TF's math_grad.py).
UNARY_RULE(acosGrad, b.neg(b.div(g, b.op(OpKind::Sqrt, {b.sub(b.scalar(1, x), b.mul(x, x))}))))
UNARY_RULE(asinGrad, b.div(g, b.op(OpKind::Sqrt, {b.sub(b.scalar(1, x), b.mul(x, x))})))
UNARY_RULE(atanGrad, b.div(g, b.add(b.scalar(1, x), b.mul(x, x))))
UNARY_RULE(acoshGrad, b.div(g, b.op(OpKind::Sqrt, {b.sub(b.mul(x, x), b.scalar(1, x))})))
UNARY_RULE(asinhGrad, b.div(g, b.op(OpKind::Sqrt, {b.add(b.mul(x, x), b.scalar(1, x))})))
UNARY_RULE(atanhGrad, b.div(g, b.sub(b.scalar(1, x), b.mul(x, x))))

// atan2(y, x): d/dy = x / (x^2 + y^2), d/dx = -y / (x^2 + y^2).
RULE(atan2Grad) {
  PRELUDE;
  Handle y = op.inputs[0], x = op.inputs[1];
  Handle scaled = b.div(g, b.add(b.mul(x, x), b.mul(y, y)));
  return {b.unbroadcast(b.mul(scaled, x), y), b.unbroadcast(b.neg(b.mul(scaled, y)), x)};
}

// TF registers no gradient for TruncateMod: its tape raises LookupError.
RULE(truncateModGrad) {
  (void)em, (void)op, (void)og;
  throwGradError("No gradient defined for operation 'TruncateMod' (op type: TruncateMod)");
}

// relu_grad(dy, x) = dy * (x > 0): linear in dy, piecewise constant in x.
RULE(reluGradGrad) {
  PRELUDE;
  Handle x = op.inputs[1];
  return {b.op(OpKind::ReluGrad, {g, x}), b.zerosLike(x)};
}

// Float <-> float casts pass the gradient (cast back); others stop it.
// Between float and complex dtypes the gradient casts back (complex to
// real keeps the real part, as TF's Cast gradient does).
RULE(castGrad) {
  COMPLEX_PRELUDE;
  Handle x = op.inputs[0];
  auto differentiable = [&](Handle h) { return b.isFloat(h) || b.isComplex(h); };
  if (!differentiable(x) || !differentiable(g))
    return {std::nullopt};
  return {b.cast(g, b.dtype(x))};
}

// --- complex numbers (TF's math_grad.py) ---------------------------------------

RULE(complexGrad) {  // complex(x, y): dx = real(g), dy = imag(g)
  COMPLEX_PRELUDE;
  Handle x = op.inputs[0], y = op.inputs[1];
  return {b.unbroadcast(b.op(OpKind::Real, {g}), x), b.unbroadcast(b.op(OpKind::Imag, {g}), y)};
}

RULE(realGrad) {  // complex(g, 0)
  COMPLEX_PRELUDE;
  return {b.op(OpKind::Complex, {g, b.zerosLike(g)})};
}

RULE(imagGrad) {  // complex(0, g)
  COMPLEX_PRELUDE;
  return {b.op(OpKind::Complex, {b.zerosLike(g), g})};
}

RULE(conjGrad) {
  COMPLEX_PRELUDE;
  return {b.op(OpKind::Conj, {g})};
}

// angle(z) = atan2(im, re): dz = -complex(g, 0) / complex(im, re).
RULE(angleGrad) {
  COMPLEX_PRELUDE;
  Handle z = op.inputs[0];
  Handle re = b.op(OpKind::Real, {z}), im = b.op(OpKind::Imag, {z});
  Handle cg = b.op(OpKind::Complex, {g, b.zerosLike(g)});
  return {b.neg(b.div(cg, b.op(OpKind::Complex, {im, re})))};
}

// --- reductions ---------------------------------------------------------------

// The output gradient re-expanded to rank(x) (size 1 on reduced axes).
Handle expandReduced(GradBuilder &b, Handle g, const GradOpInfo &op,
                     const std::vector<int64_t> &axes) {
  if (ir::attrBool(op.attrs, "keepdims", false))
    return g;
  for (int64_t a : axes)
    g = b.expandDims(g, a);
  return g;
}

RULE(reduceSumGrad) {
  COMPLEX_PRELUDE;
  Handle x = op.inputs[0];
  if (!differentiable(b, x))
    return {std::nullopt};
  auto axes = reductionAxes(op.attrs, b.rank(x, "reduce_sum"));
  return {b.broadcastLike(expandReduced(b, g, op, axes), x)};
}

RULE(reduceMeanGrad) {
  COMPLEX_PRELUDE;
  Handle x = op.inputs[0];
  if (!differentiable(b, x))
    return {std::nullopt};
  auto axes = reductionAxes(op.attrs, b.rank(x, "reduce_mean"));
  Handle sum = b.broadcastLike(expandReduced(b, g, op, axes), x);
  auto tx = b.type(x);
  int64_t count = 1;
  bool known = true;
  for (int64_t a : axes) {
    known = known && tx.shape.dims[a] != ir::kUnknownDim;
    if (known)
      count *= tx.shape.dims[a];
  }
  // The count in the real dtype, cast (a complex mean divides by a complex count).
  ir::DType real = ir::realDType(b.dtype(x));
  Handle n;
  if (known) {
    n = em.constant(static_cast<double>(count), real);
  } else {
    Handle sx = b.cast(b.op(OpKind::SizeOf, {x}), real);
    Handle sy = b.cast(b.op(OpKind::SizeOf, {op.outputs[0]}), real);
    n = b.div(sx, sy);
  }
  n = b.cast(n, b.dtype(x));
  return {b.div(sum, n)};
}

// The gradient is split evenly between the elements equal to the extremum.
RULE(reduceExtremumGrad) {
  PRELUDE;
  Handle x = op.inputs[0];
  if (!b.isFloat(x))
    return {std::nullopt};
  auto axes = reductionAxes(op.attrs, b.rank(x, "reduce_max/min"));
  Handle y = expandReduced(b, op.outputs[0], op, axes);
  Handle gy = expandReduced(b, g, op, axes);
  Handle indicators = b.cast(b.op(OpKind::Equal, {y, x}), b.dtype(x));
  Handle count = b.reduceSum(indicators, axes, true);
  return {b.mul(b.div(indicators, count), gy)};
}

// d prod / d x_i = product of the other elements, computed without dividing
// by zero: with exactly one zero in a slice only that element gets the
// product of the non-zeros; with two or more, every gradient is zero.
RULE(reduceProdGrad) {
  PRELUDE;
  Handle x = op.inputs[0];
  if (!b.isFloat(x))
    return {std::nullopt};
  auto axes = reductionAxes(op.attrs, b.rank(x, "reduce_prod"));
  Handle gy = b.broadcastLike(expandReduced(b, g, op, axes), x);
  Handle zeros = b.zerosLike(x);
  Handle isZero = b.op(OpKind::Equal, {x, zeros});
  Handle nonZero = b.select(isZero, b.onesLike(x), x);
  Handle prodNonZero =
      b.op(OpKind::ReduceProd, {nonZero}, {{"axis", axes}, {"keepdims", true}});
  Handle numZeros = b.reduceSum(b.cast(isZero, b.dtype(x)), axes, true);
  Handle oneZero = b.op(OpKind::Equal, {numZeros, b.scalar(1, x)});
  Handle noZero = b.op(OpKind::Equal, {numZeros, b.scalar(0, x)});
  Handle prodNZ = b.broadcastLike(prodNonZero, x);
  Handle others = b.select(
      isZero, b.select(oneZero, prodNZ, zeros),
      b.select(noZero, b.div(prodNZ, nonZero), zeros));
  return {b.mul(gy, others)};
}

// TF differentiates random_gamma with respect to alpha (implicit
// reparameterization) and random_shuffle as a gather; tfs has neither, and
// says so rather than returning None.
RULE(randomGammaGrad) {
  (void)em, (void)op, (void)og;
  throwGradError("the gradient of tf.random.gamma is not supported by tfs");
}
RULE(randomShuffleGrad) {
  (void)em, (void)op, (void)og;
  throwGradError("the gradient of tf.random.shuffle is not supported by tfs");
}

RULE(pyFunctionGrad) {
  (void)em, (void)op, (void)og;
  throwGradError("the gradient of tf.py_function inside a tf.function is not supported by tfs (eagerly, the tape "
                 "records the function's own ops)");
}

const RuleEntry kMathRules[] = {
    {OpKind::PyFunction, pyFunctionGrad},
    {OpKind::RandomGamma, randomGammaGrad},
    {OpKind::RandomShuffle, randomShuffleGrad},
    {OpKind::Identity, identityGrad},
    {OpKind::Add, addGrad},
    {OpKind::Sub, subGrad},
    {OpKind::Mul, mulGrad},
    {OpKind::Div, divGrad},
    {OpKind::FloorMod, floorModGrad},
    {OpKind::Pow, powGrad},
    {OpKind::Maximum, maximumGrad},
    {OpKind::Minimum, minimumGrad},
    {OpKind::SquaredDifference, squaredDifferenceGrad},
    {OpKind::Select, selectGrad},
    {OpKind::Neg, negGrad},
    {OpKind::Abs, absGrad},
    {OpKind::Sign, signGrad},
    {OpKind::Square, squareGrad},
    {OpKind::Sqrt, sqrtGrad},
    {OpKind::Rsqrt, rsqrtGrad},
    {OpKind::Exp, expGrad},
    {OpKind::Log, logGrad},
    {OpKind::Sin, sinGrad},
    {OpKind::Cos, cosGrad},
    {OpKind::Tanh, tanhGrad},
    {OpKind::Sigmoid, sigmoidGrad},
    {OpKind::Erf, erfGrad},
    {OpKind::Relu, reluGrad},
    {OpKind::Acos, acosGrad},
    {OpKind::Asin, asinGrad},
    {OpKind::Atan, atanGrad},
    {OpKind::Acosh, acoshGrad},
    {OpKind::Asinh, asinhGrad},
    {OpKind::Atanh, atanhGrad},
    {OpKind::Atan2, atan2Grad},
    {OpKind::TruncateMod, truncateModGrad},
    {OpKind::ReluGrad, reluGradGrad},
    {OpKind::Cast, castGrad},
    {OpKind::Complex, complexGrad},
    {OpKind::Real, realGrad},
    {OpKind::Imag, imagGrad},
    {OpKind::Conj, conjGrad},
    {OpKind::Angle, angleGrad},
    {OpKind::ReduceSum, reduceSumGrad},
    {OpKind::ReduceMean, reduceMeanGrad},
    {OpKind::ReduceMax, reduceExtremumGrad},
    {OpKind::ReduceMin, reduceExtremumGrad},
    {OpKind::ReduceProd, reduceProdGrad},
};

}  // namespace

std::span<const RuleEntry> mathRules() { return kMathRules; }

}  // namespace tfs::runtime::autodiff_detail
