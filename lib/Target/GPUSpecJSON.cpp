//===- GPUSpecJSON.cpp - GPUSpec <-> JSON, spec files ---------------------===//
//
// One field list drives both directions, so toJSON and fromJSON cannot drift
// apart: export then import gives back exactly the same spec (llvm::json
// prints doubles with 17 significant digits).
//
// Spec file format (docs/GPUS.md): an object with the GPUSpec field names as
// keys, "Throughput" and "Power" as nested objects. With "base": "<database
// name>" every field is optional and overrides the base GPU's value; without
// it every field is required. Unknown keys are errors (they are typos).
//
//===----------------------------------------------------------------------===//

#include "flipflop/Support/WriteFile.h"
#include "flipflop/Target/GPUDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <climits>
#include <cmath>
#include <optional>

using namespace llvm;

namespace flipflop {
namespace {

/// Calls F(Key, Field) for each serialized field of a UnitThroughput.
template <typename T, typename Fn>
void forEachField(T &U, Fn F, UnitThroughput *) {
  F("FP32", U.FP32);
  F("FP64", U.FP64);
  F("FP16", U.FP16);
  F("INT32", U.INT32);
  F("IMul", U.IMul);
  F("SFU", U.SFU);
  F("LdSt", U.LdSt);
  F("Conv", U.Conv);
  F("TensorFP16", U.TensorFP16);
  F("TensorTF32", U.TensorTF32);
  F("TensorINT8", U.TensorINT8);
  F("TensorFP64", U.TensorFP64);
}

template <typename T, typename Fn> void forEachField(T &P, Fn F, PowerSpec *) {
  F("MinLimitW", P.MinLimitW);
  F("DefaultLimitW", P.DefaultLimitW);
  F("MaxLimitW", P.MaxLimitW);
  F("IdleW", P.IdleW);
  F("IdleMeasured", P.IdleMeasured);
  F("CurveStaticW", P.CurveStaticW);
  F("CurveDynW", P.CurveDynW);
  F("VoltKneeMHz", P.VoltKneeMHz);
  F("VoltFloorRatio", P.VoltFloorRatio);
}

/// GPUSpec::FromFile is not serialized: it says where a spec came from.
template <typename T, typename Fn> void forEachField(T &G, Fn F, GPUSpec *) {
  F("Name", G.Name);
  F("Aliases", G.Aliases);
  F("Source", G.Source);
  F("CCMajor", G.CCMajor);
  F("CCMinor", G.CCMinor);
  F("SMCount", G.SMCount);
  F("BaseClockMHz", G.BaseClockMHz);
  F("BoostClockMHz", G.BoostClockMHz);
  F("MaxClockMHz", G.MaxClockMHz);
  F("MinClockMHz", G.MinClockMHz);
  F("MemoryType", G.MemoryType);
  F("MemoryClockMHz", G.MemoryClockMHz);
  F("MemoryBusWidthBits", G.MemoryBusWidthBits);
  F("MemoryBandwidthGBs", G.MemoryBandwidthGBs);
  F("DramEfficiency", G.DramEfficiency);
  F("L2SizeKB", G.L2SizeKB);
  F("L2Partitions", G.L2Partitions);
  F("L2BandwidthBytesPerClkPerSM", G.L2BandwidthBytesPerClkPerSM);
  F("L1BytesPerClkPerSM", G.L1BytesPerClkPerSM);
  F("RegistersPerSM", G.RegistersPerSM);
  F("RegistersPerBlock", G.RegistersPerBlock);
  F("MaxRegistersPerThread", G.MaxRegistersPerThread);
  F("RegAllocUnitSize", G.RegAllocUnitSize);
  F("RegAllocGranularityWarp", G.RegAllocGranularityWarp);
  F("SharedPerSM", G.SharedPerSM);
  F("SharedPerBlock", G.SharedPerBlock);
  F("SharedPerBlockOptin", G.SharedPerBlockOptin);
  F("SharedAllocUnit", G.SharedAllocUnit);
  F("SharedReservedPerBlock", G.SharedReservedPerBlock);
  F("SharedCarveoutsKB", G.SharedCarveoutsKB);
  F("SharedBanks", G.SharedBanks);
  F("MaxThreadsPerSM", G.MaxThreadsPerSM);
  F("MaxThreadsPerBlock", G.MaxThreadsPerBlock);
  F("MaxBlocksPerSM", G.MaxBlocksPerSM);
  F("MaxWarpsPerSM", G.MaxWarpsPerSM);
  F("WarpSize", G.WarpSize);
  F("WarpAllocGranularity", G.WarpAllocGranularity);
  F("SchedulersPerSM", G.SchedulersPerSM);
  F("Throughput", G.Throughput);
  F("Power", G.Power);
}

template <typename T, typename Fn> void forEach(T &X, Fn F) {
  using Plain = std::remove_const_t<T>;
  forEachField(X, F, static_cast<Plain *>(nullptr));
}

// --- Writing ----------------------------------------------------------------

json::Value write(double D) { return D; }
json::Value write(unsigned U) { return int64_t(U); }
json::Value write(bool B) { return B; }
json::Value write(const std::string &S) { return S; }
json::Value write(const std::vector<std::string> &V) {
  json::Array A;
  for (const std::string &S : V)
    A.push_back(S);
  return A;
}
json::Value write(const std::vector<unsigned> &V) {
  json::Array A;
  for (unsigned U : V)
    A.push_back(int64_t(U));
  return A;
}
json::Value write(const UnitThroughput &U);
json::Value write(const PowerSpec &P);
template <typename T> json::Value writeObject(const T &X) {
  json::Object O;
  forEach(X,
          [&](const char *Key, const auto &Field) { O[Key] = write(Field); });
  return O;
}
json::Value write(const UnitThroughput &U) { return writeObject(U); }
json::Value write(const PowerSpec &P) { return writeObject(P); }

// --- Reading ----------------------------------------------------------------

bool read(const json::Value &V, double &Out, json::Path P, bool) {
  return json::fromJSON(V, Out, P);
}
bool read(const json::Value &V, bool &Out, json::Path P, bool) {
  return json::fromJSON(V, Out, P);
}
bool read(const json::Value &V, std::string &Out, json::Path P, bool) {
  return json::fromJSON(V, Out, P);
}
bool read(const json::Value &V, unsigned &Out, json::Path P, bool) {
  // json::fromJSON(unsigned&) would wrap negative numbers around.
  std::optional<int64_t> I = V.getAsInteger();
  if (!I || *I < 0 || *I > int64_t(UINT_MAX)) {
    P.report("expected unsigned integer");
    return false;
  }
  Out = unsigned(*I);
  return true;
}
template <typename T>
bool read(const json::Value &V, std::vector<T> &Out, json::Path P, bool) {
  const json::Array *A = V.getAsArray();
  if (!A) {
    P.report("expected array");
    return false;
  }
  std::vector<T> Result(A->size());
  for (size_t I = 0; I < A->size(); ++I)
    if (!read((*A)[I], Result[I], P.index(unsigned(I)), false))
      return false;
  Out = std::move(Result);
  return true;
}

bool read(const json::Value &V, UnitThroughput &Out, json::Path P,
          bool Partial);
bool read(const json::Value &V, PowerSpec &Out, json::Path P, bool Partial);

/// Fields added after spec files were first written: absent in a full spec,
/// they take the value of the spec's compute capability (defaultsByArch).
bool isOptionalField(StringRef Key) { return Key == "L1BytesPerClkPerSM"; }

/// Values of optional fields a full spec file left out.
void defaultsByArch(const json::Object &O, GPUSpec &G) {
  if (!O.get("L1BytesPerClkPerSM"))
    G.L1BytesPerClkPerSM = G.CCMajor == 7 && G.CCMinor == 5 ? 64 : 128;
}

/// Reads an object of fields. In \p Partial mode (a spec with a base) absent
/// fields keep their current value.
template <typename T>
bool readObject(const json::Value &V, T &Out, json::Path P, bool Partial,
                ArrayRef<StringRef> ExtraKeys = {}) {
  const json::Object *O = V.getAsObject();
  if (!O) {
    P.report("expected object");
    return false;
  }
  StringSet<> Known;
  for (StringRef K : ExtraKeys)
    Known.insert(K);
  bool Ok = true;
  forEach(Out, [&](const char *Key, auto &Field) {
    Known.insert(Key);
    if (!Ok)
      return;
    const json::Value *FV = O->get(Key);
    if (!FV) {
      if (!Partial && !isOptionalField(Key)) {
        P.field(Key).report("missing value");
        Ok = false;
      }
      return;
    }
    Ok = read(*FV, Field, P.field(Key), Partial);
  });
  if (!Ok)
    return false;
  // Sorted, so that the first unknown key reported does not depend on hashing.
  std::vector<StringRef> Keys;
  for (const auto &KV : *O)
    Keys.push_back(KV.first);
  llvm::sort(Keys);
  for (StringRef K : Keys) {
    if (!Known.contains(K)) {
      P.field(K).report("unknown field");
      return false;
    }
  }
  return true;
}
bool read(const json::Value &V, UnitThroughput &Out, json::Path P,
          bool Partial) {
  return readObject(V, Out, P, Partial);
}
bool read(const json::Value &V, PowerSpec &Out, json::Path P, bool Partial) {
  return readObject(V, Out, P, Partial);
}

/// The first problem validate() finds in a spec: where (the keys below $),
/// a fixed message for json::Path, and the full text for a spec file's
/// one-line error (after the path: ": must be positive" or " = 400 is above
/// the default power limit 300 W").
struct SpecProblem {
  SmallVector<StringRef, 2> Keys;
  StringLiteral Short = "";
  std::string Text;
};

/// Prints a figure as the user would have written it.
std::string figure(double V) {
  if (std::isnan(V))
    return "nan";
  if (std::isinf(V))
    return V > 0 ? "inf" : "-inf";
  std::string S;
  raw_string_ostream(S) << format("%.10g", V);
  return S;
}

/// Checks a spec field by field and keeps the first problem.
class Validator {
public:
  std::optional<SpecProblem> Problem;

