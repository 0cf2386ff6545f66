//===- Model.cpp - Time, power and energy of one launch configuration -----===//
//
// A roofline-plus-latency time model evaluated per wave ("round") of resident
// blocks, a DVFS power model (reference clock-to-power curve, activity-scaled
// dynamic power, DRAM energy per byte), and energy = average power x time.
// Every equation and constant is in docs/MODEL.md with its source; the
// constants live in flipflop/Model/ModelConstants.h.
//
// predict() allocates nothing: it is called ~10^3 times per kernel.
//
//===----------------------------------------------------------------------===//
#include "flipflop/Model/Model.h"
#include "flipflop/Model/ModelConstants.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <tuple>

using namespace flipflop;
namespace mc = flipflop::modelconst;

const char *flipflop::bottleneckName(Bottleneck B) {
  switch (B) {
  case Bottleneck::DRAM: return "dram";
  case Bottleneck::L2: return "l2";
  case Bottleneck::SharedMemory: return "shared";
  case Bottleneck::Issue: return "issue";
  case Bottleneck::Latency: return "latency";
  case Bottleneck::Tail: return "tail";
  case Bottleneck::Launch: return "launch";
  }
  return "unknown";
}

//===----------------------------------------------------------------------===//
// Power against clock.
//===----------------------------------------------------------------------===//

static double dramPJPerByte(const std::string &Type);

/// Static board power at the floor voltage with no work running: the idle
/// figure, plus the memory background that a GDDR/LPDDR board's idle figure
/// (memory clock lowered) does not hold. HBM boards idle with the memory at
/// full clock, so their idle figure holds it (docs/MODEL.md section 3).
static double staticFloorW(const GPUSpec &GPU, double TdpW) {
  const PowerSpec &P = GPU.Power;
  double Idle = P.IdleW > 0 ? P.IdleW : mc::IdleFallbackTdpShare * TdpW;
  if (GPU.MemoryType.find("HBM") != std::string::npos)
    return Idle;
  double PeakDramW =
      GPU.MemoryBandwidthGBs * 1e9 * dramPJPerByte(GPU.MemoryType) * 1e-12;
  return Idle + mc::MemBackgroundShare * PeakDramW;
}

PowerCurve flipflop::powerCurve(const GPUSpec &GPU) {
  PowerCurve C;
  C.FMaxMHz = GPU.topClockMHz();
  if (C.FMaxMHz <= 0)
    C.FMaxMHz = 1000;
  double Boost = GPU.BoostClockMHz > 0 ? std::min(GPU.BoostClockMHz, C.FMaxMHz)
                                       : C.FMaxMHz;
  C.FMinMHz = GPU.MinClockMHz > 0 ? std::min(GPU.MinClockMHz, C.FMaxMHz)
                                  : 0.15 * C.FMaxMHz;
  const PowerSpec &P = GPU.Power;
  double Tdp = P.DefaultLimitW > 0 ? P.DefaultLimitW
                                   : (P.MaxLimitW > 0 ? P.MaxLimitW : 250);
  C.Derived = !(P.CurveStaticW > 0 && P.CurveDynW > 0);
  C.StaticW = P.CurveStaticW > 0 ? P.CurveStaticW : staticFloorW(GPU, Tdp);
  double Lanes = GPU.Throughput.FP32 > 0 ? GPU.Throughput.FP32 : 64;
  double SMs = GPU.SMCount > 0 ? GPU.SMCount : 1;
  C.DynW = P.CurveDynW > 0 ? P.CurveDynW
                           : mc::EnergyPerFP32LaneOpJ * SMs * Lanes *
                                 C.FMaxMHz * 1e6;
  C.KneeMHz =
      P.VoltKneeMHz > 0 ? P.VoltKneeMHz : mc::CurveKneeFraction * Boost;
  C.FloorRatio = P.VoltFloorRatio > 0 ? std::min(1.0, P.VoltFloorRatio)
                                      : mc::CurveFloorRatio;
  C.StaticVoltExp = mc::StaticVoltExponent;
  return C;
}

double flipflop::voltageRatio(const PowerCurve &C, double ClockMHz) {
  if (ClockMHz <= C.KneeMHz || C.KneeMHz >= C.FMaxMHz)
    return C.FloorRatio;
  return C.FloorRatio + (1 - C.FloorRatio) * (ClockMHz - C.KneeMHz) /
                            (C.FMaxMHz - C.KneeMHz);
}

double flipflop::staticPower(const PowerCurve &C, double ClockMHz) {
  if (C.StaticVoltExp == 0 || C.FloorRatio <= 0)
    return C.StaticW;
  return C.StaticW *
         std::pow(voltageRatio(C, ClockMHz) / C.FloorRatio, C.StaticVoltExp);
}

/// (f/fmax) * (V/Vmax)^2: the dynamic-power factor of the curve.
static double curveShape(const PowerCurve &C, double ClockMHz) {
  double V = voltageRatio(C, ClockMHz);
  return ClockMHz / C.FMaxMHz * V * V;
}

double flipflop::boardPower(const GPUSpec &GPU, double ClockMHz,
                            double ActivityFraction) {
  PowerCurve C = powerCurve(GPU);
  return staticPower(C, ClockMHz) +
         C.DynW * ActivityFraction * curveShape(C, ClockMHz);
}

double flipflop::clockUnderPowerLimit(const GPUSpec &GPU, double PowerLimitW,
                                      double ActivityFraction) {
  PowerCurve C = powerCurve(GPU);
  auto P = [&](double F) {
    return staticPower(C, F) + C.DynW * ActivityFraction * curveShape(C, F);
  };
  if (P(C.FMaxMHz) <= PowerLimitW)
    return C.FMaxMHz;
  if (P(C.FMinMHz) > PowerLimitW)
    return C.FMinMHz;
  double Lo = C.FMinMHz, Hi = C.FMaxMHz;
  for (int I = 0; I < 40 && Hi - Lo > 1e-3; ++I) {
    double Mid = 0.5 * (Lo + Hi);
    (P(Mid) <= PowerLimitW ? Lo : Hi) = Mid;
  }
  return Lo;
}

