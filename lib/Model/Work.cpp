//===- Work.cpp - The limit-independent part of a prediction --------------===//
//
// Whether a configuration can launch, its registers and occupancy, its grid
// and the work each thread does in it, the work of one block on each unit,
// its traffic, the latency path of one warp and the rounds of the grid: all
// that predict() computes once per configuration before the clock search
// (Model.cpp). docs/MODEL.md section 2.
//
//===----------------------------------------------------------------------===//
#include "ModelImpl.h"
#include "flipflop/Model/SharedMemory.h"
#include <cstdlib>
#include <iterator>
#include <vector>

using namespace flipflop;
using namespace flipflop::modelimpl;

namespace {

/// Registers per thread under the cap ptxas applies for
/// __launch_bounds__(B, m).
struct RegisterBudget {
  unsigned Need = 0; ///< What the kernel needs.
  unsigned Cap = 0;  ///< The cap (0: no budget at all).
  unsigned Regs = 0; ///< min(Need, Cap).
};

/// The launch's grid and the work each thread does in it.
struct GridPlan {
  uint64_t GivenGrid = 0; ///< Blocks of the stated grid (0: derived).
  double Threads = 0;     ///< Problem size in threads.
  double Blocks = 1;      ///< Grid blocks (at least 1).
  double Useful = 1;      ///< Share of the launched threads with work.
  /// Per-thread work against the profile's counts, bounds checks aside.
  double WorkScale = 1;
  /// The same for global-memory traffic (LoopRecord::MemShare).
  double MemWorkScale = 1;
  bool GridStride = false;
  bool ByBlocks = false; ///< Its grid-stride loops step over blocks.
};

/// How one block's warps carry the per-thread counts.
struct BlockScope {
  unsigned WarpsPerBlock = 0;
  double Lanes = 0; ///< Threads of the block's warps.
  double S = 1;     ///< Per-thread work multiplier (WorkScale x Useful).
  double SGlobal = 1; ///< The same for global-memory traffic.
  /// The same for the tensor-memory MMAs of one issuing thread
  /// (KernelProfile::EngineTensorFlops): already the block's work over its
  /// threads, which no check on the threads scales.
  double SEngine = 1;
  /// Shared accesses behind checks of their own (the PTX front end's).
  SharedChecks Checks;
};

/// Tensor FLOPs of a thread at scope \p Sc: the checks scale the MMAs its
/// threads issue, not the block's tensor-memory MMAs.
static double tensorFlops(const KernelProfile &K, const BlockScope &Sc) {
  double Engine = std::clamp(K.EngineTensorFlops, 0.0, K.TensorFlops);
  return (K.TensorFlops - Engine) * Sc.S + Engine * Sc.SEngine;
}

/// Per-thread instructions of each unit.
struct UnitMix {
  double Instr[NumUnits] = {}; ///< UTensor is unused (FLOPs instead).
  double LocalOps = 0;         ///< Local loads and stores, spills included.
  double OtherInstr = 0;       ///< Branches, barriers, constants, tensor.
  /// Conversions the GPU runs on the integer pipe (I2FP), counted in
  /// Instr[UInt] and not in Instr[UConv].
  double ConvOnInt = 0;
};

/// Issue of one block on its SM.
struct IssueWork {
  double UnitCycles[NumUnits] = {};
  double SchedCycles = 0, IssueCycles = 0, SharedCycles = 0;
  double MioPortCycles = 0; ///< BlockWork::MioPortCycles.
  bool SharedLeads = false;
  double ChainMin = 0; ///< One warp's own issue time (cycles).
};

/// Bytes one thread moves.
struct ThreadTraffic {
  GlobalTraffic Global;
  double LocalPerThread = 0; ///< Stack and spill bytes.
  double LocalHit = 1;       ///< Share of them that hits in L1.
};

/// One warp's latency path (cycles at the core clock, plus DRAM ns).
struct LatencyPath {
  double ChainCycles = 0, ChainDramNs = 0, BarrierCycles = 0,
         ChainMemCycles = 0;
  /// The share of the memory round trips a barrier-bound block's warps wait
  /// for together: its copies' to shared memory (BlockWork::PhaseMemShare).
  double PhaseMemShare = 1;
};

/// The work of one block, and what the whole launch moves.
struct LaunchWork {
  BlockWork W;
  double SpillBytesPerThread = 0;
  double DramBytes = 0, L2Bytes = 0, SharedBytes = 0, LocalBytes = 0;
};

} // namespace

/// Why \p Cfg cannot launch \p K on \p G, judged by its shape alone;
/// nullptr when it can.
static const char *shapeProblem(const KernelProfile &K, const GPUSpec &G,
                                const LaunchConfig &Cfg) {
  const unsigned B = Cfg.blockThreads();
  if (B == 0)
    return "empty block";
  if (B > G.MaxThreadsPerBlock)
    return "block larger than the GPU's maximum threads per block";
  if (Cfg.Block[2] > 64 || Cfg.Block[0] > 1024 || Cfg.Block[1] > 1024)
    return "block dimension beyond 1024 x 1024 x 64";
  if (unsigned M = K.Bounds.maxThreads(); M && B > M)
    return "block larger than the kernel's __launch_bounds__";
  if (K.Bounds.ReqNTid[0] &&
      (Cfg.Block[0] != K.Bounds.ReqNTid[0] ||
       Cfg.Block[1] != std::max(1u, K.Bounds.ReqNTid[1]) ||
       Cfg.Block[2] != std::max(1u, K.Bounds.ReqNTid[2])))
    return "block differs from the kernel's required shape (reqntid)";
  if (G.SMCount == 0 || G.WarpSize == 0)
    return "GPU spec has no SMs";
  return nullptr;
}

static RegisterBudget registerBudget(const KernelProfile &K, const GPUSpec &G,
                                     const LaunchConfig &Cfg) {
  RegisterBudget RB;
  RB.Need = K.registersNeeded();
  RB.Cap = registerCapForBounds(G, Cfg.blockThreads(),
                                std::max(1u, Cfg.MinBlocksPerSM));
  if (K.Bounds.MaxNReg)
    RB.Cap = std::min(RB.Cap, K.Bounds.MaxNReg);
  RB.Regs = std::min(RB.Need, RB.Cap);
  return RB;
}

