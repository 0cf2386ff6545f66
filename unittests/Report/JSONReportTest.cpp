//===- JSONReportTest.cpp - The versioned JSON report ---------------------===//
#include "flipflop/Report/JSONReport.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

using namespace flipflop;
using namespace llvm;

namespace {

Prediction pred(unsigned BX, unsigned BY, unsigned MinB, double Limit, double T,
                double E) {
  Prediction P;
  P.Config.Block = {BX, BY, 1};
  P.Config.Grid = {1024, 1, 1};
  P.Config.MinBlocksPerSM = MinB;
  P.Config.PowerLimitW = Limit;
  P.TimeS = T;
  P.EnergyJ = E;
  P.AvgPowerW = E / T;
  P.ClockMHz = 1410;
  P.Occ.Occupancy = 0.5;
  P.Occ.BlocksPerSM = 4;
  P.RegsPerThread = 32;
  return P;
}

struct Fixture {
  GPUSpec GPU;
  KernelProfile K;
  SweepResult R;
  Fixture() {
    GPU.Name = "TestGPU";
    GPU.CCMajor = 8;
    GPU.SMCount = 108;
    GPU.Power.DefaultLimitW = 250;
    K.Name = "_Z4kernPf";
    K.DisplayName = "kern(float*)";
    K.File = "kern.cu";
    K.Line = 12;
    K.Res.Registers = 32;
    K.Res.RegistersExact = true;
    K.Res.StaticSharedBytes = 1024;
    K.Res.SpillStoreBytes = 8;
    K.Res.SpillLoadBytes = 4;
    K.op(OpClass::FP32) = 100;
    K.Flops32 = 0.1; // not exactly representable: printed rounded
    K.Guesses.push_back("loop at line 3: assumed 16");
    R.Configs = {pred(128, 1, 0, 250, 1.0e-3, 0.25),
                 pred(256, 1, 2, 200, 1.2e-3, 0.2),
                 pred(64, 2, 0, 150, 2.0e-3, 0.3)};
    R.Pareto = {0, 1};
    R.Pick.Fastest = 0;
    R.Pick.LeastEnergy = 1;
    R.Pick.EnergyWithinBudget = 1;
    R.Pick.BestEDP = 1;
    R.Pick.OccupancyHeuristic = 2;
    R.SearchSpaceReduction = 1.0 / 3.0;
    R.Explanation = "because";
  }
  std::string text() {
    std::vector<json::Value> Ks;
    Ks.push_back(kernelToJSON(K, R));
    std::string S;
    raw_string_ostream OS(S);
    printJSON(reportToJSON(GPU, std::move(Ks), "unit"), OS);
    return S;
  }
};

TEST(JSONReport, SchemaFields) {
  Fixture F;
  std::string S = F.text();
  auto V = json::parse(S);
  ASSERT_TRUE(bool(V)) << toString(V.takeError());
  const json::Object *O = V->getAsObject();
  EXPECT_EQ(O->getInteger("schema_version"), 1);
  EXPECT_EQ(O->getString("tool"), "unit");
  EXPECT_EQ(O->getObject("gpu")->getString("name"), "TestGPU");
  const json::Object *K = (*O->getArray("kernels"))[0].getAsObject();
  EXPECT_EQ(K->getString("display_name"), "kern(float*)");
  EXPECT_EQ(K->getInteger("line"), 12);
  EXPECT_EQ(K->getObject("resources")->getInteger("spill_bytes"), 12);
  EXPECT_EQ(K->getObject("resources")->getBoolean("registers_exact"), true);
  EXPECT_EQ(K->getObject("picks")->getInteger("occupancy_heuristic"), 2);
  EXPECT_EQ(K->getArray("pareto")->size(), 2u);
  EXPECT_EQ(K->getObject("profile")->getObject("ops")->getNumber("fp32"), 100);
  const json::Object *C = (*K->getArray("configs"))[1].getAsObject();
  for (const char *Key : {"block", "grid", "min_blocks_per_sm", "power_limit_w",
                          "occupancy", "time_s", "avg_power_w", "energy_j",
                          "clock_mhz", "bottleneck", "limiter"})
    EXPECT_TRUE(C->get(Key)) << Key;
  // Numbers are printed rounded and keys sorted.
  EXPECT_NE(S.find("\"fp32\": 0.1,"), std::string::npos) << S;
  EXPECT_NE(S.find("\"search_space_reduction\": 0.3333333333"),
            std::string::npos);
  EXPECT_LT(S.find("\"gpu\""), S.find("\"kernels\""));
  EXPECT_LT(S.find("\"kernels\""), S.find("\"schema_version\""));
}

TEST(JSONReport, Deterministic) {
  Fixture A, B;
  EXPECT_EQ(A.text(), B.text());
}

TEST(JSONReport, RoundTrip) {
  Fixture F;
  auto R = parseReport(F.text());
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  EXPECT_EQ(R->SchemaVersion, 1u);
  EXPECT_EQ(R->GPUName, "TestGPU");
  ASSERT_EQ(R->Kernels.size(), 1u);
  const ReportKernel *K = R->find("kern(float*)");
  ASSERT_TRUE(K);
  EXPECT_EQ(K->Name, "_Z4kernPf");
  EXPECT_EQ(K->File, "kern.cu");
  EXPECT_EQ(K->Line, 12u);
  EXPECT_EQ(K->NumConfigs, 3u);
  ASSERT_EQ(K->Picks.count("least_energy"), 1u);
  const ReportPick &P = K->Picks.at("least_energy");
  EXPECT_EQ(P.Index, 1u);
  EXPECT_EQ(P.Block[0], 256u);
  EXPECT_EQ(P.MinBlocksPerSM, 2u);
  EXPECT_EQ(P.PowerLimitW, 200);
  EXPECT_EQ(K->Picks.at("occupancy_heuristic").Block[1], 2u);
}

TEST(JSONReport, ReaderErrorsNameThePath) {
  auto Bad = parseReport(R"({"schema_version": 1, "kernels": [
    {"name": "k", "file": "f.cu", "line": 1, "configs": [],
     "picks": {"fastest": 3}}]})");
  ASSERT_FALSE(Bad);
  EXPECT_EQ(toString(Bad.takeError()),
            "index out of range of configs at report.kernels[0].picks.fastest");
  auto NoName = parseReport(R"({"schema_version": 1, "kernels": [{}]})");
  ASSERT_FALSE(NoName);
  EXPECT_EQ(toString(NoName.takeError()),
            "missing value at report.kernels[0].name");
  auto Version = parseReport(R"({"schema_version": 2, "kernels": []})");
  ASSERT_FALSE(Version);
  EXPECT_NE(toString(Version.takeError()).find("schema_version 2"),
            std::string::npos);
  auto NotJSON = parseReport("{");
  ASSERT_FALSE(NotJSON);
  consumeError(NotJSON.takeError());
}

TEST(JSONReport, AtomicWrite) {
  SmallString<128> Dir;
  ASSERT_FALSE(sys::fs::createUniqueDirectory("flipflop-report", Dir));
  SmallString<128> Path(Dir);
  sys::path::append(Path, "r.json");
  Fixture F;
  std::vector<json::Value> Ks;
  Ks.push_back(kernelToJSON(F.K, F.R));
  json::Value V = reportToJSON(F.GPU, std::move(Ks), "unit");
  ASSERT_FALSE(bool(writeJSONFile(V, Path)));
  auto R = readReportFile(Path);
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  EXPECT_EQ(R->Kernels.size(), 1u);
  // Only the report is left in the directory (no temporary file).
  std::error_code EC;
  unsigned N = 0;
  for (sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC;
       I.increment(EC))
    ++N;
  EXPECT_EQ(N, 1u);
  sys::fs::remove(Path);
  sys::fs::remove(Dir);
}

} // namespace