std::string flipflop::powerLimitNote(const GPUSpec &GPU, const Prediction &P) {
  char Buf[320];
  if (P.ClockOutOfRange) {
    std::snprintf(Buf, sizeof(Buf),
                  "locked clock %.0f MHz is outside the %.0f-%.0f MHz of %s "
                  "(nvidia-smi -lgc refuses it); modelled at %.0f MHz",
                  P.Config.LockedClockMHz, GPU.MinClockMHz, GPU.topClockMHz(),
                  GPU.Name.c_str(), P.LeverValue);
    return Buf;
  }
  double Asked = P.Config.PowerLimitW;
  if (P.LimitOutOfRange) {
    std::snprintf(Buf, sizeof(Buf),
                  "power limit %.0f W is outside the %.0f-%.0f W that %s "
                  "accepts (nvidia-smi -pl refuses it); modelled at %.0f W",
                  Asked, GPU.Power.MinLimitW, GPU.Power.MaxLimitW,
                  GPU.Name.c_str(), P.PowerLimitW);
    return Buf;
  }
  if (P.LimitUnreachable) {
    std::snprintf(Buf, sizeof(Buf),
                  "power limit %.0f W is unreachable for this kernel on %s: "
                  "it draws %.0f W even at the lowest clock (%.0f MHz), "
                  "where it is modelled",
                  P.PowerLimitW, GPU.Name.c_str(), P.AvgPowerW, P.ClockMHz);
    return Buf;
  }
  return "";
}

//===----------------------------------------------------------------------===//
// Time.
//===----------------------------------------------------------------------===//

namespace {

/// Functional units whose busy cycles the issue soft maximum combines.
/// ULdSt is the memory pipeline: LSU address lanes, then the L1/shared data
/// path (128-byte wavefronts of global, local and shared accesses).
enum Unit : unsigned { UFP32, UFP64, UFP16, UInt, UIMul, USFU, UConv, UShfl,
                       ULdSt, UTensor, NumUnits };

/// Clock-independent work of one block, and of one warp's critical path.
struct BlockWork {
  double UnitCycles[NumUnits] = {}; ///< Per block.
  double SchedCycles = 0;           ///< Warp instructions / schedulers.
  double IssueCycles = 0;           ///< max(UnitCycles, SchedCycles).
  double SharedCycles = 0;          ///< Shared part of the data path.
  bool SharedLeads = false;         ///< Shared wavefronts bound the issue.
  double L2Bytes = 0, DramBytes = 0, SharedBytes = 0, L1Bytes = 0;
  double ChainCycles = 0;   ///< Per warp, core-clock part of the latency path.
  double ChainDramNs = 0;   ///< Per warp, ns part (DRAM off-chip latency).
  double BarrierCycles = 0; ///< Per warp, included in ChainCycles.
  double EnergyUnits = 0;   ///< In FP32-lane-op equivalents, per block.
};

struct RoundTimes {
  double T = 0, Issue = 0, Shared = 0, L2 = 0, Dram = 0, Lat = 0;
};

struct Context {
  const GPUSpec &G;
  PowerCurve Curve;
  BlockWork W;
  double L2BytesPerClkPerSM = 0, DramBytesPerS = 0;
  double EUnitJ = 0;      ///< Joules per FP32 lane op at Vmax.
  double DramJPerByte = 0;
  unsigned SMs = 1, R = 1;
  double FullRounds = 0;  ///< Rounds with R blocks on every SM.
  unsigned TailK = 0, TailSMs = 0;
  double TailSMShare = 1; ///< (TailSMs / SMs)^beta.
  double IdealRounds = 0; ///< Grid / (SMs x R).

  explicit Context(const GPUSpec &G) : G(G) {}

  RoundTimes round(double K, double NSM, double FHz) const {
    RoundTimes RT;
    RT.Issue = K * W.IssueCycles / FHz;
    RT.Shared = K * W.SharedCycles / FHz;
    RT.L2 = K * W.L2Bytes / (L2BytesPerClkPerSM * FHz);
    RT.Dram = K * NSM * W.DramBytes / DramBytesPerS;
    RT.Lat = W.ChainCycles / FHz + W.ChainDramNs * 1e-9;
    double Thru = std::max(std::max(RT.Issue, RT.Shared),
                           std::max(RT.L2, RT.Dram));
    static_assert(mc::OverlapNorm == 4, "round() computes a 4-norm");
    double A2 = Thru * Thru, B2 = RT.Lat * RT.Lat;
    RT.T = std::sqrt(std::sqrt(A2 * A2 + B2 * B2));
    return RT;
  }

  /// Energy of a round (J), split into cycle+work (core) and DRAM parts.
  void roundEnergy(double K, double NSM, double SMShare, double FMHz, double T,
                   double &Core, double &Dram) const {
    double V = voltageRatio(Curve, FMHz);
    double CyclePower = Curve.DynW * mc::CycleDynShare * (FMHz / Curve.FMaxMHz) *
                        V * V * SMShare;
    Core = CyclePower * T + K * NSM * W.EnergyUnits * EUnitJ * V * V;
    Dram = K * NSM * W.DramBytes * DramJPerByte;
  }
};

struct Eval {
  double T = 0, ECore = 0, EDram = 0;
  RoundTimes Sum; ///< Component times summed over rounds.
  double TIdeal = 0;
};

} // namespace

static Eval evaluate(const Context &X, double FMHz) {
  Eval E;
  double FHz = FMHz * 1e6;
  auto Add = [&](double K, double NSM, double Share, double Count) {
    if (Count <= 0 || K <= 0)
      return;
    RoundTimes RT = X.round(K, NSM, FHz);
    double C, D;
    X.roundEnergy(K, NSM, Share, FMHz, RT.T, C, D);
    E.T += Count * RT.T;
    E.ECore += Count * C;
    E.EDram += Count * D;
    E.Sum.Issue += Count * RT.Issue;
    E.Sum.Shared += Count * RT.Shared;
    E.Sum.L2 += Count * RT.L2;
    E.Sum.Dram += Count * RT.Dram;
    E.Sum.Lat += Count * RT.Lat;
  };
  Add(X.R, X.SMs, 1.0, X.FullRounds);
  Add(X.TailK, X.TailSMs, X.TailSMShare, 1);
  E.TIdeal = X.IdealRounds * X.round(X.R, X.SMs, FHz).T;
  return E;
}

