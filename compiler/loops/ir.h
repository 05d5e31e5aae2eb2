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
#include <string>
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

// Math intrinsics on float32/float64 (Pow takes two arguments). IsNan/IsInf/IsFinite
// give bool. Round rounds halves away from zero. Results are those of the C library's
// function of the same name (expf, tanhf, ...), so the interpreter's answers match.
enum class MathFn : uint8_t {
  Exp, Log, Log2, Log10, Sqrt, Rsqrt, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh,
  Asinh, Acosh, Atanh, Erf, Sigmoid, Floor, Ceil, Round, Trunc, Fabs, Pow, IsNan, IsInf,
  IsFinite,
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
  // A lane-local buffer (add_lane_local): kWarpLanes slots of `slot` elements each,
  // element j of lane l at l * slot + j. Inside a Lanes loop an index addresses the
  // lane's own slot (lane * slot + j); elsewhere the slot of lane 0 (j), which holds the
  // combined values after a LaneReduce. On the GPU each thread keeps only its own slot.
  int64_t lane_slot = 0;  // 0: an ordinary buffer
  int64_t extent() const;  // elements addressed: 1 + sum((shape[d] - 1) * strides[d])
};

enum class LoopKind : uint8_t {
  Serial,
  Parallel,      // iterations are independent; the kernel's outermost loop may be split
  Vectorizable,  // independent iterations, contiguous accesses: the backend vectorises
  Reduction,     // carries a dependence through memory or a local: keep the order
  Lanes,         // `for lane in [0, kWarpLanes)`, directly inside the top-level parallel
                 // loop's body: the lanes of one GPU warp that share an iteration of the
                 // parallel loop, each folding its share of a long reduction into its
                 // slot of a lane-local buffer (see LaneReduce). The CPU runs it as a
                 // serial loop; the GPU runs the body once on each of the warp's threads.
};

// The lanes of a warp: a Lanes loop's extent, the slots of a lane-local buffer.
inline constexpr int64_t kWarpLanes = 32;

// The machine a lowering shapes its loops for. Cpu: a parallel loop of a few large
// iterations, each a vectorisable row that stays in cache. Gpu: one parallel loop with an
// iteration per output element (a thread each, consecutive threads at consecutive
// addresses), its indices recovered by division (element-wise, reductions: one iteration
// per output, index-mapping). Lowerings without a Gpu shape (softmax) build the Cpu one
// for both; the GPU backend maps any top-level parallel loop onto its threads.
enum class LoopShape : uint8_t { Cpu, Gpu };

enum class StmtKind : uint8_t {
  For, Let, Store, Alloc, If,
  // LaneReduce: combine the kWarpLanes slots of a lane-local buffer with `combine`, in
  // the order of a warp's shuffle tree: for s = 16, 8, 4, 2, 1 and every lane l < s,
  // slot l = combine(slot l, slot l + s), element by element. Afterwards slot 0 holds
  // the result (on the GPU every lane's copy does). It stands directly in the top-level
  // parallel loop's body, outside any Lanes loop and any If, where the warp's lanes are
  // together.
  LaneReduce,
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
  // Whether an iteration of the parallel loop runs on a warp (it has a Lanes loop).
  bool uses_lanes() const;
};

// What every lowering (element-wise, reduction, index-mapping, softmax) gives back: the
// kernel and which of its parameters are the output and the status flag, or why the
// program was not lowered.
struct LoweredKernel {
  Kernel kernel;
  int output_buffer = -1;
  int status_buffer = -1;  // -1: the kernel cannot fail
  std::string error;       // non-empty: not lowered (kernel is empty), and why
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
// A lane-local buffer of kWarpLanes slots of `slot` elements (Buffer::lane_slot).
int add_lane_local(Kernel& k, std::string name, DataType t, int64_t slot);

Stmt for_loop(Var v, Expr extent, LoopKind kind, Block body);
Stmt let(Var v, Expr value);
Stmt store(const Buffer& b, Expr index, Expr value);
Stmt alloc(const Buffer& b);
Stmt if_then(Expr cond, Block body);
Stmt lane_reduce(const Buffer& b, BinaryOp combine);
// Inside a Lanes loop over `lane`: element j of the lane's own slot of lane-local `b`.
Expr lane_slot_index(const Var& lane, const Buffer& b, Expr j);

const char* name_of(UnaryOp op);
const char* name_of(BinaryOp op);
const char* name_of(CmpOp op);
const char* name_of(MathFn fn);
const char* name_of(LoopKind k);

}  // namespace relay::loops
