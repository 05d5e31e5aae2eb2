// The register-tiled matrix product's loops (matmul.h).
#include "compiler/loops/matmul.h"
#include "compiler/loops/matmul_internal.h"

#include <vector>

#include "compiler/loops/index_math.h"

namespace relay::loops {

bool matmul_supports(DataType t) { return folds_in_float32(t); }

std::optional<MatmulBuffers> begin_matmul_kernel(const MatmulProgram& p, std::string name, LoweredKernel& r,
                                                 int64_t partials) {
  const int64_t B = p.batch;
  if (B < 1 || p.m < 1 || p.n < 1 || p.k < 0 || (p.a_batch != 1 && p.a_batch != B) || (p.b_batch != 1 && p.b_batch != B)) {
    r.error = "a matrix product whose extents disagree";
    return std::nullopt;
  }
  if (!matmul_supports(p.dtype)) {
    r.error = "a matrix product of " + dtype_name(p.dtype);
    return std::nullopt;
  }
  Kernel& k = r.kernel;
  k.name = std::move(name);
  MatmulBuffers buffers;
  buffers.a = add_param(k, "a", p.dtype, {p.a_batch * p.m, p.k}, {p.k, 1});
  buffers.b = add_param(k, "b", p.dtype, {p.b_batch * p.n, p.k}, {p.k, 1});
  buffers.out = r.output_buffer = partials > 0 ? add_param(k, "partials", f32(), {partials}, {1})
                                               : add_param(k, "out", p.dtype, {B * p.m, p.n}, {p.n, 1});
  return buffers;
}

MatmulTile matmul_tile(const MatmulProgram& p, bool tensor_cores) {
  MatmulTile t;
  if (tensor_cores && is_storage_only(p.dtype) && p.m % kBlockTile == 0 && p.n % kBlockTile == 0 && p.k > 0) {
    t.tensor_cores = true;
    return t;
  }
  if (p.batch * p.m * p.n >= kBlockMinOutputs && p.m % kBlockTile == 0 && p.n % kBlockTile == 0 &&
      p.k > 0) {
    t.block = true;
    t.fat = p.batch * (p.m / kBlockTile) * (p.n / kBlockTile) >= kBlockFatMinTiles;
    return t;
  }
  if (p.batch * p.m * p.n < kEnoughTiles && p.k >= kLanesMinDepth) {
    t.lanes = true;  // a warp per output
    return t;
  }
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

std::string tile_words(const MatmulTile& t) {
  return gemm_tile_words(t.kind());
}
std::string tile_label(const MatmulTile& t) {
  return gemm_tile_label(t.kind());
}

std::vector<MatmulTile> matmul_tiles(const MatmulProgram& p, bool tensor_cores) {
  TileCandidates<MatmulTile> c{{matmul_tile(p, tensor_cores)}};
  auto divides = [&](int64_t m, int64_t n) { return p.m % m == 0 && p.n % n == 0; };
  for (int64_t s : {1, 2, 4})
    if (divides(s, s)) c.add({.m = s, .n = s});
  if (p.batch * p.m * p.n < (int64_t{1} << 20) && p.k >= kWarpLanes)
    for (int64_t n : {1, 4})
      if (divides(1, n)) c.add({.m = 1, .n = n, .lanes = true});
  if (divides(kBlockTile, kBlockTile) && p.k > 0)
    c.add_blocks(tensor_cores && is_storage_only(p.dtype), divides(kWideBlockTile, kWideBlockTile));
  if (divides(kSmallBlockTile, kSmallBlockTile) && p.k > 0 && small_blocks_help(p.batch, p.m, p.n))
    c.add_small_blocks();
  for (int64_t side : {kBlockTile, kSmallBlockTile})
    if (divides(side, side) && p.k > 0) c.add_split_blocks(side, p.batch, p.m, p.n, p.k);
  if (divides(kBlockTile, kBlockTile) && p.k > 0 && tensor_cores && is_storage_only(p.dtype))
    c.add_split_mma(p.batch, p.m, p.n, p.k);
  return c.tiles;
}

LoweredKernel lower_tiled_matmul(const MatmulProgram& p, std::string name) {
  return lower_tiled_matmul(p, std::move(name), matmul_tile(p));
}

LoweredKernel lower_tiled_matmul(const MatmulProgram& p, std::string name, MatmulTile tile) {
  if (tile.tensor_cores || tile.block) return lower_block_tile(p, std::move(name), tile);
  LoweredKernel r;
  const int64_t B = p.batch, M = p.m, N = p.n, K = p.k, TM = tile.m, TN = tile.n;
  if (TM < 1 || TN < 1 || M % TM != 0 || N % TN != 0) {
    r.error = "a register tile that does not divide the matrix product";
    return r;
  }
  const std::optional<MatmulBuffers> buffers = begin_matmul_kernel(p, std::move(name), r);
  if (!buffers) return r;
  Kernel& kn = r.kernel;
  const DataType f = f32();
  const int a = buffers->a, b = buffers->b;
  const int acc = tile.lanes ? add_thread_local(kn, "acc", f, kWarpLanes, TM * TN) : add_local(kn, "acc", f, TM * TN);
  // acc_at: an accumulator after the fold (lane 0's slot); acc_in: inside the fold
  Var lane;  // (lanes) the warp's lane
  if (tile.lanes) lane = new_var(kn, "lane", i64());
  auto acc_at = [&](int64_t i, int64_t j) { return int_imm(i * TN + j); };
  auto acc_in = [&](int64_t i, int64_t j) {
    return tile.lanes ? thread_slot_index(lane, kn.buffer(acc), acc_at(i, j)) : acc_at(i, j);
  };
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
  Block fold;
  for (int64_t i = 0; i < TM; ++i)
    for (int64_t j = 0; j < TN; ++j) fold.push_back(store(kn.buffer(acc), acc_in(i, j), float_imm(0)));

  // for k: TM values of a, TN of b, TM x TN multiply-adds (with lanes, the lane's k: the
  // loop runs over its share, k = lane + 32 * step)
  const Var kk = new_var(kn, "k", i64());
  Var step_k;  // (lanes) the lane's steps over k
  Block step;
  if (tile.lanes) {
    step_k = new_var(kn, "step", i64());
    step.push_back(let(kk, index_add(var_ref(lane), index_scale(var_ref(step_k), kWarpLanes))));
  }
  std::vector<Var> as, bs;
  for (int64_t i = 0; i < TM; ++i) {
    as.push_back(new_var(kn, "a", f));
    step.push_back(let(as.back(), cast(f, load(kn.buffer(a), index_add(index_add(var_ref(a_base), i * K), var_ref(kk))))));
  }
  for (int64_t j = 0; j < TN; ++j) {
    bs.push_back(new_var(kn, "b", f));
    step.push_back(let(bs.back(), cast(f, load(kn.buffer(b), index_add(index_add(var_ref(b_base), j * K), var_ref(kk))))));
  }
  for (int64_t i = 0; i < TM; ++i)
    for (int64_t j = 0; j < TN; ++j)
      step.push_back(store(kn.buffer(acc), acc_in(i, j),
                           call(MathFn::Fma, {var_ref(as[static_cast<size_t>(i)]), var_ref(bs[static_cast<size_t>(j)]),
                                              load(kn.buffer(acc), acc_in(i, j))})));
  if (tile.lanes) {
    // lane l's share of [0, K): ceil((K - l) / 32) steps
    Expr share = index_div(index_add(index_scale(var_ref(lane), -1), K + kWarpLanes - 1), kWarpLanes);
    fold.push_back(for_loop(step_k, std::move(share), LoopKind::Reduction, std::move(step)));
    per_tile.push_back(for_loop(lane, int_imm(kWarpLanes), LoopKind::Threads, std::move(fold)));
    per_tile.push_back(lane_reduce(kn.buffer(acc), BinaryOp::Add));
  } else {
    fold.push_back(for_loop(kk, int_imm(K), LoopKind::Reduction, std::move(step)));
    for (Stmt& st : fold) per_tile.push_back(std::move(st));
  }

  const Var out_base = new_var(kn, "out_base", i64());
  per_tile.push_back(
      let(out_base, index_sum({index_scale(var_ref(batch), M * N), index_scale(var_ref(m0), N), var_ref(n0)})));
  for (int64_t i = 0; i < TM; ++i)
    for (int64_t j = 0; j < TN; ++j)
      per_tile.push_back(store(kn.buffer(r.output_buffer), index_add(var_ref(out_base), i * N + j),
                               cast(p.dtype, load(kn.buffer(acc), acc_at(i, j)))));
  kn.body.push_back(for_loop(t, int_imm(B * tiles_m * tiles_n), LoopKind::Parallel, std::move(per_tile)));
  return r;
}

}  // namespace relay::loops
