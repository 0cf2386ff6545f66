//===- Ptxas.cpp - Exact resources from ptxas -v --------------------------===//
#include "flipflop/Profile/Ptxas.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <map>
#include <mutex>
#include <tuple>

using namespace llvm;

namespace flipflop {

namespace {
/// The leading unsigned number of \p S ("1024+0" -> 1024), or nullopt.
std::optional<unsigned> leadingNumber(StringRef S) {
  S = S.ltrim();
  size_t N = 0;
  while (N < S.size() && isDigit(S[N]))
    ++N;
  unsigned V;
  if (N == 0 || S.take_front(N).getAsInteger(10, V))
    return std::nullopt;
  return V;
}

/// Text between the first pair of single quotes after \p Key.
StringRef quotedAfter(StringRef Line, StringRef Key) {
  size_t P = Line.find(Key);
  if (P == StringRef::npos)
    return StringRef();
  StringRef Rest = Line.substr(P + Key.size());
  size_t A = Rest.find('\'');
  if (A == StringRef::npos)
    return StringRef();
  size_t B = Rest.find('\'', A + 1);
  if (B == StringRef::npos)
    return StringRef();
  return Rest.slice(A + 1, B);
}

/// Reads "N bytes stack frame, N bytes spill stores, ..." or the "Used ..."
/// line into \p K.
void readItems(StringRef Line, PtxasKernelInfo &K) {
  SmallVector<StringRef, 8> Items;
  Line.split(Items, ',');
  for (StringRef Item : Items) {
    Item = Item.trim();
    if (Item.consume_front_insensitive("used "))
      Item = Item.ltrim();
    std::optional<unsigned> N = leadingNumber(Item);
    if (!N)
      continue;
    if (Item.contains("registers")) {
      K.Registers = *N;
      K.HasRegisters = true;
    } else if (Item.contains("barriers")) {
      K.Barriers = *N;
    } else if (Item.contains("bytes smem")) {
      K.SharedBytes = *N;
    } else if (Item.contains("cmem[0]")) {
      K.ConstBank0Bytes = *N;
    } else if (Item.contains("stack frame")) {
      K.StackFrameBytes = *N;
    } else if (Item.contains("spill stores")) {
      K.SpillStoreBytes = *N;
    } else if (Item.contains("spill loads")) {
      K.SpillLoadBytes = *N;
    }
  }
}

struct CacheKey {
  uint64_t Hash;
  std::string Arch;
  unsigned MaxReg;
  bool operator<(const CacheKey &O) const {
    return std::tie(Hash, Arch, MaxReg) < std::tie(O.Hash, O.Arch, O.MaxReg);
  }
};
std::mutex CacheMutex;
std::map<CacheKey, std::vector<PtxasKernelInfo>> Cache;
unsigned Invocations = 0;

/// Removes a temporary file when it goes out of scope.
struct TempFile {
  SmallString<128> Path;
  ~TempFile() {
    if (!Path.empty())
      sys::fs::remove(Path);
  }
};

Error makeTemp(StringRef Suffix, TempFile &T) {
  int FD;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("flipflop-ptxas", Suffix, FD, T.Path))
    return createStringError(EC,
                             "cannot create a temporary file: " + EC.message());
  sys::Process::SafelyCloseFileDescriptor(FD);
  return Error::success();
}
} // namespace

