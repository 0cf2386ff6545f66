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

/// The launch's checks, for profiles whose accesses name the checks they
/// run behind (MemAccess::Guards, the PTX front end's).
struct SharedChecks {
  /// Count each access behind the checks it runs behind: the model's work
  /// scale takes the kernel's mean share of threads that pass
  /// (ActiveFraction), which charged a tree's last steps (`if (tid < 2)`
  /// on a 32-way stride) at the share of the block's first steps, and the
  /// accesses before the checks below it.
  bool PerAccess = false;
  /// The share the work scale already takes (activeFraction()), which the
  /// per-access figures are divided by.
  double ActiveFraction = 1;
  std::array<unsigned, 3> Grid{};
};

/// Wavefronts of the profile's shared accesses for this block shape: lanes
/// that read one word are served together, distinct words in one bank
/// serialise. With \p C.PerAccess, an access behind checks on the threads
/// alone takes the wavefronts of the lanes that pass them in each warp of
/// the block; behind other checks, its own share of the threads that pass.
SharedWork sharedWork(const KernelProfile &K,
                      const std::array<unsigned, 3> &Block,
                      const SharedChecks &C = {});

} // namespace flipflop

#endif // FLIPFLOP_MODEL_SHAREDMEMORY_H