static double lanes(double L) { return L > 0 ? L : mc::FallbackLanes; }

/// Exponent of the issue soft maximum; FLIPFLOP_FIT_UNIT_NORM overrides it
/// for scripts/fit-time-model.py only (not a user option).
static double unitOverlapNorm() {
  static const double N = [] {
    if (const char *E = std::getenv("FLIPFLOP_FIT_UNIT_NORM")) {
      double V = std::strtod(E, nullptr);
      if (V >= 1 && V <= 64)
        return V;
    }
    return mc::UnitOverlapNorm;
  }();
  return N;
}

/// p-norm of the unit times and the scheduler time, scaled so that it never
/// falls below their maximum (a soft maximum).
static double softMax(const double (&Units)[NumUnits], double Sched, double P) {
  double Max = Sched;
  for (double C : Units)
    Max = std::max(Max, C);
  if (Max <= 0)
    return 0;
  double Sum = std::pow(Sched / Max, P);
  for (double C : Units)
    Sum += std::pow(C / Max, P);
  return Max * std::pow(Sum, 1 / P);
}

static double dramPJPerByte(const std::string &Type) {
  if (Type.find("HBM") != std::string::npos)
    return mc::DramPJPerByteHBM;
  if (Type.find("GDDR5") != std::string::npos)
    return mc::DramPJPerByteGDDR5;
  return mc::DramPJPerByteGDDR6;
}


/// Global traffic per thread: bytes between L2 and SM, and DRAM bytes.
/// Sibling loads (same base pointer, stride and count; MemAccess::BaseId)
/// whose offsets fill the gaps of their lane stride: per access, the share
/// of its lines that the group does not already bring into L1. A thread
/// reading a contiguous row of N floats as N loads at lane stride 4N moves
/// the row once, not N times the stride.
static std::vector<double> siblingShare(const KernelProfile &K) {
  std::vector<double> Share(K.Accesses.size(), 1.0);
  std::map<std::tuple<unsigned, int64_t, double>, std::vector<size_t>> Groups;
  for (size_t I = 0; I < K.Accesses.size(); ++I) {
    const MemAccess &A = K.Accesses[I];
    if (A.BaseId && !A.IsStore && !A.IsAtomic &&
        A.Pattern == AccessPattern::Strided &&
        std::llabs(A.StrideBytes) > int64_t(A.Bytes) &&
        (A.Space == AddrSpace::Global || A.Space == AddrSpace::Generic))
      Groups[{A.BaseId, A.StrideBytes, A.Count}].push_back(I);
  }
  for (auto &[Key, Members] : Groups) {
    // Members sorted by offset, cut into windows of one lane stride: only
    // offsets inside one window fill each other's gaps.
    int64_t Stride = std::llabs(std::get<1>(Key));
    std::sort(Members.begin(), Members.end(), [&](size_t A, size_t B) {
      return K.Accesses[A].Offset < K.Accesses[B].Offset;
    });
    for (size_t Begin = 0; Begin < Members.size();) {
      size_t End = Begin;
      int64_t Start = K.Accesses[Members[Begin]].Offset;
      double Covered = 0, Alone = 0;
      int64_t Reach = Start;
      while (End < Members.size() &&
             K.Accesses[Members[End]].Offset < Start + Stride) {
        const MemAccess &A = K.Accesses[Members[End]];
        int64_t B = std::max(A.Offset, Reach);
        int64_t E = std::min(A.Offset + int64_t(A.Bytes), Start + Stride);
        if (E > B) {
          Covered += double(E - B);
          Reach = E;
        }
        // Alone, each access moves its lane's sector(s).
        Alone += std::ceil(A.Bytes / 32.0) * 32.0;
        ++End;
      }
      // Together, the window's covered bytes once (at least one sector).
      double F = std::min(1.0, std::max(32.0, Covered) / Alone);
      for (size_t I = Begin; I < End; ++I)
        Share[Members[I]] = F;
      Begin = End;
    }
  }
  return Share;
}

static void globalTraffic(const KernelProfile &K, const LaunchConfig &C,
                          double &L2B, double &DramB) {
  L2B = DramB = 0;
  bool Any = false;
  std::vector<double> Sibling = siblingShare(K);
  for (size_t AI = 0; AI < K.Accesses.size(); ++AI) {
    const MemAccess &A = K.Accesses[AI];
    if (A.Space != AddrSpace::Global && A.Space != AddrSpace::Generic)
      continue;
    Any = true;
    double Sectors = A.SectorsPerRequest > 0
                         ? A.SectorsPerRequest
                         : sectorsPerRequest(A.Bytes, A.StrideBytes, A.Pattern);
    // A warp narrower than 32 in x spans 32/x rows: each row is its own
    // coalesced segment (2-D/3-D blocks).
    unsigned BX = C.Block[0];
    // In-block reuse: a load whose address does not depend on threadIdx.d
    // reads the same data in every thread along d. Lanes of one warp along
    // d share its sectors; other warps find them in L1.
    bool Shared = A.ThreadDimsKnown && !A.IsStore && !A.IsAtomic &&
                  !(A.BlockDims & AddrDependsOnData) &&
                  A.Pattern != AccessPattern::Uniform;
    bool RowsDiffer = !Shared || (A.ThreadDims & 6u) != 0;
    if (A.Pattern == AccessPattern::Coalesced && BX < 32 && C.Block[1] > 1 &&
        RowsDiffer) {
      double Rows = 32.0 / BX;
      double PerRow = std::ceil(BX * A.Bytes / 32.0);
      Sectors = std::max(Sectors, Rows * PerRow);
    }
    double InBlock = 1;
    if (Shared) {
      double WarpSpan = 32; // Lanes of a warp, x first.
      for (unsigned D = 0; D < 3; ++D) {
        double Ext = std::max(1u, C.Block[D]);
        double InWarp = std::min(Ext, std::max(1.0, WarpSpan));
        WarpSpan /= Ext;
        if (!(A.ThreadDims & (1u << D)))
          InBlock *= Ext / InWarp;
      }
    }
    double PerLane = Sectors * 32.0 / 32.0 * Sibling[AI]; // Bytes per lane.
    double Count = A.LoopInvariant ? std::min(A.Count, 1.0) : A.Count;
    L2B += PerLane * Count / InBlock;
    if (A.Pattern != AccessPattern::Uniform && !A.IsAtomic)
      DramB += PerLane * Count / InBlock *
               (A.ReusedAcrossBlocks ? 1 - mc::InterBlockL2HitRate : 1.0);
  }
  if (!Any) {
    L2B = DramB = K.GlobalSectorBytes;
  }
}

