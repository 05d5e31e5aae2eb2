// Timing the candidate tiles of products and convolutions on the GPU (tile_tuner.h).
#include "compiler/pipeline/tile_tuner.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace relay::compiler {

namespace {

constexpr const char* kCacheHeader =
    "# relay: GPU tiles measured by `relay run --device=cuda --tune-tiles` (compiler/pipeline/tile_tuner.h)\n"
    "# GPU, compute capability, shape, fastest tile, its ms, the rule's tile, its ms\n";

// Launches for about this much device time make one timed round (at least 1, at most
// kMaxReps).
constexpr double kRoundMs = 1.0;
constexpr int kMaxReps = 50;

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream s(line);
  for (std::string f; std::getline(s, f, '\t');) fields.push_back(f);
  return fields;
}

std::string format_ms(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", ms);
  return buf;
}

}  // namespace

std::string TileTuner::default_cache_file() {
  if (const char* f = std::getenv("RELAY_TILE_CACHE")) return f;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/relay/gpu-tiles.tsv";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/relay/gpu-tiles.tsv";
  return {};
}

std::string TileTuner::trial_entry(const GpuMaster& master, size_t tile) {
  return master.kernel_name + "_try_" + master.tile_label(tile);
}

TileTuner::TileTuner(cuda::Device& gpu, std::string cache_file) : gpu_(gpu), cache_file_(std::move(cache_file)) {
  read_cache();
}

std::string TileTuner::device_key() const { return gpu_.info().name + "\tsm" + std::to_string(gpu_.info().sm); }

void TileTuner::read_cache() {
  if (cache_file_.empty()) return;
  std::ifstream in(cache_file_);
  if (!in) return;  // not written yet
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = split_tabs(line);
    if (f.size() != 7) continue;  // not a line of ours: passed over
    Known k;
    k.tile = f[3], k.rule_tile = f[5];
    k.ms = std::strtod(f[4].c_str(), nullptr), k.rule_ms = std::strtod(f[6].c_str(), nullptr);
    known_[f[0] + "\t" + f[1] + "\t" + f[2]] = k;  // a later line wins
  }
}

void TileTuner::append_cache(const std::string& key, const Known& k) {
  if (cache_file_.empty()) return;
  std::error_code ec;
  const std::filesystem::path path(cache_file_);
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  const bool fresh = !std::filesystem::exists(path, ec);
  std::ofstream out(cache_file_, std::ios::app);
  if (!out) {
    cache_problem_ = "cannot write " + cache_file_;
    return;
  }
  if (fresh) out << kCacheHeader;
  out << device_key() << '\t' << key << '\t' << k.tile << '\t' << format_ms(k.ms) << '\t' << k.rule_tile << '\t'
      << format_ms(k.rule_ms) << '\n';
}

size_t TileTuner::choose(const GpuMaster& master, const gpu::PtxTarget& target) {
  const size_t n = master.tiles();
  if (n <= 1) return 0;
  const std::string key = master.key();
  Choice c;
  c.key = key;
  const auto at = known_.find(device_key() + "\t" + key);
  if (at != known_.end())
    for (size_t i = 0; i < n; ++i)
      if (master.tile_label(i) == at->second.tile) {
        c.tile = at->second.tile, c.ms = at->second.ms, c.rule_tile = at->second.rule_tile, c.rule_ms = at->second.rule_ms;
        if (std::none_of(choices_.begin(), choices_.end(), [&](const Choice& o) { return o.key == key; }))
          choices_.push_back(c);
        return i;
      }
  Known k;
  const size_t best = measure(master, target, k, c.tried);
  known_[device_key() + "\t" + key] = k;
  if (c.tried > 0) append_cache(key, k);
  c.tile = k.tile, c.ms = k.ms, c.rule_tile = k.rule_tile, c.rule_ms = k.rule_ms;
  choices_.push_back(c);
  return best;
}

std::vector<std::string> TileTuner::describe(const std::vector<std::string>& keys) const {
  std::vector<std::string> lines;
  size_t timed = 0, cached = 0, changed = 0;
  for (const std::string& key : keys) {
    const auto c = std::find_if(choices_.begin(), choices_.end(), [&](const Choice& o) { return o.key == key; });
    if (c == choices_.end()) continue;
    if (c->tried == 0 && c->ms == 0) {  // measured, but no candidate ran
      lines.push_back("tile " + key + ": " + c->tile + ", the rule's, untimed (its candidates did not load here)");
      continue;
    }
    (c->tried > 0 ? timed : cached) += 1;
    changed += c->tile != c->rule_tile;
    std::string line = "tile " + key + ": " + c->tile + " " + format_ms(c->ms) + " ms";
    if (c->tile != c->rule_tile)
      line += "; the rule's " + c->rule_tile + " " + format_ms(c->rule_ms) + " ms" +
              (c->ms > 0 ? " (" + format_ms(c->rule_ms / c->ms).substr(0, 4) + "x)" : std::string());
    else
      line += ", the rule's";
    if (c->tried > 0) line += ", of " + std::to_string(c->tried) + " timed";
    else line += ", from the cache";
    lines.push_back(std::move(line));
  }
  std::string heading = "tiles measured on the GPU (--tune-tiles): " + std::to_string(lines.size()) +
                        " products and convolutions, " + std::to_string(timed) + " timed now, " +
                        std::to_string(cached) + " from " + (cache_file_.empty() ? "this run" : cache_file_) + "; " +
                        std::to_string(changed) + " differ from the rules'";
  if (!cache_problem_.empty()) heading += " (" + cache_problem_ + ")";
  lines.insert(lines.begin(), std::move(heading));
  return lines;
}

