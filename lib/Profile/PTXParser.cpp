//===- PTXParser.cpp - PTX front end --------------------------------------===//
//
// The public entry points. The front end is split over
//  1. PTXLexer.cpp: a lexer over the whole buffer (tokens carry their PTX
//     line),
//  2. PTXStatements.cpp: a statement parser: module directives, .entry/.func
//     signatures and bodies (declarations, labels, guarded instructions,
//     .loc lines),
//  3. a per-function analysis (PTXAnalysis.h): basic blocks, dominators,
//     natural loops (PTXCFG.cpp), an abstract interpretation of each register
//     (stride in bytes per lane of threadIdx.x, constants, which special
//     registers it depends on) and bounds checks (PTXValues.cpp), recognised
//     or defaulted trip counts (PTXLoopTrip.cpp), register liveness for the
//     register estimate and the classification of every instruction
//     (PTXClassify.cpp),
//  4. here: callee work folded into callers and one KernelProfile per
//     kernel.
//
//===----------------------------------------------------------------------===//
#include "flipflop/Profile/PTXParser.h"
#include "PTXAnalysis.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <map>

using namespace llvm;

namespace flipflop {
namespace ptx {

void addScaled(FuncSummary &Into, const FuncSummary &From, double W) {
  for (unsigned C = 0; C < NumOpClasses; ++C)
    Into.Ops[C] += From.Ops[C] * W;
  Into.Flops32 += From.Flops32 * W;
  Into.ConvIntToF32 += From.ConvIntToF32 * W;
  Into.Flops64 += From.Flops64 * W;
  Into.Flops16 += From.Flops16 * W;
  Into.TensorFlops += From.TensorFlops * W;
  Into.EngineIssueFlops += From.EngineIssueFlops * W;
  if (Into.EngineType.empty())
    Into.EngineType = From.EngineType;
  for (auto &[T, V] : From.TensorByType)
    Into.TensorByType[T] += V * W;
  for (MemAccess A : From.Accesses) {
    A.Count *= W;
    A.BaseId = 0; // Registers of another function: no siblings here.
    Into.Accesses.push_back(A);
  }
  // A callee that never runs (its call on a rare path, or in a loop the
  // stated arguments skip) guesses nothing that weighs.
  for (const LoopRecord &L : From.Loops) {
    Into.Loops.push_back(L);
    Into.Loops.back().Guessed &= W > 0;
  }
  if (W > 0)
    Into.Guesses.insert(Into.Guesses.end(), From.Guesses.begin(),
                        From.Guesses.end());
  Into.Warnings.insert(Into.Warnings.end(), From.Warnings.begin(),
                       From.Warnings.end());
  Into.IndirectCalls |= From.IndirectCalls;
  Into.DivergentBranches += From.DivergentBranches;
  Into.EstimatedRegs = std::max(Into.EstimatedRegs, From.EstimatedRegs);
  // Its own code (static bytes: not scaled by the calls).
  Into.Spills.Known |= From.Spills.Known;
  llvm::append_range(Into.Spills.Blocks, From.Spills.Blocks);
  if (From.Held.Values > Into.Held.Values)
    Into.Held = From.Held;
  Into.EstimatedSpillFrameBytes += From.EstimatedSpillFrameBytes;
  for (auto [P, BW] : From.BlockPressure)
    Into.BlockPressure.push_back({P, std::min(BW * W, MaxBlockWeight)});
  Into.BarrierIds = std::max(Into.BarrierIds, From.BarrierIds);
  for (auto &K : From.Symbols)
    Into.Symbols.insert(K.getKey());
  ShapeInfo &S = Into.Shape;
  const ShapeInfo &O = From.Shape;
  S.ReadsBlockDim |= O.ReadsBlockDim;
  S.ReadsGridDim |= O.ReadsGridDim;
  S.GridStrideLoop |= O.GridStrideLoop;
  S.WorkScalesWithBlock |= O.WorkScalesWithBlock;
  if (O.TidPitch && (!S.TidPitch || O.TidPitch < S.TidPitch))
    S.TidPitch = O.TidPitch;
  for (unsigned D = 0; D < 3; ++D) {
    S.UsesTid[D] = S.UsesTid[D] || O.UsesTid[D];
    S.ReadsNTid[D] = S.ReadsNTid[D] || O.ReadsNTid[D];
  }
}

namespace {

/// Callee work folded into callers (memoised; cycles are recursion).
struct CallFolder {
  const std::vector<Function> &Funcs;
  const std::vector<FuncSummary> &Local;
  const StringMap<unsigned> &FuncIdx;
  const PTXParseOptions &Opts;
  std::vector<int> State; // 0 new, 1 visiting, 2 done
  std::vector<FuncSummary> Total;
  std::vector<unsigned> Followed;
  std::vector<bool> Recursive;

