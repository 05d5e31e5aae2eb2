// The loop IR verifier (verify.h): one recursive walk with a scope of defined variables.
#include "compiler/loops/verify.h"

#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_set>

#include "compiler/loops/print.h"

namespace relay::loops {
namespace {

bool is_integer(DataType t) { return t.is_int() || t.is_uint(); }
bool is_arith_float(DataType t) { return t.code == DataType::Float && (t.bits == 32 || t.bits == 64); }

class Verifier {
 public:
  explicit Verifier(const Kernel& k) : k_(k) {}

  std::vector<std::string> run() {
    team_ = k_.team();
    if (team_ != 1 && (team_ < kWarpLanes || team_ > kMaxTeam || team_ % kWarpLanes != 0))
      fail("a team of " + std::to_string(team_) + " threads (a multiple of 32 up to 1024)");
    for (size_t i = 0; i < k_.buffers.size(); ++i) {
      const Buffer& b = k_.buffers[i];
      if (b.id != static_cast<int>(i)) fail("buffer " + b.name + " has id " + std::to_string(b.id));
      if (b.shape.size() != b.strides.size()) fail("buffer " + b.name + ": shape and strides differ in rank");
      if (b.dtype.lanes != 1) fail("buffer " + b.name + ": vector dtypes are not supported");
      if (b.is_param && i >= k_.num_params()) fail("parameter " + b.name + " follows a local buffer");
      if (b.thread_slot != 0 && (b.is_param || b.thread_slot < 0 || b.extent() != team_ * b.thread_slot))
        fail("thread-local buffer " + b.name + " is not a local of a slot for each of the team's threads");
      if (b.shared && (b.is_param || team_ == 1)) fail("shared buffer " + b.name + " without a team to share it");
    }
    int parallel = 0;
    count_parallel(k_.body, parallel);
    if (parallel > 1) fail("more than one parallel loop");
    if (parallel == 1 && !(k_.body.size() == 1 && k_.body[0].kind == StmtKind::For &&
                           k_.body[0].loop_kind == LoopKind::Parallel))
      fail("the parallel loop must be the kernel body's only top-level statement");
    block(k_.body);
    return std::move(errors_);
  }

 private:
  void fail(const std::string& m) { errors_.push_back(m); }

  void count_parallel(const Block& b, int& n) {
    for (const Stmt& s : b) {
      if (s.kind == StmtKind::For && s.loop_kind == LoopKind::Parallel) ++n;
      count_parallel(s.body, n);
    }
  }

  void define(const Var& v) {
    if (!defined_ever_.insert(v.id).second) fail("variable " + v.name + std::to_string(v.id) + " defined twice");
    scope_.push_back(v);
  }

  bool in_scope(int id) const {
    for (const Var& v : scope_)
      if (v.id == id) return true;
    return false;
  }

  void block(const Block& b) {
    const size_t mark = scope_.size();
    const std::set<int> allocated = allocated_;
    for (const Stmt& s : b) stmt(s);
    scope_.resize(mark);
    allocated_ = allocated;
  }

  // A thread-local buffer's index: inside a Threads loop `thread * slot + j` (the
  // thread's own slot), elsewhere j (thread 0's, only read); j is checked like any index,
  // within the slot.
  void thread_local_index(const Buffer& b, const Expr& e, const char* what) {
    Expr j = e;
    if (thread_.has_value()) {
      const bool shaped = e->kind == ExprKind::Binary && static_cast<BinaryOp>(e->op) == BinaryOp::Add &&
                          e->args[0]->kind == ExprKind::Binary &&
                          static_cast<BinaryOp>(e->args[0]->op) == BinaryOp::Mul &&
                          e->args[0]->args[0]->kind == ExprKind::Var && e->args[0]->args[0]->id == *thread_ &&
                          e->args[0]->args[1]->kind == ExprKind::IntImm &&
                          e->args[0]->args[1]->int_value == b.thread_slot;
      if (!shaped) {
        fail(std::string(what) + " of thread-local " + b.name + " inside a Threads loop is not thread * slot + j");
        return;
      }
      j = e->args[1];
    } else if (std::string_view(what) == "store") {
      fail("store to thread-local " + b.name + " outside a Threads loop");
    }
    if (j->kind == ExprKind::IntImm && (j->int_value < 0 || j->int_value >= b.thread_slot))
      fail(std::string(what) + " index " + std::to_string(j->int_value) + " is outside a slot of " + b.name);
  }

