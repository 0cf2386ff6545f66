//===- PowerFitTest.cpp - The clock-to-power fit against measured data ----===//
//
// The measured points of /work/shared/data/power-vs-clock (Kernel Tuner,
// Schoonhoven et al. PMBS 2022): measured core clock (MHz), board power (W)
// of an FP32-saturating kernel. scripts/fit-power-curve.py produces the
// coefficients; this test pins the errors docs/MODEL.md reports.
//
//===----------------------------------------------------------------------===//
#include "flipflop/Model/Model.h"
#include "flipflop/Target/GPUDatabase.h"
#include "gtest/gtest.h"
#include <cmath>
#include <utility>
#include <vector>

using namespace flipflop;

namespace {

const std::vector<std::pair<double, double>> A100 = {
    {210, 42.002},  {330, 47.026},  {465, 52.724},  {600, 58.598},
    {735, 64.991},  {870, 71.457},  {1005, 78.121}, {1140, 91.995},
    {1275, 116.619}, {1410, 153.408}};
const std::vector<std::pair<double, double>> A4000 = {
    {405, 43.928},  {585, 52.095},  {780, 58.972},  {960, 65.004},
    {1155, 72.241}, {1335, 79.923}, {1530, 103.031}, {1710, 133.824},
    {1739.7175427234456, 139.161}, {1752.1604878240541, 138.871}};

void errors(const GPUSpec &G, const std::vector<std::pair<double, double>> &D,
            double Scale, double &Rms, double &Max) {
  double S = 0;
  Max = 0;
  for (auto [F, W] : D) {
    double E = (Scale * boardPower(G, F, 1.0) - W) / W * 100;
    S += E * E;
    Max = std::max(Max, std::fabs(E));
  }
  Rms = std::sqrt(S / D.size());
}

TEST(PowerFit, PerGPUCoefficients) {
  // Per-GPU fits (scripts/fit-power-curve.py), as a calibrated spec sets them.
  GPUSpec A = *findGPU("A100-PCIE-40GB");
  A.Power.CurveStaticW = 32.09;
  A.Power.CurveDynW = 119.53;
  A.Power.VoltKneeMHz = 0.76 * 1410;
  A.Power.VoltFloorRatio = 0.73;
  double Rms, Max;
  errors(A, A100, 1, Rms, Max);
  EXPECT_NEAR(Rms, 0.82, 0.02);
  EXPECT_NEAR(Max, 1.31, 0.02);
  GPUSpec B = *findGPU("RTX-A4000");
  B.Power.CurveStaticW = 28.84;
  B.Power.CurveDynW = 78.77;
  B.Power.VoltKneeMHz = 0.87 * 1560;
  B.Power.VoltFloorRatio = 0.87;
  errors(B, A4000, 1, Rms, Max);
  EXPECT_NEAR(Rms, 0.92, 0.02);
  EXPECT_NEAR(Max, 1.73, 0.02);
}

TEST(PowerFit, SharedShapeOfTheDatasheetDerivation) {
  // With Curve* zero the model uses the shared shape (s 0.24, knee 0.76,
  // floor 0.82). Scaled to each GPU's fitted reference power, its errors are
  // the "shape-only" figures; at 0.670 x TDP the "datasheet-derived" ones.
  for (auto [Name, Data, Pb, ShapeRms, ShapeMax, DsRms, DsMax] :
       {std::make_tuple("A100-PCIE-40GB", &A100, 132.7, 5.12, 13.53, 26.73,
                        30.76),
        std::make_tuple("RTX-A4000", &A4000, 113.4, 4.43, 7.44, 17.79,
                        22.25)}) {
    GPUSpec G = *findGPU(Name);
    G.Power.CurveStaticW = G.Power.CurveDynW = 0;
    G.Power.VoltKneeMHz = G.Power.VoltFloorRatio = 0;
    PowerCurve C = powerCurve(G);
    ASSERT_TRUE(C.Derived);
    double Ref = C.StaticW + C.DynW;
    double Rms, Max;
    errors(G, *Data, Pb / Ref, Rms, Max);
    EXPECT_NEAR(Rms, ShapeRms, 0.05) << Name;
    EXPECT_NEAR(Max, ShapeMax, 0.05) << Name;
    errors(G, *Data, 1, Rms, Max);
    EXPECT_NEAR(Rms, DsRms, 0.05) << Name;
    EXPECT_NEAR(Max, DsMax, 0.05) << Name;
  }
}

} // namespace