/// Static plus dynamic shared memory of one block.
static size_t sharedPerBlock(const KernelProfile &K, const LaunchConfig &Cfg) {
  uint64_t Threads = uint64_t(std::max(1u, Cfg.Block[0])) *
                     std::max(1u, Cfg.Block[1]) * std::max(1u, Cfg.Block[2]);
  size_t DynShared = Cfg.DynamicSharedBytes ? Cfg.DynamicSharedBytes
                                            : K.Res.dynamicSharedBytes(Threads);
  return K.Res.StaticSharedBytes + DynShared;
}

/// A nest of grid-stride loops over disjoint dimensions (a column loop
/// over x around a row loop over y), each with its elements and dimensions
/// known: each divides its own elements by the threads along its own
/// dimensions. Empty when there are fewer than two such loops or another
/// grid-stride loop (gridStrideElements takes one alone).
static std::vector<const LoopRecord *> gridStrideNest(const KernelProfile &K) {
  std::vector<const LoopRecord *> Nest;
  unsigned Dims = 0, Depth = 0;
  bool Left = false; // Past the innermost member's loops (K.Loops: preorder).
  for (const LoopRecord &L : K.Loops) {
    if (!Nest.empty() && L.Depth <= Depth)
      Left = true;
    if (!L.GridStride)
      continue;
    if (Left || !(L.GridStrideElements > 0) || !L.GridStrideDims ||
        (L.GridStrideDims & Dims) || L.Depth <= Depth)
      return {};
    Dims |= L.GridStrideDims;
    Depth = L.Depth;
    Nest.push_back(&L);
  }
  if (Nest.size() < 2)
    Nest.clear();
  return Nest;
}

/// The passes of the kernel's block-stride loops at \p Cfg's block over
/// those the profile counted: they follow the block's threads along the
/// dimensions their steps span, and the reference block is B0 x 1 x 1, so
/// a loop over x in a 32 x 8 block runs 256 / 32 times its passes there.
static double blockStrideScale(const KernelProfile &K, const LaunchConfig &Cfg,
                               const ModelOptions &Opts) {
  double B0 = Opts.ReferenceBlockThreads ? Opts.ReferenceBlockThreads : 256;
  unsigned Dims = blockStrideDims(K);
  double Scale = 1;
  for (unsigned D = 0; D < 3; ++D)
    if (Dims & (1u << D))
      Scale *= (D == 0 ? B0 : 1.0) / std::max(1u, Cfg.Block[D]);
  return Scale;
}

/// The grid of \p Cfg (given, or derived from the problem size) and the
/// per-thread work: grid-stride loops conserve the total work, counts
/// resolved at the reference block scale with the block, and loops bounded
/// by a block dimension follow it. \p R: resident blocks per SM.
static GridPlan gridPlan(const KernelProfile &K, const GPUSpec &G,
                         const LaunchConfig &Cfg, const ModelOptions &Opts,
                         unsigned R) {
  const unsigned B = Cfg.blockThreads();
  GridPlan GP;
  GP.GivenGrid = uint64_t(Cfg.Grid[0]) * std::max(1u, Cfg.Grid[1]) *
                 std::max(1u, Cfg.Grid[2]);
  if (!Cfg.Grid[0])
    GP.GivenGrid = 0;
  const uint64_t GivenGrid = GP.GivenGrid;
  std::vector<const LoopRecord *> Nest = gridStrideNest(K);
  // Grid-stride loops over blocks (`r += gridDim.x`): their elements are
  // units of a block, each a block's threads of work.
  const bool ByBlocks = gridStrideByBlocks(K);
  double Elements = gridStrideElements(K) * (ByBlocks ? B : 1);
  if (!Nest.empty()) {
    // A member over blocks: its units are the block's threads along its
    // dimensions each (all of the block's where every member is one).
    Elements = 1;
    double Along = 1;
    for (const LoopRecord *L : Nest) {
      double Threads = 1;
      for (unsigned D = 0; D < 3; ++D)
        if (L->GridStrideDims & (1u << D))
          Threads *= std::max(1u, Cfg.Block[D]);
      Elements *= L->GridStrideElements * (L->GridStrideBlocks ? Threads : 1);
      Along *= Threads;
    }
    if (ByBlocks)
      Elements *= B / Along;
  }
  double T = Cfg.TotalThreads ? double(Cfg.TotalThreads)
             : Elements       ? Elements
             : GivenGrid      ? double(GivenGrid) * B
                              : double(Opts.DefaultTotalThreads);
  bool GridStride = K.Shape.GridStrideLoop;
  bool BlockScaled = K.Shape.WorkScalesWithBlock;
  double TripRef = 1;
  for (const LoopRecord &L : K.Loops) {
    if (L.GridStride && !GridStride) {
      GridStride = true;
    }
    if (L.GridStride && L.GridStrideBlocks == ByBlocks && TripRef == 1 &&
        L.Trip > 0)
      TripRef = L.Trip;
    if (L.DependsOnBlockDim)
      BlockScaled = true;
  }
  double N; // Grid blocks.
  double Useful = 1, WorkScale = 1;
  if (GridStride) {
    N = GivenGrid ? double(GivenGrid)
                  : std::min(std::ceil(T / B), double(G.SMCount) * R);
    // The blocks (or the launched threads, \p Threads) along the
    // dimensions a step spans, all of them where it does not say (the
    // grid's blocks given, else N along x); threads along the others
    // repeat the range (LoopRecord::GridStrideDims).
    auto Along = [&](unsigned Dims, bool Threads) {
      if (!Dims)
        Dims = 7u;
      double Units = 1;
      for (unsigned D = 0; D < 3; ++D)
        if (Dims & (1u << D))
          Units *= (GivenGrid ? std::max(1u, Cfg.Grid[D]) : D ? 1.0 : N) *
                   (Threads ? std::max(1u, Cfg.Block[D]) : 1u);
      return Units;
    };
    // T is in threads: a loop over blocks' units times B.
    unsigned Dims = gridStrideDims(K);
    double Stride = ByBlocks ? Along(Dims, false) * B : Along(Dims, true);
    double Iter = T / Stride;
    Useful = std::min(1.0, Iter);
    WorkScale = std::max(1.0, Iter) / TripRef;
    if (!Nest.empty() && !Cfg.TotalThreads) {
      // Each loop of the nest over its own elements and dimensions.
      Useful = 1;
      WorkScale = 1;
      for (const LoopRecord *L : Nest) {
        double It = L->GridStrideElements /
                    Along(L->GridStrideDims, !L->GridStrideBlocks);
        Useful *= std::min(1.0, It);
        WorkScale *= std::max(1.0, It) / std::max(1.0, L->Trip);
      }
    }
    // Block-stride loops inside a loop over blocks (a row's columns, `c +=
    // blockDim.x`) follow the block as they do where the grid is stated
    // (the row loop counted there: the branch below). In a loop over the
    // launched threads they are a block's setup (a histogram's bins), not
    // the work.
    if (ByBlocks && BlockScaled)
      WorkScale *= blockStrideScale(K, Cfg, Opts);
  } else if (BlockScaled) {
    double B0 = Opts.ReferenceBlockThreads ? Opts.ReferenceBlockThreads : 256;
    N = GivenGrid ? double(GivenGrid) : std::ceil(T / B0);
    WorkScale = blockStrideScale(K, Cfg, Opts);
  } else {
    N = GivenGrid ? double(GivenGrid) : std::ceil(T / B);
    Useful = std::min(1.0, T / (N * B));
  }
  // Loops whose trip count follows a block dimension (for j < blockDim.y):
  // the profile counted them at the reference block; their share of the
  // work runs TripPerBlockDim * block[d] + TripBlockOffset times here. Its
  // share of the global-memory bytes scales the traffic: a reduction over
  // blockDim.z in shared memory moves no more DRAM bytes for a deeper block.
  double MemWorkScale = WorkScale;
  for (const LoopRecord &L : K.Loops) {
    if (L.TripBlockDim < 0 || L.TripBlockDim > 2 || !(L.Trip > 0))
      continue;
    double Trip = std::max(
        0.0, L.TripPerBlockDim * Cfg.Block[L.TripBlockDim] + L.TripBlockOffset);
    double Share = std::clamp(L.WorkShare, 0.0, 1.0);
    double Mem = L.MemShare >= 0 ? std::min(1.0, L.MemShare) : Share;
    WorkScale *= 1 - Share + Share * Trip / L.Trip;
    MemWorkScale *= 1 - Mem + Mem * Trip / L.Trip;
  }
  GP.Threads = T;
  GP.Blocks = std::max(1.0, N);
  GP.Useful = Useful;
  GP.WorkScale = WorkScale;
  GP.MemWorkScale = MemWorkScale;
  GP.GridStride = GridStride;
  GP.ByBlocks = ByBlocks;
  return GP;
}

