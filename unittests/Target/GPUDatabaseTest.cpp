//===- GPUDatabaseTest.cpp - GPU table, aliases, defaults, spec files -----===//

#include "flipflop/Target/GPUDatabase.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace flipflop;
using namespace llvm;

namespace {

TEST(GPUDatabase, HasTheRequiredGPUs) {
  for (const char *Name : {"V100-SXM2-16GB",
                           "V100-PCIE-16GB",
                           "T4",
                           "A100-PCIE-40GB",
                           "A100-SXM4-40GB",
                           "A100-SXM4-80GB",
                           "A100-SXM4-80GB-500W",
                           "A10",
                           "A30",
                           "A40",
                           "RTX-A4000",
                           "RTX-A6000",
                           "RTX-3090",
                           "RTX-2080-Ti",
                           "TITAN-RTX",
                           "RTX-3060-Laptop",
                           "L4",
                           "L40S",
                           "RTX-4090",
                           "RTX-4000-Ada",
                           "RTX-5000-Ada",
                           "RTX-6000-Ada",
                           "H100-SXM5-80GB",
                           "H100-PCIE-80GB",
                           "H200-SXM-141GB",
                           "GH200-96GB",
                           "B200",
                           "RTX-5090",
                           "Jetson-AGX-Orin-64GB"}) {
    const GPUSpec *G = findGPU(Name);
    ASSERT_NE(G, nullptr) << Name;
    EXPECT_EQ(G->Name, Name);
  }
  EXPECT_EQ(allGPUs().size(), 29u);
}

TEST(GPUDatabase, EveryEntryIsConsistent) {
  for (const GPUSpec &G : allGPUs()) {
    SCOPED_TRACE(G.Name);
    EXPECT_GT(G.SMCount, 0u);
    EXPECT_GT(G.BoostClockMHz, G.BaseClockMHz);
    EXPECT_GT(G.BaseClockMHz, G.MinClockMHz);
    EXPECT_GT(G.MemoryBandwidthGBs, 0);
    EXPECT_GT(G.L2SizeKB, 0);
    EXPECT_FALSE(G.Source.empty());
    EXPECT_FALSE(G.MemoryType.empty());
    EXPECT_EQ(G.MaxWarpsPerSM * G.WarpSize, G.MaxThreadsPerSM);
    EXPECT_EQ(G.SharedPerSM, G.SharedCarveoutsKB.back() * 1024);
    EXPECT_LE(G.Power.MinLimitW, G.Power.DefaultLimitW);
    EXPECT_LE(G.Power.DefaultLimitW, G.Power.MaxLimitW);
    EXPECT_LT(G.Power.IdleW, G.Power.DefaultLimitW);
    EXPECT_GT(G.Throughput.FP32, 0);
    EXPECT_GT(G.Throughput.TensorFP16, 0);
    // Every alias resolves back to this GPU (no alias is shared).
    for (const std::string &A : G.Aliases)
      EXPECT_EQ(findGPU(A), &G) << A;
    // Peak DRAM bandwidth from the memory clock (as nvidia-smi reports it:
    // two transfers per clock) and the bus agrees with the datasheet figure
    // within 3% (checks the memory columns of the table).
    double GBs = G.MemoryClockMHz * 1e6 * 2 * G.MemoryBusWidthBits / 8 / 1e9;
    EXPECT_NEAR(GBs / G.MemoryBandwidthGBs, 1.0, 0.03);
  }
}

// What cudaGetDeviceProperties reports on these parts
// (sharedMemPerMultiprocessor, sharedMemPerBlockOptin,
// reservedSharedMemPerBlock, maxThreadsPerMultiProcessor).
TEST(GPUDatabase, PerSMLimitsMatchTheDriver) {
  const GPUSpec *A100 = findGPU("a100");
  EXPECT_EQ(A100->SharedPerSM, 167936u);
  EXPECT_EQ(A100->SharedPerBlockOptin, 166912u);
  EXPECT_EQ(A100->SharedReservedPerBlock, 1024u);
  EXPECT_EQ(A100->MaxThreadsPerSM, 2048u);
  const GPUSpec *H100 = findGPU("h100");
  EXPECT_EQ(H100->SharedPerSM, 233472u);
  EXPECT_EQ(H100->SharedPerBlockOptin, 232448u);
  const GPUSpec *A10 = findGPU("a10");
  EXPECT_EQ(A10->SharedPerSM, 102400u);
  EXPECT_EQ(A10->SharedPerBlockOptin, 101376u);
  EXPECT_EQ(A10->MaxThreadsPerSM, 1536u);
  EXPECT_EQ(A10->MaxBlocksPerSM, 16u);
  const GPUSpec *T4 = findGPU("t4");
  EXPECT_EQ(T4->SharedPerSM, 65536u);
  EXPECT_EQ(T4->SharedPerBlockOptin, 65536u);
  EXPECT_EQ(T4->MaxThreadsPerSM, 1024u);
  EXPECT_EQ(findGPU("l4")->MaxBlocksPerSM, 24u);
  EXPECT_EQ(findGPU("v100")->SharedPerSM, 98304u);
}

TEST(GPUDatabase, PeakFiguresMatchDatasheets) {
  // FP32 TFLOPS = 2 x lanes x SMs x boost clock.
  auto TF = [](const char *N) {
    const GPUSpec *G = findGPU(N);
    return 2 * G->Throughput.FP32 * G->SMCount * G->BoostClockMHz * 1e-6;
  };
  EXPECT_NEAR(TF("v100"), 15.7, 0.1);     // V100 SXM2 datasheet: 15.7.
  EXPECT_NEAR(TF("a100"), 19.5, 0.1);     // A100 datasheet: 19.5.
  EXPECT_NEAR(TF("h100"), 66.9, 0.1);     // H100 SXM5 (whitepaper): 66.9.
  EXPECT_NEAR(TF("l40s"), 91.6, 0.1);     // L40S datasheet: 91.6.
  EXPECT_NEAR(TF("rtx-4090"), 82.6, 0.1); // Ada whitepaper: 82.6.
  const GPUSpec *A100 = findGPU("a100");
  // Dense FP16 tensor: 312 TFLOPS.
  EXPECT_NEAR(A100->Throughput.TensorFP16 * A100->SMCount *
                  A100->BoostClockMHz * 1e-6,
              312, 1);
}

// The GPUs of the measured gemm tuning data (shared/data/tuning/gemm), against
// the figures docs/GPUS.md cites for them.
TEST(GPUDatabase, TuningDataGPUsMatchTheirSources) {
  // Turing whitepaper, RTX 2080 Ti Founders Edition: 68 SMs, 1350/1635 MHz,
  // 11 GB GDDR6 352-bit 14 Gbps = 616 GB/s, 5632 KB L2, 260 W.
  const GPUSpec *Ti = findGPU("NVIDIA GeForce RTX 2080 Ti");
  ASSERT_NE(Ti, nullptr);
  EXPECT_EQ(Ti->Name, "RTX-2080-Ti");
  EXPECT_EQ(Ti->smVersion(), 75u);
  EXPECT_EQ(Ti->SMCount, 68u);
  EXPECT_EQ(Ti->BaseClockMHz, 1350);
  EXPECT_EQ(Ti->BoostClockMHz, 1635);
  EXPECT_EQ(Ti->MemoryBandwidthGBs, 616);
  EXPECT_EQ(Ti->MemoryBusWidthBits, 352u);
  EXPECT_EQ(Ti->L2SizeKB, 5632);
  EXPECT_EQ(Ti->L2Partitions, 1u);
  // GA100 (A100, A30): two L2 partitions, each caching for its own GPCs.
  EXPECT_EQ(findGPU("A100-PCIE-40GB")->L2Partitions, 2u);
  EXPECT_EQ(findGPU("A30")->L2Partitions, 2u);
  EXPECT_EQ(findGPU("RTX-A6000")->L2Partitions, 1u);
  EXPECT_EQ(Ti->Power.DefaultLimitW, 260);
  // TITAN RTX: full TU102, 72 SMs, 1350/1770 MHz, 24 GB GDDR6 384-bit
  // 672 GB/s, 6 MB L2, 280 W.
  const GPUSpec *Titan = findGPU("NVIDIA TITAN RTX");
  ASSERT_NE(Titan, nullptr);
  EXPECT_EQ(Titan->Name, "TITAN-RTX");
  EXPECT_EQ(Titan->smVersion(), 75u);
  EXPECT_EQ(Titan->SMCount, 72u);
  EXPECT_EQ(Titan->BaseClockMHz, 1350);
  EXPECT_EQ(Titan->BoostClockMHz, 1770);
  EXPECT_EQ(Titan->MemoryBandwidthGBs, 672);
  EXPECT_EQ(Titan->L2SizeKB, 6144);
  EXPECT_EQ(Titan->Power.DefaultLimitW, 280);
  // RTX 3060 Laptop GPU (GA106): 3840 CUDA cores = 30 SMs, boost 1283-1703
  // MHz over a 60-115 W TGP range (the entry is the 115 W / 1703 MHz design),
  // 6 GB GDDR6 192-bit 14 Gbps = 336 GB/s, 3 MB L2.
  const GPUSpec *Lap = findGPU("NVIDIA GeForce RTX 3060 Laptop GPU");
  ASSERT_NE(Lap, nullptr);
  EXPECT_EQ(Lap->Name, "RTX-3060-Laptop");
  EXPECT_EQ(Lap->smVersion(), 86u);
  EXPECT_EQ(Lap->SMCount, 30u);
  EXPECT_EQ(Lap->BoostClockMHz, 1703);
  // A laptop part tops out at its TGP's boost (docs/GPUS.md, "Maximum
  // clock"); desktop GA10x boards list 2100 MHz.
  EXPECT_EQ(Lap->MaxClockMHz, 1703);
  EXPECT_EQ(findGPU("rtx-3090")->MaxClockMHz, 2100);
  EXPECT_EQ(Lap->MemoryBandwidthGBs, 336);
  EXPECT_EQ(Lap->L2SizeKB, 3072);
  EXPECT_EQ(Lap->Power.MinLimitW, 60);
  EXPECT_EQ(Lap->Power.DefaultLimitW, 115);
  // Per-SM limits are the architecture's (cuda-pg, as for T4 and A10).
  EXPECT_EQ(Ti->MaxThreadsPerSM, 1024u);
  EXPECT_EQ(Ti->SharedPerSM, 65536u);
  EXPECT_EQ(Titan->MaxBlocksPerSM, 16u);
  EXPECT_EQ(Lap->MaxThreadsPerSM, 1536u);
  EXPECT_EQ(Lap->SharedPerBlockOptin, 101376u);
  // Aliases and the names NVML reports.
  EXPECT_EQ(findGPU("2080ti"), Ti);
  EXPECT_EQ(findGPU("rtx-2080-ti"), Ti);
  EXPECT_EQ(findGPU("RTX 2080 Ti"), Ti);
  EXPECT_EQ(findGPU("titan-rtx"), Titan);
  EXPECT_EQ(findGPU("TITAN RTX"), Titan);
  EXPECT_EQ(findGPU("rtx-3060-laptop"), Lap);
  EXPECT_EQ(findGPU("NVIDIA GeForce RTX 3060 Laptop GPU"), Lap);
  // Peak FP32 (2 x lanes x SMs x boost): Turing whitepaper 14.2 TFLOPS for
  // the 2080 Ti FE, 16.3 TFLOPS for TITAN RTX; 130 TFLOPS FP16 tensor.
  auto TF = [](const GPUSpec *G) {
    return 2 * G->Throughput.FP32 * G->SMCount * G->BoostClockMHz * 1e-6;
  };
  EXPECT_NEAR(TF(Ti), 14.2, 0.1);
  EXPECT_NEAR(TF(Titan), 16.3, 0.1);
  EXPECT_NEAR(Titan->Throughput.TensorFP16 * Titan->SMCount *
                  Titan->BoostClockMHz * 1e-6,
              130, 1);
}

// Corrections of issue 15, each against the figure docs/GPUS.md cites.
TEST(GPUDatabase, PowerLimitsMatchTheirSources) {
  // nv-gh200-smi: the GPU's own limits on GH200 are 100 / 900 / 900 W (the
  // datasheet's 450-1000 W is the whole module).
  const PowerSpec &GH = findGPU("gh200")->Power;
  EXPECT_EQ(GH.MinLimitW, 100);
  EXPECT_EQ(GH.DefaultLimitW, 900);
  EXPECT_EQ(GH.MaxLimitW, 900);
  // nv-rtx5090-spec: 575 W total graphics power, also the maximum.
  EXPECT_EQ(findGPU("rtx-5090")->Power.DefaultLimitW, 575);
  EXPECT_EQ(findGPU("rtx-5090")->Power.MaxLimitW, 575);
  // nv-ga102-wp: RTX 3090 350 W.
  EXPECT_EQ(findGPU("rtx-3090")->Power.DefaultLimitW, 350);
  EXPECT_EQ(findGPU("rtx-3090")->Power.MaxLimitW, 350);
  // nv-a100-ds footnote: the A100 80 GB CTS board runs at up to 500 W; the
  // NVML name stays with the 400 W standard part.
  const GPUSpec *A500 = findGPU("a100-80gb-500w");
  ASSERT_NE(A500, nullptr);
  EXPECT_EQ(A500->Power.DefaultLimitW, 500);
  EXPECT_EQ(A500->Power.MaxLimitW, 500);
  EXPECT_EQ(A500->MemoryBandwidthGBs, 2039);
  EXPECT_EQ(findGPU("NVIDIA A100-SXM4-80GB")->Power.MaxLimitW, 400);
}

TEST(GPUDatabase, ClocksMatchTheirSources) {
  // Maximum clock (nvidia-smi "Max Clocks"): data-centre parts stop at their
  // boost clock, RTX boards list more (the A4000 data reach 2100 MHz).
  EXPECT_EQ(findGPU("a100-pcie")->MaxClockMHz, 1410);
  EXPECT_EQ(findGPU("h100")->MaxClockMHz, 1980);
  EXPECT_EQ(findGPU("rtx-a4000")->MaxClockMHz, 2100);
  EXPECT_EQ(findGPU("rtx-a4000")->BoostClockMHz, 1560);
  EXPECT_EQ(findGPU("rtx-4090")->MaxClockMHz, 3105);
  for (const GPUSpec &G : allGPUs()) {
    EXPECT_GE(G.MaxClockMHz, G.BoostClockMHz) << G.Name;
    EXPECT_EQ(G.topClockMHz(), G.MaxClockMHz) << G.Name;
  }
  // Base clocks are the published base clocks, not nvidia-smi's default
  // application clocks (A100 1155, V100 1312, Hopper 1980 MHz).
  EXPECT_EQ(findGPU("a100")->BaseClockMHz, 1095);
  EXPECT_EQ(findGPU("v100")->BaseClockMHz, 1290);
  EXPECT_EQ(findGPU("h100")->BaseClockMHz, 1590);
  // Hopper's datasheet dense FP16 tensor figure (989.4 TFLOPS, H100 SXM5) is
  // at 1830 MHz: 4096 FLOPs/clk/SM x 132 SMs x 1.83 GHz.
  const GPUSpec *H = findGPU("h100");
  EXPECT_NEAR(H->Throughput.TensorFP16 * H->SMCount * 1830e6 * 1e-12, 989.4,
              0.5);
}

TEST(GPUDatabase, NamesResolveCaseInsensitively) {
  EXPECT_EQ(findGPU("NVIDIA A100-PCIE-40GB")->Name, "A100-PCIE-40GB");
  EXPECT_EQ(findGPU("nvidia a100-pcie-40gb")->Name, "A100-PCIE-40GB");
  EXPECT_EQ(findGPU("NVIDIA A100-SXM4-80GB")->Name, "A100-SXM4-80GB");
  EXPECT_EQ(findGPU("Tesla V100-SXM2-16GB")->Name, "V100-SXM2-16GB");
  EXPECT_EQ(findGPU("Tesla T4")->Name, "T4");
  EXPECT_EQ(findGPU("NVIDIA GeForce RTX 4090")->Name, "RTX-4090");
  EXPECT_EQ(findGPU("NVIDIA GeForce RTX 3090")->Name, "RTX-3090");
  EXPECT_EQ(findGPU("NVIDIA RTX A6000")->Name, "RTX-A6000");
  EXPECT_EQ(findGPU("NVIDIA RTX 6000 Ada Generation")->Name, "RTX-6000-Ada");
  EXPECT_EQ(findGPU("NVIDIA H100 80GB HBM3")->Name, "H100-SXM5-80GB");
  EXPECT_EQ(findGPU("NVIDIA H100 PCIe")->Name, "H100-PCIE-80GB");
  EXPECT_EQ(findGPU("NVIDIA GH200 480GB")->Name, "GH200-96GB");
  EXPECT_EQ(findGPU("Orin (nvgpu)")->Name, "Jetson-AGX-Orin-64GB");
  EXPECT_EQ(findGPU("  rtx_5090 ")->Name, "RTX-5090");
  // Short aliases pick the documented canonical variant.
  EXPECT_EQ(findGPU("a100")->Name, "A100-SXM4-40GB");
  EXPECT_EQ(findGPU("A100")->Name, "A100-SXM4-40GB");
  EXPECT_EQ(findGPU("v100")->Name, "V100-SXM2-16GB");
  EXPECT_EQ(findGPU("h100")->Name, "H100-SXM5-80GB");
  EXPECT_EQ(findGPU("H200")->Name, "H200-SXM-141GB");
  EXPECT_EQ(findGPU("orin")->Name, "Jetson-AGX-Orin-64GB");
  EXPECT_EQ(findGPU("z100"), nullptr);
  EXPECT_EQ(findGPU(""), nullptr);
  EXPECT_EQ(findGPU("NVIDIA"), nullptr);
  EXPECT_EQ(normalizeGPUName("NVIDIA GeForce RTX 4090"), "rtx-4090");
}

TEST(GPUDatabase, DefaultPerArch) {
  EXPECT_EQ(defaultGPUForArch("sm_70")->Name, "V100-SXM2-16GB");
  EXPECT_EQ(defaultGPUForArch("sm_75")->Name, "T4");
  EXPECT_EQ(defaultGPUForArch("sm_80")->Name, "A100-SXM4-40GB");
  EXPECT_EQ(defaultGPUForArch("sm_86")->Name, "A10");
  EXPECT_EQ(defaultGPUForArch("sm_87")->Name, "Jetson-AGX-Orin-64GB");
  EXPECT_EQ(defaultGPUForArch("sm_89")->Name, "L4");
  EXPECT_EQ(defaultGPUForArch("sm_90")->Name, "H100-SXM5-80GB");
  EXPECT_EQ(defaultGPUForArch("sm_90a")->Name, "H100-SXM5-80GB");
  EXPECT_EQ(defaultGPUForArch("sm_100")->Name, "B200");
  EXPECT_EQ(defaultGPUForArch("sm_100a")->Name, "B200");
  EXPECT_EQ(defaultGPUForArch("sm_120")->Name, "RTX-5090");
  EXPECT_EQ(defaultGPUForArch("SM_80")->Name, "A100-SXM4-40GB");
  EXPECT_EQ(defaultGPUForArch("sm_61"), nullptr);
  EXPECT_EQ(defaultGPUForArch("sm_"), nullptr);
  EXPECT_EQ(defaultGPUForArch("compute_80"), nullptr);
  EXPECT_EQ(defaultGPUForArch(""), nullptr);
  // Each default has the architecture it is the default of.
  for (const char *Arch : {"sm_70", "sm_75", "sm_80", "sm_86", "sm_87", "sm_89",
                           "sm_90", "sm_100", "sm_120"})
    EXPECT_EQ("sm_" + std::to_string(defaultGPUForArch(Arch)->smVersion()),
              Arch);
}

TEST(GPUDatabase, ResolveGPU) {
  Expected<GPUSpec> G = resolveGPU("", "sm_89");
  ASSERT_TRUE(bool(G));
  EXPECT_EQ(G->Name, "L4");
  G = resolveGPU("NVIDIA L40S", "sm_89");
  ASSERT_TRUE(bool(G));
  EXPECT_EQ(G->Name, "L40S");
  G = resolveGPU("z100", "sm_80");
  ASSERT_FALSE(bool(G));
  EXPECT_EQ(toString(G.takeError()),
            "unknown GPU 'z100': use a name from --list-gpus or a .json spec "
            "file");
  G = resolveGPU("", "sm_61");
  ASSERT_FALSE(bool(G));
  std::string Msg = toString(G.takeError());
  EXPECT_EQ(Msg.find('\n'), std::string::npos);
  EXPECT_EQ(Msg.rfind("no default GPU for architecture 'sm_61'", 0), 0u);
}

TEST(GPUDatabase, Printers) {
  std::string S;
  raw_string_ostream OS(S);
  printGPUList(OS);
  // A header line and one line per GPU.
  EXPECT_EQ(size_t(std::count(S.begin(), S.end(), '\n')), allGPUs().size() + 1);
  EXPECT_NE(S.find("A100-SXM4-40GB         sm_80     108       1410     "
                   "1555.0     400\n"),
            std::string::npos)
      << S;
  S.clear();
  printGPUDetails(*findGPU("h100"), OS);
  EXPECT_NE(S.find("compute capability: 9.0 (sm_90)"), std::string::npos);
  EXPECT_NE(S.find("peak FP32:          66.9 TFLOPS"), std::string::npos) << S;
  EXPECT_NE(S.find("min 200, default 700, max 700"), std::string::npos);
}

// --- JSON -------------------------------------------------------------------

void expectSameSpec(const GPUSpec &A, const GPUSpec &B) {
#define SAME(F) EXPECT_EQ(A.F, B.F) << #F
  SAME(Name);
  SAME(Aliases);
  SAME(Source);
  SAME(CCMajor);
  SAME(CCMinor);
  SAME(L1BytesPerClkPerSM);
  SAME(SMCount);
  SAME(BaseClockMHz);
  SAME(BoostClockMHz);
  SAME(MaxClockMHz);
  SAME(MinClockMHz);
  SAME(MemoryType);
  SAME(MemoryClockMHz);
  SAME(MemoryBusWidthBits);
  SAME(MemoryBandwidthGBs);
  SAME(L2SizeKB);
  SAME(L2Partitions);
  SAME(L2BandwidthBytesPerClkPerSM);
  SAME(RegistersPerSM);
  SAME(RegistersPerBlock);
  SAME(MaxRegistersPerThread);
  SAME(RegAllocUnitSize);
  SAME(RegAllocGranularityWarp);
  SAME(SharedPerSM);
  SAME(SharedPerBlock);
  SAME(SharedPerBlockOptin);
  SAME(SharedAllocUnit);
  SAME(SharedReservedPerBlock);
  SAME(SharedCarveoutsKB);
  SAME(SharedBanks);
  SAME(MaxThreadsPerSM);
  SAME(MaxThreadsPerBlock);
  SAME(MaxBlocksPerSM);
  SAME(MaxWarpsPerSM);
  SAME(WarpSize);
  SAME(WarpAllocGranularity);
  SAME(SchedulersPerSM);
  SAME(Throughput.FP32);
  SAME(Throughput.FP64);
  SAME(Throughput.FP16);
  SAME(Throughput.INT32);
  SAME(Throughput.IMul);
  SAME(Throughput.SFU);
  SAME(Throughput.LdSt);
  SAME(Throughput.Conv);
  SAME(Throughput.TensorFP16);
  SAME(Throughput.TensorTF32);
  SAME(Throughput.TensorINT8);
  SAME(Throughput.TensorFP64);
  SAME(Power.MinLimitW);
  SAME(Power.DefaultLimitW);
  SAME(Power.MaxLimitW);
  SAME(Power.IdleW);
  SAME(Power.IdleMeasured);
  SAME(Power.CurveStaticW);
  SAME(Power.CurveDynW);
  SAME(Power.VoltKneeMHz);
  SAME(Power.VoltFloorRatio);
#undef SAME
}

class SpecFileTest : public ::testing::Test {
protected:
  SmallString<128> Dir;
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("flipflop-target", Dir));
  }
  void TearDown() override { sys::fs::remove_directories(Dir); }
  std::string file(StringRef Name, StringRef Text) {
    SmallString<128> P(Dir);
    sys::path::append(P, Name);
    std::error_code EC;
    raw_fd_ostream OS(P, EC);
    EXPECT_FALSE(EC);
    OS << Text;
    return std::string(P);
  }
  std::string loadError(StringRef Name, StringRef Text) {
    std::string P = file(Name, Text);
    Expected<GPUSpec> G = loadGPUSpecFile(P);
    if (G)
      return "loaded";
    std::string Msg = toString(G.takeError());
    EXPECT_EQ(Msg.find('\n'), std::string::npos) << Msg;
    // Strip the directory so the tests can pin the message.
    return Msg.substr(Dir.size() + 1);
  }
};

