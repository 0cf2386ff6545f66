//===- Model.cpp - Time, power and energy of one launch configuration -----===//
//
// A roofline-plus-latency time model evaluated per wave ("round") of resident
// blocks, a DVFS power model (reference clock-to-power curve, activity-scaled
// dynamic power, DRAM energy per byte), and energy = average power x time.
// Every equation and constant is in docs/MODEL.md with its source; the
// constants live in flipflop/Model/ModelConstants.h.
//
// This file: the clock a power limit (or a locked clock) leaves, the figures
// at that clock, the bottleneck and the lever; predict() and its variants
// over limits and clocks. The limit-independent work is in Work.cpp, the
// traffic in Traffic.cpp, the power curve in Power.cpp.
//
//===----------------------------------------------------------------------===//
#include "ModelImpl.h"

using namespace flipflop;
using namespace flipflop::modelimpl;

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

const char *flipflop::issuePipeName(IssuePipe U) {
  switch (U) {
  case IssuePipe::FP32: return "fp32";
  case IssuePipe::FP64: return "fp64";
  case IssuePipe::FP16: return "fp16";
  case IssuePipe::Int: return "int";
  case IssuePipe::IntMul: return "int_mul";
  case IssuePipe::SFU: return "sfu";
  case IssuePipe::Conversion: return "conversion";
  case IssuePipe::Shuffle: return "shuffle";
  case IssuePipe::Memory: return "memory";
  case IssuePipe::Tensor: return "tensor";
  case IssuePipe::Dispatch: return "dispatch";
  case IssuePipe::MioPort: return "mio_port";
  }
  return "dispatch";
}

const char *flipflop::leverName(Lever L) {
  switch (L) {
  case Lever::None: return "none";
  case Lever::PowerLimit: return "power_limit";
  case Lever::LockedClock: return "locked_clock";
  }
  return "none";
}

EnergyPart flipflop::dominantEnergyPart(const Prediction &P) {
  double ES = P.PStaticW, EC = P.PComputeW, ED = P.PMemoryW;
  return ES >= EC && ES >= ED ? EnergyPart::Static
         : EC >= ED           ? EnergyPart::SMDynamic
                              : EnergyPart::DRAM;
}

//===----------------------------------------------------------------------===//
// The launch at one clock.
//===----------------------------------------------------------------------===//

namespace {

/// The launch at one clock: its time, energy and time components.
struct Eval {
  double T = 0, ECore = 0, EDram = 0;
  RoundTimes Sum; ///< Component times summed over rounds.
  double TIdeal = 0;
};

/// The clock a limit leaves and the launch there.
struct ClockChoice {
  double MHz = 0;
  Eval E;
  bool Capped = false;      ///< The limit lowered the clock.
  bool Unreachable = false; ///< Not even the lowest clock meets the limit.
};

/// The limit the board applies.
struct AppliedLimit {
  double W = 0;
  bool OutOfRange = false; ///< The request was outside the settable range.
};

} // namespace

static Eval evaluate(const Context &X, double FMHz) {
  Eval E;
  double FHz = FMHz * 1e6;
  auto Add = [&](double K, double NSM, double Share, double Count) {
    if (Count <= 0 || K <= 0)
      return;
    RoundTimes RT = X.round(K, NSM, FHz);
    RoundEnergy RE = X.roundEnergy(K, NSM, Share, FMHz, RT.T);
    E.T += Count * RT.T;
    E.ECore += Count * RE.Core;
    E.EDram += Count * RE.Dram;
    E.Sum.Issue += Count * RT.Issue;
    E.Sum.Shared += Count * RT.Shared;
    E.Sum.L2 += Count * RT.L2;
    E.Sum.Dram += Count * RT.Dram;
    E.Sum.Lat += Count * RT.Lat;
    E.Sum.Phase += Count * RT.Phase;
  };
  const RoundPlan &RP = X.Rounds;
  Add(RP.R, RP.SMs, 1.0, RP.FullRounds);
  Add(RP.TailK, RP.TailSMs, RP.TailSMShare, 1);
  E.TIdeal = RP.IdealRounds * X.round(RP.R, RP.SMs, FHz).T;
  // A straggler: the rounds weigh the classes of blocks by their share,
  // but the launch ends no sooner than its heaviest block would alone on
  // an SM (a loop only block 0 runs; docs/MODEL.md "Rounds").
  for (const Context::BlockClass &C : X.Classes)
    if (C.Weight > 0 &&
        (C.Work > 1 || C.Chain > 1 || C.Mem > 1 || C.ChainMem > 1))
      E.T = std::max(E.T, X.classRound(1, 1, FHz, C).T);
  return E;
}

