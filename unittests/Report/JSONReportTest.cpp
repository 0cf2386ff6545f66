//===- JSONReportTest.cpp - The versioned JSON report ---------------------===//
#include "flipflop/Report/JSONReport.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"
#include <map>

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
    R.Status = SweepStatus::GivenConfig;
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

/// \p V with the keys of every object inserted in the reverse of the order
/// they come out of \p V's objects.
json::Value reinserted(const json::Value &V) {
  if (const json::Object *O = V.getAsObject()) {
    std::vector<std::string> Keys;
    for (const auto &KV : *O)
      Keys.push_back(KV.first.str());
    json::Object Out;
    for (auto It = Keys.rbegin(); It != Keys.rend(); ++It)
      Out[*It] = reinserted(*O->get(*It));
    return json::Value(std::move(Out));
  }
  if (const json::Array *A = V.getAsArray()) {
    json::Array Out;
    for (const json::Value &E : *A)
      Out.push_back(reinserted(E));
    return json::Value(std::move(Out));
  }
  return V;
}

/// The first key of \p Text (printJSON's layout: one key per line, two
/// spaces per level) that does not sort after the key before it in its
/// object, or "".
std::string firstUnsortedKey(StringRef Text) {
  std::map<size_t, std::string> Last; ///< By indentation, in open objects.
  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (StringRef L : Lines) {
    size_t Indent = L.find_first_not_of(' ');
    if (Indent == StringRef::npos)
      continue;
    StringRef Body = L.drop_front(Indent);
    if (size_t End = Body.find("\": ");
        Body.starts_with("\"") && End != StringRef::npos) {
      std::string Key = Body.slice(1, End).str();
      if (auto It = Last.find(Indent); It != Last.end() && !(It->second < Key))
        return Key;
      Last[Indent] = Key;
    }
    if (L.ends_with("{")) // An object opens: its keys start afresh.
      Last.erase(Indent + 2);
  }
  return "";
}

TEST(JSONReport, Deterministic) {
  // The same report built with every object's keys inserted in opposite
  // orders is written as the same bytes, with every object's keys sorted.
  Fixture F;
  std::vector<json::Value> Ks;
  Ks.push_back(kernelToJSON(F.K, F.R));
  json::Value V = reportToJSON(F.GPU, std::move(Ks), "unit");
  json::Value W = reinserted(V);
  ASSERT_EQ(V, W);
  SmallString<128> Dir;
  ASSERT_FALSE(sys::fs::createUniqueDirectory("flipflop-det", Dir));
  SmallString<128> PA(Dir), PB(Dir);
  sys::path::append(PA, "a.json");
  sys::path::append(PB, "b.json");
  ASSERT_FALSE(bool(writeJSONFile(V, PA)));
  ASSERT_FALSE(bool(writeJSONFile(W, PB)));
  auto A = MemoryBuffer::getFile(PA), B = MemoryBuffer::getFile(PB);
  ASSERT_TRUE(A && B);
  std::string TA = (*A)->getBuffer().str(), TB = (*B)->getBuffer().str();
  sys::fs::remove(PA);
  sys::fs::remove(PB);
  sys::fs::remove(Dir);
  EXPECT_EQ(TA, TB);
  EXPECT_EQ(TA, F.text());
  EXPECT_EQ(firstUnsortedKey(TA), "") << TA;
  // The top level in order, and one object in full.
  size_t At = 0;
  for (const char *Key :
       {"bands", "gpu", "kernels", "schema_version", "tool"}) {
    size_t Next = TA.find("\n  \"" + std::string(Key) + "\": ");
    ASSERT_NE(Next, std::string::npos) << Key;
    EXPECT_GT(Next, At) << Key;
    At = Next;
  }
  EXPECT_NE(TA.find("      \"picks\": {\n"
                    "        \"best_edp\": 1,\n"
                    "        \"energy_within_budget\": 1,\n"
                    "        \"fastest\": 0,\n"
                    "        \"least_energy\": 1,\n"
                    "        \"occupancy_heuristic\": 2\n"
                    "      }"),
            std::string::npos)
      << TA;
}

