// Every golden case of every operator family (tests/kernels/data, the reference kernels'
// numpy cases) compiled by the real pipeline for the case's input shapes and run, against
// the interpreter on the same inputs: the differential test of the compile path.
//
// Equality: integers and booleans bitwise; floats with NaN exactly where the interpreter
// has NaN, infinities equal, and otherwise
//     |compiled - interpreted| <= kFloatUlps * eps(dtype) * (1 + |interpreted|)
// with eps the dtype's machine epsilon (float16 2^-10, bfloat16 2^-7, float32 2^-23,
// float64 2^-52). Native kernels call the same libm functions as the reference kernels and
// reductions fold in the reference's order, so most results are bitwise equal; the margin
// covers rewrites that reorder a few roundings (simplify_inference's batch norm, a
// vectorised intrinsic). docs/compiler.md states the same rule. Where a convolution or
// matrix product ran through the kernel library (compiler/dnnl), which sums its K products
// in its own blocked order, the margin is max(kFloatUlps, K) ulps, K the case's longest
// accumulation (t::longest_accumulation).
//
// A case whose function does not compile (not a graph, an argument that is not a tensor)
// must give a reason; it is counted, not failed. Each family is its own test case (its
// own CTest test, so they run in parallel); each prints its counts.
#ifdef RELAY_HAVE_PIPELINE
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "compiler/pipeline/compile_function.h"
#include "compiler/pipeline/executable.h"
#include "compiler/pipeline/scalar_call.h"
#include "tests/compiler/compiler_test_util.h"
#include "tests/support/golden_cases.h"

using namespace relay;
namespace t = relay::testing;

namespace {

constexpr double kFloatUlps = 8;

double epsilon(DataType d) {
  if (d.code == DataType::BFloat) return std::ldexp(1.0, -7);
  switch (d.bits) {
    case 16: return std::ldexp(1.0, -10);
    case 32: return std::ldexp(1.0, -23);
    default: return std::ldexp(1.0, -52);
  }
}

// "" when equal by the rule above, else the first difference.
std::string compare_values(const rt::Value& got, const rt::Value& want, const std::string& where, double ulps) {
  if (want.is_tuple()) {
    if (!got.is_tuple() || got.tuple().fields.size() != want.tuple().fields.size())
      return where + ": not a tuple of " + std::to_string(want.tuple().fields.size());
    for (size_t k = 0; k < want.tuple().fields.size(); ++k) {
      std::string d = compare_values(got.tuple().fields[k], want.tuple().fields[k], where + "." + std::to_string(k), ulps);
      if (!d.empty()) return d;
    }
    return "";
  }
  if (!want.is_tensor()) return where + ": the interpreter's result is not a tensor";
  if (!got.is_tensor()) return where + ": not a tensor";
  const rt::NDArray& w = want.tensor();
  const double tol = w.dtype().is_float() ? ulps * epsilon(w.dtype()) : 0;
  std::string d = t::compare_tensors(got.tensor(), w, tol, tol);
  return d.empty() ? d : where + ": " + d;
}

struct Counts {
  size_t cases = 0;
  size_t native = 0;     // at least one group (or the whole scalar function) runs native code
  size_t reference = 0;  // compiled, every group on reference kernels
  size_t interpreted = 0;
  std::map<std::string, size_t> reasons;  // why not compiled
};

// The reason's first clause (up to a ';' that starts the scalar compiler's refusal), so
// the summary groups cases by why.
std::string reason_kind(const std::string& reason) { return reason.substr(0, reason.find(';')); }

void check_family(const std::string& family) {
  const std::vector<t::GoldenCase> cases = t::load_golden_family(family);
  REQUIRE(!cases.empty());
  compiler::ThreadPool pool(2);
  Counts n;
  for (const t::GoldenCase& c : cases) {
    INFO(family << "/" << c.name << "\n" << c.program);
    ++n.cases;
    auto m = t::load_model_text(c.program);
    REQUIRE(m->error.empty());
    const std::vector<rt::NDArray> inputs = t::read_golden_inputs(c);
    const rt::Value want = t::interpret(*m, inputs);
    const std::vector<rt::Value> args(inputs.begin(), inputs.end());
    jit::CompileOutcome out;
    if (auto sig = jit::signature_of(args)) out = compiler::compile_function(*m->program, *m->program->entry, *sig, &pool);
    else out.reason = "an argument is not a tensor";
    if (!out.code) {
      CHECK(!out.reason.empty());  // what stays interpreted says why
      ++n.interpreted;
      ++n.reasons[reason_kind(out.reason)];
      continue;
    }
    double ulps = kFloatUlps;
    if (auto* exe = dynamic_cast<compiler::Executable*>(out.code.get())) {
      ++(exe->native_groups() + exe->epilogue_groups() + exe->library_groups() > 0 ? n.native : n.reference);
      if (exe->library_groups() > 0)
        ulps = std::max(kFloatUlps, static_cast<double>(t::longest_accumulation(exe->graph())));
    } else
      ++n.native;  // a scalar function: native control flow
    rt::Value got;
    std::string error;
    try {
      got = out.code->call(args);
    } catch (const std::exception& e) {
      error = e.what();  // the interpreter ran it without error, so native code must too
    }
    INFO((out.notes.empty() ? std::string() : out.notes[0]));
    CHECK(error == "");
    if (error.empty()) CHECK(compare_values(got, want, "result", ulps) == "");
  }
  std::printf("golden cases compiled, %s: %zu cases, %zu native in part or whole, %zu compiled on reference "
              "kernels only, %zu stayed interpreted\n",
              family.c_str(), n.cases, n.native, n.reference, n.interpreted);
  for (const auto& [why, count] : n.reasons) std::printf("  interpreted (%zu): %s\n", count, why.c_str());
  CHECK(n.native + n.reference + n.interpreted == n.cases);
}

// The families the test cases below cover; a new family directory must get its test.
const std::set<std::string> kFamilies = {"annotation", "conv_std",  "conv_variants", "dyn",       "elementwise",
                                         "image",      "nn",        "pool_ops",      "qnn",       "random",
                                         "reduction",  "sorting",   "transform",     "transform_index",
                                         "vision"};

}  // namespace