/// Average board power of the launch \p E at \p FMHz, launch overhead
/// included.
static double avgPower(const Context &X, const Eval &E, double FMHz) {
  const double TLaunch = mc::LaunchOverheadS;
  return (staticPower(X.Curve, FMHz) * (E.T + TLaunch) + E.ECore + E.EDram) /
         (E.T + TLaunch);
}

/// \p LimitW (0: the default) as the board applies it: at the nearest end of
/// the settable range.
static AppliedLimit applyLimit(const Context &X, double LimitW) {
  const PowerSpec &PS = X.G.Power;
  double Limit = LimitW > 0 ? LimitW
                 : PS.DefaultLimitW > 0 ? PS.DefaultLimitW
                                        : X.Curve.StaticW + X.Curve.DynW * 2;
  AppliedLimit A;
  A.OutOfRange = (PS.MinLimitW > 0 && Limit < PS.MinLimitW) ||
                 (PS.MaxLimitW > 0 && Limit > PS.MaxLimitW);
  if (PS.MinLimitW > 0)
    Limit = std::max(Limit, PS.MinLimitW);
  if (PS.MaxLimitW > 0)
    Limit = std::min(Limit, PS.MaxLimitW);
  A.W = Limit;
  return A;
}

/// DVFS: the highest clock up to \p TopMHz whose average board power fits
/// \p Limit, by bisection to half a MHz. \p FloorMHz: a clock known to fit
/// the limit (from a lower limit), to narrow the search.
static ClockChoice clockUnderLimit(const Context &X, double Limit,
                                   double FloorMHz, double TopMHz) {
  ClockChoice C;
  double F = TopMHz;
  Eval E = evaluate(X, F);
  if (avgPower(X, E, F) > Limit) {
    C.Capped = true;
    double Lo = std::min(std::max(X.Curve.FMinMHz, FloorMHz), TopMHz),
           Hi = TopMHz;
    Eval ELo = evaluate(X, Lo);
    if (Lo > X.Curve.FMinMHz && avgPower(X, ELo, Lo) > Limit) {
      Lo = X.Curve.FMinMHz;
      ELo = evaluate(X, Lo);
    }
    if (avgPower(X, ELo, Lo) > Limit) {
      C.Unreachable = true;
    } else {
      while (Hi - Lo > 0.5) { // Half a MHz: below any DVFS step.
        double Mid = 0.5 * (Lo + Hi);
        Eval EM = evaluate(X, Mid);
        if (avgPower(X, EM, Mid) <= Limit) {
          Lo = Mid;
          ELo = EM;
        } else {
          Hi = Mid;
        }
      }
    }
    F = Lo;
    E = ELo;
  }
  C.MHz = F;
  C.E = E;
  return C;
}

/// Time, its components, energy and power of the launch at the clock \p C.
static void setFigures(const Context &X, const ClockChoice &C,
                       Prediction &P) {
  const double TLaunch = mc::LaunchOverheadS;
  const Eval &E = C.E;
  const double F = C.MHz;
  P.ClockMHz = F;
  P.TimeS = E.T + TLaunch;
  P.TLaunchS = TLaunch;
  P.TComputeS = E.Sum.Issue;
  P.TDramS = E.Sum.Dram;
  P.TL2S = E.Sum.L2;
  P.TSharedS = E.Sum.Shared;
  P.TLatencyS = E.Sum.Lat;
  P.TBarrierPhaseS = E.Sum.Phase;
  double Rounds = X.Rounds.FullRounds + (X.Rounds.TailK ? 1 : 0);
  P.TBarrierS = Rounds * X.W.BarrierCycles / (F * 1e6);
  P.TailFactor = E.TIdeal > 0 ? E.T / E.TIdeal : 1;
  double StaticW = staticPower(X.Curve, F);
  P.EnergyJ = StaticW * P.TimeS + E.ECore + E.EDram;
  P.AvgPowerW = P.EnergyJ / P.TimeS;
  P.PStaticW = StaticW;
  P.PComputeW = E.ECore / P.TimeS;
  P.PMemoryW = E.EDram / P.TimeS;
}

