//===- IRProfile.cpp - KernelProfile from NVPTX IR ------------------------===//
//
// Walks a kernel and the device functions it calls, weighting every
// instruction by the trip counts of the loops around it (LoopInfo and
// ScalarEvolution), classifying it by functional unit, and analysing each
// memory access's address as an affine function of threadIdx.x to find its
// coalescing (global) or bank-conflict (shared) character. See
// docs/ARCHITECTURE.md ("IR front end") for the rules and their defaults.
//
// The IR front end's files: this one (ProfileBuilder's walk, loop records,
// register estimate and shape decisions, and the analysis pass),
// IRClassify.cpp (instructions by functional unit, memory accesses),
// IRStride.cpp (special registers, strides along threadIdx.x, block
// dependence), IRTripCounts.cpp (SCEV evaluation with the launch facts and
// trip counts) and IRShapeChecks.cpp (blockDim checks).
//
//===----------------------------------------------------------------------===//
#include "flipflop/Profile/IRProfile.h"

#include "IRProfileBuilder.h"
#include "IRStride.h"
#include "IRTripCounts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

using namespace llvm;

namespace flipflop {

AnalysisKey KernelProfileAnalysis::Key;

bool isKernel(const Function &F) {
  return !F.isDeclaration() && F.getCallingConv() == CallingConv::PTX_Kernel;
}

namespace irprof {

//===----------------------------------------------------------------------===//
// The walker
//===----------------------------------------------------------------------===//

/// A loop whose backedge-taken count is an add recurrence of one enclosing
/// loop (a stencil's area shrinking with the time step: `for (j = ty + it;
/// j < H - it; j += 8)` inside `for (it = 1; it <= T; ++it)`): the mean of
/// its trip count over that loop's iterations (sampled evenly beyond 64),
/// when the enclosing loop's own count is known.
std::optional<double> ProfileBuilder::tripOverEnclosing(
    const Loop *L, const SCEV *BTC, ScalarEvolution &SE, Function &F,
    unsigned Depth, ArrayRef<EntryCondition> Conds, const EvalPoint &Ref) {
  const Loop *Outer = nullptr;
  bool Other = false;
  auto Note = [&](const Loop *X) {
    if (Outer && X != Outer)
      Other = true;
    Outer = X;
  };
  SCEVExprContains(BTC, [&](const SCEV *X) {
    if (const auto *AR = dyn_cast<SCEVAddRecExpr>(X))
      Note(AR->getLoop());
    // A header PHI of an enclosing loop that SCEV keeps opaque (its
    // constants folded: evaluateSCEV).
    if (const auto *U = dyn_cast<SCEVUnknown>(X))
      if (const auto *PN = dyn_cast<PHINode>(U->getValue())) {
        for (const Loop *E = L->getParentLoop(); E; E = E->getParentLoop())
          if (PN->getParent() == E->getHeader())
            Note(E);
        // A merge inside an enclosing loop (the counter a peeled prologue
        // leaves, evaluated along the way each pass takes: evaluateSCEV).
        if (const Loop *E = Ref.LI ? Ref.LI->getLoopFor(PN->getParent())
                                   : nullptr;
            E && E != L && E->contains(L) && E->getHeader() != PN->getParent())
          Note(E);
      }
    return false;
  });
  if (!Outer || Other || Outer == L || !Outer->contains(L))
    return std::nullopt;
  // Counted (a grid-stride loop's 1 is the work scale, not a count).
  const LoopRecord &O = loopRecord(Outer, SE, F, Depth);
  if (O.Guessed || O.GridStride || O.Trip < 1 || O.Trip > 1e6)
    return std::nullopt;
  uint64_t N = uint64_t(O.Trip);
  uint64_t Samples = std::min<uint64_t>(N, 64);
  EvalPoint At = Ref;
  At.PinLoop = Outer;
  double Sum = 0;
  for (uint64_t K = 0; K < Samples; ++K) {
    At.PinIter = Samples == N ? K : K * (N - 1) / std::max<uint64_t>(1, Samples - 1);
    std::optional<double> T = tripAt(L, BTC, SE, Conds, At);
    if (!T)
      return std::nullopt;
    Sum += *T;
  }
  return Sum / double(Samples);
}

/// A count that reads blockIdx: block 0's, where every block runs about as
/// many passes (sameInEveryBlock).
std::optional<double>
ProfileBuilder::tripOfFirstBlock(const Loop *L, const SCEV *BTC,
                                 ScalarEvolution &SE, Function &F,
                                 unsigned Depth,
                                 ArrayRef<EntryCondition> Conds,
                                 const EvalPoint &Ref) {
  auto At = [&](uint64_t B) {
    EvalPoint P = Ref;
    P.CtaId = std::array<uint64_t, 3>{B, B, B};
    std::optional<double> T = tripAt(L, BTC, SE, Conds, P);
    // Bounds that read the block's index and an enclosing loop's counter
    // (`j < n && start + j < keyspace`, start = (block * threads + tid) *
    // W + k inside `for (k = 0; k < W; ++k)`).
    return T ? T : tripOverEnclosing(L, BTC, SE, F, Depth, Conds, P);
  };
  std::optional<double> T0 = At(0), T1 = At(1), T8 = At(8);
  if (!T0 || !T1 || !T8)
    return std::nullopt;
  if (!sameInEveryBlock(*T0, *T1, *T8))
    return std::nullopt;
  return T0;
}

/// Where an `fcmp` of fabs(x) with a constant holds on its rare side (true),
/// fails there (false), or is no magnitude test (rareWhenHolds).
static std::optional<bool> rareWhenTrue(const Value *Cond,
                                        unsigned Depth = 0) {
  // A conjunction holds only where each part does: rare where one part is
  // rare when true; a disjunction fails only where each part fails.
  using namespace PatternMatch;
  const Value *A, *B;
  if (Depth < 4 && match(Cond, m_LogicalAnd(m_Value(A), m_Value(B))))
    for (const Value *X : {A, B})
      if (rareWhenTrue(X, Depth + 1) == std::optional<bool>(true))
        return true;
  if (Depth < 4 && match(Cond, m_LogicalOr(m_Value(A), m_Value(B))))
    for (const Value *X : {A, B})
      if (rareWhenTrue(X, Depth + 1) == std::optional<bool>(false))
        return false;
  if (Depth < 4 && match(Cond, m_Not(m_Value(A))))
    if (std::optional<bool> R = rareWhenTrue(A, Depth + 1))
      return !*R;
  const auto *C = dyn_cast<FCmpInst>(Cond);
  if (!C)
    return std::nullopt;
  auto IsFabs = [](const Value *V) {
    const auto *II = dyn_cast<IntrinsicInst>(V);
    return II && (II->getIntrinsicID() == Intrinsic::fabs ||
                  II->getIntrinsicID() == Intrinsic::nvvm_fabs ||
                  II->getIntrinsicID() == Intrinsic::nvvm_fabs_ftz);
  };
  bool Mirror = !IsFabs(C->getOperand(0));
  const auto *K = dyn_cast<ConstantFP>(C->getOperand(Mirror ? 0 : 1));
  if (!K || (Mirror && !IsFabs(C->getOperand(1))))
    return std::nullopt;
  APFloat V = K->getValueAPF();
  bool Lost = false;
  V.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &Lost);
  // Unordered variants (ult, uge, ...) differ only for NaN.
  std::optional<MagnitudeTest> T;
  switch (FCmpInst::getOrderedPredicate(Mirror ? C->getSwappedPredicate()
                                               : C->getPredicate())) {
  case FCmpInst::FCMP_OLT:
    T = MagnitudeTest::Less;
    break;
  case FCmpInst::FCMP_OLE:
    T = MagnitudeTest::LessEq;
    break;
  case FCmpInst::FCMP_OGT:
    T = MagnitudeTest::Greater;
    break;
  case FCmpInst::FCMP_OGE:
    T = MagnitudeTest::GreaterEq;
    break;
  case FCmpInst::FCMP_OEQ:
    T = MagnitudeTest::Equal;
    break;
  case FCmpInst::FCMP_ONE:
    T = MagnitudeTest::NotEqual;
    break;
  default:
    return std::nullopt;
  }
  return rareWhenHolds(*T, V.convertToDouble());
}

/// The blocks of \p F reached from its entry without the edges \p Skip
/// names.
static SmallPtrSet<const BasicBlock *, 32> reachedWithout(
    Function &F,
    function_ref<bool(const BasicBlock *, const BasicBlock *)> Skip) {
  SmallPtrSet<const BasicBlock *, 32> Seen;
  SmallVector<const BasicBlock *, 16> Work{&F.getEntryBlock()};
  Seen.insert(&F.getEntryBlock());
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    for (const BasicBlock *S : successors(BB))
      if (!Skip(BB, S) && Seen.insert(S).second)
        Work.push_back(S);
  }
  return Seen;
}

