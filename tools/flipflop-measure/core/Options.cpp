//===- Options.cpp - Command-line parsing without LLVM --------------------===//
#include "Options.h"
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace flipflop {
namespace measure {

Result<ParsedOptions> parseCommandLine(int Argc, const char *const *Argv,
                                       const std::vector<OptionSpec> &Specs) {
  ParsedOptions P;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    // One-letter options may also be written "-o".
    if (A.size() >= 2 && A[0] == '-' && A[1] != '-' &&
        (A.size() == 2 || A[2] == '='))
      A = "-" + A;
    if (A.size() < 3 || A.compare(0, 2, "--") != 0) {
      P.Positional.push_back(A);
      continue;
    }
    std::string Name = A.substr(2), Value;
    bool HasValue = false;
    size_t Eq = Name.find('=');
    if (Eq != std::string::npos) {
      Value = Name.substr(Eq + 1);
      Name.resize(Eq);
      HasValue = true;
    }
    const OptionSpec *S = nullptr;
    for (const OptionSpec &O : Specs)
      if (Name == O.Name)
        S = &O;
    if (!S)
      return makeError("unknown option --" + Name + " (see --help)");
    if (S->TakesValue && !HasValue) {
      if (I + 1 >= Argc)
        return makeError("option --" + Name + " needs a value");
      Value = Argv[++I];
    } else if (!S->TakesValue) {
      if (HasValue)
        return makeError("option --" + Name + " takes no value");
      Value = "1";
    }
    P.Values[Name] = Value;
  }
  return P;
}

std::string formatHelp(const std::string &Synopsis,
                       const std::vector<OptionSpec> &Specs) {
  std::string O = "Usage: " + Synopsis + "\n\nOptions:\n";
  for (const OptionSpec &S : Specs) {
    std::string L = std::string("  --") + S.Name + (S.TakesValue ? "=<v>" : "");
    if (L.size() < 30)
      L.append(30 - L.size(), ' ');
    else
      L += "\n" + std::string(30, ' ');
    O += L + S.Help + "\n";
  }
  return O;
}

namespace {
std::vector<std::string> split(const std::string &S, char Sep) {
  std::vector<std::string> Out;
  size_t Start = 0;
  while (true) {
    size_t P = S.find(Sep, Start);
    Out.push_back(S.substr(Start, P == std::string::npos ? std::string::npos : P - Start));
    if (P == std::string::npos)
      return Out;
    Start = P + 1;
  }
}

Result<unsigned> parseUnsigned(const std::string &S) {
  if (S.empty() || S.find_first_not_of("0123456789") != std::string::npos)
    return makeError("'" + S + "' is not a non-negative integer");
  errno = 0;
  unsigned long long V = std::strtoull(S.c_str(), nullptr, 10);
  if (errno || V > 0xFFFFFFFFull)
    return makeError("'" + S + "' is too large");
  return unsigned(V);
}
} // namespace

Result<double> parseNumber(const std::string &S) {
  if (S.empty())
    return makeError("empty number");
  char *End = nullptr;
  errno = 0;
  double V = std::strtod(S.c_str(), &End);
  if (errno || End != S.c_str() + S.size() || !std::isfinite(V) || V < 0)
    return makeError("'" + S + "' is not a non-negative number");
  return V;
}

Result<std::vector<unsigned>> parseUnsignedList(const std::string &S) {
  std::vector<unsigned> Out;
  if (S.empty())
    return makeError("empty list");
  for (const std::string &Item : split(S, ',')) {
    std::vector<std::string> R = split(Item, ':');
    if (R.size() == 1) {
      Result<unsigned> V = parseUnsigned(Item);
      if (!V)
        return V.takeError();
      Out.push_back(*V);
      continue;
    }
    if (R.size() != 3)
      return makeError("'" + Item + "': a range is first:last:step");
    Result<unsigned> A = parseUnsigned(R[0]), B = parseUnsigned(R[1]),
                     St = parseUnsigned(R[2]);
    if (!A)
      return A.takeError();
    if (!B)
      return B.takeError();
    if (!St)
      return St.takeError();
    if (*St == 0 || *B < *A)
      return makeError("'" + Item + "': empty range or zero step");
    if ((*B - *A) / *St > 100000)
      return makeError("'" + Item + "': range too long");
    for (unsigned long long V = *A; V <= *B; V += *St)
      Out.push_back(unsigned(V));
  }
  std::sort(Out.begin(), Out.end());
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

Result<std::vector<double>> parseDoubleList(const std::string &S) {
  std::vector<double> Out;
  if (S.empty())
    return makeError("empty list");
  for (const std::string &Item : split(S, ',')) {
    Result<double> V = parseNumber(Item);
    if (!V)
      return V.takeError();
    if (*V <= 0)
      return makeError("'" + Item + "' must be positive");
    Out.push_back(*V);
  }
  std::sort(Out.begin(), Out.end());
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

Result<std::array<unsigned, 3>> parseDim3(const std::string &S) {
  std::vector<std::string> Parts = split(S, S.find(',') != std::string::npos ? ',' : 'x');
  if (Parts.empty() || Parts.size() > 3)
    return makeError("'" + S + "' is not a dimension (e.g. 256, 16x16, 8x8x4)");
  std::array<unsigned, 3> D{1, 1, 1};
  for (size_t I = 0; I < Parts.size(); ++I) {
    Result<unsigned> V = parseUnsigned(Parts[I]);
    if (!V)
      return V.takeError().prefix("dimension '" + S + "': ");
    if (*V == 0)
      return makeError("dimension '" + S + "': zero extent");
    D[I] = *V;
  }
  return D;
}

Result<std::vector<std::array<unsigned, 3>>> parseDim3List(const std::string &S) {
  std::vector<std::array<unsigned, 3>> Out;
  for (const std::string &Item : split(S, ';')) {
    Result<std::array<unsigned, 3>> D = parseDim3(Item);
    if (!D)
      return D.takeError();
    Out.push_back(*D);
  }
  return Out;
}

} // namespace measure
} // namespace flipflop