TEST_F(SpecFileTest, RoundTripEveryGPU) {
  for (const GPUSpec &G : allGPUs()) {
    SCOPED_TRACE(G.Name);
    // In memory, through the printed text.
    std::string Text;
    raw_string_ostream(Text) << toJSON(G);
    Expected<json::Value> V = json::parse(Text);
    ASSERT_TRUE(bool(V));
    GPUSpec Back;
    json::Path::Root Root("$");
    ASSERT_TRUE(fromJSON(*V, Back, Root));
    expectSameSpec(G, Back);
    // Through a file.
    SmallString<128> P(Dir);
    sys::path::append(P, G.Name + ".json");
    ASSERT_FALSE(bool(errorToBool(writeGPUSpecFile(G, P))));
    Expected<GPUSpec> F = loadGPUSpecFile(P);
    ASSERT_TRUE(bool(F)) << toString(F.takeError());
    expectSameSpec(G, *F);
    EXPECT_TRUE(F->FromFile);
  }
  // Doubles that need all 17 digits survive too.
  GPUSpec G = *findGPU("a100");
  G.Power.IdleW = 0.1 + 0.2;
  G.L2BandwidthBytesPerClkPerSM = 5120.0 / 108;
  SmallString<128> P(Dir);
  sys::path::append(P, "odd.json");
  ASSERT_FALSE(errorToBool(writeGPUSpecFile(G, P)));
  Expected<GPUSpec> F = loadGPUSpecFile(P);
  ASSERT_TRUE(bool(F));
  EXPECT_EQ(F->Power.IdleW, 0.1 + 0.2);
  EXPECT_EQ(F->L2BandwidthBytesPerClkPerSM, 5120.0 / 108);
  // The write left no temporary file behind.
  std::error_code EC;
  unsigned Files = 0;
  for (sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC;
       I.increment(EC))
    ++Files;
  EXPECT_EQ(Files, allGPUs().size() + 1);
}

