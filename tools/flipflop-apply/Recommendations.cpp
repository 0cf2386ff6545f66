//===- Recommendations.cpp - Read FlipFlop reports for flipflop-apply -----===//
#include "Recommendations.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Remarks/Remark.h"
#include "llvm/Remarks/RemarkFormat.h"
#include "llvm/Remarks/RemarkParser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <map>

using namespace llvm;

namespace flipflop {
namespace apply {

StringRef pickKey(Pick P) {
  switch (P) {
  case Pick::Energy:
    return "least_energy";
  case Pick::Time:
    return "fastest";
  case Pick::EDP:
    return "best_edp";
  case Pick::Budget:
    return "energy_within_budget";
  }
  return "least_energy";
}

StringRef objectiveName(Pick P) {
  switch (P) {
  case Pick::Energy:
    return "energy";
  case Pick::Time:
    return "time";
  case Pick::EDP:
    return "edp";
  case Pick::Budget:
    return "energy-within";
  }
  return "energy";
}

static Error schemaError(StringRef Origin, const Twine &Where,
                         const Twine &What) {
  return createStringError(inconvertibleErrorCode(),
                           Origin + ": " + Where + ": " + What);
}

Expected<std::optional<Recommendation>>
recommendationFromReportKernel(const ReportKernel &K, bool BlockSizeAgnostic,
                               Pick P, StringRef Origin) {
  auto It = K.Picks.find(pickKey(P).str());
  if (It == K.Picks.end())
    return std::nullopt; // Analysed but nothing recommended.
  const ReportPick &Pk = It->second;
  Recommendation R;
  R.Kernel = K.Name;
  R.Origin = Origin.str();
  R.Block = Pk.Block;
  for (unsigned &D : R.Block)
    if (D == 0)
      D = 1;
  uint64_t Threads = uint64_t(R.Block[0]) * R.Block[1] * R.Block[2];
  if (Pk.Block[0] == 0 || Threads > 1024)
    return schemaError(Origin, "kernel '" + K.Name + "'",
                       "picks." + pickKey(P) + ": block of " + Twine(Threads) +
                           " threads is outside 1..1024");
  if (Pk.MinBlocksPerSM > 64)
    return schemaError(Origin, "kernel '" + K.Name + "'",
                       "picks." + pickKey(P) +
                           ": min_blocks_per_sm is above 64");
  R.MaxThreads = static_cast<unsigned>(Threads);
  R.MinBlocks = Pk.MinBlocksPerSM;
  R.BlockSizeAgnostic = BlockSizeAgnostic;
  return R;
}

/// Kernels the report marks block-size-agnostic: "block_size_agnostic":
/// true on the kernel object or in its "shape" object (not read by
/// flipflop::parseReport yet).
static std::map<std::string, bool> agnosticKernels(StringRef Text) {
  std::map<std::string, bool> Out;
  Expected<json::Value> V = json::parse(Text);
  if (!V) {
    consumeError(V.takeError());
    return Out;
  }
  const json::Object *Top = V->getAsObject();
  const json::Array *Ks = Top ? Top->getArray("kernels") : nullptr;
  if (!Ks)
    return Out;
  for (const json::Value &KV : *Ks) {
    const json::Object *K = KV.getAsObject();
    if (!K || !K->getString("name"))
      continue;
    std::optional<bool> A = K->getBoolean("block_size_agnostic");
    if (!A)
      if (const json::Object *Shape = K->getObject("shape"))
        A = Shape->getBoolean("block_size_agnostic");
    Out[K->getString("name")->str()] = A.value_or(false);
  }
  return Out;
}

Expected<std::vector<Recommendation>>
readJSONReport(StringRef Text, Pick P, StringRef Origin) {
  Expected<Report> R = parseReport(Text);
  if (!R)
    return createStringError(inconvertibleErrorCode(),
                             Origin + ": " + toString(R.takeError()));
  std::map<std::string, bool> Agnostic = agnosticKernels(Text);
  std::vector<Recommendation> Out;
  for (const ReportKernel &K : R->Kernels) {
    Expected<std::optional<Recommendation>> Rec =
        recommendationFromReportKernel(K, Agnostic[K.Name], P, Origin);
    if (!Rec)
      return Rec.takeError();
    if (*Rec)
      Out.push_back(std::move(**Rec));
  }
  return Out;
}

Expected<std::vector<Recommendation>> readRemarksYAML(StringRef Text,
                                                      StringRef Origin) {
  Expected<std::unique_ptr<remarks::RemarkParser>> Parser =
      remarks::createRemarkParser(remarks::Format::YAML, Text);
  if (!Parser)
    return schemaError(Origin, "remarks", toString(Parser.takeError()));
  std::vector<Recommendation> Out;
  while (true) {
    Expected<std::unique_ptr<remarks::Remark>> RemarkOr = (*Parser)->next();
    if (!RemarkOr) {
      Error E = RemarkOr.takeError();
      if (E.isA<remarks::EndOfFileError>()) {
        consumeError(std::move(E));
        break;
      }
      return schemaError(Origin, "remarks", toString(std::move(E)));
    }
    const remarks::Remark &Rm = **RemarkOr;
    if (Rm.PassName != remark::PassName || Rm.RemarkName != remark::SummaryName)
      continue;
    Recommendation R;
    R.Origin = Origin.str();
    R.Kernel = Rm.FunctionName.str();
    std::string Where = "remark FF001 for '" + R.Kernel + "'";
    std::optional<unsigned> Dims[3], MaxThreads;
    auto ParseCount = [&](StringRef Key, StringRef Val) -> Expected<unsigned> {
      unsigned V;
      if (Val.trim().getAsInteger(10, V))
        return schemaError(Origin, Where,
                           "argument " + Key + " is not an integer: '" + Val +
                               "'");
      return V;
    };
    for (const remarks::Argument &A : Rm.Args) {
      if (A.Key == remark::Kernel) {
        if (R.Kernel.empty())
          R.Kernel = A.Val.str();
      } else if (A.Key == remark::Objective) {
        R.Objective = A.Val.trim().str();
      } else if (A.Key == remark::BlockSizeAgnostic) {
        R.BlockSizeAgnostic = A.Val.trim() == "true" || A.Val.trim() == "1";
      } else if (A.Key == remark::Block) {
        // "256", "16x16" or "8x8x4".
        SmallVector<StringRef, 3> Parts;
        A.Val.trim().split(Parts, 'x');
        if (Parts.size() > 3)
          return schemaError(Origin, Where,
                             "argument Block is not XxYxZ: '" + A.Val + "'");
        for (size_t I = 0; I < Parts.size(); ++I) {
          Expected<unsigned> V = ParseCount(A.Key, Parts[I]);
          if (!V)
            return V.takeError();
          Dims[I] = *V;
        }
      } else {
        std::optional<unsigned> *Slot =
            A.Key == remark::BlockX       ? &Dims[0]
            : A.Key == remark::BlockY     ? &Dims[1]
            : A.Key == remark::BlockZ     ? &Dims[2]
            : A.Key == remark::MaxThreads ? &MaxThreads
                                          : nullptr;
        bool IsMin = A.Key == remark::MinBlocks;
        if (!Slot && !IsMin)
          continue;
        Expected<unsigned> V = ParseCount(A.Key, A.Val);
        if (!V)
          return V.takeError();
        if (IsMin)
          R.MinBlocks = *V;
        else
          *Slot = *V;
      }
    }
    uint64_t Threads = 0;
    if (Dims[0]) {
      R.Block = {*Dims[0], Dims[1].value_or(1), Dims[2].value_or(1)};
      Threads = uint64_t(R.Block[0]) * R.Block[1] * R.Block[2];
    } else if (MaxThreads) {
      Threads = *MaxThreads;
      R.Block = {*MaxThreads, 1, 1};
    } else {
      continue; // A summary without a recommendation (e.g. nothing to tune).
    }
    if (Threads == 0 || Threads > 1024 || R.MinBlocks > 64)
      return schemaError(Origin, Where,
                         "recommendation out of range (" + Twine(Threads) +
                             " threads, " + Twine(R.MinBlocks) +
                             " min blocks)");
    R.MaxThreads = static_cast<unsigned>(Threads);
    if (R.Kernel.empty())
      return schemaError(Origin, "remark FF001", "no kernel name");
    Out.push_back(std::move(R));
  }
  return Out;
}

static bool isReportName(StringRef Name) {
  return Name.ends_with(".json") || Name.ends_with(".opt.yaml");
}

Expected<std::vector<Recommendation>>
readReports(ArrayRef<std::string> Paths, Pick P,
            std::vector<std::string> &FilesRead) {
  std::vector<std::string> Files;
  for (const std::string &Path : Paths) {
    if (!sys::fs::is_directory(Path)) {
      Files.push_back(Path);
      continue;
    }
    std::vector<std::string> Found;
    std::error_code EC;
    for (sys::fs::recursive_directory_iterator I(Path, EC), E; I != E && !EC;
         I.increment(EC))
      if (isReportName(sys::path::filename(I->path())) &&
          !sys::fs::is_directory(I->path()))
        Found.push_back(I->path());
    if (EC)
      return createStringError(EC, Path + ": " + EC.message());
    llvm::sort(Found);
    Files.insert(Files.end(), Found.begin(), Found.end());
  }
  std::vector<Recommendation> All;
  for (const std::string &File : Files) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(File);
    if (!Buf)
      return createStringError(Buf.getError(),
                               File + ": " + Buf.getError().message());
    StringRef Text = (*Buf)->getBuffer();
    bool IsYAML = StringRef(File).ends_with(".yaml") ||
                  StringRef(File).ends_with(".yml") ||
                  Text.ltrim().starts_with("---");
    Expected<std::vector<Recommendation>> Rs =
        IsYAML ? readRemarksYAML(Text, File) : readJSONReport(Text, P, File);
    if (!Rs)
      return Rs.takeError();
    FilesRead.push_back(File);
    All.insert(All.end(), Rs->begin(), Rs->end());
  }
  return All;
}

} // namespace apply
} // namespace flipflop