  CallFolder(const std::vector<Function> &Funcs,
             const std::vector<FuncSummary> &Local,
             const StringMap<unsigned> &FuncIdx, const PTXParseOptions &Opts)
      : Funcs(Funcs), Local(Local), FuncIdx(FuncIdx), Opts(Opts),
        State(Funcs.size(), 0), Total(Funcs.size()), Followed(Funcs.size(), 0),
        Recursive(Funcs.size(), false) {}

  void visit(unsigned I) {
    State[I] = 1;
    FuncSummary T = Local[I];
    T.Calls.clear();
    for (auto &[Callee, W] : Local[I].Calls) {
      auto It = FuncIdx.find(Callee);
      if (It == FuncIdx.end() || !Opts.FollowCalls) {
        if (It == FuncIdx.end())
          T.Warnings.push_back(formatv("{0}: call to {1} whose body is not in "
                                       "the module; counted as one branch",
                                       Funcs[I].Name, Callee)
                                   .str());
        continue;
      }
      unsigned C = It->second;
      if (State[C] == 1) {
        Recursive[I] = true;
        T.Warnings.push_back(formatv("{0}: recursive call to {1} not weighted",
                                     Funcs[I].Name, Callee)
                                 .str());
        continue;
      }
      if (State[C] == 0)
        visit(C);
      addScaled(T, Total[C], W);
      Followed[I] += 1 + Followed[C];
      Recursive[I] = Recursive[I] || Recursive[C];
    }
    Total[I] = std::move(T);
    State[I] = 2;
  }
};

/// The work, memory accesses, loops and diagnostics of \p S in \p K.
void copySummary(const FuncSummary &S, KernelProfile &K) {
  K.Ops = S.Ops;
  K.Flops32 = S.Flops32;
  K.ConvIntToF32 = S.ConvIntToF32;
  K.Flops64 = S.Flops64;
  K.Flops16 = S.Flops16;
  K.TensorFlops = S.TensorFlops;
  double Best = 0;
  for (auto &[T, V] : S.TensorByType)
    if (V > Best) {
      Best = V;
      K.TensorType = T;
    }
  K.Accesses = S.Accesses;
  markInterBlockReuse(K);
  collectFormLoads(K);
  K.Loops = S.Loops;
  K.PressureSteps = pressureSteps(S.BlockPressure);
  K.CapSpills = S.Spills;
  K.Held = S.Held;
  K.Guards = S.Guards;
  K.Guarded = S.Guarded;
  K.MLP = S.MLP;
  K.ILP = S.ILP;
  K.Guesses = S.Guesses;
  K.Warnings = S.Warnings;
}

/// Registers, barriers and the memory of the kernel's own and the
/// module-scope variables it (or its callees) names.
void addResources(const Function &F, const FuncSummary &S,
                  const StringMap<VarDecl> &Globals, Resources &R) {
  R.EstimatedRegisters = S.EstimatedRegs;
  R.Registers = S.EstimatedRegs;
  // Estimated until ptxas's report replaces them (mergePtxasInfo).
  unsigned Spill = S.Spills.bytesAt(MaxThreadRegisters);
  R.SpillStoreBytes = Spill / 2;
  R.SpillLoadBytes = Spill - R.SpillStoreBytes;
  R.StackFrameBytes += S.EstimatedSpillFrameBytes;
  if (F.Bounds.MaxNReg && R.Registers > F.Bounds.MaxNReg)
    R.Registers = F.Bounds.MaxNReg;
  R.Barriers = S.BarrierIds;
  auto AddVar = [&](const VarDecl &V) {
    if (V.Space == "shared") {
      if (V.Extern || V.Unsized)
        R.UsesDynamicShared = true;
      else
        R.StaticSharedBytes += V.Bytes;
    } else if (V.Space == "local") {
      R.StackFrameBytes += V.Bytes;
    } else if (V.Space == "const") {
      R.ConstBytes += V.Bytes;
    }
  };
  for (const VarDecl &V : F.Vars)
    AddVar(V);
  // Module-scope variables the kernel (or its callees) names.
  std::vector<std::string> Used;
  for (auto &E : S.Symbols)
    Used.push_back(E.getKey().str());
  std::sort(Used.begin(), Used.end());
  for (const std::string &Name : Used) {
    auto It = Globals.find(Name);
    if (It != Globals.end())
      AddVar(It->second);
  }
}

/// The threads a static shared tile is laid out for, as the IR front end
/// reads its array type: every static shared array of one size, and the
/// shared accesses that follow threadIdx.x alone (or x and y) one element
/// apart across the lanes (rows RowStepBytes apart): the elements along x,
/// and the rows along y. {0, 0, 0} where it does not read so.
static std::array<unsigned, 3> sharedTileExtent(const Function &F,
                                                const KernelProfile &K) {
  std::array<unsigned, 3> None{0, 0, 0};
  uint64_t Bytes = 0;
  for (const VarDecl &V : F.Vars)
    if (V.Space == "shared" && !V.Extern && !V.Unsized) {
      if (Bytes && V.Bytes != Bytes)
        return None;
      Bytes = V.Bytes;
    }
  int64_t Elem = 0, Row = 0;
  for (const MemAccess &A : K.Accesses) {
    if (A.Space != AddrSpace::Shared || !A.ThreadDimsKnown ||
        !(A.ThreadDims & 1u) || A.LaneMod || A.StrideBytes <= 0)
      continue;
    int64_t R = (A.ThreadDims & 2u) ? A.RowStepBytes[0] : 0;
    if ((Elem && Elem != A.StrideBytes) || (Row && R && Row != R))
      return None;
    Elem = A.StrideBytes;
    Row = R ? R : Row;
  }
  if (!Bytes || !Elem || Bytes % uint64_t(Elem))
    return None;
  if (!K.Shape.UsesTid[1] && !K.Shape.UsesTid[2])
    return {unsigned(Bytes / uint64_t(Elem)), 0, 0};
  if (K.Shape.UsesTid[2] || Row <= Elem || Row % Elem || Bytes % uint64_t(Row))
    return None;
  return {unsigned(Row / Elem), unsigned(Bytes / uint64_t(Row)), 0};
}

/// Block shapes the kernel fixes (a static tile, .reqntid).
void fixShape(const Function &F, KernelProfile &K) {
  // A 2-D/3-D shared tile indexed by threadIdx without reading blockDim.
  if ((K.Shape.UsesTid[1] || K.Shape.UsesTid[2]) && !K.Shape.ReadsBlockDim &&
      K.Res.StaticSharedBytes > 0) {
    K.Shape.FixedByTile = true;
    if (F.Bounds.ReqNTid[0])
      K.Shape.FixedBlock = F.Bounds.ReqNTid;
    K.Shape.FixedReason = "multi-dimensional threadIdx indexes a static "
                          "shared tile and blockDim is never read";
  }
  // The block-stride loops of a tile copy along every dimension the kernel
  // indexes by give its shape (as the IR front end's decideShape).
  if (K.Shape.FixedByTile && !K.Shape.FixedBlock[0]) {
    std::array<unsigned, 3> B = K.Shape.StrideBlock;
    uint64_t Threads = 1;
    bool All = true;
    for (unsigned D = 0; D < 3; ++D) {
      if (!K.Shape.UsesTid[D])
        B[D] = 1;
      All = All && B[D];
      Threads *= B[D];
    }
    unsigned Max = F.Bounds.maxThreads();
    if (All && Threads <= 1024 && (!Max || Threads <= Max)) {
      K.Shape.FixedBlock = B;
      K.Shape.FixedReason += "; block-stride loops step " +
                             std::to_string(B[0]) + " x " +
                             std::to_string(B[1]) + " x " +
                             std::to_string(B[2]);
    }
  }
  // A kernel indexed by threadIdx that never reads blockDim is written for
  // one block: its stores' addresses say which (`blockIdx.x * 128 +
  // threadIdx.x`, a tile's outputs 128 apart).
  bool UsesTid = K.Shape.UsesTid[0] || K.Shape.UsesTid[1] || K.Shape.UsesTid[2];
  if (!K.Shape.FixedBlock[0] && !F.Bounds.ReqNTid[0] && UsesTid &&
      !K.Shape.ReadsBlockDim) {
    K.Shape.StoreBlock = blockFromStoreForms(K, F.Bounds.maxThreads(),
                                             K.Shape.StoreBlockReason);
    std::string TileWhy;
    if (K.Shape.StoreBlock[0] &&
        storeBlockFitsTile(
            K.Shape.StoreBlock,
            guessTileBlock(K.Shape, F.Bounds.maxThreads(), TileWhy)) &&
        storeBlockFitsTile(K.Shape.StoreBlock, sharedTileExtent(F, K))) {
      K.Shape.FixedByTile = true;
      K.Shape.FixedBlock = K.Shape.StoreBlock;
      K.Shape.FixedReason =
          (K.Shape.FixedReason.empty()
               ? std::string("indexes by threadIdx without reading blockDim")
               : K.Shape.FixedReason) +
          "; " + K.Shape.StoreBlockReason;
    }
  }
  // A kernel that never reads blockDim but works through a static
  // shared array behind barriers (a block-wide scan or reduction written
  // for a constant thread count: CUB's BlockScan<T, 256> in its radix
  // sort's exclusive sum), or whose author bounds its threads (thrust's
  // transform, `j * 256 + threadIdx.x`; Triton's num_warps * 32), is
  // written for one block, as the IR front end decides for every kernel
  // that indexes by threadIdx without reading blockDim (decideShape).
  // Without either the PTX front end keeps sweeping: `threadIdx.x == 0`
  // alone fixes nothing.
  // Dynamic shared memory too: a flash-attention forward kernel whose
  // threads each own a row of the tiles (`Qi[tx * d + x]`, the block the
  // launch's tile arguments give) reads no blockDim.
  bool Cooperates =
      (K.Res.StaticSharedBytes > 0 || K.Res.UsesDynamicShared) &&
      K.op(OpClass::Barrier) > 0;
  // With bounds alone, only where threadIdx indexes memory (a flag set by
  // `threadIdx.x == 0` under __launch_bounds__ is swept, as the IR front
  // end sweeps it).
  if (!K.Shape.FixedByTile && !F.Bounds.ReqNTid[0] && UsesTid &&
      !K.Shape.ReadsBlockDim &&
      (Cooperates || (F.Bounds.maxThreads() && indexedThreadDims(K).Dims))) {
    K.Shape.FixedByTile = true;
    K.Shape.FixedReason =
        Cooperates ? "indexes by threadIdx without reading blockDim; threads "
                     "share a shared array behind barriers"
                   : "indexes by threadIdx without reading blockDim";
    // Along x alone: the author's thread count is the block.
    if (unsigned Max = F.Bounds.maxThreads();
        Max && !K.Shape.UsesTid[1] && !K.Shape.UsesTid[2]) {
      K.Shape.FixedBlock = {Max, 1, 1};
      K.Shape.FixedReason +=
          "; author's __launch_bounds__ " + std::to_string(Max);
    }
  }
  // Otherwise as the IR front end guesses (guessTileBlock).
  if (K.Shape.FixedByTile && !K.Shape.FixedBlock[0]) {
    std::string Why;
    std::array<unsigned, 3> Guess =
        guessTileBlock(K.Shape, F.Bounds.maxThreads(), Why);
    if (Guess[0]) {
      K.Shape.FixedBlock = Guess;
      K.Shape.FixedGuessed = true;
      K.Shape.FixedReason += "; " + Why;
    }
  }
  // Else the shared tile's extent, as the IR front end reads its type: a
  // 1-D tile of a whole number of warps, or a 2-D tile of at most 1024
  // (the author's bounds, where given, agreeing).
  if (K.Shape.FixedByTile && !K.Shape.FixedBlock[0]) {
    std::array<unsigned, 3> T = sharedTileExtent(F, K);
    unsigned Max = F.Bounds.maxThreads();
    uint64_t Threads = uint64_t(T[0]) * std::max(1u, T[1]);
    bool TwoD = T[1] > 1;
    if (T[0] && Threads <= 1024 && (!Max || Threads == Max) &&
        (TwoD || T[0] % 32 == 0)) {
      K.Shape.FixedBlock = {T[0], std::max(1u, T[1]), 1};
      K.Shape.FixedGuessed = true;
      K.Shape.FixedReason += "; shared tile [" + std::to_string(T[0]) + "]" +
                             (TwoD ? "[" + std::to_string(T[1]) + "]" : "");
    }
  }
  if (F.Bounds.ReqNTid[0]) {
    K.Shape.FixedBlock = F.Bounds.ReqNTid;
    if (K.Shape.FixedReason.empty())
      K.Shape.FixedReason = ".reqntid fixes the block shape";
  }
}

/// The profile of kernel \p I from its folded summary.
KernelProfile makeKernel(const Function &F, unsigned I, const CallFolder &CF,
                         StringRef FileName,
                         const std::map<int, std::string> &Files,
                         const StringMap<VarDecl> &Globals,
                         const PTXModule &M) {
  const FuncSummary &S = CF.Total[I];
  KernelProfile K;
  K.Name = F.Name;
  K.DisplayName = demangle(F.Name);
  K.Source = "ptx";
  K.File = FileName.str();
  if (S.FirstLoc.Line) {
    K.Line = S.FirstLoc.Line;
    auto It = Files.find(S.FirstLoc.File);
    if (It != Files.end())
      K.File = It->second;
  }
  copySummary(S, K);
  K.Warnings.insert(K.Warnings.end(), M.Warnings.begin(), M.Warnings.end());
  K.Bounds = F.Bounds;
  // Tensor-memory MMAs (its own and its callees'): the block's FLOPs over
  // the kernel's threads.
  if (S.EngineIssueFlops > 0) {
    unsigned T = F.Bounds.maxThreads();
    if (!T)
      K.Warnings.push_back("tensor-memory MMAs are spread over a block of "
                           "256 threads (the kernel states no launch "
                           "bounds)");
    K.EngineTensorFlops = S.EngineIssueFlops / (T ? T : 256);
    K.TensorFlops += K.EngineTensorFlops;
    if (K.TensorType.empty())
      K.TensorType = S.EngineType;
  }
  K.Params = F.Params;
  K.Shape = S.Shape;
  K.DivergentBranches = S.DivergentBranches;
  K.CallsFollowed = CF.Followed[I];
  K.HasRecursion = CF.Recursive[I];
  K.HasIndirectCalls = S.IndirectCalls;
  addResources(F, S, Globals, K.Res);
  fixShape(F, K);
  finalizeProfile(K);
  weighGuardedTraffic(K);
  K.SharedChecksKnown = true;
  return K;
}

} // namespace
} // namespace ptx

using namespace ptx;

Expected<PTXModule> parsePTXModule(StringRef Text, StringRef FileName,
                                   const PTXParseOptions &Opts) {
  PTXModule M;
  auto Toks = lex(Text);
  if (!Toks)
    return Toks.takeError();
  std::vector<Function> Funcs;
  StringMap<VarDecl> Globals;
  std::map<int, std::string> Files;
  if (Error E = parseStatements(std::move(*Toks), M, Funcs, Globals, Files))
    return E;

  // Analyse every body once.
  unsigned TargetSM = 0;
  {
    StringRef T(M.Target);
    if (T.consume_front("sm_"))
      T.consumeInteger(10, TargetSM);
  }
  StringMap<unsigned> FuncIdx;
  std::vector<FuncSummary> Local(Funcs.size());
  for (unsigned I = 0; I < Funcs.size(); ++I) {
    if (!Funcs[I].HasBody)
      continue;
    FuncIdx[Funcs[I].Name] = I;
    Local[I] = FunctionAnalysis(Funcs[I], Opts, TargetSM, &Globals).run();
    if (!Funcs[I].IsEntry)
      M.Functions.push_back(Funcs[I].Name);
  }
  CallFolder CF(Funcs, Local, FuncIdx, Opts);
  for (unsigned I = 0; I < Funcs.size(); ++I) {
    const Function &F = Funcs[I];
    if (!F.IsEntry || !F.HasBody)
      continue;
    if (CF.State[I] == 0)
      CF.visit(I);
    M.Kernels.push_back(makeKernel(F, I, CF, FileName, Files, Globals, M));
  }
  return M;
}

Expected<std::vector<KernelProfile>> parsePTX(StringRef Text,
                                              StringRef FileName) {
  auto M = parsePTXModule(Text, FileName);
  if (!M)
    return M.takeError();
  return std::move(M->Kernels);
}

const KernelProfile *findKernel(const PTXModule &M, StringRef Name) {
  for (const KernelProfile &K : M.Kernels)
    if (K.Name == Name)
      return &K;
  for (const KernelProfile &K : M.Kernels) {
    StringRef D = K.DisplayName;
    if (D == Name || D.take_until([](char C) { return C == '('; }) == Name)
      return &K;
  }
  return nullptr;
}

} // namespace flipflop