/// Local accesses per thread from spills: ptxas-reported, or estimated.
/// ptxas reports static spill bytes; the allocator spills where the live
/// values exceed the registers it has, so each static spill access runs as
/// often as the code there: the deepest nest's trip product (K.Loops is in
/// preorder) times the share of it that the code whose pressure exceeds the
/// allocation runs (KernelProfile::spillShare; 1 where the pressure is not
/// known). Under a cap that cuts registers, the spill bytes of the compile
/// under that cap replace the uncapped ones: ptxas's when it was run there,
/// else the final code's estimate (KernelProfile::CapSpills), else (no PTX)
/// a share of the operands that grows with the cut.
static double spillAccesses(const KernelProfile &K, const RegisterBudget &RB) {
  double MaxTrip = 1;
  {
    std::vector<double> Nest;
    for (const LoopRecord &L : K.Loops) {
      Nest.resize(std::max(1u, L.Depth));
      double Outer = L.Depth > 1 ? Nest[L.Depth - 2] : 1;
      Nest[L.Depth - 1] = Outer * std::max(1.0, L.Trip);
      MaxTrip = std::max(MaxTrip, Nest[L.Depth - 1]);
    }
  }
  const unsigned Need = RB.Need, Regs = RB.Regs;
  auto Run = [&](double StaticBytes, unsigned Allocated) {
    return StaticBytes / 4.0 * MaxTrip * K.spillShare(Allocated);
  };
  if (std::optional<KernelProfile::SpillCode> Code = K.spillCodeAt(Regs))
    return Run(Code->Bytes, std::min(Regs, Need));
  // The allocator spills the least-used values first: the share of operand
  // reads that hit a spilled value grows with the square of the cut. ptxas
  // absorbs the first SpillFreeCut of a cut by rescheduling and
  // rematerialisation.
  double TotalOps = 0;
  for (double O : K.Ops)
    TotalOps += O;
  double Cut = double(Need - Regs) / Need;
  double Eff = std::max(0.0, Cut - mc::SpillFreeCut) / (1 - mc::SpillFreeCut);
  return Run(K.Res.SpillStoreBytes + K.Res.SpillLoadBytes,
             K.registersNeeded()) +
         mc::SpillRefsPerOp * TotalOps * Eff * Eff;
}

static UnitMix unitMix(const KernelProfile &K, const GPUSpec &G,
                       double SpillAccesses) {
  UnitMix M;
  // Compute capability 8.6 and later convert u8/u16/u32/s32 to f32 with
  // I2FP on the integer pipe; earlier GPUs with I2F on the conversion pipe
  // (ptxas 13.0 SASS; docs/MODEL.md, "Conversions").
  if (G.smVersion() >= 86)
    M.ConvOnInt = std::clamp(K.ConvIntToF32, 0.0, K.op(OpClass::Conv));
  M.Instr[UFP32] = K.op(OpClass::FP32);
  M.Instr[UFP64] = K.op(OpClass::FP64);
  M.Instr[UFP16] = K.op(OpClass::FP16);
  M.Instr[UInt] = K.op(OpClass::Int) + M.ConvOnInt;
  M.Instr[UIMul] = K.op(OpClass::IntMul);
  M.Instr[USFU] = K.op(OpClass::SFU);
  M.Instr[UConv] = K.op(OpClass::Conv) - M.ConvOnInt;
  M.Instr[UShfl] = K.op(OpClass::Shuffle);
  M.LocalOps =
      K.op(OpClass::LoadLocal) + K.op(OpClass::StoreLocal) + SpillAccesses;
  M.Instr[ULdSt] = K.op(OpClass::LoadGlobal) + K.op(OpClass::StoreGlobal) +
                   K.op(OpClass::LoadShared) + K.op(OpClass::StoreShared) +
                   K.op(OpClass::AtomicGlobal) + K.op(OpClass::AtomicShared) +
                   K.op(OpClass::LoadGeneric) + K.op(OpClass::StoreGeneric) +
                   M.LocalOps;
  M.OtherInstr = K.op(OpClass::Branch) + K.op(OpClass::Barrier) +
                 K.op(OpClass::Other) + K.op(OpClass::LoadConst) +
                 K.op(OpClass::Tensor);
  return M;
}

