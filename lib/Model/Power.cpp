//===- Power.cpp - Board power against clock ------------------------------===//
//
// The clock-to-power curve of the FP32-saturating reference kernel: static
// power growing with voltage, dynamic power as f V^2, the V/f curve with its
// knee and floor, DRAM energy per byte. docs/MODEL.md section 3; the fitted
// constants are in flipflop/Model/ModelConstants.h.
//
//===----------------------------------------------------------------------===//
#include "ModelImpl.h"

using namespace flipflop;
using namespace flipflop::modelimpl;

double modelimpl::dramPJPerByte(const std::string &Type) {
  if (Type.find("HBM") != std::string::npos)
    return mc::DramPJPerByteHBM;
  if (Type.find("GDDR5") != std::string::npos)
    return mc::DramPJPerByteGDDR5;
  return mc::DramPJPerByteGDDR6;
}

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
