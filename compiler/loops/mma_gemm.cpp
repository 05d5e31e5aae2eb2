// The tensor cores' block-tiled product (block_gemm.h, append_mma_gemm): 8 warps of WMMA
// 16 x 16 x 16 products per block of kBlockTile x kBlockTile outputs.
#include "compiler/loops/block_gemm.h"

#include "compiler/loops/index_math.h"

namespace relay::loops {

namespace {

constexpr int64_t kTile = 16;  // a WMMA tile's side
constexpr int64_t kWarps = kBlockThreads / kWarpLanes;
constexpr int64_t kWarpCols = 2;                 // fragments a warp owns, along the columns
constexpr int64_t kSliceStride = kMmaDepth + 8;  // a shared row of a slice: 16-byte
                                                 // multiples, tiles 32-byte aligned
constexpr int64_t kOutStride = kBlockTile + 4;   // a shared row of the results
constexpr int64_t kCopy = kBlockTile * kMmaDepth / kBlockThreads;  // elements a thread copies
constexpr int64_t kOutputsPerThread = kBlockTile * kBlockTile / kBlockThreads;
static_assert(kWarps * kTile * kTile * kWarpCols == kBlockTile * kBlockTile);
static_assert(kMmaDepth % kTile == 0 && kMmaDepth % kCopy == 0);

class MmaBuilder {
 public:
  MmaBuilder(Kernel& k, const BlockGemm& g, DataType storage) : k_(k), g_(g), storage_(storage) {}

  void build() {
    a_tile_ = add_shared(k_, "a_tile", storage_, kBlockTile * kSliceStride);
    b_tile_ = add_shared(k_, "b_tile", storage_, kBlockTile * kSliceStride);
    c_tile_ = add_shared(k_, "c_tile", f32(), kBlockTile * kOutStride);
    acc_ = add_thread_local(k_, "acc", f32(), kBlockThreads, kWarpCols * kFragment);
    const int64_t tiles_m = g_.rows / kBlockTile, tiles_n = (g_.cols + kBlockTile - 1) / kBlockTile;

    const Var t = new_var(k_, "t", i64());
    col0_ = new_var(k_, "col0", i64()), row0_ = new_var(k_, "row0", i64()), batch_ = new_var(k_, "batch", i64());
    Block per_tile{let(col0_, index_scale(index_rem(var_ref(t), tiles_n), kBlockTile)),
                   let(row0_, index_scale(index_rem(index_div(var_ref(t), tiles_n), tiles_m), kBlockTile)),
                   let(batch_, index_div(var_ref(t), tiles_n * tiles_m))};
    for (int buffer : {a_tile_, b_tile_, c_tile_, acc_}) per_tile.push_back(alloc(k_.buffer(buffer)));
    per_tile.push_back(threads([&](const Var& thread) {
      Block zero;
      for (int64_t j = 0; j < kWarpCols * kFragment; ++j)
        zero.push_back(store(acc(), thread_slot_index(thread, acc(), int_imm(j)), float_imm(0)));
      return zero;
    }));

    slice_ = new_var(k_, "slice", i64());
    Block per_slice;
    per_slice.push_back(threads([&](const Var& thread) {
      Block copy;
      copy_operand(copy, thread, a_tile_, g_.a_walk, row0_, g_.rows, g_.a);
      copy_operand(copy, thread, b_tile_, g_.b_walk, col0_, g_.cols, g_.b);
      return copy;
    }));
    per_slice.push_back(warps([&](const Var& w) { return multiply(w); }));
    const int64_t slices = (g_.depth + kMmaDepth - 1) / kMmaDepth;
    per_tile.push_back(for_loop(slice_, int_imm(slices), LoopKind::Reduction, std::move(per_slice)));

    per_tile.push_back(warps([&](const Var& w) { return stage_results(w); }));
    per_tile.push_back(threads([&](const Var& thread) { return write(thread); }));
    k_.body.push_back(for_loop(t, int_imm(g_.batches * tiles_m * tiles_n), LoopKind::Parallel, std::move(per_tile)));
  }

 private:
  const Buffer& acc() const { return k_.buffer(acc_); }

  template <class Body>
  Stmt threads(Body body) {
    return counted_loop(k_, "thread", kBlockThreads, LoopKind::Threads, body);
  }
  template <class Body>
  Stmt warps(Body body) {
    return counted_loop(k_, "warp", kWarps, LoopKind::Warps, body);
  }
  // the warp's first row (of 16) and first column (of 32) in the block
  static Expr warp_row(const Var& w) { return index_scale(index_div(var_ref(w), kWarpCols), kTile); }
  static Expr warp_col(const Var& w) { return index_scale(index_rem(var_ref(w), kWarpCols), kTile * kWarpCols); }

