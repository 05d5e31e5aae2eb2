// Injective (layout/indexing) operators and pools compiled as index-mapping kernels
// (compiler/loops/injective.h) against the interpreter's reference kernels: each program
// is compiled at its annotated shapes, every group must run native, and the result must
// equal the reference's bit for bit, any NaN equal to any NaN (these kernels move
// elements; pools and softmax fold in the reference's order, formulas and accumulator
// type, so there is no tolerance). Inputs are
// nasty: NaN, infinities, -0, extremes for floats; MIN/MAX for integers; take's indices
// run past both ends.
#ifdef RELAY_HAVE_PIPELINE
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "compiler/pipeline/compile_function.h"
#include "interpreter/eval/run.h"
#include "tests/compiler/compiler_test_util.h"

using namespace relay;
namespace t = relay::testing;

namespace {

// Uniform values with about one in eight an edge value; integers (take's indices) in
// [-index_range, index_range] when it is positive, in [0, -index_range) when negative.
void fill_nasty(rt::NDArray& a, std::mt19937_64& rng, int64_t index_range) {
  std::uniform_real_distribution<double> u(-4.0, 4.0);
  const DataType t = a.dtype();
  for (int64_t i = 0; i < a.size(); ++i) {
    const bool edge = rng() % 8 == 0;
    if (t.is_float()) {
      const double edges[] = {std::nan(""), INFINITY, -INFINITY, -0.0, 1e30, -1e30};
      a.set_double(i, edge ? edges[rng() % 6] : u(rng));
    } else if (index_range > 0) {
      a.set_int(i, static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * index_range + 1)) - index_range);
    } else if (index_range < 0) {  // inside [0, -index_range)
      a.set_int(i, static_cast<int64_t>(rng() % static_cast<uint64_t>(-index_range)));
    } else if (t.is_bool()) {
      a.set_int(i, static_cast<int64_t>(rng() % 2));
    } else {
      const int64_t bits = t.bits;
      const int64_t mx = bits == 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (bits - 1)) - 1;
      const int64_t edges[] = {mx, -mx - 1, 0, -1, 1};
      a.set_int(i, edge ? edges[rng() % 5] : static_cast<int64_t>(rng() % 2001) - 1000);
    }
  }
}

// Bitwise, except that any NaN equals any NaN (LLVM may commute a multiplication, which
// changes which NaN operand's sign propagates; the sign of a NaN means nothing).
bool same_element(const rt::NDArray& a, const rt::NDArray& b, int64_t i) {
  const size_t w = rt::dtype_bytes(a.dtype());
  if (std::memcmp(static_cast<const char*>(a.raw()) + static_cast<size_t>(i) * w,
                  static_cast<const char*>(b.raw()) + static_cast<size_t>(i) * w, w) == 0)
    return true;
  return a.dtype().is_float() && std::isnan(a.get_double(i)) && std::isnan(b.get_double(i));
}

bool bitwise_equal(const rt::NDArray& a, const rt::NDArray& b) {
  if (a.shape() != b.shape() || a.dtype() != b.dtype()) return false;
  for (int64_t i = 0; i < a.size(); ++i)
    if (!same_element(a, b, i)) return false;
  return true;
}

// The first element whose bits differ, for the failure message.
std::string first_difference(const rt::NDArray& got, const rt::NDArray& want) {
  if (got.shape() != want.shape() || got.dtype() != want.dtype()) return "shapes or dtypes differ";
  for (int64_t i = 0; i < got.size(); ++i)
    if (!same_element(got, want, i))
      return "element " + std::to_string(i) + ": compiled " + std::to_string(got.get_double(i)) + ", reference " +
             std::to_string(want.get_double(i));
  return "";
}

struct Outcome {
  std::unique_ptr<rt::CompiledCall> code;
  std::vector<std::string> notes;
  std::vector<rt::Value> args;
  std::optional<rt::Value> want;  // nullopt: the interpreter failed
};

