//===- ModelImpl.h - Internals shared by the model's files ------*- C++ -*-===//
//
// The state predict() carries from the limit-independent work (Work.cpp:
// registers, grid, work of one block, traffic, latency path, rounds) to the
// clock search and the figures (Model.cpp), and the helpers both use.
// Not installed: lib/Model only.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_LIB_MODEL_MODELIMPL_H
#define FLIPFLOP_LIB_MODEL_MODELIMPL_H

#include "flipflop/Model/Model.h"
#include "flipflop/Model/ModelConstants.h"
#include "llvm/ADT/ArrayRef.h"
#include <algorithm>
#include <cmath>
#include <string>

namespace flipflop {
namespace modelimpl {

namespace mc = flipflop::modelconst;

/// Functional units whose busy cycles the issue soft maximum combines.
/// ULdSt is the memory pipeline: LSU address lanes, then the L1/shared data
/// path (128-byte wavefronts of global, local and shared accesses).
enum Unit : unsigned { UFP32, UFP64, UFP16, UInt, UIMul, USFU, UConv, UShfl,
                       ULdSt, UTensor, NumUnits };

/// Clock-independent work of one block, and of one warp's critical path.
struct BlockWork {
  double UnitCycles[NumUnits] = {}; ///< Per block.
  double SchedCycles = 0;           ///< Warp instructions / schedulers.
  double IssueCycles = 0;           ///< The two queues' times (issueWork).
  /// The MIO's port: its memory, conversion and special-function
  /// instructions one after another at the LSU's instruction rate.
  double MioPortCycles = 0;
  double SharedCycles = 0;          ///< Shared part of the data path.
  bool SharedLeads = false;         ///< Shared wavefronts bound the issue.
  double L2Bytes = 0, DramBytes = 0, SharedBytes = 0, L1Bytes = 0;
  double ChainCycles = 0;   ///< Per warp, core-clock part of the latency path.
  double ChainDramNs = 0;   ///< Per warp, ns part (DRAM off-chip latency).
  /// Per warp, the memory round trips' part of ChainCycles (the rest waits
  /// on the pipes, barriers and local memory).
  double ChainMemCycles = 0;
  double BarrierCycles = 0; ///< Per warp, included in ChainCycles.
  /// The share of the memory round trips of ChainMemCycles that a block's
  /// warps wait for together between barriers: its copies' to shared
  /// memory (docs/MODEL.md, "Barrier phases").
  double PhaseMemShare = 1;
  double EnergyUnits = 0;   ///< In FP32-lane-op equivalents, per block.
};

/// The GPU's rates the rounds are timed and charged with.
struct Rates {
  double L2BytesPerClkPerSM = 0, DramBytesPerS = 0;
  double EUnitJ = 0; ///< Joules per FP32 lane op at Vmax.
  double DramJPerByte = 0;
};

/// The grid as rounds: full waves of R blocks on every SM, then the tail.
struct RoundPlan {
  unsigned SMs = 1, R = 1;
  double FullRounds = 0; ///< Rounds with R blocks on every SM.
  unsigned TailK = 0, TailSMs = 0;
  double TailSMShare = 1; ///< (TailSMs / SMs)^beta.
  double IdealRounds = 0; ///< Grid / (SMs x R).
};

/// Times of one round (seconds): the smooth maximum T and its components.
struct RoundTimes {
  double T = 0, Issue = 0, Shared = 0, L2 = 0, Dram = 0, Lat = 0;
  /// The part of Lat that a barrier-bound block's own issue adds (its
  /// warps wait together: "Barrier phases").
  double Phase = 0;
};

/// Energy of one round (J): cycle and work power of the SMs, and DRAM.
struct RoundEnergy {
  double Core = 0, Dram = 0;
};

/// The p-norm of \p Xs scaled so that it never falls below their maximum
/// (a soft maximum: p = 1 adds, p -> infinity takes the largest).
inline double softMax(llvm::ArrayRef<double> Xs, double P) {
  double Max = 0;
  for (double X : Xs)
    Max = std::max(Max, X);
  if (Max <= 0)
    return 0;
  double Sum = 0;
  for (double X : Xs)
    Sum += std::pow(X / Max, P);
  return Max * std::pow(Sum, 1 / P);
}

/// Everything the clock search needs: the configuration's work, the GPU's
/// rates and its power curve.
struct Context {
  const GPUSpec &G;
  PowerCurve Curve;
  BlockWork W;
  Rates Rt;
  RoundPlan Rounds;
  double UnitNorm = mc::UnitOverlapNorm;  ///< Pipes of an SM, L2 port included.
  double LatencyNorm = mc::OverlapNorm;   ///< Throughput against latency.
  /// Share of a barrier-bound block's own issue that its waits cannot
  /// overlap (mc::BarrierPhaseShare).
  double BarrierPhase = mc::BarrierPhaseShare;
  /// Blocks of unequal work past the bounds checks (blockShares()), as
  /// multipliers of W's average block; empty when all blocks are alike.
  struct BlockClass {
    double Weight = 1; ///< Share of the blocks.
    double Work = 1;   ///< Throughput work over the average block's.
    double Chain = 1;  ///< Latency path over the average block's.
    double Mem = 1;    ///< Global-memory bytes over the average block's.
    /// Its latency path's memory round trips over the average block's.
    double ChainMem = 1;
  };
  std::vector<BlockClass> Classes;

