// The shared-memory block tiling of a matrix product (block_gemm.h).
#include "compiler/loops/block_gemm.h"

#include <vector>

#include "compiler/loops/block_gemm_internal.h"
#include "compiler/loops/index_math.h"

namespace relay::loops {

namespace {

// A thread's outputs come in groups of 4 x 4 (one 16-byte shared read of each operand a
// group a step); with 8 x 8 a thread, its second group of rows (columns) sits half a tile
// further, so that a quarter warp's reads of a group stay 128 consecutive bytes.
constexpr int64_t kGroup = 4;
static_assert(kBlockTile % (4 * kGroup) == 0 && kWideBlockTile % (4 * kGroup) == 0);
// A shared row is padded by 4 words: rows stay 16-byte aligned for vector reads, and the
// transposing writes of a warp spread over the banks.
constexpr int64_t kPad = 4;

class Builder {
 public:
  Builder(Kernel& k, const BlockGemm& g)
      : k_(k), g_(g), per_thread_(g.thread_tile), grid_(g.tile / g.thread_tile), threads_(grid_ * grid_),
        copy_(g.tile * kBlockDepth / threads_), stride_(g.tile + kPad) {}

  void build() {
    const DataType f = f32();
    a_tile_ = add_shared(k_, "a_tile", f, kBlockDepth * stride_);
    b_tile_ = add_shared(k_, "b_tile", f, kBlockDepth * stride_);
    acc_ = add_thread_local(k_, "acc", f, threads_, per_thread_ * per_thread_);
    std::vector<int> buffers{a_tile_, b_tile_, acc_};
    if (g_.prefetch) {  // the thread's share of the next slice, read ahead
      a_ahead_ = add_thread_local(k_, "a_ahead", f, threads_, copy_);
      b_ahead_ = add_thread_local(k_, "b_ahead", f, threads_, copy_);
      buffers.insert(buffers.end(), {a_ahead_, b_ahead_});
    }

    const Var t = new_var(k_, "t", i64());
    Block per_tile;
    part_ = k_part(k_, g_, t, kBlockDepth, per_tile);  // the iteration's tile (and part of k)
    origin_ = tile_origin(k_, g_, part_.tile, per_tile);
    for (int buffer : buffers) per_tile.push_back(alloc(k_.buffer(buffer)));
    per_tile.push_back(threads([&](const Var& thread) {
      Block zero;
      for (int64_t i = 0; i < per_thread_; ++i)
        for (int64_t j = 0; j < per_thread_; ++j) zero.push_back(store(acc(), acc_of(thread, i, j), float_imm(0)));
      return zero;
    }));

    // for each slice of k (of the part's, with a split): copy A's and B's, then fold
    slice_ = new_var(k_, "slice", i64());
    Block per_slice;
    // k-major (transposed): a step of k reads a row of each
    const SliceLayout layout{kBlockDepth, copy_, f, 1, stride_};
    // the thread's share of both operands' slice `slice`: into shared memory, or with
    // `ahead` into its registers
    auto copy = [&](const Var& thread, const Expr& slice, bool ahead) {
      Block copy;
      copy_slice(k_, copy, g_, layout, thread, a_tile_, g_.a_walk, origin_, origin_.row0, g_.rows, slice, g_.a,
                 ahead ? a_ahead_ : -1);
      copy_slice(k_, copy, g_, layout, thread, b_tile_, g_.b_walk, origin_, origin_.col0, g_.cols, slice, g_.b,
                 ahead ? b_ahead_ : -1);
      return copy;
    };
    if (!g_.prefetch) {
      per_slice.push_back(
          threads([&](const Var& thread) { return copy(thread, part_.slice(var_ref(slice_)), false); }));
      per_slice.push_back(threads([&](const Var& thread) { return fold(thread); }));
    } else {
      // slice 0 into registers; then for each slice: registers to shared memory, then the
      // next slice's loads issued before the fold, which their latency overlaps
      per_tile.push_back(threads([&](const Var& thread) { return copy(thread, part_.slice(int_imm(0)), true); }));
      per_slice.push_back(threads([&](const Var& thread) {
        Block commit;
        commit_slice(k_, commit, g_, layout, thread, a_tile_, g_.a_walk, a_ahead_);
        commit_slice(k_, commit, g_, layout, thread, b_tile_, g_.b_walk, b_ahead_);
        return commit;
      }));
      per_slice.push_back(threads([&](const Var& thread) {
        Block step;
        if (part_.span > 0 || part_.all > 1)  // a next slice (unsplit: more than one)
          step.push_back(if_then(part_.has_next(var_ref(slice_)),
                                 copy(thread, part_.slice(index_add(var_ref(slice_), 1)), true)));
        for (Stmt& s : fold(thread)) step.push_back(std::move(s));
        return step;
      }));
    }
    per_tile.push_back(for_loop(slice_, part_.slices, LoopKind::Reduction, std::move(per_slice)));

    per_tile.push_back(threads([&](const Var& thread) { return write(thread); }));
    k_.body.push_back(for_loop(t, int_imm(k_part_iterations(g_)), LoopKind::Parallel, std::move(per_tile)));
  }

