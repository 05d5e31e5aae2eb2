// Helpers of the compiled-kernel tests (support.h).
#include "tests/compiler_jit/support.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

#include "compiler/runtime/thread_pool.h"
#include "interpreter/kernels/kernel.h"
#include "interpreter/runtime/dispatch.h"
#include "lang/ops/op_schema.h"

namespace relay::test {

using rt::NDArray;

std::vector<DataType> all_dtypes() {
  return {DataType::bool_(),   DataType::int_(8),   DataType::int_(16),   DataType::int_(32),
          DataType::int_(64),  DataType::uint_(8),  DataType::uint_(16),  DataType::uint_(32),
          DataType::uint_(64), DataType::float_(16), DataType{DataType::BFloat, 16, 1},
          DataType::float_(32), DataType::float_(64)};
}

NDArray random_tensor(DataType dtype, const rt::Shape& shape, std::mt19937_64& rng, bool small) {
  NDArray t = NDArray::empty(shape, dtype);
  std::uniform_int_distribution<int> pick(0, 15);
  rt::dispatch_dtype(dtype, [&]<class T>(rt::TypeTag<T>) {
    T* p = t.data<T>();
    for (int64_t i = 0; i < t.size(); ++i) {
      const int k = pick(rng);
      if constexpr (std::is_same_v<T, bool>) {
        p[i] = (rng() & 1) != 0;
      } else if constexpr (rt::is_floating_v<T>) {
        using C = rt::Compute<T>;
        static const double edges[] = {std::nan(""), INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 0.5, -2.5,
                                       1e-40, 65504.0, -3.0e38};
        if (k < 4 && !small) p[i] = T(C(edges[rng() % (sizeof edges / sizeof edges[0])]));
        else p[i] = T(C(std::uniform_real_distribution<double>(small ? -4 : -10, small ? 4 : 10)(rng)));
      } else {
        using L = std::numeric_limits<T>;
        const T edges[] = {L::min(), L::max(), T(0), T(1), static_cast<T>(-1), static_cast<T>(L::max() / 2)};
        if (small) p[i] = static_cast<T>(static_cast<int64_t>(rng() % 17) - 8);
        else if (k < 4) p[i] = edges[rng() % 6];
        else if (k < 10) p[i] = static_cast<T>(static_cast<int64_t>(rng() % 41) - 20);
        else p[i] = static_cast<T>(rng());
      }
    }
  });
  return t;
}

namespace {

CallAttrs attrs_for(const OpInfo& op, const loops::EwStep& s) {
  std::vector<std::pair<std::string, AttrVal>> values;
  if (s.op == "cast") {
    AttrVal v;
    v.kind = AttrVal::Kind::String;
    v.text = dtype_name(s.dtype);
    values.emplace_back("dtype", v);
  }
  for (const auto& [name, value] : s.attrs) {
    AttrVal v;
    if (s.op == "fixed_point_multiply") {
      v.kind = AttrVal::Kind::Int;
      v.int_value = static_cast<int64_t>(value);
    } else {
      v.kind = AttrVal::Kind::Float;
      v.float_value = value;
    }
    values.emplace_back(name, v);
  }
  return CallAttrs::from_values(op.attrs, std::move(values));
}

}  // namespace

std::optional<NDArray> run_reference(const loops::ElementwiseProgram& p, const std::vector<NDArray>& inputs,
                                     std::string& error) {
  std::vector<NDArray> values;
  try {
    for (const loops::EwStep& s : p.steps) {
      const OpInfo* op = find_op(s.op);
      rt::KernelFn kernel = rt::find_kernel(s.op);
      if (!op || !kernel) {
        error = "no reference kernel for " + s.op;
        return std::nullopt;
      }
      std::vector<rt::Value> args;
      for (const loops::EwOperand& o : s.operands)
        args.emplace_back(o.kind == loops::EwOperand::Input ? inputs[static_cast<size_t>(o.index)]
                                                            : values[static_cast<size_t>(o.index)]);
      const CallAttrs attrs = attrs_for(*op, s);
      rt::KernelCall call{*op, args, attrs, nullptr};
      values.push_back(kernel(call).tensor());
    }
  } catch (const rt::RuntimeError& e) {
    error = e.what();
    return std::nullopt;
  }
  // A step's result has its own broadcast shape; the program's output has the full one.
  NDArray last = values.back();
  if (last.shape() != p.out_shape) {
    NDArray full = NDArray::empty(p.out_shape, last.dtype());
    const rt::Shape& s = last.shape();
    for (int64_t i = 0; i < full.size(); ++i) {
      int64_t rem = i, src = 0, stride = 1;
      for (size_t d = p.out_shape.size(); d-- > 0;) {
        const int64_t idx = rem % p.out_shape[d];
        rem /= p.out_shape[d];
        const size_t sd = d + s.size() - p.out_shape.size();
        if (d + s.size() >= p.out_shape.size()) {
          if (s[sd] != 1) src += idx * stride;
          stride *= s[sd];
        }
      }
      std::memcpy(static_cast<char*>(full.raw()) + i * rt::dtype_bytes(last.dtype()),
                  static_cast<char*>(last.raw()) + src * rt::dtype_bytes(last.dtype()), rt::dtype_bytes(last.dtype()));
    }
    last = full;
  }
  return last;
}

const std::set<std::string_view> kBinaryOps = {
    "add", "subtract", "multiply", "divide", "floor_divide", "trunc_divide", "mod", "floor_mod", "trunc_mod",
    "power", "maximum", "minimum", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
    "bitwise_xor", "left_shift", "right_shift", "equal", "not_equal", "less", "less_equal", "greater",
    "greater_equal"};
const std::set<std::string_view> kBoolResultOps = {"equal", "not_equal", "less", "less_equal", "greater",
                                                   "greater_equal", "isnan", "isinf", "isfinite"};

CompiledProgram compile_program(const loops::ElementwiseProgram& p, const compiler::CompileOptions& options,
                                loops::LoopShape shape) {
  CompiledProgram c;
  c.lowered = loops::lower_elementwise(p, "test", shape);
  if (!c.lowered.ok()) throw std::runtime_error("not lowered: " + c.lowered.error);
  c.kernel = compiler::Jit::instance().compile(c.lowered.kernel, options);
  return c;
}

JitResult run_compiled(const CompiledProgram& c, const loops::ElementwiseProgram& p, const std::vector<NDArray>& inputs,
                       unsigned threads) {
  JitResult r;
  r.compile_ms = c.kernel.compile_ms;
  r.out = NDArray::empty(p.out_shape, p.out_dtype);
  NDArray status = NDArray::scalar_int(0, DataType::int_(32));
  std::vector<void*> buffers;
  for (const NDArray& in : inputs) buffers.push_back(in.raw());
  buffers.push_back(r.out.raw());
  if (c.lowered.status_buffer >= 0) buffers.push_back(status.raw());
  if (threads > 0) {
    compiler::ThreadPool pool(threads);
    compiler::run_kernel(c.kernel, buffers.data(), &pool);
  } else {
    compiler::run_kernel(c.kernel, buffers.data(), nullptr);
  }
  r.failed = status.get_int(0) != 0;
  return r;
}

JitResult run_jit(const loops::ElementwiseProgram& p, const std::vector<NDArray>& inputs, unsigned threads,
                  const compiler::CompileOptions& options) {
  return run_compiled(compile_program(p, options), p, inputs, threads);
}

namespace {

// Float bits mapped to integers that are ordered like the floats (+0 and -0 both map to 0),
// so that the ULP distance is a difference.
int64_t ordered(uint64_t bits, int width) {
  const uint64_t sign = uint64_t{1} << (width - 1);
  const auto magnitude = static_cast<int64_t>(bits & (sign - 1));
  return (bits & sign) ? -magnitude : magnitude;
}

}  // namespace

std::string compare(const NDArray& expected, const NDArray& actual) {
  if (expected.dtype() != actual.dtype())
    return "dtype " + dtype_name(actual.dtype()) + ", expected " + dtype_name(expected.dtype());
  if (expected.shape() != actual.shape()) return "shape " + rt::shape_to_string(actual.shape());
  const DataType t = expected.dtype();
  const size_t width = rt::dtype_bytes(t);
  for (int64_t i = 0; i < expected.size(); ++i) {
    uint64_t a = 0, b = 0;
    std::memcpy(&a, static_cast<const char*>(expected.raw()) + i * static_cast<int64_t>(width), width);
    std::memcpy(&b, static_cast<const char*>(actual.raw()) + i * static_cast<int64_t>(width), width);
    if (a == b) continue;
    const std::string where = "element " + std::to_string(i) + ": expected " +
                              std::to_string(expected.get_double(i)) + ", got " + std::to_string(actual.get_double(i));
    if (!t.is_float()) return where + " (integer results must be bitwise equal)";
    const double x = expected.get_double(i), y = actual.get_double(i);
    if (std::isnan(x) && std::isnan(y)) continue;
    if (std::isnan(x) || std::isnan(y)) return where;
    const int64_t ulps = std::llabs(ordered(a, static_cast<int>(width * 8)) - ordered(b, static_cast<int>(width * 8)));
    if (ulps > kMaxUlps) return where + " (" + std::to_string(ulps) + " ULPs apart)";
  }
  return "";
}

loops::ElementwiseProgram unary_program(const std::string& op, DataType in, DataType out, const rt::Shape& shape,
                                        std::map<std::string, double> attrs) {
  loops::ElementwiseProgram p;
  p.inputs = {{in, shape}};
  p.steps = {{op, {loops::EwOperand::input(0)}, std::move(attrs), out}};
  p.out_dtype = out;
  p.out_shape = shape;
  return p;
}

loops::ElementwiseProgram binary_program(const std::string& op, DataType in, DataType out, const rt::Shape& a,
                                         const rt::Shape& b, const rt::Shape& result) {
  loops::ElementwiseProgram p;
  p.inputs = {{in, a}, {in, b}};
  p.steps = {{op, {loops::EwOperand::input(0), loops::EwOperand::input(1)}, {}, out}};
  p.out_dtype = out;
  p.out_shape = result;
  return p;
}

namespace {

std::map<std::string, double> attrs_of(std::string_view op) {
  if (op == "clip") return {{"a_min", -2.5}, {"a_max", 7.25}};
  if (op == "nn.leaky_relu") return {{"alpha", 0.1}};
  if (op == "fixed_point_multiply") return {{"multiplier", 1518500250}, {"shift", -3}};
  return {};
}

}  // namespace

std::vector<std::pair<std::string, loops::ElementwiseProgram>> every_elementwise_program() {
  std::vector<std::pair<std::string, loops::ElementwiseProgram>> out;
  for (std::string_view op_view : loops::lowered_elementwise_ops()) {
    const std::string op(op_view);
    for (DataType t : all_dtypes()) {
      if (!loops::elementwise_supports(op, t)) continue;
      if (op == "cast") continue;  // every pair below
      if (op == "where") {
        loops::ElementwiseProgram w;
        w.inputs = {{DataType::bool_(), {3, 4}}, {t, {3, 1}}, {t, {1, 4}}};
        w.steps = {
            {"where", {loops::EwOperand::input(0), loops::EwOperand::input(1), loops::EwOperand::input(2)}, {}, t}};
        w.out_dtype = t;
        w.out_shape = {3, 4};
        out.emplace_back("where " + dtype_name(t), w);
        continue;
      }
      const DataType result = kBoolResultOps.count(op) ? DataType::bool_() : t;
      out.emplace_back(op + " " + dtype_name(t), kBinaryOps.count(op) || op == "cast_like"
                                                     ? binary_program(op, t, result, {3, 1}, {1, 4}, {3, 4})
                                                     : unary_program(op, t, result, {67}, attrs_of(op)));
    }
  }
  for (DataType from : all_dtypes())
    for (DataType to : all_dtypes())
      if (from != to)
        out.emplace_back("cast " + dtype_name(from) + " -> " + dtype_name(to), unary_program("cast", from, to, {67}));
  return out;
}

std::string bitwise(const NDArray& expected, const NDArray& actual) {
  if (expected.dtype() != actual.dtype()) return "dtype " + dtype_name(actual.dtype());
  if (expected.shape() != actual.shape()) return "shape " + rt::shape_to_string(actual.shape());
  const size_t w = rt::dtype_bytes(expected.dtype());
  for (int64_t i = 0; i < expected.size(); ++i) {
    const auto* a = static_cast<const char*>(expected.raw()) + i * static_cast<int64_t>(w);
    const auto* b = static_cast<const char*>(actual.raw()) + i * static_cast<int64_t>(w);
    if (std::memcmp(a, b, w) == 0) continue;
    if (std::isnan(expected.get_double(i)) && std::isnan(actual.get_double(i))) continue;
    return "element " + std::to_string(i) + ": expected " + std::to_string(expected.get_double(i)) + ", got " +
           std::to_string(actual.get_double(i));
  }
  return "";
}

}  // namespace relay::test
