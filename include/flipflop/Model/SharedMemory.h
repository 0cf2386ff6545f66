//===- SharedMemory.h - Shared-memory wavefronts for a block shape --------===//
//
// Part of FlipFlop. See docs/MODEL.md, "Shared memory".
//
//===----------------------------------------------------------------------===//

#ifndef FLIPFLOP_MODEL_SHAREDMEMORY_H
#define FLIPFLOP_MODEL_SHAREDMEMORY_H

#include "flipflop/Profile/KernelProfile.h"

#include <array>

namespace flipflop {

/// Shared-memory work of one thread's warp share (loop weighted).
struct SharedWork {
  double Wavefronts = 0; ///< Warp wavefronts, bank conflicts included.
  bool Any = false;      ///< The profile lists shared accesses.
};

/// Wavefronts of the profile's shared accesses for this block shape: lanes
/// that read one word are served together, distinct words in one bank
/// serialise.
SharedWork sharedWork(const KernelProfile &K,
                      const std::array<unsigned, 3> &Block);

} // namespace flipflop

#endif // FLIPFLOP_MODEL_SHAREDMEMORY_H
