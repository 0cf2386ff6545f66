//===- CalibKernels.h - Hand-written PTX microbenchmarks ------------------===//
//
// The calibration kernels as PTX text, generated here so that no nvcc is
// needed at run time: the driver JIT-compiles them for the GPU present
// (PTX ISA 7.0 / sm_70 runs on every later GPU). Each kernel is small and
// does one thing; docs/MEASUREMENT.md describes what each one measures.
// `flipflop-calibrate --dump-ptx DIR` writes the module so that ptxas can
// check it without a GPU (a ctest does).
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_MEASURE_CALIBKERNELS_H
#define FLIPFLOP_MEASURE_CALIBKERNELS_H

#include <string>

namespace flipflop {
namespace measure {

/// Operations per thread per loop iteration of the throughput kernels.
constexpr unsigned CalibChains = 8;  ///< Independent dependency chains.
constexpr unsigned CalibUnroll = 8;  ///< Unrolled steps of each chain.
constexpr unsigned CalibOpsPerIter = CalibChains * CalibUnroll;

/// Entry points of the module (all take the parameters listed):
///  ff_fp32 / ff_fp64 / ff_int32 / ff_imul / ff_sfu (u64 out, u32 iters):
///      CalibOpsPerIter operations of one unit class per thread per iteration;
///      out[global id] receives a result so nothing is dead code. The dynamic
///      shared memory of a launch (used to pin one block per SM) is touched
///      once.
///  ff_read (u64 in, u64 out, u64 nvec, u32 passes): every thread sums
///      16-byte vectors of `in` (nvec of them) in a grid-stride loop, `passes`
///      times, through L2 only (ld.global.cg).
///  ff_strided (u64 in, u64 out, u64 mask, u32 stride, u32 iters): thread g
///      reads 4-byte element ((g + k * nthreads) * stride) & mask, k < iters.
///  ff_smem (u64 out, u32 iters, u32 stride): lane l reads shared word
///      l * stride (plus multiples of 1024 words) with volatile loads: 4 loads
///      per iteration; stride 1 is conflict free, stride s a gcd(s,32)-way
///      conflict.
///  ff_chase_ca / ff_chase_cg (u64 buf, u64 out, u32 steps): one thread
///      follows a chain of u32 indices (idx = buf[idx]) through L1 (.ca) or
///      L2 (.cg).
///  ff_chase_smem (u64 out, u32 steps, u32 words): the same in shared
///      memory over a chain of `words` (<= 8192) built by the kernel.
std::string calibrationPtx();

} // namespace measure
} // namespace flipflop

#endif