/// L1 data-path wavefronts per warp (loop weighted) of the global and
/// generic accesses, hits included. The L1 serves a warp request in passes
/// of 128 bytes of lane data (32 lanes of 4 bytes, 16 of 8, 8 of 16: the
/// CUDA guide's rule for 64- and 128-bit accesses), and each pass costs one
/// wavefront per 128-byte line its lanes touch. Lanes that share an address
/// (it does not depend on their threadIdx dimension) share a line within a
/// pass, not across passes.
static double globalWavefronts(const KernelProfile &K, const LaunchConfig &C) {
  double Waves = 0;
  for (const MemAccess &A : K.Accesses) {
    if (A.Space != AddrSpace::Global && A.Space != AddrSpace::Generic)
      continue;
    double Count = A.LoopInvariant ? std::min(A.Count, 1.0) : A.Count;
    double Bytes = std::clamp(double(A.Bytes), 1.0, 16.0);
    double PassLanes = std::min(32.0, 128.0 / std::max(4.0, Bytes));
    double Passes = 32.0 / PassLanes;
    if (A.Pattern == AccessPattern::Uniform) {
      Waves += Count * Passes;
      continue;
    }
    // Distinct addresses among one pass's lanes (x first).
    double Distinct = PassLanes, Span = PassLanes;
    for (unsigned D = 0; D < 3; ++D) {
      double Ext = std::max(1u, C.Block[D]);
      double InPass = std::min(Ext, std::max(1.0, Span));
      Span /= Ext;
      if (A.ThreadDimsKnown && !(A.BlockDims & AddrDependsOnData) &&
          !(A.ThreadDims & (1u << D)))
        Distinct /= InPass;
    }
    Distinct = std::max(1.0, Distinct);
    double Lines;
    if (A.Pattern == AccessPattern::Coalesced ||
        A.Pattern == AccessPattern::Strided) {
      double Step = std::max(Bytes, double(std::llabs(A.StrideBytes)));
      Lines = Distinct * std::min(Step, 128.0) / 128.0;
    } else {
      double Sectors = A.SectorsPerRequest > 0
                           ? A.SectorsPerRequest
                           : sectorsPerRequest(A.Bytes, A.StrideBytes,
                                               A.Pattern);
      Lines = Sectors / Passes * Distinct / PassLanes * 32.0 / 128.0;
    }
    Waves += Count * Passes * std::max(1.0, Lines);
  }
  return Waves;
}