TEST_F(SpecFileTest, L1DataPathDefaultsByArch) {
  // Spec files written before L1BytesPerClkPerSM existed lack it: a full
  // spec takes its compute capability's value (64 on Turing, 128 else).
  for (const char *Name : {"RTX-2080-Ti", "A100-PCIE-40GB"}) {
    SCOPED_TRACE(Name);
    const GPUSpec &G = *findGPU(Name);
    json::Value V = toJSON(G);
    V.getAsObject()->erase("L1BytesPerClkPerSM");
    GPUSpec Back;
    json::Path::Root Root("$");
    ASSERT_TRUE(fromJSON(V, Back, Root));
    EXPECT_EQ(Back.L1BytesPerClkPerSM, G.L1BytesPerClkPerSM);
  }
  EXPECT_EQ(findGPU("RTX-2080-Ti")->L1BytesPerClkPerSM, 64);
  EXPECT_EQ(findGPU("RTX-3090")->L1BytesPerClkPerSM, 128);
  // A value given is read; zero is refused.
  json::Value V = toJSON(*findGPU("a100"));
  (*V.getAsObject())["L1BytesPerClkPerSM"] = 96.0;
  GPUSpec Back;
  json::Path::Root Root("$");
  ASSERT_TRUE(fromJSON(V, Back, Root));
  EXPECT_EQ(Back.L1BytesPerClkPerSM, 96);
  (*V.getAsObject())["L1BytesPerClkPerSM"] = 0.0;
  json::Path::Root Root2("$");
  EXPECT_FALSE(fromJSON(V, Back, Root2));
  consumeError(Root2.getError());
}

