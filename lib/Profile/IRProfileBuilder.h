//===- IRProfileBuilder.h - The IR front end's walker (private) -*- C++ -*-===//
//
// Private to the IR front end: ProfileBuilder walks a kernel and the device
// functions it calls and fills a KernelProfile. Its walk, loop records and
// shape decisions are in IRProfile.cpp; the classification of instructions
// (op classes, memory accesses) is in IRClassify.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_LIB_PROFILE_IRPROFILEBUILDER_H
#define FLIPFLOP_LIB_PROFILE_IRPROFILEBUILDER_H

#include "IRStride.h"
#include "IRStrengthReduce.h"
#include "IRTripCounts.h"
#include "flipflop/Profile/IRProfile.h"
#include "flipflop/Profile/KernelProfile.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include <map>
#include <optional>
#include <vector>

namespace flipflop {
namespace irprof {

/// Why the private array \p AI stays in memory after optimisation: the
/// first non-intrinsic call it is passed to (Out.PassedTo), or a GEP into
/// it with a run-time index. False when neither: only constant-index
/// accesses, which ptxas keeps in registers.
bool localArrayCause(const llvm::AllocaInst &AI, LocalArray &Out);

/// What an access's instruction says that its pointer does not: the state
/// space of an inline-asm `ld.global` through a generic pointer, its `.nc`,
/// and whether the access counts its own instruction (inline asm's are
/// counted with the rest of its PTX).
struct AccessFacts {
  std::optional<AddrSpace> Space;
  bool ReadOnly = false;
  bool CountOp = true;
};

class ProfileBuilder {
public:
  ProfileBuilder(llvm::Function &Kernel, llvm::FunctionAnalysisManager &FAM,
                 const LaunchFacts &Facts)
      : Kernel(Kernel), FAM(FAM), Facts(Facts),
        DL(Kernel.getParent()->getDataLayout()) {}

  KernelProfile build();

private:
  llvm::Function &Kernel;
  llvm::FunctionAnalysisManager &FAM;
  const LaunchFacts &Facts;
  const llvm::DataLayout &DL;
  KernelProfile P;
  llvm::SmallPtrSet<const llvm::Function *, 8> OnStack;
  llvm::SmallPtrSet<const llvm::GlobalVariable *, 8> SharedSeen;
  std::vector<const llvm::GlobalVariable *> SharedArrays;
  llvm::DenseMap<const llvm::Loop *, LoopRecord> LoopMemo;
  /// Index in P.Loops of each loop, and the weighted work inside the loops
  /// whose trip count follows a block dimension (for LoopRecord::WorkShare).
  llvm::DenseMap<const llvm::Loop *, size_t> LoopIndex;
  llvm::DenseMap<const llvm::Loop *, double> BlockDimLoopWork;
  /// Global-memory bytes (Count x Bytes) inside each such loop.
  llvm::DenseMap<const llvm::Loop *, double> BlockDimLoopMem;
  double TotalWork = 0, DivergentWork = 0;
  BlockDepAnalysis BlockDeps;
  BlockDepAnalysis ThreadDeps{SReg::Tid};
  unsigned MaxGlobalLoadsPerBlock = 0;
  /// MemAccess::BaseId of each sibling key (siblingKey(): a base pointer
  /// and the variable terms of its last index).
  std::map<SiblingKey, unsigned> BaseIds;
  /// The caller's actual argument of each parameter of a followed device
  /// function: a private array or a shared tile passed down keeps its space
  /// (CLBlast's XgemmBody gets its accumulators and tiles so), a kernel
  /// argument passed down keeps its stated value (trip counts).
  llvm::DenseMap<const llvm::Argument *, const llvm::Value *> ArgActual;
  /// Known alignment (bytes) of the accesses of the block being walked, by
  /// index in P.Accesses: a vector access needs its width's alignment.
  llvm::DenseMap<size_t, uint64_t> AccessAlign;
  /// localArrayCause() of each private array, memoised.
  llvm::DenseMap<const llvm::AllocaInst *, bool> InMemory;
  /// What LSR leaves of the address arithmetic of the function being
  /// walked (set by walk()).
  const StrengthReduction *SR = nullptr;
  /// The function being walked's strides along threadIdx.y and .z.
  std::array<StrideAnalysis *, 2> RowSA{};
  /// Loops with a block of nonzero weight, and the index in P.Guesses of
  /// each guessed loop's guess: a loop that never runs (only a rare
  /// branch's side or a skipped loop reaches it, from every call site) is
  /// no guess (dropGuessesOfLoopsThatNeverRun, after the walk).
  llvm::SmallPtrSet<const llvm::Loop *, 16> LoopsThatRun;
  llvm::DenseMap<const llvm::Loop *, size_t> GuessOf;
  void dropGuessesOfLoopsThatNeverRun();
  bool staysInMemory(const llvm::AllocaInst &AI);
  /// Private arrays the optimised IR keeps in memory, in the kernel and the
  /// device functions it calls that were not inlined, into P.LocalArrays
  /// (FF015's facts) and InMemory; returns the bytes of the kernel's own
  /// static ones.
  uint64_t findLocalArrays();