TEST_CASE("golden cases compiled: every family has a test case", "[compiler][golden]") {
  const std::vector<std::string> dirs = t::golden_families();
  CHECK(std::set<std::string>(dirs.begin(), dirs.end()) == kFamilies);
}

TEST_CASE("golden cases compiled: annotation", "[compiler][golden]") { check_family("annotation"); }
TEST_CASE("golden cases compiled: conv_std", "[compiler][golden]") { check_family("conv_std"); }
TEST_CASE("golden cases compiled: dyn", "[compiler][golden]") { check_family("dyn"); }
TEST_CASE("golden cases compiled: image", "[compiler][golden]") { check_family("image"); }
TEST_CASE("golden cases compiled: qnn", "[compiler][golden]") { check_family("qnn"); }
TEST_CASE("golden cases compiled: random", "[compiler][golden]") { check_family("random"); }
TEST_CASE("golden cases compiled: vision", "[compiler][golden]") { check_family("vision"); }
TEST_CASE("golden cases compiled: conv_variants", "[compiler][golden]") { check_family("conv_variants"); }
TEST_CASE("golden cases compiled: elementwise", "[compiler][golden]") { check_family("elementwise"); }
TEST_CASE("golden cases compiled: nn", "[compiler][golden]") { check_family("nn"); }
TEST_CASE("golden cases compiled: pool_ops", "[compiler][golden]") { check_family("pool_ops"); }
TEST_CASE("golden cases compiled: reduction", "[compiler][golden]") { check_family("reduction"); }
TEST_CASE("golden cases compiled: sorting", "[compiler][golden]") { check_family("sorting"); }
TEST_CASE("golden cases compiled: transform", "[compiler][golden]") { check_family("transform"); }
TEST_CASE("golden cases compiled: transform_index", "[compiler][golden]") { check_family("transform_index"); }
#endif