Outcome compile(const std::string& text, int64_t index_range, uint64_t seed) {
  INFO(text);
  auto m = t::load_model_text("#[version = \"0.0.5\"]\n" + text);
  INFO(m->error);
  REQUIRE(m->error.empty());
  std::vector<rt::NDArray> args = t::random_args(*m, seed);
  std::mt19937_64 rng(seed);
  for (auto& a : args) fill_nasty(a, rng, a.dtype().is_float() ? 0 : index_range);
  Outcome o;
  o.args.assign(args.begin(), args.end());
  rt::RunOutcome r = rt::run_function(*m->program->program, m->program->program->global(*m->program->entry), o.args,
                                      {}, m->sources);
  if (r.value) o.want = *r.value;
  auto sig = jit::signature_of(o.args);
  REQUIRE(sig);
  jit::CompileOutcome c = compiler::compile_function(*m->program, *m->program->entry, *sig, nullptr);
  INFO(c.reason);
  REQUIRE(c.code);
  o.code = std::move(c.code);
  o.notes = std::move(c.notes);
  return o;
}

// Every group native, and the result bitwise the interpreter's.
void check(const std::string& text, int64_t index_range = 0, uint64_t seed = 5) {
  INFO(text);
  Outcome o = compile(text, index_range, seed);
  REQUIRE(!o.notes.empty());
  std::string notes;
  for (const auto& n : o.notes) notes += n + "\n";
  INFO(notes);
  CHECK(o.notes[0].find(" 0 on reference kernels") != std::string::npos);
  REQUIRE(o.want);
  compiler::ThreadPool pool(2);
  rt::Value got = o.code->call(o.args);
  const bool same = bitwise_equal(got.tensor(), o.want->tensor());
  INFO(first_difference(got.tensor(), o.want->tensor()));
  CHECK(same);
}

}  // namespace

TEST_CASE("transpose, reshape, squeeze, expand_dims and batch_flatten copy as the reference does", "[compiler][index]") {
  for (const char* dt : {"float32", "int8", "float16", "bool", "uint64"}) {
    const std::string d = dt;
    check("def @main(%x: Tensor[(2, 3, 4, 5), " + d + "]) {\n  transpose(%x, axes=[0, -1, 1, 2])\n}\n");
    check("def @main(%x: Tensor[(2, 3, 4, 5), " + d + "]) {\n  %0 = transpose(%x, axes=None);\n  reshape(%0, newshape=[10, -1])\n}\n");
    check("def @main(%x: Tensor[(3, 1, 4), " + d + "]) {\n  %0 = transpose(%x, axes=[2, 1, 0]);\n"
          "  %1 = squeeze(%0, axis=[1]);\n  expand_dims(%1, axis=-1, num_newaxis=2)\n}\n");
    check("def @main(%x: Tensor[(2, 3, 4), " + d + "]) {\n  %0 = transpose(%x, axes=[0, 2, 1]);\n  nn.batch_flatten(%0)\n}\n");
  }
  // element-wise operators before and after the layout change, in one kernel
  check("def @main(%x: Tensor[(4, 6), float32], %y: Tensor[(6), float32]) {\n"
        "  %0 = add(%x, %y);\n  %1 = transpose(%0, axes=None);\n  %2 = exp(%1);\n  reshape(%2, newshape=[3, 8])\n}\n");
}

TEST_CASE("strided_slice with negative begins, negative strides, axes and size mode", "[compiler][index]") {
  check("def @main(%x: Tensor[(5, 6, 7), float32]) {\n"
        "  strided_slice(%x, begin=[4, -1, 1], end=[0, -7, 7], strides=[-1, -2, 3], axes=None)\n}\n");
  check("def @main(%x: Tensor[(5, 6, 7), int32]) {\n"
        "  strided_slice(%x, begin=[-3], end=[100], strides=[1], axes=[2])\n}\n");
  check("def @main(%x: Tensor[(5, 6, 7), int16]) {\n"
        "  strided_slice(%x, begin=[1, 2], end=[3, -1], strides=[1, 1], axes=[0, -1], slice_mode=\"size\")\n}\n");
  check("def @main(%x: Tensor[(8, 9), float64]) {\n"
        "  %0 = strided_slice(%x, begin=[7, 8], end=[-100, -100], strides=[-2, -3], axes=None);\n  negative(%0)\n}\n");
}