  /// The object \p Ptr points into, through the parameters of followed
  /// calls.
  const llvm::Value *underlyingObject(const llvm::Value *Ptr) const;
  /// underlyingAddrSpace() through the parameters of followed calls.
  unsigned addrSpaceThroughCalls(const llvm::Value *Ptr) const;

  // IRProfile.cpp: the walk, loop records and shape decisions.
  void walk(llvm::Function &F, double Weight, unsigned Depth);
  /// A guessed count of a loop LLVM unrolled at run time, in source
  /// iterations: its remainder loop's average, the main loop's default over
  /// the unroll factor.
  void guessUnrolled(LoopRecord &R, const llvm::Loop *L,
                     const llvm::SCEV *BTC, llvm::ScalarEvolution &SE);
  /// The main loops of loops unrolled at run time whose counts are
  /// guessed, with their unroll factor.
  llvm::DenseMap<const llvm::Loop *, unsigned> UnrolledBy;
  const LoopRecord &loopRecord(const llvm::Loop *L, llvm::ScalarEvolution &SE,
                               llvm::Function &F, unsigned Depth);
  std::optional<double>
  tripOfFirstBlock(const llvm::Loop *L, const llvm::SCEV *BTC,
                   llvm::ScalarEvolution &SE, llvm::Function &F,
                   unsigned Depth, llvm::ArrayRef<EntryCondition> Conds,
                   const EvalPoint &Ref);
  std::optional<double>
  tripOverEnclosing(const llvm::Loop *L, const llvm::SCEV *BTC,
                    llvm::ScalarEvolution &SE, llvm::Function &F,
                    unsigned Depth, llvm::ArrayRef<EntryCondition> Conds,
                    const EvalPoint &Ref);
  /// Per block of \p F, the share of the reference block's warps that
  /// run it past shrinking thread checks (`if (tid < s)` of a tree
  /// reduction); blocks not listed run on every warp.
  llvm::DenseMap<const llvm::BasicBlock *, double>
  shrinkingCheckShares(llvm::Function &F, const llvm::LoopInfo &LI,
                       llvm::ScalarEvolution &SE,
                       const llvm::DominatorTree &DT);
  /// Where counts are taken: the launch facts, thread 0 of the reference
  /// block (the stated block's x extent, else 256).
  EvalPoint referencePoint(llvm::Function &F, llvm::ScalarEvolution &SE);
  double blockWeight(const llvm::BasicBlock &BB, llvm::LoopInfo &LI,
                     llvm::ScalarEvolution &SE, llvm::Function &F,
                     unsigned Depth);
  void shapeFromBounds();
  void markBlockReuse();
  void decideShape();
  uint64_t tileThreads(const llvm::GlobalVariable &Tile, uint64_t Elements);
  std::array<unsigned, 3> blockFromStrides();
  /// ShapeInfo::TidPitch from the thread-index coefficients of the
  /// kernel's integer and pointer values (tidCoefficients).
  unsigned tidPitch();
  unsigned estimateRegisters(llvm::Function &F);