  // The thread's kCopy elements of an operand's slice into its shared tile, k innermost
  // (the layout Mma reads). Rows past the product's (a last partial tile of columns), k
  // past its depth and elements not `inside` are zeros, which add nothing to a product.
  template <class Reader>
  void copy_operand(Block& at, const Var& thread, int tile, SliceWalk walk, const Var& first, int64_t extent,
                    const Reader& read) {
    const Var r = new_var(k_, "r", i64()), kq = new_var(k_, "kq", i64());
    if (walk == SliceWalk::AlongK) {  // kMmaDepth / kCopy threads a row
      at.push_back(let(r, index_div(var_ref(thread), kMmaDepth / kCopy)));
      at.push_back(let(kq, index_scale(index_rem(var_ref(thread), kMmaDepth / kCopy), kCopy)));
    } else {  // consecutive threads, consecutive rows
      at.push_back(let(r, index_rem(var_ref(thread), kBlockTile)));
      at.push_back(let(kq, index_scale(index_div(var_ref(thread), kBlockTile), kCopy)));
    }
    const Var row = new_var(k_, "row", i64());
    at.push_back(let(row, index_add(var_ref(first), var_ref(r))));
    const Expr in_range = extent % kBlockTile != 0 ? compare(CmpOp::Lt, var_ref(row), int_imm(extent)) : nullptr;
    const Expr staged = index_add(index_scale(var_ref(r), kSliceStride), var_ref(kq));
    for (int64_t c = 0; c < kCopy; ++c) {
      const Expr k_index = index_sum({index_scale(var_ref(slice_), kMmaDepth), var_ref(kq), int_imm(c)});
      const GemmElement e = read(k_, at, var_ref(batch_), var_ref(row), k_index);
      Expr guard = e.inside;
      if (in_range) guard = guard ? binary(BinaryOp::And, in_range, guard) : in_range;
      if (g_.depth % kMmaDepth != 0) {
        const Expr in_depth = compare(CmpOp::Lt, k_index, int_imm(g_.depth));
        guard = guard ? binary(BinaryOp::And, in_depth, guard) : in_depth;
      }
      const Expr value = cast(storage_, e.value);
      if (!guard) {
        at.push_back(store(k_.buffer(tile), index_add(staged, c), value));
      } else {
        at.push_back(store(k_.buffer(tile), index_add(staged, c), cast(storage_, float_imm(0))));
        at.push_back(if_then(guard, Block{store(k_.buffer(tile), index_add(staged, c), value)}));
      }
    }
  }

  // The warp's two fragments += its rows of A x its columns of B over the slice, in steps
  // of 16.
  Block multiply(const Var& w) {
    Block products;
    for (int64_t step = 0; step < kMmaDepth / kTile; ++step)
      for (int64_t j = 0; j < kWarpCols; ++j)
        products.push_back(mma(acc(), j * kFragment, k_.buffer(a_tile_),
                               index_add(index_scale(warp_row(w), kSliceStride), step * kTile), kSliceStride,
                               k_.buffer(b_tile_),
                               index_add(index_scale(index_add(warp_col(w), j * kTile), kSliceStride), step * kTile),
                               kSliceStride));
    return products;
  }

  Block stage_results(const Var& w) {
    Block out;
    for (int64_t j = 0; j < kWarpCols; ++j)
      out.push_back(fragment_store(acc(), j * kFragment, k_.buffer(c_tile_),
                                   index_sum({index_scale(warp_row(w), kOutStride), warp_col(w), int_imm(j * kTile)}),
                                   kOutStride));
    return out;
  }

  // The thread's kOutputsPerThread consecutive columns of one row of the block.
  Block write(const Var& thread) {
    Block write;
    const Var row = new_var(k_, "row", i64()), cq = new_var(k_, "cq", i64());
    write.push_back(let(row, index_div(var_ref(thread), kBlockTile / kOutputsPerThread)));
    write.push_back(let(cq, index_scale(index_rem(var_ref(thread), kBlockTile / kOutputsPerThread), kOutputsPerThread)));
    const Expr staged = index_add(index_scale(var_ref(row), kOutStride), var_ref(cq));
    const Expr out_row = index_add(var_ref(row0_), var_ref(row));
    for (int64_t c = 0; c < kOutputsPerThread; ++c) {
      const Var col = new_var(k_, "col", i64());
      write.push_back(let(col, index_sum({var_ref(col0_), var_ref(cq), int_imm(c)})));
      Block output;
      g_.out(k_, output, var_ref(batch_), out_row, var_ref(col), load(k_.buffer(c_tile_), index_add(staged, c)));
      if (g_.cols % kBlockTile != 0) {
        write.push_back(if_then(compare(CmpOp::Lt, var_ref(col), int_imm(g_.cols)), std::move(output)));
      } else {
        for (Stmt& s : output) write.push_back(std::move(s));
      }
    }
    return write;
  }

  Kernel& k_;
  const BlockGemm& g_;
  DataType storage_;
  int a_tile_ = -1, b_tile_ = -1, c_tile_ = -1, acc_ = -1;
  Var col0_, row0_, batch_, slice_;
};

}  // namespace

std::string append_mma_gemm(Kernel& k, const BlockGemm& g, DataType storage) {
  if (!is_storage_only(storage)) return "tensor cores for a product of " + dtype_name(storage) + " (float16 and bfloat16 are)";
  if (g.rows < 1 || g.cols < 1 || g.depth < 1 || g.batches < 1) return "an empty block-tiled product";
  if (g.rows % kBlockTile != 0) return "a tensor-core block that does not divide the product's rows";
  MmaBuilder(k, g, storage).build();
  return {};
}

}  // namespace relay::loops