  void check_buffer(int id, const char* what) {
    if (id < 0 || static_cast<size_t>(id) >= k_.buffers.size()) {
      fail(std::string(what) + " of an unknown buffer " + std::to_string(id));
      return;
    }
    if (!k_.buffer(id).is_param && !allocated_.count(id))
      fail(std::string(what) + " of local buffer " + k_.buffer(id).name + " outside its allocation");
  }

  void index(int buffer, const Expr& e, const char* what) {
    expr(e);
    if (e->dtype != i64()) fail(std::string(what) + " index is not int64");
    if (!affine(e)) fail(std::string(what) + " index is not affine: " + print_expr(k_, e));
    if (buffer >= 0 && static_cast<size_t>(buffer) < k_.buffers.size() && k_.buffer(buffer).thread_slot != 0) {
      thread_local_index(k_.buffer(buffer), e, what);
      return;
    }
    if (e->kind == ExprKind::IntImm && buffer >= 0 && static_cast<size_t>(buffer) < k_.buffers.size()) {
      const int64_t n = k_.buffer(buffer).extent();
      if (e->int_value < 0 || e->int_value >= n)
        fail(std::string(what) + " index " + std::to_string(e->int_value) + " is outside buffer " +
             k_.buffer(buffer).name);
    }
  }

  // Affine in the variables: constants, variables (loop indices, or let-bound values such
  // as a gathered index), +, -, * where one side is a constant; and, for index-mapping
  // kernels (reshape's unravelled index, tile's modulo, a clamped take), / and % by a
  // positive constant and min/max of such expressions.
  bool affine(const Expr& e) const {
    switch (e->kind) {
      case ExprKind::IntImm:
      case ExprKind::Var: return true;
      case ExprKind::Binary: {
        const auto op = static_cast<BinaryOp>(e->op);
        if (op == BinaryOp::Add || op == BinaryOp::Sub) return affine(e->args[0]) && affine(e->args[1]);
        if ((op == BinaryOp::Div || op == BinaryOp::Rem) && e->args[1]->kind == ExprKind::IntImm)
          return e->args[1]->int_value > 0 && affine(e->args[0]);
        if (op == BinaryOp::Min || op == BinaryOp::Max) return affine(e->args[0]) && affine(e->args[1]);
        if (op == BinaryOp::Mul)
          return (e->args[0]->kind == ExprKind::IntImm && affine(e->args[1])) ||
                 (e->args[1]->kind == ExprKind::IntImm && affine(e->args[0]));
        return false;
      }
      default: return false;
    }
  }

  bool extent_ok(const Expr& e) const {
    if (e->kind == ExprKind::Binary && static_cast<BinaryOp>(e->op) == BinaryOp::Min)
      return affine(e->args[0]) && affine(e->args[1]);
    return affine(e);
  }