/// The bottleneck: the largest component, unless launch or tail rule.
static void setBottleneck(const Context &X, const Eval &E, Prediction &P) {
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
  // The busiest pipe (modelimpl::Unit order, then the schedulers).
  static_assert(unsigned(IssuePipe::Conversion) == UConv &&
                    unsigned(IssuePipe::Memory) == ULdSt &&
                    unsigned(IssuePipe::Tensor) == UTensor &&
                    unsigned(IssuePipe::Dispatch) == NumUnits,
                "IssuePipe follows modelimpl::Unit");
  double PipeMax = X.W.SchedCycles;
  P.BusiestPipe = IssuePipe::Dispatch;
  for (unsigned I = 0; I < NumUnits; ++I)
    if (X.W.UnitCycles[I] > PipeMax) {
      PipeMax = X.W.UnitCycles[I];
      P.BusiestPipe = IssuePipe(I);
    }
  if (X.W.MioPortCycles > PipeMax) {
    PipeMax = X.W.MioPortCycles;
    P.BusiestPipe = IssuePipe::MioPort;
  }
  P.BusiestPipeShare =
      X.W.IssueCycles > 0 ? std::min(1.0, PipeMax / X.W.IssueCycles) : 0;
  if (P.Bound == Bottleneck::Issue && X.W.SharedLeads)
    P.Bound = Bottleneck::SharedMemory;
  P.BoundShare = E.T > 0 ? std::min(1.0, Best / E.T) : 0;
  if (mc::LaunchOverheadS > E.T)
    P.Bound = Bottleneck::Launch;
  else if (P.TailFactor >= 1.33)
    P.Bound = Bottleneck::Tail;
}

/// The lever of \p P: a locked clock (at \p TopMHz, the lock within the
/// clock range), a power limit other than the default, or none
/// (docs/MODEL.md "Levers, bands and ties").
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

/// The figures of \p P under the limit \p LimitW with the SM clock locked
/// at \p LockMHz (0: not locked). \p FloorMHz: a clock known to fit the
/// limit (from a lower limit), to narrow the search.
static void finish(const Context &X, double LimitW, double FloorMHz,
                   Prediction &P, double LockMHz = 0) {
  AppliedLimit A = applyLimit(X, LimitW);
  P.LimitOutOfRange = A.OutOfRange;
  P.PowerLimitW = A.W;
  // A locked clock is the highest the board may run; the limit may still
  // hold it lower (docs/MODEL.md "Levers").
  double Top = X.Curve.FMaxMHz;
  if (LockMHz > 0)
    Top = std::min(std::max(LockMHz, X.Curve.FMinMHz), X.Curve.FMaxMHz);
  ClockChoice C = clockUnderLimit(X, A.W, FloorMHz, Top);
  if (C.Capped)
    P.PowerCapped = true;
  if (C.Unreachable)
    P.LimitUnreachable = true;
  setFigures(X, C, P);
  setBottleneck(X, C.E, P);
  setLever(X.G, Top, P);
}

//===----------------------------------------------------------------------===//
// predict() and its variants.
//===----------------------------------------------------------------------===//

Prediction flipflop::predict(const KernelProfile &K, const GPUSpec &G,
                             const LaunchConfig &Cfg, const ModelOptions &Opts) {
  Prepared Pr = prepare(K, G, Cfg, Opts);
  if (Pr.P.Valid)
    finish(Pr.X, Cfg.PowerLimitW, 0, Pr.P, Cfg.LockedClockMHz);
  return Pr.P;
}

/// \p Prev under the limit \p L above its own: a limit above one that did
/// not lower the clock changes nothing but the limit.
static Prediction raisedLimit(const GPUSpec &G, const Prediction &Prev,
                              double L) {
  Prediction Q = Prev;
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
  return Q;
}

void flipflop::predictLimits(const KernelProfile &K, const GPUSpec &G,
                             const LaunchConfig &Cfg,
                             const std::vector<double> &LimitsW,
                             const ModelOptions &Opts,
                             std::vector<Prediction> &Out) {
  Prepared Pr = prepare(K, G, Cfg, Opts);
  const bool Ok = Pr.P.Valid;
  double Floor = 0, PrevLimit = -1;
  for (double L : LimitsW) {
    if (Ok && L >= PrevLimit && PrevLimit >= 0 &&
        !Out.back().PowerCapped && !Out.back().LimitUnreachable) {
      Prediction Q = raisedLimit(G, Out.back(), L);
      Out.push_back(std::move(Q));
      PrevLimit = L;
      continue;
    }
    Out.push_back(Pr.P);
    Prediction &Q = Out.back();
    Q.Config.PowerLimitW = L;
    if (!Ok)
      continue;
    finish(Pr.X, L, L >= PrevLimit ? Floor : 0, Q);
    Floor = Q.LimitUnreachable ? 0 : Q.ClockMHz;
    PrevLimit = L;
  }
}

void flipflop::predictLockedClocks(const KernelProfile &K, const GPUSpec &G,
                                   const LaunchConfig &Cfg,
                                   const std::vector<double> &ClocksMHz,
                                   const ModelOptions &Opts,
                                   std::vector<Prediction> &Out) {
  Prepared Pr = prepare(K, G, Cfg, Opts);
  for (double F : ClocksMHz) {
    Out.push_back(Pr.P);
    Prediction &Q = Out.back();
    Q.Config.LockedClockMHz = F;
    if (Pr.P.Valid)
      finish(Pr.X, Cfg.PowerLimitW, 0, Q, F);
  }
}
