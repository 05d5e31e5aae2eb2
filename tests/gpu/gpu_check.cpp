// relay_gpu_check: runs a bundle from relay_gpu_bundle on an NVIDIA GPU and compares every
// kernel's output with the interpreter's (tests/gpu/README.md). It needs only the C++
// standard library, dlopen and the project's CUDA layer (compiler/cuda), so
// scripts/gpu-check.sh builds it on a GPU machine that has a compiler and a driver but
// none of this project's dependencies.
//
//   relay_gpu_check BUNDLE [--verify] [--device N] [--filter TEXT]
//
// --verify reads the bundle and checks it is complete without a GPU (CI does this).
// Exit status: 0 every case passed, 1 a case failed, 2 usage or a broken bundle, 77 no
// GPU (nothing was run).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/cuda/device.h"
#include "tests/gpu/tile_agreement.h"
#include "tests/gpu/tile_audit.h"

namespace {

using relay::cuda::Buffer;
using relay::cuda::Device;
using relay::gpu_check::element;
using relay::gpu_check::element_bytes;

struct Tensor {
  std::string dtype;
  size_t bytes = 0;
  long long offset = -1;  // into data.bin; -1: not compared
};

struct Case {
  std::string name;
  int module = 0;
  std::string entry;
  uint64_t grid = 1;
  unsigned block = 1;
  int status = -1;  // expected status flag: -1 none, 0 or 1
  double rtol = 1e-5;  // float32/float64 outputs
  double atol = -1;    // -1: the tensor's scale's (compare)
  std::vector<Tensor> inputs;
  Tensor output;
};

struct Bench {
  std::string name;
  int module = 0;
  std::string entry;
  uint64_t grid = 1;
  unsigned block = 1;
  std::vector<size_t> input_bytes;
  size_t output_bytes = 0;
  double flops = 0;  // > 0: a compute benchmark, reported in GFLOP/s
  std::string dtype;  // a tile benchmark's: its inputs are seeded random values of it, and
                      // its output must agree with its family's first (tile_agreement.h)
  // A kernel split along k: it writes partial sums to a workspace of workspace_bytes in
  // place of the output, and `finish_entry` (parameters [workspace, output]) adds them
  // into the output; both are timed, one after the other.
  std::string finish_entry;
  uint64_t finish_grid = 1;
  unsigned finish_block = 1;
  size_t workspace_bytes = 0;
};

struct Bundle {
  int arch = 0;
  std::vector<std::string> module_files;
  std::vector<Case> cases;
  std::vector<Bench> benches;
  size_t copy_bytes = 0;
  std::string data;  // data.bin
};

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  out = s.str();
  return true;
}

