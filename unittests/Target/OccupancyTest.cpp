//===- OccupancyTest.cpp - Hand-computed occupancy and register caps ------===//

#include "flipflop/Target/Occupancy.h"
#include "flipflop/Target/GPUDatabase.h"
#include "gtest/gtest.h"

using namespace flipflop;

namespace {

OccupancyResult occ(const char *GPU, unsigned Threads, unsigned Regs,
                    size_t Smem = 0, int Carveout = -1) {
  OccupancyInput In;
  In.BlockThreads = Threads;
  In.RegsPerThread = Regs;
  In.SharedPerBlock = Smem;
  In.CarveoutPercent = Carveout;
  return computeOccupancy(*findGPU(GPU), In);
}

TEST(Occupancy, WarpLimited) {
  // A100: 64 warps / 8 per block = 8 blocks; registers: 32 x 32 = 1024 per
  // warp, 16384 / 1024 = 16 warps per sub-partition x 4 = 64 warps = 8 blocks.
  OccupancyResult R = occ("a100", 256, 32);
  EXPECT_EQ(R.BlocksPerSM, 8u);
  EXPECT_EQ(R.LimitByWarps, 8u);
  EXPECT_EQ(R.LimitByRegs, 8u);
  EXPECT_EQ(R.LimitByBlocks, 32u);
  // 1 KB reserved per block: 167936 / 1024 = 164.
  EXPECT_EQ(R.LimitBySmem, 164u);
  EXPECT_EQ(R.SharedAllocatedPerBlock, 1024u);
  EXPECT_EQ(R.SharedPerSMConfigured, 167936u);
  EXPECT_EQ(R.RegsAllocatedPerBlock, 8192u);
  EXPECT_EQ(R.ActiveWarps, 64u);
  EXPECT_DOUBLE_EQ(R.Occupancy, 1.0);
  EXPECT_EQ(R.Limiter, OccLimiter::Warps);
}

TEST(Occupancy, RegisterLimited) {
  // 64 regs: 2048 per warp, 8 warps per sub-partition, 32 warps = 4 blocks.
  OccupancyResult R = occ("a100", 256, 64);
  EXPECT_EQ(R.BlocksPerSM, 4u);
  EXPECT_EQ(R.Limiter, OccLimiter::Registers);
  EXPECT_DOUBLE_EQ(R.Occupancy, 0.5);
  // 37 regs -> 1184 per warp, rounded up to 1280: 12 warps per sub-partition
  // (not 51 / 4 as a flat division of the file would give).
  R = occ("a100", 32, 37);
  EXPECT_EQ(R.LimitByRegs, 48u);
  // T4, 1024 threads: 64 regs fit exactly (2048 x 32 = 65536); 65 do not.
  EXPECT_EQ(occ("t4", 1024, 64).BlocksPerSM, 1u);
  R = occ("t4", 1024, 65);
  EXPECT_EQ(R.BlocksPerSM, 0u);
  EXPECT_EQ(R.Limiter, OccLimiter::Registers);
  // 992 threads = 31 warps count as 32 in the hardware check: 2048 x 32.
  EXPECT_EQ(occ("t4", 992, 64).BlocksPerSM, 1u);
  EXPECT_EQ(occ("t4", 992, 65).BlocksPerSM, 0u);
  // No registers: no register limit.
  EXPECT_EQ(occ("a100", 256, 0).LimitByRegs, OccNoLimit);
  EXPECT_EQ(occ("a100", 256, 256).BlocksPerSM, 0u);
}

TEST(Occupancy, SharedMemoryLimited) {
  // 48 KB + 1 KB reserved = 50176 B; 167936 / 50176 = 3 blocks; registers
  // would allow 40 regs -> 1280 per warp -> 12 x 4 / 4 = 12 blocks.
  OccupancyResult R = occ("a100", 128, 40, 49152);
  EXPECT_EQ(R.BlocksPerSM, 3u);
  EXPECT_EQ(R.LimitByRegs, 12u);
  EXPECT_EQ(R.Limiter, OccLimiter::SharedMemory);
  EXPECT_DOUBLE_EQ(R.Occupancy, 12.0 / 64);
  // Over the opt-in maximum (163 KB) nothing runs.
  EXPECT_EQ(occ("a100", 128, 32, 166912).BlocksPerSM, 1u);
  EXPECT_EQ(occ("a100", 128, 32, 166913).BlocksPerSM, 0u);
  // Volta: no reservation, 256-byte units, no shared memory -> no limit.
  EXPECT_EQ(occ("v100", 128, 32, 0).LimitBySmem, OccNoLimit);
  EXPECT_EQ(occ("v100", 128, 32, 1).SharedAllocatedPerBlock, 256u);
}

TEST(Occupancy, Carveouts) {
  // 25% of 164 KB = 41984 B -> next legal carveout 64 KB; a block takes
  // 10000 + 1024 -> 11136 B: 65536 / 11136 = 5 blocks.
  OccupancyResult R = occ("a100", 256, 32, 10000, 25);
  EXPECT_EQ(R.SharedPerSMConfigured, 65536u);
  EXPECT_EQ(R.BlocksPerSM, 5u);
  EXPECT_EQ(R.Limiter, OccLimiter::SharedMemory);
  // 50% -> 83968 -> 100 KB: 9 blocks, so the warps limit (8) applies.
  R = occ("a100", 256, 32, 10000, 50);
  EXPECT_EQ(R.SharedPerSMConfigured, 102400u);
  EXPECT_EQ(R.LimitBySmem, 9u);
  // 0% (max L1): one block does not fit in 0 KB, so the smallest carveout
  // holding it (32 KB for 21120 B) is used: 1 block.
  R = occ("a100", 256, 32, 20000, 0);
  EXPECT_EQ(R.SharedPerSMConfigured, 32768u);
  EXPECT_EQ(R.BlocksPerSM, 1u);
  // Turing's smallest carveout is 32 KB.
  EXPECT_EQ(occ("t4", 64, 32, 1000, 0).SharedPerSMConfigured, 32768u);
}

TEST(Occupancy, BlockLimitAndInvalid) {
  // 32-thread blocks with few registers: the 16 blocks/SM of sm_86.
  OccupancyResult R = occ("a10", 32, 16);
  EXPECT_EQ(R.BlocksPerSM, 16u);
  EXPECT_EQ(R.Limiter, OccLimiter::Blocks);
  EXPECT_DOUBLE_EQ(R.Occupancy, 16.0 / 48);
  EXPECT_EQ(occ("a10", 1025, 16).BlocksPerSM, 0u);
  EXPECT_EQ(occ("a10", 1025, 16).Limiter, OccLimiter::Warps);
  EXPECT_EQ(occ("a10", 0, 16).Limiter, OccLimiter::None);
  EXPECT_STREQ(occLimiterName(OccLimiter::SharedMemory), "shared memory");
}

TEST(Occupancy, Heuristic) {
  const GPUSpec &A100 = *findGPU("a100");
  // 32 regs: 1024 threads x 2 blocks fill the SM at the first try.
  HeuristicResult H = occupancyHeuristic(A100, 32, 0, 0);
  EXPECT_EQ(H.BlockSize, 1024u);
  EXPECT_EQ(H.MinGridSize, 216u);
  EXPECT_EQ(H.Occ.BlocksPerSM, 2u);
  // 64 regs cap the SM at 32 warps: 1024 threads, never beaten (ties keep the
  // larger block).
  H = occupancyHeuristic(A100, 64, 0, 0);
  EXPECT_EQ(H.BlockSize, 1024u);
  EXPECT_EQ(H.MinGridSize, 108u);
  // sm_86 (1536 threads/SM): 768 x 2 fills it.
  H = occupancyHeuristic(*findGPU("a10"), 32, 0, 0);
  EXPECT_EQ(H.BlockSize, 768u);
  EXPECT_EQ(H.MinGridSize, 144u);
  // A block size limit that is not a multiple of 32 is tried first as is:
  // 100 threads (4 warps) x 16 blocks = 1600 threads; then 96 x 16 = 1536;
  // then 64 x 32 blocks = 2048 fills the SM.
  H = occupancyHeuristic(A100, 32, 0, 0, 100);
  EXPECT_EQ(H.BlockSize, 64u);
  EXPECT_EQ(H.MinGridSize, 32u * 108);
  H = occupancyHeuristic(A100, 32, 0, 0, 40);
  EXPECT_EQ(H.BlockSize, 40u); // 2 warps x 32 blocks, 40 threads beat 32.
  EXPECT_EQ(H.MinGridSize, 32u * 108);
  // Nothing fits.
  H = occupancyHeuristic(A100, 32, 0, 200000);
  EXPECT_EQ(H.BlockSize, 0u);
  EXPECT_EQ(H.MinGridSize, 0u);
}

// Registers ptxas 13.0 (V13.0.88) reported for a kernel needing ~400 live
// registers, compiled with .maxntid T .minnctapersm B (docs/GPUS.md).
TEST(Occupancy, RegisterCapMatchesPtxas) {
  struct Case {
    const char *GPU;
    unsigned Threads, MinBlocks, Regs;
  } Cases[] = {
      {"a100", 256, 2, 128}, {"a100", 256, 3, 80},  {"a100", 96, 5, 128},
      {"a100", 384, 2, 80},  {"a100", 1024, 1, 64}, {"a100", 128, 8, 64},
      {"a100", 64, 16, 64},  {"a100", 32, 32, 64},  {"a100", 96, 7, 80},
      {"a100", 160, 3, 128}, {"a100", 640, 1, 96},  {"a100", 672, 1, 80},
      {"a100", 33, 1, 255},  {"a100", 1000, 1, 64}, {"a100", 1024, 2, 32},
      {"a100", 512, 4, 32},  {"a100", 32, 24, 80},  {"a100", 128, 12, 40},
      {"a100", 256, 5, 48},  {"t4", 96, 5, 128},    {"t4", 640, 1, 96},
      {"t4", 1024, 2, 64},   {"a10", 96, 5, 128},   {"a10", 640, 1, 96},
      {"a10", 128, 12, 40},  {"a10", 256, 5, 48},   {"a10", 1024, 2, 64},
      {"a10", 32, 24, 255},  {"h100", 1024, 2, 32}, {"h100", 32, 24, 80},
      {"h100", 128, 12, 40}, {"h100", 256, 5, 48},  {"h100", 640, 1, 96},
  };
  for (const Case &C : Cases)
    EXPECT_EQ(registerCapForBounds(*findGPU(C.GPU), C.Threads, C.MinBlocks),
              C.Regs)
        << C.GPU << " " << C.Threads << "," << C.MinBlocks;
  // No bounds: the per-thread maximum; MinBlocks 0: one block must fit.
  EXPECT_EQ(registerCapForBounds(*findGPU("a100"), 0, 0), 255u);
  EXPECT_EQ(registerCapForBounds(*findGPU("a100"), 1024, 0), 64u);
  EXPECT_EQ(registerCapForBounds(*findGPU("a100"), 256, 0), 255u);
}

TEST(Occupancy, RegisterCapAdmitsMinBlocks) {
  // The defining property, on every GPU: at the cap MinBlocks blocks fit,
  // and 8 more registers per thread would not (when below 255).
  for (const GPUSpec &G : allGPUs())
    for (unsigned Threads : {32u, 96u, 128u, 256u, 384u, 512u, 1024u})
      for (unsigned MinBlocks = 1; MinBlocks * Threads <= G.MaxThreadsPerSM &&
                                   MinBlocks <= G.MaxBlocksPerSM;
           ++MinBlocks) {
        unsigned Cap = registerCapForBounds(G, Threads, MinBlocks);
        OccupancyInput In;
        In.BlockThreads = Threads;
        In.RegsPerThread = Cap;
        EXPECT_GE(computeOccupancy(G, In).LimitByRegs, MinBlocks) << G.Name;
        if (Cap < 248) {
          In.RegsPerThread = Cap + 8;
          EXPECT_LT(computeOccupancy(G, In).LimitByRegs, MinBlocks) << G.Name;
        }
        EXPECT_EQ(Cap == 255 || Cap % 8 == 0, true);
      }
}

} // namespace