std::vector<PtxasKernelInfo> parsePtxasOutput(StringRef Text) {
  std::vector<PtxasKernelInfo> Out;
  int Current = -1;    // entry the next "Used" line belongs to
  int Properties = -1; // entry the next properties line belongs to
  bool InProperties = false;
  SmallVector<StringRef, 64> Lines;
  Text.split(Lines, '\n');
  auto FindByName = [&](StringRef Name) -> int {
    for (size_t I = 0; I < Out.size(); ++I)
      if (Out[I].Name == Name)
        return static_cast<int>(I);
    return -1;
  };
  for (StringRef Raw : Lines) {
    StringRef Line = Raw.rtrim();
    StringRef Msg = Line;
    bool Info = false;
    if (Line.starts_with("ptxas")) {
      size_t C = Line.find(':');
      if (C == StringRef::npos)
        continue;
      Info = Line.take_front(C).contains("info");
      Msg = Line.substr(C + 1).trim();
      InProperties = false;
    }
    if (Info && Msg.starts_with("Compiling entry function")) {
      PtxasKernelInfo K;
      K.Name = quotedAfter(Msg, "function").str();
      K.Arch = quotedAfter(Msg, "for").str();
      int Existing = FindByName(K.Name);
      if (Existing >= 0 && Out[Existing].Arch == K.Arch) {
        Current = Existing;
      } else {
        Out.push_back(K);
        Current = static_cast<int>(Out.size()) - 1;
      }
      continue;
    }
    if (Info && Msg.starts_with("Function properties for")) {
      StringRef Name = Msg.drop_front(strlen("Function properties for")).trim();
      Name.consume_front("'");
      Name.consume_back("'");
      Properties = FindByName(Name);
      InProperties = true;
      continue;
    }
    if (Info && Msg.starts_with_insensitive("used ") && Current >= 0) {
      readItems(Msg, Out[Current]);
      continue;
    }
    if (!Info && InProperties && Properties >= 0 &&
        (Line.contains("stack frame") || Line.contains("spill"))) {
      readItems(Line, Out[Properties]);
      continue;
    }
  }
  return Out;
}

Expected<std::string> findPtxas(StringRef Explicit) {
  if (!Explicit.empty()) {
    if (sys::fs::can_execute(Explicit))
      return Explicit.str();
    return createStringError(inconvertibleErrorCode(),
                             "ptxas not found at '" + Explicit + "'");
  }
  // FLIPFLOP_PTXAS may also be the plugin's on/off switch ("on" = search).
  if (std::optional<std::string> Env = sys::Process::GetEnv("FLIPFLOP_PTXAS"))
    if (!Env->empty() && *Env != "on" && *Env != "1" && *Env != "true" &&
        *Env != "yes") {
      if (sys::fs::can_execute(*Env))
        return *Env;
      return createStringError(inconvertibleErrorCode(),
                               "FLIPFLOP_PTXAS names '" + *Env +
                                   "', which is not an executable");
    }
  if (std::optional<std::string> Cuda = sys::Process::GetEnv("CUDA_PATH")) {
    SmallString<256> P(*Cuda);
    sys::path::append(P, "bin", "ptxas");
    if (sys::fs::can_execute(P))
      return std::string(P);
  }
  if (ErrorOr<std::string> P = sys::findProgramByName("ptxas"))
    return *P;
  if (sys::fs::can_execute("/usr/local/cuda/bin/ptxas"))
    return std::string("/usr/local/cuda/bin/ptxas");
  return createStringError(inconvertibleErrorCode(),
                           "ptxas not found (tried FLIPFLOP_PTXAS, "
                           "$CUDA_PATH/bin, PATH, /usr/local/cuda/bin)");
}

