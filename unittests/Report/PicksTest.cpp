//===- PicksTest.cpp - The five picks and block shapes, written once ------===//
#include "flipflop/Report/Picks.h"
#include "flipflop/Support/BlockShape.h"
#include "gtest/gtest.h"
#include <string>

using namespace flipflop;

namespace {

TEST(Picks, NamesFollowTheObjectives) {
  EXPECT_STREQ(reportPickName(Objective::Time), "fastest");
  EXPECT_STREQ(reportPickName(Objective::Energy), "least_energy");
  EXPECT_STREQ(reportPickName(Objective::EnergyWithinBudget),
               "energy_within_budget");
  EXPECT_STREQ(reportPickName(Objective::EDP), "best_edp");
  EXPECT_STREQ(ReportPickNames[NumReportPicks - 1], "occupancy_heuristic");
  for (size_t I = 0; I < ReportPickObjectives.size(); ++I)
    EXPECT_EQ(reportPickPosition(ReportPickObjectives[I]), I);
}

TEST(Picks, IndicesAfterTiesAndModelOptima) {
  SweepResult R;
  R.Pick = {1, 2, 3, 4, 5};
  using Idx = std::array<size_t, NumReportPicks>;
  EXPECT_EQ(reportPickIndices(R), (Idx{1, 2, 3, 4, 5}));
  EXPECT_EQ(reportModelPickIndices(R), (Idx{1, 2, 3, 4, 5}));
  // Ties: the recommended picks are Advice's; the heuristic is Pick's.
  R.Advice = {11, 12, 13, 14, 15};
  R.HasAdvice = true;
  EXPECT_EQ(reportPickIndices(R), (Idx{11, 12, 13, 14, 5}));
  EXPECT_EQ(reportModelPickIndices(R), (Idx{1, 2, 3, 4, 5}));
}

TEST(BlockShape, TrailingOnesLeftOut) {
  EXPECT_EQ(blockShapeText(256u, 1u, 1u), "256");
  EXPECT_EQ(blockShapeText(256u, 0u, 0u), "256");
  EXPECT_EQ(blockShapeText(16u, 16u, 1u), "16x16");
  EXPECT_EQ(blockShapeText(8u, 8u, 4u), "8x8x4");
  EXPECT_EQ(blockShapeText(8u, 1u, 4u), "8x1x4");
  EXPECT_EQ(blockShapeText(std::array<unsigned, 3>{32, 4, 1}), "32x4");
  EXPECT_EQ(blockShapeText(std::array<int64_t, 3>{64, 2, 2}), "64x2x2");
}

} // namespace