  void stmt(const Stmt& s) {
    switch (s.kind) {
      case StmtKind::For:
        expr(s.extent);
        if (s.extent->dtype != i64() || !extent_ok(s.extent)) fail("loop extent must be an affine int64 (or a min of two)");
        if (s.var.dtype != i64()) fail("loop variable " + s.var.name + " is not int64");
        if (s.loop_kind == LoopKind::Threads || s.loop_kind == LoopKind::Warps) {
          if (!team_level_)
            fail(std::string("a ") + name_of(s.loop_kind) +
                 " loop outside the parallel loop's body (or its loops), in an if, a Threads or a Warps loop");
          const int64_t want = s.loop_kind == LoopKind::Threads ? team_ : team_ / kWarpLanes;
          if (s.extent->kind != ExprKind::IntImm || s.extent->int_value != want || team_ == 1)
            fail(std::string("a ") + name_of(s.loop_kind) + " loop whose extent is not the team's");
        }
        {
          const size_t mark = scope_.size();
          define(s.var);
          const std::optional<int> thread = thread_;
          const bool team_level = team_level_, in_warps = in_warps_;
          if (s.loop_kind == LoopKind::Threads) thread_ = s.var.id;
          if (s.loop_kind == LoopKind::Warps) in_warps_ = true;
          // the team level: the parallel loop's body and the serial loops in it
          team_level_ = s.loop_kind == LoopKind::Parallel ||
                        (team_level_ && s.loop_kind != LoopKind::Threads && s.loop_kind != LoopKind::Warps);
          block(s.body);
          thread_ = thread;
          team_level_ = team_level;
          in_warps_ = in_warps;
          scope_.resize(mark);
        }
        break;
      case StmtKind::Let:
        expr(s.value);
        if (s.var.dtype != s.value->dtype) fail("let " + s.var.name + ": the value's dtype differs from the variable's");
        define(s.var);
        break;
      case StmtKind::Store:
        if (in_warps_) fail("a store inside a Warps loop (its statements are the warp's, not a lane's)");
        check_buffer(s.buffer, "store");
        index(s.buffer, s.index, "store");
        expr(s.value);
        if (s.buffer >= 0 && static_cast<size_t>(s.buffer) < k_.buffers.size() &&
            s.value->dtype != k_.buffer(s.buffer).dtype)
          fail("store to " + k_.buffer(s.buffer).name + ": value is " + dtype_name(s.value->dtype) + ", buffer is " +
               dtype_name(k_.buffer(s.buffer).dtype));
        break;
      case StmtKind::Alloc:
        if (s.buffer < 0 || static_cast<size_t>(s.buffer) >= k_.buffers.size() || k_.buffer(s.buffer).is_param)
          fail("alloc of a buffer that is not local");
        else
          allocated_.insert(s.buffer);
        break;
      case StmtKind::If: {
        expr(s.value);
        if (!s.value->dtype.is_bool()) fail("if condition is not bool");
        const bool team_level = team_level_;
        team_level_ = false;  // a team's threads must not part ways around a barrier
        block(s.body);
        team_level_ = team_level;
        break;
      }
      case StmtKind::Mma:
      case StmtKind::FragmentStore: matrix_statement(s); break;
      case StmtKind::LaneReduce:
        check_buffer(s.buffer, "lane_reduce");
        if (s.buffer >= 0 && static_cast<size_t>(s.buffer) < k_.buffers.size()) {
          const Buffer& b = k_.buffer(s.buffer);
          if (b.thread_slot == 0) fail("lane_reduce of " + b.name + ", which is not thread-local");
          if (b.dtype != f32() && b.dtype != DataType::int_(32))
            fail("lane_reduce of " + b.name + ", a " + dtype_name(b.dtype) + " buffer (float32 and int32 are shuffled)");
        }
        if (team_ != kWarpLanes) fail("a lane_reduce in a kernel whose team is not a warp");
        if (s.combine != BinaryOp::Add && s.combine != BinaryOp::Max && s.combine != BinaryOp::Min)
          fail(std::string("lane_reduce by ") + name_of(s.combine) + " (add, max and min are)");
        if (!team_level_) fail("a lane_reduce outside the parallel loop's body (or its loops), in an if or a Threads loop");
        break;
    }
  }

  // Mma and FragmentStore (ir.h): in a Warps loop, a fragment of a float32 thread-local
  // buffer, shared operands of the right dtypes, offsets in scope, strides the hardware
  // takes.
  void matrix_statement(const Stmt& s) {
    const bool is_mma = s.kind == StmtKind::Mma;
    const char* what = is_mma ? "mma" : "fragment_store";
    if (!in_warps_) fail(std::string(what) + " outside a Warps loop");
    check_buffer(s.buffer, what);
    auto known = [&](int id) { return id >= 0 && static_cast<size_t>(id) < k_.buffers.size(); };
    if (known(s.buffer)) {
      const Buffer& acc = k_.buffer(s.buffer);
      const int64_t at = s.index && s.index->kind == ExprKind::IntImm ? s.index->int_value : -1;
      if (acc.dtype != f32() || acc.thread_slot % kFragment != 0 || acc.thread_slot == 0 || at < 0 ||
          at % kFragment != 0 || at + kFragment > acc.thread_slot)
        fail(std::string(what) + ": the accumulator is not a fragment of a float32 thread-local buffer");
    }
    const MmaOperands& o = s.mma;
    std::vector<std::tuple<int, const Expr*, int64_t>> operands{{o.a, &o.a_offset, o.a_stride}};
    if (is_mma) operands.emplace_back(o.b, &o.b_offset, o.b_stride);
    for (auto [id, offset, stride] : operands) {
      check_buffer(id, what);
      if (!known(id)) continue;
      const Buffer& m = k_.buffer(id);
      const bool dtype_ok = is_mma ? (m.dtype == DataType::float_(16) || m.dtype.code == DataType::BFloat) &&
                                         m.dtype == k_.buffer(o.a).dtype
                                   : m.dtype == f32();
      if (!m.shared || !dtype_ok)
        fail(std::string(what) + ": " + m.name + " is not a shared " + (is_mma ? "float16/bfloat16" : "float32") +
             " buffer");
      if (stride <= 0 || stride % (is_mma ? 8 : 4) != 0) fail(std::string(what) + ": a stride the hardware does not take");
      if (!*offset) {
        fail(std::string(what) + ": no offset");
        continue;
      }
      expr(*offset);
      if ((*offset)->dtype != i64() || !affine(*offset)) fail(std::string(what) + ": an offset that is not affine int64");
    }
  }