// Reads and checks the bundle: every record well-formed, every offset inside data.bin,
// every module file present. Returns an error message or "".
std::string load(const std::string& dir, Bundle& b, std::vector<std::string>& ptx) {
  std::string manifest;
  if (!read_file(dir + "/manifest.txt", manifest)) return "cannot read " + dir + "/manifest.txt";
  if (!read_file(dir + "/data.bin", b.data)) return "cannot read " + dir + "/data.bin";
  std::istringstream lines(manifest);
  std::string line;
  int number = 0;
  Case* open = nullptr;
  while (std::getline(lines, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    std::string kind;
    f >> kind;
    auto bad = [&](const std::string& why) { return "manifest.txt:" + std::to_string(number) + ": " + why; };
    if (kind == "arch") {
      f >> b.arch;
    } else if (kind == "module") {
      std::string name, file;
      f >> name >> file;
      std::string text;
      if (!read_file(dir + "/" + file, text)) return bad("cannot read " + file);
      b.module_files.push_back(file);
      ptx.push_back(std::move(text));
    } else if (kind == "case") {
      Case c;
      f >> c.name >> c.module >> c.entry >> c.grid >> c.block >> c.status >> c.rtol >> c.atol;
      if (!f || c.module < 0 || c.module >= static_cast<int>(ptx.size())) return bad("a malformed case");
      b.cases.push_back(std::move(c));
      open = &b.cases.back();
    } else if (kind == "in" || kind == "out") {
      if (!open) return bad("`" + kind + "` outside a case");
      Tensor t;
      std::string offset;
      f >> t.dtype >> t.bytes >> offset;
      if (!f) return bad("a malformed tensor");
      t.offset = offset == "-" ? -1 : std::stoll(offset);
      if (t.offset >= 0 && static_cast<size_t>(t.offset) + t.bytes > b.data.size()) return bad("data past data.bin's end");
      (kind == "in" ? open->inputs.emplace_back() : open->output) = t;
    } else if (kind == "end") {
      open = nullptr;
    } else if (kind == "bench") {
      Bench x;
      size_t n = 0;
      f >> x.name >> x.module >> x.entry >> x.grid >> x.block >> n;
      x.input_bytes.resize(n);
      for (size_t& s : x.input_bytes) f >> s;
      f >> x.output_bytes;
      if (!f || x.module < 0 || x.module >= static_cast<int>(ptx.size())) return bad("a malformed bench");
      if (!(f >> x.flops)) x.flops = 0;  // optional, and the dtype after it, and a finish after that
      else f >> x.dtype;
      std::string then;
      if (f >> then) {
        if (then != "then" || !(f >> x.finish_entry >> x.finish_grid >> x.finish_block >> x.workspace_bytes))
          return bad("a malformed finish of a bench (`then ENTRY GRID BLOCK WORKSPACE_BYTES`)");
      }
      if (x.dtype.empty() && !relay::gpu_check::parse_tile_name(x.name).family.empty())
        return bad("a tile benchmark without its dtype, so its output could not be checked (a bundle from before "
                   "tile_agreement.h: run `scripts/gpu-check.sh prepare` again)");
      b.benches.push_back(std::move(x));
    } else if (kind == "copy") {
      f >> b.copy_bytes;
    } else {
      return bad("unknown record `" + kind + "`");
    }
  }
  if (open) return "manifest.txt: the last case has no `end`";
  if (b.cases.empty()) return "the bundle has no cases";
  return "";
}

// "" when `got` matches `want`, else the first mismatch. Floats: both NaN, the same
// infinity, or |got - want| <= rtol * (|want| + floor): floor is atol / rtol where the case
// gives atol (a product's bound: rtol * |want| + atol), else scale * 2^-23, scale being the
// largest finite |want| of the tensor (an element near zero after cancellation is held to
// the tensor's scale); float16/bfloat16 at least one unit of their precision. Everything
// else bit for bit. `worst`: the largest |got - want| / (|want| + floor) that passed.
std::string compare(const std::string& dtype, const char* want, const char* got, size_t bytes, double rtol, double atol,
                    double& worst) {
  const bool is_float = dtype.rfind("float", 0) == 0 || dtype == "bfloat16";
  if (!is_float) {
    for (size_t i = 0; i < bytes; ++i)
      if (want[i] != got[i]) return "byte " + std::to_string(i) + " differs";
    return "";
  }
  const size_t n = bytes / element_bytes(dtype);
  double scale = 0;
  for (size_t i = 0; i < n; ++i) {
    const double w = element(dtype, want, i);
    if (std::isfinite(w)) scale = std::max(scale, std::fabs(w));
  }
  const double floor = std::max(atol >= 0 ? atol / rtol : scale * std::ldexp(1.0, -23), 1e-30);
  if (dtype == "float16") rtol = std::max(rtol, 1e-3);
  if (dtype == "bfloat16") rtol = std::max(rtol, 8e-3);
  for (size_t i = 0; i < n; ++i) {
    const double w = element(dtype, want, i), g = element(dtype, got, i);
    if (std::isnan(w) || std::isnan(g)) {
      if (std::isnan(w) != std::isnan(g)) return "element " + std::to_string(i) + ": want " + std::to_string(w) + ", got " + std::to_string(g);
      continue;
    }
    if (w == g) continue;
    const double err = std::fabs(w - g) / (std::fabs(w) + floor);
    worst = std::max(worst, std::isinf(err) ? 1e30 : err);
    if (std::isinf(w) || std::isinf(g) || err > rtol)
      return "element " + std::to_string(i) + ": want " + std::to_string(w) + ", got " + std::to_string(g);
  }
  return "";
}

// Every byte of a benchmark's inputs: float32 0x3c3c3c3c is 0.0115, finite and not zero
// (zeros can run faster than real data), and stays finite through the benchmarks' sums.
constexpr unsigned char kBenchByte = 0x3c;

int run(const Bundle& b, const std::vector<std::string>& ptx, Device& gpu, const std::string& filter) {
  std::vector<relay::cuda::Module> modules;
  for (size_t i = 0; i < ptx.size(); ++i) {
    try {
      modules.push_back(gpu.load_ptx(ptx[i]));
    } catch (const std::exception& e) {
      std::printf("FAIL module %s does not load: %s\n", b.module_files[i].c_str(), e.what());
      return 1;
    }
  }
  std::map<std::string, std::pair<int, int>> by_group;  // "op", model name -> passed, failed
  double worst = 0;
  int failed = 0, passed = 0;
  for (const Case& c : b.cases) {
    if (!filter.empty() && c.name.find(filter) == std::string::npos) continue;
    const std::string group = c.name.substr(0, c.name.find('_'));
    std::string problem;
    try {
      std::vector<Buffer> buffers;
      std::vector<relay::cuda::CUdeviceptr> args;
      for (const Tensor& t : c.inputs) {
        buffers.push_back(gpu.alloc(t.bytes));
        gpu.upload(buffers.back(), b.data.data() + t.offset, t.bytes);
        args.push_back(buffers.back().ptr);
      }
      buffers.push_back(gpu.alloc(c.output.bytes));
      gpu.fill_zero(buffers.back(), c.output.bytes);
      args.push_back(buffers.back().ptr);
      const size_t out_index = buffers.size() - 1;
      if (c.status >= 0) {
        buffers.push_back(gpu.alloc(4));
        gpu.fill_zero(buffers.back(), 4);
        args.push_back(buffers.back().ptr);
      }
      gpu.launch(modules[static_cast<size_t>(c.module)].function(c.entry), c.grid, c.block, args);
      std::string got(c.output.bytes, '\0');
      gpu.download(got.data(), buffers[out_index], c.output.bytes);
      int32_t status = 0;
      if (c.status >= 0) gpu.download(&status, buffers.back(), 4);
      gpu.synchronize();
      if (c.status >= 0 && status != c.status)
        problem = "status flag " + std::to_string(status) + ", want " + std::to_string(c.status);
      else if (c.output.offset >= 0 && c.status != 1)
        problem = compare(c.output.dtype, b.data.data() + c.output.offset, got.data(), c.output.bytes, c.rtol, c.atol,
                          worst);
    } catch (const std::exception& e) {
      problem = e.what();
    }
    auto& count = by_group[group];
    if (problem.empty()) ++passed, ++count.first;
    else {
      ++failed, ++count.second;
      std::printf("FAIL %s: %s\n", c.name.c_str(), problem.c_str());
    }
  }
  for (const auto& [group, count] : by_group)
    std::printf("%-16s %4d passed, %d failed\n", group.c_str(), count.first, count.second);
  std::printf("cases: %d passed, %d failed; largest relative difference of a passing float %.3g\n", passed, failed,
              worst);

  // Benchmarks: device time of the kernel (best of 10) against a device-to-device copy.
  if (filter.empty() && b.copy_bytes > 0) {
    try {
      Device::Timer timer(gpu);
      Buffer src = gpu.alloc(b.copy_bytes), dst = gpu.alloc(b.copy_bytes);
      gpu.fill(src, kBenchByte, b.copy_bytes);
      double copy_ms = 1e30;
      for (int r = 0; r < 10; ++r) {
        timer.start();
        gpu.copy(dst, src, b.copy_bytes);
        copy_ms = std::min(copy_ms, timer.stop());
      }
      const double copy_gbs = 2.0 * static_cast<double>(b.copy_bytes) / copy_ms / 1e6;
      std::printf("bench device copy %zu MiB: %.3f ms, %.0f GB/s (read + write)\n", b.copy_bytes >> 20, copy_ms, copy_gbs);
      std::vector<relay::gpu_check::TileTiming> timings;
      // The family whose inputs and first output are held (a family's benchmarks are
      // consecutive): the tiles' check of correctness.
      std::string family, family_first;
      std::vector<std::string> family_inputs;
      std::string family_output;
      int tiles_agreeing = 0;
      for (const Bench& x : b.benches) {
        const relay::gpu_check::TileName tile = relay::gpu_check::parse_tile_name(x.name);
        const bool checked = !x.dtype.empty() && !tile.family.empty();
        if (checked && tile.family != family) {
          family = tile.family, family_first = x.name;
          family_inputs.clear();
          family_output.clear();
          for (size_t i = 0; i < x.input_bytes.size(); ++i)
            family_inputs.push_back(relay::gpu_check::random_input(x.dtype, x.input_bytes[i], 0x5eed + i));
        }
        std::vector<Buffer> buffers;
        std::vector<relay::cuda::CUdeviceptr> args;
        size_t moved = x.output_bytes;
        for (size_t i = 0; i < x.input_bytes.size(); ++i) {
          const size_t s = x.input_bytes[i];
          buffers.push_back(gpu.alloc(s));
          if (checked && i < family_inputs.size() && family_inputs[i].size() == s) gpu.upload(buffers.back(), family_inputs[i].data(), s);
          else gpu.fill(buffers.back(), kBenchByte, s);
          args.push_back(buffers.back().ptr);
          moved += s;
        }
        // a split kernel's partial sums, then its output (the last buffer)
        std::vector<relay::cuda::CUdeviceptr> finish_args;
        if (!x.finish_entry.empty()) {
          buffers.push_back(gpu.alloc(x.workspace_bytes));
          finish_args.push_back(buffers.back().ptr);
        }
        buffers.push_back(gpu.alloc(x.output_bytes));
        args.push_back(x.finish_entry.empty() ? buffers.back().ptr : finish_args[0]);
        finish_args.push_back(buffers.back().ptr);
        const auto f = modules[static_cast<size_t>(x.module)].function(x.entry);
        const auto finish =
            x.finish_entry.empty() ? f : modules[static_cast<size_t>(x.module)].function(x.finish_entry);
        double ms = 1e30;
        for (int r = 0; r < 10; ++r) {
          timer.start();
          gpu.launch(f, x.grid, x.block, args);
          if (!x.finish_entry.empty()) gpu.launch(finish, x.finish_grid, x.finish_block, finish_args);
          ms = std::min(ms, timer.stop());
        }
        const double gbs = static_cast<double>(moved) / ms / 1e6;
        if (x.flops > 0)
          std::printf("bench %s: %.3f ms, %.0f GFLOP/s\n", x.name.c_str(), ms, x.flops / ms / 1e6);
        else
          std::printf("bench %s: %.3f ms, %.0f GB/s, %.2f of the copy's bandwidth (target >= 0.80)\n", x.name.c_str(),
                      ms, gbs, gbs / copy_gbs);
        timings.push_back({x.name, ms});
        if (checked) {
          std::string out(x.output_bytes, '\0');
          gpu.download(out.data(), buffers.back(), x.output_bytes);
          gpu.synchronize();
          if (family_output.empty()) {
            family_output = std::move(out);
          } else if (const std::string problem = relay::gpu_check::agree(x.dtype, family_output.data(), out.data(),
                                                                          std::min(out.size(), family_output.size()));
                     !problem.empty()) {
            std::printf("FAIL tile %s: differs from %s: %s\n", x.name.c_str(), family_first.c_str(), problem.c_str());
            ++failed;
          } else {
            ++tiles_agreeing;
          }
        }
      }
      std::printf("tiles: %d benchmarks agree with their family's first tile (tile_agreement.h)\n", tiles_agreeing);
      // Which tile rule to change: each family's chosen tile against its fastest.
      for (const relay::gpu_check::TileVerdict& v : relay::gpu_check::audit_tiles(timings))
        std::printf("tile %s: chosen %s %.3f ms, fastest %s %.3f ms (%.2fx)%s\n", v.family.c_str(),
                    v.chosen.empty() ? "(none)" : v.chosen.c_str(), v.chosen_ms, v.fastest.c_str(), v.fastest_ms,
                    v.fastest_ms > 0 && !v.chosen.empty() ? v.chosen_ms / v.fastest_ms : 0.0,
                    v.loses() ? "  RULE LOSES" : "");
    } catch (const std::exception& e) {
      std::printf("FAIL bench: %s\n", e.what());
      ++failed;
    }
  }
  return failed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir, filter;
  bool verify = false;
  int ordinal = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--verify") verify = true;
    else if (a == "--device" && i + 1 < argc) ordinal = std::atoi(argv[++i]);
    else if (a == "--filter" && i + 1 < argc) filter = argv[++i];
    else if (!a.empty() && a[0] != '-' && dir.empty()) dir = a;
    else {
      std::fprintf(stderr, "usage: relay_gpu_check BUNDLE [--verify] [--device N] [--filter TEXT]\n");
      return 2;
    }
  }
  if (dir.empty()) {
    std::fprintf(stderr, "usage: relay_gpu_check BUNDLE [--verify] [--device N] [--filter TEXT]\n");
    return 2;
  }
  Bundle b;
  std::vector<std::string> ptx;
  if (std::string error = load(dir, b, ptx); !error.empty()) {
    std::fprintf(stderr, "relay_gpu_check: %s\n", error.c_str());
    return 2;
  }
  size_t checked_tiles = 0;  // tile benchmarks whose outputs are checked (tile_agreement.h)
  for (const Bench& x : b.benches) checked_tiles += !x.dtype.empty() && !relay::gpu_check::parse_tile_name(x.name).family.empty();
  std::printf("bundle: %zu modules, %zu cases, %zu benchmarks (%zu tiles checked), %.1f MiB of data, sm_%d\n", ptx.size(),
              b.cases.size(), b.benches.size(), checked_tiles, static_cast<double>(b.data.size()) / (1 << 20), b.arch);
  if (verify) return 0;
  std::string why;
  std::unique_ptr<Device> gpu = Device::open(ordinal, &why);
  if (!gpu) {
    std::printf("relay_gpu_check: no GPU: %s\n", why.c_str());
    return 77;
  }
  const auto& info = gpu->info();
  std::printf("device %d: %s, sm_%d, %d SMs, %.1f GiB, driver %d.%d\n", info.ordinal, info.name.c_str(), info.sm,
              info.multiprocessors, static_cast<double>(info.memory_bytes) / (1u << 30), info.driver_version / 1000,
              info.driver_version % 1000 / 10);
  return run(b, ptx, *gpu, filter);
}
