// The tile benchmarks' verdict on the tile rules: for each family of benchmarks (one
// convolution or product at one batch size, timed with several tiles; bundle.cpp names
// them `<family>_t<M>x<N>[_warp][_chosen]_blk<threads>`, `<family>_block...` (`block8`: 8 x 8
// outputs a thread, `block128`: 128 x 128 blocks, `block8p`: reading ahead, `block32ps8`:
// 32 x 32 blocks reading ahead, k split in 8) or
// `<family>_mma...`, the tensor cores), the tile the
// lowering's rule picks (`_chosen`) against the fastest one timed, launch block sizes
// included. relay_gpu_check prints
// it after the benchmarks, so that a GPU run says at once which rule to change.
// Header-only C++17: it is compiled on the GPU machine with relay_gpu_check.
#pragma once

#include <cctype>
#include <map>
#include <string>
#include <vector>

namespace relay::gpu_check {

struct TileTiming {
  std::string name;  // the benchmark's name
  double ms = 0;
};

struct TileVerdict {
  std::string family;
  std::string chosen, fastest;  // tile labels (`t4x7`, `t1x1_warp`, `block`, `mma`); chosen
                                // empty when no variant of the family is marked
  double chosen_ms = 0, fastest_ms = 0;
  // The rule's tile is more than `slack` slower than the fastest.
  bool loses(double slack = 1.10) const { return !chosen.empty() && chosen_ms > fastest_ms * slack; }
};

struct TileName {
  std::string family, tile;  // family empty: not a tile benchmark
  bool chosen = false;
};

// Splits a benchmark name, `<family>_<tile>[_warp][_chosen][_blk<threads>]` as bundle.cpp
// writes it (the tile `t<M>x<N>`, `block`, `block8`, `block128`, `block32`, each with a
// `p` (read ahead) and/or `s<N>` (k split in N), or `mma`, with or without `s<N>`, or
// `wino` (Winograd's convolution), with or without `s<N>`; `_blk`
// a launch's block size), at its tile:
// the last part that is one. The tile's label keeps `_warp` and `_blk<threads>`.
inline TileName parse_tile_name(const std::string& name) {
  std::vector<std::string> parts;
  for (size_t at = 0;;) {
    const size_t next = name.find('_', at);
    parts.push_back(name.substr(at, next == std::string::npos ? std::string::npos : next - at));
    if (next == std::string::npos) break;
    at = next + 1;
  }
  auto digits = [](const std::string& s, size_t from, size_t to) {
    if (from >= to || to > s.size()) return false;
    for (size_t i = from; i < to; ++i)
      if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    return true;
  };
  auto is_tile = [&](const std::string& p) {
    for (const char* block : {"block", "block8", "block128", "block32", "mma"})
      for (const char* ahead : {"", "p"}) {
        const std::string label = std::string(block) + ahead;
        if (label == "mmap") continue;  // the tensor cores do not read ahead
        if (p == label) return true;
        // k split in N parts: `s<N>` after the block's label
        if (p.size() > label.size() + 1 && p.compare(0, label.size(), label) == 0 && p[label.size()] == 's' &&
            digits(p, label.size() + 1, p.size()))
          return true;
      }
    // Winograd's F(2 x 2, 3 x 3), its input channels split in N parts or not
    if (p == "wino" || (p.rfind("winos", 0) == 0 && digits(p, 5, p.size()))) return true;
    const size_t x = p.find('x');
    return p.size() > 3 && p[0] == 't' && x != std::string::npos && digits(p, 1, x) && digits(p, x + 1, p.size());
  };
  for (size_t i = parts.size(); i-- > 1;) {  // a family has at least one part
    if (!is_tile(parts[i])) continue;
    TileName r;
    r.tile = parts[i];
    for (size_t j = i + 1; j < parts.size(); ++j) {
      const std::string& q = parts[j];
      if (q == "chosen") r.chosen = true;
      else if (q == "warp" || (q.rfind("blk", 0) == 0 && digits(q, 3, q.size()))) r.tile += "_" + q;
      else return TileName{};  // not a name bundle.cpp writes
    }
    for (size_t j = 0; j < i; ++j) r.family += (j ? "_" : "") + parts[j];
    return r;
  }
  return TileName{};
}

// One verdict per family with at least two tiles timed, in the order families first appear.
inline std::vector<TileVerdict> audit_tiles(const std::vector<TileTiming>& timings) {
  std::vector<TileVerdict> out;
  std::vector<int> timed;  // tiles timed, per verdict in `out`
  std::map<std::string, size_t> index;
  for (const TileTiming& t : timings) {
    const TileName n = parse_tile_name(t.name);
    if (n.family.empty()) continue;
    auto [it, fresh] = index.emplace(n.family, out.size());
    if (fresh) {
      out.push_back(TileVerdict{n.family, "", n.tile, 0, t.ms});
      timed.push_back(0);
    }
    TileVerdict& v = out[it->second];
    ++timed[it->second];
    if (t.ms < v.fastest_ms) {
      v.fastest = n.tile;
      v.fastest_ms = t.ms;
    }
    if (n.chosen) {
      v.chosen = n.tile;
      v.chosen_ms = t.ms;
    }
  }
  std::vector<TileVerdict> kept;
  for (size_t i = 0; i < out.size(); ++i)
    if (timed[i] >= 2) kept.push_back(std::move(out[i]));
  return kept;
}

}  // namespace relay::gpu_check
