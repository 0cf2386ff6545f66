//===- StatsTest.cpp - Statistics, integration and fits -------------------===//
#include "Stats.h"
#include "gtest/gtest.h"
#include <cmath>

using namespace flipflop::measure;

namespace {

TEST(Stats, QuantilesOfFourValues) {
  // Type-7 quantiles: h = (n-1) q; {1,2,3,4}: Q1 = 1.75, median 2.5, Q3 3.25.
  Summary S = summarize({4, 1, 3, 2});
  EXPECT_EQ(S.Count, 4u);
  EXPECT_DOUBLE_EQ(S.Median, 2.5);
  EXPECT_DOUBLE_EQ(S.Q1, 1.75);
  EXPECT_DOUBLE_EQ(S.Q3, 3.25);
  EXPECT_DOUBLE_EQ(S.iqr(), 1.5);
  EXPECT_DOUBLE_EQ(S.Min, 1);
  EXPECT_DOUBLE_EQ(S.Max, 4);
  EXPECT_DOUBLE_EQ(S.Mean, 2.5);
  EXPECT_DOUBLE_EQ(S.relativeSpread(), 3 / 2.5);
}

TEST(Stats, QuantilesOfThreeValues) {
  Summary S = summarize({5, 1, 3});
  EXPECT_DOUBLE_EQ(S.Median, 3);
  EXPECT_DOUBLE_EQ(S.Q1, 2);
  EXPECT_DOUBLE_EQ(S.Q3, 4);
}

TEST(Stats, EmptyAndSingle) {
  EXPECT_EQ(summarize({}).Count, 0u);
  Summary S = summarize({7});
  EXPECT_DOUBLE_EQ(S.Median, 7);
  EXPECT_DOUBLE_EQ(S.iqr(), 0);
}

TEST(Stats, KendallPerfectAndReversed) {
  EXPECT_DOUBLE_EQ(kendallTauB({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
  EXPECT_DOUBLE_EQ(kendallTauB({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0);
}

TEST(Stats, KendallHandComputed) {
  // Pairs: 7 concordant, 3 discordant, no ties: (7 - 3) / 10.
  EXPECT_DOUBLE_EQ(kendallTauB({1, 2, 3, 4, 5}, {3, 1, 2, 5, 4}), 0.4);
}

TEST(Stats, KendallWithTies) {
  // X = {1,2,2,3}, Y = {1,2,3,3}: C = 4, D = 0, one pair tied in X, one in
  // Y, n0 = 6: tau_b = 4 / sqrt(5 * 5) = 0.8 (tau-a would give 4/6).
  EXPECT_DOUBLE_EQ(kendallTauB({1, 2, 2, 3}, {1, 2, 3, 3}), 0.8);
  // A pair tied in both counts in n1 and n2: X={1,1,2}, Y={5,5,6}:
  // C = 2, n1 = n2 = 1, n0 = 3: 2 / sqrt(2 * 2) = 1.
  EXPECT_DOUBLE_EQ(kendallTauB({1, 1, 2}, {5, 5, 6}), 1.0);
}

TEST(Stats, KendallUndefined) {
  EXPECT_TRUE(std::isnan(kendallTauB({1}, {2})));
  EXPECT_TRUE(std::isnan(kendallTauB({3, 3, 3}, {1, 2, 3})));
}

TEST(Stats, TrapezoidKnownAnswers) {
  std::vector<PowerSample> S = {{0, 100}, {1, 200}, {2, 100}};
  EXPECT_DOUBLE_EQ(trapezoidEnergy(S, 0, 2), 300);
  // Interpolated ends: P(0.5) = 150, P(1.5) = 150: 87.5 + 87.5.
  EXPECT_DOUBLE_EQ(trapezoidEnergy(S, 0.5, 1.5), 175);
  // Held flat outside the samples.
  EXPECT_DOUBLE_EQ(trapezoidEnergy(S, -1, 0), 100);
  EXPECT_DOUBLE_EQ(trapezoidEnergy(S, 2, 3), 100);
  EXPECT_DOUBLE_EQ(trapezoidEnergy(S, -1, 3), 500);
  EXPECT_DOUBLE_EQ(trapezoidEnergy(S, 1, 1), 0);
  EXPECT_DOUBLE_EQ(trapezoidEnergy({}, 0, 1), 0);
}

TEST(Stats, TrapezoidUnevenSamples) {
  // Constant 50 W sampled irregularly over 3 s is 150 J.
  std::vector<PowerSample> S = {{0, 50}, {0.1, 50}, {1.7, 50}, {3, 50}};
  EXPECT_DOUBLE_EQ(trapezoidEnergy(S, 0, 3), 150);
  // A ramp 0 -> 30 W over 3 s: 45 J.
  std::vector<PowerSample> R = {{0, 0}, {1, 10}, {2.5, 25}, {3, 30}};
  EXPECT_NEAR(trapezoidEnergy(R, 0, 3), 45, 1e-12);
}

TEST(Stats, LineFit) {
  LinearFit F = fitLine({0, 1, 2, 3}, {1, 3, 5, 7});
  ASSERT_TRUE(F.Ok);
  EXPECT_DOUBLE_EQ(F.Slope, 2);
  EXPECT_DOUBLE_EQ(F.Intercept, 1);
  EXPECT_DOUBLE_EQ(F.R2, 1);
  // Least squares through (0,0), (1,1), (2,1): slope 0.5, intercept 1/6.
  F = fitLine({0, 1, 2}, {0, 1, 1});
  EXPECT_NEAR(F.Slope, 0.5, 1e-12);
  EXPECT_NEAR(F.Intercept, 1.0 / 6, 1e-12);
  EXPECT_FALSE(fitLine({1, 1}, {1, 2}).Ok);
}

TEST(Stats, PowerLawRecoversKnownParameters) {
  // P(n) = 3 n^0.8 + 50 over the active-SM counts of an H100-class GPU.
  std::vector<double> X = {1, 2, 4, 8, 16, 33, 66, 99, 132}, Y;
  for (double N : X)
    Y.push_back(3 * std::pow(N, 0.8) + 50);
  PowerLawFit F = fitPowerLaw(X, Y);
  ASSERT_TRUE(F.Ok);
  EXPECT_NEAR(F.Alpha, 3, 1e-5);
  EXPECT_NEAR(F.Beta, 0.8, 1e-6);
  EXPECT_NEAR(F.Delta, 50, 1e-4);
  EXPECT_NEAR(F.R2, 1, 1e-12);
  EXPECT_NEAR(F.eval(132), 3 * std::pow(132, 0.8) + 50, 1e-6);
}

TEST(Stats, PowerLawSuperlinearAndLinear) {
  std::vector<double> X = {1, 3, 10, 30, 100}, Y, Z;
  for (double N : X) {
    Y.push_back(0.25 * std::pow(N, 1.5) + 80);
    Z.push_back(2 * N + 60);
  }
  PowerLawFit F = fitPowerLaw(X, Y);
  EXPECT_NEAR(F.Alpha, 0.25, 1e-6);
  EXPECT_NEAR(F.Beta, 1.5, 1e-6);
  EXPECT_NEAR(F.Delta, 80, 1e-4);
  PowerLawFit L = fitPowerLaw(X, Z);
  EXPECT_NEAR(L.Beta, 1, 1e-6);
  EXPECT_NEAR(L.Alpha, 2, 1e-5);
  EXPECT_NEAR(L.Delta, 60, 1e-4);
}

TEST(Stats, PowerLawNeedsThreeDistinctPoints) {
  EXPECT_FALSE(fitPowerLaw({1, 2, 2}, {1, 2, 3}).Ok);
  EXPECT_FALSE(fitPowerLaw({0, 1, 2}, {1, 2, 3}).Ok);
}

} // namespace