  explicit Context(const GPUSpec &G) : G(G) {}

  /// A round of \p K blocks on each of \p NSM SMs at \p FHz: the rounds of
  /// each class of blocks, weighted by their share.
  RoundTimes round(double K, double NSM, double FHz) const {
    if (Classes.empty())
      return classRound(K, NSM, FHz, {});
    RoundTimes Sum;
    for (const BlockClass &C : Classes) {
      RoundTimes RT = classRound(K, NSM, FHz, C);
      Sum.T += C.Weight * RT.T;
      Sum.Issue += C.Weight * RT.Issue;
      Sum.Shared += C.Weight * RT.Shared;
      Sum.L2 += C.Weight * RT.L2;
      Sum.Dram += C.Weight * RT.Dram;
      Sum.Lat += C.Weight * RT.Lat;
      Sum.Phase += C.Weight * RT.Phase;
    }
    return Sum;
  }

  /// A round of blocks of class \p C (its multipliers of W).
  RoundTimes classRound(double K, double NSM, double FHz,
                        const BlockClass &C) const {
    RoundTimes RT;
    RT.Issue = C.Work * K * W.IssueCycles / FHz;
    RT.Shared = C.Work * K * W.SharedCycles / FHz;
    RT.L2 = C.Mem * K * W.L2Bytes / (Rt.L2BytesPerClkPerSM * FHz);
    RT.Dram = C.Mem * K * NSM * W.DramBytes / Rt.DramBytesPerS;
    RT.Lat = C.Chain * (W.ChainCycles - W.ChainMemCycles) / FHz +
             C.ChainMem * (W.ChainMemCycles / FHz + W.ChainDramNs * 1e-9);
    // The L2 port feeds the SM's load pipeline: L2 data return and issue
    // contend like two of the SM's pipes (the issue time's soft maximum);
    // DRAM is the chip's, shared memory is already in the issue time.
    double Own = std::max(softMax({RT.Issue, RT.L2}, UnitNorm), RT.Shared);
    // Warps that meet at barriers wait for their loads together and then
    // issue together: between two barriers a block's waits and its own
    // issue follow one another, and only the other blocks of the SM fill
    // the waits. So a block's latency path holds its own issue (a round's
    // over its K blocks) where that exceeds the path's dependent-ALU part,
    // which it would overlap (docs/MODEL.md, "Barrier phases").
    // Of the path's memory round trips only those of the phases' copies to
    // shared memory hold the whole block; the rest overlap its issue as
    // they would another block's.
    if (BarrierPhase > 0 && W.BarrierCycles > 0 && K > 0) {
      double Bar = C.Chain * W.BarrierCycles / FHz;
      double Alu = std::max(
          0.0,
          C.Chain * (W.ChainCycles - W.ChainMemCycles - W.BarrierCycles) / FHz);
      double Mem = std::max(0.0, RT.Lat - Alu - Bar);
      double PhaseLat =
          W.PhaseMemShare * Mem + Bar + std::max(Alu, BarrierPhase * Own / K);
      RT.Phase = std::max(0.0, PhaseLat - RT.Lat);
      RT.Lat += RT.Phase;
    }
    double Thru = std::max(Own, RT.Dram);
    RT.T = softMax({Thru, RT.Lat}, LatencyNorm);
    // With one block a SM nothing else issues while it waits: its phases
    // run one after another, and their sum (which holds its issue) is not
    // a second bottleneck to overlap with that issue.
    if (RT.Phase > 0 && K <= 1)
      RT.T = std::max(softMax({Thru, RT.Lat - RT.Phase}, LatencyNorm), RT.Lat);
    return RT;
  }

