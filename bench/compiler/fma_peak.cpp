// The machine's FP32 peak for issue 14's "% of peak" figures: one thread (and then each
// of `--threads` threads at once) running a loop of independent fused multiply-adds.
//
// The widest FMA the CPU has at run time is used (__builtin_cpu_supports: AVX-512F, else
// AVX2+FMA, else a scalar loop that is reported as such), so one binary measures any host
// of the kind. Twelve independent accumulators hide the FMA latency (4 cycles, 2 ports:
// at least 8 chains in flight are needed); the multiplier is close to 1 and the addend
// tiny so values stay finite, and the sum is printed so the loop is not removed.
//
//   build/release/bench/relay_bench_fma_peak [--seconds S] [--threads T]
// prints lines "fma peak: ISA, T threads, X GFLOP/s per core, Y GFLOP/s total".
#include <immintrin.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr long kInner = 1 << 14;  // FMAs per accumulator between clock reads

__attribute__((target("avx512f"))) double run_avx512(long rounds, float* sink) {
  __m512 a[12];
  for (int i = 0; i < 12; ++i) a[i] = _mm512_set1_ps(1.0f + i * 1e-3f);
  const __m512 m = _mm512_set1_ps(0.999999f), c = _mm512_set1_ps(1e-7f);
  for (long r = 0; r < rounds; ++r)
    for (long k = 0; k < kInner; ++k)
      for (auto& v : a) v = _mm512_fmadd_ps(v, m, c);
  __m512 s = a[0];
  for (int i = 1; i < 12; ++i) s = _mm512_add_ps(s, a[i]);
  float lanes[16];  // not _mm512_reduce_add_ps: GCC 12's header warns (-Wuninitialized)
  _mm512_storeu_ps(lanes, s);
  *sink = 0;
  for (float l : lanes) *sink += l;
  return 2.0 * 16 * 12 * double(kInner) * double(rounds);
}

__attribute__((target("avx2,fma"))) double run_avx2(long rounds, float* sink) {
  __m256 a[12];
  for (int i = 0; i < 12; ++i) a[i] = _mm256_set1_ps(1.0f + i * 1e-3f);
  const __m256 m = _mm256_set1_ps(0.999999f), c = _mm256_set1_ps(1e-7f);
  for (long r = 0; r < rounds; ++r)
    for (long k = 0; k < kInner; ++k)
      for (auto& v : a) v = _mm256_fmadd_ps(v, m, c);
  __m256 s = a[0];
  for (int i = 1; i < 12; ++i) s = _mm256_add_ps(s, a[i]);
  float lanes[8];
  _mm256_storeu_ps(lanes, s);
  *sink = 0;
  for (float l : lanes) *sink += l;
  return 2.0 * 8 * 12 * double(kInner) * double(rounds);
}

double run_scalar(long rounds, float* sink) {
  float a[12];
  for (int i = 0; i < 12; ++i) a[i] = 1.0f + i * 1e-3f;
  for (long r = 0; r < rounds; ++r)
    for (long k = 0; k < kInner; ++k)
      for (auto& v : a) v = v * 0.999999f + 1e-7f;
  *sink = 0;
  for (float v : a) *sink += v;
  return 2.0 * 12 * double(kInner) * double(rounds);
}

using Kernel = double (*)(long, float*);

// GFLOP/s of one thread running `kernel` for about `seconds`: the best of windows of about
// a fiftieth of that each. On a shared VM the host takes the core away now and then (steal
// time), which lowered a single long measurement by up to a third from run to run; the
// fastest window is the rate the core has when it is this thread's.
double measure(Kernel kernel, double seconds, float* sink) {
  using clock = std::chrono::steady_clock;
  const double window = seconds / 50;
  long rounds = 1;
  kernel(rounds, sink);  // warm-up: frequency ramp, AVX-512 licence
  for (;;) {  // rounds for one window
    auto t0 = clock::now();
    kernel(rounds, sink);
    double s = std::chrono::duration<double>(clock::now() - t0).count();
    if (s >= window) break;
    rounds = s < window / 16 ? rounds * 8 : long(double(rounds) * window / s) + 1;
  }
  double best = 0, spent = 0;
  while (spent < seconds) {
    auto t0 = clock::now();
    double flops = kernel(rounds, sink);
    double s = std::chrono::duration<double>(clock::now() - t0).count();
    spent += s;
    if (flops / s * 1e-9 > best) best = flops / s * 1e-9;
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 0.5;
  int threads = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--seconds")) seconds = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--threads")) threads = std::atoi(argv[i + 1]);
  }
  __builtin_cpu_init();
  Kernel kernel = run_scalar;
  std::string isa = "scalar";
  if (__builtin_cpu_supports("avx512f")) kernel = run_avx512, isa = "avx512";
  else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) kernel = run_avx2, isa = "avx2";

  std::vector<float> sinks(size_t(threads) * 16);
  for (int t = 1; t <= threads; ++t) {
    // t threads at once: the per-core figure is the slowest thread's rate (shared
    // frequency and power limits lower it when more cores are busy).
    std::vector<double> rate(static_cast<size_t>(t), 0.0);
    std::vector<std::thread> pool;
    for (int i = 0; i < t; ++i)
      pool.emplace_back([&, i] { rate[size_t(i)] = measure(kernel, seconds, &sinks[size_t(i) * 16]); });
    for (auto& th : pool) th.join();
    double low = rate[0], total = 0;
    for (double r : rate) low = r < low ? r : low, total += r;
    std::printf("fma peak: %s, %d threads, %.1f GFLOP/s per core, %.1f GFLOP/s total\n", isa.c_str(), t, low,
                total);
  }
  float s = 0;
  for (float v : sinks) s += v;
  std::fprintf(stderr, "\n(checksum %g)\n", double(s));
  return 0;
}