/// Rare branches (docs/MODEL.md): the blocks of \p F reachable from its
/// entry only across the rare edge of a magnitude test (libdevice's slow
/// paths of sinf/cosf/sin/cos, inlined): weight 0, as the PTX front end's
/// rareOnlyBlocks gives them.
static SmallPtrSet<const BasicBlock *, 16> rareOnlyBlocks(Function &F,
                                                          const LoopInfo &LI) {
  SmallPtrSet<const BasicBlock *, 16> Rare;
  DenseMap<const BasicBlock *, const BasicBlock *> RareSucc;
  for (BasicBlock &BB : F) {
    const auto *Br = dyn_cast<BranchInst>(BB.getTerminator());
    if (!Br || !Br->isConditional() ||
        Br->getSuccessor(0) == Br->getSuccessor(1))
      continue;
    std::optional<bool> R = rareWhenTrue(Br->getCondition());
    if (!R)
      continue;
    // A loop that ends leaves by one of its exits: an edge out of a loop
    // is never rare (`while (fabsf(x) < 65536.f) x *= 1.5f;`).
    const BasicBlock *Succ = Br->getSuccessor(*R ? 0 : 1);
    if (const Loop *L = LI.getLoopFor(&BB); L && !L->contains(Succ))
      continue;
    RareSucc[&BB] = Succ;
  }
  if (RareSucc.empty() || F.empty())
    return Rare;
  SmallPtrSet<const BasicBlock *, 32> Seen =
      reachedWithout(F, [&](const BasicBlock *From, const BasicBlock *To) {
        return To == RareSucc.lookup(From);
      });
  for (BasicBlock &BB : F)
    if (!Seen.count(&BB))
      Rare.insert(&BB);
  return Rare;
}

EvalPoint ProfileBuilder::referencePoint(Function &F, ScalarEvolution &SE) {
  EvalPoint Ref;
  Ref.Facts = &Facts;
  Ref.Actual = &ArgActual;
  Ref.SE = &SE;
  Ref.DT = &FAM.getResult<DominatorTreeAnalysis>(F);
  Ref.LI = &FAM.getResult<LoopAnalysis>(F);
  Ref.Block = {Facts.AssumedBlockX ? Facts.AssumedBlockX : 256u, 1, 1};
  return Ref;
}

/// Shrinking thread checks (docs/MODEL.md), as the PTX front end's
/// shrinkingCheckShares: a branch in a loop on a predicate of threadIdx.x
/// that is no bounds check, each thread's predicate at each pass of the
/// loop run pass by pass at the reference block (steppedTrip, thread by
/// thread); where the passes move it (`if (tid < s)` with `s >>= 1`, `if
/// (tid % (2 * s) == 0)`), what only one side reaches runs on the warps
/// with a thread there: the mean over the passes (sampled evenly beyond
/// 64) of their share.
DenseMap<const BasicBlock *, double>
ProfileBuilder::shrinkingCheckShares(Function &F, const LoopInfo &LI,
                                     ScalarEvolution &SE,
                                     const DominatorTree &DT) {
  DenseMap<const BasicBlock *, double> Share;
  constexpr unsigned MaxPasses = 1024;
  EvalPoint Ref = referencePoint(F, SE);
  const unsigned Threads = unsigned(std::min<uint64_t>(Ref.Block[0], 1024));
  for (BasicBlock &BB : F) {
    const auto *Br = dyn_cast<BranchInst>(BB.getTerminator());
    const Loop *L = LI.getLoopFor(&BB);
    if (!L || !Br || !Br->isConditional() ||
        Br->getSuccessor(0) == Br->getSuccessor(1))
      continue;
    const auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
    if (!Cmp || !L->contains(Cmp) ||
        Cmp->getOperand(0)->getType()->getIntegerBitWidth() < 16)
      continue;
    // A predicate of threadIdx.x alone among the thread indices, that is
    // no bounds check (those are the PTX's guards, the model's per launch).
    unsigned TD = ThreadDeps.get(Cmp) & 7u;
    if (TD != 1u || (BlockDeps.get(Cmp) & (7u | AddrDependsOnData)))
      continue;
    if (!SE.isSCEVable(Cmp->getOperand(0)->getType()))
      continue;
    // Affine in the indices, the arguments and the loops' counters: a
    // bounds check (clang's `tid + k * 256 < n`), not followed here.
    auto Opaque = [](const SCEV *X) {
      const auto *U = dyn_cast<SCEVUnknown>(X);
      return U && isa<Instruction>(U->getValue()) &&
             !isa<CallInst>(U->getValue());
    };
    bool Affine = true;
    for (const Value *O : Cmp->operands()) {
      const SCEV *S = SE.getSCEV(const_cast<Value *>(O));
      Affine &= !isa<SCEVCouldNotCompute>(S) && !SCEVExprContains(S, Opaque);
    }
    if (Affine)
      continue;
    auto Conds = entryConditions(L, DT);
    // Each thread's predicate at each pass.
    std::vector<std::vector<bool>> ByThread(Threads);
    size_t N = 0;
    bool Ok = true;
    for (unsigned T = 0; T < Threads && Ok; ++T) {
      EvalPoint At = Ref;
      At.TidX = T;
      std::vector<SmallVector<APInt, 2>> ByPass;
      Ok = steppedTrip(L, SE, Conds, At, MaxPasses, nullptr, {Cmp}, &ByPass)
               .has_value() &&
           ByPass.size() >= 2 && (T == 0 || ByPass.size() == N);
      N = ByPass.size();
      for (const auto &V : ByPass)
        ByThread[T].push_back(V[0].getBoolValue());
    }
    if (!Ok)
      continue;
    std::optional<BranchSideShares> Sh = warpSideShares(
        N, Threads, [&](uint64_t Pass, unsigned T) -> std::optional<bool> {
          return ByThread[T][Pass];
        });
    if (!Sh)
      continue;
    std::pair<const BasicBlock *, double> Sides[2] = {
        {Br->getSuccessor(0), Sh->Taken}, {Br->getSuccessor(1), Sh->NotTaken}};
    for (auto [Succ, Sh] : Sides) {
      // Not the loop's exit, nor a side every warp runs.
      if (!L->contains(Succ) || Sh >= 1)
        continue;
      // The blocks that only this edge reaches from the entry.
      SmallPtrSet<const BasicBlock *, 32> Seen = reachedWithout(
          F, [&](const BasicBlock *From, const BasicBlock *To) {
            return From == &BB && To == Succ;
          });
      for (BasicBlock &X : F)
        if (DT.isReachableFromEntry(&X) && !Seen.count(&X)) {
          auto [It, New] = Share.try_emplace(&X, 1.0);
          It->second *= Sh;
        }
    }
  }
  return Share;
}

/// The dimensions whose launched threads (blockDim.d * gridDim.d) a
/// grid-stride loop's step spans, or with \p ByBlocks whose blocks
/// (gridDim.d) (LoopRecord::GridStrideDims); 0 unknown.
static unsigned gridStrideDims(const Loop &L, ScalarEvolution &SE,
                               bool ByBlocks) {
  for (PHINode &PN : L.getHeader()->phis()) {
    const SCEV *Step = headerPhiStep(PN, L, SE);
    if (!Step || scevMentions(Step, SReg::NTid) == ByBlocks ||
        !scevMentions(Step, SReg::NCtaId))
      continue;
    unsigned Dims = 0;
    for (unsigned D = 0; D < 3; ++D)
      if (scevMentions(Step, SReg::NTid, D) ||
          scevMentions(Step, SReg::NCtaId, D))
        Dims |= 1u << D;
    return Dims;
  }
  return 0;
}

/// A pass count as the guesses say it: whole, or to one decimal.
static std::string tripText(double T) {
  return T == std::floor(T) ? std::to_string(static_cast<long long>(T))
                            : formatv("{0:f1}", T).str();
}

