// Each lowered operator's scalar semantics, written to match the interpreter's reference
// kernels bit for bit (interpreter/kernels/elementwise*.cpp, nn_activation.cpp,
// transform.cpp): integer arithmetic wraps; float16/bfloat16 compute in float32 and round
// to storage after every operation the reference rounds after; maximum/minimum/relu/clip
// are selects (so NaN handling is the reference's); an integer division by zero is a
// failure condition (the reference throws).
#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "compiler/loops/elementwise_internal.h"
#include "interpreter/runtime/float16.h"

namespace relay::loops::ew {

Expr Emitter::bind(Expr e, const char* name) {
  if (e->kind == ExprKind::Var || e->kind == ExprKind::IntImm || e->kind == ExprKind::FloatImm) return e;
  Var v = new_var(kernel, name, e->dtype);
  block.push_back(let(v, std::move(e)));
  return var_ref(v);
}

namespace {

enum class Family : uint8_t {
  FloatMath,   // unary, float dtypes only
  Rounding,    // floor/ceil/round/trunc: identity on integers
  Numeric,     // unary, any dtype
  Predicate,   // unary, any dtype, bool result
  IntUnary,    // unary, integer and bool
  Arith,       // binary, any dtype
  Logical,     // binary, any dtype, result in the operands' dtype
  IntBinary,   // binary, integer and bool
  Compare,     // binary, any dtype, bool result
  Special,     // clip, relu, leaky_relu, cast, cast_like, where, *_like, fixed_point_multiply
};

struct OpDesc {
  Family family;
  int arity;
  MathFn fn = MathFn::Exp;  // FloatMath / Rounding
  std::vector<std::string_view> attrs{};  // the scalar attributes its expansion reads
};

const std::unordered_map<std::string_view, OpDesc>& op_table() {
  static const std::unordered_map<std::string_view, OpDesc> table = [] {
    std::unordered_map<std::string_view, OpDesc> t;
    auto math = [&](std::string_view n, MathFn f) { t[n] = {Family::FloatMath, 1, f}; };
    math("exp", MathFn::Exp); math("fast_exp", MathFn::Exp); math("log", MathFn::Log);
    math("log2", MathFn::Log2); math("log10", MathFn::Log10); math("sqrt", MathFn::Sqrt);
    math("rsqrt", MathFn::Rsqrt); math("sigmoid", MathFn::Sigmoid); math("tanh", MathFn::Tanh);
    math("fast_tanh", MathFn::Tanh); math("erf", MathFn::Erf); math("fast_erf", MathFn::Erf);
    math("sin", MathFn::Sin); math("cos", MathFn::Cos); math("tan", MathFn::Tan);
    math("asin", MathFn::Asin); math("acos", MathFn::Acos); math("atan", MathFn::Atan);
    math("sinh", MathFn::Sinh); math("cosh", MathFn::Cosh); math("asinh", MathFn::Asinh);
    math("acosh", MathFn::Acosh); math("atanh", MathFn::Atanh);
    t["floor"] = {Family::Rounding, 1, MathFn::Floor};
    t["ceil"] = {Family::Rounding, 1, MathFn::Ceil};
    t["round"] = {Family::Rounding, 1, MathFn::Round};
    t["trunc"] = {Family::Rounding, 1, MathFn::Trunc};
    for (std::string_view n : {"abs", "negative", "sign", "logical_not", "copy", "nn.relu"})
      t[n] = {Family::Numeric, 1};
    for (std::string_view n : {"isnan", "isinf", "isfinite"}) t[n] = {Family::Predicate, 1};
    t["bitwise_not"] = {Family::IntUnary, 1};
    for (std::string_view n : {"add", "subtract", "multiply", "divide", "floor_divide", "trunc_divide", "mod",
                               "floor_mod", "trunc_mod", "power", "maximum", "minimum"})
      t[n] = {Family::Arith, 2};
    for (std::string_view n : {"logical_and", "logical_or", "logical_xor"}) t[n] = {Family::Logical, 2};
    for (std::string_view n : {"bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"})
      t[n] = {Family::IntBinary, 2};
    for (std::string_view n : {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"})
      t[n] = {Family::Compare, 2};
    for (std::string_view n : {"clip", "nn.leaky_relu", "cast", "zeros_like", "ones_like", "fixed_point_multiply"})
      t[n] = {Family::Special, 1};
    t["cast_like"] = {Family::Special, 2};
    t["where"] = {Family::Special, 3};
    // The graph layer copies exactly these attributes into the step (EwStep::attrs).
    t["clip"].attrs = {"a_min", "a_max"};
    t["nn.leaky_relu"].attrs = {"alpha"};
    t["fixed_point_multiply"].attrs = {"multiplier", "shift"};
    return t;
  }();
  return table;
}

bool is_integer(DataType t) { return t.is_int() || t.is_uint(); }
bool storable(DataType t) {
  if (t.lanes != 1) return false;
  if (t.is_bool()) return true;
  if (t.is_int() || t.is_uint()) return t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64;
  if (t.code == DataType::Float) return t.bits == 16 || t.bits == 32 || t.bits == 64;
  return t.code == DataType::BFloat && t.bits == 16;
}
bool divides(std::string_view op) {
  return op == "divide" || op == "floor_divide" || op == "trunc_divide" || op == "mod" || op == "floor_mod" ||
         op == "trunc_mod";
}

// The type arithmetic on t happens in (float32 for the storage types).
DataType compute_of(DataType t) { return is_storage_only(t) ? f32() : t; }
Expr up(const Expr& x) { return cast(compute_of(x->dtype), x); }
Expr down(const Expr& x, DataType t) { return cast(t, x); }
// Rounds a compute value through storage type t (float16 arithmetic rounds per step).
Expr rnd(const Expr& x, DataType t) { return is_storage_only(t) ? cast(f32(), cast(t, x)) : x; }

// The interpreter's cast_to<T>(double) at lowering time, as a constant in t's compute
// type: integers truncate and saturate (NaN -> 0), float16/bfloat16 round to storage.
Expr constant(double v, DataType t) {
  if (t.is_bool()) return int_imm(v != 0, t);
  if (is_integer(t)) {
    if (std::isnan(v)) return int_imm(0, t);
    if (t.is_int()) {
      const double lo = -std::ldexp(1.0, t.bits - 1), hi = std::ldexp(1.0, t.bits - 1) - 1;
      const int64_t lo_i = integer_min(t), hi_i = integer_max(t);
      if (v <= lo) return int_imm(lo_i, t);
      if (v >= hi) return int_imm(hi_i, t);
      return int_imm(static_cast<int64_t>(v), t);
    }
    const double hi = std::ldexp(1.0, t.bits) - 1;
    if (v <= 0) return int_imm(0, t);
    if (v >= hi) return int_imm(t.bits == 64 ? -1 : static_cast<int64_t>((uint64_t{1} << t.bits) - 1), t);
    return int_imm(static_cast<int64_t>(static_cast<uint64_t>(v)), t);
  }
  if (t.code == DataType::Float && t.bits == 16) return float_imm(float(rt::float16(static_cast<float>(v))), f32());
  if (t.code == DataType::BFloat) return float_imm(float(rt::bfloat16(static_cast<float>(v))), f32());
  if (t.bits == 32) return float_imm(static_cast<float>(v), f32());
  return float_imm(v, t);
}

Expr truthy(const Expr& x) {
  const DataType t = x->dtype;
  if (t.is_bool()) return x;
  if (t.is_float()) return unary(UnaryOp::Not, compare(CmpOp::Eq, up(x), constant(0, t)));  // NaN is true
  return compare(CmpOp::Ne, x, int_imm(0, t));
}

// Wrapping multiply in t (float: one rounded product; bool: and).
Expr mul(const Expr& a, const Expr& b, DataType t) {
  if (t.is_bool()) return binary(BinaryOp::And, a, b);
  if (t.is_float()) return down(binary(BinaryOp::Mul, up(a), up(b)), t);
  return binary(BinaryOp::Mul, a, b);
}

Expr emit_float_math(MathFn fn, const Expr& x, DataType t) { return down(call(fn, {up(x)}), t); }

Expr emit_numeric(std::string_view op, const Expr& x, DataType t) {
  const DataType c = compute_of(t);
  if (op == "copy") return x;
  if (op == "logical_not") return cast(t, unary(UnaryOp::Not, truthy(x)));
  if (op == "nn.relu") return select(compare(CmpOp::Gt, up(x), constant(0, t)), x, down(constant(0, t), t));
  if (op == "negative") {
    if (t.is_bool()) return x;
    return down(unary(UnaryOp::Neg, up(x)), t);
  }
  if (op == "abs") {
    if (t.is_float()) return down(call(MathFn::Fabs, {up(x)}), t);
    if (t.is_int()) return select(compare(CmpOp::Lt, x, int_imm(0, t)), unary(UnaryOp::Neg, x), x);
    return x;
  }
  // sign: unsigned and bool give x != 0; others nested selects (sign(NaN) = 0)
  if (t.is_bool() || t.is_uint()) return cast(t, compare(CmpOp::Ne, x, int_imm(0, t)));
  const Expr v = up(x);
  return down(select(compare(CmpOp::Gt, v, constant(0, c)), constant(1, c),
                     select(compare(CmpOp::Lt, v, constant(0, c)), constant(-1, c), constant(0, c))),
              t);
}

Expr emit_predicate(std::string_view op, const Expr& x, DataType t) {
  if (!t.is_float()) return int_imm(op == "isfinite", boolean());
  const MathFn fn = op == "isnan" ? MathFn::IsNan : op == "isinf" ? MathFn::IsInf : MathFn::IsFinite;
  return call(fn, {up(x)});
}

// Truncated integer quotient/remainder adjusted toward -inf when the signs differ.
Expr floor_div_int(Emitter& em, const Expr& a, const Expr& b, DataType t) {
  const Expr q = em.bind(binary(BinaryOp::Div, a, b), "q");
  if (t.is_uint() || t.is_bool()) return q;
  const Expr r = em.bind(binary(BinaryOp::Rem, a, b), "r");
  const Expr zero = int_imm(0, t);
  const Expr adjust = binary(BinaryOp::And, compare(CmpOp::Ne, r, zero),
                             binary(BinaryOp::Xor, compare(CmpOp::Lt, a, zero), compare(CmpOp::Lt, b, zero)));
  return select(adjust, binary(BinaryOp::Sub, q, int_imm(1, t)), q);
}
Expr floor_mod_int(Emitter& em, const Expr& a, const Expr& b, DataType t) {
  const Expr r = em.bind(binary(BinaryOp::Rem, a, b), "r");
  if (t.is_uint()) return r;
  const Expr zero = int_imm(0, t);
  const Expr adjust = binary(BinaryOp::And, compare(CmpOp::Ne, r, zero),
                             binary(BinaryOp::Xor, compare(CmpOp::Lt, r, zero), compare(CmpOp::Lt, b, zero)));
  return select(adjust, binary(BinaryOp::Add, r, b), r);
}

// Integer power (BinaryOp::Pow: wrapping, the reference's answers for a negative
// exponent); 0 raised to a negative power is the reference's division by zero.
Expr int_power(Emitter& em, const Expr& a, const Expr& b, DataType t) {
  if (t.is_int()) {
    const Expr zero = int_imm(0, t);
    em.failures.push_back(binary(BinaryOp::And, compare(CmpOp::Lt, b, zero), compare(CmpOp::Eq, a, zero)));
  }
  return binary(BinaryOp::Pow, a, b);
}

Expr emit_arith(Emitter& em, std::string_view op, const Expr& a, const Expr& b, DataType t) {
  const DataType c = compute_of(t);
  if (divides(op) && !t.is_float()) em.failures.push_back(compare(CmpOp::Eq, b, constant(0, t)));
  if (op == "maximum") return select(compare(CmpOp::Gt, up(a), up(b)), a, b);
  if (op == "minimum") return select(compare(CmpOp::Lt, up(a), up(b)), a, b);
  if (t.is_bool()) {
    if (op == "add") return binary(BinaryOp::Or, a, b);
    if (op == "subtract") return binary(BinaryOp::Xor, a, b);
    if (op == "multiply") return binary(BinaryOp::And, a, b);
    if (op == "power") return binary(BinaryOp::Or, a, unary(UnaryOp::Not, b));
    if (op == "divide" || op == "floor_divide" || op == "trunc_divide") return a;
    return int_imm(0, t);  // the three modulos
  }
  if (t.is_float()) {
    const Expr x = up(a), y = up(b);
    if (op == "add") return down(binary(BinaryOp::Add, x, y), t);
    if (op == "subtract") return down(binary(BinaryOp::Sub, x, y), t);
    if (op == "multiply") return down(binary(BinaryOp::Mul, x, y), t);
    if (op == "divide") return down(binary(BinaryOp::Div, x, y), t);
    if (op == "mod") return down(binary(BinaryOp::Rem, x, y), t);
    if (op == "power") return down(call(MathFn::Pow, {x, y}), t);
    const MathFn round_fn = op == "floor_divide" || op == "floor_mod" ? MathFn::Floor : MathFn::Trunc;
    const Expr q = em.bind(call(round_fn, {rnd(binary(BinaryOp::Div, x, y), t)}), "q");
    if (op == "floor_divide" || op == "trunc_divide") return down(q, t);
    // a - q * b, each step rounded to the dtype
    return down(binary(BinaryOp::Sub, x, rnd(binary(BinaryOp::Mul, rnd(q, t), y), t)), t);
  }
  (void)c;
  if (op == "add") return binary(BinaryOp::Add, a, b);
  if (op == "subtract") return binary(BinaryOp::Sub, a, b);
  if (op == "multiply") return binary(BinaryOp::Mul, a, b);
  if (op == "divide" || op == "trunc_divide") return binary(BinaryOp::Div, a, b);
  if (op == "mod" || op == "trunc_mod") return binary(BinaryOp::Rem, a, b);
  if (op == "floor_divide") return floor_div_int(em, a, b, t);
  if (op == "floor_mod") return floor_mod_int(em, a, b, t);
  return int_power(em, a, b, t);  // power
}

Expr emit_int_binary(std::string_view op, const Expr& a, const Expr& b, DataType t) {
  if (op == "bitwise_and") return binary(BinaryOp::And, a, b);
  if (op == "bitwise_or") return binary(BinaryOp::Or, a, b);
  if (op == "bitwise_xor") return binary(BinaryOp::Xor, a, b);
  if (t.is_bool()) return binary(BinaryOp::And, a, unary(UnaryOp::Not, b));  // both shifts
  return binary(op == "left_shift" ? BinaryOp::Shl : BinaryOp::Shr, a, b);
}

Expr emit_compare(std::string_view op, const Expr& a, const Expr& b) {
  static const std::unordered_map<std::string_view, CmpOp> ops = {
      {"equal", CmpOp::Eq}, {"not_equal", CmpOp::Ne}, {"less", CmpOp::Lt},
      {"less_equal", CmpOp::Le}, {"greater", CmpOp::Gt}, {"greater_equal", CmpOp::Ge}};
  return compare(ops.at(op), up(a), up(b));
}

double attr(const EwStep& s, const char* name, double fallback) {
  auto it = s.attrs.find(name);
  return it == s.attrs.end() ? fallback : it->second;
}

// fixed_point_multiply's shift amounts (see the reference kernel); false when the
// reference rejects them.
bool fpm_shifts(const EwStep& s, int64_t& left, int64_t& right) {
  const auto shift = static_cast<int64_t>(attr(s, "shift", 0));
  left = shift > 0 ? shift : 0;
  right = (shift > 0 ? 0 : -shift) + 31;
  return left <= 62 && right <= 62;
}

Expr emit_special(Emitter& em, const EwStep& step, const std::vector<Expr>& args, DataType t) {
  const std::string_view op = step.op;
  const Expr& x = args[0];
  if (op == "cast" || op == "cast_like") return cast(step.dtype, x);
  if (op == "zeros_like") return down(constant(0, t), t);
  if (op == "ones_like") return down(constant(1, t), t);
  if (op == "where") return select(truthy(x), args[1], args[2]);
  if (op == "clip") {
    const Expr lo = constant(attr(step, "a_min", 0), t), hi = constant(attr(step, "a_max", 0), t);
    const Expr v = up(x);
    const Expr below = em.bind(select(compare(CmpOp::Lt, v, hi), v, hi), "clip");
    return down(select(compare(CmpOp::Gt, below, lo), below, lo), t);
  }
  if (op == "nn.leaky_relu") {
    const Expr alpha = down(constant(attr(step, "alpha", 0.25), t), t);
    return select(compare(CmpOp::Gt, up(x), constant(0, t)), x, mul(x, alpha, t));
  }
  // fixed_point_multiply in 64 bits: (x << left) * m + 2^(right-1), arithmetic >> right
  int64_t left = 0, right = 0;
  fpm_shifts(step, left, right);
  const auto m = static_cast<int64_t>(attr(step, "multiplier", 0));
  Expr v = binary(BinaryOp::Shl, cast(i64(), x), int_imm(left));
  v = binary(BinaryOp::Add, binary(BinaryOp::Mul, v, int_imm(m)), int_imm(int64_t{1} << (right - 1)));
  return cast(t, binary(BinaryOp::Shr, v, int_imm(right)));
}

}  // namespace

Typing type_step(const EwStep& step, const std::vector<DataType>& types) {
  auto it = op_table().find(step.op);
  if (it == op_table().end()) return {{}, "operator `" + step.op + "` has no element-wise lowering"};
  const OpDesc& d = it->second;
  if (static_cast<int>(types.size()) != d.arity)
    return {{}, "`" + step.op + "` takes " + std::to_string(d.arity) + " operands, got " + std::to_string(types.size())};
  for (DataType t : types)
    if (!storable(t)) return {{}, "`" + step.op + "`: dtype " + dtype_name(t) + " is not supported"};
  const DataType t = types[0];
  const bool binary_same = d.family == Family::Arith || d.family == Family::Logical ||
                           d.family == Family::IntBinary || d.family == Family::Compare;
  if (binary_same && types[1] != t)
    return {{}, "`" + step.op + "`: operands have different dtypes, " + dtype_name(t) + " and " + dtype_name(types[1])};
  if (!elementwise_supports(step.op, t)) return {{}, "`" + step.op + "` is not defined for " + dtype_name(t)};
  DataType result = t;
  if (d.family == Family::Compare || d.family == Family::Predicate) result = boolean();
  if (step.op == "cast") result = step.dtype;
  if (step.op == "cast_like") result = types[1];
  if (step.op == "where") {
    if (types[1] != types[2]) return {{}, "`where`: x and y have different dtypes"};
    result = types[1];
  }
  if (step.op == "fixed_point_multiply") {
    int64_t l = 0, r = 0;
    if (!fpm_shifts(step, l, r)) return {{}, "`fixed_point_multiply`: shift out of range"};
  }
  if (!storable(result)) return {{}, "`" + step.op + "`: result dtype " + dtype_name(result) + " is not supported"};
  if (result != step.dtype)
    return {{}, "`" + step.op + "` gives " + dtype_name(result) + ", the step says " + dtype_name(step.dtype)};
  return {result, ""};
}

Expr emit_step(Emitter& em, const EwStep& step, const std::vector<Expr>& args) {
  const OpDesc& d = op_table().at(step.op);
  const DataType t = args[0]->dtype;
  switch (d.family) {
    case Family::FloatMath: return emit_float_math(d.fn, args[0], t);
    case Family::Rounding: return t.is_float() ? emit_float_math(d.fn, args[0], t) : args[0];
    case Family::Numeric: return emit_numeric(step.op, args[0], t);
    case Family::Predicate: return emit_predicate(step.op, args[0], t);
    case Family::IntUnary: return unary(UnaryOp::Not, args[0]);
    case Family::Arith: return emit_arith(em, step.op, args[0], args[1], t);
    case Family::Logical: {
      const Expr a = truthy(args[0]), b = truthy(args[1]);
      const BinaryOp op = step.op == "logical_and" ? BinaryOp::And : step.op == "logical_or" ? BinaryOp::Or : BinaryOp::Xor;
      return cast(t, binary(op, a, b));
    }
    case Family::IntBinary: return emit_int_binary(step.op, args[0], args[1], t);
    case Family::Compare: return emit_compare(step.op, args[0], args[1]);
    case Family::Special: return emit_special(em, step, args, t);
  }
  return args[0];
}

bool step_can_fail(const EwStep& step, DataType t) {
  if (divides(step.op)) return !t.is_float();
  return step.op == "power" && t.is_int();
}

}  // namespace relay::loops::ew

namespace relay::loops {

const std::vector<std::string_view>& elementwise_attrs(std::string_view op) {
  static const std::vector<std::string_view> none;
  auto it = ew::op_table().find(op);
  return it == ew::op_table().end() ? none : it->second.attrs;
}

bool elementwise_supports(std::string_view op, DataType t) {
  auto it = ew::op_table().find(op);
  if (it == ew::op_table().end() || !ew::storable(t)) return false;
  switch (it->second.family) {
    case ew::Family::FloatMath: return t.is_float();
    case ew::Family::IntUnary:
    case ew::Family::IntBinary: return !t.is_float();
    default: break;
  }
  if (op == "fixed_point_multiply") return ew::is_integer(t);
  return true;
}

const std::vector<std::string_view>& lowered_elementwise_ops() {
  static const std::vector<std::string_view> ops = [] {
    std::vector<std::string_view> v;
    for (const auto& [name, desc] : ew::op_table()) v.push_back(name);
    std::sort(v.begin(), v.end());
    return v;
  }();
  return ops;
}

const std::vector<NotLowered>& not_lowered_elementwise_ops() {
  static const std::vector<NotLowered> ops = {
      {"shape_of", "reads the shape, not the data: the graph layer folds it to a constant"},
      {"ndarray_size", "reads the shape, not the data: the graph layer folds it to a constant"},
      {"invert_permutation", "a scatter (out[x[i]] = i) with a validity check, not element-wise"},
      {"reinterpret", "a bit cast between dtypes of equal width: a buffer alias in the memory plan"},
      {"full_like", "takes its fill value as a tensor argument; not yet in the step contract"},
  };
  return ops;
}

std::string status_message(const ElementwiseProgram& p) {
  for (const EwStep& s : p.steps) {
    if (s.op == "power") return "integer division by zero in `power`: 0 raised to a negative power";
    if (ew::divides(s.op)) return "integer division by zero in `" + s.op + "`";
  }
  return "run-time failure in a compiled element-wise kernel";
}

}  // namespace relay::loops
