//===- ModelTestUtil.h - Hand-built GPUs and kernels for model tests ------===//
#ifndef FLIPFLOP_UNITTESTS_MODEL_MODELTESTUTIL_H
#define FLIPFLOP_UNITTESTS_MODEL_MODELTESTUTIL_H

#include "flipflop/Model/Model.h"
#include "flipflop/Target/GPUDatabase.h"

namespace flipflop {
namespace test {

/// A GPU with round numbers, so every figure can be computed by hand:
/// 10 SMs at 1000 MHz (min 200), 64 FP32/INT32 lanes, 32 LSU lanes, 4
/// schedulers, 100 GB/s HBM2, 64 B/clk/SM L2; curve 20 W + 80 W, knee
/// 600 MHz, floor 0.8; limits 50..100 W. Per-SM resources of an sm_80.
inline GPUSpec handGPU() {
  GPUSpec G = *findGPU("A100-PCIE-40GB");
  G.Name = "hand";
  G.SMCount = 10;
  G.BaseClockMHz = 1000;
  G.BoostClockMHz = 1000;
  G.MaxClockMHz = 1000;
  G.MinClockMHz = 200;
  G.MemoryType = "HBM2";
  G.MemoryBandwidthGBs = 100;
  G.L2BandwidthBytesPerClkPerSM = 64;
  G.SchedulersPerSM = 4;
  G.Throughput = UnitThroughput();
  G.Throughput.FP32 = 64;
  G.Throughput.INT32 = 64;
  G.Throughput.LdSt = 32;
  G.Throughput.SFU = 16;
  G.Throughput.FP64 = 32;
  G.Throughput.IMul = 16;
  G.Throughput.Conv = 16;
  G.Throughput.FP16 = 128;
  G.Power.MinLimitW = 50;
  G.Power.DefaultLimitW = 100;
  G.Power.MaxLimitW = 100;
  G.Power.CurveStaticW = 20;
  G.Power.CurveDynW = 80;
  G.Power.VoltKneeMHz = 600;
  G.Power.VoltFloorRatio = 0.8;
  return G;
}

inline MemAccess globalAccess(bool Store, unsigned Bytes, double Count,
                              AccessPattern Pat = AccessPattern::Coalesced) {
  MemAccess A;
  A.Space = AddrSpace::Global;
  A.IsStore = Store;
  A.Bytes = Bytes;
  A.Count = Count;
  A.Pattern = Pat;
  A.StrideBytes = Pat == AccessPattern::Coalesced ? Bytes : 0;
  return A;
}

/// out[i] = in[i]: one coalesced 4-byte load and store per thread.
inline KernelProfile copyKernel(unsigned Bytes = 4, double Count = 1) {
  KernelProfile K;
  K.Name = "copy";
  K.op(OpClass::LoadGlobal) = Count;
  K.op(OpClass::StoreGlobal) = Count;
  K.Accesses = {globalAccess(false, Bytes, Count),
                globalAccess(true, Bytes, Count)};
  K.Res.Registers = 32;
  K.Res.RegistersExact = true;
  finalizeProfile(K);
  return K;
}

/// 1000 independent-by-4 FP32 FMAs per thread, one load, one store.
inline KernelProfile fmaKernel(double Fmas = 1000) {
  KernelProfile K;
  K.Name = "fma";
  K.op(OpClass::FP32) = Fmas;
  K.Flops32 = 2 * Fmas;
  K.ILP = 4;
  K.Res.Registers = 32;
  K.Res.RegistersExact = true;
  finalizeProfile(K);
  return K;
}

} // namespace test
} // namespace flipflop

#endif
