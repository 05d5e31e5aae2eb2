// The loop IR: target-independent kernels over buffers, the level between fused operator
// groups and machine code. The CPU backend (compiler/llvm) and, later, the GPU backend
// lower the same kernels.
//
// A Kernel has buffer parameters with concrete shapes and strides (the compiler
// specialises per shape), local buffers, and a body of statements: loops with a kind,
// lets, stores, conditionals. Expressions are small immutable trees (shared, so a builder
// may reuse a subtree; backends evaluate a shared subtree once per use, so bind values
// that are used twice with a Let).
//
// Every operation is total: integer division by zero gives 0, MIN / -1 wraps, shifts by
// out-of-range counts give numpy's answer, float -> integer casts saturate (NaN -> 0).
// A backend never meets undefined behaviour, and the lowering that needs an error (integer
// division by zero) tests the divisor itself and sets a status flag.
//
// float16 and bfloat16 are storage types: they can be loaded, stored and cast, and all
// arithmetic happens in float32 (as in interpreter/runtime/dispatch.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lang/base/dtype.h"

namespace relay::loops {

enum class ExprKind : uint8_t { IntImm, FloatImm, Var, Load, Unary, Binary, Compare, Select, Cast, Call };

enum class UnaryOp : uint8_t {
  Neg,  // 0 - x (wrapping) for integers, -x for floats; identity on bool
  Not,  // ~x for integers, !x for bool
};

enum class BinaryOp : uint8_t {
  Add, Sub, Mul,  // integers wrap; on bool only And/Or/Xor are allowed
  Div,            // floats: IEEE; integers: truncated, x / 0 = 0, MIN / -1 = MIN
  Rem,            // floats: fmod; integers: truncated, x % 0 = 0, MIN % -1 = 0
  Min, Max,       // selects: a < b ? a : b and a > b ? a : b (NaN semantics follow)
  And, Or, Xor,   // bitwise (integers and bool)
  Shl, Shr,       // integers; a count outside [0, bits) shifts every bit out
  Pow,            // integers: a ** b wrapping (by squaring); b < 0 gives 1 for a == 1,
                  // +-1 for a == -1 and 0 otherwise (0 ** negative too: callers that
                  // must fail there test it)
};

// Float comparisons are ordered (false when either side is NaN), Ne included.
enum class CmpOp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };

// Math intrinsics on float32/float64 (Pow takes two arguments, Fma three). IsNan/IsInf/IsFinite
// give bool. Round rounds halves away from zero. Results are those of the C library's
// function of the same name (expf, tanhf, ...), so the interpreter's answers match.
enum class MathFn : uint8_t {
  Exp, Log, Log2, Log10, Sqrt, Rsqrt, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh,
  Asinh, Acosh, Atanh, Erf, Sigmoid, Floor, Ceil, Round, Trunc, Fabs, Pow, IsNan, IsInf,
  IsFinite,
  Fma,  // fma(a, b, c): a * b + c rounded once (C's fmaf/fma), on every target
};

struct ExprNode;
using Expr = std::shared_ptr<const ExprNode>;

struct ExprNode {
  ExprKind kind;
  DataType dtype;            // the value's type (bool for comparisons)
  int64_t int_value = 0;     // IntImm (two's complement bits for unsigned)
  double float_value = 0;    // FloatImm
  int id = -1;               // Var: the variable's id; Load: the buffer's id
  uint8_t op = 0;            // UnaryOp / BinaryOp / CmpOp / MathFn
  std::vector<Expr> args;    // operands; Load: {index}; Select: {cond, then, else}
};

// A variable: a loop index (int64) or a let-bound value. Ids are unique in a kernel.
struct Var {
  int id = -1;
  std::string name;
  DataType dtype;
};

// A buffer: a kernel parameter (global memory, passed by the caller) or a local scratch
// array (Alloc). Element (i0, ..., ik) is at flat element offset sum(i_d * strides[d]);
// a zero stride broadcasts that dimension.
struct Buffer {
  int id = -1;
  std::string name;
  DataType dtype;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // in elements
  bool is_param = true;
  // A thread-local buffer (add_thread_local): a slot of `thread_slot` elements for each
  // of a team's T threads (see LoopKind::Threads), element j of thread i at
  // i * thread_slot + j. Inside a Threads loop an index addresses the thread's own slot
  // (thread * thread_slot + j: thread_slot_index); elsewhere it is only read, and means
  // thread 0's slot (j), which after a LaneReduce holds the result (and so does every
  // thread's copy on the GPU). On the GPU each thread keeps only its own slot (registers,
  // when the indices are constants).
  int64_t thread_slot = 0;  // 0: not thread-local
  // A buffer shared by a team (add_shared): one copy per iteration of the parallel loop,
  // written and read by its threads in different Threads loops; GPU shared memory.
  bool shared = false;
  int64_t extent() const;  // elements addressed: 1 + sum((shape[d] - 1) * strides[d])
};