TEST_CASE("concatenate of computed operands, on any axis", "[compiler][index]") {
  check("def @main(%x: Tensor[(2, 3, 4), float32], %y: Tensor[(2, 5, 4), float32], %z: Tensor[(2, 1, 4), float32]) {\n"
        "  %0 = exp(%x);\n  %1 = negative(%y);\n  concatenate((%0, %1, %z), axis=1)\n}\n");
  check("def @main(%x: Tensor[(3, 2), int64], %y: Tensor[(3, 7), int64]) {\n"
        "  %0 = concatenate((%x, %y, %x), axis=-1);\n  add(%0, 1i64)\n}\n");
  check("def @main(%x: Tensor[(3, 2), uint8], %y: Tensor[(1, 2), uint8]) {\n  concatenate((%x, %y), axis=0)\n}\n");
}

TEST_CASE("layout_transform between NCHW, NHWC and blocked layouts, padded splits included", "[compiler][index]") {
  check("def @main(%x: Tensor[(2, 8, 3, 5), float32]) {\n  layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NHWC\")\n}\n");
  check("def @main(%x: Tensor[(2, 3, 5, 8), int32]) {\n  layout_transform(%x, src_layout=\"NHWC\", dst_layout=\"NCHW\")\n}\n");
  check("def @main(%x: Tensor[(2, 8, 3, 5), float32]) {\n  layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NCHW4c\")\n}\n");
  check("def @main(%x: Tensor[(2, 2, 3, 5, 4), float32]) {\n  layout_transform(%x, src_layout=\"NCHW4c\", dst_layout=\"NCHW\")\n}\n");
  check("def @main(%x: Tensor[(1, 6, 3, 5), float32]) {\n  layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NCHW4c\")\n}\n");
  check("def @main(%x: Tensor[(1, 2, 3, 5, 4), float16]) {\n  layout_transform(%x, src_layout=\"NCHW4c\", dst_layout=\"NHWC2c\")\n}\n");
}

TEST_CASE("nn.pad constant and edge, negative widths, pad value operand", "[compiler][index]") {
  check("def @main(%x: Tensor[(2, 3, 4), float32], %v: float32) {\n"
        "  nn.pad(%x, %v, pad_width=[[0, 0], [2, 1], [1, 3]])\n}\n");
  check("def @main(%x: Tensor[(2, 3, 4), int8], %v: int8) {\n  nn.pad(%x, %v, pad_width=[[1, 1], [0, 0], [3, 3]])\n}\n");
  check("def @main(%x: Tensor[(5, 6), float32]) {\n  nn.pad(%x, 0f, pad_width=[[-1, 2], [2, -3]])\n}\n");
  check("def @main(%x: Tensor[(2, 3), float64]) {\n  nn.pad(%x, 0f64, pad_width=[[2, 2], [4, 1]], pad_mode=\"edge\")\n}\n");
}

