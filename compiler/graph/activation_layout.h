// How a rank-4 activation (an NCHW tensor in Relay) is held in memory between kernels
// (issue 14: one layout through the network). Plain is Relay's own row-major NCHW. A
// kernel library may choose another layout for its convolutions (oneDNN: dense NHWC with
// its `brgconv` kernels on AVX-512, the blocked nChw16c or nChw8c elsewhere), and the layout
// pass (compiler/pipeline/library_layouts.h) then keeps values in it across the compiler's
// own kernels too, which read and write those bytes through layout nodes of their index
// programs. Pure description: no library is named here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace relay::compiler {

struct ActivationLayout {
  enum class Kind : uint8_t {
    Plain,         // NCHW
    ChannelsLast,  // NHWC
    Blocked,       // NCHW<b>c: (N, C / b, H, W, b), channels in blocks of `block`
  };
  Kind kind = Kind::Plain;
  int64_t block = 0;  // Blocked: channels per block

  static ActivationLayout plain() { return {}; }
  static ActivationLayout channels_last() { return {Kind::ChannelsLast, 0}; }
  static ActivationLayout blocked(int64_t block) { return {Kind::Blocked, block}; }

  bool is_plain() const { return kind == Kind::Plain; }
  // Whether a tensor of NCHW shape `nchw` can be held so in the bytes of its plain buffer:
  // rank 4, and whole blocks of channels (no padding).
  bool holds(const std::vector<int64_t>& nchw) const {
    if (nchw.size() != 4) return false;
    return kind != Kind::Blocked || (block > 0 && nchw[1] % block == 0);
  }
  // The shape of the bytes in this layout: (N, H, W, C), or (N, C / b, H, W, b).
  std::vector<int64_t> physical_shape(const std::vector<int64_t>& nchw) const {
    switch (kind) {
      case Kind::ChannelsLast: return {nchw[0], nchw[2], nchw[3], nchw[1]};
      case Kind::Blocked: return {nchw[0], nchw[1] / block, nchw[2], nchw[3], block};
      default: return nchw;
    }
  }
  // TVM's layout string for it ("NCHW", "NHWC", "NCHW16c"): what the index programs'
  // layout nodes (IxKind::Layout) read.
  std::string tvm_name() const {
    switch (kind) {
      case Kind::ChannelsLast: return "NHWC";
      case Kind::Blocked: return "NCHW" + std::to_string(block) + "c";
      default: return "NCHW";
    }
  }
  // For reports: "NHWC", "nChw16c".
  std::string name() const {
    return kind == Kind::Blocked ? "nChw" + std::to_string(block) + "c" : tvm_name();
  }
  friend bool operator==(const ActivationLayout&, const ActivationLayout&) = default;
};

}  // namespace relay::compiler
