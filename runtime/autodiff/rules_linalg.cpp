// Gradient rules of the matrix ops, TF 2.15's linalg_grad.py /
// array_grad.py formulas on [..., M, N] batches: inverse, determinants,
// solves, cholesky, qr, svd, self_adjoint_eig, band_part and the diagonal
// ops. The decompositions' rules build on the matrix ops themselves (a
// triangular solve, band_part, diag), so they run eagerly and in graphs
// alike. Outputs without an incoming gradient count as zeros.
#include "runtime/autodiff/rule_macros.h"

namespace tfs::runtime::autodiff_detail {
namespace {

// The transpose of the trailing two dims.
Handle adjoint(GradBuilder &b, Handle x) {
  int64_t r = b.rank(x, "matrix gradient");
  std::vector<int64_t> perm;
  for (int64_t i = 0; i < r; ++i) perm.push_back(i);
  std::swap(perm[size_t(r - 1)], perm[size_t(r - 2)]);
  return b.transpose(x, perm);
}

Handle bandPart(GradBuilder &b, Handle x, int64_t lower, int64_t upper) {
  return b.op(OpKind::MatrixBandPart, {x}, {{"num_lower", lower}, {"num_upper", upper}});
}
Handle diag(GradBuilder &b, Handle v) { return b.op(OpKind::MatrixDiag, {v}); }
Handle diagPart(GradBuilder &b, Handle m) { return b.op(OpKind::MatrixDiagPart, {m}); }
Handle setDiag(GradBuilder &b, Handle m, Handle v) { return b.op(OpKind::MatrixSetDiag, {m, v}); }

// Columns [from, to) of x (to < 0: to the end).
Handle columns(GradBuilder &b, Handle x, int64_t from, int64_t to) {
  int64_t r = b.rank(x, "matrix gradient");
  std::vector<int64_t> begin(size_t(r), 0), end(size_t(r), 0), strides(size_t(r), 1);
  begin.back() = from;
  end.back() = to;
  int64_t lead = (int64_t(1) << (r - 1)) - 1;
  int64_t endMask = to < 0 ? lead | (int64_t(1) << (r - 1)) : lead;
  return b.op(OpKind::StridedSlice, {x},
              {{"begin", begin}, {"end", end}, {"strides", strides}, {"begin_mask", lead}, {"end_mask", endMask}});
}

// The incoming gradient of output i, zeros when none arrived.
Handle gradOrZeros(GradBuilder &b, const GradOpInfo &op, OG og, size_t i) {
  return og[i] ? *og[i] : b.zerosLike(op.outputs[i]);
}

// TF's _SafeReciprocal: x / (x^2 + 1e-20), finite where x is 0.
Handle safeReciprocal(GradBuilder &b, Handle x) {
  return b.div(x, b.add(b.mul(x, x), b.scalar(1e-20, x)));
}

// f[i, j] = 1 / (v_j - v_i) off the diagonal, 0 on it (v: [..., N]).
Handle spectralGaps(GradBuilder &b, Handle v) {
  Handle diff = b.sub(b.expandDims(v, -2), b.expandDims(v, -1));
  return setDiag(b, safeReciprocal(b, diff), b.zerosLike(v));
}

RULE(matrixInverseGrad) {
  PRELUDE;
  Handle y = op.outputs[0];
  bool adj = ir::attrBool(op.attrs, "adjoint", false);
  return {b.neg(b.matmul(y, b.matmul(g, y, adj, !adj), !adj, false))};
}

// d det / dA = det * inv(A)^T; d log|det| / dA = inv(A)^T.
Handle timesInverseTranspose(GradBuilder &b, Handle a, Handle scale) {
  Handle inv = b.op(OpKind::MatrixInverse, {a}, {{"adjoint", true}});
  return b.mul(b.expandDims(b.expandDims(scale, -1), -1), inv);
}

RULE(determinantGrad) {
  PRELUDE;
  return {timesInverseTranspose(b, op.inputs[0], b.mul(g, op.outputs[0]))};
}

RULE(logDeterminantGrad) {
  GradBuilder b(em);
  b.rejectComplex(op);
  if (!og[1]) return {b.zerosLike(op.inputs[0])};
  return {timesInverseTranspose(b, op.inputs[0], *og[1])};
}

RULE(matrixSolveGrad) {
  PRELUDE;
  bool adj = ir::attrBool(op.attrs, "adjoint", false);
  Handle c = op.outputs[0];
  Handle gradRhs = b.op(OpKind::MatrixSolve, {op.inputs[0], g}, {{"adjoint", !adj}});
  Handle gradMatrix = adj ? b.matmul(c, gradRhs, false, true) : b.matmul(gradRhs, c, false, true);
  return {b.neg(gradMatrix), gradRhs};
}

RULE(triangularSolveGrad) {
  PRELUDE;
  bool adj = ir::attrBool(op.attrs, "adjoint", false), lower = ir::attrBool(op.attrs, "lower", true);
  Handle a = op.inputs[0], c = op.outputs[0];
  Handle gradRhs = b.op(OpKind::MatrixTriangularSolve, {a, g}, {{"lower", lower}, {"adjoint", !adj}});
  Handle gradMatrix = b.neg(adj ? b.matmul(c, gradRhs, false, true) : b.matmul(gradRhs, c, false, true));
  gradMatrix = lower ? bandPart(b, gradMatrix, -1, 0) : bandPart(b, gradMatrix, 0, -1);
  // Batch dims that broadcast are summed away.
  return {b.unbroadcast(gradMatrix, a), b.unbroadcast(gradRhs, op.inputs[1])};
}

// TF's _CholeskyGrad (Murray's formula): Phi(L^T dL) through inv(L).
RULE(choleskyGrad) {
  PRELUDE;
  Handle l = op.outputs[0];
  Handle eye = diag(b, b.onesLike(diagPart(b, l)));
  Handle lInv = b.op(OpKind::MatrixTriangularSolve, {l, eye}, {{"lower", true}, {"adjoint", false}});
  Handle middle = b.matmul(l, g, true, false);
  middle = setDiag(b, middle, b.mul(b.scalar(0.5, middle), diagPart(b, middle)));
  middle = bandPart(b, middle, -1, 0);
  Handle gradA = b.matmul(b.matmul(lInv, middle, true, false), lInv, false, false);
  gradA = b.add(gradA, adjoint(b, gradA));
  return {b.mul(gradA, b.scalar(0.5, gradA))};
}

// x * inv(r)^T for upper-triangular r.
Handle solveByUpperOnTheRight(GradBuilder &b, Handle x, Handle r) {
  Handle t = b.op(OpKind::MatrixTriangularSolve, {r, adjoint(b, x)}, {{"lower", false}, {"adjoint", false}});
  return adjoint(b, t);
}

// The QR gradient for M >= N (reduced factors): Walter & Lehmann / TF's
// _QrGradSquareAndDeepMatrices.
Handle qrGradDeep(GradBuilder &b, Handle q, Handle r, Handle dq, Handle dr) {
  Handle qdq = b.matmul(q, dq, true, false);
  Handle qdqAnti = b.sub(qdq, adjoint(b, qdq));
  Handle rdr = b.matmul(r, dr, false, true);
  Handle rdrAnti = b.sub(rdr, adjoint(b, rdr));
  Handle tril = bandPart(b, b.add(qdqAnti, rdrAnti), -1, 0);
  Handle gradA = b.matmul(q, b.add(dr, solveByUpperOnTheRight(b, tril, r)), false, false);
  Handle gradB = solveByUpperOnTheRight(b, b.sub(dq, b.matmul(q, qdq, false, false)), r);
  return b.add(gradA, gradB);
}

RULE(qrGrad) {
  GradBuilder b(em);
  b.rejectComplex(op);
  Handle q = op.outputs[0], r = op.outputs[1];
  Handle dq = gradOrZeros(b, op, og, 0), dr = gradOrZeros(b, op, og, 1);
  std::vector<int64_t> qd = b.staticDims(q, "qr"), rd = b.staticDims(r, "qr");
  int64_t m = qd[qd.size() - 2], n = rd.back();
  if (rd[rd.size() - 2] > n && qd.back() == m)
    throwGradError("QrGrad not implemented when nrows > ncols and full_matrices is true.");
  if (m >= n) return {qrGradDeep(b, q, r, dq, dr)};
  // Wide: a = [x, y], r = [u, v]; reduce to the square case.
  Handle y = columns(b, op.inputs[0], m, -1);
  Handle u = columns(b, r, 0, m);
  Handle dv = columns(b, dr, m, -1), du = columns(b, dr, 0, m);
  Handle dy = b.matmul(q, dv, false, false);
  Handle dx = qrGradDeep(b, q, u, b.add(dq, b.matmul(y, dv, false, true)), du);
  return {b.op(OpKind::Concat, {dx, dy}, {{"axis", int64_t(-1)}})};
}

// TF's _SvdGrad (Townsend's formulas); for M > N it differentiates A^T.
RULE(svdGrad) {
  GradBuilder b(em);
  b.rejectComplex(op);
  Handle a = op.inputs[0], s = op.outputs[0];
  Handle gs = gradOrZeros(b, op, og, 0);
  // tf.linalg.svd(compute_uv=False) runs the op with u and v (the rule
  // needs them; GradEmitter builds single-result ops).
  if (!ir::attrBool(op.attrs, "compute_uv", true))
    throwGradError("the gradient of Svd with compute_uv=False is not supported by tfs");
  bool fullMatrices = ir::attrBool(op.attrs, "full_matrices", false);
  std::vector<int64_t> ad = b.staticDims(a, "svd");
  int64_t m = ad[ad.size() - 2], n = ad.back();
  if (fullMatrices && std::abs(m - n) > 1)
    throwGradError("svd gradient is not implemented for abs(m - n) > 1 when full_matrices is True");
  Handle u = op.outputs[1], v = op.outputs[2];
  Handle gu = gradOrZeros(b, op, og, 1), gv = gradOrZeros(b, op, og, 2);
  bool transposed = m > n;
  if (transposed) {
    std::swap(m, n);
    std::swap(u, v);
    std::swap(gu, gv);
  }
  Handle sMat = diag(b, s);
  Handle f = spectralGaps(b, b.mul(s, s));
  Handle v1 = columns(b, v, 0, m), gv1 = columns(b, gv, 0, m);
  Handle fu = b.mul(f, b.matmul(u, gu, true, false));
  Handle fv = b.mul(f, b.matmul(v1, gv1, true, false));
  Handle inner = b.add(diag(b, gs), b.add(b.matmul(b.add(fu, adjoint(b, fu)), sMat, false, false),
                                          b.matmul(sMat, b.add(fv, adjoint(b, fv)), false, false)));
  Handle gradA = b.matmul(u, b.matmul(inner, v1, false, true), false, false);
  if (m != n) {
    Handle gv1t = adjoint(b, gv1);
    Handle term = b.sub(gv1t, b.matmul(b.matmul(gv1t, v1, false, false), v1, false, true));
    if (fullMatrices) {
      Handle v2 = columns(b, v, m, n), gv2 = columns(b, gv, m, n);
      term = b.sub(term, b.matmul(b.matmul(v1, gv2, true, false), v2, false, true));
    }
    Handle sInv = diag(b, b.op(OpKind::Select, {b.op(OpKind::Equal, {s, b.zerosLike(s)}), b.zerosLike(s),
                                                b.div(b.onesLike(s), s)}));
    gradA = b.add(gradA, b.matmul(b.matmul(u, sInv, false, false), term, false, false));
  }
  return {transposed ? adjoint(b, gradA) : gradA};
}

// TF's _SelfAdjointEigV2Grad: the forward op reads the lower triangle, so
// the gradient is symmetrized into it.
RULE(selfAdjointEigGrad) {
  GradBuilder b(em);
  b.rejectComplex(op);
  Handle e = op.outputs[0];
  Handle ge = gradOrZeros(b, op, og, 0);
  // tf.linalg.eigvalsh runs the op with the vectors (as svd above).
  if (!ir::attrBool(op.attrs, "compute_v", true))
    throwGradError("the gradient of SelfAdjointEigV2 with compute_v=False is not supported by tfs");
  Handle v = op.outputs[1];
  Handle gv = gradOrZeros(b, op, og, 1);
  Handle inner = b.add(diag(b, ge), b.mul(spectralGaps(b, e), b.matmul(v, gv, true, false)));
  Handle gradA = b.matmul(v, b.matmul(inner, v, false, true), false, false);
  gradA = bandPart(b, b.add(gradA, adjoint(b, gradA)), -1, 0);
  return {setDiag(b, gradA, b.mul(b.scalar(0.5, gradA), diagPart(b, gradA)))};
}

RULE(bandPartGrad) {
  COMPLEX_PRELUDE;
  std::vector<Handle> operands{g};
  for (size_t i = 1; i < op.inputs.size(); ++i) operands.push_back(op.inputs[i]);
  return {b.opv(OpKind::MatrixBandPart, operands, op.attrs)};
}

RULE(matrixDiagGrad) {
  COMPLEX_PRELUDE;
  return {diagPart(b, g)};
}

RULE(matrixDiagPartGrad) {
  COMPLEX_PRELUDE;
  return {setDiag(b, b.zerosLike(op.inputs[0]), g)};
}

RULE(matrixSetDiagGrad) {
  COMPLEX_PRELUDE;
  return {setDiag(b, g, b.zerosLike(op.inputs[1])), diagPart(b, g)};
}

// TF's _LuGrad (square input): with P A = L U,
// dA = P^T L^-T (strict_lower(L^T dL) + upper(dU U^T)) U^-T.
RULE(luGrad) {
  GradBuilder b(em);
  b.rejectComplex(op);
  if (!og[0]) return {b.zerosLike(op.inputs[0])};
  Handle g = *og[0];
  Handle lu = op.outputs[0], perm = op.outputs[1];
  Handle ones = b.onesLike(diagPart(b, lu)), zeros = b.zerosLike(diagPart(b, g));
  Handle l = setDiag(b, bandPart(b, lu, -1, 0), ones), u = bandPart(b, lu, 0, -1);
  Handle lGrad = setDiag(b, bandPart(b, g, -1, 0), zeros), uGrad = bandPart(b, g, 0, -1);
  Handle phiL = setDiag(b, bandPart(b, b.matmul(l, lGrad, true, false), -1, 0), zeros);
  Handle phiU = bandPart(b, b.matmul(uGrad, u, false, true), 0, -1);
  Handle left = b.op(OpKind::MatrixTriangularSolve, {l, b.add(phiL, phiU)}, {{"lower", true}, {"adjoint", true}});
  Handle rightT = b.op(OpKind::MatrixTriangularSolve, {u, adjoint(b, left)}, {{"lower", false}, {"adjoint", false}});
  // Row i of L U is row perm[i] of A: P^T as one_hot(perm) transposed.
  Handle p = b.op(OpKind::OneHot, {perm, b.dimOf(lu, b.rank(lu, "lu") - 1)}, {{"dtype", b.dtype(lu)}});
  return {b.matmul(p, adjoint(b, rightT), true, false)};
}

const RuleEntry kLinalgRules[] = {
    {OpKind::MatrixInverse, matrixInverseGrad},
    {OpKind::MatrixDeterminant, determinantGrad},
    {OpKind::LogMatrixDeterminant, logDeterminantGrad},
    {OpKind::MatrixSolve, matrixSolveGrad},
    {OpKind::MatrixTriangularSolve, triangularSolveGrad},
    {OpKind::Cholesky, choleskyGrad},
    {OpKind::Qr, qrGrad},
    {OpKind::Svd, svdGrad},
    {OpKind::SelfAdjointEig, selfAdjointEigGrad},
    {OpKind::Lu, luGrad},
    {OpKind::MatrixBandPart, bandPartGrad},
    {OpKind::MatrixDiag, matrixDiagGrad},
    {OpKind::MatrixDiagPart, matrixDiagPartGrad},
    {OpKind::MatrixSetDiag, matrixSetDiagGrad},
};

}  // namespace

std::span<const RuleEntry> linalgRules() { return kLinalgRules; }

}  // namespace tfs::runtime::autodiff_detail