TEST_F(SpecFileTest, BaseWithOverrides) {
  std::string P = file("a.json", R"({
    "base": "NVIDIA A100-PCIE-40GB",
    "Comment": "calibrated on node 7",
    "SMCount": 100,
    "Power": {"DefaultLimitW": 200, "IdleMeasured": true, "IdleW": 33.5}
  })");
  Expected<GPUSpec> G = loadGPUSpecFile(P);
  ASSERT_TRUE(bool(G)) << toString(G.takeError());
  EXPECT_EQ(G->Name, "A100-PCIE-40GB");
  EXPECT_EQ(G->SMCount, 100u);
  EXPECT_EQ(G->Power.DefaultLimitW, 200);
  EXPECT_EQ(G->Power.IdleW, 33.5);
  EXPECT_TRUE(G->Power.IdleMeasured);
  EXPECT_EQ(G->Power.MaxLimitW, 250);     // From the base.
  EXPECT_EQ(G->MemoryBandwidthGBs, 1555); // From the base.
  EXPECT_TRUE(G->FromFile);
  // resolveGPU takes a .json path.
  Expected<GPUSpec> R = resolveGPU(P, "sm_90");
  ASSERT_TRUE(bool(R));
  EXPECT_EQ(R->SMCount, 100u);
}

TEST_F(SpecFileTest, Errors) {
  // Without a base every field is required.
  json::Value Full = toJSON(*findGPU("a100"));
  Full.getAsObject()->getObject("Power")->erase("MaxLimitW");
  std::string Text;
  raw_string_ostream(Text) << Full;
  EXPECT_EQ(loadError("m.json", Text),
            "m.json: $.Power.MaxLimitW: missing value");
  EXPECT_EQ(loadError("t.json",
                      R"({"base": "a100", "Power": {"MaxLimitW": "high"}})"),
            "t.json: $.Power.MaxLimitW: expected number");
  EXPECT_EQ(loadError("u.json", R"({"base": "a100", "SMCount": -4})"),
            "u.json: $.SMCount: expected unsigned integer");
  EXPECT_EQ(loadError("v.json", R"({"base": "a100", "SMCount": 1.5})"),
            "v.json: $.SMCount: expected unsigned integer");
  EXPECT_EQ(
      loadError("c.json", R"({"base": "a100", "SharedCarveoutsKB": [0, "x"]})"),
      "c.json: $.SharedCarveoutsKB[1]: expected unsigned integer");
  EXPECT_EQ(loadError("b.json", R"({"base": "z100"})"),
            "b.json: $.base: unknown GPU 'z100' (see --list-gpus)");
  EXPECT_EQ(loadError("k.json", R"({"base": "a100", "Powr": {}})"),
            "k.json: $.Powr: unknown field");
  EXPECT_EQ(loadError("n.json", R"({"base": "a100", "Power": {"Idle": 3}})"),
            "n.json: $.Power.Idle: unknown field");
  EXPECT_EQ(loadError("z.json", R"({"base": "a100", "WarpSize": 0})"),
            "z.json: $.WarpSize: must be positive");
  EXPECT_EQ(
      loadError("p.json", R"({"base": "a100", "Power": {"MaxLimitW": 100}})"),
      "p.json: $.Power.DefaultLimitW: power limits must satisfy "
      "MinLimitW <= DefaultLimitW <= MaxLimitW");
  EXPECT_EQ(loadError("s.json", R"([1, 2])"), "s.json: $: expected object");
  EXPECT_EQ(loadError("j.json", "{\"base\": }"),
            "j.json:1:10: malformed JSON: Invalid JSON value");
  EXPECT_EQ(loadError("e.json", "{\n  \"base\": \"a100\",\n}"),
            "e.json:3:1: malformed JSON: Expected object key");
  Expected<GPUSpec> G = loadGPUSpecFile(std::string(Dir) + "/absent.json");
  ASSERT_FALSE(bool(G));
  std::string Msg = toString(G.takeError());
  EXPECT_NE(Msg.find("absent.json: cannot read: "), std::string::npos) << Msg;
}

