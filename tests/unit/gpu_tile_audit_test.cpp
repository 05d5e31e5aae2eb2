// tests/gpu/tile_audit.h: the tile benchmarks' verdict that relay_gpu_check prints on a
// GPU machine, checked here on names as bundle.cpp writes them.
#include <catch2/catch.hpp>

#include "tests/gpu/tile_audit.h"

using relay::gpu_check::audit_tiles;
using relay::gpu_check::parse_tile_name;

TEST_CASE("tile benchmark names split into family, tile and the rule's mark", "[gpu][tile-audit]") {
  struct Case {
    const char *name, *family, *tile;
    bool chosen;
  };
  for (const Case& c : {Case{"conv_l2_b1_t1x1_warp_chosen_blk256", "conv_l2_b1", "t1x1_warp_blk256", true},
                        Case{"conv_l1_b1_t4x7_blk32", "conv_l1_b1", "t4x7_blk32", false},
                        Case{"bmm_16x512_t1x1", "bmm_16x512", "t1x1", false},  // `_16x512` is the family's
                        Case{"dense_4096_block_chosen", "dense_4096", "block", true},
                        Case{"conv_l4_f16_b1_mma_chosen_blk256", "conv_l4_f16_b1", "mma_blk256", true},
                        Case{"dense_4096_block8_chosen_blk64", "dense_4096", "block8_blk64", true},
                        Case{"conv_l2_b32_block128_blk256", "conv_l2_b32", "block128_blk256", false},
                        Case{"conv_l1_b32_block8p_blk64", "conv_l1_b32", "block8p_blk64", false},
                        Case{"dense_4096_block128p_blk256", "dense_4096", "block128p_blk256", false},
                        Case{"conv_l4_b1_block32_blk64", "conv_l4_b1", "block32_blk64", false},
                        Case{"conv_l4_b1_block32ps16_blk64", "conv_l4_b1", "block32ps16_blk64", false},
                        Case{"conv_l3_f16_b1_blocks9_blk256", "conv_l3_f16_b1", "blocks9_blk256", false},
                        Case{"conv_l4_f16_b1_mmas16_blk256", "conv_l4_f16_b1", "mmas16_blk256", false},
                        Case{"conv_l2_b32_wino_blk256", "conv_l2_b32", "wino_blk256", false},
                        Case{"conv_l4_b1_winos8", "conv_l4_b1", "winos8", false}}) {
    INFO(c.name);
    const auto n = parse_tile_name(c.name);
    CHECK(n.family == c.family);
    CHECK(n.tile == c.tile);
    CHECK(n.chosen == c.chosen);
  }
  CHECK(parse_tile_name("chain_relu_add").family.empty());
  CHECK(parse_tile_name("dense_b1_f16").family.empty());
  CHECK(parse_tile_name("conv_t4x_b1").family.empty());
  CHECK(parse_tile_name("conv_l1_b32_block8q").family.empty());  // only `p` follows a block
  CHECK(parse_tile_name("conv_l1_b1_block32s").family.empty());   // and `s` with a count
  CHECK(parse_tile_name("conv_l1_b1_block32s4x").family.empty());
  CHECK(parse_tile_name("conv_l1_b1_mmap").family.empty());       // the tensor cores do not read ahead
  CHECK(parse_tile_name("conv_l1_b1_winop").family.empty());      // nor Winograd's kernel
  CHECK(parse_tile_name("conv_l1_b1_winos").family.empty());
  CHECK(parse_tile_name("t4x4").family.empty());              // a tile with no family
  CHECK(parse_tile_name("conv_a_t4x4_fast").family.empty());  // an unknown part after the tile
}

TEST_CASE("the audit compares each family's chosen tile with its fastest", "[gpu][tile-audit]") {
  const auto v = audit_tiles({{"conv_a_b1_t1x1_chosen_blk256", 0.50},
                              {"conv_a_b1_t1x1_warp_blk256", 0.20},
                              {"conv_a_b1_t4x7_blk32", 0.90},
                              {"conv_b_b32_t4x7_blk256", 1.00},
                              {"conv_b_b32_block_chosen_blk256", 1.05},
                              {"chain_5_ops_1GiB", 0.10},
                              {"dense_b1_t1x1_chosen_blk256", 0.30}});  // one variant: no verdict
  REQUIRE(v.size() == 2);
  CHECK(v[0].family == "conv_a_b1");
  CHECK(v[0].chosen == "t1x1_blk256");
  CHECK(v[0].fastest == "t1x1_warp_blk256");
  CHECK(v[0].chosen_ms == 0.50);
  CHECK(v[0].loses());
  CHECK(v[1].family == "conv_b_b32");
  CHECK(v[1].fastest == "t4x7_blk256");
  CHECK_FALSE(v[1].loses());  // 5% slower: within the slack
  CHECK(v[1].loses(1.01));
}
