// tests/gpu/tile_agreement.h: the seeded inputs relay_gpu_check gives a family of tile
// benchmarks and the check that each tile's output agrees with the family's first.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>

#include "tests/gpu/tile_agreement.h"

namespace gc = relay::gpu_check;

namespace {

float f32_at(const std::string& s, size_t i) {
  float v;
  std::memcpy(&v, s.data() + 4 * i, 4);
  return v;
}
void set_f32(std::string& s, size_t i, float v) { std::memcpy(&s[4 * i], &v, 4); }

}  // namespace

TEST_CASE("tile benchmark inputs are seeded, normal and below 1 in magnitude", "[gpu][tile-audit]") {
  for (const char* dtype : {"float32", "float16", "bfloat16"}) {
    INFO(dtype);
    const std::string a = gc::random_input(dtype, 4096, 7), b = gc::random_input(dtype, 4096, 7);
    CHECK(a == b);                                // the same seed, the same values
    CHECK(a != gc::random_input(dtype, 4096, 8));  // another seed, others
    const size_t n = 4096 / gc::element_bytes(dtype);
    size_t negative = 0;
    for (size_t i = 0; i < n; ++i) {
      const double v = gc::element(dtype, a.data(), i);
      REQUIRE(std::isnormal(v));
      CHECK(std::fabs(v) >= std::ldexp(1.0, -5));
      CHECK(std::fabs(v) < 1.0);
      negative += v < 0;
    }
    CHECK(negative > n / 3);  // both signs, about equally
    CHECK(negative < 2 * n / 3);
  }
}

TEST_CASE("a tile agrees with its family's first within roundings, not past them", "[gpu][tile-audit]") {
  std::string want = gc::random_input("float32", 4 * 1000, 1);
  for (size_t i = 0; i < 1000; ++i) set_f32(want, i, f32_at(want, i) * 40.0f);  // scale up to 40
  std::string got = want;
  CHECK(gc::agree("float32", want.data(), got.data(), want.size()).empty());
  // another fold's roundings: a few ulps of the scale
  for (size_t i = 0; i < 1000; i += 3) set_f32(got, i, std::nextafter(std::nextafter(f32_at(got, i), 100.0f), 100.0f));
  CHECK(gc::agree("float32", want.data(), got.data(), want.size()).empty());
  // two outputs swapped (a wrong index) do not agree, and the message names the element
  got = want;
  const float a = f32_at(got, 10);
  set_f32(got, 10, f32_at(got, 11));
  set_f32(got, 11, a);
  if (std::fabs(f32_at(want, 10) - f32_at(want, 11)) > 0.01f) {
    const std::string problem = gc::agree("float32", want.data(), got.data(), want.size());
    CHECK(problem.rfind("element 10:", 0) == 0);
  }
  // a NaN where the rule's tile has a number
  got = want;
  set_f32(got, 500, std::nanf(""));
  CHECK(gc::agree("float32", want.data(), got.data(), want.size()).rfind("element 500:", 0) == 0);
  // float16: a rounding of the output is within, a tenth of the scale is not
  std::string h = gc::random_input("float16", 2 * 100, 3), h2 = h;
  uint16_t bits;
  std::memcpy(&bits, &h2[0], 2);
  ++bits;  // one ulp
  std::memcpy(&h2[0], &bits, 2);
  CHECK(gc::agree("float16", h.data(), h2.data(), h.size()).empty());
  bits = static_cast<uint16_t>(bits ^ 0x8000);  // the sign flipped: off by twice the value
  std::memcpy(&h2[0], &bits, 2);
  if (std::fabs(gc::element("float16", h.data(), 0)) > 0.1) CHECK_FALSE(gc::agree("float16", h.data(), h2.data(), h.size()).empty());
}