TEST_F(SpecFileTest, ValidationSections) {
  // One check of each kind per section of validate().
  auto Spec = [](StringRef Overrides) {
    return (R"({"base": "a100", )" + Overrides + "}").str();
  };
  EXPECT_EQ(loadError("n.json", Spec(R"("Name": "")")),
            "n.json: $.Name: must not be empty");
  EXPECT_EQ(loadError("c.json", Spec(R"("MinClockMHz": 2000)")),
            "c.json: $.MinClockMHz = 2000 is above BaseClockMHz 1095 MHz "
            "(clocks must satisfy MinClockMHz <= BaseClockMHz <= "
            "BoostClockMHz <= MaxClockMHz)");
  EXPECT_EQ(loadError("d.json", Spec(R"("DramEfficiency": 1.5)")),
            "d.json: $.DramEfficiency = 1.5 is outside the range [0, 1]");
  EXPECT_EQ(loadError("w.json", Spec(R"("MemoryBusWidthBits": 65537)")),
            "w.json: $.MemoryBusWidthBits = 65537 is outside the range "
            "[0, 65536]");
  EXPECT_EQ(loadError("r.json", Spec(R"("RegistersPerBlock": 65537)")),
            "r.json: $.RegistersPerBlock = 65537 is outside the range "
            "[1, 65536]");
  std::string Many = "0";
  for (int I = 0; I < 64; ++I)
    Many += ", 0";
  EXPECT_EQ(loadError("m.json", Spec(R"("SharedCarveoutsKB": [)" + Many + "]")),
            "m.json: $.SharedCarveoutsKB: 65 entries, more than the 64 "
            "allowed");
  EXPECT_EQ(loadError("k.json", Spec(R"("SharedCarveoutsKB": [0, 16385])")),
            "k.json: $.SharedCarveoutsKB = 16385 is outside the range "
            "[0, 16384]");
  EXPECT_EQ(loadError("b.json", Spec(R"("SharedBanks": 0)")),
            "b.json: $.SharedBanks = 0 is outside the range [1, 64]");
  EXPECT_EQ(loadError("i.json",
                      Spec(R"("Power": {"DefaultLimitW": 250, "IdleW": 250})")),
            "i.json: $.Power.IdleW = 250 is not below the default power "
            "limit 250 W");
  EXPECT_EQ(loadError("v.json", Spec(R"("Power": {"VoltFloorRatio": -0.5})")),
            "v.json: $.Power.VoltFloorRatio = -0.5 is outside the range "
            "[0, 1]");
}