TEST(JSONReport, RoundTrip) {
  Fixture F;
  auto R = parseReport(F.text());
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  EXPECT_EQ(R->SchemaVersion, 1u);
  ASSERT_TRUE(R->GPU);
  EXPECT_EQ(R->GPU->Name, "TestGPU");
  EXPECT_EQ(R->GPU->PowerDefaultW, 250);
  ASSERT_TRUE(R->Bands);
  EXPECT_TRUE(R->Bands->CompareEnergyRel);
  ASSERT_EQ(R->Kernels.size(), 1u);
  const ReportKernel *K = R->find("kern(float*)");
  ASSERT_TRUE(K);
  EXPECT_EQ(K->Name, "_Z4kernPf");
  EXPECT_EQ(K->File, "kern.cu");
  EXPECT_EQ(K->Line, 12u);
  ASSERT_EQ(K->Configs.size(), 3u);
  EXPECT_EQ(K->Configs[1].Lever, "none");
  EXPECT_EQ(K->Configs[2].Block[1], 2u);
  EXPECT_DOUBLE_EQ(K->Configs[0].TimeS, 1e-3);
  EXPECT_TRUE(K->Configs[0].TimeBandS);
  EXPECT_EQ(K->Pareto, (std::vector<size_t>{0, 1}));
  ASSERT_TRUE(K->Resources);
  EXPECT_EQ(K->Resources->Registers, 32);
  EXPECT_TRUE(K->Resources->RegistersExact);
  EXPECT_EQ(K->Resources->SpillBytes, 12);
  EXPECT_EQ(K->Resources->SharedBytes, 1024);
  EXPECT_EQ(K->Guesses, std::vector<std::string>{"loop at line 3: assumed 16"});
  EXPECT_EQ(K->Explanation, "single configuration given with --block");
  EXPECT_NEAR(K->SearchSpaceReduction, 1.0 / 3.0, 1e-9);
  EXPECT_EQ(K->ModelPicks.at("fastest"), 0u);
  EXPECT_EQ(K->Recommendations.count("fastest"), 1u);
  EXPECT_FALSE(K->GPU);
  EXPECT_EQ(K->pick("least_energy"), &K->Configs[1]);
  EXPECT_EQ(K->pick("nonsense"), nullptr);
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

TEST(JSONReport, MoreReaderErrors) {
  auto Err = [](StringRef Text) {
    Expected<Report> R = parseReport(Text);
    return R ? std::string("no error") : toString(R.takeError());
  };
  const char *Head = R"({"schema_version": 1, "kernels": [{"name": "k", )"
                     R"("file": "f.cu", "line": 1, )";
  EXPECT_EQ(Err(std::string(Head) + R"("configs": [{"block": [1, 1]}], )"
                                    R"("picks": {}}]})"),
            "missing value at report.kernels[0].configs[0].min_blocks_per_sm");
  EXPECT_EQ(Err(std::string(Head) +
                R"("configs": [{"block": [1, 1], "min_blocks_per_sm": 0}], )"
                R"("picks": {}}]})"),
            "expected an array of 3 integers at "
            "report.kernels[0].configs[0].block");
  const char *Cfg =
      R"("configs": [{"block": [32, 1, 1], "min_blocks_per_sm": 0}], )";
  EXPECT_EQ(Err(std::string(Head) + Cfg + R"("picks": {}, "pareto": [1]}]})"),
            "index out of range of configs at report.kernels[0].pareto[0]");
  EXPECT_EQ(Err(std::string(Head) + Cfg +
                R"("picks": {}, "ties": {"fastest": {"model_optimum": 4}}}]})"),
            "index out of range of configs at "
            "report.kernels[0].ties.fastest.model_optimum");
  EXPECT_EQ(Err(std::string(Head) + Cfg + R"("picks": {}, "gpu": 3}]})"),
            "expected string at report.kernels[0].gpu");
  EXPECT_EQ(Err(std::string(Head) + "\"picks\": {}}]}"),
            "expected an array at report.kernels[0].configs");
  // Null numbers (non-finite when written) read as 0.
  Expected<Report> R =
      parseReport(std::string(Head) +
                  R"("configs": [{"block": [32, 1, 1], "min_blocks_per_sm": 0,)"
                  R"( "time_s": null}], "picks": {"fastest": 0}}]})");
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  EXPECT_EQ(R->Kernels[0].Configs[0].TimeS, 0);
  EXPECT_EQ(R->Kernels[0].Picks.at("fastest").Lever, "none");
}

/// toJSON re-emits what was read: a report printed, read and printed again
/// gives the same bytes, fields the reader does not type included.
TEST(JSONReport, ReadWriteSameBytes) {
  Fixture F;
  std::string Text = F.text();
  Expected<Report> R = parseReport(Text);
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  std::string Again;
  raw_string_ostream OS(Again);
  printJSON(toJSON(*R), OS);
  EXPECT_EQ(Again, Text);
  // A kernel's GPU (set by a merge) is written into its object.
  R->Kernels[0].GPU = "TestGPU";
  json::Value V = toJSON(*R);
  EXPECT_EQ((*V.getAsObject()->getArray("kernels"))[0].getAsObject()->getString(
                "gpu"),
            "TestGPU");
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