Expected<std::vector<PtxasKernelInfo>> runPtxas(StringRef PTX,
                                                const PtxasOptions &Opts) {
  std::string Arch = Opts.Arch;
  if (Arch.empty()) {
    // The first ".target" item of the module.
    size_t P = PTX.find(".target");
    if (P != StringRef::npos) {
      StringRef Rest = PTX.substr(P + 7).ltrim(" \t");
      Arch =
          Rest.take_while([](char C) { return isAlnum(C) || C == '_'; }).str();
    }
    if (Arch.empty())
      return createStringError(
          inconvertibleErrorCode(),
          "no .target in the PTX and no architecture given");
  }
  CacheKey Key{xxh3_64bits(PTX), Arch, Opts.MaxRegCount};
  {
    std::lock_guard<std::mutex> Lock(CacheMutex);
    auto It = Cache.find(Key);
    if (It != Cache.end())
      return It->second;
  }
  auto Ptxas = findPtxas(Opts.PtxasPath);
  if (!Ptxas)
    return Ptxas.takeError();
  TempFile In, Obj, Out, Err;
  for (auto [Suffix, T] : {std::pair<StringRef, TempFile *>{"ptx", &In},
                           {"cubin", &Obj},
                           {"out", &Out},
                           {"err", &Err}})
    if (Error E = makeTemp(Suffix, *T))
      return E;
  {
    std::error_code EC;
    raw_fd_ostream OS(In.Path, EC);
    if (EC)
      return createStringError(EC,
                               "cannot write " + In.Path + ": " + EC.message());
    OS << PTX;
  }
  std::string ArchArg = "-arch=" + Arch;
  std::string MaxArg = "-maxrregcount=" + std::to_string(Opts.MaxRegCount);
  std::string ObjPath(Obj.Path), InPath(In.Path);
  SmallVector<StringRef, 8> Args{*Ptxas, ArchArg, "-v"};
  if (Opts.MaxRegCount)
    Args.push_back(MaxArg);
  Args.append({"-o", ObjPath, InPath});
  std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(Out.Path),
                                          StringRef(Err.Path)};
  std::string ErrMsg;
  int RC = sys::ExecuteAndWait(*Ptxas, Args, std::nullopt, Redirects,
                               /*SecondsToWait=*/300, 0, &ErrMsg);
  {
    std::lock_guard<std::mutex> Lock(CacheMutex);
    ++Invocations;
  }
  auto ReadAll = [](StringRef P) {
    auto B = MemoryBuffer::getFile(P);
    return B ? (*B)->getBuffer().str() : std::string();
  };
  std::string Text = ReadAll(Out.Path) + "\n" + ReadAll(Err.Path);
  if (RC != 0) {
    // The first error line ptxas printed.
    StringRef First;
    SmallVector<StringRef, 16> Lines;
    StringRef(Text).split(Lines, '\n');
    for (StringRef L : Lines)
      if (L.contains("error") || L.contains("fatal")) {
        First = L.trim();
        break;
      }
    return createStringError(
        inconvertibleErrorCode(), "ptxas failed (%s): %s",
        RC < 0 ? ErrMsg.c_str() : ("exit " + std::to_string(RC)).c_str(),
        First.empty() ? "no message" : First.str().c_str());
  }
  std::vector<PtxasKernelInfo> Infos = parsePtxasOutput(Text);
  std::lock_guard<std::mutex> Lock(CacheMutex);
  Cache[Key] = Infos;
  return Infos;
}

unsigned ptxasInvocations() {
  std::lock_guard<std::mutex> Lock(CacheMutex);
  return Invocations;
}

std::optional<std::string> withEntryMaxNReg(StringRef PTX, StringRef Kernel,
                                            unsigned Regs) {
  // The entry's name, then its parameter list, its directives, its body.
  size_t At = 0;
  for (;;) {
    At = PTX.find(".entry", At);
    if (At == StringRef::npos)
      return std::nullopt;
    At += 6;
    StringRef Rest = PTX.drop_front(At).ltrim();
    if (Rest.consume_front(Kernel) && !Rest.empty() &&
        (Rest.front() == '(' || isSpace(Rest.front())))
      break;
  }
  size_t Close = PTX.find(')', At), Body = PTX.find('{', At);
  if (Close == StringRef::npos || Body == StringRef::npos || Body < Close)
    return std::nullopt;
  std::string Out = PTX.take_front(Close + 1).str();
  Out += "\n.maxnreg " + std::to_string(Regs);
  SmallVector<StringRef, 8> Lines;
  PTX.slice(Close + 1, Body).split(Lines, '\n');
  for (StringRef L : Lines)
    if (!L.contains(".maxnreg"))
      Out += (L + "\n").str();
  Out += PTX.drop_front(Body).str();
  return Out;
}

void mergePtxasInfo(Resources &R, const PtxasKernelInfo &Info) {
  if (Info.HasRegisters) {
    R.Registers = Info.Registers;
    R.RegistersExact = true;
  }
  R.SpillStoreBytes = Info.SpillStoreBytes;
  R.SpillLoadBytes = Info.SpillLoadBytes;
  R.StackFrameBytes = Info.StackFrameBytes;
  R.StaticSharedBytes = Info.SharedBytes;
  R.Barriers = Info.Barriers;
}

unsigned mergePtxasInfo(std::vector<KernelProfile> &Kernels,
                        ArrayRef<PtxasKernelInfo> Infos) {
  unsigned N = 0;
  for (KernelProfile &K : Kernels)
    for (const PtxasKernelInfo &I : Infos)
      if (I.Name == K.Name) {
        mergePtxasInfo(K.Res, I);
        if (K.Source == "ir")
          K.Source = "ir+ptx";
        ++N;
        break;
      }
  return N;
}

} // namespace flipflop