/// Everything of predict() that does not depend on the power limit. Returns
/// false (with P.Valid false) when the configuration cannot launch.
static bool prepare(const KernelProfile &K, const GPUSpec &G,
                    const LaunchConfig &Cfg, const ModelOptions &Opts,
                    Prediction &P, Context &X) {
  P.Config = Cfg;
  auto Fail = [&](const char *Why) {
    P.Valid = false;
    P.Invalid = Why;
    return false;
  };
  const unsigned B = Cfg.blockThreads();
  if (B == 0)
    return Fail("empty block");
  if (B > G.MaxThreadsPerBlock)
    return Fail("block larger than the GPU's maximum threads per block");
  if (Cfg.Block[2] > 64 || Cfg.Block[0] > 1024 || Cfg.Block[1] > 1024)
    return Fail("block dimension beyond 1024 x 1024 x 64");
  if (unsigned M = K.Bounds.maxThreads(); M && B > M)
    return Fail("block larger than the kernel's __launch_bounds__");
  if (K.Bounds.ReqNTid[0] &&
      (Cfg.Block[0] != K.Bounds.ReqNTid[0] ||
       Cfg.Block[1] != std::max(1u, K.Bounds.ReqNTid[1]) ||
       Cfg.Block[2] != std::max(1u, K.Bounds.ReqNTid[2])))
    return Fail("block differs from the kernel's required shape (reqntid)");
  if (G.SMCount == 0 || G.WarpSize == 0)
    return Fail("GPU spec has no SMs");

  // Registers under the cap ptxas applies for __launch_bounds__(B, m).
  unsigned Need = K.registersNeeded();
  unsigned Cap = registerCapForBounds(G, B, std::max(1u, Cfg.MinBlocksPerSM));
  if (K.Bounds.MaxNReg)
    Cap = std::min(Cap, K.Bounds.MaxNReg);
  if (Cap == 0)
    return Fail("no register budget for this block size");
  unsigned Regs = std::min(Need, Cap);
  P.RegsPerThread = Regs;
  P.RegisterCap = Cfg.MinBlocksPerSM ? Cap : 0;

  size_t DynShared =
      Cfg.DynamicSharedBytes ? Cfg.DynamicSharedBytes : K.Res.DynamicSharedBytes;
  size_t Shared = K.Res.StaticSharedBytes + DynShared;
  size_t SharedMax = std::max(G.SharedPerBlockOptin, G.SharedPerBlock);
  if (SharedMax && Shared > SharedMax)
    return Fail("shared memory per block beyond the GPU's limit");

  OccupancyInput OI;
  OI.BlockThreads = B;
  OI.RegsPerThread = Regs;
  OI.SharedPerBlock = Shared;
  P.Occ = computeOccupancy(G, OI);
  if (P.Occ.BlocksPerSM == 0)
    return Fail("no block fits on an SM");
  const unsigned R = P.Occ.BlocksPerSM;
  const unsigned WarpsPerBlock = (B + G.WarpSize - 1) / G.WarpSize;
  const double Lanes = WarpsPerBlock * double(G.WarpSize);

  // --- Problem size, grid and work per thread.
  uint64_t GivenGrid = uint64_t(Cfg.Grid[0]) * std::max(1u, Cfg.Grid[1]) *
                       std::max(1u, Cfg.Grid[2]);
  if (!Cfg.Grid[0])
    GivenGrid = 0;
  double T = Cfg.TotalThreads ? double(Cfg.TotalThreads)
             : GivenGrid      ? double(GivenGrid) * B
                              : double(Opts.DefaultTotalThreads);
  bool GridStride = K.Shape.GridStrideLoop;
  bool BlockScaled = K.Shape.WorkScalesWithBlock;
  double TripRef = 1;
  for (const LoopRecord &L : K.Loops) {
    if (L.GridStride && !GridStride) {
      GridStride = true;
    }
    if (L.GridStride && TripRef == 1 && L.Trip > 0)
      TripRef = L.Trip;
    if (L.DependsOnBlockDim)
      BlockScaled = true;
  }
  double N; // Grid blocks.
  double Useful = 1, WorkScale = 1;
  if (GridStride) {
    N = GivenGrid ? double(GivenGrid)
                  : std::min(std::ceil(T / B), double(G.SMCount) * R);
    double Iter = T / (N * B);
    Useful = std::min(1.0, Iter);
    WorkScale = std::max(1.0, Iter) / TripRef;
  } else if (BlockScaled) {
    double B0 = Opts.ReferenceBlockThreads ? Opts.ReferenceBlockThreads : 256;
    N = GivenGrid ? double(GivenGrid) : std::ceil(T / B0);
    WorkScale = B0 / B;
  } else {
    N = GivenGrid ? double(GivenGrid) : std::ceil(T / B);
    Useful = std::min(1.0, T / (N * B));
  }
  // Loops whose trip count follows a block dimension (for j < blockDim.y):
  // the profile counted them at the reference block; their share of the
  // work runs TripPerBlockDim * block[d] + TripBlockOffset times here.
  for (const LoopRecord &L : K.Loops) {
    if (L.TripBlockDim < 0 || L.TripBlockDim > 2 || !(L.Trip > 0))
      continue;
    double Trip = std::max(
        0.0, L.TripPerBlockDim * Cfg.Block[L.TripBlockDim] + L.TripBlockOffset);
    double Share = std::clamp(L.WorkShare, 0.0, 1.0);
    WorkScale *= 1 - Share + Share * Trip / L.Trip;
  }
  N = std::max(1.0, N);
  P.Config.Grid = {unsigned(std::min(N, 4294967295.0)), 1, 1};
  if (GivenGrid)
    P.Config.Grid = Cfg.Grid;
  // Bounds checks: threads of this launch that skip the guarded work.
  P.ActiveFraction = GridStride ? 1.0
                                : activeFraction(K, Cfg.Block, P.Config.Grid);
  WorkScale *= P.ActiveFraction;
  P.WorkScale = WorkScale;
  P.Config.TotalThreads = uint64_t(T);

  // --- Work of one block (clock independent).
  X.Curve = powerCurve(G);
  BlockWork &W = X.W;
  const double S = WorkScale * Useful; // Per-thread multiplier.
  // Divergent branches: both sides of a branch are already counted at full
  // weight per thread (no branch probabilities), which is what a divergent
  // warp issues; no further factor (DivergentWorkFraction is explanation).
  const UnitThroughput &U = G.Throughput;
  const double Sched = std::max(1u, G.SchedulersPerSM);

  // Spills: ptxas-reported, or estimated from the registers cut by the cap.
  // ptxas reports static spill bytes; the allocator spills where pressure
  // peaks, the innermost loop of the deepest nest, so each static spill
  // access runs once per iteration of that nest (K.Loops is in preorder).
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
  double TotalOps = 0;
  for (double O : K.Ops)
    TotalOps += O;
  double SpillAccesses =
      (K.Res.SpillStoreBytes + K.Res.SpillLoadBytes) / 4.0 * MaxTrip;
  if (const CapFact *F = Need > Regs ? K.capFact(Regs) : nullptr) {
    // ptxas was run under this very cap: its spill bytes replace the guess.
    SpillAccesses += (F->SpillStoreBytes + F->SpillLoadBytes) / 4.0 * MaxTrip;
  } else if (Need > Regs) {
    // The allocator spills the least-used values first: the share of operand
    // reads that hit a spilled value grows with the square of the cut.
    // ptxas absorbs the first SpillFreeCut of a cut by rescheduling and
    // rematerialisation.
    double Cut = double(Need - Regs) / Need;
    double Eff = std::max(0.0, Cut - mc::SpillFreeCut) / (1 - mc::SpillFreeCut);
    SpillAccesses += mc::SpillRefsPerOp * TotalOps * Eff * Eff;
  }
  P.SpillBytesPerThread = SpillAccesses * 4 * S;

  double Instr[NumUnits] = {};
  Instr[UFP32] = K.op(OpClass::FP32);
  Instr[UFP64] = K.op(OpClass::FP64);
  Instr[UFP16] = K.op(OpClass::FP16);
  Instr[UInt] = K.op(OpClass::Int);
  Instr[UIMul] = K.op(OpClass::IntMul);
  Instr[USFU] = K.op(OpClass::SFU);
  Instr[UConv] = K.op(OpClass::Conv);
  Instr[UShfl] = K.op(OpClass::Shuffle);
  double LocalOps =
      K.op(OpClass::LoadLocal) + K.op(OpClass::StoreLocal) + SpillAccesses;
  Instr[ULdSt] = K.op(OpClass::LoadGlobal) + K.op(OpClass::StoreGlobal) +
                 K.op(OpClass::LoadShared) + K.op(OpClass::StoreShared) +
                 K.op(OpClass::AtomicGlobal) + K.op(OpClass::AtomicShared) +
                 K.op(OpClass::LoadGeneric) + K.op(OpClass::StoreGeneric) +
                 LocalOps;
  double OtherInstr = K.op(OpClass::Branch) + K.op(OpClass::Barrier) +
                      K.op(OpClass::Other) + K.op(OpClass::LoadConst) +
                      K.op(OpClass::Tensor);
  double UnitLanes[NumUnits] = {
      lanes(U.FP32), lanes(U.FP64), U.FP16 > 0 ? U.FP16 : lanes(U.FP32),
      lanes(U.INT32), lanes(U.IMul), lanes(U.SFU), lanes(U.Conv),
      mc::ShuffleLanesPerClk, lanes(U.LdSt), 1};
  double WarpInstr = OtherInstr;
  double ChainMin = OtherInstr;
  for (unsigned I = 0; I < UTensor; ++I) {
    double WI = Instr[I] * S; // Warp instructions per warp.
    W.UnitCycles[I] = WarpsPerBlock * WI * G.WarpSize / UnitLanes[I];
    WarpInstr += WI;
    ChainMin += WI * std::max(1.0, G.WarpSize * Sched / UnitLanes[I]);
  }
  WarpInstr = (WarpInstr - OtherInstr) + OtherInstr * S;
  ChainMin = (ChainMin - OtherInstr) + OtherInstr * S;
  // Tensor cores: FLOPs per block over the dense rate of the type.
  double TensorRate = 0;
  const std::string &TT = K.TensorType;
  if (TT == "f16" || TT == "bf16")
    TensorRate = U.TensorFP16;
  else if (TT == "tf32")
    TensorRate = U.TensorTF32;
  else if (TT == "s8" || TT == "u8" || TT == "s4" || TT == "u4")
    TensorRate = U.TensorINT8;
  else if (TT == "f64")
    TensorRate = U.TensorFP64;
  if (TensorRate <= 0)
    TensorRate = 2 * lanes(U.FP32); // Emulated on the FP32 pipes.
  W.UnitCycles[UTensor] = K.TensorFlops * S * Lanes / TensorRate;
  W.SchedCycles = WarpsPerBlock * WarpInstr / Sched;
  // Shared memory: wavefronts (bank conflicts included) at 1 per clock.
  double Waves = std::max(K.SharedWavefronts, K.SharedBytes * 32.0 / 128.0);
  if (Waves == 0)
    Waves = K.op(OpClass::LoadShared) + K.op(OpClass::StoreShared) +
            K.op(OpClass::AtomicShared);
  // The L1/shared data path: global and local wavefronts (one per 128-byte
  // line a pass touches; a local access of 4 bytes per lane is one line) and
  // shared wavefronts share it, at L1BytesPerClkPerSM.
  double L1B = G.L1BytesPerClkPerSM > 0 ? G.L1BytesPerClkPerSM : 128.0;
  W.SharedCycles = WarpsPerBlock * Waves * S / mc::SharedWavefrontsPerClk *
                   128.0 / L1B;
  // Address issue (LSU lanes) and data wavefronts are stages of one
  // pipeline: the slower one sets its throughput.
  double DataCycles =
      WarpsPerBlock * S * (globalWavefronts(K, Cfg) + LocalOps) * 128.0 / L1B +
      W.SharedCycles;
  W.UnitCycles[ULdSt] = std::max(W.UnitCycles[ULdSt], DataCycles);
  W.IssueCycles = softMax(W.UnitCycles, W.SchedCycles, unitOverlapNorm());
  // Shared memory leads when the memory pipeline is the busiest unit and
  // shared wavefronts are most of its work (the bottleneck's name).
  double OtherMax = W.SchedCycles;
  for (unsigned I = 0; I < NumUnits; ++I)
    if (I != ULdSt)
      OtherMax = std::max(OtherMax, W.UnitCycles[I]);
  W.SharedLeads = W.UnitCycles[ULdSt] >= OtherMax &&
                  W.SharedCycles >= 0.5 * W.UnitCycles[ULdSt];
  W.SharedBytes = K.SharedBytes * S * Lanes;

  // Global traffic.
  double L2PerThread, DramPerThread;
  globalTraffic(K, Cfg, L2PerThread, DramPerThread);
  // Local (stack + spill) traffic: L1 hits while the resident frames fit in
  // the L1 left over by shared memory, the rest goes to L2.
  double LocalPerThread = K.LocalBytes + SpillAccesses * 4;
  double Frame = K.Res.StackFrameBytes + double(Need - Regs) * 4;
  double L1Avail = std::max(16384.0, double(G.SharedPerSM) + mc::L1ExtraBytes -
                                         double(P.Occ.SharedPerSMConfigured));
  double Footprint = Frame * R * Lanes;
  double LocalHit = Footprint > 0 ? std::min(1.0, L1Avail / Footprint) : 1.0;
  W.L2Bytes = (L2PerThread + LocalPerThread * (1 - LocalHit)) * S * Lanes;
  W.DramBytes = DramPerThread * S * Lanes;
  W.L1Bytes = LocalPerThread * LocalHit * S * Lanes;

  // Latency path of one warp (Little's law: MLP loads in flight per warp).
  double MLP = std::max(1.0, K.MLP), ILP = std::max(1.0, K.ILP);
  double Loads = (K.op(OpClass::LoadGlobal) + K.op(OpClass::LoadGeneric) +
                  K.op(OpClass::AtomicGlobal)) * S;
  double DramFrac = L2PerThread > 0 ? std::min(1.0, DramPerThread / L2PerThread)
                                    : 1.0;
  double MemRounds = Loads / MLP;
  double Alu = (K.op(OpClass::FP32) * mc::LatFP32 + K.op(OpClass::Int) * mc::LatInt +
                K.op(OpClass::IntMul) * mc::LatIntMul +
                K.op(OpClass::FP16) * mc::LatFP16 +
                K.op(OpClass::FP64) * mc::LatFP64 + K.op(OpClass::SFU) * mc::LatSFU +
                K.op(OpClass::Conv) * mc::LatConv +
                K.op(OpClass::Shuffle) * mc::LatShuffle +
                K.op(OpClass::LoadShared) * mc::LatShared) * S / ILP;
  double SpillLoads = SpillAccesses * 0.5 * S;
  double LocalLat = (SpillLoads + K.op(OpClass::LoadLocal) * S) *
                    (LocalHit * mc::LatL1 + (1 - LocalHit) * mc::LatL2Cycles) / ILP;
  W.BarrierCycles = K.op(OpClass::Barrier) * S * (mc::LatBarrier + 2.0 * WarpsPerBlock);
  double Chain = Alu + LocalLat + W.BarrierCycles +
                 MemRounds * (DramFrac * mc::LatDramCycles +
                              (1 - DramFrac) * mc::LatL2Cycles);
  W.ChainCycles = std::max(Chain, ChainMin);
  W.ChainDramNs = MemRounds * DramFrac * mc::LatDramNs;

  // Energy units per block (FP32 lane-op equivalents).
  double PerThreadUnits =
      (K.op(OpClass::FP32) * mc::WFP32 + K.op(OpClass::FP16) * mc::WFP16 +
       K.op(OpClass::FP64) * mc::WFP64 + K.op(OpClass::Int) * mc::WInt +
       K.op(OpClass::IntMul) * mc::WIntMul + K.op(OpClass::SFU) * mc::WSFU +
       K.op(OpClass::Conv) * mc::WConv + K.op(OpClass::Shuffle) * mc::WShuffle +
       K.op(OpClass::Branch) * mc::WBranch + K.op(OpClass::Barrier) * mc::WBarrier +
       (K.op(OpClass::Other) + K.op(OpClass::LoadConst)) * mc::WOther +
       Instr[ULdSt] * mc::WLdSt) * S +
      K.TensorFlops * S * mc::WTensorFlop;
  W.EnergyUnits = PerThreadUnits * Lanes + W.L2Bytes * mc::WL2Byte +
                  W.SharedBytes * mc::WSharedByte + W.L1Bytes * mc::WL1Byte;

  // --- Rounds: full waves on every SM, then the tail.
  X.SMs = G.SMCount;
  X.R = R;
  double PerWave = double(G.SMCount) * R;
  X.FullRounds = std::floor(N / PerWave);
  double Left = N - X.FullRounds * PerWave;
  if (Left > 0.5) {
    X.TailSMs = unsigned(std::min(Left, double(G.SMCount)));
    X.TailK = unsigned(std::ceil(Left / G.SMCount));
    X.TailSMShare =
        std::pow(double(X.TailSMs) / G.SMCount, mc::ActiveSMExponent);
  }
  X.IdealRounds = N / PerWave;
  P.Waves = N / PerWave;
  double L2PerClk = G.L2BandwidthBytesPerClkPerSM > 0
                        ? G.L2BandwidthBytesPerClkPerSM
                        : 64.0;
  X.L2BytesPerClkPerSM = L2PerClk;
  double DramGBs = G.MemoryBandwidthGBs > 0 ? G.MemoryBandwidthGBs : 500;
  double Eff = G.DramEfficiency > 0 ? std::min(1.0, G.DramEfficiency)
                                    : mc::DramEfficiency;
  X.DramBytesPerS = DramGBs * 1e9 * Eff;
  X.EUnitJ = X.Curve.DynW * (1 - mc::CycleDynShare) /
             (double(G.SMCount) * lanes(U.FP32) * X.Curve.FMaxMHz * 1e6);
  X.DramJPerByte = dramPJPerByte(G.MemoryType) * 1e-12;

  P.DramBytes = W.DramBytes * N;
  P.L2Bytes = W.L2Bytes * N;
  P.SharedBytes = W.SharedBytes * N;
  P.LocalBytes = LocalPerThread * S * Lanes * N;
  return true;
}