enum class LoopKind : uint8_t {
  Serial,
  Parallel,      // iterations are independent; the kernel's outermost loop may be split
  Vectorizable,  // independent iterations, contiguous accesses: the backend vectorises
  Reduction,     // carries a dependence through memory or a local: keep the order
  Threads,       // `for thread in [0, T)`: the T threads of a team that share an
                 // iteration of the top-level parallel loop (T, Kernel::team(), is the
                 // same for every Threads loop of a kernel: a multiple of 32 up to 1024).
                 // It stands in the parallel loop's body, or in serial/reduction loops
                 // there, never inside an If or another Threads loop. The CPU runs it as a
                 // serial loop; the GPU runs its body once on each of the team's threads (a
                 // team of 32 is a warp, a larger one or one with shared buffers a block),
                 // with a barrier after it when the kernel has shared buffers. So a thread
                 // must not read what another writes in the same Threads loop.
  Warps,         // `for warp in [0, T / 32)`: the team's warps, where a Threads loop may
                 // stand. Its body holds lets, serial loops and the warp-wide matrix
                 // statements (Mma, FragmentStore), no stores. The CPU runs it as a serial
                 // loop; the GPU runs its body on every thread, warp = threadIdx.x / 32,
                 // with a barrier after it when the kernel has shared buffers.
};

// A warp's threads: LaneReduce's team.
inline constexpr int64_t kWarpLanes = 32;
inline constexpr int64_t kMaxTeam = 1024;

// The machine a lowering shapes its loops for. Cpu: a parallel loop of a few large
// iterations, each a vectorisable row that stays in cache. Gpu: one parallel loop with an
// iteration per output element (a thread each, consecutive threads at consecutive
// addresses), its indices recovered by division (element-wise, reductions: one iteration
// per output, index-mapping). Lowerings without a Gpu shape (softmax) build the Cpu one
// for both; the GPU backend maps any top-level parallel loop onto its threads.
enum class LoopShape : uint8_t { Cpu, Gpu };

enum class StmtKind : uint8_t {
  For, Let, Store, Alloc, If,
  // LaneReduce: in a kernel whose team is a warp (kWarpLanes threads), combine the slots of
  // a thread-local float32/int32 buffer with `combine`, in the order of a warp's shuffle
  // tree: for s = 16, 8, 4, 2, 1 and every lane l < s, slot l = combine(slot l, slot l + s),
  // element by element. Afterwards slot 0 holds the result (on the GPU every lane's copy
  // does). It stands where a Threads loop may, outside any Threads loop.
  LaneReduce,
  // Mma: inside a Warps loop, the warp's 16 x 16 float32 accumulator tile (a fragment:
  // kFragment elements of each lane's slot of the thread-local float32 buffer `buffer`,
  // from the constant `index`, a multiple of kFragment) += A x B^T, with A[m][k] =
  // mma.a[mma.a_offset + m * mma.a_stride + k] and B[n][k] = mma.b[mma.b_offset +
  // n * mma.b_stride + k] (m, n, k < 16) from shared float16 or bfloat16 buffers (one
  // dtype), products and sums in float32 in an order the hardware chooses (tensor cores).
  // How a fragment's elements spread over the lanes is the target's: zeroing every slot,
  // Mma and FragmentStore are the only ways a kernel touches a fragment.
  Mma,
  // FragmentStore: inside a Warps loop, the fragment (buffer, index) to the shared float32
  // buffer mma.a, element (m, n) at mma.a_offset + m * mma.a_stride + n.
  FragmentStore,
};

// The elements of a 16 x 16 fragment a lane holds.
inline constexpr int64_t kFragment = 8;

// The matrix operands of Mma and FragmentStore (offsets in elements; strides multiples of
// 8 elements; offsets must keep each tile 32-byte aligned).
struct MmaOperands {
  int a = -1, b = -1;
  Expr a_offset, b_offset;
  int64_t a_stride = 0, b_stride = 0;
};

struct Stmt;
using Block = std::vector<Stmt>;

struct Stmt {
  StmtKind kind = StmtKind::Let;
  // For: var runs over [0, extent); Let: var = value (visible to the rest of the block)
  Var var;
  Expr extent;  // For (int64)
  LoopKind loop_kind = LoopKind::Serial;
  // Store: buffers[buffer][index] = value; Alloc: the local buffer's id; If: cond
  int buffer = -1;
  Expr index;
  Expr value;  // Let value, Store value, If condition
  Block body;  // For, If
  BinaryOp combine = BinaryOp::Add;  // LaneReduce: Add, Max or Min
  MmaOperands mma;                   // Mma, FragmentStore
};

