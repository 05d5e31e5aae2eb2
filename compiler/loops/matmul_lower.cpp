// The register-tiled matrix product's loops (matmul.h).
#include "compiler/loops/matmul.h"

#include <vector>

#include "compiler/loops/index_math.h"

namespace relay::loops {

namespace {

// Tiles (threads) below which a product gives up tile size for parallelism: a few per
// multiprocessor's worth of resident threads on a large GPU (132 SMs x 2048).
constexpr int64_t kEnoughTiles = 32768;

}  // namespace

MatmulTile matmul_tile(const MatmulProgram& p) {
  MatmulTile t;
  for (int64_t s : {4, 2, 1})
    if (p.m % s == 0) {
      t.m = s;
      break;
    }
  for (int64_t s : {4, 2, 1})
    if (p.n % s == 0) {
      t.n = s;
      break;
    }
  auto tiles = [&] { return p.batch * (p.m / t.m) * (p.n / t.n); };
  while (tiles() < kEnoughTiles && (t.m > 1 || t.n > 1)) {
    if (t.m >= t.n) t.m /= 2;
    else t.n /= 2;
  }
  return t;
}

LoweredKernel lower_tiled_matmul(const MatmulProgram& p, std::string name) {
  return lower_tiled_matmul(p, std::move(name), matmul_tile(p));
}

LoweredKernel lower_tiled_matmul(const MatmulProgram& p, std::string name, MatmulTile tile) {
  LoweredKernel r;
  const int64_t B = p.batch, M = p.m, N = p.n, K = p.k, TM = tile.m, TN = tile.n;
  if (B < 1 || M < 1 || N < 1 || K < 0 || (p.a_batch != 1 && p.a_batch != B) || (p.b_batch != 1 && p.b_batch != B)) {
    r.error = "a matrix product whose extents disagree";
    return r;
  }
  if (TM < 1 || TN < 1 || M % TM != 0 || N % TN != 0) {
    r.error = "a register tile that does not divide the matrix product";
    return r;
  }
  Kernel& kn = r.kernel;
  kn.name = std::move(name);
  const DataType f = f32();
  const int a = add_param(kn, "a", f, {p.a_batch * M, K}, {K, 1});
  const int b = add_param(kn, "b", f, {p.b_batch * N, K}, {K, 1});
  r.output_buffer = add_param(kn, "out", f, {B * M, N}, {N, 1});
  const int acc = add_local(kn, "acc", f, TM * TN);
  auto acc_at = [&](int64_t i, int64_t j) { return int_imm(i * TN + j); };
  const int64_t tiles_n = N / TN, tiles_m = M / TM;

  const Var t = new_var(kn, "t", i64());
  const Var n0 = new_var(kn, "n0", i64()), m0 = new_var(kn, "m0", i64()), batch = new_var(kn, "batch", i64());
  const Var a_base = new_var(kn, "a_base", i64()), b_base = new_var(kn, "b_base", i64());
  Block per_tile{let(n0, index_scale(index_rem(var_ref(t), tiles_n), TN)),
                 let(m0, index_scale(index_rem(index_div(var_ref(t), tiles_n), tiles_m), TM)),
                 let(batch, index_div(var_ref(t), tiles_n * tiles_m))};
  // a batch of 1 is broadcast: every batch reads it
  per_tile.push_back(
      let(a_base, index_add(index_scale(var_ref(batch), p.a_batch > 1 ? M * K : 0), index_scale(var_ref(m0), K))));
  per_tile.push_back(
      let(b_base, index_add(index_scale(var_ref(batch), p.b_batch > 1 ? N * K : 0), index_scale(var_ref(n0), K))));
  per_tile.push_back(alloc(kn.buffer(acc)));
  for (int64_t i = 0; i < TM; ++i)
    for (int64_t j = 0; j < TN; ++j) per_tile.push_back(store(kn.buffer(acc), acc_at(i, j), float_imm(0)));

  // for k: TM values of a, TN of b, TM x TN multiply-adds
  const Var kk = new_var(kn, "k", i64());
  Block step;
  std::vector<Var> as, bs;
  for (int64_t i = 0; i < TM; ++i) {
    as.push_back(new_var(kn, "a", f));
    step.push_back(let(as.back(), load(kn.buffer(a), index_add(index_add(var_ref(a_base), i * K), var_ref(kk)))));
  }
  for (int64_t j = 0; j < TN; ++j) {
    bs.push_back(new_var(kn, "b", f));
    step.push_back(let(bs.back(), load(kn.buffer(b), index_add(index_add(var_ref(b_base), j * K), var_ref(kk)))));
  }
  for (int64_t i = 0; i < TM; ++i)
    for (int64_t j = 0; j < TN; ++j)
      step.push_back(store(kn.buffer(acc), acc_at(i, j),
                           binary(BinaryOp::Add, load(kn.buffer(acc), acc_at(i, j)),
                                  binary(BinaryOp::Mul, var_ref(as[static_cast<size_t>(i)]),
                                         var_ref(bs[static_cast<size_t>(j)])))));
  per_tile.push_back(for_loop(kk, int_imm(K), LoopKind::Reduction, std::move(step)));

  const Var out_base = new_var(kn, "out_base", i64());
  per_tile.push_back(
      let(out_base, index_sum({index_scale(var_ref(batch), M * N), index_scale(var_ref(m0), N), var_ref(n0)})));
  for (int64_t i = 0; i < TM; ++i)
    for (int64_t j = 0; j < TN; ++j)
      per_tile.push_back(store(kn.buffer(r.output_buffer), index_add(var_ref(out_base), i * N + j),
                               load(kn.buffer(acc), acc_at(i, j))));
  kn.body.push_back(for_loop(t, int_imm(B * tiles_m * tiles_n), LoopKind::Parallel, std::move(per_tile)));
  return r;
}

}  // namespace relay::loops
