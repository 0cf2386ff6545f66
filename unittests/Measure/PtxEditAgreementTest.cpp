//===- PtxEditAgreementTest.cpp - PtxEdit against the PTX front end -------===//
//
// flipflop-measure builds on GPU machines without LLVM, so it keeps its own
// small PTX scanner (tools/flipflop-measure/core/PtxEdit.cpp) instead of
// using the LLVM-based front end (lib/Profile, flipflop/Profile/PTXParser.h).
// This test keeps the two from drifting apart: it runs both over every .ptx
// file of the repository's tests and examples and requires that they read
// the same facts.
//
// Compared, because both sides expose them:
//   - the kernels (.entry with a body), their names, in file order
//     (PTXModule::Kernels vs listPtxEntries());
//   - .maxntid and .reqntid, as three dimensions with missing ones read as 1
//     and {0, 0, 0} when absent (LaunchBounds::MaxNTid/ReqNTid vs
//     PtxEntry::MaxNTid/ReqNTid);
//   - .minnctapersm, 0 when absent (LaunchBounds::MinCTAsPerSM vs
//     PtxEntry::MinNCtaPerSM).
//   - the parameters: names, types and byte sizes, in order
//     (KernelProfile::Params vs PtxEntry::Params), what flipflop-measure
//     checks an args file against.
// Not compared: .maxnreg, which only the front end reads.
//
// A file that either side rejects as malformed (the fuzz corpus holds such
// files on purpose) is skipped and counted; at least MinCompared files must
// be compared so that the test cannot pass vacuously.
//
//===----------------------------------------------------------------------===//
#include "PtxEdit.h"
#include "flipflop/Profile/PTXParser.h"
#include "llvm/Support/Error.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

namespace fs = std::filesystem;
using flipflop::KernelProfile;
using flipflop::PTXModule;
using flipflop::measure::PtxEntry;

namespace {

constexpr unsigned MinCompared = 10;

/// Every .ptx file under the directories the PTX inputs live in, sorted.
/// The non-throwing std::filesystem calls are used: the tests build with
/// -fno-exceptions.
std::vector<std::string> findPtxFiles() {
  const fs::path Root(FLIPFLOP_SOURCE_DIR);
  std::vector<std::string> Out;
  for (const char *Dir : {"test", "examples", "tools/flipflop-measure/test"}) {
    std::error_code EC;
    fs::recursive_directory_iterator It(Root / Dir, EC), End;
    for (; !EC && It != End; It.increment(EC)) {
      std::error_code FEC;
      if (It->is_regular_file(FEC) && It->path().extension() == ".ptx")
        Out.push_back(It->path().string());
    }
  }
  std::sort(Out.begin(), Out.end());
  return Out;
}

bool readFile(const std::string &Path, std::string &Text) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return false;
  std::ostringstream S;
  S << In.rdbuf();
  Text = S.str();
  return true;
}

std::string dims(const std::array<unsigned, 3> &D) {
  return "[" + std::to_string(D[0]) + ", " + std::to_string(D[1]) + ", " +
         std::to_string(D[2]) + "]";
}

TEST(PtxEditAgreement, AgreesWithPTXFrontEndOnRepositoryPtx) {
  std::vector<std::string> Files = findPtxFiles();
  unsigned Compared = 0, Kernels = 0, Params = 0;
  std::vector<std::string> Skipped;
  for (const std::string &Path : Files) {
    SCOPED_TRACE(Path);
    std::string Text;
    ASSERT_TRUE(readFile(Path, Text)) << "cannot read " << Path;

    llvm::Expected<PTXModule> M = flipflop::parsePTXModule(Text, Path);
    flipflop::measure::Result<std::vector<PtxEntry>> E =
        flipflop::measure::listPtxEntries(Text);
    // A file one reader takes and the other rejects is exactly the drift
    // this test exists for; only a file both reject is skipped.
    EXPECT_EQ(bool(M), bool(E)) << "one reader rejects what the other reads";
    if (!M || !E) {
      std::string Why;
      if (!M)
        Why += " front end: " + llvm::toString(M.takeError());
      if (!E)
        Why += " PtxEdit: " + E.error().message();
      Skipped.push_back(Path + " (" + Why.substr(1) + ")");
      continue;
    }
    ++Compared;

    const std::vector<KernelProfile> &K = M->Kernels;
    std::vector<std::string> KNames, ENames;
    for (const KernelProfile &P : K)
      KNames.push_back(P.Name);
    for (const PtxEntry &P : *E)
      ENames.push_back(P.Name);
    EXPECT_EQ(KNames, ENames) << "entry names or their order differ";
    if (KNames != ENames)
      continue;
    for (size_t I = 0; I < K.size(); ++I) {
      const flipflop::LaunchBounds &B = K[I].Bounds;
      const PtxEntry &P = (*E)[I];
      Kernels += 1;
      EXPECT_EQ(B.MaxNTid, P.MaxNTid)
          << P.Name << ": .maxntid front end " << dims(B.MaxNTid)
          << ", PtxEdit " << dims(P.MaxNTid);
      EXPECT_EQ(B.ReqNTid, P.ReqNTid)
          << P.Name << ": .reqntid front end " << dims(B.ReqNTid)
          << ", PtxEdit " << dims(P.ReqNTid);
      EXPECT_EQ(B.MinCTAsPerSM, P.MinNCtaPerSM)
          << P.Name << ": .minnctapersm front end " << B.MinCTAsPerSM
          << ", PtxEdit " << P.MinNCtaPerSM;
      // The parameters the args file is checked against.
      const std::vector<flipflop::KernelParam> &KP = K[I].Params;
      EXPECT_EQ(KP.size(), P.Params.size()) << P.Name << ": parameter count";
      if (KP.size() != P.Params.size())
        continue;
      for (size_t J = 0; J < KP.size(); ++J) {
        EXPECT_EQ(KP[J].Name, P.Params[J].Name) << P.Name << " parameter " << J;
        EXPECT_EQ("." + KP[J].Type, P.Params[J].Type)
            << P.Name << " parameter " << J;
        EXPECT_EQ(KP[J].Bytes, P.Params[J].Bytes)
            << P.Name << " parameter " << KP[J].Name << ": bytes";
        Params += 1;
      }
    }
  }
  std::printf("PtxEditAgreement: %u of %zu PTX files compared (%u kernels, "
              "%u parameters), %zu skipped as malformed\n",
              Compared, Files.size(), Kernels, Params, Skipped.size());
  for (const std::string &S : Skipped)
    std::printf("  skipped %s\n", S.c_str());
  EXPECT_GE(Compared, MinCompared)
      << "too few PTX files compared; is FLIPFLOP_SOURCE_DIR ("
      << FLIPFLOP_SOURCE_DIR << ") right?";
}

} // namespace
