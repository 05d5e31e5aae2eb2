// Measured tiles (`relay run --device=cuda --tune-tiles`): which of a product's or a
// convolution's candidate tiles (gpu_master.h: registers, a warp, shared-memory blocks,
// tensor cores) runs fastest on the GPU at hand, found by timing them all there, once per
// shape, instead of trusting loops' rules, which were set from one GPU's measurements and
// reasoned for the rest. Every candidate computes the same values (each is tested against
// the reference kernels, tests/compiler_jit/gpu_tiles_test.cpp), so the choice changes
// only the speed.
//
// A shape is timed once: its candidates go into one PTX module, each runs on scratch
// buffers of the shape's sizes (inputs of a constant finite value) after a warm-up
// launch (a candidate whose k is split: both its kernels, through a workspace), timed by
// the device's events (one launch for an estimate, then the best of two rounds of enough
// launches for about a millisecond). A candidate the driver refuses to load or launch is
// passed over.
// Choices are remembered for the tuner's life (a session's functions share one) and in a
// cache file, keyed by the GPU's name and compute capability and the shape (GpuMaster::
// key), so a later run reuses them without timing; a line whose tile is no longer a
// candidate is measured again.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "compiler/cuda/device.h"
#include "compiler/llvm/nvptx.h"
#include "compiler/pipeline/gpu_master.h"

namespace relay::compiler {

class TileTuner {
 public:
  struct Choice {
    std::string key;         // GpuMaster::key
    std::string tile;        // the chosen tile's label
    double ms = 0;           // its time
    std::string rule_tile;   // the rule's tile's label, and its time (0: not timed)
    double rule_ms = 0;
    size_t tried = 0;        // candidates timed (0: from the cache)
  };

  // `cache_file`: where choices are read from and appended to; empty: none.
  TileTuner(cuda::Device& gpu, std::string cache_file);

  // The candidate of `master` to take (its index; 0 is the rule's).
  size_t choose(const GpuMaster& master, const gpu::PtxTarget& target);

  // The report's lines for the choices of `keys` (GpuMaster::key): a heading with how many
  // were timed now and how many came from the cache, then a line a shape, e.g.
  // "tile conv2d float32 n32 c64 ...: t4x7 0.1210 ms; the rule's block 0.2000 ms (1.65x)".
  std::vector<std::string> describe(const std::vector<std::string>& keys) const;
  // Every shape chosen so far, in order.
  const std::vector<Choice>& choices() const { return choices_; }
  // Why the cache file could not be read or written (empty when it could).
  const std::string& cache_problem() const { return cache_problem_; }
  const std::string& cache_file() const { return cache_file_; }

  // $RELAY_TILE_CACHE when set (an empty value: no file); else
  // $XDG_CACHE_HOME/relay/gpu-tiles.tsv, else ~/.cache/relay/gpu-tiles.tsv.
  static std::string default_cache_file();
  // The entry under which candidate `tile` of `master` is timed.
  static std::string trial_entry(const GpuMaster& master, size_t tile);

 private:
  struct Known {
    std::string tile, rule_tile;
    double ms = 0, rule_ms = 0;
  };
  std::string device_key() const;  // "NVIDIA H200\tsm90"
  void read_cache();
  void append_cache(const std::string& key, const Known& k);
  // Times every candidate; fills `k`; returns the fastest's index (0 when none ran).
  size_t measure(const GpuMaster& master, const gpu::PtxTarget& target, Known& k, size_t& tried);

  cuda::Device& gpu_;
  std::string cache_file_, cache_problem_;
  std::map<std::string, Known> known_;  // by device_key() + "\t" + GpuMaster::key
  std::vector<Choice> choices_;
};

}  // namespace relay::compiler