TEST_F(SpecFileTest, ValidationReportsTheFirstProblem) {
  // The sections run in a fixed order: positivity, finiteness, identity,
  // clocks, memory, registers and shared memory, threads, throughputs,
  // power. Each spec breaks two fields; the earlier section is reported.
  auto Spec = [](StringRef Overrides) {
    return (R"({"base": "a100", )" + Overrides + "}").str();
  };
  EXPECT_EQ(
      loadError("1.json", Spec(R"("MemoryClockMHz": 1e999, "SMCount": 0)")),
      "1.json: $.SMCount: must be positive");
  EXPECT_EQ(loadError("2.json",
                      Spec(R"("CCMinor": 10, "Power": {"CurveDynW": 1e999})")),
            "2.json: $.Power.CurveDynW = inf is not a finite number");
  EXPECT_EQ(loadError("3.json", Spec(R"("L2SizeKB": 0, "MaxClockMHz": 20000)")),
            "3.json: $.MaxClockMHz = 20000 is outside the range (0, 10000) "
            "MHz (or 0: not given)");
  EXPECT_EQ(
      loadError("4.json",
                Spec(R"("RegAllocUnitSize": 65537, "DramEfficiency": 2)")),
      "4.json: $.DramEfficiency = 2 is outside the range [0, 1]");
  EXPECT_EQ(
      loadError("5.json", Spec(R"("MaxBlocksPerSM": 65, "SharedBanks": 65)")),
      "5.json: $.SharedBanks = 65 is outside the range [1, 64]");
  EXPECT_EQ(loadError("6.json", Spec(R"("Throughput": {"SFU": 0}, )"
                                     R"("WarpAllocGranularity": 65)")),
            "6.json: $.WarpAllocGranularity = 65 is outside the range "
            "[1, 64]");
  EXPECT_EQ(loadError("7.json", Spec(R"("Power": {"MinLimitW": 0}, )"
                                     R"("Throughput": {"TensorFP16": -1})")),
            "7.json: $.Throughput.TensorFP16 = -1 is outside the range "
            "[0, 1000000) operations per clock per SM");
  // Through fromJSON the same problem is a json::Path error.
  json::Value V = toJSON(*findGPU("a100"));
  (*V.getAsObject()->getObject("Power"))["VoltFloorRatio"] = 2.0;
  GPUSpec G;
  json::Path::Root Root("$");
  EXPECT_FALSE(fromJSON(V, G, Root));
  EXPECT_EQ(toString(Root.getError()),
            "out of range at $.Power.VoltFloorRatio");
}

TEST(GPUSpecJSON, FromJSONReportsThePath) {
  json::Value V = toJSON(*findGPU("t4"));
  (*V.getAsObject()->getObject("Throughput"))["SFU"] = "many";
  GPUSpec G;
  json::Path::Root Root("$");
  EXPECT_FALSE(fromJSON(V, G, Root));
  EXPECT_EQ(toString(Root.getError()), "expected number at $.Throughput.SFU");
}

} // namespace