/// A model constant, or a scan's override from \p Env (a value in [Lo, Hi];
/// scripts/fit-time-model.py and docs/MODEL.md's scans only, not a user
/// option).
static double fitOverride(const char *Env, double Default, double Lo,
                          double Hi) {
  if (const char *E = std::getenv(Env)) {
    double V = std::strtod(E, nullptr);
    if (V >= Lo && V <= Hi)
      return V;
  }
  return Default;
}

/// A fitted exponent, or its override in [1, 64].
static double fittedNorm(const char *Env, double Default) {
  return fitOverride(Env, Default, 1, 64);
}

/// Exponent of the soft maximum over an SM's pipes (issue time, and issue
/// with the L2 port in a round).
static double unitOverlapNorm() {
  static const double N =
      fittedNorm("FLIPFLOP_FIT_UNIT_NORM", mc::UnitOverlapNorm);
  return N;
}

/// Exponent of the soft maximum of the two issue queues (issueWork).
static double queueOverlapNorm() {
  static const double N =
      fittedNorm("FLIPFLOP_FIT_QUEUE_NORM", mc::QueueOverlapNorm);
  return N;
}

/// MIO port cycles of one extra sector of a data-shifted run: a 32-byte
/// sector at the L1's bytes per clock (FLIPFLOP_FIT_MISALIGNED_CYCLES
/// overrides it for the scan of docs/MODEL.md, "Session 28").
static double misalignedSectorCycles(double L1BytesPerClk) {
  static const double Override =
      fitOverride("FLIPFLOP_FIT_MISALIGNED_CYCLES", -1, 0, 64);
  if (Override >= 0)
    return Override;
  return 32.0 / (L1BytesPerClk > 0 ? L1BytesPerClk : 128.0);
}

/// Exponent of the soft maximum of throughput and latency in a round.
static double overlapNorm() {
  static const double N = fittedNorm("FLIPFLOP_FIT_OVERLAP_NORM", mc::OverlapNorm);
  return N;
}

/// Share of a barrier-bound block's own issue in its latency path, or its
/// override in [0, 4] (FLIPFLOP_FIT_BARRIER_PHASE, for scans).
static double barrierPhaseShare() {
  static const double S =
      fitOverride("FLIPFLOP_FIT_BARRIER_PHASE", mc::BarrierPhaseShare, 0, 4);
  return S;
}

/// Tensor FLOPs per clock per SM for the kernel's tensor type (dense), or
/// emulation on the FP32 pipes.
static double tensorRate(const KernelProfile &K, const UnitThroughput &U) {
  double TensorRate = 0;
  const std::string &TT = K.TensorType;
  if (TT == "f16" || TT == "bf16")
    TensorRate = U.TensorFP16;
  else if (TT == "tf32")
    TensorRate = U.TensorTF32;
  else if (TT == "s8" || TT == "u8" || TT == "s4" || TT == "u4" ||
           TT == "fp8" || TT == "e4m3" || TT == "e5m2" || TT == "fp4")
    // FP8 (e4m3/e5m2, Ada, Hopper, Blackwell) runs at the INT8 rate, twice
    // FP16's (docs/GPUS.md); FP4 is taken at it too (Blackwell's is
    // twice again: not in the table).
    TensorRate = U.TensorINT8;
  else if (TT == "f64")
    TensorRate = U.TensorFP64;
  if (TensorRate <= 0)
    TensorRate = 2 * lanes(U.FP32); // Emulated on the FP32 pipes.
  return TensorRate;
}

/// Busy cycles of one block on each unit and on the schedulers, and one
/// warp's own issue time. Divergent branches: both sides of a branch are
/// already counted at full weight per thread (no branch probabilities),
/// which is what a divergent warp issues; no further factor
/// (DivergentWorkFraction is explanation).
static IssueWork unitCycles(const KernelProfile &K, const GPUSpec &G,
                            const BlockScope &Sc, const UnitMix &M) {
  IssueWork Is;
  const UnitThroughput &U = G.Throughput;
  const double Sched = std::max(1u, G.SchedulersPerSM);
  const unsigned WarpsPerBlock = Sc.WarpsPerBlock;
  const double S = Sc.S, OtherInstr = M.OtherInstr;
  double UnitLanes[NumUnits] = {
      lanes(U.FP32), lanes(U.FP64), U.FP16 > 0 ? U.FP16 : lanes(U.FP32),
      lanes(U.INT32), lanes(U.IMul), lanes(U.SFU), lanes(U.Conv),
      mc::ShuffleLanesPerClk, lanes(U.LdSt), 1};
  double WarpInstr = OtherInstr;
  double ChainMin = OtherInstr;
  for (unsigned I = 0; I < UTensor; ++I) {
    double WI = M.Instr[I] * S; // Warp instructions per warp.
    Is.UnitCycles[I] = WarpsPerBlock * WI * G.WarpSize / UnitLanes[I];
    WarpInstr += WI;
    ChainMin += WI * std::max(1.0, G.WarpSize * Sched / UnitLanes[I]);
  }
  WarpInstr = (WarpInstr - OtherInstr) + OtherInstr * S;
  Is.ChainMin = (ChainMin - OtherInstr) + OtherInstr * S;
  // Tensor cores: FLOPs per block over the dense rate of the type.
  Is.UnitCycles[UTensor] = tensorFlops(K, Sc) * Sc.Lanes / tensorRate(K, U);
  Is.SchedCycles = WarpsPerBlock * WarpInstr / Sched;
  return Is;
}