TEST_CASE("nn.pad's reflect and nn.mirror_pad mirror up to one fold, with cropping widths", "[compiler][index]") {
  // reflect's widest pads (one less than the dimension), symmetric's (the dimension), a
  // negative width cropping the other end, and element-wise operators around them
  check("def @main(%x: Tensor[(2, 5, 4), float32]) {\n"
        "  nn.pad(%x, 0f, pad_width=[[0, 0], [4, 4], [3, -1]], pad_mode=\"reflect\")\n}\n");
  check("def @main(%x: Tensor[(3, 4), int8]) {\n  nn.mirror_pad(%x, pad_width=[[3, 3], [4, 1]], mode=\"SYMMETRIC\")\n}\n");
  check("def @main(%x: Tensor[(3, 6), float16]) {\n  %0 = exp(%x);\n"
        "  %1 = nn.mirror_pad(%0, pad_width=[[2, 1], [0, 5]], mode=\"REFLECT\");\n  negative(%1)\n}\n");
  // one fold further and the reference kernel runs, to say why it cannot
  Outcome o = compile("def @main(%x: Tensor[(2, 5), float32]) {\n"
                      "  nn.pad(%x, 0f, pad_width=[[0, 0], [5, 0]], pad_mode=\"reflect\")\n}\n", 0, 5);
  REQUIRE(!o.notes.empty());
  CHECK(o.notes[0].find(" 1 on reference kernels") != std::string::npos);
}

TEST_CASE("nn.upsampling's nearest neighbour by whole factors repeats rows and columns", "[compiler][index]") {
  check("def @main(%x: Tensor[(2, 3, 5, 4), float32]) {\n"
        "  %0 = nn.upsampling(%x, scale_h=2f, scale_w=3f, method=\"nearest_neighbor\");\n  add(%0, 1f)\n}\n");
  check("def @main(%x: Tensor[(1, 3, 2, 4), int32]) {\n"
        "  nn.upsampling(%x, scale_h=4f, scale_w=1f, layout=\"NHWC\", method=\"nearest_neighbor\")\n}\n");
  // fractional factors, bilinear and align_corners: the reference kernel, with the reason
  for (const char* attrs : {"scale_h=1.5f, scale_w=2f, method=\"nearest_neighbor\"",
                            "scale_h=2f, scale_w=2f, method=\"bilinear\"",
                            "scale_h=2f, scale_w=2f, method=\"nearest_neighbor\", align_corners=True"}) {
    Outcome o = compile(std::string("def @main(%x: Tensor[(2, 3, 5, 4), float32]) {\n  nn.upsampling(%x, ") + attrs +
                            ")\n}\n",
                        0, 5);
    REQUIRE(o.notes.size() == 2);
    CHECK(o.notes[1].find("other than nearest neighbour by whole factors") != std::string::npos);
  }
}

TEST_CASE("take's clip, wrap and fast modes, indices past both ends, batch_dims", "[compiler][index]") {
  for (const char* mode : {"clip", "wrap"}) {
    const std::string m = mode;
    check("def @main(%x: Tensor[(4, 5), float32], %i: Tensor[(3, 2), int32]) {\n  take(%x, %i, axis=1, mode=\"" + m + "\")\n}\n", 12);
    check("def @main(%x: Tensor[(4, 5), int16], %i: Tensor[(7), int64]) {\n  take(%x, %i, axis=-2, mode=\"" + m + "\")\n}\n", 9);
    check("def @main(%x: Tensor[(4, 5), float64], %i: Tensor[(2, 3), int8]) {\n  take(%x, %i, mode=\"" + m + "\")\n}\n", 30);
    check("def @main(%x: Tensor[(3, 4, 5), float32], %i: Tensor[(3, 2), int32]) {\n"
          "  take(%x, %i, axis=2, batch_dims=1, mode=\"" + m + "\")\n}\n", 7);
  }
  // fast with indices inside: the same elements
  check("def @main(%x: Tensor[(4, 5), float32], %i: Tensor[(6), uint8]) {\n  take(%x, %i, axis=0, mode=\"fast\")\n}\n", -4);
  // fast with an index outside: the reference throws, and so does the compiled code
  Outcome o = compile("def @main(%x: Tensor[(4, 5), float32], %i: Tensor[(6), int32]) {\n  take(%x, %i, axis=0, mode=\"fast\")\n}\n", 50, 9);
  CHECK(!o.want);
  CHECK_THROWS(o.code->call(o.args));
}