/// DVFS and the figures at the resulting clock. \p FloorMHz: a clock known
/// to fit the limit (from a lower limit), to narrow the search.
static void setLever(const GPUSpec &G, double TopMHz, Prediction &P);

static void finish(const Context &X, double LimitW, double FloorMHz,
                   Prediction &P, double LockMHz = 0) {
  const GPUSpec &G = X.G;
  const BlockWork &W = X.W;
  // --- DVFS: the highest clock whose average board power fits the limit.
  const PowerSpec &PS = G.Power;
  double Limit = LimitW > 0 ? LimitW
                 : PS.DefaultLimitW > 0 ? PS.DefaultLimitW
                                        : X.Curve.StaticW + X.Curve.DynW * 2;
  P.LimitOutOfRange = (PS.MinLimitW > 0 && Limit < PS.MinLimitW) ||
                      (PS.MaxLimitW > 0 && Limit > PS.MaxLimitW);
  if (PS.MinLimitW > 0)
    Limit = std::max(Limit, PS.MinLimitW);
  if (PS.MaxLimitW > 0)
    Limit = std::min(Limit, PS.MaxLimitW);
  P.PowerLimitW = Limit;
  const double TLaunch = mc::LaunchOverheadS;
  auto AvgPower = [&](const Eval &E, double FMHz) {
    return (staticPower(X.Curve, FMHz) * (E.T + TLaunch) + E.ECore +
            E.EDram) /
           (E.T + TLaunch);
  };
  // A locked clock is the highest the board may run; the limit may still
  // hold it lower (docs/MODEL.md "Levers").
  double Top = X.Curve.FMaxMHz;
  if (LockMHz > 0)
    Top = std::min(std::max(LockMHz, X.Curve.FMinMHz), X.Curve.FMaxMHz);
  double F = Top;
  Eval E = evaluate(X, F);
  if (AvgPower(E, F) > Limit) {
    P.PowerCapped = true;
    double Lo = std::min(std::max(X.Curve.FMinMHz, FloorMHz), Top), Hi = Top;
    Eval ELo = evaluate(X, Lo);
    if (Lo > X.Curve.FMinMHz && AvgPower(ELo, Lo) > Limit) {
      Lo = X.Curve.FMinMHz;
      ELo = evaluate(X, Lo);
    }
    if (AvgPower(ELo, Lo) > Limit) {
      P.LimitUnreachable = true;
      F = Lo;
      E = ELo;
    } else {
      while (Hi - Lo > 0.5) { // Half a MHz: below any DVFS step.
        double Mid = 0.5 * (Lo + Hi);
        Eval EM = evaluate(X, Mid);
        if (AvgPower(EM, Mid) <= Limit) {
          Lo = Mid;
          ELo = EM;
        } else {
          Hi = Mid;
        }
      }
      F = Lo;
      E = ELo;
    }
  }
  P.ClockMHz = F;
  P.TimeS = E.T + TLaunch;
  P.TLaunchS = TLaunch;
  P.TComputeS = E.Sum.Issue;
  P.TDramS = E.Sum.Dram;
  P.TL2S = E.Sum.L2;
  P.TSharedS = E.Sum.Shared;
  P.TLatencyS = E.Sum.Lat;
  double Rounds = X.FullRounds + (X.TailK ? 1 : 0);
  P.TBarrierS = Rounds * W.BarrierCycles / (F * 1e6);
  P.TailFactor = E.TIdeal > 0 ? E.T / E.TIdeal : 1;
  double StaticW = staticPower(X.Curve, F);
  P.EnergyJ = StaticW * P.TimeS + E.ECore + E.EDram;
  P.AvgPowerW = P.EnergyJ / P.TimeS;
  P.PStaticW = StaticW;
  P.PComputeW = E.ECore / P.TimeS;
  P.PMemoryW = E.EDram / P.TimeS;
  // --- The bottleneck: the largest component, unless launch or tail rule.
  struct { double T; Bottleneck B; } Parts[] = {
      {P.TDramS, Bottleneck::DRAM}, {P.TL2S, Bottleneck::L2},
      {P.TSharedS, Bottleneck::SharedMemory}, {P.TComputeS, Bottleneck::Issue},
      {P.TLatencyS, Bottleneck::Latency}};
  double Best = -1;
  for (auto &Pt : Parts)
    if (Pt.T > Best) {
      Best = Pt.T;
      P.Bound = Pt.B;
    }
  if (P.Bound == Bottleneck::Issue && X.W.SharedLeads)
    P.Bound = Bottleneck::SharedMemory;
  P.BoundShare = E.T > 0 ? std::min(1.0, Best / E.T) : 0;
  if (TLaunch > E.T)
    P.Bound = Bottleneck::Launch;
  else if (P.TailFactor >= 1.33)
    P.Bound = Bottleneck::Tail;
  setLever(G, Top, P);
}