 private:
  const Buffer& acc() const { return k_.buffer(acc_); }
  Expr acc_of(const Var& thread, int64_t i, int64_t j) {
    return thread_slot_index(thread, acc(), int_imm(i * per_thread_ + j));
  }

  // `for thread in [0, threads) body(thread)`, a Threads loop of its own variable
  template <class Body>
  Stmt threads(Body body) {
    return counted_loop(k_, "thread", threads_, LoopKind::Threads, body);
  }

  // The thread's row and column in the grid of threads.
  std::pair<Var, Var> grid_position(const Var& thread, Block& at) {
    const Var ty = new_var(k_, "ty", i64()), tx = new_var(k_, "tx", i64());
    at.push_back(let(ty, index_div(var_ref(thread), grid_)));
    at.push_back(let(tx, index_rem(var_ref(thread), grid_)));
    return {ty, tx};
  }

  // The tile's row (column) of a thread's i-th output row (column), the thread at `t` in
  // the grid: groups of kGroup consecutive ones, the next group a grid's width further.
  Expr place(const Var& t, int64_t i) const {
    return index_sum({index_scale(var_ref(t), kGroup), int_imm(i / kGroup * grid_ * kGroup + i % kGroup)});
  }

  Block fold(const Var& thread) {
    Block fold;
    auto [ty, tx] = grid_position(thread, fold);
    const Var kk = new_var(k_, "kk", i64());
    Block step;
    std::vector<Var> as, bs;
    for (int64_t i = 0; i < per_thread_; ++i) {
      as.push_back(new_var(k_, "a", f32()));
      step.push_back(let(as.back(), load(k_.buffer(a_tile_), index_add(index_scale(var_ref(kk), stride_), place(ty, i)))));
    }
    for (int64_t j = 0; j < per_thread_; ++j) {
      bs.push_back(new_var(k_, "b", f32()));
      step.push_back(let(bs.back(), load(k_.buffer(b_tile_), index_add(index_scale(var_ref(kk), stride_), place(tx, j)))));
    }
    for (int64_t i = 0; i < per_thread_; ++i)
      for (int64_t j = 0; j < per_thread_; ++j)
        step.push_back(store(acc(), acc_of(thread, i, j),
                             call(MathFn::Fma, {var_ref(as[static_cast<size_t>(i)]), var_ref(bs[static_cast<size_t>(j)]),
                                                load(acc(), acc_of(thread, i, j))})));
    fold.push_back(for_loop(kk, int_imm(kBlockDepth), LoopKind::Reduction, std::move(step)));
    return fold;
  }