/// The remainder loop of a loop LLVM unrolled U times at run time: its
/// count is `n % U`, at most U - 1 (ScalarEvolution's constant maximum),
/// and the unroller disabled its unrolling.
static std::optional<unsigned> remainderMax(const Loop *L,
                                            ScalarEvolution &SE) {
  const auto *Max =
      dyn_cast<SCEVConstant>(SE.getConstantMaxBackedgeTakenCount(L));
  if (!Max || Max->getAPInt().uge(15))
    return std::nullopt;
  unsigned Trips = unsigned(Max->getAPInt().getZExtValue()) + 1;
  if (!isPowerOf2_32(Trips + 1))
    return std::nullopt;
  MDNode *MD = L->getLoopID();
  if (!MD || !findOptionMDForLoopID(MD, "llvm.loop.unroll.disable"))
    return std::nullopt;
  return Trips;
}

void ProfileBuilder::guessUnrolled(LoopRecord &R, const Loop *L,
                                   const SCEV *BTC, ScalarEvolution &SE) {
  // A guess is of the source loop's iterations, as NVPTX's unrolling and
  // the PTX front end (which reads unrolled loops) count them: the
  // remainder of a loop unrolled U times runs (U - 1) / 2 passes on
  // average, the main loop the default over U.
  if (std::optional<unsigned> Max = remainderMax(L, SE)) {
    R.Trip = std::min(R.Trip, double(*Max) / 2);
    R.UnrollRemainder = true;
    return;
  }
  // The main loop: its count divides by U, and a remainder loop of at most
  // U - 1 passes is its sibling.
  unsigned U = 0;
  SCEVExprContains(BTC, [&](const SCEV *X) {
    if (const auto *D = dyn_cast<SCEVUDivExpr>(X))
      if (const auto *C = dyn_cast<SCEVConstant>(D->getRHS()))
        if (C->getAPInt().ule(16) && C->getAPInt().isPowerOf2() &&
            C->getAPInt().ugt(1))
          U = unsigned(C->getAPInt().getZExtValue());
    return U != 0;
  });
  if (!U)
    return;
  auto &LI = FAM.getResult<LoopAnalysis>(*L->getHeader()->getParent());
  ArrayRef<Loop *> Siblings = L->getParentLoop()
                                  ? ArrayRef<Loop *>(L->getParentLoop()->getSubLoops())
                                  : ArrayRef<Loop *>(LI.getTopLevelLoops());
  for (const Loop *S : Siblings)
    if (S != L)
      if (std::optional<unsigned> Max = remainderMax(S, SE);
          Max && *Max + 1 == U) {
        R.Trip = Facts.DefaultTrip / U;
        UnrolledBy[L] = U;
        return;
      }
}

/// Whether \p V is a poll of an mbarrier: inline `mbarrier.try_wait` /
/// `test_wait`, or the NVVM intrinsics.
static bool isBarrierPoll(const Value *V) {
  const auto *CB = dyn_cast<CallBase>(V);
  if (!CB)
    return false;
  if (const auto *IA = dyn_cast<InlineAsm>(CB->getCalledOperand())) {
    StringRef Asm = IA->getAsmString();
    return Asm.contains("mbarrier.try_wait") ||
           Asm.contains("mbarrier.test_wait");
  }
  if (const Function *Callee = CB->getCalledFunction()) {
    StringRef N = Callee->getName();
    return N.starts_with("llvm.nvvm.mbarrier.try_wait") ||
           N.starts_with("llvm.nvvm.mbarrier.test_wait");
  }
  return false;
}

/// Whether loop \p L waits on an mbarrier: an exit's condition is computed
/// in the loop from a poll's result (the PTX front end's rule). A loop over
/// a counter that polls once a pass, to choose whether to wait, is not.
static bool waitsOnBarrier(const Loop &L) {
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  for (BasicBlock *BB : Exiting) {
    const auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br || !Br->isConditional())
      continue;
    SmallVector<const Value *, 8> Work{Br->getCondition()};
    SmallPtrSet<const Value *, 16> Seen;
    while (!Work.empty()) {
      const Value *V = Work.pop_back_val();
      if (!Seen.insert(V).second || Seen.size() > 32)
        continue;
      if (isBarrierPoll(V))
        return true;
      const auto *I = dyn_cast<Instruction>(V);
      if (!I || !L.contains(I) || isa<PHINode>(I) || isa<CallBase>(I))
        continue;
      for (const Value *Op : I->operands())
        Work.push_back(Op);
    }
  }
  return false;
}

