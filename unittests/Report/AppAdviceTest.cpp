//===- AppAdviceTest.cpp - One power setting for a whole program ----------===//
//
// Hand-built reports: two kernels, three settings each (no lever, a 200 W
// power limit, a clock locked at 1000 MHz), with figures chosen so that the
// program's best setting depends on how the launches weight the kernels.
//
//===----------------------------------------------------------------------===//
#include "flipflop/Report/AppAdvice.h"
#include "flipflop/Report/JSONReport.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace flipflop;
using namespace llvm;

namespace {

json::Value cfg(const char *Lever, double Value, double T, double E,
                double LimitW = 250) {
  json::Object O{{"block", json::Array{256, 1, 1}},
                 {"min_blocks_per_sm", 0},
                 {"power_limit_w", LimitW},
                 {"time_s", T},
                 {"energy_j", E},
                 {"valid", true},
                 {"lever", Lever}};
  if (std::string(Lever) != "none")
    O["lever_value"] = Value;
  return json::Value(std::move(O));
}

/// A kernel with settings none / power limit 200 W / clock 1000 MHz. Its
/// recommended pick (energy_within_budget) is config \p Rec.
json::Value kernel(const char *Name, const char *Display,
                   std::array<double, 3> T, std::array<double, 3> E,
                   int64_t Rec = 0) {
  json::Array Configs{cfg("none", 0, T[0], E[0]),
                      cfg("power_limit", 200, T[1], E[1], 200),
                      cfg("locked_clock", 1000, T[2], E[2])};
  json::Object Picks{{"fastest", 0},
                     {"least_energy", Rec},
                     {"energy_within_budget", Rec},
                     {"best_edp", 0},
                     {"occupancy_heuristic", 0}};
  return json::Object{{"name", Name},
                      {"display_name", Display},
                      {"file", "k.cu"},
                      {"line", 1},
                      {"configs", std::move(Configs)},
                      {"picks", std::move(Picks)}};
}

/// A: memory-bound and short (50 us): the clock lock saves 30 % energy at no
/// cost in time. B: compute-bound and long (1 s): the lock slows it by 40 %
/// and saves little; the power limit saves nothing.
/// \p V read as a report.
Report typed(const json::Value &V) {
  Expected<Report> R = reportFromJSON(V);
  if (!R) {
    ADD_FAILURE() << toString(R.takeError());
    return Report();
  }
  return std::move(*R);
}

Report report() {
  json::Array Ks{
      kernel("_Z1av", "a(float*)", {50e-6, 50e-6, 50e-6},
             {10e-3, 10e-3, 7e-3}, 2),
      kernel("_Z1bv", "b(float*, float const*, int)", {1.0, 1.0, 1.4},
             {200, 200, 190})};
  return typed(json::Object{{"schema_version", 1},
                            {"tool", "test"},
                            {"gpu", json::Object{{"name", "H100-SXM5-80GB"},
                                                 {"power_default_w", 250}}},
                            {"kernels", std::move(Ks)}});
}

TEST(AppAdvice, WeightedByShareOfRunTime) {
  Report R = report();
  // One launch each: B is ~100 % of the time and the lock slows it by 40 %,
  // beyond the 5 % budget; nothing else saves energy: keep the default.
  AppAdviceOptions O;
  std::vector<AppAdvice> A = computeAppAdvice(R, O);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_EQ(A[0].GPU, "H100-SXM5-80GB");
  EXPECT_EQ(A[0].NumSettings, 3u);
  EXPECT_EQ(A[0].Best.Lever, "none");
  EXPECT_FALSE(A[0].AnyLaunchesGiven);
  ASSERT_FALSE(A[0].Notes.empty());
  EXPECT_NE(A[0].Notes[0].find("each taken to run once"), std::string::npos);
  ASSERT_EQ(A[0].Kernels.size(), 2u);
  EXPECT_NEAR(A[0].Kernels[1].Share, 1.0 / (1 + 50e-6), 1e-9);

  // A launched 10^6 times (50 s, 7 kJ -> 10 kJ) outweighs B: the lock
  // saves (10000 - 7000 + 10) / 10200 = 29.5 % energy for +0.8 % time.
  O.Launches["a"] = 1e6;
  A = computeAppAdvice(R, O);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_EQ(A[0].Best.Lever, "locked_clock");
  EXPECT_DOUBLE_EQ(A[0].Best.Value, 1000);
  EXPECT_FALSE(A[0].Tie);
  EXPECT_NEAR(A[0].Default.TimeS, 1e6 * 50e-6 + 1.0, 1e-9);
  EXPECT_NEAR(A[0].Best.TimeS, 1e6 * 50e-6 + 1.4, 1e-9);
  EXPECT_NEAR(A[0].SavingPct, (1 - (7000.0 + 190) / (10000 + 200)) * 100,
              1e-9);
  EXPECT_NEAR(A[0].Kernels[0].Share, 50.0 / 51.0, 1e-9);
  EXPECT_TRUE(A[0].Kernels[0].LaunchesGiven);
  EXPECT_FALSE(A[0].AllLaunchesGiven);

  std::string Text;
  raw_string_ostream OS(Text);
  printAppAdvice(A, OS);
  EXPECT_NE(Text.find("SM clock locked at 1000 MHz for the whole application"),
            std::string::npos);
  EXPECT_NE(Text.find("nvidia-smi -lgc 1000,1000"), std::string::npos);
  EXPECT_NE(Text.find("nvmlDeviceSetGpuLockedClocks(device, 1000, 1000)"),
            std::string::npos);
  EXPECT_NE(Text.find("needs root/admin"), std::string::npos);
}

TEST(AppAdvice, SavingInsideTheBandIsATie) {
  // The lock saves 1 % on the only kernel: inside the band, keep the default.
  json::Array Ks{kernel("_Z1cv", "c()", {1.0, 1.0, 1.0}, {100, 100, 99})};
  Report R = typed(json::Object{
      {"schema_version", 1},
      {"gpu", json::Object{{"name", "A100-PCIE-40GB"}}},
      {"kernels", std::move(Ks)}});
  std::vector<AppAdvice> A = computeAppAdvice(R, {});
  ASSERT_EQ(A.size(), 1u);
  EXPECT_EQ(A[0].Best.Lever, "locked_clock");
  EXPECT_TRUE(A[0].Tie);
  std::string Text;
  raw_string_ostream OS(Text);
  printAppAdvice(A, OS);
  EXPECT_NE(Text.find("tie, keep the default (no lever)"), std::string::npos);
}

TEST(AppAdvice, PerKernelOnlyWhenLongEnough) {
  // Kernel a's own pick locks the clock, but a launch lasts 50 us: too
  // short to lock around it. A 200 W limit on a 1 s kernel acts.
  json::Array Ks{
      kernel("_Z1av", "a(float*)", {50e-6, 50e-6, 50e-6}, {10e-3, 10e-3, 7e-3},
             2),
      kernel("_Z1dv", "d()", {1.0, 1.01, 1.4}, {200, 150, 190}, 1)};
  Report R = typed(json::Object{
      {"schema_version", 1},
      {"gpu", json::Object{{"name", "H100-SXM5-80GB"}}},
      {"kernels", std::move(Ks)}});
  std::vector<AppAdvice> A = computeAppAdvice(R, {});
  ASSERT_EQ(A.size(), 1u);
  ASSERT_EQ(A[0].Kernels.size(), 2u);
  EXPECT_FALSE(A[0].Kernels[0].Acts);
  EXPECT_NE(A[0].Kernels[0].Advice.find("too short to lock the clock"),
            std::string::npos);
  EXPECT_TRUE(A[0].Kernels[1].Acts);
  EXPECT_NE(A[0].Kernels[1].Advice.find("nvidia-smi -pl 200"),
            std::string::npos);
  // And the program-wide setting: the 200 W limit saves 25 %.
  EXPECT_EQ(A[0].Best.Lever, "power_limit");
  EXPECT_DOUBLE_EQ(A[0].Best.Value, 200);
}

TEST(AppAdvice, LaunchCounts) {
  std::map<std::string, double> M;
  ASSERT_FALSE(bool(parseLaunchCounts("saxpy(float, float*)=10,_Z1av=3", M)));
  EXPECT_EQ(M.size(), 2u);
  EXPECT_DOUBLE_EQ(M["saxpy(float, float*)"], 10);
  EXPECT_DOUBLE_EQ(M["_Z1av"], 3);
  Error E = parseLaunchCounts("a=x", M);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(toString(std::move(E)).find("'a=x'"), std::string::npos);
  Error F = parseLaunchCounts("nameonly", M);
  ASSERT_TRUE(bool(F));
  consumeError(std::move(F));
  // Unknown names are reported.
  AppAdviceOptions O;
  O.Launches["nosuch"] = 4;
  std::vector<std::string> Unmatched;
  computeAppAdvice(report(), O, &Unmatched);
  EXPECT_EQ(Unmatched, std::vector<std::string>{"nosuch"});
}

} // namespace
