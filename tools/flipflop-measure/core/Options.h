//===- Options.h - Command-line parsing without LLVM ----------------------===//
//
// The tools cannot use llvm::cl (no LLVM on GPU machines). Options are
// "--name=value", "--name value" or "--flag"; anything not starting with "--"
// is positional. Value syntaxes shared by the tools are parsed here and
// unit-tested.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_MEASURE_OPTIONS_H
#define FLIPFLOP_MEASURE_OPTIONS_H

#include "Result.h"
#include <array>
#include <map>
#include <string>
#include <vector>

namespace flipflop {
namespace measure {

struct OptionSpec {
  const char *Name;   ///< Without the leading "--".
  bool TakesValue;
  const char *Help;
};

struct ParsedOptions {
  std::map<std::string, std::string> Values; ///< Flags map to "1".
  std::vector<std::string> Positional;
  bool has(const std::string &N) const { return Values.count(N) != 0; }
  std::string get(const std::string &N, const std::string &Default = "") const {
    auto It = Values.find(N);
    return It == Values.end() ? Default : It->second;
  }
};

/// Parses argv against \p Specs; unknown options are errors.
Result<ParsedOptions> parseCommandLine(int Argc, const char *const *Argv,
                                       const std::vector<OptionSpec> &Specs);
/// "Usage" text listing \p Specs.
std::string formatHelp(const std::string &Synopsis,
                       const std::vector<OptionSpec> &Specs);

/// "32,64,128" or ranges "32:1024:32" (first:last:step, inclusive), mixed
/// with commas; the result is sorted and duplicate-free.
Result<std::vector<unsigned>> parseUnsignedList(const std::string &S);
/// "200,250.5,300" (watts); sorted, duplicate-free, positive.
Result<std::vector<double>> parseDoubleList(const std::string &S);
/// "256", "16x16", "8x8x4" or "16,16,1"; missing dimensions are 1.
Result<std::array<unsigned, 3>> parseDim3(const std::string &S);
/// A semicolon-separated list of dim3s: "256;16x16;8x8x4".
Result<std::vector<std::array<unsigned, 3>>> parseDim3List(const std::string &S);
/// A non-negative decimal number.
Result<double> parseNumber(const std::string &S);

} // namespace measure
} // namespace flipflop

#endif