Prediction flipflop::predict(const KernelProfile &K, const GPUSpec &G,
                             const LaunchConfig &Cfg, const ModelOptions &Opts) {
  Prediction P;
  Context X(G);
  if (prepare(K, G, Cfg, Opts, P, X))
    finish(X, Cfg.PowerLimitW, 0, P, Cfg.LockedClockMHz);
  return P;
}

void flipflop::predictLimits(const KernelProfile &K, const GPUSpec &G,
                             const LaunchConfig &Cfg,
                             const std::vector<double> &LimitsW,
                             const ModelOptions &Opts,
                             std::vector<Prediction> &Out) {
  Prediction P;
  Context X(G);
  bool Ok = prepare(K, G, Cfg, Opts, P, X);
  double Floor = 0, PrevLimit = -1;
  for (double L : LimitsW) {
    Out.push_back(P);
    Prediction &Q = Out.back();
    Q.Config.PowerLimitW = L;
    if (!Ok)
      continue;
    // A limit above one that did not lower the clock changes nothing.
    if (L >= PrevLimit && PrevLimit >= 0 && !Out[Out.size() - 2].PowerCapped &&
        !Out[Out.size() - 2].LimitUnreachable) {
      Q = Out[Out.size() - 2];
      Q.Config.PowerLimitW = L;
      Q.PowerLimitW = L;
      const PowerSpec &PS = G.Power;
      if (PS.MaxLimitW > 0)
        Q.PowerLimitW = std::min(Q.PowerLimitW, PS.MaxLimitW);
      if (PS.MinLimitW > 0)
        Q.PowerLimitW = std::max(Q.PowerLimitW, PS.MinLimitW);
      Q.LimitOutOfRange = L > 0 && ((PS.MinLimitW > 0 && L < PS.MinLimitW) ||
                                    (PS.MaxLimitW > 0 && L > PS.MaxLimitW));
      setLever(G, 0, Q);
      PrevLimit = L;
      continue;
    }
    finish(X, L, L >= PrevLimit ? Floor : 0, Q);
    Floor = Q.LimitUnreachable ? 0 : Q.ClockMHz;
    PrevLimit = L;
  }
}