size_t TileTuner::measure(const GpuMaster& master, const gpu::PtxTarget& target, Known& k, size_t& tried) {
  k.tile = k.rule_tile = master.tile_label(0);
  // Every candidate that lowers, in one module (gpu_master listed only those the target runs).
  std::vector<NativePlan> plans;
  std::vector<size_t> index;
  for (size_t i = 0; i < master.tiles(); ++i) {
    std::string why;
    if (auto p = plan_gpu_master(master, i, &why, trial_entry(master, i))) {
      plans.push_back(std::move(*p));
      index.push_back(i);
    }
  }
  if (plans.size() < 2) return 0;
  // each candidate's kernel, then its finish when k is split (finish_entry: -1 when not)
  std::vector<const loops::Kernel*> kernels;
  std::vector<int> entry, finish_entry;
  size_t workspace_bytes = 0;
  for (const NativePlan& p : plans) {
    entry.push_back(static_cast<int>(kernels.size()));
    kernels.push_back(&p.kernel);
    finish_entry.push_back(p.finish ? static_cast<int>(kernels.size()) : -1);
    if (p.finish) kernels.push_back(&*p.finish);
    workspace_bytes = std::max(workspace_bytes, p.workspace_bytes);
  }
  gpu::PtxModule ptx;
  cuda::Module module;
  try {
    ptx = gpu::emit_ptx(kernels, target);
    module = gpu_.load_ptx(ptx.ptx);
  } catch (const std::exception&) {
    return 0;  // the rule's tile, untimed
  }
  const std::vector<size_t> bytes = master.buffer_bytes();
  std::vector<cuda::Buffer> buffers;
  for (size_t b = 0; b < bytes.size(); ++b) {
    buffers.push_back(gpu_.alloc(std::max<size_t>(bytes[b], 1)));
    if (b + 1 < bytes.size()) gpu_.fill(buffers.back(), 0x3c, bytes[b]);  // about 0.01 (or 1 in float16) each
  }
  std::vector<cuda::CUdeviceptr> args;
  for (const cuda::Buffer& b : buffers) args.push_back(b.ptr);
  // a split candidate writes its parts' sums here, and its finish adds them into the output
  // (none without a split candidate)
  std::optional<cuda::Buffer> workspace;
  if (workspace_bytes > 0) workspace = gpu_.alloc(workspace_bytes);
  std::vector<cuda::CUdeviceptr> split_args = args, finish_args;
  if (workspace) {
    split_args.back() = workspace->ptr;
    finish_args = {workspace->ptr, args.back()};
  }
  size_t best = 0;
  double best_ms = 0;
  for (size_t c = 0; c < plans.size(); ++c) {
    // the candidate's launches: its kernel, and its finish when it has one
    struct Run {
      cuda::CUfunction fn;
      gpu::PtxLaunch launch;
      const std::vector<cuda::CUdeviceptr>* args;
    };
    std::vector<Run> runs;
    double ms = 0;
    try {
      for (int e : {entry[c], finish_entry[c]}) {
        if (e < 0) continue;
        const gpu::PtxKernelInfo& info = ptx.kernels[static_cast<size_t>(e)];
        const bool finish = e == finish_entry[c];
        runs.push_back({module.function(info.entry), gpu::launch_for(info, gpu_.info().multiprocessors),
                        finish ? &finish_args : finish_entry[c] >= 0 ? &split_args : &args});
      }
      auto launch = [&] {
        for (const Run& r : runs) gpu_.launch(r.fn, r.launch.grid, r.launch.block, *r.args);
      };
      launch();  // warm-up (a lazily loaded kernel loads here)
      gpu_.synchronize();
      cuda::Device::Timer timer(gpu_);
      timer.start();
      launch();  // an estimate, for the rounds' length
      const double first = timer.stop();
      const int reps = std::clamp(static_cast<int>(kRoundMs / std::max(first, 1e-3)), 1, kMaxReps);
      for (int round = 0; round < 2; ++round) {
        timer.start();
        for (int r = 0; r < reps; ++r) launch();
        const double each = timer.stop() / reps;
        ms = round == 0 ? each : std::min(ms, each);
      }
    } catch (const cuda::DriverError&) {
      continue;  // this tile does not run here (too many registers for the block, ...)
    }
    ++tried;
    if (index[c] == 0) k.rule_ms = ms;
    if (tried == 1 || ms < best_ms) best = index[c], best_ms = ms;
  }
  if (tried == 0) return 0;
  k.tile = master.tile_label(best);
  k.ms = best_ms;
  return best;
}

}  // namespace relay::compiler
