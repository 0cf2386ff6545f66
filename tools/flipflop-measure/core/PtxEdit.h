//===- PtxEdit.h - Entry parameters and launch bounds in PTX text ---------===//
//
// flipflop-measure checks an args file against the kernel's PTX parameter
// list before it launches anything (a wrong argument list would crash the
// context), and measures __launch_bounds__(maxThreads, minBlocks) variants of
// a PTX kernel by rewriting the entry's .maxntid / .minnctapersm directives
// before the driver JIT-compiles it, which is what nvcc emits for the
// attribute.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_MEASURE_PTXEDIT_H
#define FLIPFLOP_MEASURE_PTXEDIT_H

#include "Result.h"
#include <array>
#include <string>
#include <vector>

namespace flipflop {
namespace measure {

struct PtxParam {
  std::string Type;    ///< ".u64", ".f32", ".b8", ...
  std::string Name;
  unsigned Bytes = 0;  ///< Element size times array length.
  bool IsPointerSized() const { return Bytes == 8 && Type != ".f64"; }
};

struct PtxEntry {
  std::string Name;
  std::vector<PtxParam> Params;
  /// Directives found between the parameter list and the body.
  std::array<unsigned, 3> MaxNTid{0, 0, 0}, ReqNTid{0, 0, 0};
  unsigned MinNCtaPerSM = 0;
};

/// Every .entry of a PTX module, in order.
Result<std::vector<PtxEntry>> listPtxEntries(const std::string &Ptx);

/// Returns \p Ptx with the entry \p Kernel carrying ".maxntid Block" and
/// ".minnctapersm MinBlocks" (any previous .maxntid / .minnctapersm of that
/// entry removed). MinBlocks 0 removes both directives. Fails if the entry
/// does not exist or has a .reqntid other than \p Block.
Result<std::string> setPtxLaunchBounds(const std::string &Ptx,
                                       const std::string &Kernel,
                                       const std::array<unsigned, 3> &Block,
                                       unsigned MinBlocks);

} // namespace measure
} // namespace flipflop

#endif
