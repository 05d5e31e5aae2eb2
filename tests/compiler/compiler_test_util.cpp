#include "tests/compiler/compiler_test_util.h"

#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "compiler/graph/passes.h"
#include "compiler/pipeline/kernel_fusion.h"
#include "lang/base/source.h"

namespace relay::testing {

namespace {

std::unique_ptr<CompiledModel> load(const std::string& name, const std::string& text) {
  auto m = std::make_unique<CompiledModel>();
  FileId file = m->sources.add(name, text);
  DiagnosticBag diags;
  m->program = rt::load_program(m->sources, file, "main", nullptr, diags);
  for (const Diagnostic& d : diags.items())
    if (d.severity == Severity::Error) m->error += d.message + "\n";
  return m;
}

}  // namespace

std::unique_ptr<CompiledModel> load_model_file(const std::string& path) {
  std::string text, err;
  REQUIRE(read_text_file(path, &text, &err));
  return load(path, text);
}

std::unique_ptr<CompiledModel> load_model_text(const std::string& text) { return load("test.relay", text); }

compiler::BuildResult build_main(const CompiledModel& m) {
  REQUIRE(m.program);
  std::string error;
  auto specs = compiler::arg_specs_from_types(*m.program->entry, m.types(), {}, error);
  INFO(error);
  REQUIRE(specs);
  return compiler::build_graph(*m.program->entry, m.types(), m.metadata(), *specs);
}

compiler::Graph optimized_main(const CompiledModel& m) {
  compiler::BuildResult built = build_main(m);
  INFO(built.reason);
  REQUIRE(built.ok());
  return compiler::optimize(*built.graph);
}

FusedGraph fused_main(const CompiledModel& m) {
  compiler::Graph g = optimized_main(m);
  compiler::FusionPlan plan = compiler::fuse_for_kernels(g);
  return {std::move(g), std::move(plan)};
}

std::vector<rt::NDArray> random_args(const CompiledModel& m, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<rt::NDArray> out;
  std::string error;
  auto specs = compiler::arg_specs_from_types(*m.program->entry, m.types(), {}, error);
  REQUIRE(specs);
  for (size_t i = 0; i < specs->size(); ++i) {
    const auto& s = (*specs)[i];
    const bool positive = std::string_view(m.program->entry->fn->params[i]->name).find("var") != std::string_view::npos;
    rt::NDArray a = rt::NDArray::empty(s.shape, s.dtype);
    for (int64_t k = 0; k < a.size(); ++k) a.set_double(k, positive ? 1.0 + 0.5 * u(rng) : u(rng));
    out.push_back(a);
  }
  return out;
}

std::vector<rt::NDArray> scaled_args(const CompiledModel& m, uint64_t seed) {
  std::vector<rt::NDArray> args = random_args(m, seed);
  for (size_t i = 1; i < args.size(); ++i) {
    rt::NDArray& a = args[i];
    if (a.ndim() < 2 || std::string_view(m.program->entry->fn->params[i]->name).find("var") != std::string_view::npos)
      continue;
    const double scale = std::sqrt(3.0 / static_cast<double>(a.size() / a.shape()[0]));
    for (int64_t k = 0; k < a.size(); ++k) a.set_double(k, a.get_double(k) * scale);
  }
  return args;
}

rt::Value interpret(CompiledModel& m, const std::vector<rt::NDArray>& args) {
  rt::RunOutcome r = rt::run_function(*m.program->program, m.program->program->global(*m.program->entry),
                                      std::vector<rt::Value>(args.begin(), args.end()), {}, m.sources);
  INFO((r.error ? r.error->message : std::string()));
  REQUIRE(r.value);
  return *r.value;
}

double max_rel_diff(const rt::NDArray& a, const rt::NDArray& b) {
  if (a.shape() != b.shape()) return std::numeric_limits<double>::infinity();
  double worst = 0;
  for (int64_t i = 0; i < a.size(); ++i) {
    const double x = a.get_double(i), y = b.get_double(i);
    if (std::isnan(x) != std::isnan(y)) return std::numeric_limits<double>::infinity();
    if (!std::isnan(x)) worst = std::max(worst, std::abs(x - y) / (1 + std::abs(y)));
  }
  return worst;
}

int64_t longest_accumulation(const compiler::Graph& g) {
  auto product = [](const std::vector<int64_t>& s, size_t from) {
    int64_t p = 1;
    for (size_t i = from; i < s.size(); ++i) p *= s[i];
    return p;
  };
  int64_t k = 1;
  for (const compiler::Node& n : g.nodes) {
    if (n.kind != compiler::NodeKind::Call || n.inputs.size() < 1) continue;
    const std::string_view op = n.op->name;
    auto shape_of = [&](size_t i) { return compiler::concrete_shape(g[n.inputs[i]].type).value_or(std::vector<int64_t>{}); };
    if ((op.starts_with("nn.conv") || op == "nn.dense" || op == "nn.matmul") && n.inputs.size() >= 2) {
      k = std::max(k, product(shape_of(1), 1));
    } else if (op == "nn.batch_matmul" && n.inputs.size() >= 2) {
      const auto s = shape_of(0);
      if (!s.empty()) k = std::max(k, s.back());
    } else if (op.starts_with("nn.global_") || op.starts_with("nn.adaptive_")) {
      k = std::max(k, product(shape_of(0), 2));
    }
  }
  return k;
}

#ifdef RELAY_HAVE_PIPELINE
CompiledMain compile_for_args(CompiledModel& m, const std::vector<rt::NDArray>& args, compiler::ThreadPool* pool) {
  std::vector<rt::Value> values(args.begin(), args.end());
  auto sig = jit::signature_of(values);
  REQUIRE(sig);
  CompiledMain c;
  c.outcome = compiler::compile_function(*m.program, *m.program->entry, *sig, pool);
  REQUIRE(c.outcome.code);
  c.exe = dynamic_cast<compiler::Executable*>(c.outcome.code.get());
  REQUIRE(c.exe);
  return c;
}
#endif

}  // namespace relay::testing
