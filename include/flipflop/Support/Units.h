//===- flipflop/Support/Units.h - A figure in the unit that fits -*- C++ -*-===//
//
// How FlipFlop's text outputs pick a unit for a time or an energy: the
// smallest of a ladder of units 1000 apart (us, ms, s; uJ, mJ, J) in which
// the figure, at 4 significant digits, stays below 1000. The remarks'
// Time/Energy arguments and flipflop-report's advice bands use it; machine
// readable outputs keep their fixed units.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_SUPPORT_UNITS_H
#define FLIPFLOP_SUPPORT_UNITS_H

#include <cmath>

namespace flipflop {

/// The steps of 1000 up a ladder of \p NUnits units that \p V (in the first
/// unit) takes: 999.96 prints as 1000 at 4 digits, so it takes the next.
inline unsigned unitSteps(double V, unsigned NUnits) {
  unsigned U = 0;
  V = std::fabs(V);
  while (U + 1 < NUnits && V >= 999.95) {
    V /= 1000;
    ++U;
  }
  return U;
}

} // namespace flipflop

#endif