const LoopRecord &ProfileBuilder::loopRecord(const Loop *L, ScalarEvolution &SE,
                                             Function &F, unsigned Depth) {
  auto It = LoopMemo.find(L);
  if (It != LoopMemo.end())
    return It->second;
  LoopRecord R;
  R.Depth = L->getLoopDepth() + Depth;
  if (const DebugLoc &Loc = L->getStartLoc())
    R.Line = Loc.getLine();
  if (unsigned TC = SE.getSmallConstantTripCount(L)) {
    R.Trip = TC;
    R.Exact = true;
  } else {
    const SCEV *BTC = SE.getBackedgeTakenCount(L);
    if (isa<SCEVCouldNotCompute>(BTC))
      BTC = latchExitCount(L, SE);
    if (!isa<SCEVCouldNotCompute>(BTC)) {
      R.Symbolic = "(" + scevText(BTC) + ") + 1";
      R.DependsOn = describeDependence(BTC);
      bool ByBlock = scevMentions(BTC, SReg::NTid);
      if (ByBlock && scevMentions(BTC, SReg::NCtaId)) {
        // for (i = tid + b*B; i < n; i += B * G): a grid-stride loop.
        R.GridStride = true;
        R.DependsOn = "the problem size over the whole grid (grid-stride loop)";
      }
      auto Conds =
          entryConditions(L, FAM.getResult<DominatorTreeAnalysis>(F));
      EvalPoint Ref = referencePoint(F, SE);
      std::optional<double> T;
      // Stepped by the grid's blocks alone along x (`r += gridDim.x`, a
      // block per row at a time) and no stated grid to count it at: a
      // grid-stride loop over units of a block.
      const bool StatedGrid = Facts.Grid[0] != 0;
      if (!R.GridStride && !ByBlock && !StatedGrid &&
          scevMentions(BTC, SReg::NCtaId) &&
          (gridStrideDims(*L, SE, /*ByBlocks=*/true) & 1u)) {
        R.GridStride = R.GridStrideBlocks = true;
        R.DependsOn = "the problem size over the grid's blocks (grid-stride "
                      "loop over blocks)";
      }
      // The count with one thread in the grid.
      auto AtUnitGrid = [&] {
        EvalPoint One = Ref;
        One.Block = {1, 1, 1};
        One.CtaId = std::array<uint64_t, 3>{0, 0, 0};
        One.UnitGrid = true;
        return tripAt(L, BTC, SE, Conds, One);
      };
      if (R.GridStride)
        if (std::optional<double> E = AtUnitGrid())
          R.GridStrideElements = *E;
      // Over blocks along y or z alone (split-K's `k += gridDim.z`) and no
      // stated grid: counted where the grid is one block along them, as
      // every grid the model derives is (1-D).
      std::optional<double> AtOne;
      if (unsigned D = !R.GridStride && !ByBlock && !StatedGrid &&
                               scevMentions(BTC, SReg::NCtaId)
                           ? gridStrideDims(*L, SE, /*ByBlocks=*/true)
                           : 0u;
          D && !(D & 1u))
        AtOne = AtUnitGrid();
      if (R.GridStride && Facts.TotalThreads) {
        R.Trip = 1; // One pass per launch-wide stride over the problem.
      } else if (AtOne && *AtOne > 0) {
        R.Trip = *AtOne;
        R.Symbolic = "at one block along its step's dimensions (the derived "
                     "grid's; a stated grid counts it there): " +
                     R.Symbolic;
      } else if (!R.GridStride && (T = tripAt(L, BTC, SE, Conds, Ref))) {
        R.Trip = *T;
        if (ByBlock)
          fitBlockDim(R, L, BTC, SE, Conds, Ref);
      } else if (!R.GridStride && scevMentions(BTC, SReg::CtaId) &&
                 (T = tripOfFirstBlock(L, BTC, SE, F, Depth, Conds, Ref))) {
        // A loop over the whole problem stepped by a constant (a grid
        // stride written as num_blocks * block_size_x: Kernel Tuner's
        // reduction): block 0's count, which block 1's confirms.
        R.Trip = *T;
        R.Symbolic = "block 0's, thread 0's (the count reads the block's "
                     "index): " + R.Symbolic;
        // A stride of num_blocks * blockDim.x: the count follows blockDim.
        if (ByBlock) {
          EvalPoint Ref0 = Ref;
          Ref0.CtaId = std::array<uint64_t, 3>{0, 0, 0};
          fitBlockDim(R, L, BTC, SE, Conds, Ref0);
        }
      } else if ((T = !R.GridStride ? tripOverEnclosing(L, BTC, SE, F, Depth,
                                                        Conds, Ref)
                                   : std::nullopt)) {
        R.Trip = *T;
        R.Symbolic = "the mean over the iterations of the enclosing loop "
                     "whose counter moves this loop's bounds: " +
                     R.Symbolic;
      } else if (uint64_t Blocks = 0;
                 !R.GridStride && scevMentions(BTC, SReg::CtaId) &&
                 (T = meanOverFallingBlocks(
                      [&](uint64_t B) {
                        EvalPoint P = Ref;
                        P.CtaId = std::array<uint64_t, 3>{B, B, B};
                        return tripAt(L, BTC, SE, Conds, P);
                      },
                      &Blocks))) {
        R.Trip = *T;
        R.Symbolic = formatv("the mean over the {0} blocks that run it, "
                             "thread 0's (the count falls with the block's "
                             "index): {1}",
                             Blocks, R.Symbolic)
                         .str();
      } else {
        R.Trip = Facts.DefaultTrip;
        // Over stated elements nothing is assumed: the model divides them
        // by the launched threads.
        R.Guessed = !(R.GridStride && R.GridStrideElements > 0);
        if (!R.Guessed)
          R.Symbolic = formatv("{0} {1}: {2}", uint64_t(R.GridStrideElements),
                               R.GridStrideBlocks
                                   ? "units of a block over the launched "
                                     "blocks"
                                   : "elements over the launched threads",
                               R.Symbolic)
                           .str();
        if (!ByBlock && !R.GridStride)
          guessUnrolled(R, L, BTC, SE);
        if (ByBlock && !R.GridStride) {
          EvalPoint Probe = Ref;
          Probe.MissingArg = int64_t(1) << 20;
          fitBlockDim(R, L, BTC, SE, Conds, Probe);
        }
      }
    } else {
      // Loops whose step is not constant: look for blockDim- and
      // gridDim-strided induction variables.
      for (PHINode &PN : L->getHeader()->phis()) {
        const SCEV *Step = headerPhiStep(PN, *L, SE);
        if (!Step)
          continue;
        bool ByBlock = scevMentions(Step, SReg::NTid);
        bool ByGrid = scevMentions(Step, SReg::NCtaId);
        if (ByBlock && ByGrid) {
          R.GridStride = true;
          R.Symbolic = "N / (gridDim.x * blockDim.x)";
          R.DependsOn = "the problem size over the whole grid (grid-stride loop)";
        } else if (ByGrid && scevMentions(Step, SReg::NCtaId, 0)) {
          R.GridStride = R.GridStrideBlocks = true;
          R.Symbolic = "N / gridDim.x";
          R.DependsOn = "the problem size over the grid's blocks (grid-stride "
                        "loop over blocks)";
        } else if (ByBlock) {
          R.DependsOnBlockDim = true;
          for (unsigned D = 0; D < 3; ++D)
            if (scevMentions(Step, SReg::NTid, D))
              R.BlockStrideDims |= 1u << D;
          R.Symbolic = "N / blockDim.x";
          R.DependsOn = "the problem size over blockDim (block-stride loop)";
        }
      }
      bool ByThreads = !R.Symbolic.empty();
      if (R.Symbolic.empty()) {
        R.Symbolic = "unknown";
        R.DependsOn = "an exit condition ScalarEvolution cannot compute";
      }
      R.Trip = Facts.DefaultTrip;
      R.Guessed = true;
      if (R.GridStride && Facts.TotalThreads) {
        // Resolved against the problem size: one pass per launch-wide stride.
        R.Trip = 1;
        R.Guessed = false;
      } else if (!ByThreads && waitsOnBarrier(*L)) {
        // Polling an mbarrier until its phase completes (the PTX front
        // end's rule): the passes are the time the arrivals and copies
        // take, charged as their latency and traffic; counted once.
        R.Trip = 1;
        R.Guessed = false;
        R.Symbolic = "waits on an mbarrier, counted once";
        R.DependsOn = "the arrivals and copies of the barrier's phase";
      } else if (!ByThreads) {
        // A counter that is no add recurrence (`s /= 2`, `s *= 2`): run
        // the loop's integer steps pass by pass.
        EvalPoint Ref = referencePoint(F, SE);
        auto Conds =
            entryConditions(L, FAM.getResult<DominatorTreeAnalysis>(F));
        SmallPtrSet<const SCEV *, 8> Read;
        std::string Where;
        std::optional<double> T = steppedTrip(L, SE, Conds, Ref, 4096, &Read);
        // At each pass of the enclosing loop (sampled), when its count is
        // known: a bound its counter moves.
        auto OverParent = [&](const EvalPoint &P) -> std::optional<double> {
          const Loop *O = L->getParentLoop();
          if (!O)
            return std::nullopt;
          const LoopRecord &OR = loopRecord(O, SE, F, Depth);
          if (OR.Guessed || OR.GridStride || OR.Trip < 1 || OR.Trip > 1e6)
            return std::nullopt;
          uint64_t N = uint64_t(OR.Trip), Samples = std::min<uint64_t>(N, 16);
          EvalPoint X = P;
          X.PinLoop = O;
          double Sum = 0;
          for (uint64_t K = 0; K < Samples; ++K) {
            X.PinIter = Samples == N ? K : K * (N - 1) / (Samples - 1);
            std::optional<double> V =
                steppedTrip(L, SE, Conds, X, 1024, &Read);
            if (!V)
              return std::nullopt;
            Sum += *V;
          }
          return Sum / double(Samples);
        };
        if (!T && (T = OverParent(Ref)))
          Where = "the mean over the passes of the enclosing loop, ";
        // Block 0's, where blocks 1 and 8 agree (a bound that reads the
        // block's index).
        if (!T) {
          auto AtBlock = [&](uint64_t B) {
            EvalPoint P = Ref;
            P.CtaId = std::array<uint64_t, 3>{B, B, B};
            std::optional<double> V = steppedTrip(L, SE, Conds, P, 1024, &Read);
            return V ? V : OverParent(P);
          };
          std::optional<double> T0 = AtBlock(0), T1, T8;
          if (T0 && (T1 = AtBlock(1)) && (T8 = AtBlock(8)) &&
              sameInEveryBlock(*T0, *T1, *T8)) {
            T = T0;
            Where = "block 0's, ";
          }
        }
        if (T) {
          R.Trip = *T;
          R.Guessed = false;
          R.Symbolic = Where + "stepped pass by pass (the counter is no add "
                               "recurrence)";
          std::set<std::string> Parts;
          for (const SCEV *S : Read)
            if (!isa<SCEVConstant>(S))
              Parts.insert(describeDependence(S));
          R.DependsOn = Parts.empty() ? "constants" : "";
          for (const std::string &D : Parts)
            R.DependsOn += (R.DependsOn.empty() ? "" : "; ") + D;
        }
      }
    }
  }
  // The remainder of a loop unrolled at run time is said with its main
  // loop: one guess per source loop.
  if (R.Guessed && !R.UnrollRemainder) {
    GuessOf[L] = P.Guesses.size();
    std::string What = "loop";
    if (R.Line)
      What += " at line " + std::to_string(R.Line);
    if (!F.getName().empty() && &F != &Kernel)
      What += " in " + demangle(F.getName().str());
    // A grid-stride loop's passes are the problem size over the launched
    // threads (the model's work scale): no pass count is assumed; the
    // problem size is, where the user did not state it (said apart).
    P.Guesses.push_back(
        R.GridStride
            ? What +
                  (R.GridStrideBlocks
                       ? ": a grid-stride loop over blocks, its passes the "
                         "problem size over the launched threads"
                       : ": a grid-stride loop, its passes the problem size "
                         "over the launched threads")
            : What + ": trip count depends on " + R.DependsOn + ", assumed " +
                  (UnrolledBy.count(L)
                       ? formatv("{0} (unrolled {1} times by the compiler: "
                                 "{2} passes and a remainder loop)",
                                 tripText(Facts.DefaultTrip),
                                 UnrolledBy.lookup(L), tripText(R.Trip))
                             .str()
                       : tripText(R.Trip)));
  }
  if (R.DependsOnBlockDim)
    P.Shape.WorkScalesWithBlock = true;
  if (R.GridStride)
    P.Shape.GridStrideLoop = true;
  if (R.GridStride)
    R.GridStrideDims = gridStrideDims(*L, SE, R.GridStrideBlocks);
  LoopIndex[L] = P.Loops.size();
  P.Loops.push_back(R);
  return LoopMemo.try_emplace(L, R).first->second;
}

