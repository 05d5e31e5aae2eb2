// Builders and names for the loop IR (ir.h). Builders compute each node's dtype; they do
// not check operand types (verify.h does, once, over the whole kernel).
#include "compiler/loops/ir.h"

#include <cmath>

namespace relay::loops {

int64_t Buffer::extent() const {
  int64_t e = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 0) return 0;
    e += (shape[d] - 1) * strides[d];
  }
  return e;
}

size_t Kernel::num_params() const {
  size_t n = 0;
  while (n < buffers.size() && buffers[n].is_param) ++n;
  return n;
}

int64_t Kernel::parallel_extent() const {
  if (body.size() == 1 && body[0].kind == StmtKind::For && body[0].loop_kind == LoopKind::Parallel &&
      body[0].extent->kind == ExprKind::IntImm)
    return body[0].extent->int_value;
  return 1;
}

namespace {
// The extent of the first Threads loop in `b` (verify.h checks that they agree), or 1.
int64_t team_of(const Block& b) {
  for (const Stmt& s : b) {
    if (s.kind == StmtKind::For && s.loop_kind == LoopKind::Threads)
      return s.extent->kind == ExprKind::IntImm ? s.extent->int_value : 1;
    if (const int64_t t = team_of(s.body); t > 1) return t;
  }
  return 1;
}
}  // namespace

int64_t Kernel::team() const { return team_of(body); }

bool Kernel::team_is_block() const {
  const int64_t t = team();
  return t > 1 && (t != kWarpLanes || has_shared_buffers());
}

bool Kernel::has_shared_buffers() const {
  for (const Buffer& b : buffers)
    if (b.shared) return true;
  return false;
}

DataType i64() { return DataType::int_(64); }
DataType f32() { return DataType::float_(32); }
DataType boolean() { return DataType::bool_(); }
bool is_storage_only(DataType t) { return (t.code == DataType::Float && t.bits == 16) || t.code == DataType::BFloat; }

namespace {
std::shared_ptr<ExprNode> node(ExprKind k, DataType t) {
  auto n = std::make_shared<ExprNode>();
  n->kind = k;
  n->dtype = t;
  return n;
}
}  // namespace

Expr int_imm(int64_t v, DataType t) {
  auto n = node(ExprKind::IntImm, t);
  n->int_value = v;
  return n;
}

Expr float_imm(double v, DataType t) {
  auto n = node(ExprKind::FloatImm, t);
  n->float_value = v;
  return n;
}

Expr const_of(double v, DataType t) {
  if (t.is_float()) return float_imm(v, t);
  if (t.is_bool()) return int_imm(v != 0 ? 1 : 0, t);
  return int_imm(static_cast<int64_t>(v), t);
}

Expr var_ref(const Var& v) {
  auto n = node(ExprKind::Var, v.dtype);
  n->id = v.id;
  return n;
}

Expr load(const Buffer& b, Expr index) {
  auto n = node(ExprKind::Load, b.dtype);
  n->id = b.id;
  n->args = {std::move(index)};
  return n;
}

Expr unary(UnaryOp op, Expr a) {
  auto n = node(ExprKind::Unary, a->dtype);
  n->op = static_cast<uint8_t>(op);
  n->args = {std::move(a)};
  return n;
}

Expr binary(BinaryOp op, Expr a, Expr b) {
  auto n = node(ExprKind::Binary, a->dtype);
  n->op = static_cast<uint8_t>(op);
  n->args = {std::move(a), std::move(b)};
  return n;
}

Expr compare(CmpOp op, Expr a, Expr b) {
  auto n = node(ExprKind::Compare, boolean());
  n->op = static_cast<uint8_t>(op);
  n->args = {std::move(a), std::move(b)};
  return n;
}

Expr select(Expr cond, Expr a, Expr b) {
  auto n = node(ExprKind::Select, a->dtype);
  n->args = {std::move(cond), std::move(a), std::move(b)};
  return n;
}

Expr cast(DataType t, Expr a) {
  if (a->dtype == t) return a;
  auto n = node(ExprKind::Cast, t);
  n->args = {std::move(a)};
  return n;
}

Expr call(MathFn fn, std::vector<Expr> args) {
  const bool predicate = fn == MathFn::IsNan || fn == MathFn::IsInf || fn == MathFn::IsFinite;
  auto n = node(ExprKind::Call, predicate ? boolean() : args.at(0)->dtype);
  n->op = static_cast<uint8_t>(fn);
  n->args = std::move(args);
  return n;
}

Var new_var(Kernel& k, std::string name, DataType t) { return Var{k.next_var++, std::move(name), t}; }