/// unitCycles() with the L1/shared data path on the memory pipeline, the
/// soft maximum that issues them, and whether shared memory leads.
static IssueWork issueWork(const KernelProfile &K, const GPUSpec &G,
                           const LaunchConfig &Cfg, const BlockScope &Sc,
                           const UnitMix &M) {
  IssueWork Is = unitCycles(K, G, Sc, M);
  const unsigned WarpsPerBlock = Sc.WarpsPerBlock;
  const double S = Sc.S;
  // Shared memory: wavefronts (bank conflicts included) at 1 per clock,
  // counted for this block shape (lanes of a warp that read one word share
  // it); the profile's shape-free figure when it lists no shared access.
  SharedWork SW = sharedWork(K, Cfg.Block, Sc.Checks);
  double Waves = SW.Any ? SW.Wavefronts
                        : std::max(K.SharedWavefronts,
                                   K.SharedBytes * 32.0 / 128.0);
  if (Waves == 0)
    Waves = K.op(OpClass::LoadShared) + K.op(OpClass::StoreShared) +
            K.op(OpClass::AtomicShared);
  // The L1/shared data path: global and local wavefronts (one per 128-byte
  // line a pass touches; a local access of 4 bytes per lane is one line) and
  // shared wavefronts share it, at L1BytesPerClkPerSM.
  double L1B = G.L1BytesPerClkPerSM > 0 ? G.L1BytesPerClkPerSM : 128.0;
  Is.SharedCycles = WarpsPerBlock * Waves * S / mc::SharedWavefrontsPerClk *
                    128.0 / L1B;
  // Address issue (LSU lanes) and data wavefronts are stages of one
  // pipeline: the slower one sets its throughput.
  double DataCycles = WarpsPerBlock *
                          (Sc.SGlobal * globalWavefronts(K, Cfg) +
                           S * M.LocalOps) *
                          128.0 / L1B +
                      Is.SharedCycles;
  const double AddrCycles = Is.UnitCycles[ULdSt];
  Is.UnitCycles[ULdSt] = std::max(Is.UnitCycles[ULdSt], DataCycles);
  // Two queues: the schedulers dispatch math instructions to their pipes
  // directly, and memory, conversion (XU), special-function and shuffle
  // instructions to the MIO queue, which feeds the LSU and those pipes. The
  // dispatch and the math pipes contend with the LSU's issue; the MIO's
  // pipes contend with one another. A conversion or special-function
  // instruction takes one dispatch slot (in SchedCycles) and then runs
  // beside the math pipes (docs/MODEL.md, "Issue time", session 25).
  double Core[NumUnits + 1];
  unsigned NCore = 0;
  for (unsigned I = 0; I < NumUnits; ++I)
    if (I != UConv && I != USFU && I != UShfl)
      Core[NCore++] = Is.UnitCycles[I];
  Core[NCore++] = Is.SchedCycles;
  double Mio = softMax({Is.UnitCycles[ULdSt], Is.UnitCycles[UConv],
                        Is.UnitCycles[USFU], Is.UnitCycles[UShfl]},
                       unitOverlapNorm());
  // The MIO hands memory, conversion and special-function instructions to
  // their pipes at the LSU's instruction rate, one warp instruction per
  // WarpSize / LSU lanes cycles (docs/MODEL.md, "Issue time", session 26):
  // where the LSU is half a warp wide (Turing, GA10x, Ada: 16 lanes) the
  // three queue behind one another; on GA100 (32 lanes) the port is as
  // fast as the conversion pipe and never binds. Shuffles are not counted:
  // the CUDA guide gives them a full warp per clock on those boards.
  const double PortCycles = double(G.WarpSize) / lanes(G.Throughput.LdSt);
  double Port = AddrCycles;
  for (unsigned I : {UConv, USFU})
    Port += Is.UnitCycles[I] *
            lanes(I == UConv ? G.Throughput.Conv : G.Throughput.SFU) /
            G.WarpSize * PortCycles;
  // A run that data shift across sector boundaries (a gather at a loaded
  // offset) makes the L1 fetch sectors an aligned run would not: each holds
  // the request in the port for the time the L1 takes to return a sector,
  // a quarter clock at 128 B per clock (docs/MODEL.md, "Issue time",
  // session 28).
  Port += WarpsPerBlock * Sc.SGlobal * misalignedSectors(K, Cfg) *
          misalignedSectorCycles(G.L1BytesPerClkPerSM);
  // Named as the busiest pipe only where it sets the queue's time.
  if (Port > Mio)
    Is.MioPortCycles = Mio = Port;
  // For memory instructions the two queues are stages in series (the
  // dispatch, then the MIO), so they do not run independently: two stages
  // of nearly equal rate lose throughput to blocking between them. Their
  // soft maximum, QueueOverlapNorm fitted (docs/MODEL.md, "Issue time",
  // session 27): 9% at equal loads, nothing where one queue dominates.
  Is.IssueCycles =
      softMax({softMax(llvm::ArrayRef<double>(Core, NCore), unitOverlapNorm()),
               Mio},
              queueOverlapNorm());
  // Shared memory leads when the memory pipeline is the busiest unit and
  // shared wavefronts are most of its work (the bottleneck's name).
  double OtherMax = Is.SchedCycles;
  for (unsigned I = 0; I < NumUnits; ++I)
    if (I != ULdSt)
      OtherMax = std::max(OtherMax, Is.UnitCycles[I]);
  Is.SharedLeads = Is.UnitCycles[ULdSt] >= OtherMax &&
                   Is.SharedCycles >= 0.5 * Is.UnitCycles[ULdSt];
  return Is;
}