double ProfileBuilder::blockWeight(const BasicBlock &BB, LoopInfo &LI,
                                   ScalarEvolution &SE, Function &F,
                                   unsigned Depth) {
  double W = 1;
  for (const Loop *L = LI.getLoopFor(&BB); L; L = L->getParentLoop()) {
    // 0: the loop's guard skips it for the launch facts. A count that
    // follows blockDim is an average over the block (possibly below 1).
    const LoopRecord &R = loopRecord(L, SE, F, Depth);
    W *= R.TripBlockDim >= 0 ? R.Trip
         : R.Trip > 0        ? std::max(1.0, R.Trip)
                             : 0.0;
  }
  return std::min(W, MaxWeight);
}

void ProfileBuilder::dropGuessesOfLoopsThatNeverRun() {
  std::vector<bool> Drop(P.Guesses.size(), false);
  for (auto [L, I] : LoopIndex) {
    if (LoopsThatRun.count(L))
      continue;
    P.Loops[I].Guessed = false;
    if (auto G = GuessOf.find(L); G != GuessOf.end() && G->second < Drop.size())
      Drop[G->second] = true;
  }
  std::vector<std::string> Kept;
  for (size_t I = 0; I < P.Guesses.size(); ++I)
    if (!Drop[I])
      Kept.push_back(std::move(P.Guesses[I]));
  P.Guesses = std::move(Kept);
}

void ProfileBuilder::walk(Function &F, double Weight, unsigned Depth) {
  OnStack.insert(&F);
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  auto &UI = FAM.getResult<UniformityInfoAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
  // A kernel's stated arguments are constants of its addresses too.
  const std::map<unsigned, int64_t> *Args =
      isKernel(F) ? &Facts.ArgValues : nullptr;
  StrideAnalysis SA(DL, Args);
  // The steps between a block's rows and planes (shared-memory banks of a
  // warp that spans rows: MemAccess::RowStepBytes).
  StrideAnalysis RowY(DL, Args, 1), RowZ(DL, Args, 2);
  const std::array<StrideAnalysis *, 2> CallerRowSA = RowSA;
  RowSA = {&RowY, &RowZ};
  // Loops must be recorded per function: memo is keyed by Loop*, unique.
  StrengthReduction Reduced = strengthReduce(F, LI, SE, DL);
  const StrengthReduction *CallerSR = SR;
  SR = &Reduced;

  // Blocks under a divergent branch: dominated by one of its successors and
  // not post-dominating the branch.
  // NVPTX's divergence analysis takes every call for divergent, reads of
  // blockDim/gridDim/blockIdx included: a comparison of values that are the
  // same for every thread that reaches it (kernel arguments, those
  // registers, induction variables over them) is uniform, so a loop bounded
  // by blockDim.y does not count twice.
  auto LaunchUniform = [&](const Value *Cond) {
    const auto *Cmp = dyn_cast<ICmpInst>(Cond);
    if (!Cmp || !isKernel(F))
      return false;
    for (const Value *Op : Cmp->operands()) {
      if (!SE.isSCEVable(Op->getType()))
        return false;
      bool Uniform = true;
      SCEVExprContains(SE.getSCEV(const_cast<Value *>(Op)), [&](const SCEV *X) {
        if (const auto *U = dyn_cast<SCEVUnknown>(X)) {
          unsigned Dim;
          SReg R = specialRegister(U->getValue(), Dim);
          Uniform &= isa<Argument>(U->getValue()) || R == SReg::NTid ||
                     R == SReg::NCtaId || R == SReg::CtaId;
        }
        return !Uniform;
      });
      if (!Uniform)
        return false;
    }
    return true;
  };
  SmallPtrSet<const BasicBlock *, 16> DivergentBlocks;
  for (BasicBlock &BB : F) {
    auto *BI = dyn_cast<BranchInst>(BB.getTerminator());
    if (!BI || !BI->isConditional() || !UI.isDivergent(BI->getCondition()) ||
        LaunchUniform(BI->getCondition()))
      continue;
    ++P.DivergentBranches;
    for (BasicBlock &Other : F)
      if (&Other != &BB && DT.dominates(&BB, &Other) &&
          !PDT.dominates(&Other, &BB))
        DivergentBlocks.insert(&Other);
  }

  SmallPtrSet<const BasicBlock *, 16> Rare = rareOnlyBlocks(F, LI);
  DenseMap<const BasicBlock *, double> Shrunk =
      shrinkingCheckShares(F, LI, SE, DT);
  for (BasicBlock &BB : F) {
    if (!DT.isReachableFromEntry(&BB))
      continue;
    double W = std::min(MaxWeight, Weight * blockWeight(BB, LI, SE, F, Depth));
    if (Rare.count(&BB))
      W = 0;
    if (auto It = Shrunk.find(&BB); It != Shrunk.end())
      W *= It->second;
    if (W > 0)
      for (const Loop *L = LI.getLoopFor(&BB); L; L = L->getParentLoop())
        LoopsThatRun.insert(L);
    bool Div = DivergentBlocks.count(&BB) != 0;
    unsigned GlobalLoads = 0;
    SmallVector<const Loop *, 4> BlockDimLoops;
    for (const Loop *L = LI.getLoopFor(&BB); L; L = L->getParentLoop()) {
      auto It = LoopMemo.find(L);
      if (It != LoopMemo.end() && It->second.TripBlockDim >= 0)
        BlockDimLoops.push_back(L);
    }
    size_t AccessesBefore = P.Accesses.size();
    for (Instruction &I : BB) {
      if (SR->isDead(I) || SR->FoldedAdds.count(&I))
        continue;
      double Before = 0, After = 0;
      for (double V : P.Ops)
        Before += V;
      classify(I, W, SA, LI, SE, Depth, Div);
      for (double V : P.Ops)
        After += V;
      TotalWork += After - Before;
      for (const Loop *L : BlockDimLoops)
        BlockDimLoopWork[L] += After - Before;
      if (Div)
        DivergentWork += After - Before;
      if (auto *Ld = dyn_cast<LoadInst>(&I))
        if (addrSpaceThroughCalls(Ld->getPointerOperand()) == 1 ||
            Ld->getPointerAddressSpace() == 1)
          ++GlobalLoads;
    }
    mergeVectorSiblings(AccessesBefore);
    for (size_t I = AccessesBefore; I < P.Accesses.size(); ++I) {
      const MemAccess &A = P.Accesses[I];
      if (A.Space != AddrSpace::Global && A.Space != AddrSpace::Generic)
        continue;
      for (const Loop *L : BlockDimLoops)
        BlockDimLoopMem[L] += A.Count * A.Bytes;
    }
    if ((LI.getLoopFor(&BB) || Depth == 0) && W > 0)
      MaxGlobalLoadsPerBlock = std::max(MaxGlobalLoadsPerBlock, GlobalLoads);
  }
  SR = CallerSR;
  RowSA = CallerRowSA;
  OnStack.erase(&F);
}

/// True when \p V is only used to form addresses of loads and stores.
static bool isAddressOnly(const Value *V, unsigned Depth = 0) {
  if (Depth > 8)
    return false;
  for (const User *U : V->users()) {
    if (const auto *LI = dyn_cast<LoadInst>(U)) {
      if (LI->getPointerOperand() != V)
        return false;
    } else if (const auto *SI = dyn_cast<StoreInst>(U)) {
      if (SI->getPointerOperand() != V)
        return false;
    } else if (isa<GetElementPtrInst>(U) || isa<AddrSpaceCastInst>(U)) {
      if (!isAddressOnly(U, Depth + 1))
        return false;
    } else {
      return false;
    }
  }
  return true;
}