TEST_CASE("gather along any axis with an element-wise producer, and an index out of range", "[compiler][index]") {
  check("def @main(%x: Tensor[(4, 5, 6), float32], %i: Tensor[(4, 3, 6), int64]) {\n"
        "  gather(negative(%x), %i, axis=1)\n}\n", -5);
  check("def @main(%x: Tensor[(4, 5), int16], %i: Tensor[(4, 9), int32]) {\n  gather(%x, %i, axis=-1)\n}\n", -5);
  check("def @main(%x: Tensor[(4, 5), float64], %i: Tensor[(2, 5), uint8]) {\n"
        "  add(gather(%x, %i, axis=0), 1f64)\n}\n", -4);
  // an index past either end: the reference throws, and so does the compiled code
  for (uint64_t seed : {3u, 9u}) {
    Outcome o = compile("def @main(%x: Tensor[(4, 5), float32], %i: Tensor[(4, 6), int32]) {\n"
                        "  gather(%x, %i, axis=1)\n}\n", 9, seed);
    CHECK(!o.want);
    CHECK_THROWS(o.code->call(o.args));
  }
}

TEST_CASE("gather_nd: index tuples, batch dims, an element-wise producer, an index out of range", "[compiler][index]") {
  check("def @main(%x: Tensor[(4, 5, 6, 3), float32], %i: Tensor[(2, 7), int64]) {\n"
        "  gather_nd(negative(%x), %i)\n}\n", -4);
  check("def @main(%x: Tensor[(4, 5, 3), int16], %i: Tensor[(3, 2, 4), int32]) {\n  gather_nd(%x, %i)\n}\n", -3);
  check("def @main(%x: Tensor[(4, 5, 6), float64], %i: Tensor[(1, 4, 2), uint8]) {\n"
        "  add(gather_nd(%x, %i, batch_dims=1), 1f64)\n}\n", -4);
  check("def @main(%x: Tensor[(3, 4, 5), float32], %i: Tensor[(2, 3, 6), int32]) {\n"
        "  gather_nd(%x, %i, batch_dims=1, index_rank=2)\n}\n", -4);
  for (uint64_t seed : {3u, 9u}) {
    Outcome o = compile("def @main(%x: Tensor[(4, 5), float32], %i: Tensor[(2, 6), int32]) {\n"
                        "  gather_nd(%x, %i)\n}\n", 9, seed);
    CHECK(!o.want);
    CHECK_THROWS(o.code->call(o.args));
  }
}

TEST_CASE("image resizes as takes and weighted sums, bit for bit (NaN, infinities, -0 included)", "[compiler][index]") {
  const std::string attrs = ", roi=[0f, 0f, 0f, 0f], cubic_alpha=-0.5f, extrapolation_value=0f";
  struct Resize {
    const char* method;
    const char* mode;
    const char* rounding;
    int exclude;
  };
  const Resize cases[] = {{"linear", "half_pixel", "", 0},          {"linear", "align_corners", "", 0},
                          {"linear", "asymmetric", "", 0},          {"linear", "pytorch_half_pixel", "", 0},
                          {"nearest_neighbor", "asymmetric", "", 0}, {"nearest_neighbor", "half_pixel", "round", 0},
                          {"nearest_neighbor", "align_corners", "", 0}, {"nearest_neighbor", "tf_half_pixel_for_nn", "floor", 0},
                          {"cubic", "half_pixel", "", 0},           {"cubic", "align_corners", "", 1}};
  for (const Resize& r : cases) {
    const std::string a = std::string(", method=\"") + r.method + "\", coordinate_transformation_mode=\"" + r.mode +
                          "\", rounding_method=\"" + r.rounding + "\", cubic_exclude=" + std::to_string(r.exclude) + attrs;
    check("def @main(%x: Tensor[(2, 3, 7, 9), float32]) {\n  image.resize2d(%x, size=[14, 5]" + a + ")\n}\n");
    check("def @main(%x: Tensor[(1, 6, 5, 2), float32]) {\n  nn.relu(image.resize2d(%x, size=[10, 12], layout=\"NHWC\"" + a +
          "))\n}\n");
  }
  // float16 data (the reference computes in float32 and rounds once), resize1d, resize3d
  check("def @main(%x: Tensor[(1, 4, 6, 6), float16]) {\n  image.resize2d(%x, size=[12, 9], method=\"linear\"" + attrs +
        ")\n}\n");
  check("def @main(%x: Tensor[(2, 3, 11), float32]) {\n  image.resize1d(%x, size=[4], roi=[0f, 0f], method=\"cubic\", "
        "coordinate_transformation_mode=\"half_pixel\", cubic_alpha=-0.75f)\n}\n");
  check("def @main(%x: Tensor[(1, 2, 3, 4, 5), float32]) {\n  image.resize3d(%x, size=[6, 8, 3], "
        "roi=[0f, 0f, 0f, 0f, 0f, 0f], method=\"linear\", coordinate_transformation_mode=\"align_corners\")\n}\n");
}