  // IRClassify.cpp: op classes and memory accesses, by instruction family.
  /// classify()'s dispatch, an llvm::InstVisitor calling the helpers below.
  class ClassifyVisitor;
  void classify(llvm::Instruction &I, double W, StrideAnalysis &SA,
                llvm::LoopInfo &LI, llvm::ScalarEvolution &SE, unsigned Depth,
                bool Divergent);
  void addOp(double W, OpClass C, double N = 1) { P.op(C) += W * N; }
  void addFP(double W, llvm::Type *T, double FlopsPerLane);
  void classifyFAddSub(llvm::Instruction &I, double W);
  void classifyFDiv(llvm::Instruction &I, double W);
  void classifyIntDiv(llvm::Instruction &I, double W);
  void classifyGEP(llvm::Instruction &I, double W);
  void classifyMemory(llvm::Instruction &I, double W, StrideAnalysis &SA,
                      llvm::LoopInfo &LI, llvm::ScalarEvolution &SE);
  void classifyCall(llvm::Instruction &I, double W, StrideAnalysis &SA,
                    llvm::LoopInfo &LI, llvm::ScalarEvolution &SE,
                    unsigned Depth);
  void noteSpecialRegister(SReg R, unsigned Dim);
  void classifyIntrinsic(llvm::Instruction &I, llvm::CallBase &CB,
                         llvm::Function *Callee, llvm::StringRef N, double W,
                         StrideAnalysis &SA, llvm::LoopInfo &LI,
                         llvm::ScalarEvolution &SE);
  void classifyMemIntrinsic(llvm::Instruction &I, llvm::CallBase &CB,
                            double W, StrideAnalysis &SA, llvm::LoopInfo &LI,
                            llvm::ScalarEvolution &SE);
  void classifyNVVM(llvm::Instruction &I, llvm::CallBase &CB,
                    llvm::StringRef N, double W, StrideAnalysis &SA,
                    llvm::LoopInfo &LI, llvm::ScalarEvolution &SE);
  /// One access of \p ValTy at \p Ptr plus \p ByteOffset (a piece of a
  /// copy), counted \p W times.
  void addAccess(llvm::Instruction &I, llvm::Value *Ptr, llvm::Type *ValTy,
                 bool IsStore, bool IsAtomic, double W, StrideAnalysis &SA,
                 llvm::LoopInfo &LI, llvm::ScalarEvolution &SE,
                 int64_t ByteOffset = 0, const AccessFacts &Facts = {});
  // IRInlineAsm.cpp: inline PTX (CUB's loads and shuffles, CUTLASS's mma,
  // ldmatrix and cp.async), counted by the PTX front end's rules.
  void classifyInlineAsm(llvm::Instruction &I, llvm::CallBase &CB, double W,
                         StrideAnalysis &SA, llvm::LoopInfo &LI,
                         llvm::ScalarEvolution &SE);
  /// The counts of one execution of an inline asm text, by its text and
  /// constraints (the PTX front end parses each text once).
  std::map<std::string, KernelProfile> AsmWork;
  /// threadIdx.d is read for more than tests against zero (decideShape:
  /// only such reads bake a block shape into the code).
  bool TidIndexes[3] = {false, false, false};
  void noteSharedUse(const llvm::Value *Ptr);
  void mergeVectorSiblings(size_t Begin);
  unsigned lineOf(const llvm::Instruction &I) const;
};

} // namespace irprof
} // namespace flipflop

#endif // FLIPFLOP_LIB_PROFILE_IRPROFILEBUILDER_H