unsigned ProfileBuilder::estimateRegisters(Function &F) {
  // Backward liveness over SSA values; each live value costs its width in
  // 32-bit registers (i1 lives in predicate registers and costs nothing).
  auto Cost = [&](const Value *V) -> unsigned {
    Type *T = V->getType();
    if (T->isVoidTy() || T->isLabelTy() || T->isIntegerTy(1) ||
        isa<AllocaInst>(V) || T->isMetadataTy() || T->isTokenTy())
      return 0;
    if (T->isAggregateType())
      return 0;
    // Addresses used only by loads and stores (directly or through further
    // address arithmetic): ptxas keeps one base register per array and folds
    // the offsets into [reg+imm] addressing or rematerialises them, so they
    // are charged per array below, not per value (hoisted, fully unrolled
    // tile addresses would otherwise count hundreds of registers).
    if (T->isPointerTy() && isa<Instruction>(V) && isAddressOnly(V))
      return 0;
    uint64_t Bits = DL.getTypeSizeInBits(T).getKnownMinValue();
    if (T->isVectorTy() && T->getScalarType()->isIntegerTy(1))
      return 0;
    return static_cast<unsigned>((Bits + 31) / 32);
  };
  DenseMap<const BasicBlock *, SmallPtrSet<const Value *, 32>> LiveIn;
  auto Tracked = [](const Value *V) {
    return isa<Instruction>(V) || isa<Argument>(V);
  };
  // Iterate to a fixed point (bounded).
  bool Changed = true;
  for (unsigned Iter = 0; Changed && Iter < 32; ++Iter) {
    Changed = false;
    for (BasicBlock &BB : reverse(F)) {
      SmallPtrSet<const Value *, 32> Live;
      for (const BasicBlock *S : successors(&BB)) {
        for (const Value *V : LiveIn[S])
          if (!(isa<PHINode>(V) && cast<PHINode>(V)->getParent() == S))
            Live.insert(V);
        for (const PHINode &PN : S->phis()) {
          const Value *In = PN.getIncomingValueForBlock(&BB);
          if (In && Tracked(In))
            Live.insert(In);
        }
      }
      for (Instruction &I : reverse(BB)) {
        Live.erase(&I);
        if (isa<PHINode>(I))
          continue;
        for (const Use &U : I.operands())
          if (Tracked(U))
            Live.insert(U);
      }
      for (const PHINode &PN : BB.phis())
        Live.insert(&PN);
      auto &Old = LiveIn[&BB];
      if (Old.size() != Live.size()) {
        Old = Live;
        Changed = true;
      }
    }
  }
  unsigned Max = 0;
  for (BasicBlock &BB : F) {
    SmallPtrSet<const Value *, 32> Live;
    for (const BasicBlock *S : successors(&BB)) {
      for (const Value *V : LiveIn[S])
        if (!(isa<PHINode>(V) && cast<PHINode>(V)->getParent() == S))
          Live.insert(V);
      for (const PHINode &PN : S->phis())
        if (const Value *In = PN.getIncomingValueForBlock(&BB))
          if (Tracked(In))
            Live.insert(In);
    }
    unsigned Cur = 0;
    for (const Value *V : Live)
      Cur += Cost(V);
    Max = std::max(Max, Cur);
    for (Instruction &I : reverse(BB)) {
      if (Live.erase(&I))
        Cur -= std::min(Cur, Cost(&I));
      if (isa<PHINode>(I))
        continue;
      for (const Use &U : I.operands())
        if (Tracked(U) && Live.insert(U).second)
          Cur += Cost(U);
      Max = std::max(Max, Cur);
    }
  }
  // One 64-bit base register per array addressed through free addresses,
  // and a few for the stack pointer and temporaries.
  SmallPtrSet<const Value *, 16> Bases;
  for (Instruction &I : instructions(F))
    if (I.getType()->isPointerTy() && isAddressOnly(&I))
      Bases.insert(getUnderlyingObject(&I, 8));
  unsigned BaseRegs = 2 * std::min<unsigned>(Bases.size(), 16);
  return std::min(255u, Max + BaseRegs + 4);
}

void ProfileBuilder::markBlockReuse() {
  static_assert(BlockDepAnalysis::Data == AddrDependsOnData,
                "one data bit for both front ends");
  markInterBlockReuse(P);
}

void ProfileBuilder::shapeFromBounds() {
  auto ParseDims = [](StringRef S, std::array<unsigned, 3> &Out) {
    SmallVector<StringRef, 3> Parts;
    S.split(Parts, ',');
    for (unsigned I = 0; I < Parts.size() && I < 3; ++I)
      Parts[I].trim().getAsInteger(10, Out[I]);
    for (unsigned I = Parts.size(); I < 3; ++I)
      Out[I] = Out[0] ? 1 : 0;
  };
  auto Str = [&](StringRef Attr) -> StringRef {
    Attribute A = Kernel.getFnAttribute(Attr);
    return A.isStringAttribute() ? A.getValueAsString() : StringRef();
  };
  if (StringRef S = Str("nvvm.maxntid"); !S.empty())
    ParseDims(S, P.Bounds.MaxNTid);
  if (StringRef S = Str("nvvm.reqntid"); !S.empty())
    ParseDims(S, P.Bounds.ReqNTid);
  if (StringRef S = Str("nvvm.minctasm"); !S.empty())
    S.trim().getAsInteger(10, P.Bounds.MinCTAsPerSM);
  if (StringRef S = Str("nvvm.maxnreg"); !S.empty())
    S.trim().getAsInteger(10, P.Bounds.MaxNReg);
}

/// \p S is `threadIdx.D + terms that read no thread index` (through integer
/// casts): the start of a block-stride loop whose step is the block's extent
/// along D.
static bool isTidPlus(const SCEV *S, unsigned D) {
  auto Strip = [](const SCEV *X) {
    while (const auto *C = dyn_cast<SCEVCastExpr>(X))
      X = C->getOperand();
    return X;
  };
  auto IsTid = [&](const SCEV *X) {
    unsigned Dim;
    const auto *U = dyn_cast<SCEVUnknown>(Strip(X));
    return U && specialRegister(U->getValue(), Dim) == SReg::Tid && Dim == D;
  };
  S = Strip(S);
  if (IsTid(S))
    return true;
  const auto *Add = dyn_cast<SCEVAddExpr>(S);
  if (!Add)
    return false;
  unsigned Tids = 0;
  for (const SCEV *Op : Add->operands()) {
    if (IsTid(Op))
      ++Tids;
    else if (scevMentions(Op, SReg::Tid))
      return false;
  }
  return Tids == 1;
}

/// The block extent along each dimension that the kernel's block-stride
/// loops from a thread index give (`for (r = threadIdx.y; r < 22; r += 4)`
/// with the block a compile-time constant: a cooperative copy of a tile and
/// its halo): the smallest constant step of such a loop (an unrolled copy
/// steps by a multiple of it; its remainder loop by it), 0 where none.
std::array<unsigned, 3> ProfileBuilder::blockFromStrides() {
  std::array<unsigned, 3> Out{0, 0, 0};
  auto &LI = FAM.getResult<LoopAnalysis>(Kernel);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(Kernel);
  for (const Loop *L : LI.getLoopsInPreorder())
    for (PHINode &Phi : L->getHeader()->phis()) {
      if (!Phi.getType()->isIntegerTy() || !SE.isSCEVable(Phi.getType()))
        continue;
      const auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&Phi));
      if (!AR || AR->getLoop() != L || !AR->isAffine())
        continue;
      const auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
      if (!Step || Step->getAPInt().getSignificantBits() > 32)
        continue;
      int64_t St = Step->getAPInt().getSExtValue();
      if (St < 2 || St > 1024)
        continue;
      for (unsigned D = 0; D < 3; ++D)
        if (isTidPlus(AR->getStart(), D) &&
            (!Out[D] || unsigned(St) < Out[D]))
          Out[D] = unsigned(St);
    }
  return Out;
}

/// The coefficients of threadIdx.x, .y, .z in \p V's value through integer
/// casts, adds, subtracts, disjoint ors, products and shifts by constants
/// and GEP offsets; any other value is opaque and taken as free of thread
/// indices (as the PTX front end's addressPoly leaves). A walk of its own,
/// not ScalarEvolution: queries made here would change what later SCEV
/// queries of the profile answer (its caches keep flags and ranges).
/// \p Memo keeps each value's coefficients (a value shared by many
/// addresses is walked once).
using TidCoefficientMemo = DenseMap<const Value *, std::array<int64_t, 3>>;
static std::array<int64_t, 3> tidCoefficientsOf(const Value *V,
                                                const DataLayout &DL,
                                                TidCoefficientMemo &Memo,
                                                unsigned Depth);
static std::array<int64_t, 3> tidCoefficients(const Value *V,
                                              const DataLayout &DL,
                                              TidCoefficientMemo &Memo,
                                              unsigned Depth = 0) {
  if (auto It = Memo.find(V); It != Memo.end())
    return It->second;
  // Kept at any depth (a value past the depth limit stays opaque wherever
  // it is reached from; the walk is linear in the kernel's size).
  std::array<int64_t, 3> C = tidCoefficientsOf(V, DL, Memo, Depth);
  Memo[V] = C;
  return C;
}