//===----------------------------------------------------------------------===//
// Levers (docs/MODEL.md "Levers, bands and ties").
//===----------------------------------------------------------------------===//

const char *flipflop::leverName(Lever L) {
  switch (L) {
  case Lever::None: return "none";
  case Lever::PowerLimit: return "power_limit";
  case Lever::LockedClock: return "locked_clock";
  }
  return "none";
}

/// The lever of \p P: a locked clock (at \p TopMHz, the lock within the
/// clock range), a power limit other than the default, or none.
static void setLever(const GPUSpec &G, double TopMHz, Prediction &P) {
  P.PowerLever = Lever::None;
  P.LeverValue = 0;
  P.ClockOutOfRange = false;
  if (P.Config.LockedClockMHz > 0) {
    P.PowerLever = Lever::LockedClock;
    P.LeverValue = TopMHz > 0 ? TopMHz : P.Config.LockedClockMHz;
    P.ClockOutOfRange = std::fabs(P.LeverValue - P.Config.LockedClockMHz) > 0.5;
    return;
  }
  double Def = G.Power.DefaultLimitW;
  if (P.Config.PowerLimitW > 0 && P.PowerLimitW > 0 &&
      !(Def > 0 && std::fabs(P.PowerLimitW - Def) < 0.5)) {
    P.PowerLever = Lever::PowerLimit;
    P.LeverValue = P.PowerLimitW;
  }
}

void flipflop::predictLockedClocks(const KernelProfile &K, const GPUSpec &G,
                                   const LaunchConfig &Cfg,
                                   const std::vector<double> &ClocksMHz,
                                   const ModelOptions &Opts,
                                   std::vector<Prediction> &Out) {
  Prediction P;
  Context X(G);
  bool Ok = prepare(K, G, Cfg, Opts, P, X);
  for (double F : ClocksMHz) {
    Out.push_back(P);
    Prediction &Q = Out.back();
    Q.Config.LockedClockMHz = F;
    if (Ok)
      finish(X, Cfg.PowerLimitW, 0, Q, F);
  }
}
