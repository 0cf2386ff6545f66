//===- Shapes.cpp - The block shapes a sweep tries ------------------------===//
//
// 1-D blocks in warp steps, or 2-D/3-D blocks with power-of-two sides, up
// to the GPU's and the kernel's limits; held or narrowed by what the kernel
// states or checks: reqntid, checks of blockDim whose failing side does no
// work, a shared tile indexed by threadIdx. docs/MODEL.md section 4.
//
//===----------------------------------------------------------------------===//
#include "SweepImpl.h"
#include <algorithm>

using namespace flipflop;
using namespace flipflop::sweepimpl;

/// Every shape the sweep may try when nothing in the code fixes it: 1-D,
/// one per warp up to the block limit; 2-D/3-D, powers of two.
static std::vector<std::array<unsigned, 3>>
freeShapes(const KernelProfile &K, const GPUSpec &G) {
  std::vector<std::array<unsigned, 3>> Out;
  unsigned MaxB = G.MaxThreadsPerBlock ? G.MaxThreadsPerBlock : 1024;
  if (unsigned M = K.Bounds.maxThreads())
    MaxB = std::min(MaxB, M);
  unsigned WS = G.WarpSize ? G.WarpSize : 32;
  const ShapeInfo &SI = K.Shape;
  bool Y = SI.UsesTid[1] || SI.ReadsNTid[1] || SI.CheckedDim[1] > 1;
  bool Z = SI.UsesTid[2] || SI.ReadsNTid[2] || SI.CheckedDim[2] > 1;
  // A dimension that no address depends on is not swept: cooperative
  // groups' thread_rank() reads threadIdx.y/z and blockDim.x/y for the
  // flattened rank of a kernel that indexes its data by threadIdx.x alone,
  // and a 3-D block there would make its y and z threads repeat the x
  // threads' accesses (which the model, reading each thread's addresses,
  // would price as fewer sectors: a speed-up that is duplicated work).
  // Only where the front end knows every access's thread dimensions, and
  // the code checks no size along that dimension.
  if (IndexedThreadDims I = indexedThreadDims(K); I.AllKnown) {
    Y = Y && ((I.Dims & 2u) || SI.CheckedDim[1] > 1);
    Z = Z && ((I.Dims & 4u) || SI.CheckedDim[2] > 1);
  }
  // A dimension the code asserts (llm.c's `assert(blockDim.x == 4)` with
  // a free blockDim.z) takes that size only; the others are swept.
  auto Sizes = [&](unsigned D, bool Swept, unsigned From, unsigned To,
                   bool Warps) {
    std::vector<unsigned> V;
    if (SI.CheckedDim[D])
      V.push_back(SI.CheckedDim[D]);
    else if (!Swept)
      V.push_back(1);
    else if (Warps)
      for (unsigned B = WS; B <= To; B += WS)
        V.push_back(B);
    else
      for (unsigned B = From; B <= To; B *= 2)
        V.push_back(B);
    return V;
  };
  bool OneD = !Y && !Z;
  for (unsigned X : Sizes(0, true, 8, OneD ? MaxB : 1024, OneD))
    for (unsigned YY : Sizes(1, Y, 1, 1024, false))
      for (unsigned ZZ : Sizes(2, Z, 1, 64, false)) {
        uint64_t P = uint64_t(X) * YY * ZZ;
        if (P % WS == 0 && P <= MaxB)
          Out.push_back({X, YY, ZZ});
      }
  // The shape the checks name exactly, when it is off the grid above
  // (blockDim.x == 48, or a product of dimensions the kernel uses as 1-D).
  std::array<unsigned, 3> Exact{0, 0, 0};
  bool Known = true;
  for (unsigned D = 0; D < 3; ++D) {
    bool Used = SI.UsesTid[D] || SI.ReadsNTid[D];
    Exact[D] = SI.CheckedDim[D] ? SI.CheckedDim[D] : Used && D ? 0 : 1;
    if (!Exact[D])
      Known = false;
  }
  if (!SI.CheckedDim[0]) {
    if (SI.CheckedThreads && Exact[1] && Exact[2] &&
        SI.CheckedThreads % (Exact[1] * Exact[2]) == 0)
      Exact[0] = SI.CheckedThreads / (Exact[1] * Exact[2]);
    else
      Known = false;
  }
  uint64_t Threads = uint64_t(Exact[0]) * Exact[1] * Exact[2];
  if (Known && Threads <= MaxB &&
      std::find(Out.begin(), Out.end(), Exact) == Out.end())
    Out.push_back(Exact);
  if (Out.empty())
    Out.push_back({MaxB, 1, 1});
  return Out;
}

ShapeChoice sweepimpl::chooseShapes(const KernelProfile &K, const GPUSpec &G) {
  const LaunchBounds &LB = K.Bounds;
  const ShapeInfo &SI = K.Shape;
  ShapeChoice SC;
  if (LB.ReqNTid[0]) {
    SC.Source = ShapeSource::Required;
    SC.Held = true;
    SC.Shapes.push_back({LB.ReqNTid[0], std::max(1u, LB.ReqNTid[1]),
                         std::max(1u, LB.ReqNTid[2])});
    return SC;
  }
  // Checks in the code (asserts, traps, early returns on blockDim) are facts:
  // only the shapes that pass them are tried.
  if (SI.anyCheck()) {
    std::vector<std::array<unsigned, 3>> Pass;
    for (const auto &S : freeShapes(K, G))
      if (SI.passesChecks(S))
        Pass.push_back(S);
    if (!Pass.empty()) {
      // A tile's shape, when it passes the checks too, narrows them further.
      std::array<unsigned, 3> T{SI.FixedBlock[0], std::max(1u, SI.FixedBlock[1]),
                                std::max(1u, SI.FixedBlock[2])};
      if (SI.FixedByTile && T[0] && SI.passesChecks(T))
        Pass = {T};
      SC.Source = ShapeSource::Checks;
      SC.Held = Pass.size() == 1;
      SC.Shapes = std::move(Pass);
      return SC;
    }
  }
  if (SI.FixedByTile) {
    SC.Source = ShapeSource::Tile;
    SC.Held = true;
    std::array<unsigned, 3> S{SI.FixedBlock[0], std::max(1u, SI.FixedBlock[1]),
                              std::max(1u, SI.FixedBlock[2])};
    if (!S[0]) {
      // The bounds' threads (256 without), in rows of a warp when the
      // kernel indexes by threadIdx.y.
      unsigned M = LB.maxThreads();
      unsigned T = M ? M : 256u;
      unsigned X =
          SI.UsesTid[1] && !SI.UsesTid[2] && T > 32 && T % 32 == 0 ? 32u : T;
      S = {X, T / X, 1};
      SC.Source = M ? ShapeSource::TileBounds : ShapeSource::TileUnknown;
    }
    SC.Shapes.push_back(S);
    return SC;
  }
  SC.Shapes = freeShapes(K, G);
  return SC;
}