static std::array<int64_t, 3> tidCoefficientsOf(const Value *V,
                                                const DataLayout &DL,
                                                TidCoefficientMemo &Memo,
                                                unsigned Depth) {
  std::array<int64_t, 3> Out{0, 0, 0};
  unsigned Dim;
  if (specialRegister(V, Dim) == SReg::Tid && Dim < 3) {
    Out[Dim] = 1;
    return Out;
  }
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 16)
    return Out;
  auto Of = [&](const Value *X) {
    return tidCoefficients(X, DL, Memo, Depth + 1);
  };
  auto Const = [](const Value *X) -> std::optional<int64_t> {
    const auto *C = dyn_cast<ConstantInt>(X);
    if (!C || C->getValue().getSignificantBits() > 40)
      return std::nullopt;
    return C->getSExtValue();
  };
  // A product past 2^40 makes the value opaque (no pitch is that large).
  auto Scaled = [](std::array<int64_t, 3> A, int64_t K) {
    for (int64_t &X : A)
      if (__builtin_mul_overflow(X, K, &X) ||
          std::llabs(X) > (int64_t(1) << 40))
        return std::array<int64_t, 3>{0, 0, 0};
    return A;
  };
  auto Sum = [](std::array<int64_t, 3> A, const std::array<int64_t, 3> &B,
                int64_t Sign) {
    for (unsigned D = 0; D < 3; ++D)
      A[D] += Sign * B[D];
    return A;
  };
  switch (I->getOpcode()) {
  case Instruction::ZExt:
  case Instruction::SExt:
  case Instruction::Trunc:
    return Of(I->getOperand(0));
  case Instruction::Add:
  case Instruction::Sub:
    return Sum(Of(I->getOperand(0)), Of(I->getOperand(1)),
               I->getOpcode() == Instruction::Add ? 1 : -1);
  case Instruction::Or:
    if (cast<PossiblyDisjointInst>(I)->isDisjoint())
      return Sum(Of(I->getOperand(0)), Of(I->getOperand(1)), 1);
    return Out;
  case Instruction::Mul:
    if (auto K = Const(I->getOperand(1)))
      return Scaled(Of(I->getOperand(0)), *K);
    if (auto K = Const(I->getOperand(0)))
      return Scaled(Of(I->getOperand(1)), *K);
    return Out;
  case Instruction::Shl:
    if (auto K = Const(I->getOperand(1)); K && *K >= 0 && *K < 32)
      return Scaled(Of(I->getOperand(0)), int64_t(1) << *K);
    return Out;
  case Instruction::GetElementPtr: {
    const auto *GEP = cast<GetElementPtrInst>(I);
    unsigned Bits = DL.getIndexTypeSizeInBits(GEP->getType());
    SmallMapVector<Value *, APInt, 4> Vars;
    APInt Offset(Bits, 0);
    if (!GEP->collectOffset(DL, Bits, Vars, Offset))
      return Out;
    Out = Of(GEP->getPointerOperand());
    for (const auto &[X, Scale] : Vars)
      if (Scale.getSignificantBits() <= 40)
        Out = Sum(Out, Scaled(Of(X), Scale.getSExtValue()), 1);
    return Out;
  }
  default:
    return Out;
  }
}

unsigned ProfileBuilder::tidPitch() {
  unsigned Best = 0;
  TidCoefficientMemo Memo;
  for (const Instruction &I : instructions(Kernel)) {
    if (!I.getType()->isIntOrPtrTy())
      continue;
    std::array<int64_t, 3> C = tidCoefficients(&I, DL, Memo);
    if (C[2] || C[0] <= 0 || C[1] <= 0 || C[1] % C[0])
      continue;
    int64_t Pitch = C[1] / C[0];
    if (Pitch >= 2 && Pitch <= 1024 && (!Best || unsigned(Pitch) < Best))
      Best = unsigned(Pitch);
  }
  return Best;
}

/// The threads that fill a 1-D shared tile of \p Elements elements: the
/// elements each thread stores into it in one fill (its stores' bytes over
/// the element's; siboehm's SGEMM kernels 6 and 7 store four floats of a
/// transposed float4 into a 1,024-float tile: 256 threads), where all of
/// them are at one loop depth (a copy loop inside the fill would store
/// more than its static stores say); the tile's elements otherwise.
uint64_t ProfileBuilder::tileThreads(const GlobalVariable &Tile,
                                     uint64_t Elements) {
  auto *AT = dyn_cast<ArrayType>(Tile.getValueType());
  uint64_t Elem = AT ? DL.getTypeAllocSize(AT->getElementType()) : 0;
  if (!Elem)
    return Elements;
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(Kernel);
  SmallVector<const Value *, 16> Work{&Tile};
  SmallPtrSet<const Value *, 16> Seen{&Tile};
  uint64_t Bytes = 0;
  int Depth = -1;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (const auto *SI = dyn_cast<StoreInst>(U)) {
        const auto *F = SI->getFunction();
        if (SI->getPointerOperand() != V || F != &Kernel)
          return Elements; // stored elsewhere, or as a value
        int D = int(LI.getLoopDepth(SI->getParent()));
        if (Depth >= 0 && D != Depth)
          return Elements;
        Depth = D;
        Bytes += DL.getTypeStoreSize(SI->getValueOperand()->getType());
      } else if (isa<GEPOperator>(U) || isa<AddrSpaceCastInst>(U) ||
                 isa<BitCastInst>(U) ||
                 (isa<ConstantExpr>(U) && cast<ConstantExpr>(U)->isCast())) {
        if (Seen.insert(U).second)
          Work.push_back(U);
      } else if (isa<CallBase>(U)) {
        return Elements; // a memcpy or a callee fills it
      }
    }
  }
  uint64_t PerThread = Bytes / Elem;
  if (!PerThread || Bytes % Elem || Elements % PerThread)
    return Elements;
  return Elements / PerThread;
}

void ProfileBuilder::decideShape() {
  ShapeInfo &S = P.Shape;
  // A kernel that indexes by threadIdx.x without reading blockDim.x has its
  // block width baked into its index arithmetic or a shared tile.
  bool UsesAnyTid = S.UsesTid[0] || S.UsesTid[1] || S.UsesTid[2];
  if (!UsesAnyTid)
    return;
  // A read of threadIdx that is only tested against zero (`threadIdx.x ==
  // 0`: one thread of each block does it) fixes no shape; inline asm's
  // reads count as indexing (UsesTid without TidIndexes only from a test).
  bool Baked = false;
  for (unsigned D = 0; D < 3; ++D)
    if (S.UsesTid[D] && !S.ReadsNTid[D] && TidIndexes[D])
      Baked = true;
  if (!Baked)
    return;
  S.FixedByTile = true;
  S.TidPitch = tidPitch();
  // Find the tile that gives the shape: the largest static shared array.
  const GlobalVariable *Tile = nullptr;
  uint64_t Best = 0;
  for (const GlobalVariable *GV : SharedArrays) {
    uint64_t Size = DL.getTypeAllocSize(GV->getValueType());
    if (isa<ArrayType>(GV->getValueType()) && Size > Best) {
      Best = Size;
      Tile = GV;
    }
  }
  std::string Reason = "indexes by threadIdx without reading blockDim";
  // The shape, from the most to the least certain source: reqntid; a shared
  // tile whose dimensions multiply to the author's __launch_bounds__ (or any
  // tile when there are no bounds); the bounds' thread count split with the
  // tile's row length (or a warp) along x.
  unsigned Max = P.Bounds.maxThreads();
  uint64_t D0 = 0, D1 = 1;
  if (Tile) {
    // Threads index a tile's innermost dimensions: a double buffer's
    // [2][H][W] is an H x W tile (hotspot's temporal tiling).
    SmallVector<uint64_t, 4> Dims;
    for (Type *T = Tile->getValueType(); auto *AT = dyn_cast<ArrayType>(T);
         T = AT->getElementType())
      Dims.push_back(AT->getNumElements());
    // A short innermost dimension (`[H][W][3]`, a pixel's channels) is
    // no thread dimension.
    if (Dims.size() >= 3 && Dims.back() <= 4)
      Dims.pop_back();
    D0 = Dims.back();
    if (Dims.size() >= 2)
      D1 = Dims[Dims.size() - 2];
    Reason += "; shared tile ";
    for (uint64_t D : Dims)
      Reason += "[" + std::to_string(D) + "]";
  }
  bool TwoD = S.UsesTid[1];
  auto Set = [&](uint64_t X, uint64_t Y) {
    S.FixedBlock = {static_cast<unsigned>(X), static_cast<unsigned>(Y), 1};
  };
  // Block-stride loops from a thread index along every dimension the
  // kernel indexes by (a tile copy), whose block fits the bounds.
  std::array<unsigned, 3> Strided = blockFromStrides();
  S.StrideBlock = Strided;
  bool ByStrides = true;
  uint64_t StridedThreads = 1;
  for (unsigned D = 0; D < 3; ++D) {
    if (S.UsesTid[D] && !Strided[D])
      ByStrides = false;
    if (!S.UsesTid[D])
      Strided[D] = 1;
    StridedThreads *= Strided[D];
  }
  ByStrides = ByStrides && StridedThreads <= 1024 &&
              (!Max || StridedThreads <= Max);
  std::string GuessWhy;
  std::array<unsigned, 3> Guess = guessTileBlock(S, Max, GuessWhy);
  if (P.Bounds.ReqNTid[0]) {
    S.FixedBlock = {P.Bounds.ReqNTid[0], std::max(1u, P.Bounds.ReqNTid[1]),
                    std::max(1u, P.Bounds.ReqNTid[2])};
  } else if (ByStrides) {
    S.FixedBlock = Strided;
    Reason += "; block-stride loops step " + std::to_string(Strided[0]) +
              " x " + std::to_string(Strided[1]) + " x " +
              std::to_string(Strided[2]);
  } else if (Guess[0]) {
    S.FixedBlock = Guess;
    S.FixedGuessed = true;
    Reason += "; " + GuessWhy;
  } else if (Tile && TwoD && D1 > 1 && D0 * D1 <= 1024 &&
             (!Max || D0 * D1 == Max)) {
    Set(D0, D1);
    S.FixedGuessed = true;
  } else if (uint64_t T = Tile && !TwoD && D1 == 1 ? tileThreads(*Tile, D0)
                                                  : 0;
             T && T <= 1024 && T % 32 == 0 && (!Max || T == Max)) {
    Set(T, 1);
    S.FixedGuessed = true;
    if (T != D0)
      Reason += ", " + std::to_string(D0 / T) + " elements a thread";
  } else if (Max) {
    uint64_t X = !TwoD ? Max
                 : (D0 && D0 <= Max && Max % D0 == 0) ? D0
                 : std::min<uint64_t>(32, Max);
    Set(X, TwoD ? Max / X : 1);
    S.FixedGuessed = true;
  }
  if (Max)
    Reason += "; author's __launch_bounds__ " + std::to_string(Max);
  S.FixedReason = Reason;
}