TEST_CASE("broadcast_to, tile, repeat and reverse", "[compiler][index]") {
  check("def @main(%x: Tensor[(3, 1), float32]) {\n  broadcast_to(%x, shape=[2, 3, 4])\n}\n");
  check("def @main(%x: Tensor[(2, 3), int32]) {\n  tile(%x, reps=[2, 1, 3])\n}\n");
  check("def @main(%x: Tensor[(2, 3, 4), float32]) {\n  tile(%x, reps=[2, 2])\n}\n");
  check("def @main(%x: Tensor[(2, 3), float32]) {\n  repeat(%x, repeats=3, axis=-1)\n}\n");
  check("def @main(%x: Tensor[(2, 3, 4), int8]) {\n  reverse(%x, axis=1)\n}\n");
  check("def @main(%x: Tensor[(2, 3, 4), float32]) {\n  %0 = reverse(%x, axis=-1);\n  %1 = repeat(%0, repeats=2, axis=0);\n  sigmoid(%1)\n}\n");
}

TEST_CASE("max and avg pools: padding, ceil_mode, dilation, count_include_pad, NHWC, epilogues", "[compiler][index]") {
  for (const char* dt : {"float32", "float64", "float16", "bfloat16", "int32", "uint8"}) {
    const std::string d = dt;
    for (const char* op : {"nn.max_pool2d", "nn.avg_pool2d"}) {
      const std::string o = op, incl = o == "nn.avg_pool2d" ? ", count_include_pad=True" : "";
      check("def @main(%x: Tensor[(2, 3, 7, 6), " + d + "]) {\n  " + o +
            "(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])\n}\n");
      check("def @main(%x: Tensor[(1, 2, 7, 7), " + d + "]) {\n  " + o +
            "(%x, pool_size=[2, 3], strides=[2, 2], padding=[0, 1, 1, 0], ceil_mode=True" + incl + ")\n}\n");
      check("def @main(%x: Tensor[(1, 9, 8, 3), " + d + "]) {\n  " + o +
            "(%x, pool_size=[2, 2], strides=[1, 3], dilation=[2, 1], padding=[1, 2, 0, 1], layout=\"NHWC\")\n}\n");
      // padding wider than the window: windows entirely in the padding
      check("def @main(%x: Tensor[(1, 1, 3, 3), " + d + "]) {\n  " + o +
            "(%x, pool_size=[2, 2], strides=[1, 1], padding=[3, 3, 3, 3]" + incl + ")\n}\n");
      check("def @main(%x: Tensor[(1, 1, 3, 3), " + d + "]) {\n  " + o +
            "(%x, pool_size=[2, 2], strides=[1, 1], padding=[3, 3, 3, 3])\n}\n");
    }
    check("def @main(%x: Tensor[(2, 3, 5, 4), " + d + "]) {\n  nn.global_avg_pool2d(%x)\n}\n");
    check("def @main(%x: Tensor[(2, 5, 4, 3), " + d + "]) {\n  nn.global_max_pool2d(%x, layout=\"NHWC\")\n}\n");
  }
  // the pool's element-wise epilogue in the same kernel (batch-norm style scale and relu)
  check("def @main(%x: Tensor[(1, 4, 9, 9), float32], %s: Tensor[(4, 1, 1), float32]) {\n"
        "  %0 = nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1]);\n"
        "  %1 = multiply(%0, %s);\n  nn.relu(%1)\n}\n");
}

