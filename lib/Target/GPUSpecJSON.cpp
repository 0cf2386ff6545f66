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

#include "flipflop/Target/GPUDatabase.h"
#include "flipflop/Support/WriteFile.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <climits>

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
  F("L2BandwidthBytesPerClkPerSM", G.L2BandwidthBytesPerClkPerSM);
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
      if (!Partial) {
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

/// Values the model divides by, or that make no sense, are rejected.
bool validate(const GPUSpec &G, json::Path P) {
  auto Positive = [&](const char *Key, double V) {
    if (V > 0)
      return true;
    P.field(Key).report("must be positive");
    return false;
  };
  if (!Positive("CCMajor", G.CCMajor) || !Positive("SMCount", G.SMCount) ||
      !Positive("BoostClockMHz", G.BoostClockMHz) ||
      !Positive("MemoryBandwidthGBs", G.MemoryBandwidthGBs) ||
      !Positive("RegistersPerSM", G.RegistersPerSM) ||
      !Positive("RegistersPerBlock", G.RegistersPerBlock) ||
      !Positive("MaxRegistersPerThread", G.MaxRegistersPerThread) ||
      !Positive("RegAllocUnitSize", G.RegAllocUnitSize) ||
      !Positive("SharedPerSM", G.SharedPerSM) ||
      !Positive("SharedAllocUnit", G.SharedAllocUnit) ||
      !Positive("MaxThreadsPerSM", G.MaxThreadsPerSM) ||
      !Positive("MaxThreadsPerBlock", G.MaxThreadsPerBlock) ||
      !Positive("MaxBlocksPerSM", G.MaxBlocksPerSM) ||
      !Positive("MaxWarpsPerSM", G.MaxWarpsPerSM) ||
      !Positive("WarpSize", G.WarpSize) ||
      !Positive("SchedulersPerSM", G.SchedulersPerSM))
    return false;
  if (G.Name.empty()) {
    P.field("Name").report("must not be empty");
    return false;
  }
  json::Path Pow = P.field("Power");
  if (G.Power.MinLimitW > G.Power.DefaultLimitW ||
      G.Power.DefaultLimitW > G.Power.MaxLimitW) {
    Pow.field("DefaultLimitW")
        .report("power limits must satisfy MinLimitW <= DefaultLimitW <= "
                "MaxLimitW");
    return false;
  }
  return true;
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
  if (!readObject(V, Result, P, /*Partial=*/false) || !validate(Result, P))
    return false;
  Result.FromFile = G.FromFile;
  G = std::move(Result);
  return true;
}

Expected<GPUSpec> loadGPUSpecFile(StringRef Path) {
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
  if (!readObject(*V, G, P, Partial, ExtraKeys) || !validate(G, P))
    return pathError(Path, Root);
  G.FromFile = true;
  return G;
}

Error writeGPUSpecFile(const GPUSpec &G, StringRef Path) {
  return writeFileSafely(
      Path, [&](raw_ostream &OS) { OS << formatv("{0:2}", toJSON(G)) << "\n"; });
}

} // namespace flipflop