bool localArrayCause(const AllocaInst &AI, LocalArray &Out) {
  SmallVector<const Value *, 16> Work{&AI};
  SmallPtrSet<const Value *, 16> Seen{&AI};
  bool Dynamic = false;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (const auto *CB = dyn_cast<CallBase>(U)) {
        if (isa<IntrinsicInst>(CB))
          continue; // lifetime, memset, memcpy: not a reason.
        const Function *Callee = CB->getCalledFunction();
        Out.PassedTo = Callee ? demangle(Callee->getName().str())
                              : std::string("an indirect call");
        return true;
      }
      if (const auto *GEP = dyn_cast<GetElementPtrInst>(U))
        Dynamic |= !GEP->hasAllConstantIndices();
      if (isa<GetElementPtrInst>(U) || isa<BitCastInst>(U) ||
          isa<AddrSpaceCastInst>(U) || isa<PHINode>(U) || isa<SelectInst>(U))
        if (Seen.insert(U).second)
          Work.push_back(U);
    }
  }
  return Dynamic;
}

uint64_t ProfileBuilder::findLocalArrays() {
  uint64_t KernelBytes = 0;
  SmallVector<const Function *, 8> Work{&Kernel};
  SmallPtrSet<const Function *, 8> Seen{&Kernel};
  while (!Work.empty() && Seen.size() <= 64) {
    const Function *F = Work.pop_back_val();
    for (const Instruction &I : instructions(*F)) {
      if (const auto *CB = dyn_cast<CallBase>(&I))
        if (const Function *G = CB->getCalledFunction())
          if (!G->isDeclaration() && Seen.insert(G).second)
            Work.push_back(G);
      const auto *AI = dyn_cast<AllocaInst>(&I);
      if (!AI)
        continue;
      LocalArray A;
      bool Stays = InMemory[AI] = localArrayCause(*AI, A);
      auto Size = AI->getAllocationSize(DL);
      if (!Stays || !Size || Size->isScalable())
        continue;
      A.Bytes = Size->getFixedValue();
      A.Function = demangle(F->getName().str());
      if (F == &Kernel && AI->isStaticAlloca())
        KernelBytes += A.Bytes;
      P.LocalArrays.push_back(std::move(A));
    }
  }
  return KernelBytes;
}

bool ProfileBuilder::staysInMemory(const AllocaInst &AI) {
  // findLocalArrays() decided every alloca it reached; one past its limit
  // of functions is decided here.
  auto [It, New] = InMemory.try_emplace(&AI, false);
  if (New) {
    LocalArray Unused;
    It->second = localArrayCause(AI, Unused);
  }
  return It->second;
}

KernelProfile ProfileBuilder::build() {
  P.Name = Kernel.getName().str();
  P.DisplayName = demangle(P.Name);
  P.Source = "ir";
  if (const DISubprogram *SP = Kernel.getSubprogram()) {
    P.Line = SP->getLine();
    if (const DIFile *F = SP->getFile())
      P.File = F->getFilename().str();
  }
  if (P.File.empty())
    P.File = Kernel.getParent()->getSourceFileName();
  shapeFromBounds();
  findBlockDimChecks(Kernel, P.Shape);
  // Private arrays that stay in memory are the kernel's stack frame, which
  // the model's local-memory hit rate needs; the walk counts their accesses.
  P.Res.StackFrameBytes +=
      unsigned(std::min<uint64_t>(findLocalArrays(), UINT32_MAX));
  walk(Kernel, 1.0, 0);
  dropGuessesOfLoopsThatNeverRun();
  P.Res.EstimatedRegisters = estimateRegisters(Kernel);
  P.Res.Registers = P.Res.EstimatedRegisters;
  P.Res.RegistersExact = false;
  P.Res.Barriers = P.op(OpClass::Barrier) > 0 ? 1 : 0;
  if (P.Res.UsesDynamicShared && !P.Res.DynamicSharedBytes)
    P.Guesses.push_back("dynamic shared memory size unknown, assumed 0 bytes");
  P.DivergentWorkFraction = TotalWork > 0 ? DivergentWork / TotalWork : 0;
  double AllOps = 0;
  for (double V : P.Ops)
    AllOps += V;
  double GlobalBytes = 0; // accesses of callees are the caller's too
  for (const MemAccess &A : P.Accesses)
    if (A.Space == AddrSpace::Global || A.Space == AddrSpace::Generic)
      GlobalBytes += A.Count * A.Bytes;
  for (const auto &[L, Work] : BlockDimLoopWork) {
    LoopRecord &R = P.Loops[LoopIndex.lookup(L)];
    R.WorkShare = AllOps > 0 ? std::min(1.0, Work / AllOps) : 0;
    R.MemShare = GlobalBytes > 0
                     ? std::min(1.0, BlockDimLoopMem.lookup(L) / GlobalBytes)
                     : 0;
  }
  P.MLP = std::max(1.0, std::min(8.0, double(MaxGlobalLoadsPerBlock)));
  decideShape();
  markBlockReuse();
  finalizeProfile(P);
  return P;
}

} // namespace irprof

using irprof::ProfileBuilder;

KernelProfile buildIRProfile(Function &F, FunctionAnalysisManager &FAM,
                             const LaunchFacts &Facts) {
  ProfileBuilder B(F, FAM, Facts);
  return B.build();
}

KernelProfileAnalysis::Result
KernelProfileAnalysis::run(Module &M, ModuleAnalysisManager &MAM) {
  Result R;
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  const LaunchFacts Resolved = GetFacts ? GetFacts(M) : Facts;
  for (Function &F : M) {
    if (!isKernel(F))
      continue;
    KernelProfile P;
    CrashRecoveryContext CRC;
    bool OK = CRC.RunSafely([&] {
      if (!Resolved.CrashTestKernel.empty() &&
          F.getName().contains(Resolved.CrashTestKernel))
        LLVM_BUILTIN_TRAP;
      P = buildIRProfile(F, FAM, Resolved);
    });
    if (!OK) {
      P = KernelProfile();
      P.Name = F.getName().str();
      P.DisplayName = demangle(P.Name);
      P.Internal = "internal error while profiling the kernel's IR";
    }
    R.insert({&F, std::move(P)});
  }
  return R;
}

} // namespace flipflop