/// Global traffic, and local (stack + spill) traffic: L1 hits while the
/// resident frames fit in the L1 left over by shared memory, the rest goes
/// to L2.
static ThreadTraffic threadTraffic(const KernelProfile &K, const GPUSpec &G,
                                   const LaunchConfig &Cfg,
                                   const RegisterBudget &RB,
                                   const OccupancyResult &Occ, double Lanes,
                                   double SpillAccesses, double Blocks,
                                   double SGlobal) {
  ThreadTraffic Tr;
  Tr.Global = globalTraffic(K, Cfg);
  const unsigned R = Occ.BlocksPerSM;
  double Resident = std::min(Blocks, double(G.SMCount) * R);
  // Overlapping reads of neighbouring blocks that the L2 serves. For the
  // plugin the forms are the PTX's loads, whose one-by-one charges can
  // exceed the IR's (clang's PTX splits a tile's strided loads that the IR
  // reads as siblings): the saving shrinks by the IR's loads' charge over
  // the PTX's, and keeps at least what the PTX's loads keep.
  double L1Avail = std::max(16384.0, double(G.SharedPerSM) + mc::L1ExtraBytes -
                                         double(Occ.SharedPerSMConfigured));
  OverlapDram Ov = overlapDram(K, G, Cfg, Resident, L1Avail / std::max(1u, R));
  // Its savings are the launch's bytes after the bounds checks (the
  // threads that pass make a guarded access), and the checks and the
  // loops that follow the block (MemWorkScale) scale what is charged here
  // by SGlobal: so the savings come off at that scale.
  if (SGlobal > 0 && SGlobal != 1) {
    Ov.Saving /= SGlobal;
    Ov.Kept /= SGlobal;
    Ov.StoreSaving /= SGlobal;
    Ov.L2Saving /= SGlobal;
  } else if (SGlobal <= 0) {
    Ov.Saving = Ov.StoreSaving = Ov.L2Saving = 0;
  }
  // The L1 hits among a block's warps (plugin: scaled as the DRAM saving
  // below), applied once the DRAM bytes are final (what goes to DRAM
  // passed through the L2).
  double L1Saved = Ov.L2Saving > 0 && Ov.LoadL2 > 0
                       ? Ov.L2Saving * std::min(1.0, Tr.Global.ReadL2 / Ov.LoadL2)
                       : 0.0;
  double WriteDram = Tr.Global.Dram - Tr.Global.ReadDram;
  if (Ov.StoreSaving > 0 && Ov.StoreDram > 0 && WriteDram > 0)
    Tr.Global.Dram -=
        Ov.StoreSaving * std::min(1.0, WriteDram / Ov.StoreDram);
  if (Ov.Saving > 0 && Ov.LoadDram > 0) {
    double Scale = std::min(1.0, Tr.Global.LoadDram / Ov.LoadDram);
    double Was = Tr.Global.Dram;
    Tr.Global.Dram =
        std::max(Tr.Global.Dram - Ov.Saving * Scale, Ov.Kept);
    Tr.Global.ReadDram =
        std::max(0.0, Tr.Global.ReadDram - (Was - Tr.Global.Dram));
  }
  // Re-reads that the L2 no longer holds go to DRAM.
  double Rereads = rereadDramBytes(K, G, Cfg, Resident);
  Tr.Global.Dram += Rereads;
  Tr.Global.ReadDram += Rereads;
  // The latency path's share keeps the loads' bytes before these hits: it
  // charges every load a round trip to L2 or DRAM (an L1 hit's shorter
  // one is not modelled), in the proportion of the loads' bytes.
  if (L1Saved > 0)
    Tr.Global.L2 = std::max(Tr.Global.Dram, Tr.Global.L2 - L1Saved);
  Tr.LocalPerThread = K.LocalBytes + SpillAccesses * 4;
  double Frame = K.Res.StackFrameBytes + double(RB.Need - RB.Regs) * 4;
  double Footprint = Frame * R * Lanes;
  Tr.LocalHit = Footprint > 0 ? std::min(1.0, L1Avail / Footprint) : 1.0;
  return Tr;
}

/// Latency path of one warp (Little's law: MLP loads in flight per warp),
/// at least its own issue time \p ChainMin; \p ConvOnInt conversions run
/// on the integer pipe (UnitMix::ConvOnInt).
static LatencyPath latencyPath(const KernelProfile &K, const BlockScope &Sc,
                               const ThreadTraffic &Tr, double SpillAccesses,
                               double ChainMin, double ConvOnInt) {
  LatencyPath LP;
  const double S = Sc.S, LocalHit = Tr.LocalHit;
  // The share of a waited-for access's round trips that go to DRAM: the
  // loads' and atomics' own bytes (stores are fire-and-forget).
  const double L2PerThread =
                   Tr.Global.ReadL2 > 0 ? Tr.Global.ReadL2 : Tr.Global.L2,
               DramPerThread =
                   Tr.Global.ReadL2 > 0 ? Tr.Global.ReadDram : Tr.Global.Dram;
  double MLP = std::max(1.0, K.MLP), ILP = std::max(1.0, K.ILP);
  // The accesses a warp waits for: loads, generic loads, atomics.
  const double Waited = K.op(OpClass::LoadGlobal) + K.op(OpClass::LoadGeneric) +
                        K.op(OpClass::AtomicGlobal);
  double Loads = Waited * Sc.SGlobal;
  double DramFrac = L2PerThread > 0 ? std::min(1.0, DramPerThread / L2PerThread)
                                    : 1.0;
  // The round trips the L1 serves between a loop's passes (a lane's
  // sector read again on the next passes): an L1 hit's latency.
  double L1Frac = Tr.Global.ReadL1Pass > 0 && Tr.Global.ReadL2 > 0
                      ? Tr.Global.ReadL1Pass /
                            (Tr.Global.ReadL1Pass + Tr.Global.ReadL2)
                      : 0.0;
  double MemRounds = Loads / MLP;
  double Alu = (K.op(OpClass::FP32) * mc::LatFP32 + K.op(OpClass::Int) * mc::LatInt +
                K.op(OpClass::IntMul) * mc::LatIntMul +
                K.op(OpClass::FP16) * mc::LatFP16 +
                K.op(OpClass::FP64) * mc::LatFP64 + K.op(OpClass::SFU) * mc::LatSFU +
                K.op(OpClass::Conv) * mc::LatConv +
                ConvOnInt * (mc::LatInt - mc::LatConv) +
                K.op(OpClass::Shuffle) * mc::LatShuffle +
                K.op(OpClass::LoadShared) * mc::LatShared) * S / ILP;
  double SpillLoads = SpillAccesses * 0.5 * S;
  double LocalLat = (SpillLoads + K.op(OpClass::LoadLocal) * S) *
                    (LocalHit * mc::LatL1 + (1 - LocalHit) * mc::LatL2Cycles) / ILP;
  LP.BarrierCycles = K.op(OpClass::Barrier) * S *
                     (mc::LatBarrier + 2.0 * Sc.WarpsPerBlock);
  LP.ChainMemCycles =
      MemRounds * (L1Frac * mc::LatL1 +
                   (1 - L1Frac) * (DramFrac * mc::LatDramCycles +
                                   (1 - DramFrac) * mc::LatL2Cycles));
  double Chain = Alu + LocalLat + LP.BarrierCycles + LP.ChainMemCycles;
  LP.ChainCycles = std::max(Chain, ChainMin);
  LP.ChainDramNs = MemRounds * (1 - L1Frac) * DramFrac * mc::LatDramNs;
  // A barrier phase that copies global memory to shared memory holds the
  // whole block: its warps issue the copy's loads, wait for them and store
  // them, and nothing of the block issues meanwhile. Loads that feed the
  // arithmetic of a phase instead (CLBlast's SA = 0 reads straight from
  // global memory in its k loop) are one warp's waits, which the block's
  // other warps fill with their work, as another block's would. Their
  // share: the waited-for accesses a warp stores to shared memory, by
  // count (docs/MODEL.md, "Barrier phases").
  const double Copies = K.op(OpClass::StoreShared);
  if (Waited > 0 && Copies < Waited)
    LP.PhaseMemShare = Copies / Waited;
  return LP;
}