  void fail(ArrayRef<StringRef> Keys, StringLiteral Short, const Twine &Text) {
    if (Problem)
      return;
    Problem = SpecProblem{SmallVector<StringRef, 2>(Keys.begin(), Keys.end()),
                          Short, Text.str()};
  }

  /// Counts the model divides by (this message predates the ranges below
  /// and is kept as it was: the value is 0).
  void positive(StringRef Key, unsigned V) {
    if (V == 0)
      fail({Key}, "must be positive", ": must be positive");
  }

  /// Every double in the spec: 1e999 is read as +inf.
  void finite(ArrayRef<StringRef> Keys, double V) {
    if (!std::isfinite(V))
      fail(Keys, "not a finite number",
           " = " + figure(V) + " is not a finite number");
  }

  /// Lo < V < Hi (LoOpen) or Lo <= V < Hi; 0 allowed when \p ZeroIsAbsent.
  void range(ArrayRef<StringRef> Keys, double V, double Lo, bool LoOpen,
             double Hi, StringRef Unit, bool ZeroIsAbsent = false) {
    if (ZeroIsAbsent && V == 0)
      return;
    if ((LoOpen ? V > Lo : V >= Lo) && V < Hi)
      return;
    fail(Keys, "out of range",
         " = " + figure(V) + " is outside the range " + (LoOpen ? "(" : "[") +
             figure(Lo) + ", " + figure(Hi) + ")" + (Unit.empty() ? "" : " ") +
             Unit + (ZeroIsAbsent ? " (or 0: not given)" : ""));
  }