TEST_CASE("adaptive pools whose output size divides the input's are pools, max from the first tap", "[compiler][index]") {
  // the inputs hold NaN and infinities: adaptive max keeps a first tap that is NaN or
  // -inf, where max_pool2d would start from the lowest finite value
  for (const char* dt : {"float32", "float16", "int8", "uint16"}) {
    const std::string d = dt;
    for (const char* op : {"nn.adaptive_max_pool2d", "nn.adaptive_avg_pool2d"}) {
      const std::string o = op;
      check("def @main(%x: Tensor[(2, 3, 6, 4), " + d + "]) {\n  " + o + "(%x, output_size=[1, 1])\n}\n");
      check("def @main(%x: Tensor[(2, 3, 6, 4), " + d + "]) {\n  " + o + "(%x, output_size=[3, 2])\n}\n");
      check("def @main(%x: Tensor[(1, 4, 8, 5), " + d + "]) {\n  " + o + "(%x, output_size=[2], layout=\"NHWC\")\n}\n");
    }
  }
  // sizes that do not divide: the reference kernel, which says why in the report
  Outcome o = compile("def @main(%x: Tensor[(2, 3, 6, 4), float32]) {\n  nn.adaptive_max_pool2d(%x, output_size=[4, 3])\n}\n",
                      0, 5);
  REQUIRE(o.notes.size() == 2);
  CHECK(o.notes[1].find("does not divide") != std::string::npos);
}

TEST_CASE("softmax, fast_softmax and log_softmax are one kernel each, bitwise the reference's", "[compiler][index]") {
  // tolerance 0 ULPs: the same max/exp-sum/normalise folds in the same order and formulas
  // (float16/bfloat16 in float32, rounded where the reference stores)
  for (const char* dt : {"float32", "float64", "float16", "bfloat16"})
    for (const char* op : {"nn.softmax", "nn.fast_softmax", "nn.log_softmax"})
      for (const char* axis : {"-1", "1", "0"}) {
        const std::string d = dt, o = op, a = axis;
        check("def @main(%x: Tensor[(3, 4, 37), " + d + "]) {\n  " + o + "(%x, axis=" + a + ")\n}\n");
      }
  check("def @main(%x: Tensor[(1, 1000), float32]) {\n  nn.softmax(%x)\n}\n");
  check("def @main(%x: Tensor[(5), float64]) {\n  nn.log_softmax(%x, axis=0)\n}\n");
}

TEST_CASE("variance is a mean of (x - mean)^2 in one reduction kernel, bitwise the reference's", "[compiler][index]") {
  for (const char* dt : {"float32", "float64", "int32", "float16"})
    for (const char* unbiased : {"False", "True"}) {
      const std::string d = dt, u = unbiased;
      check("def @main(%x: Tensor[(4, 6, 5), " + d + "], %m: Tensor[(4, 1, 5), " + d + "]) {\n"
            "  variance(%x, %m, axis=[1], keepdims=False, unbiased=" + u + ")\n}\n");
      // the mean computed in the graph, the data with an element-wise producer
      check("def @main(%x: Tensor[(3, 7), " + d + "]) {\n  %0 = mean(%x, axis=[-1], keepdims=True);\n"
            "  variance(abs(%x), %0, axis=[-1], keepdims=True, unbiased=" + u + ")\n}\n");
    }
}
#endif
