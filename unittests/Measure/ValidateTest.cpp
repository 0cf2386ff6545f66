//===- ValidateTest.cpp - Predictions against measurements ----------------===//
#include "Validate.h"
#include "gtest/gtest.h"
#include <cmath>

using namespace flipflop::measure;

namespace {

ConfigRecord cfg(unsigned Block, unsigned Min, double PowerW, double T,
                 double E) {
  ConfigRecord C;
  C.Block = {Block, 1, 1};
  C.MinBlocksPerSM = Min;
  C.PowerLimitW = PowerW;
  C.TimeS = T;
  C.EnergyJ = E;
  C.AvgPowerW = E / T;
  return C;
}

// Four block sizes at the default limit, measured and predicted, plus one
// predicted configuration at 500 W that was not measured.
ReportFile predictions() {
  ReportFile R;
  R.SchemaVersion = 1;
  KernelRecord K;
  K.Name = "k";
  K.Configs = {cfg(64, 0, 0, 1.1, 4), cfg(128, 0, 0, 0.9, 2.5),
               cfg(256, 0, 0, 0.6, 2), cfg(512, 0, 0, 0.8, 3),
               cfg(256, 0, 500, 1.5, 1.5)};
  R.Kernels.push_back(K);
  return R;
}

ReportFile measurements() {
  ReportFile R;
  R.SchemaVersion = 1;
  R.GPUName = "NVIDIA H200";
  R.DefaultPowerLimitW = 700;
  KernelRecord K;
  K.Name = "k";
  K.HeuristicBlock = 512;
  K.Configs = {cfg(64, 0, 700, 1.0, 5), cfg(128, 0, 700, 0.8, 3),
               cfg(256, 0, 700, 0.7, 4), cfg(512, 0, 700, 0.9, 6)};
  R.Kernels.push_back(K);
  return R;
}

TEST(Validate, ParetoIndices) {
  // (1,5) (2,3) (3,4) (4,1) (2,3): (3,4) is dominated by (2,3).
  std::vector<size_t> F = paretoIndices({1, 2, 3, 4, 2}, {5, 3, 4, 1, 3});
  EXPECT_EQ(F, (std::vector<size_t>{0, 1, 4, 3}));
}

TEST(Validate, Neighbours) {
  std::vector<ConfigRecord> C = {cfg(64, 0, 700, 1, 1), cfg(128, 0, 700, 1, 1),
                                 cfg(256, 0, 700, 1, 1), cfg(128, 2, 700, 1, 1),
                                 cfg(128, 0, 500, 1, 1), cfg(256, 2, 500, 1, 1)};
  // 128/0/700: block neighbours 64 and 256, min-blocks 2, power 500.
  EXPECT_EQ(neighbours(C, 1, 1.0), (std::vector<size_t>{0, 2, 3, 4}));
  // 64/0/700: only 128 (256 is two steps away).
  EXPECT_EQ(neighbours(C, 0, 1.0), (std::vector<size_t>{1}));
  // 256/2/500 differs from everything in two axes or more.
  EXPECT_TRUE(neighbours(C, 5, 1.0).empty());
}

TEST(Validate, HandComputedKernel) {
  ValidateOptions O;
  ReportFile P = predictions(), M = measurements();
  KernelValidation K = validateKernel(P.Kernels[0], M.Kernels[0], 700, O);
  ASSERT_FALSE(K.Skipped) << K.Note;
  EXPECT_EQ(K.PredictedCount, 5u);
  EXPECT_EQ(K.Matched.size(), 4u);
  // Energy pairs: 4 concordant, 2 discordant, no ties: 2/6.
  EXPECT_NEAR(K.TauEnergy, 1.0 / 3, 1e-12);
  // Time: predicted {1.1,.9,.6,.8} against measured {1,.8,.7,.9}:
  // C = 5, D = 1 (only the pair (128, 512) is discordant): 4/6.
  EXPECT_NEAR(K.TauTime, 2.0 / 3, 1e-12);
  EXPECT_EQ(K.Matched[K.PickEnergy].Measured.Block[0], 256u);
  EXPECT_EQ(K.Matched[K.BestEnergy].Measured.Block[0], 128u);
  EXPECT_NEAR(K.EnergyRegret, 4.0 / 3, 1e-12);
  EXPECT_DOUBLE_EQ(K.TimeRegret, 1.0);
  EXPECT_EQ(K.Neighbours, 2u);
  EXPECT_FALSE(K.LocalOptimum); // 128 uses 3 J < 4 J / 1.02.
  EXPECT_FALSE(K.GlobalOptimum);
  EXPECT_FALSE(K.BestOnPredictedPareto);
  // Predicted front over all five: (0.6, 2) and (1.5, 1.5): 1 - 2/5.
  EXPECT_NEAR(K.SearchSpaceReduction, 0.6, 1e-12);
  ASSERT_TRUE(K.HasHeuristic);
  EXPECT_EQ(K.Matched[K.Heuristic].Measured.Block[0], 512u);
  EXPECT_NEAR(K.EnergyVsHeuristic, 4.0 / 6, 1e-12);
  EXPECT_NEAR(K.SpeedupVsHeuristic, 0.9 / 0.7, 1e-12);
}

TEST(Validate, LocalOptimumWithinTolerance) {
  ReportFile P = predictions(), M = measurements();
  // Measured: 256 at 3.05 J, neighbour 128 at 3 J: within 2%.
  M.Kernels[0].Configs[2].EnergyJ = 3.05;
  KernelValidation K = validateKernel(P.Kernels[0], M.Kernels[0], 700, {});
  EXPECT_TRUE(K.LocalOptimum);
  EXPECT_TRUE(K.GlobalOptimum);
  EXPECT_TRUE(K.BestOnPredictedPareto);
  ValidateOptions Strict;
  Strict.Tolerance = 0;
  EXPECT_FALSE(validateKernel(P.Kernels[0], M.Kernels[0], 700, Strict).LocalOptimum);
}

TEST(Validate, HeuristicFromOccupancyWhenNotRecorded) {
  ReportFile P = predictions(), M = measurements();
  M.Kernels[0].HeuristicBlock = 0;
  double Occ[] = {0.5, 1.0, 1.0, 0.75};
  for (int I = 0; I < 4; ++I)
    M.Kernels[0].Configs[I].Occupancy = Occ[I];
  KernelValidation K = validateKernel(P.Kernels[0], M.Kernels[0], 700, {});
  ASSERT_TRUE(K.HasHeuristic);
  // Ties at full occupancy go to the larger block.
  EXPECT_EQ(K.Matched[K.Heuristic].Measured.Block[0], 256u);
}

TEST(Validate, SummaryAndMarkdown) {
  ReportFile P = predictions(), M = measurements();
  KernelRecord Other;
  Other.Name = "unpredicted";
  Other.Configs = {cfg(64, 0, 700, 1, 1)};
  M.Kernels.push_back(Other);
  ValidationSummary S = validate(P, M, {});
  EXPECT_EQ(S.Validated, 1u);
  ASSERT_EQ(S.Kernels.size(), 2u);
  EXPECT_TRUE(S.Kernels[1].Skipped);
  EXPECT_NEAR(S.GeoMeanEnergyRegret, 4.0 / 3, 1e-12);
  EXPECT_DOUBLE_EQ(S.LocalOptimumShare, 0);
  EXPECT_NEAR(S.MeanSearchSpaceReduction, 0.6, 1e-12);
  std::string MD = validationMarkdown(S, {});
  EXPECT_NE(MD.find("## Validation on NVIDIA H200"), std::string::npos);
  EXPECT_NE(MD.find("| Median Kendall tau-b, energy | 0.333 |"), std::string::npos) << MD;
  EXPECT_NE(MD.find("| `k` | 5/4/4 | 0.667 | 0.333 | 256 @700W | 128 @700W | 1.333 | no (2 nb.) | 512 @700W | 0.667 | 1.286 |"),
            std::string::npos)
      << MD;
  EXPECT_NE(MD.find("skipped: no prediction for this kernel"), std::string::npos);
  json::Value J = validationJSON(S);
  const json::Value *Sum = json::find(J, "summary");
  ASSERT_NE(Sum, nullptr);
  const json::Value *N = json::find(*Sum, "kernels_validated");
  ASSERT_TRUE(N && N->is_number());
  EXPECT_EQ(N->get<double>(), 1);
}

TEST(Validate, ReportReader) {
  Result<json::Value> V = json::parse(R"({"schema_version": 1, "gpu": {"name": "X",
    "default_power_limit_w": 700}, "kernels": [{"name": "k",
    "occupancy_heuristic": {"block": [768, 1, 1]},
    "configs": [{"block": [128, 1, 1], "grid": [10, 1, 1], "min_blocks_per_sm": 2,
    "power_limit_w": 700, "occupancy": 0.75, "time_s": 1e-3, "avg_power_w": 300,
    "energy_j": 0.3, "extra_field": "ignored"},
    {"block": [2048], "valid": false}]}]})");
  ASSERT_TRUE(bool(V));
  Result<ReportFile> R = parseReport(*V);
  ASSERT_TRUE(bool(R)) << R.error().message();
  EXPECT_EQ(R->GPUName, "X");
  EXPECT_EQ(R->DefaultPowerLimitW, 700);
  ASSERT_EQ(R->Kernels[0].Configs.size(), 2u);
  EXPECT_EQ(R->Kernels[0].HeuristicBlock, 768u);
  EXPECT_EQ(R->Kernels[0].Configs[0].MinBlocksPerSM, 2u);
  EXPECT_EQ(R->Kernels[0].Configs[0].Occupancy, 0.75);
  EXPECT_FALSE(R->Kernels[0].Configs[1].Valid);
  V = json::parse(R"({"schema_version": 2, "kernels": []})");
  EXPECT_EQ(parseReport(*V).error().message(),
            "schema_version 2 is not supported (expected 1)");
  V = json::parse(R"({"schema_version": 1, "kernels": [{"name": "k", "configs": [{"block": [1], "time_s": -1, "energy_j": 1}]}]})");
  EXPECT_EQ(parseReport(*V).error().message(),
            "kernels[0].configs[0]: time_s and energy_j must be positive");
}

} // namespace