  /// Energy of a round of length \p T, split into cycle+work (core) and
  /// DRAM parts.
  RoundEnergy roundEnergy(double K, double NSM, double SMShare, double FMHz,
                          double T) const {
    double V = voltageRatio(Curve, FMHz);
    double CyclePower = Curve.DynW * mc::CycleDynShare *
                        (FMHz / Curve.FMaxMHz) * V * V * SMShare;
    RoundEnergy E;
    E.Core = CyclePower * T + K * NSM * W.EnergyUnits * Rt.EUnitJ * V * V;
    E.Dram = K * NSM * W.DramBytes * Rt.DramJPerByte;
    return E;
  }
};

/// predict()'s limit-independent part: the prediction so far (Valid false,
/// with Invalid saying why, when the configuration cannot launch) and the
/// context the clock search runs on.
struct Prepared {
  Prediction P;
  Context X;
  explicit Prepared(const GPUSpec &G) : X(G) {}
};

/// Everything of predict() that does not depend on the power limit (Work.cpp).
Prepared prepare(const KernelProfile &K, const GPUSpec &G,
                 const LaunchConfig &Cfg, const ModelOptions &Opts);

/// Bytes one thread moves (Traffic.cpp): between L2 and the SM, and to DRAM.
struct GlobalTraffic {
  double L2 = 0, Dram = 0;
  double LoadDram = 0; ///< The loads' share of Dram.
  /// The bytes of the accesses a warp waits for (loads and atomics): the
  /// latency path's share of DRAM round trips (a store's bytes delay no
  /// load).
  double ReadL2 = 0, ReadDram = 0;
  /// The loads' bytes the L1 serves between a loop's passes (l1PassShare:
  /// off ReadL2), whose round trips are the L1's.
  double ReadL1Pass = 0;
};
/// L2 bytes per thread of the global access \p A launched as \p C, and
/// its DRAM bytes (before re-reads and overlapping blocks: Reuse.cpp):
/// sectors per request, rows of narrow blocks, in-block and inter-block
/// reuse, with \p Share the share of its lines its neighbouring loads
/// leave it (neighbourShares).
/// The share of an access's sectors that its innermost loop's passes move
/// to L2 when they step a coalesced run by less than its length (the L1
/// serves the rest); 1 otherwise.
double l1PassShare(const MemAccess &A, const LaunchConfig &C);

GlobalTraffic accessTraffic(const MemAccess &A, const LaunchConfig &C,
                            double Share);
/// Per access of \p As, the share of its lines that its sibling loads
/// (gaps of one stride filled) and overlapping windows (one form, offsets
/// within a warp's run) do not already bring into L1.
std::vector<double> neighbourShares(const std::vector<MemAccess> &As,
                                    const LaunchConfig &C);
/// Per store of \p As, the share of its DRAM bytes that its sibling stores
/// (one base, stride and count; offsets filling the stride's gaps) do not
/// already write: the L2 merges their partial sectors. 1 for loads.
std::vector<double> storeSiblingShares(const std::vector<MemAccess> &As);
/// Global traffic per thread of \p K launched as \p C (docs/MODEL.md
/// "Traffic"): sectors per request, rows of narrow blocks, in-block and
/// inter-block reuse, sibling loads.
GlobalTraffic globalTraffic(const KernelProfile &K, const LaunchConfig &C);
/// DRAM bytes per thread that the re-reads of K.FormLoads (those inside
/// loops) add when the data
/// \p Resident blocks read between two reads exceeds the L2 (docs/MODEL.md
/// "Re-reads and the L2 capacity").
double rereadDramBytes(const KernelProfile &K, const GPUSpec &G,
                       const LaunchConfig &C, double Resident);
/// Blocks whose reads overlap (the rows of a stencil's or a convolution's
/// window that the next block and the block's own threads read again): per
/// thread, the DRAM bytes the L2 saves against charging every load's own,
/// the DRAM bytes those loads keep, and what all the loads it read (the
/// kernel's, or the PTX's for the plugin) are charged one by one; the L2
/// bytes the L1 saves where a block's warps read each other's rows; and
/// the DRAM bytes a block's stores save by filling each other's sectors
/// (docs/MODEL.md "Overlapping footprints", "Stores that fill each other's
/// sectors").
struct OverlapDram {
  double Saving = 0, Kept = 0, LoadDram = 0;
  /// The L2 side: the loads' L2 bytes per thread one by one, and what the
  /// L1 saves of them where a block's warps read each other's rows while
  /// it holds the block's footprint (\p L1PerBlock bytes of it).
  double LoadL2 = 0, L2Saving = 0;
  /// The stores': DRAM bytes per thread they are charged one by one, and
  /// what the sectors a block's stores fill between them save of it.
  double StoreDram = 0, StoreSaving = 0;
};
OverlapDram overlapDram(const KernelProfile &K, const GPUSpec &G,
                        const LaunchConfig &C, double Resident,
                        double L1PerBlock);
/// L1 data-path wavefronts per warp (loop weighted) of the global and
/// generic accesses, hits included.
double globalWavefronts(const KernelProfile &K, const LaunchConfig &C);
/// Sectors per warp (loop weighted) that global accesses shifted by data
/// (a data-scaled coordinate: their runs start anywhere in a sector, and
/// their rows read a little apart) touch beyond what the same run would
/// touch aligned: what the L1 serves in extra passes (issueWork).
double misalignedSectors(const KernelProfile &K, const LaunchConfig &C);

/// DRAM energy per byte of a memory type (Power.cpp).
double dramPJPerByte(const std::string &Type);

/// Lanes per SM of a unit, with a fallback for a spec that leaves it out.
inline double lanes(double L) { return L > 0 ? L : mc::FallbackLanes; }

} // namespace modelimpl
} // namespace flipflop

#endif