int add_param(Kernel& k, std::string name, DataType t, std::vector<int64_t> shape, std::vector<int64_t> strides) {
  const int id = static_cast<int>(k.buffers.size());
  k.buffers.push_back(Buffer{id, std::move(name), t, std::move(shape), std::move(strides), true});
  return id;
}

int add_local(Kernel& k, std::string name, DataType t, int64_t size) {
  const int id = static_cast<int>(k.buffers.size());
  k.buffers.push_back(Buffer{id, std::move(name), t, {size}, {1}, false});
  return id;
}

int add_thread_local(Kernel& k, std::string name, DataType t, int64_t team, int64_t slot) {
  const int id = add_local(k, std::move(name), t, team * slot);
  k.buffers.back().thread_slot = slot;
  return id;
}

int add_shared(Kernel& k, std::string name, DataType t, int64_t size) {
  const int id = add_local(k, std::move(name), t, size);
  k.buffers.back().shared = true;
  return id;
}

Stmt for_loop(Var v, Expr extent, LoopKind kind, Block body) {
  Stmt s;
  s.kind = StmtKind::For;
  s.var = std::move(v);
  s.extent = std::move(extent);
  s.loop_kind = kind;
  s.body = std::move(body);
  return s;
}

Stmt let(Var v, Expr value) {
  Stmt s;
  s.kind = StmtKind::Let;
  s.var = std::move(v);
  s.value = std::move(value);
  return s;
}

Stmt store(const Buffer& b, Expr index, Expr value) {
  Stmt s;
  s.kind = StmtKind::Store;
  s.buffer = b.id;
  s.index = std::move(index);
  s.value = std::move(value);
  return s;
}

Stmt alloc(const Buffer& b) {
  Stmt s;
  s.kind = StmtKind::Alloc;
  s.buffer = b.id;
  return s;
}

Stmt lane_reduce(const Buffer& b, BinaryOp combine) {
  Stmt s;
  s.kind = StmtKind::LaneReduce;
  s.buffer = b.id;
  s.combine = combine;
  return s;
}

Expr thread_slot_index(const Var& thread, const Buffer& b, Expr j) {
  return binary(BinaryOp::Add, binary(BinaryOp::Mul, var_ref(thread), int_imm(b.thread_slot)), std::move(j));
}

Stmt mma(const Buffer& acc, int64_t fragment_offset, const Buffer& a, Expr a_offset, int64_t a_stride, const Buffer& b,
         Expr b_offset, int64_t b_stride) {
  Stmt s;
  s.kind = StmtKind::Mma;
  s.buffer = acc.id;
  s.index = int_imm(fragment_offset);
  s.mma = MmaOperands{a.id, b.id, std::move(a_offset), std::move(b_offset), a_stride, b_stride};
  return s;
}

Stmt fragment_store(const Buffer& acc, int64_t fragment_offset, const Buffer& out, Expr out_offset, int64_t out_stride) {
  Stmt s;
  s.kind = StmtKind::FragmentStore;
  s.buffer = acc.id;
  s.index = int_imm(fragment_offset);
  s.mma = MmaOperands{out.id, -1, std::move(out_offset), nullptr, out_stride, 0};
  return s;
}

Stmt if_then(Expr cond, Block body) {
  Stmt s;
  s.kind = StmtKind::If;
  s.value = std::move(cond);
  s.body = std::move(body);
  return s;
}

const char* name_of(UnaryOp op) { return op == UnaryOp::Neg ? "neg" : "not"; }

const char* name_of(BinaryOp op) {
  static const char* const names[] = {"add", "sub", "mul", "div", "rem", "min", "max",
                                      "and", "or", "xor", "shl", "shr", "pow"};
  return names[static_cast<int>(op)];
}

const char* name_of(CmpOp op) {
  static const char* const names[] = {"==", "!=", "<", "<=", ">", ">="};
  return names[static_cast<int>(op)];
}

const char* name_of(MathFn fn) {
  static const char* const names[] = {
      "exp", "log", "log2", "log10", "sqrt", "rsqrt", "sin", "cos", "tan", "asin",
      "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "sigmoid",
      "floor", "ceil", "round", "trunc", "fabs", "pow", "isnan", "isinf", "isfinite", "fma"};
  return names[static_cast<int>(fn)];
}

const char* name_of(LoopKind k) {
  static const char* const names[] = {"serial", "parallel", "vectorizable", "reduction", "threads", "warps"};
  return names[static_cast<int>(k)];
}

}  // namespace relay::loops