  /// 0 <= V <= 1.
  void fraction(ArrayRef<StringRef> Keys, double V) {
    if (V >= 0 && V <= 1)
      return;
    fail(Keys, "out of range",
         " = " + figure(V) + " is outside the range [0, 1]");
  }

  /// Lo <= V <= Hi for integer counts and sizes.
  void count(ArrayRef<StringRef> Keys, unsigned V, unsigned Lo, unsigned Hi) {
    if (V >= Lo && V <= Hi)
      return;
    fail(Keys, "out of range",
         " = " + Twine(V) + " is outside the range [" + Twine(Lo) + ", " +
             Twine(Hi) + "]");
  }
};

/// Clocks are graphics clocks in MHz; no GPU runs at 10 GHz.
constexpr double MaxClockMHz = 10000;
/// Generous physical bounds: far above any GPU, far below overflow.
constexpr double MaxWatts = 100000;
constexpr unsigned MaxBytesPerSM = 16u << 20;

/// Counts the model divides by must not be 0, and a GPU needs a name.
void checkRequired(Validator &V, const GPUSpec &G) {
  // Positivity first, with the messages of earlier versions.
  V.positive("CCMajor", G.CCMajor);
  V.positive("SMCount", G.SMCount);
  V.positive("RegistersPerSM", G.RegistersPerSM);
  V.positive("RegistersPerBlock", G.RegistersPerBlock);
  V.positive("MaxRegistersPerThread", G.MaxRegistersPerThread);
  V.positive("RegAllocUnitSize", G.RegAllocUnitSize);
  V.positive("SharedPerSM", G.SharedPerSM);
  V.positive("SharedAllocUnit", G.SharedAllocUnit);
  V.positive("MaxThreadsPerSM", G.MaxThreadsPerSM);
  V.positive("MaxThreadsPerBlock", G.MaxThreadsPerBlock);
  V.positive("MaxBlocksPerSM", G.MaxBlocksPerSM);
  V.positive("MaxWarpsPerSM", G.MaxWarpsPerSM);
  V.positive("WarpSize", G.WarpSize);
  V.positive("SchedulersPerSM", G.SchedulersPerSM);
  if (G.Name.empty())
    V.fail({"Name"}, "must not be empty", ": must not be empty");
}

/// Every double is finite, nested ones (Throughput, Power) included.
void checkFinite(Validator &V, const GPUSpec &G) {
  forEach(G, [&](const char *Key, const auto &Field) {
    using T = std::decay_t<decltype(Field)>;
    if constexpr (std::is_same_v<T, double>) {
      V.finite({Key}, Field);
    } else if constexpr (std::is_same_v<T, UnitThroughput> ||
                         std::is_same_v<T, PowerSpec>) {
      forEach(Field, [&](const char *Sub, const auto &SubField) {
        if constexpr (std::is_same_v<std::decay_t<decltype(SubField)>, double>)
          V.finite({Key, Sub}, SubField);
      });
    }
  });
}

/// Clocks: 0 < f < 10 GHz, and MinClock <= BaseClock <= BoostClock <=
/// MaxClock where given (0 means not given, except the boost clock).
void checkClocks(Validator &V, const GPUSpec &G) {
  V.range({"BoostClockMHz"}, G.BoostClockMHz, 0, true, MaxClockMHz, "MHz");
  V.range({"BaseClockMHz"}, G.BaseClockMHz, 0, true, MaxClockMHz, "MHz",
          /*ZeroIsAbsent=*/true);
  V.range({"MinClockMHz"}, G.MinClockMHz, 0, true, MaxClockMHz, "MHz", true);
  V.range({"MaxClockMHz"}, G.MaxClockMHz, 0, true, MaxClockMHz, "MHz", true);
  const std::pair<StringRef, double> Clocks[] = {
      {"MinClockMHz", G.MinClockMHz},
      {"BaseClockMHz", G.BaseClockMHz},
      {"BoostClockMHz", G.BoostClockMHz},
      {"MaxClockMHz", G.MaxClockMHz}};
  const std::pair<StringRef, double> *Prev = nullptr;
  for (const auto &C : Clocks) {
    if (C.second == 0)
      continue;
    if (Prev && Prev->second > C.second)
      V.fail({Prev->first}, "clocks out of order",
             " = " + figure(Prev->second) + " is above " + C.first + " " +
                 figure(C.second) + " MHz (clocks must satisfy " +
                 "MinClockMHz <= BaseClockMHz <= BoostClockMHz <= " +
                 "MaxClockMHz)");
    Prev = &C;
  }
}

void checkMemory(Validator &V, const GPUSpec &G) {
  V.range({"MemoryClockMHz"}, G.MemoryClockMHz, 0, false, 100000, "MHz");
  V.count({"MemoryBusWidthBits"}, G.MemoryBusWidthBits, 0, 65536);
  V.range({"MemoryBandwidthGBs"}, G.MemoryBandwidthGBs, 0, true, 1e6, "GB/s");
  V.fraction({"DramEfficiency"}, G.DramEfficiency);
  V.range({"L2SizeKB"}, G.L2SizeKB, 0, true, 1 << 20, "KB");
  V.count({"L2Partitions"}, G.L2Partitions, 1, 16);
  V.range({"L2BandwidthBytesPerClkPerSM"}, G.L2BandwidthBytesPerClkPerSM, 0,
          false, 1e5, "bytes per clock");
  V.range({"L1BytesPerClkPerSM"}, G.L1BytesPerClkPerSM, 0, true, 1e5,
          "bytes per clock");
}

void checkRegistersAndShared(Validator &V, const GPUSpec &G) {
  V.count({"RegistersPerSM"}, G.RegistersPerSM, 1, 1u << 20);
  V.count({"RegistersPerBlock"}, G.RegistersPerBlock, 1, G.RegistersPerSM);
  V.count({"MaxRegistersPerThread"}, G.MaxRegistersPerThread, 1, 1024);
  V.count({"RegAllocUnitSize"}, G.RegAllocUnitSize, 1, 65536);
  V.count({"RegAllocGranularityWarp"}, G.RegAllocGranularityWarp, 1, 64);
  V.count({"SharedPerSM"}, G.SharedPerSM, 1, MaxBytesPerSM);
  V.count({"SharedPerBlock"}, G.SharedPerBlock, 1, MaxBytesPerSM);
  V.count({"SharedPerBlockOptin"}, G.SharedPerBlockOptin, 0, MaxBytesPerSM);
  V.count({"SharedAllocUnit"}, G.SharedAllocUnit, 1, 65536);
  V.count({"SharedReservedPerBlock"}, G.SharedReservedPerBlock, 0, 65536);
  if (G.SharedCarveoutsKB.size() > 64)
    V.fail({"SharedCarveoutsKB"}, "too many entries",
           ": " + Twine(G.SharedCarveoutsKB.size()) +
               " entries, more than the 64 allowed");
  for (unsigned KB : G.SharedCarveoutsKB)
    V.count({"SharedCarveoutsKB"}, KB, 0, MaxBytesPerSM / 1024);
  V.count({"SharedBanks"}, G.SharedBanks, 1, 64);
}

/// Threads and blocks: these size the recommender's sweep.
void checkThreads(Validator &V, const GPUSpec &G) {
  V.count({"MaxThreadsPerBlock"}, G.MaxThreadsPerBlock, 32, 4096);
  V.count({"MaxThreadsPerSM"}, G.MaxThreadsPerSM, 32, 65536);
  V.count({"MaxBlocksPerSM"}, G.MaxBlocksPerSM, 1, 64);
  V.count({"MaxWarpsPerSM"}, G.MaxWarpsPerSM, 1, 2048);
  if (G.WarpSize != 32)
    V.fail({"WarpSize"}, "must be 32",
           " = " + Twine(G.WarpSize) +
               " is not 32 (every NVIDIA GPU has 32-thread warps)");
  V.count({"WarpAllocGranularity"}, G.WarpAllocGranularity, 1, 64);
  V.count({"SchedulersPerSM"}, G.SchedulersPerSM, 1, 64);
}

/// Throughputs: the scalar units exist on every GPU; a tensor rate of 0
/// means the GPU has no such tensor unit.
void checkThroughputs(Validator &V, const UnitThroughput &U) {
  forEach(U, [&](const char *Key, const double &T) {
    bool Tensor = StringRef(Key).starts_with("Tensor");
    V.range({"Throughput", Key}, T, 0, !Tensor, 1e6,
            "operations per clock per SM");
  });
}

/// Power: limits > 0 with Min <= Default <= Max, idle below the default
/// limit (the TDP).
void checkPower(Validator &V, const PowerSpec &P) {
  V.range({"Power", "MinLimitW"}, P.MinLimitW, 0, true, MaxWatts, "W");
  V.range({"Power", "DefaultLimitW"}, P.DefaultLimitW, 0, true, MaxWatts, "W");
  V.range({"Power", "MaxLimitW"}, P.MaxLimitW, 0, true, MaxWatts, "W");
  if (P.MinLimitW > P.DefaultLimitW || P.DefaultLimitW > P.MaxLimitW)
    V.fail({"Power", "DefaultLimitW"}, "power limits out of order",
           ": power limits must satisfy MinLimitW <= DefaultLimitW <= "
           "MaxLimitW");
  V.range({"Power", "IdleW"}, P.IdleW, 0, false, MaxWatts, "W");
  if (P.IdleW >= P.DefaultLimitW)
    V.fail({"Power", "IdleW"}, "above the default power limit",
           " = " + figure(P.IdleW) +
               (P.IdleW > P.DefaultLimitW ? " is above" : " is not below") +
               " the default power limit " + figure(P.DefaultLimitW) + " W");
  V.range({"Power", "CurveStaticW"}, P.CurveStaticW, 0, false, MaxWatts, "W");
  V.range({"Power", "CurveDynW"}, P.CurveDynW, 0, false, MaxWatts, "W");
  V.range({"Power", "VoltKneeMHz"}, P.VoltKneeMHz, 0, false, MaxClockMHz,
          "MHz");
  V.fraction({"Power", "VoltFloorRatio"}, P.VoltFloorRatio);
}

/// Values the model divides by, or that make no sense, are rejected: every
/// figure finite and within a physical range (docs/SECURITY.md). These also
/// bound the recommender's configuration space (MaxThreadsPerBlock,
/// WarpSize, MaxBlocksPerSM). The checks run in this order and the first
/// problem found is the one reported.
std::optional<SpecProblem> validate(const GPUSpec &G) {
  Validator V;
  checkRequired(V, G);
  checkFinite(V, G);
  // Identity and counts.
  V.count({"CCMajor"}, G.CCMajor, 1, 99);
  V.count({"CCMinor"}, G.CCMinor, 0, 9);
  V.count({"SMCount"}, G.SMCount, 1, 10000);
  checkClocks(V, G);
  checkMemory(V, G);
  checkRegistersAndShared(V, G);
  checkThreads(V, G);
  checkThroughputs(V, G.Throughput);
  checkPower(V, G.Power);
  return V.Problem;
}

/// Reports \p Problem through json::Path (fromJSON's contract).
bool reportProblem(const std::optional<SpecProblem> &Problem, json::Path P) {
  if (!Problem)
    return true;
  if (Problem->Keys.size() == 1)
    P.field(Problem->Keys[0]).report(Problem->Short);
  else
    P.field(Problem->Keys[0]).field(Problem->Keys[1]).report(Problem->Short);
  return false;
}

/// "FILE: $.Power.IdleW = 400 is above the default power limit 300 W".
Error problemError(StringRef File, const SpecProblem &Problem) {
  std::string Line = (File + ": $").str();
  for (StringRef K : Problem.Keys)
    Line += ("." + K).str();
  Line += Problem.Text;
  return createStringError(inconvertibleErrorCode(), Line);
}

/// "missing value at $.Power.MaxLimitW" -> "FILE: $.Power.MaxLimitW: missing
/// value".
Error pathError(StringRef File, const json::Path::Root &Root) {
  std::string Msg = toString(Root.getError());
  StringRef M(Msg);
  // An error at the root itself reads "... when parsing $".
  if (M.consume_back(" when parsing $"))
    return createStringError(inconvertibleErrorCode(),
                             (File + ": $: " + M).str());
  size_t At = M.rfind(" at $");
  std::string Line;
  if (At == StringRef::npos)
    Line = (File + ": $: " + M).str();
  else
    Line = (File + ": " + M.substr(At + 4) + ": " + M.substr(0, At)).str();
  return createStringError(inconvertibleErrorCode(), Line);
}

} // namespace

json::Value toJSON(const GPUSpec &G) { return writeObject(G); }

bool fromJSON(const json::Value &V, GPUSpec &G, json::Path P) {
  GPUSpec Result;
  if (!readObject(V, Result, P, /*Partial=*/false))
    return false;
  defaultsByArch(*V.getAsObject(), Result);
  if (!reportProblem(validate(Result), P))
    return false;
  Result.FromFile = G.FromFile;
  G = std::move(Result);
  return true;
}

/// Largest spec file read: a spec is a few kilobytes; /dev/zero is not one.
constexpr uint64_t MaxSpecFileBytes = 1 << 20;

Expected<GPUSpec> loadGPUSpecFile(StringRef Path) {
  // Only a small regular file: a FIFO would hang the compile, a device or a
  // huge file exhaust its memory.
  sys::fs::file_status St;
  if (std::error_code EC = sys::fs::status(Path, St))
    return createStringError(EC, "%s: cannot read: %s", Path.str().c_str(),
                             EC.message().c_str());
  if (St.type() != sys::fs::file_type::regular_file)
    return createStringError(inconvertibleErrorCode(), "%s: not a regular file",
                             Path.str().c_str());
  if (St.getSize() > MaxSpecFileBytes)
    return createStringError(inconvertibleErrorCode(),
                             "%s: %llu bytes, more than the %llu a spec file "
                             "may have",
                             Path.str().c_str(),
                             (unsigned long long)St.getSize(),
                             (unsigned long long)MaxSpecFileBytes);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return createStringError(Buf.getError(), "%s: cannot read: %s",
                             Path.str().c_str(),
                             Buf.getError().message().c_str());
  Expected<json::Value> V = json::parse((*Buf)->getBuffer());
  if (!V) {
    // "[L:C, byte=B]: message" -> "FILE:L:C: malformed JSON: message".
    std::string Msg = toString(V.takeError());
    StringRef M(Msg);
    std::string Where;
    if (M.consume_front("[")) {
      auto [Pos, Rest] = M.split("]: ");
      Where = (":" + Pos.split(',').first).str();
      M = Rest;
    }
    return createStringError(inconvertibleErrorCode(),
                             "%s%s: malformed JSON: %s", Path.str().c_str(),
                             Where.c_str(), M.str().c_str());
  }

  json::Path::Root Root("$");
  json::Path P(Root);
  const json::Object *O = V->getAsObject();
  if (!O) {
    P.report("expected object");
    return pathError(Path, Root);
  }
  GPUSpec G;
  bool Partial = false;
  static constexpr StringRef ExtraKeys[] = {"base", "Comment"};
  if (const json::Value *Base = O->get("base")) {
    std::optional<StringRef> BaseName = Base->getAsString();
    if (!BaseName) {
      P.field("base").report("expected string");
      return pathError(Path, Root);
    }
    const GPUSpec *B = findGPU(*BaseName);
    if (!B)
      return createStringError(inconvertibleErrorCode(),
                               "%s: $.base: unknown GPU '%s' (see --list-gpus)",
                               Path.str().c_str(), BaseName->str().c_str());
    G = *B;
    Partial = true;
  }
  if (const json::Value *C = O->get("Comment"); C && !C->getAsString()) {
    P.field("Comment").report("expected string");
    return pathError(Path, Root);
  }
  if (!readObject(*V, G, P, Partial, ExtraKeys))
    return pathError(Path, Root);
  if (!Partial)
    defaultsByArch(*O, G);
  if (std::optional<SpecProblem> Problem = validate(G))
    return problemError(Path, *Problem);
  G.FromFile = true;
  return G;
}

Error writeGPUSpecFile(const GPUSpec &G, StringRef Path) {
  return writeFileSafely(
      Path, [&](raw_ostream &OS) { OS << formatv("{0:2}", toJSON(G)) << "\n"; });
}

} // namespace flipflop
