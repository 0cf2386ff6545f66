//===- SchemaVersionTest.cpp - One report schema version ------------------===//
//
// flipflop-measure is built without LLVM (tools/flipflop-measure), so it
// reads and writes the same reports with its own JSON code and its own copy
// of the schema version; the two must agree.
//
//===----------------------------------------------------------------------===//
#include "Report.h" // tools/flipflop-measure/core
#include "flipflop/Report/JSONReport.h"
#include "gtest/gtest.h"

static_assert(static_cast<long>(flipflop::ReportSchemaVersion) ==
                  static_cast<long>(flipflop::measure::ReportSchemaVersion),
              "flipflop-measure's report schema version "
              "(tools/flipflop-measure/core/Report.h) differs from the one "
              "of include/flipflop/Report/JSONReport.h");

TEST(ReportSchemaVersion, SameInFlipflopMeasure) {
  EXPECT_EQ(static_cast<long>(flipflop::ReportSchemaVersion),
            static_cast<long>(flipflop::measure::ReportSchemaVersion));
}
