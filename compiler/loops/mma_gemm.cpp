// The tensor cores' block-tiled product (block_gemm.h, append_mma_gemm): 8 warps of WMMA
// 16 x 16 x 16 products per block of kBlockTile x kBlockTile outputs.
#include "compiler/loops/block_gemm.h"
#include "compiler/loops/block_gemm_internal.h"
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

    const Var t = new_var(k_, "t", i64());
    Block per_tile;
    part_ = k_part(k_, g_, t, kMmaDepth, per_tile);  // the iteration's tile (and part of k)
    origin_ = tile_origin(k_, g_, part_.tile, per_tile);
    for (int buffer : {a_tile_, b_tile_, c_tile_, acc_}) per_tile.push_back(alloc(k_.buffer(buffer)));
    per_tile.push_back(threads([&](const Var& thread) {
      Block zero;
      for (int64_t j = 0; j < kWarpCols * kFragment; ++j)
        zero.push_back(store(acc(), thread_slot_index(thread, acc(), int_imm(j)), float_imm(0)));
      return zero;
    }));

    slice_ = new_var(k_, "slice", i64());
    Block per_slice;
    // k innermost, in the storage type: the layout Mma reads
    const SliceLayout layout{kMmaDepth, kCopy, storage_, kSliceStride, 1};
    per_slice.push_back(threads([&](const Var& thread) {
      Block copy;
      const Expr slice = part_.slice(var_ref(slice_));
      copy_slice(k_, copy, g_, layout, thread, a_tile_, g_.a_walk, origin_, origin_.row0, g_.rows, slice, g_.a);
      copy_slice(k_, copy, g_, layout, thread, b_tile_, g_.b_walk, origin_, origin_.col0, g_.cols, slice, g_.b);
      return copy;
    }));
    per_slice.push_back(warps([&](const Var& w) { return multiply(w); }));
    per_tile.push_back(for_loop(slice_, part_.slices, LoopKind::Reduction, std::move(per_slice)));

    per_tile.push_back(warps([&](const Var& w) { return stage_results(w); }));
    per_tile.push_back(threads([&](const Var& thread) { return write(thread); }));
    k_.body.push_back(for_loop(t, int_imm(k_part_iterations(g_)), LoopKind::Parallel, std::move(per_tile)));
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
    const Expr out_row = index_add(var_ref(origin_.row0), var_ref(row));
    for (int64_t c = 0; c < kOutputsPerThread; ++c) {
      const Var col = new_var(k_, "col", i64());
      write.push_back(let(col, index_sum({var_ref(origin_.col0), var_ref(cq), int_imm(c)})));
      Block output;
      const Expr sum = load(k_.buffer(c_tile_), index_add(staged, c));
      if (part_.span > 0)  // the part's sum
        output.push_back(store_partial(k_, g_, part_, var_ref(origin_.batch), out_row, var_ref(col), sum));
      else
        g_.out(k_, output, var_ref(origin_.batch), out_row, var_ref(col), sum);
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
  TileOrigin origin_;
  Var slice_;
  KPart part_;
};

}  // namespace

std::string append_mma_gemm(Kernel& k, const BlockGemm& g, DataType storage) {
  if (!is_storage_only(storage)) return "tensor cores for a product of " + dtype_name(storage) + " (float16 and bfloat16 are)";
  if (g.rows < 1 || g.cols < 1 || g.depth < 1 || g.batches < 1) return "an empty block-tiled product";
  if (g.tile != kBlockTile) return "a tensor-core block of other than 64 x 64 outputs";
  if (g.rows % kBlockTile != 0) return "a tensor-core block that does not divide the product's rows";
  if (std::string e = check_split(k, g, kMmaDepth); !e.empty()) return e;
  MmaBuilder(k, g, storage).build();
  return {};
}

}  // namespace relay::loops