// A kernel. The C ABI of a compiled kernel is
//   void kernel(const RelayTensorView* views, int64_t begin, int64_t end)
// with views[i] the tensor of params[i] (interpreter/runtime/tensor_view.h: the kernel reads
// its data pointer plus byte offset; the lowering fixed shape and strides); when the body's single top-level statement is a
// Parallel loop, only its iterations [begin, end) run (clamped to [0, extent)), so a thread
// pool splits the work; otherwise begin/end are ignored unless begin >= end.
struct Kernel {
  std::string name;
  std::vector<Buffer> buffers;  // params first (ids 0..n-1, in ABI order), then locals
  Block body;
  int next_var = 0;

  size_t num_params() const;
  const Buffer& buffer(int id) const { return buffers[static_cast<size_t>(id)]; }
  // The extent of the top-level Parallel loop when it is a constant, else 1.
  int64_t parallel_extent() const;
  // The threads of the team that runs an iteration of the parallel loop: the extent of
  // the kernel's Threads loops, 1 without any.
  int64_t team() const;
  bool has_shared_buffers() const;
  // Whether a team runs as a whole GPU block (larger than a warp, or sharing memory)
  // rather than as a warp packed with others into a block.
  bool team_is_block() const;
};

// What every lowering (element-wise, reduction, index-mapping, softmax) gives back: the
// kernel and which of its parameters are the output and the status flag, or why the
// program was not lowered.
struct LoweredKernel {
  Kernel kernel;
  int output_buffer = -1;
  int status_buffer = -1;  // -1: the kernel cannot fail
  std::string error;       // non-empty: not lowered (kernel is empty), and why
  // A product split along k (block_gemm.h, BlockGemm::splits): `kernel` writes partial sums
  // to its output_buffer instead of the output, and `finish` (buffers [partials, out],
  // output_buffer 1, no status) adds them into the output.
  std::optional<Kernel> finish;
  bool ok() const { return error.empty(); }
};

// ---- builders -------------------------------------------------------------------------

DataType i64();
DataType f32();
DataType boolean();
bool is_storage_only(DataType t);  // float16, bfloat16

Expr int_imm(int64_t v, DataType t = i64());
Expr float_imm(double v, DataType t = f32());
// A constant of dtype t equal to v (an integer for integer types, 0/1 for bool).
Expr const_of(double v, DataType t);
Expr var_ref(const Var& v);
Expr load(const Buffer& b, Expr index);
Expr unary(UnaryOp op, Expr a);
Expr binary(BinaryOp op, Expr a, Expr b);
Expr compare(CmpOp op, Expr a, Expr b);
Expr select(Expr cond, Expr a, Expr b);
Expr cast(DataType t, Expr a);  // identity when a already has type t
Expr call(MathFn fn, std::vector<Expr> args);

Var new_var(Kernel& k, std::string name, DataType t);
int add_param(Kernel& k, std::string name, DataType t, std::vector<int64_t> shape, std::vector<int64_t> strides);
int add_local(Kernel& k, std::string name, DataType t, int64_t size);
// A thread-local buffer: `team` slots of `slot` elements (Buffer::thread_slot).
int add_thread_local(Kernel& k, std::string name, DataType t, int64_t team, int64_t slot);
// A buffer of `size` elements shared by a team (Buffer::shared).
int add_shared(Kernel& k, std::string name, DataType t, int64_t size);

Stmt for_loop(Var v, Expr extent, LoopKind kind, Block body);
// `for v in [0, count) body(v)` over a fresh i64 variable `name`: how the GPU lowerings
// write their team loops (Threads, Warps), whose body needs the variable.
template <class Body>
Stmt counted_loop(Kernel& k, std::string name, int64_t count, LoopKind kind, Body body) {
  const Var v = new_var(k, std::move(name), i64());
  return for_loop(v, int_imm(count), kind, body(v));
}
Stmt let(Var v, Expr value);
Stmt store(const Buffer& b, Expr index, Expr value);
Stmt alloc(const Buffer& b);
Stmt if_then(Expr cond, Block body);
Stmt lane_reduce(const Buffer& b, BinaryOp combine);
// acc[fragment] += A x B^T (StmtKind::Mma) and acc[fragment] -> out (FragmentStore).
Stmt mma(const Buffer& acc, int64_t fragment_offset, const Buffer& a, Expr a_offset, int64_t a_stride, const Buffer& b,
         Expr b_offset, int64_t b_stride);
Stmt fragment_store(const Buffer& acc, int64_t fragment_offset, const Buffer& out, Expr out_offset, int64_t out_stride);
// Inside a Threads loop over `thread`: element j of the thread's own slot of `b`.
Expr thread_slot_index(const Var& thread, const Buffer& b, Expr j);

const char* name_of(UnaryOp op);
const char* name_of(BinaryOp op);
const char* name_of(CmpOp op);
const char* name_of(MathFn fn);
const char* name_of(LoopKind k);

}  // namespace relay::loops
