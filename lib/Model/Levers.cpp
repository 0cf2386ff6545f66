//===- Levers.cpp - Levers, bands, intrusiveness, lockable clocks ---------===//
//
// How intrusive a configuration is to apply (the order that breaks ties),
// the bands of a prediction and of a comparison, how to set a lever
// (nvidia-smi, NVML, how to undo it) and the clocks the sweep locks.
// docs/MODEL.md "Levers, bands and ties".
//
//===----------------------------------------------------------------------===//
#include "flipflop/Model/ModelConstants.h"
#include "flipflop/Model/Recommender.h"
#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace flipflop;
namespace mc = flipflop::modelconst;

unsigned flipflop::intrusiveness(const Prediction &P,
                                 const std::array<unsigned, 3> &DefaultBlock) {
  return unsigned(P.PowerLever != Lever::None) +
         unsigned(P.Config.Block != DefaultBlock) +
         unsigned(P.Config.MinBlocksPerSM != 0);
}

/// Energy = power x time: their relative errors add in quadrature.
static Bands bandsOf(double Time, double Power) {
  return {Time, Power, std::sqrt(Time * Time + Power * Power)};
}

Bands flipflop::absoluteBands() {
  return bandsOf(mc::TimeBandRel, mc::PowerBandRel);
}

Bands flipflop::comparisonBands() {
  return bandsOf(mc::CompareTimeBandRel, mc::ComparePowerBandRel);
}

Bands flipflop::leverComparisonBands() {
  return bandsOf(mc::CompareLeverTimeBandRel, mc::ComparePowerBandRel);
}

std::array<double, 2> flipflop::band(double V, double Rel) {
  return {V * (1 - Rel), V * (1 + Rel)};
}

static std::string fmt0(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.0f", V);
  return Buf;
}

LeverCommand flipflop::leverCommand(const std::string &Lever, double Value,
                                    double DefaultLimitW) {
  LeverCommand C;
  C.Lever = Lever;
  C.Value = Value;
  if (Lever == "power_limit") {
    C.Unit = "W";
    C.Command = "nvidia-smi -pl " + fmt0(Value);
    C.NVML = "nvmlDeviceSetPowerManagementLimit(device, " +
             fmt0(std::round(Value) * 1000) + ") /* mW */";
    C.Reset = DefaultLimitW > 0 ? "nvidia-smi -pl " + fmt0(DefaultLimitW)
                                : "nvidia-smi -pl <default limit>";
    C.NeedsRoot = true;
  } else if (Lever == "locked_clock") {
    C.Unit = "MHz";
    C.Command = "nvidia-smi -lgc " + fmt0(Value) + "," + fmt0(Value);
    C.NVML = "nvmlDeviceSetGpuLockedClocks(device, " + fmt0(Value) + ", " +
             fmt0(Value) + ")";
    C.Reset = "nvidia-smi -rgc (nvmlDeviceResetGpuLockedClocks)";
    C.NeedsRoot = true;
  } else {
    C.Lever = "none";
    C.Value = 0;
  }
  return C;
}

LeverCommand flipflop::leverCommand(const Prediction &P, const GPUSpec &G) {
  return leverCommand(leverName(P.PowerLever), P.LeverValue,
                      G.Power.DefaultLimitW);
}

std::vector<double> flipflop::lockableClocks(const GPUSpec &G,
                                             double StepMHz) {
  std::vector<double> Out;
  double Top = G.topClockMHz();
  double Lo = G.MinClockMHz > 0 ? std::min(G.MinClockMHz, Top) : 0;
  if (Top <= 0 || Lo <= 0)
    return Out;
  Out.push_back(std::round(Lo));
  if (!(StepMHz > 0))
    StepMHz = 100;
  for (double F = std::ceil(Lo / StepMHz) * StepMHz; F < Top; F += StepMHz)
    if (F - Out.back() >= StepMHz / 2)
      Out.push_back(F);
  if (std::round(Top) - Out.back() >= 1) {
    // The top clock replaces a grid point closer than half a step.
    if (Out.size() > 1 && std::round(Top) - Out.back() < StepMHz / 2)
      Out.back() = std::round(Top);
    else
      Out.push_back(std::round(Top));
  }
  return Out;
}