  // The thread's outputs: rows row0 + place(ty, i), columns col0 + place(tx, j).
  Block write(const Var& thread) {
    Block write;
    auto [ty, tx] = grid_position(thread, write);
    for (int64_t j = 0; j < per_thread_; ++j) {
      const Var col = new_var(k_, "col", i64());
      write.push_back(let(col, index_add(var_ref(origin_.col0), place(tx, j))));
      Block outputs;
      for (int64_t i = 0; i < per_thread_; ++i) {
        const Expr row = index_add(var_ref(origin_.row0), place(ty, i));
        const Expr sum = load(acc(), acc_of(thread, i, j));
        if (part_.span > 0)
          outputs.push_back(store_partial(k_, g_, part_, var_ref(origin_.batch), row, var_ref(col), sum));
        else
          g_.out(k_, outputs, var_ref(origin_.batch), row, var_ref(col), sum);
      }
      if (g_.cols % g_.tile != 0) {
        write.push_back(if_then(compare(CmpOp::Lt, var_ref(col), int_imm(g_.cols)), std::move(outputs)));
      } else {
        for (Stmt& s : outputs) write.push_back(std::move(s));
      }
    }
    return write;
  }

  Kernel& k_;
  const BlockGemm& g_;
  const int64_t per_thread_, grid_, threads_, copy_;  // outputs a thread along each side, the
                                                      // grid's side, the team, elements a
                                                      // thread copies of an operand's slice
  const int64_t stride_;                              // a shared row's words
  int a_tile_ = -1, b_tile_ = -1, acc_ = -1;
  int a_ahead_ = -1, b_ahead_ = -1;  // BlockGemm::prefetch: the thread's share of the next slice
  TileOrigin origin_;
  Var slice_;
  KPart part_;
};

}  // namespace

std::string append_block_gemm(Kernel& k, const BlockGemm& g) {
  if (g.rows < 1 || g.cols < 1 || g.depth < 1 || g.batches < 1) return "an empty block-tiled product";
  if (g.tile != kBlockTile && !(g.tile == kWideBlockTile && g.thread_tile == 8) &&
      !(g.tile == kSmallBlockTile && g.thread_tile == 4))
    return "a block of 64 x 64 outputs, of 128 x 128 with 8 x 8 a thread, or of 32 x 32 with 4 x 4";
  if (g.rows % g.tile != 0) return "a block tile that does not divide the product's rows";
  if (g.thread_tile != 4 && g.thread_tile != 8) return "a block tile of 4 x 4 or 8 x 8 outputs a thread";
  if (std::string e = check_split(k, g, kBlockDepth); !e.empty()) return e;
  Builder(k, g).build();
  return {};
}

LoweredKernel lower_split_finish(const BlockGemm& g, std::string name, DataType out_type,
                                 std::vector<int64_t> out_shape, std::vector<int64_t> out_strides) {
  LoweredKernel r;
  Kernel& k = r.kernel;
  k.name = std::move(name);
  const int partials = add_param(k, "partials", f32(), {split_partials(g)}, {1});
  r.output_buffer = add_param(k, "out", out_type, std::move(out_shape), std::move(out_strides));
  // an iteration per output (batch, row, col), consecutive ones along a row: the parts'
  // reads and (for the callers' layouts) the stores are coalesced
  const int64_t outputs = g.batches * g.rows * g.cols;
  const Var o = new_var(k, "o", i64()), batch = new_var(k, "batch", i64()), row = new_var(k, "row", i64()),
            col = new_var(k, "col", i64());
  Block per_output{let(batch, index_div(var_ref(o), g.rows * g.cols)),
                   let(row, index_rem(index_div(var_ref(o), g.cols), g.rows)), let(col, index_rem(var_ref(o), g.cols))};
  Expr total;
  for (int64_t part = 0; part < g.splits; ++part) {
    const Var sum = new_var(k, "sum", f32());
    const Expr partial = load(k.buffer(partials), index_add(var_ref(o), part * outputs));
    per_output.push_back(let(sum, total ? binary(BinaryOp::Add, total, partial) : partial));
    total = var_ref(sum);
  }
  g.out(k, per_output, var_ref(batch), var_ref(row), var_ref(col), total);
  k.body.push_back(for_loop(o, int_imm(outputs), LoopKind::Parallel, std::move(per_output)));
  return r;
}

}  // namespace relay::loops
