// The tensor cores' matrix product (matmul.h, lower_mma_matmul): float16/bfloat16 blocks
// of kBlockTile x kBlockTile outputs, 8 warps of WMMA 16 x 16 x 16 products each.
#include <string>

#include "compiler/loops/index_math.h"
#include "compiler/loops/matmul.h"
#include "compiler/loops/matmul_internal.h"

namespace relay::loops {

namespace {

constexpr int64_t kTile = 16;                        // a WMMA tile's side
constexpr int64_t kWarps = kBlockThreads / kWarpLanes;
constexpr int64_t kWarpCols = 2;                     // fragments a warp owns, along n
constexpr int64_t kSliceStride = kMmaDepth + 8;      // a shared row of a slice: 16-byte
                                                     // multiples, tiles 32-byte aligned
constexpr int64_t kOutStride = kBlockTile + 4;       // a shared row of the results
constexpr int64_t kCopy = kBlockTile * kMmaDepth / kBlockThreads;  // elements a thread copies
static_assert(kWarps * kTile * kTile * kWarpCols == kBlockTile * kBlockTile);
static_assert(kMmaDepth % kTile == 0 && kMmaDepth % kCopy == 0);
constexpr int64_t kOutputsPerThread = kBlockTile * kBlockTile / kBlockThreads;

}  // namespace

LoweredKernel lower_mma_matmul(const MatmulProgram& p, std::string name) {
  LoweredKernel r;
  const int64_t B = p.batch, M = p.m, N = p.n, K = p.k;
  if (!is_storage_only(p.dtype)) {
    r.error = "tensor cores for a product of " + dtype_name(p.dtype) + " (float16 and bfloat16 are)";
    return r;
  }
  if (M % kBlockTile != 0 || N % kBlockTile != 0 || K % kMmaDepth != 0) {
    r.error = "a tensor-core block that does not divide the matrix product";
    return r;
  }
  const std::optional<MatmulBuffers> buffers = begin_matmul_kernel(p, std::move(name), r);
  if (!buffers) return r;
  Kernel& kn = r.kernel;
  const DataType t = p.dtype;
  const int a = buffers->a, b = buffers->b;
  const int a_tile = add_shared(kn, "a_tile", t, kBlockTile * kSliceStride);
  const int b_tile = add_shared(kn, "b_tile", t, kBlockTile * kSliceStride);
  const int c_tile = add_shared(kn, "c_tile", f32(), kBlockTile * kOutStride);
  const int acc = add_thread_local(kn, "acc", f32(), kBlockThreads, kWarpCols * kFragment);
  const int64_t tiles_n = N / kBlockTile, tiles_m = M / kBlockTile;

  auto threads = [&](auto body) { return counted_loop(kn, "thread", kBlockThreads, LoopKind::Threads, body); };
  auto warps = [&](auto body) { return counted_loop(kn, "warp", kWarps, LoopKind::Warps, body); };
  // the warp's first row (of 16) and first column (of 32) in the block
  auto warp_row = [](const Var& w) { return index_scale(index_div(var_ref(w), kWarpCols), kTile); };
  auto warp_col = [](const Var& w) { return index_scale(index_rem(var_ref(w), kWarpCols), kTile * kWarpCols); };

  const Var tv = new_var(kn, "t", i64());
  const Var col0 = new_var(kn, "col0", i64()), row0 = new_var(kn, "row0", i64()), batch = new_var(kn, "batch", i64());
  Block per_tile{let(col0, index_scale(index_rem(var_ref(tv), tiles_n), kBlockTile)),
                 let(row0, index_scale(index_rem(index_div(var_ref(tv), tiles_n), tiles_m), kBlockTile)),
                 let(batch, index_div(var_ref(tv), tiles_n * tiles_m))};
  for (int buffer : {a_tile, b_tile, c_tile, acc}) per_tile.push_back(alloc(kn.buffer(buffer)));
  per_tile.push_back(threads([&](const Var& thread) {
    Block zero;
    for (int64_t j = 0; j < kWarpCols * kFragment; ++j)
      zero.push_back(store(kn.buffer(acc), thread_slot_index(thread, kn.buffer(acc), int_imm(j)), float_imm(0)));
    return zero;
  }));

  const Var slice = new_var(kn, "slice", i64());
  Block per_slice;
  // copy: a thread takes kCopy consecutive k of one row of a and of b
  per_slice.push_back(threads([&](const Var& thread) {
    Block copy;
    const Var row = new_var(kn, "row", i64()), kq = new_var(kn, "kq", i64());
    copy.push_back(let(row, index_div(var_ref(thread), kMmaDepth / kCopy)));
    copy.push_back(let(kq, index_scale(index_rem(var_ref(thread), kMmaDepth / kCopy), kCopy)));
    const Expr in_slice = index_add(index_scale(var_ref(slice), kMmaDepth), var_ref(kq));
    const Expr a_at = index_sum({index_scale(var_ref(batch), p.a_batch > 1 ? M * K : 0),
                                 index_scale(index_add(var_ref(row0), var_ref(row)), K), in_slice});
    const Expr b_at = index_sum({index_scale(var_ref(batch), p.b_batch > 1 ? N * K : 0),
                                 index_scale(index_add(var_ref(col0), var_ref(row)), K), in_slice});
    const Expr staged = index_add(index_scale(var_ref(row), kSliceStride), var_ref(kq));
    for (int64_t c = 0; c < kCopy; ++c) {
      copy.push_back(store(kn.buffer(a_tile), index_add(staged, c), load(kn.buffer(a), index_add(a_at, c))));
      copy.push_back(store(kn.buffer(b_tile), index_add(staged, c), load(kn.buffer(b), index_add(b_at, c))));
    }
    return copy;
  }));
  // each warp: its two fragments, the slice's k in steps of 16
  per_slice.push_back(warps([&](const Var& w) {
    Block products;
    for (int64_t step = 0; step < kMmaDepth / kTile; ++step)
      for (int64_t j = 0; j < kWarpCols; ++j)
        products.push_back(mma(kn.buffer(acc), j * kFragment, kn.buffer(a_tile),
                               index_add(index_scale(warp_row(w), kSliceStride), step * kTile), kSliceStride,
                               kn.buffer(b_tile),
                               index_add(index_scale(index_add(warp_col(w), j * kTile), kSliceStride), step * kTile),
                               kSliceStride));
    return products;
  }));
  per_tile.push_back(for_loop(slice, int_imm(K / kMmaDepth), LoopKind::Reduction, std::move(per_slice)));

  // the fragments to shared memory, then each thread kOutputsPerThread consecutive outputs of
  // one row, rounded to the dtype
  per_tile.push_back(warps([&](const Var& w) {
    Block out;
    for (int64_t j = 0; j < kWarpCols; ++j)
      out.push_back(fragment_store(kn.buffer(acc), j * kFragment, kn.buffer(c_tile),
                                   index_sum({index_scale(warp_row(w), kOutStride), warp_col(w), int_imm(j * kTile)}),
                                   kOutStride));
    return out;
  }));
  per_tile.push_back(threads([&](const Var& thread) {
    Block write;
    const Var row = new_var(kn, "row", i64()), cq = new_var(kn, "cq", i64());
    write.push_back(let(row, index_div(var_ref(thread), kBlockTile / kOutputsPerThread)));
    write.push_back(let(cq, index_scale(index_rem(var_ref(thread), kBlockTile / kOutputsPerThread), kOutputsPerThread)));
    const Expr out_at = index_sum({index_scale(var_ref(batch), M * N), index_scale(index_add(var_ref(row0), var_ref(row)), N),
                                   var_ref(col0), var_ref(cq)});
    const Expr staged = index_add(index_scale(var_ref(row), kOutStride), var_ref(cq));
    for (int64_t c = 0; c < kOutputsPerThread; ++c)
      write.push_back(store(kn.buffer(r.output_buffer), index_add(out_at, c),
                            cast(t, load(kn.buffer(c_tile), index_add(staged, c)))));
    return write;
  }));
  kn.body.push_back(for_loop(tv, int_imm(B * tiles_m * tiles_n), LoopKind::Parallel, std::move(per_tile)));
  return r;
}

}  // namespace relay::loops