  void same_operands(const Expr& e, const char* what) {
    for (const Expr& a : e->args)
      if (a->dtype != e->args[0]->dtype) fail(std::string(what) + ": operands have different dtypes");
    if (is_storage_only(e->args[0]->dtype))
      fail(std::string(what) + " on " + dtype_name(e->args[0]->dtype) + ": cast to float32 first");
  }

  void expr(const Expr& e) {
    if (!e) {
      fail("missing expression");
      return;
    }
    for (const Expr& a : e->args) expr(a);
    const DataType t = e->args.empty() ? e->dtype : e->args[0]->dtype;
    switch (e->kind) {
      case ExprKind::IntImm:
        if (!is_integer(e->dtype) && !e->dtype.is_bool()) fail("integer constant of dtype " + dtype_name(e->dtype));
        break;
      case ExprKind::FloatImm:
        if (!is_arith_float(e->dtype)) fail("float constant of dtype " + dtype_name(e->dtype));
        break;
      case ExprKind::Var:
        if (!in_scope(e->id)) fail("variable " + std::to_string(e->id) + " used outside its scope");
        break;
      case ExprKind::Load: check_buffer(e->id, "load"); index(e->id, e->args[0], "load"); break;
      case ExprKind::Unary:
        same_operands(e, name_of(static_cast<UnaryOp>(e->op)));
        if (static_cast<UnaryOp>(e->op) == UnaryOp::Not && t.is_float()) fail("not on a float");
        break;
      case ExprKind::Binary: {
        const auto op = static_cast<BinaryOp>(e->op);
        same_operands(e, name_of(op));
        const bool bitwise = op == BinaryOp::And || op == BinaryOp::Or || op == BinaryOp::Xor;
        if (bitwise && t.is_float()) fail(std::string(name_of(op)) + " on a float");
        if ((op == BinaryOp::Shl || op == BinaryOp::Shr || op == BinaryOp::Pow) && !is_integer(t))
          fail(std::string(name_of(op)) + " on " + dtype_name(t));
        if (t.is_bool() && !bitwise && op != BinaryOp::Min && op != BinaryOp::Max)
          fail(std::string(name_of(op)) + " on bool");
        break;
      }
      case ExprKind::Compare: same_operands(e, name_of(static_cast<CmpOp>(e->op))); break;
      case ExprKind::Select:
        if (!e->args[0]->dtype.is_bool()) fail("select condition is not bool");
        if (e->args[1]->dtype != e->args[2]->dtype) fail("select branches have different dtypes");
        break;
      case ExprKind::Cast: break;
      case ExprKind::Call: {
        const auto fn = static_cast<MathFn>(e->op);
        same_operands(e, name_of(fn));
        if (!is_arith_float(t)) fail(std::string(name_of(fn)) + " on " + dtype_name(t));
        const size_t arity = fn == MathFn::Fma ? 3 : fn == MathFn::Pow ? 2 : 1;
        if (e->args.size() != arity) fail(std::string(name_of(fn)) + ": wrong arity");
        break;
      }
    }
  }

  const Kernel& k_;
  std::vector<Var> scope_;
  std::unordered_set<int> defined_ever_;
  std::set<int> allocated_;
  int64_t team_ = 1;          // Kernel::team()
  bool team_level_ = false;   // where Threads loops and LaneReduce may stand
  std::optional<int> thread_;  // the enclosing Threads loop's variable
  bool in_warps_ = false;      // inside a Warps loop
  std::vector<std::string> errors_;
};

}  // namespace

std::vector<std::string> verify(const Kernel& k) { return Verifier(k).run(); }

}  // namespace relay::loops