/// Energy units of one block (FP32 lane-op equivalents): lane operations by
/// weight, and the bytes \p W moves through L2, shared memory and L1.
static double energyUnits(const KernelProfile &K, const BlockScope &Sc,
                          const UnitMix &M, const BlockWork &W) {
  const double S = Sc.S;
  double PerThreadUnits =
      (K.op(OpClass::FP32) * mc::WFP32 + K.op(OpClass::FP16) * mc::WFP16 +
       K.op(OpClass::FP64) * mc::WFP64 + K.op(OpClass::Int) * mc::WInt +
       K.op(OpClass::IntMul) * mc::WIntMul + K.op(OpClass::SFU) * mc::WSFU +
       K.op(OpClass::Conv) * mc::WConv + M.ConvOnInt * (mc::WInt - mc::WConv) +
       K.op(OpClass::Shuffle) * mc::WShuffle +
       K.op(OpClass::Branch) * mc::WBranch +
       K.op(OpClass::Barrier) * mc::WBarrier +
       (K.op(OpClass::Other) + K.op(OpClass::LoadConst)) * mc::WOther +
       M.Instr[ULdSt] * mc::WLdSt) *
          S +
      tensorFlops(K, Sc) * mc::WTensorFlop;
  return PerThreadUnits * Sc.Lanes + W.L2Bytes * mc::WL2Byte +
         W.SharedBytes * mc::WSharedByte + W.L1Bytes * mc::WL1Byte;
}

/// The launch's classes of blocks by their work past the bounds checks, as
/// multipliers of the average block (whose work the active fraction \p
/// Active already scales); empty when every thread does all its work (so
/// every block is alike; grid-stride loops count so) or no class was found.
static std::vector<Context::BlockClass>
blockClasses(const KernelProfile &K, const LaunchConfig &Cfg,
             const std::array<unsigned, 3> &Grid, double Active) {
  std::vector<Context::BlockClass> Out;
  if (Active >= 1)
    return Out;
  std::vector<BlockShare> Shares = blockShares(K, Cfg.Block, Grid);
  double Mean = 0, MeanMem = 0;
  for (const BlockShare &B : Shares) {
    Mean += B.Weight * B.Active;
    MeanMem += B.Weight * B.ActiveMem;
  }
  if (Mean <= 0)
    return Out;
  for (const BlockShare &B : Shares) {
    double Work = B.Active / Mean;
    double Mem = MeanMem > 0 ? B.ActiveMem / MeanMem : Work;
    // The busiest thread's memory round trips: its instructions' share
    // scaled as the class's bytes are against its instructions.
    double Chain = B.Busiest / Mean;
    Out.push_back({B.Weight, Work, Chain, Mem,
                   Work > 0 ? Chain * Mem / Work : Chain});
  }
  return Out;
}

/// \p N blocks, \p R per SM: full waves on every SM, then the tail.
static RoundPlan roundPlan(const GPUSpec &G, double N, unsigned R) {
  RoundPlan RP;
  RP.SMs = G.SMCount;
  RP.R = R;
  double PerWave = double(G.SMCount) * R;
  RP.FullRounds = std::floor(N / PerWave);
  double Left = N - RP.FullRounds * PerWave;
  if (Left > 0.5) {
    RP.TailSMs = unsigned(std::min(Left, double(G.SMCount)));
    RP.TailK = unsigned(std::ceil(Left / G.SMCount));
    RP.TailSMShare =
        std::pow(double(RP.TailSMs) / G.SMCount, mc::ActiveSMExponent);
  }
  RP.IdealRounds = N / PerWave;
  return RP;
}

static Rates gpuRates(const GPUSpec &G, const PowerCurve &C) {
  Rates Rt;
  double L2PerClk = G.L2BandwidthBytesPerClkPerSM > 0
                        ? G.L2BandwidthBytesPerClkPerSM
                        : 64.0;
  Rt.L2BytesPerClkPerSM = L2PerClk;
  double DramGBs = G.MemoryBandwidthGBs > 0 ? G.MemoryBandwidthGBs : 500;
  double Eff = G.DramEfficiency > 0 ? std::min(1.0, G.DramEfficiency)
                                    : mc::DramEfficiency;
  Rt.DramBytesPerS = DramGBs * 1e9 * Eff;
  Rt.EUnitJ = C.DynW * (1 - mc::CycleDynShare) /
              (double(G.SMCount) * lanes(G.Throughput.FP32) * C.FMaxMHz * 1e6);
  Rt.DramJPerByte = dramPJPerByte(G.MemoryType) * 1e-12;
  return Rt;
}

