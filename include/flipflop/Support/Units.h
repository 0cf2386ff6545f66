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
#include <cstdint>
#include <cstdio>
#include <string>

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

/// Bytes as a person reads them: "795 B" below 10 KB, else "12.3 KB",
/// "1.4 MB", "2.1 GB" (powers of 1000, one decimal).
inline std::string bytesText(double Bytes) {
  char Buf[32];
  if (std::fabs(Bytes) < 1e4) {
    std::snprintf(Buf, sizeof Buf, "%lld B", (long long)std::llround(Bytes));
    return Buf;
  }
  static const char *const Units[] = {"KB", "MB", "GB", "TB"};
  unsigned U = 0;
  double V = Bytes / 1e3;
  while (U + 1 < 4 && std::fabs(V) >= 999.95) {
    V /= 1e3;
    ++U;
  }
  std::snprintf(Buf, sizeof Buf, "%.1f %s", V, Units[U]);
  return Buf;
}

} // namespace flipflop

#endif
