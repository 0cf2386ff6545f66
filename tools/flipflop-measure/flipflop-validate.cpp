//===- flipflop-validate.cpp - Predictions against measurements -----------===//
//
// flipflop-validate [options] --measured m1.json [m2.json ...] predictions...
//
// Reads flipflop-ptx --json predictions and flipflop-measure measurements,
// matches configurations field for field (block, min_blocks_per_sm,
// power_limit_w) and reports the FlipFlop paper's metrics (see Validate.h and
// docs/MEASUREMENT.md) as Markdown (for docs/VALIDATION.md) and JSON.
// Needs no GPU.
//
//===----------------------------------------------------------------------===//
#include "Json.h"
#include "Options.h"
#include "Report.h"
#include "Validate.h"
#include <cstdio>
#include <fstream>

using namespace flipflop::measure;

namespace {
const std::vector<OptionSpec> Specs = {
    {"predictions", true, "comma-separated prediction reports (flipflop-ptx --json)"},
    {"measurements", true, "comma-separated measurement reports (flipflop-measure)"},
    {"tolerance", true, "relative tolerance for ties, default 0.02"},
    {"power-match-w", true, "power limits within this many W match, default 1"},
    {"markdown", true, "write the Markdown section here (default: standard output)"},
    {"json", true, "write the metrics as JSON here"},
    {"help", false, "this help"},
};

[[noreturn]] void die(int Code, const std::string &Msg) {
  std::fprintf(stderr, "flipflop-validate: %s\n", Msg.c_str());
  std::exit(Code);
}

std::vector<std::string> splitList(const std::string &S) {
  std::vector<std::string> Out;
  size_t Start = 0;
  while (Start <= S.size()) {
    size_t C = S.find(',', Start);
    if (C == std::string::npos)
      C = S.size();
    if (C > Start)
      Out.push_back(S.substr(Start, C - Start));
    Start = C + 1;
  }
  return Out;
}

/// Merges reports: kernels of later files are appended; the GPU name and
/// default power limit come from the first file that has them.
ReportFile loadAll(const std::vector<std::string> &Paths) {
  ReportFile All;
  All.SchemaVersion = ReportSchemaVersion;
  for (const std::string &P : Paths) {
    Result<ReportFile> R = loadReport(P);
    if (!R)
      die(1, R.error().message());
    if (All.GPUName.empty())
      All.GPUName = R->GPUName;
    if (All.DefaultPowerLimitW == 0)
      All.DefaultPowerLimitW = R->DefaultPowerLimitW;
    for (KernelRecord &K : R->Kernels) {
      if (All.find(K.Name))
        die(1, P + ": kernel " + K.Name + " appears in two reports");
      All.Kernels.push_back(K);
    }
  }
  return All;
}
} // namespace

int main(int Argc, char **Argv) {
  Result<ParsedOptions> OR = parseCommandLine(Argc, Argv, Specs);
  if (!OR)
    die(2, OR.error().message());
  ParsedOptions &O = *OR;
  if (O.has("help")) {
    std::printf("%s", formatHelp("flipflop-validate --predictions p.json[,...] "
                                 "--measurements m.json[,...]",
                                 Specs)
                          .c_str());
    return 0;
  }
  if (!O.has("predictions") || !O.has("measurements"))
    die(2, "need --predictions and --measurements (see --help)");
  ValidateOptions VO;
  if (O.has("tolerance")) {
    Result<double> T = parseNumber(O.get("tolerance"));
    if (!T)
      die(2, "--tolerance: " + T.error().message());
    VO.Tolerance = *T;
  }
  if (O.has("power-match-w")) {
    Result<double> T = parseNumber(O.get("power-match-w"));
    if (!T)
      die(2, "--power-match-w: " + T.error().message());
    VO.PowerMatchW = *T;
  }
  ReportFile Pred = loadAll(splitList(O.get("predictions")));
  ReportFile Meas = loadAll(splitList(O.get("measurements")));
  ValidationSummary S = validate(Pred, Meas, VO);
  std::string MD = validationMarkdown(S, VO);
  if (O.has("markdown")) {
    std::ofstream Out(O.get("markdown"));
    if (!(Out << MD))
      die(1, O.get("markdown") + ": cannot write");
  } else {
    std::printf("%s", MD.c_str());
  }
  if (O.has("json"))
    if (Error E = json::writeFile(validationJSON(S), O.get("json")))
      die(1, E.message());
  if (S.Validated == 0) {
    std::fprintf(stderr, "flipflop-validate: no kernel could be validated\n");
    return 1;
  }
  return 0;
}