/// The work of one block from the per-thread counts, and the traffic of
/// the launch's \p N blocks.
static LaunchWork launchWork(const KernelProfile &K, const GPUSpec &G,
                             const LaunchConfig &Cfg, const RegisterBudget &RB,
                             const OccupancyResult &Occ, const BlockScope &Sc,
                             double N) {
  const double S = Sc.S, Lanes = Sc.Lanes;
  LaunchWork LW;
  double Spill = spillAccesses(K, RB);
  LW.SpillBytesPerThread = Spill * 4 * S;
  UnitMix Mix = unitMix(K, G, Spill);
  IssueWork Is = issueWork(K, G, Cfg, Sc, Mix);
  BlockWork &W = LW.W;
  std::copy(std::begin(Is.UnitCycles), std::end(Is.UnitCycles),
            std::begin(W.UnitCycles));
  W.SchedCycles = Is.SchedCycles;
  W.IssueCycles = Is.IssueCycles;
  W.MioPortCycles = Is.MioPortCycles;
  W.SharedCycles = Is.SharedCycles;
  W.SharedLeads = Is.SharedLeads;
  W.SharedBytes = K.SharedBytes * S * Lanes;

  ThreadTraffic Tr =
      threadTraffic(K, G, Cfg, RB, Occ, Lanes, Spill, N, Sc.SGlobal);
  const double LocalHit = Tr.LocalHit;
  W.L2Bytes = (Tr.Global.L2 * Sc.SGlobal +
               Tr.LocalPerThread * (1 - LocalHit) * S) *
              Lanes;
  W.DramBytes = Tr.Global.Dram * Sc.SGlobal * Lanes;
  W.L1Bytes = Tr.LocalPerThread * LocalHit * S * Lanes;

  LatencyPath LP = latencyPath(K, Sc, Tr, Spill, Is.ChainMin, Mix.ConvOnInt);
  W.BarrierCycles = LP.BarrierCycles;
  W.ChainCycles = LP.ChainCycles;
  W.ChainDramNs = LP.ChainDramNs;
  W.ChainMemCycles = std::min(LP.ChainMemCycles, LP.ChainCycles);
  W.PhaseMemShare = LP.PhaseMemShare;
  W.EnergyUnits = energyUnits(K, Sc, Mix, W);

  LW.DramBytes = W.DramBytes * N;
  LW.L2Bytes = W.L2Bytes * N;
  LW.SharedBytes = W.SharedBytes * N;
  LW.LocalBytes = Tr.LocalPerThread * S * Lanes * N;
  return LW;
}

Prepared modelimpl::prepare(const KernelProfile &K, const GPUSpec &G,
                            const LaunchConfig &Cfg, const ModelOptions &Opts) {
  Prepared Out(G);
  Prediction &P = Out.P;
  P.Config = Cfg;
  auto Fail = [&](const char *Why) {
    P.Valid = false;
    P.Invalid = Why;
  };
  if (const char *Why = shapeProblem(K, G, Cfg)) {
    Fail(Why);
    return Out;
  }
  const unsigned B = Cfg.blockThreads();
  RegisterBudget RB = registerBudget(K, G, Cfg);
  if (RB.Cap == 0) {
    Fail("no register budget for this block size");
    return Out;
  }
  P.RegsPerThread = RB.Regs;
  P.RegisterCap = Cfg.MinBlocksPerSM ? RB.Cap : 0;
  size_t Shared = sharedPerBlock(K, Cfg);
  size_t SharedMax = std::max(G.SharedPerBlockOptin, G.SharedPerBlock);
  if (SharedMax && Shared > SharedMax) {
    Fail("shared memory per block beyond the GPU's limit");
    return Out;
  }
  OccupancyInput OI;
  OI.BlockThreads = B;
  OI.RegsPerThread = RB.Regs;
  OI.SharedPerBlock = Shared;
  P.Occ = computeOccupancy(G, OI);
  if (P.Occ.BlocksPerSM == 0) {
    Fail("no block fits on an SM");
    return Out;
  }
  const unsigned R = P.Occ.BlocksPerSM;
  BlockScope Sc;
  Sc.WarpsPerBlock = (B + G.WarpSize - 1) / G.WarpSize;
  Sc.Lanes = Sc.WarpsPerBlock * double(G.WarpSize);

  // --- Problem size, grid and work per thread.
  GridPlan GP = gridPlan(K, G, Cfg, Opts, R);
  const double N = GP.Blocks;
  P.Config.Grid = {unsigned(std::min(N, 4294967295.0)), 1, 1};
  if (GP.GivenGrid)
    P.Config.Grid = Cfg.Grid;
  // Bounds checks: threads of this launch that skip the guarded work (a
  // loop over the launched threads covers its own; one over blocks leaves
  // the block's threads' checks, `if (threadIdx.x == 0)`).
  const bool Checked = !GP.GridStride || GP.ByBlocks;
  P.ActiveFraction =
      Checked ? activeFraction(K, Cfg.Block, P.Config.Grid) : 1.0;
  P.WorkScale = GP.WorkScale * P.ActiveFraction;
  P.Config.TotalThreads = uint64_t(GP.Threads);
  Sc.S = P.WorkScale * GP.Useful;
  Sc.SEngine =
      GP.WorkScale *
      (Checked ? activeBlockFraction(K, Cfg.Block, P.Config.Grid) : 1.0) *
      GP.Useful;
  // Shared accesses behind checks of their own, where the profile's
  // accesses name them (the PTX front end's; docs/MODEL.md "Shared
  // memory"): the mean share in S does not charge a tree's last steps.
  Sc.Checks.PerAccess = Checked && K.SharedChecksKnown && !K.Guarded.empty();
  Sc.Checks.ActiveFraction = P.ActiveFraction;
  Sc.Checks.Grid = P.Config.Grid;
  // The bytes behind the checks can be a share of their own (a loop of
  // loads only block 0 runs).
  Sc.SGlobal =
      GP.MemWorkScale *
      (Checked ? activeMemoryFraction(K, Cfg.Block, P.Config.Grid) : 1.0) *
      GP.Useful;

  // --- Work of one block (clock independent), rounds and rates.
  Context &X = Out.X;
  X.Curve = powerCurve(G);
  // The launch with its grid resolved (the re-reads' resident blocks).
  LaunchWork LW = launchWork(K, G, P.Config, RB, P.Occ, Sc, N);
  X.W = LW.W;
  P.SpillBytesPerThread = LW.SpillBytesPerThread;
  P.DramBytes = LW.DramBytes;
  P.L2Bytes = LW.L2Bytes;
  P.SharedBytes = LW.SharedBytes;
  P.LocalBytes = LW.LocalBytes;
  X.Rounds = roundPlan(G, N, R);
  X.Classes = blockClasses(K, Cfg, P.Config.Grid, P.ActiveFraction);
  P.Waves = X.Rounds.IdealRounds;
  X.Rt = gpuRates(G, X.Curve);
  X.UnitNorm = unitOverlapNorm();
  X.LatencyNorm = overlapNorm();
  X.BarrierPhase = barrierPhaseShare();
  return Out;
}
