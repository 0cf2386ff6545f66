//===- PTXLoopTrip.cpp - PTX counted-loop trip counts ---------------------===//
//
// Trip counts of counted loops: the exit test's induction variable, its
// start, step and bound, evaluated exactly.
//
//===----------------------------------------------------------------------===//
#include "PTXAnalysis.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cmath>

using namespace llvm;

namespace flipflop {
namespace ptx {

int FunctionAnalysis::soleExitingBlock(const Loop &L) const {
  int Found = -1;
  for (unsigned BI : L.Body.members())
    if (llvm::any_of(Blocks[BI].Succs,
                     [&](unsigned Sx) { return !L.Body.test(Sx); })) {
      if (Found >= 0)
        return -1;
      Found = int(BI);
    }
  return Found;
}

std::optional<double> FunctionAnalysis::countedTrip(Loop &L) {
  // Not run at all: the branch before it goes around it (for the thread
  // the count is taken for).
  if (skippedByGuard(L, 0))
    return 0.0;
  std::optional<double> T = countedTripOfExits(L);
  // For thread 0 (at the reference block), when the block's last thread
  // skips it too: a guard on the thread's position (`if (t & 1)`) leaves
  // the block's loop to the threads it lets through.
  unsigned At = AtThread0 | (L.AtRefBlock ? unsigned(AtRefBlock) : 0u);
  if (T && *T > 0 && (L.ThreadStart || L.AtRefBlock)) {
    Loop First = L, Last = L;
    if (skippedByGuard(First, At) && skippedByGuard(Last, At | AtTidLastX)) {
      L.Skipped = true;
      L.ExitDesc = std::move(First.ExitDesc);
      return 0.0;
    }
  }
  return T;
}

std::optional<double> FunctionAnalysis::countedTripOfExits(Loop &L) {
  // Exiting blocks. With several exits (a bounds check turned into an early
  // exit: `for (t = 0; t < T; ++t) if (x + t*s >= n) break;`), each exit
  // whose block runs on every iteration (it dominates every latch) bounds
  // the trip count; the smallest counted bound is used, and is an upper
  // bound when another exit is uncounted.
  SmallVector<unsigned, 4> Exiting, Latches;
  for (unsigned BI : L.Body.members()) {
    const Block &B = Blocks[BI];
    bool Exits = false;
    for (unsigned Sx : B.Succs) {
      if (!L.Body.test(Sx))
        Exits = true;
      if (Sx == L.Header)
        Latches.push_back(BI);
    }
    if (!Exits)
      continue;
    if (B.End == B.Begin)
      return std::nullopt;
    Exiting.push_back(BI);
  }
  if (Exiting.size() == 1)
    return countedTripThrough(L, Exiting.front());
  std::optional<double> Best;
  Loop Chosen = L;
  std::string FirstDesc;
  // The bound the uncounted exits compare with, where they agree and none
  // tests loaded data (the copies of a block-stride loop unrolled with an
  // exit each: guessTrip divides it by the step).
  std::optional<int64_t> Bound;
  bool BoundsAgree = true;
  for (unsigned EB : Exiting) {
    if (!llvm::all_of(Latches, [&](unsigned LB) { return dominates(EB, LB); }))
      continue;
    Loop Try = L;
    std::optional<double> T = countedTripThrough(Try, EB);
    if (FirstDesc.empty())
      FirstDesc = Try.ExitDesc;
    // An exit that tests loaded data (a search's break) leaves the loop
    // guessed; one of no constant bound that does not (clang's copies
    // test `i + 2 * blockDim.x`) leaves the others' bound.
    bool Cont = false;
    int G = exitGuard(L, EB, Cont);
    if (!Try.ConstBound && (G < 0 || (Taints[G] & TMem)))
      BoundsAgree = false;
    if (Try.ConstBound) {
      BoundsAgree &= !Bound || *Bound == *Try.ConstBound;
      Bound = Try.ConstBound;
    }
    if (T && (!Best || *T < *Best)) {
      Best = T;
      Chosen = std::move(Try);
    }
  }
  if (!Best) {
    L.ExitDesc = FirstDesc;
    if (BoundsAgree)
      L.ConstBound = Bound;
    return std::nullopt;
  }
  L.ExitDesc = Chosen.ExitDesc;
  L.ConstBound = Chosen.ConstBound;
  L.IVReg = Chosen.IVReg;
  L.FlagRun = Chosen.FlagRun;
  L.ThreadStart = Chosen.ThreadStart;
  L.AtRefBlock = Chosen.AtRefBlock;
  L.BlockStride = Chosen.BlockStride;
  L.MultiExit = true;
  return Best;
}

/// The predicate register deciding the exit branch ending \p ExitBlock
/// (-1 when there is none), with \p ContinueWhen, the predicate value that
/// stays in the loop.
int FunctionAnalysis::exitGuard(const Loop &L, unsigned ExitBlock,
                                bool &ContinueWhen) const {
  const Instr *Exit = Instrs[Blocks[ExitBlock].End - 1];
  if (!Exit || Exit->Mods[0] != "bra" || Exit->Guard.empty() ||
      Exit->Ops.empty())
    return -1;
  // Continue while (guard == ContinueWhen).
  if (Blocks[ExitBlock].Succs.size() != 2 || Exit->Ops[0].Kind != Operand::Sym)
    return -1;
  auto Taken = LabelBlock.find(Exit->Ops[0].Name);
  if (Taken == LabelBlock.end() || Taken->second == ExitBlock + 1)
    return -1; // the branch goes where it would fall anyway
  bool TakenInLoop = L.Body.test(Taken->second);
  ContinueWhen = TakenInLoop != Exit->GuardNeg;
  return regId(Exit->Guard);
}

/// The instruction in \p ExitBlock that defines the exit predicate \p Pred
/// (exitGuard), -1 when none there. Sets L.ExitDesc to it.
int FunctionAnalysis::exitSetp(Loop &L, unsigned ExitBlock,
                               unsigned Pred) const {
  // The setp defining the guard, in the exiting block.
  const Block &EB = Blocks[ExitBlock];
  int SetpIdx = -1;
  for (unsigned K = EB.End - 1; K-- > EB.Begin;) {
    SmallVector<unsigned, 2> D;
    defsOf(*Instrs[K], D);
    if (std::find(D.begin(), D.end(), (unsigned)Pred) != D.end()) {
      SetpIdx = K;
      break;
    }
  }
  if (SetpIdx < 0)
    return -1;
  const Instr &Setp = *Instrs[SetpIdx];
  std::string D = Setp.Opcode.str();
  for (size_t K = 1; K < Setp.Ops.size(); ++K)
    D += (K == 1 ? " " : ", ") + (Setp.Ops[K].Kind == Operand::Imm
                                      ? std::to_string(Setp.Ops[K].Value)
                                      : Setp.Ops[K].Name.str());
  L.ExitDesc = D;
  return SetpIdx;
}

/// The integer constant \p O holds in loop \p L when no instruction of the
/// loop defines it.
std::optional<int64_t> FunctionAnalysis::constOutside(const Loop &L,
                                                      const Operand &O,
                                                      unsigned At0) const {
  if (O.Kind == Operand::Imm)
    return O.Value;
  if (O.Kind != Operand::Reg)
    return std::nullopt;
  int R = regId(O.Name);
  if (R < 0)
    return std::nullopt;
  for (unsigned K : DefSites[R])
    if (L.Body.test(InstrBlock[K]))
      return std::nullopt;
  if (Vals[R].HasConst)
    return Vals[R].Const;
  // Defined again elsewhere (a remainder loop's counter): the value that
  // reaches the loop.
  return constAt(R, Blocks[L.Header].Begin, 0, At0);
}

/// Whether \p O is the induction variable of \p L (through mov/cvt copies):
/// then \p IV is its register and \p IncIdx its increment. The compared
/// value may be the IV plus a loop-invariant constant (nvcc compares
/// IV + (n % 4 - n) with 0 after unrolling): that constant, \p Offset,
/// moves the bound. \p ChangeIdx: the instruction that changes the IV,
/// its increment, or the copy back from its successor when clang steps a
/// copy (`add %n, %i, 256; setp %i; mov %i, %n`: the test reads the value
/// before the step although the add precedes it). \p At0: the
/// substitutions (constAt) that make the offset a constant, e.g. thread 0
/// for `tid + i` where the loop counts i.
int FunctionAnalysis::loopCopyOf(const Loop &L, const Operand &Op,
                                 int R) const {
  int X = Op.Kind == Operand::Reg ? regId(Op.Name) : -1;
  if (X < 0 || R < 0)
    return -1;
  // Up to three hops: clang's round trip through 64 bits (`cvt.s64.s32
  // %rd, %r; cvt.u32.u64 %x, %rd`) is a copy of %r.
  int Outer = -1;
  for (unsigned Hop = 0; Hop < 3 && X >= 0; ++Hop) {
    int Def = soleLoopDef(L, X);
    if (Def < 0)
      return -1;
    const Instr &M = *Instrs[Def];
    bool Copy = (M.Mods[0] == "mov" || M.Mods[0] == "cvt") &&
                M.Guard.empty() && M.Ops.size() == 2 &&
                M.Ops[1].Kind == Operand::Reg && !M.hasMod("f16") &&
                !M.hasMod("f32") && !M.hasMod("f64") && !M.hasMod("bf16");
    if (!Copy)
      return -1;
    if (Outer < 0)
      Outer = Def;
    X = regId(M.Ops[1].Name);
    if (X == R)
      return Outer;
  }
  return -1;
}

std::optional<int64_t> FunctionAnalysis::stepPerPass(unsigned R, const Loop &L,
                                                     unsigned Depth) const {
  if (Depth > 12 || R >= DefSites.size())
    return std::nullopt;
  int K = soleLoopDef(L, int(R));
  if (K < 0)
    return llvm::any_of(DefSites[R],
                        [&](unsigned D) { return L.Body.test(InstrBlock[D]); })
               ? std::nullopt
               : std::optional<int64_t>(0); // Defined outside: the same.
  const Instr &I = *Instrs[K];
  StringRef B = I.Mods[0];
  // A predicated definition, or one not on every pass (`if (c) p += 4`),
  // moves the register by no fixed step.
  if (isFloatType(I.Mods.back()) || !I.Guard.empty() ||
      !runsOncePerPass(L, unsigned(K)))
    return std::nullopt;
  auto Of = [&](size_t X) -> std::optional<int64_t> {
    if (X >= I.Ops.size())
      return std::nullopt;
    const Operand &O = I.Ops[X];
    if (O.Kind == Operand::Imm)
      return 0;
    if (O.Kind != Operand::Reg)
      return std::nullopt;
    int Id = regId(O.Name);
    if (Id < 0) // A special register: the same on every pass.
      return 0;
    return stepPerPass(unsigned(Id), L, Depth + 1);
  };
  auto Const = [&](size_t X) -> std::optional<int64_t> {
    return X < I.Ops.size() ? constOutside(L, I.Ops[X]) : std::nullopt;
  };
  // The loop's counter: `add R, R, C` (either side), its one definition in
  // the loop.
  if (B == "add" && I.Ops.size() == 3)
    for (unsigned Side = 1; Side <= 2; ++Side)
      if (I.Ops[Side].Kind == Operand::Reg && regId(I.Ops[Side].Name) == int(R))
        return Const(3 - Side);
  if (B == "sub" && I.Ops.size() == 3 && I.Ops[1].Kind == Operand::Reg &&
      regId(I.Ops[1].Name) == int(R))
    if (auto C = Const(2))
      return -*C;
  if (B == "mov" || B == "cvta" || B == "cvt")
    return I.Ops.size() == 2 ? Of(1) : std::nullopt;
  if ((B == "add" || B == "sub") && I.Ops.size() == 3) {
    auto X = Of(1), Y = Of(2);
    if (!X || !Y)
      return std::nullopt;
    return B == "add" ? *X + *Y : *X - *Y;
  }
  if (B == "shl" && I.Ops.size() == 3 && I.Ops[2].Kind == Operand::Imm &&
      I.Ops[2].Value >= 0 && I.Ops[2].Value < 32)
    if (auto X = Of(1))
      return *X * (int64_t(1) << I.Ops[2].Value);
  if ((B == "mul" || B == "mad") && (I.hasMod("lo") || I.hasMod("wide")) &&
      I.Ops.size() >= 3) {
    // One factor the same on every pass and known: the other's step times it.
    std::optional<int64_t> P;
    if (auto C = Const(2); C && (P = Of(1)))
      P = *P * *C;
    else if (auto C1 = Const(1); C1 && (P = Of(2)))
      P = *P * *C1;
    else
      P = std::nullopt;
    if (!P || B == "mul")
      return P;
    if (auto Z = Of(3))
      return *P + *Z;
  }
  return std::nullopt;
}

int FunctionAnalysis::soleLoopDef(const Loop &L, int Reg) const {
  int Def = -1;
  for (unsigned K : DefSites[Reg])
    if (L.Body.test(InstrBlock[K])) {
      if (Def >= 0)
        return -1;
      Def = int(K);
    }
  return Def;
}

bool FunctionAnalysis::traceIV(const Loop &L, const Operand &O, int &IV,
                               int &IncIdx, int64_t &Offset, int &ChangeIdx,
                               unsigned At0, bool OffsetCopy) const {
  if (O.Kind != Operand::Reg)
    return false;
  int R = regId(O.Name);
  Offset = 0;
  for (unsigned Hop = 0; R >= 0 && Hop < 4; ++Hop) {
    SmallVector<unsigned, 2> InLoopDefs;
    for (unsigned K : DefSites[R])
      if (L.Body.test(InstrBlock[K]))
        InLoopDefs.push_back(K);
    if (InLoopDefs.size() != 1)
      return false;
    const Instr &D = *Instrs[InLoopDefs[0]];
    StringRef B = D.Mods[0];
    if ((B == "mov" || B == "cvt") && D.Ops.size() == 2 &&
        D.Ops[1].Kind == Operand::Reg) {
      int Next = regId(D.Ops[1].Name);
      // R = copy of Next, Next = R + c: R is the IV, stepped through Next.
      int NextDef = Next >= 0 ? soleLoopDef(L, Next) : -1;
      if ((Offset == 0 || OffsetCopy) && NextDef >= 0) {
        const Instr &A = *Instrs[NextDef];
        if ((A.Mods[0] == "add" || A.Mods[0] == "sub") && A.Ops.size() == 3 &&
            A.Ops[1].Kind == Operand::Reg && regId(A.Ops[1].Name) == R) {
          IV = R;
          IncIdx = NextDef;
          ChangeIdx = InLoopDefs[0];
          return true;
        }
      }
      R = Next;
      continue;
    }
    if ((B == "add" || B == "sub") && D.Ops.size() == 3) {
      // `%x` a copy of R made at the loop's header, before the step
      // (`header: mov %j, %r; latch: add %r, %j, 2; setp %r`): R steps
      // itself through the copy. (A copy back after the step, clang's `add
      // %n, %i, 256; setp; mov %i, %n`, is the other form, below.)
      auto CopyOfR = [&](const Operand &Op) {
        int XD = loopCopyOf(L, Op, R);
        return XD >= 0 && XD <= int(InLoopDefs[0]) &&
               (InstrBlock[XD] == L.Header ||
                InstrBlock[XD] == InstrBlock[InLoopDefs[0]]);
      };
      bool Self1 = D.Ops[1].Kind == Operand::Reg &&
                   (regId(D.Ops[1].Name) == R || (Offset == 0 && CopyOfR(D.Ops[1])));
      bool Self2 = D.Ops[2].Kind == Operand::Reg &&
                   (regId(D.Ops[2].Name) == R || (Offset == 0 && CopyOfR(D.Ops[2])));
      if (Self1 || (Self2 && B == "add")) {
        IV = R;
        IncIdx = ChangeIdx = InLoopDefs[0];
        return true;
      }
      // An unrolled step: R = A + X, A = A' + X, ... back to R through k
      // adds of the same X (nvcc's grid-stride loop unrolled 4 times,
      // `%r22 = %r27 + %r2; ...; %r27 = %r24 + %r2`): R steps by k X.
      if (B == "add" && Hop == 0 && Offset == 0)
        for (unsigned K = 1; K <= 2; ++K) {
          const Operand &X = D.Ops[3 - K];
          if (D.Ops[K].Kind != Operand::Reg ||
              (X.Kind != Operand::Reg && X.Kind != Operand::Imm))
            continue;
          auto SameX = [&](const Operand &O) {
            return O.Kind == X.Kind &&
                   (X.Kind == Operand::Imm ? O.Value == X.Value
                                           : O.Name == X.Name);
          };
          unsigned Steps = 1;
          int Cur = regId(D.Ops[K].Name);
          while (Cur >= 0 && Cur != R && Steps < 16) {
            int CD = soleLoopDef(L, Cur);
            if (CD < 0 || Instrs[CD]->Mods[0] != "add" ||
                Instrs[CD]->Ops.size() != 3 || !Instrs[CD]->Guard.empty())
              break;
            const Instr &C = *Instrs[CD];
            int Next = -1;
            for (unsigned J = 1; J <= 2 && Next < 0; ++J)
              if (SameX(C.Ops[3 - J]) && C.Ops[J].Kind == Operand::Reg)
                Next = regId(C.Ops[J].Name);
            Cur = Next;
            ++Steps;
          }
          if (Cur == R && Steps > 1) {
            IV = R;
            IncIdx = ChangeIdx = InLoopDefs[0];
            ChainedSteps[unsigned(IncIdx)] = {Steps, 3 - K};
            return true;
          }
        }
      // R = Other + C (or Other - C) with C constant outside the loop.
      bool Moved = false;
      for (unsigned K = 1; K <= 2; ++K) {
        const Operand &Other = D.Ops[K], &C = D.Ops[3 - K];
        if (Other.Kind != Operand::Reg || (B == "sub" && K == 2))
          continue;
        if (auto V = constOutside(L, C, At0)) {
          Offset += B == "sub" ? -*V : *V;
          R = regId(Other.Name);
          Moved = true;
          break;
        }
      }
      if (R >= 0 && Moved)
        continue;
    }
    // A counter shifted by a constant (`shr.u32 %s, %s, 1`: a tree
    // reduction's stride halved each pass).
    if ((B == "shr" || B == "shl") && D.Ops.size() == 3 && Offset == 0 &&
        D.Ops[1].Kind == Operand::Reg && regId(D.Ops[1].Name) == R &&
        D.Ops[2].Kind == Operand::Imm && D.Ops[2].Value > 0 &&
        D.Ops[2].Value < 64 && D.Guard.empty()) {
      IV = R;
      IncIdx = ChangeIdx = InLoopDefs[0];
      return true;
    }
    return false;
  }
  return false;
}

/// The start value of induction register \p IV: every definition outside
/// the loop is the same constant; with substitutions \p At0 (constAt), the
/// same for thread 0 or at the reference block.
std::optional<int64_t> FunctionAnalysis::ivStart(const Loop &L, unsigned IV,
                                                 unsigned At0) const {
  auto Starts = ivStarts(L, IV, At0);
  if (!Starts || Starts->size() != 1)
    return std::nullopt;
  return Starts->front();
}

/// The distinct start values of induction register \p IV, one per
/// definition outside the loop (sorted); nullopt when one of them is not a
/// constant or there is none. Several values: a loop entered after a
/// prologue that ran some of its iterations (nvcc peels `n % U` iterations
/// of a loop unrolled U times, then enters at the IV each left).
std::optional<SmallVector<int64_t, 4>>
FunctionAnalysis::ivStarts(const Loop &L, unsigned IV, unsigned At0,
                           unsigned Depth, bool SkipDead) const {
  SmallVector<int64_t, 4> Out;
  auto Add = [&](int64_t V) {
    if (!llvm::is_contained(Out, V))
      Out.push_back(V);
    return Out.size() <= 8;
  };
  if (Depth < 3)
    if (auto V = startAfterLoop(L, IV, At0, Depth)) {
      Out.push_back(*V);
      return Out;
    }
  for (unsigned K : DefSites[IV]) {
    if (L.Body.test(InstrBlock[K]) ||
        (SkipDead && !liveInto(L, IV, K)))
      continue;
    const Instr &D = *Instrs[K];
    // At a pinned pass of an enclosing loop (tripOverEnclosing) a copy of
    // that loop's counter holds one value, the pass's (counterAtPass), not
    // each value its definitions give.
    if (PinLoop && PinLoop->Body.test(InstrBlock[K]))
      if (auto V = constOf(K, 0, At0)) {
        if (!Add(*V))
          return std::nullopt;
        continue;
      }
    // A copy of, or a constant added to, a register of several values
    // (the IV a peeled prologue left, moved by the unrolled loop's offset):
    // each of its values.
    if (Depth < 3 && D.Ops.size() >= 2 && D.Ops[1].Kind == Operand::Reg &&
        regId(D.Ops[1].Name) >= 0) {
      StringRef B = D.Mods[0];
      // The offset: 0 for a copy, a constant added or subtracted.
      bool Copy = (B == "mov" || B == "cvt") && D.Ops.size() == 2;
      bool HasOff = Copy;
      int64_t Off = 0;
      unsigned Src = unsigned(regId(D.Ops[1].Name));
      if (!Copy && (B == "add" || B == "sub") && D.Ops.size() == 3) {
        if (auto C = constOutside(L, D.Ops[2])) {
          HasOff = true;
          Off = B == "sub" ? -*C : *C;
        } else if (int R2 = D.Ops[2].Kind == Operand::Reg
                                ? regId(D.Ops[2].Name) : -1;
                   B == "add" && R2 >= 0) {
          // The constant on the left (`add %c, %off, %i`: nvcc's count up
          // to zero from a peeled prologue's counter).
          if (auto C1 = constOutside(L, D.Ops[1])) {
            HasOff = true;
            Off = *C1;
            Src = unsigned(R2);
          }
        }
      }
      // Not so when one of them is not a constant: the definition that
      // reaches the copy, below (the counter of a sibling loop, copied
      // before it ran: clang's unrolled stencil passes); nor for the
      // register's own step before the loop (a peeled iteration, `add %i,
      // %i, 49152`): the value that step makes, below.
      if (HasOff && Src != IV && DefSites[Src].size() > 1) {
        if (auto Vs = ivStarts(L, Src, At0, Depth + 1)) {
          for (int64_t V : *Vs)
            if (!Add(V + Off))
              return std::nullopt;
          continue;
        }
      }
    }
    // The start value: a constant however it is computed (a stated
    // argument rounded down to the unroll factor, say).
    AbsVal Start = eval(D);
    std::optional<int64_t> V;
    if (Start.HasConst)
      V = Start.Const;
    else
      // Where the definition is made (the registers it reads may change
      // between it and the loop).
      V = constOf(K, 0, At0);
    if (!V && !SkipDead)
      // Perhaps a definition the stated arguments rule out (the counter of
      // a version of the loop for another case, nvcc's `n <= 0` copy).
      return ivStarts(L, IV, At0, Depth, /*SkipDead=*/true);
    if (!V || !Add(*V))
      return std::nullopt;
  }
  // Several starts, some set on a path the stated values rule out (mri-q's
  // `if (numK % 2) { ...; k++; }` before its loop, numK even): the one
  // that runs.
  if (Out.size() > 1 && !SkipDead)
    if (auto Live = ivStarts(L, IV, At0, Depth, /*SkipDead=*/true);
        Live && Live->size() == 1)
      return Live;
  if (Out.empty())
    return std::nullopt;
  llvm::sort(Out);
  return Out;
}

bool FunctionAnalysis::liveInto(const Loop &L, unsigned IV,
                                unsigned K) const {
  // From the entry to K's block, then on to the header without passing
  // another unguarded definition of IV, each branch whose predicate is a
  // constant going only its way (not one that reads a thread index: a
  // peeled prologue's branches on the thread's position choose each
  // thread's start, and the block runs them all; nor one an enclosing
  // loop's pass or the block's index decides: ConstSucc, taken once).
  auto Walk = [&](unsigned From, unsigned To, bool Kill) {
    std::vector<bool> Seen(Blocks.size(), false);
    SmallVector<unsigned, 16> Work{From};
    Seen[From] = true;
    while (!Work.empty()) {
      unsigned X = Work.pop_back_val();
      int Only = X < ConstSucc.size() ? ConstSucc[X] : -1;
      for (unsigned Sx : Blocks[X].Succs) {
        if ((Only >= 0 && int(Sx) != Only) || Seen[Sx])
          continue;
        if (Sx == To)
          return true;
        Seen[Sx] = true;
        bool Kills = Kill && llvm::any_of(DefSites[IV], [&](unsigned D) {
                       return InstrBlock[D] == Sx && Instrs[D]->Guard.empty();
                     });
        if (!Kills && !L.Body.test(Sx))
          Work.push_back(Sx);
      }
    }
    return false;
  };
  unsigned B = InstrBlock[K];
  // A later definition in its own block overwrites it.
  for (unsigned D : DefSites[IV])
    if (D > K && InstrBlock[D] == B && Instrs[D]->Guard.empty())
      return false;
  return (B == 0 || Walk(0, B, false)) && Walk(B, L.Header, true);
}

/// The value counter \p IV enters \p L with when an earlier counted loop
/// M steps it (`add IV, IV, C` once on every pass of M, its start set
/// before M): nvcc's remainder loop of a loop unrolled U times (`n % U`
/// passes, when U is not a power of two) runs before the unrolled part,
/// which starts where it left the counter. M must come before L (counted
/// already) and every path to L pass M's exit, either through M or
/// around it from the block that decides whether M runs; that decision is
/// evaluated for the representative thread (constAt of its predicate):
/// around M, the start before M; through it, that plus M's passes times C.
std::optional<int64_t> FunctionAnalysis::startAfterLoop(const Loop &L,
                                                        unsigned IV,
                                                        unsigned At0,
                                                        unsigned Depth) const {
  const Loop *M = nullptr;
  int Step = -1;
  for (unsigned K : DefSites[IV]) {
    unsigned B = InstrBlock[K];
    if (L.Body.test(B))
      continue;
    const Loop *In = nullptr;
    for (unsigned LI : Blocks[B].Loops)
      if (!Loops[LI].Body.test(L.Header) &&
          (!In || Loops[LI].Body.count() < In->Body.count()))
        In = &Loops[LI];
    if (!In)
      continue;
    if ((M && M != In) || Step >= 0)
      return std::nullopt;
    M = In;
    Step = int(K);
  }
  // Counted before L (Loops are in RPO of their headers), not guessed.
  if (!M || M >= &L || M->Rec.Guessed || M->Trip != std::floor(M->Trip) ||
      M->Trip < 0)
    return std::nullopt;
  const Instr &D = *Instrs[Step];
  if ((D.Mods[0] != "add" && D.Mods[0] != "sub") || !D.Guard.empty() ||
      D.Ops.size() != 3 || D.Ops[1].Kind != Operand::Reg ||
      regId(D.Ops[1].Name) != int(IV))
    return std::nullopt;
  if (!runsOncePerPass(*M, unsigned(Step)))
    return std::nullopt;
  auto C = constOutside(*M, D.Ops[2], At0);
  if (!C)
    return std::nullopt;
  // M's single exit E, which every path to L passes; M is entered from
  // the block G that dominates it, whose other way goes to E.
  int E = -1;
  for (unsigned BI : M->Body.members())
    for (unsigned Sx : Blocks[BI].Succs)
      if (!M->Body.test(Sx)) {
        if (E >= 0 && E != int(Sx))
          return std::nullopt;
        E = int(Sx);
      }
  if (E < 0 || !dominates(unsigned(E), L.Header))
    return std::nullopt;
  int G = idom(M->Header);
  if (G < 0)
    return std::nullopt;
  bool Skippable = false;
  for (unsigned Sx : Blocks[G].Succs) {
    if (int(Sx) == E) {
      Skippable = true;
      continue;
    }
    // Into M, directly or through a preheader that only leads there.
    if (Sx != M->Header &&
        !(Blocks[Sx].Succs.size() == 1 && Blocks[Sx].Succs[0] == M->Header))
      return std::nullopt;
  }
  bool Runs = true;
  if (Skippable) {
    // Which way G's branch goes for the representative thread.
    std::optional<unsigned> Goes = branchGoes(unsigned(G), At0);
    if (!Goes)
      return std::nullopt;
    Runs = int(*Goes) != E;
  }
  // M's start: what the other definitions set (all the same), before G.
  std::optional<int64_t> S;
  for (unsigned K : DefSites[IV]) {
    if (L.Body.test(InstrBlock[K]) || M->Body.test(InstrBlock[K]))
      continue;
    if (!dominates(InstrBlock[K], M->Header))
      return std::nullopt;
    AbsVal A = eval(*Instrs[K]);
    std::optional<int64_t> V =
        A.HasConst ? std::optional<int64_t>(A.Const) : constOf(K, Depth + 1, At0);
    if (!V || (S && *S != *V))
      return std::nullopt;
    S = V;
  }
  if (!S)
    return std::nullopt;
  if (!Runs)
    return S;
  int64_t By = D.Mods[0] == "sub" ? -*C : *C;
  return *S + int64_t(M->Trip) * By;
}

/// Passes of the exit test `IV Cmp Bound` (the IV on the left, of type
/// \p Ty) that stay in the loop, the IV running Init, Init + Step, ...
/// (one step ahead when \p Post); nullopt beyond 2^20 passes or for an
/// unknown comparison. With \p BoundFollows, the bound is the IV's value
/// plus \p Bound (in the type's arithmetic, so it may wrap): clang's test
/// `i + 256 <u i` of a counter that starts below zero.
/// With \p Shift ("shr" or "shl"), the IV is shifted by StepV bits a pass
/// (`for (s = 128; s > 0; s >>= 1)`, a tree reduction) instead.
static std::optional<int64_t> countPasses(StringRef Cmp, StringRef Ty,
                                          int64_t Bound, int64_t Init,
                                          int64_t StepV, bool Post,
                                          bool ContinueWhen,
                                          bool BoundFollows = false,
                                          StringRef Shift = "") {
  bool Unsigned = Ty.starts_with("u") || Ty.starts_with("b") || Cmp == "lo" ||
                  Cmp == "ls" || Cmp == "hi" || Cmp == "hs";
  unsigned Bits = typeBits(Ty);
  auto Norm = [&](int64_t V) -> int64_t {
    if (Bits == 32)
      return Unsigned ? (int64_t)(uint32_t)V : (int64_t)(int32_t)V;
    return V;
  };
  auto Test = [&](int64_t V) -> std::optional<bool> {
    int64_t A = Norm(V), B = Norm(BoundFollows ? V + Bound : Bound);
    bool LtU = Bits == 64 && Unsigned ? (uint64_t)A < (uint64_t)B : A < B;
    bool EqV = A == B;
    if (Cmp == "eq")
      return EqV;
    if (Cmp == "ne")
      return !EqV;
    if (Cmp == "lt" || Cmp == "lo")
      return LtU;
    if (Cmp == "le" || Cmp == "ls")
      return LtU || EqV;
    if (Cmp == "gt" || Cmp == "hi")
      return !LtU && !EqV;
    if (Cmp == "ge" || Cmp == "hs")
      return !LtU;
    return std::nullopt;
  };
  const int64_t Cap = 1 << 20;
  int64_t Passes = 0;
  // The shifted IV, in the type's width (logical right shifts of .u and
  // .b types; a 64-bit value held as is).
  auto Shifted = [&](int64_t V, int64_t By) -> int64_t {
    if (By >= Bits || By >= 63)
      return 0;
    if (Shift == "shl")
      return Norm(int64_t(uint64_t(V) << By)); // unsigned: no overflow
    if (Bits == 32)
      return Unsigned ? int64_t(uint32_t(V) >> By) : int64_t(int32_t(V) >> By);
    return Unsigned ? int64_t(uint64_t(V) >> By) : V >> By;
  };
  // Past 2^20 passes (a grid-stride loop's elements, counted with one
  // thread in the grid): an ordered test of a sum of steps that does not
  // wrap holds up to one pass and fails after it, so the first failing
  // pass is found by bisection, up to where the sum would leave the type.
  auto longCount = [&]() -> std::optional<int64_t> {
    bool Ordered = Cmp != "eq" && Cmp != "ne";
    if (!Shift.empty() || BoundFollows || !Ordered || StepV == 0 ||
        Norm(Init) != Init)
      return std::nullopt;
    int64_t Lo = Bits == 32 ? (Unsigned ? 0 : INT32_MIN)
                            : (Unsigned ? 0 : INT64_MIN / 2);
    int64_t Hi = Bits == 32 ? (Unsigned ? int64_t(UINT32_MAX) : INT32_MAX)
                            : INT64_MAX / 2;
    int64_t N0 = Post ? 1 : 0;
    int64_t Room = StepV > 0 ? (Hi - Init) / StepV : (Init - Lo) / -StepV;
    int64_t NMax = std::min<int64_t>(Room, int64_t(1) << 40);
    auto Cont = [&](int64_t N) -> std::optional<bool> {
      auto T = Test(Init + N * StepV);
      return T ? std::optional<bool>(*T == ContinueWhen) : std::nullopt;
    };
    std::optional<bool> AtEnd = Cont(NMax);
    if (NMax <= N0 || !AtEnd || *AtEnd)
      return std::nullopt;
    int64_t A = N0, B = NMax; // Cont(A) holds (the passes so far), B fails.
    while (B - A > 1) {
      int64_t M = A + (B - A) / 2;
      std::optional<bool> C = Cont(M);
      if (!C)
        return std::nullopt;
      (*C ? A : B) = M;
    }
    return B - N0;
  };
  for (int64_t K = 1;; ++K) {
    int64_t N = K - 1 + (Post ? 1 : 0);
    int64_t V = Shift.empty() ? Init + N * StepV
                              : Shifted(Init, N >= 64 ? 64 : std::min<int64_t>(64, N * StepV));
    auto T = Test(V);
    if (!T)
      return std::nullopt;
    if (*T != ContinueWhen)
      break;
    if (++Passes > Cap)
      return longCount();
  }
  return Passes;
}

std::optional<unsigned> FunctionAnalysis::branchGoes(unsigned B,
                                                     unsigned At0) const {
  const Block &Bl = Blocks[B];
  if (Bl.Succs.size() != 2 || Bl.End == Bl.Begin)
    return std::nullopt;
  const Instr &Br = *Instrs[Bl.End - 1];
  if (Br.Mods[0] != "bra" || Br.Guard.empty() || Br.Ops.empty() ||
      Br.Ops[0].Kind != Operand::Sym)
    return std::nullopt;
  int P = regId(Br.Guard);
  auto Taken = LabelBlock.find(Br.Ops[0].Name);
  if (P < 0 || Taken == LabelBlock.end())
    return std::nullopt;
  std::optional<int64_t> PV = constAt(unsigned(P), Bl.End - 1, 0, At0);
  if (!PV)
    return std::nullopt;
  bool Jumps = (*PV != 0) != Br.GuardNeg;
  return Jumps ? Taken->second : B + 1;
}

bool FunctionAnalysis::skippedByGuard(Loop &L, unsigned At0) const {
  int D = idom(L.Header);
  for (unsigned Hop = 0; D >= 0 && Hop < 32; ++Hop, D = idom(unsigned(D))) {
    std::optional<unsigned> Goes = branchGoes(unsigned(D), At0);
    if (!Goes || *Goes == L.Header || reaches(*Goes, L.Header, D))
      continue;
    const Instr &Br = *Instrs[Blocks[D].End - 1];
    L.ExitDesc = formatv("skipped: the branch before it ({0}{1} at PTX line "
                         "{2}) goes around it",
                         Br.GuardNeg ? "@!" : "@", Br.Guard, Br.PtxLine)
                     .str();
    L.Skipped = true;
    return true;
  }
  return false;
}

std::optional<double> FunctionAnalysis::countedTripThrough(Loop &L,
                                                           unsigned ExitBlock) {
  bool ContinueWhen = false;
  int Guard = exitGuard(L, ExitBlock, ContinueWhen);
  if (Guard < 0)
    return std::nullopt;
  int SetpIdx = exitSetp(L, ExitBlock, unsigned(Guard));
  if (SetpIdx < 0 || Instrs[SetpIdx]->Mods[0] != "setp")
    // Not a comparison in the exiting block: perhaps a flag.
    return flagTrip(L, unsigned(Guard), ContinueWhen);
  const Instr &Setp = *Instrs[SetpIdx];
  if (Setp.Mods.size() < 3 || Setp.Ops.size() != 3 ||
      !Setp.Ops[0].Regs.empty())
    return std::nullopt;
  StringRef Cmp = Setp.Mods[1], Ty = Setp.Mods.back();
  if (isFloatType(Ty))
    return std::nullopt;
  // Which operand is the induction variable?
  int64_t Offset = 0;
  int IV = -1, IncIdx = -1, IVSide = -1;
  int ChangeIdx = -1;
  if (traceIV(L, Setp.Ops[1], IV, IncIdx, Offset, ChangeIdx))
    IVSide = 1;
  else if (traceIV(L, Setp.Ops[2], IV, IncIdx, Offset, ChangeIdx))
    IVSide = 2;
  // The compared value may be a thread index plus the count (`tid + i <
  // n`, clang's form of `for (e = tid; e < n; e += blockDim.x)`): thread
  // 0's count, at the reference block where the offset needs blockDim.
  unsigned TraceAt = 0;
  for (unsigned At : {unsigned(AtThread0), unsigned(AtThread0 | AtRefBlock)}) {
    if (IVSide >= 0)
      break;
    if (traceIV(L, Setp.Ops[1], IV, IncIdx, Offset, ChangeIdx, At))
      IVSide = 1;
    else if (traceIV(L, Setp.Ops[2], IV, IncIdx, Offset, ChangeIdx, At))
      IVSide = 2;
    if (IVSide >= 0)
      TraceAt = At;
  }
  if (IVSide < 0 && traceIV(L, Setp.Ops[1], IV, IncIdx, Offset, ChangeIdx, 0,
                             /*OffsetCopy=*/true))
    IVSide = 1;
  if (IVSide < 0)
    return std::nullopt;
  const Operand &BoundOp = Setp.Ops[IVSide == 1 ? 2 : 1];
  auto Bound = constOutside(L, BoundOp);
  if (Bound)
    *Bound -= Offset; // IV + Offset cmp B  <=>  IV cmp B - Offset.
  L.ConstBound = Bound;
  // The other side may be the IV's successor, the register its increment
  // defines before the test while the IV itself changes after it (clang's
  // copy back): `add %n, %i, 256; setp.lt.u32 %p, %n, %i; mov %i, %n` runs
  // while i + 256 does not wrap. The bound then follows the IV.
  bool BoundFollows =
      !Bound && Offset == 0 && BoundOp.Kind == Operand::Reg &&
      Instrs[IncIdx]->Ops[0].Kind == Operand::Reg &&
      Instrs[IncIdx]->Ops[0].Name == BoundOp.Name && IncIdx < SetpIdx &&
      InstrBlock[IncIdx] == ExitBlock && ChangeIdx > SetpIdx &&
      InstrBlock[ChangeIdx] == ExitBlock;
  // A bound that follows blockDim (a tile of (blockDim.x + 2R) x
  // (blockDim.y + 2R) elements copied by the block): the count at the
  // reference block, thread 0's, as the IR front end evaluates it.
  unsigned At0 = TraceAt & AtRefBlock;
  if (!Bound && !BoundFollows) {
    Bound = constOutside(L, BoundOp, AtThread0 | AtRefBlock);
    if (Bound) {
      *Bound -= Offset;
      At0 = AtThread0 | AtRefBlock;
    }
  }
  // Step.
  const Instr &Inc = *Instrs[IncIdx];
  // The IV's operand of its increment: the IV, or its copy in the loop.
  auto IsIV = [&](const Operand &Op) {
    return (Op.Kind == Operand::Reg && regId(Op.Name) == IV) ||
           loopCopyOf(L, Op, IV) >= 0;
  };
  StringRef Shift = Inc.Mods[0] == "shr" || Inc.Mods[0] == "shl"
                        ? Inc.Mods[0] : StringRef();
  auto Chained = ChainedSteps.find(unsigned(IncIdx));
  const Operand &StepOp =
      Chained != ChainedSteps.end() ? Inc.Ops[Chained->second.second]
      : !Shift.empty() || IsIV(Inc.Ops[1]) ? Inc.Ops[2]
                                           : Inc.Ops[1];
  auto Step = constOutside(L, StepOp);
  bool StepAtRef = false;
  if (!Step && At0) {
    Step = constOutside(L, StepOp, At0);
    StepAtRef = Step.has_value();
  }
  if (!Step || *Step == 0)
    return std::nullopt;
  if (Chained != ChainedSteps.end())
    *Step *= int64_t(Chained->second.first);
  int64_t StepV = Inc.Mods[0] == "sub" ? -*Step : *Step;
  if ((!Bound && !BoundFollows) || (!Shift.empty() && BoundFollows))
    return std::nullopt;
  // The successor is the IV plus the step.
  int64_t BoundV = BoundFollows ? StepV : *Bound;
  // An IV that is only a copy inside the loop (`header: mov %i, %n; ...
  // latch: add %n, %i, 4; setp %i`, nvcc's form of a loop whose test
  // reads the value before the step): it holds each iteration's own value
  // from the copy on, and starts at what %n holds on entry.
  unsigned StartReg = unsigned(IV);
  bool CopyStart = false;
  {
    const Instr &Ch = *Instrs[ChangeIdx];
    bool DefOutside = llvm::any_of(DefSites[IV], [&](unsigned K) {
      return !L.Body.test(InstrBlock[K]);
    });
    if (!DefOutside && ChangeIdx != IncIdx &&
        (Ch.Mods[0] == "mov" || Ch.Mods[0] == "cvt") && Ch.Ops.size() == 2 &&
        Ch.Ops[1].Kind == Operand::Reg && regId(Ch.Ops[1].Name) >= 0) {
      StartReg = unsigned(regId(Ch.Ops[1].Name));
      CopyStart = true;
    }
  }
  auto Starts = ivStarts(L, StartReg);
  // A block-stride loop starts at a thread index: thread 0 stands for the
  // block, as in the IR front end (the trip is then not exact).
  bool ThreadStart = false;
  if (!Starts) {
    Starts = ivStarts(L, StartReg, AtThread0 | At0);
    ThreadStart = Starts.has_value();
  }
  // A start that follows blockDim (an unrolled loop's remainder over the
  // block's warps, `(blockDim.x / 32 - 1) & 7` passes counted down to
  // zero: llm.c's softmax_forward_kernel4): the count at the reference
  // block, as the IR front end evaluates it.
  if (!Starts && !At0) {
    Starts = ivStarts(L, StartReg, AtThread0 | AtRefBlock);
    if (Starts) {
      ThreadStart = !ivStarts(L, StartReg, AtRefBlock);
      At0 = AtThread0 | AtRefBlock;
    }
  }
  ThreadStart |= TraceAt != 0;
  if (!Starts)
    return std::nullopt;
  // A loop that starts at threadIdx.d (plus terms without a thread index)
  // and steps by a constant: the block's extent along d, divided by the
  // copies of an unrolled loop (ShapeInfo::StrideBlock).
  if (ThreadStart && TraceAt == 0 && !StepAtRef && Shift.empty()) {
    int Dim = -1;
    for (unsigned D = 0; D < 3; ++D) {
      auto At1 = ivStarts(L, StartReg, AtThread0 | At0 | (AtTid1X << D));
      if (!At1 || At1->size() != Starts->size())
        Dim = -2;
      else if (At1->front() - Starts->front() == 1)
        Dim = Dim == -1 ? int(D) : -2;
      else if (At1->front() != Starts->front())
        Dim = -2;
    }
    int64_t Per = (StepV > 0 ? StepV : -StepV) / int64_t(Starts->size());
    if (Dim >= 0 && Per >= 2 && Per <= 1024 &&
        Per * int64_t(Starts->size()) == (StepV > 0 ? StepV : -StepV)) {
      unsigned &B = S.Shape.StrideBlock[Dim];
      if (!B || unsigned(Per) < B)
        B = unsigned(Per);
    }
  }
  // Post-increment compare: the increment precedes the setp in its block, or
  // lies in an earlier block of a bottom-tested loop.
  // The IV changes at ChangeIdx (its increment, or the copy back).
  bool Post;
  if (CopyStart)
    Post = false;
  else if (InstrBlock[ChangeIdx] == ExitBlock)
    Post = ChangeIdx < SetpIdx;
  else if (dominates(ExitBlock, InstrBlock[ChangeIdx]))
    // An exit in the middle of the body, before the step (`if (i == n - 1)
    // break;` above the latch's `++i`): it tests the pass's own value.
    Post = false;
  else
    Post = ExitBlock != L.Header;
  // Entered at one of U starts d apart with a step of U x d: the main part
  // of a loop unrolled U times after a prologue that ran the first `n % U`
  // of its n iterations. Its test passes while the next U iterations are
  // all within the original bound (the value tested, one step on, is
  // within the bound), so the original loop runs from the first start by
  // d. The prologue's U - 1 copies are counted once each (a block's weight
  // does not follow its branches), so the unrolled loop is given the rest,
  // (n - (U - 1)) / U passes: n iterations in all.
  if (Starts->size() > 1 && !Shift.empty())
    return std::nullopt;
  if (Starts->size() > 1) {
    int64_t U = int64_t(Starts->size());
    int64_t D = (*Starts)[1] - (*Starts)[0];
    bool Even = D > 0;
    for (size_t K = 1; K < Starts->size() && Even; ++K)
      Even = (*Starts)[K] - (*Starts)[K - 1] == D;
    if (!Even || BoundFollows || U * D != (StepV > 0 ? StepV : -StepV))
      return std::nullopt;
    int64_t First = StepV > 0 ? Starts->front() : Starts->back();
    int64_t Orig = *Bound + (Post ? 0 : StepV);
    if (IVSide == 2)
      Cmp = StringSwitch<StringRef>(Cmp)
                .Case("lt", "gt").Case("gt", "lt").Case("le", "ge")
                .Case("ge", "le").Case("lo", "hi").Case("hi", "lo")
                .Case("ls", "hs").Case("hs", "ls").Default(Cmp);
    std::optional<int64_t> N = countPasses(Cmp, Ty, Orig, First,
                                           StepV > 0 ? D : -D, false,
                                           ContinueWhen);
    if (!N)
      return std::nullopt;
    L.IVReg = IV;
    L.ThreadStart = ThreadStart;
    L.AtRefBlock = At0 != 0;
    L.BlockStride = StepAtRef;
    return std::max(0.0, double(*N - (U - 1))) / double(U);
  }
  std::optional<int64_t> Init = Starts->front();
  // The header runs once more than the tests that pass, unless the loop is
  // top-tested with its work after the test (then the body runs Passes times).
  bool BottomTested = ExitBlock != L.Header || Post || L.Body.count() == 1;
  // Work in the header ahead of its exit test (`for (...) { b = f(a);
  // __syncthreads(); if (i == n - 1) break; a = b; }`, Rodinia hotspot's
  // pyramid) runs on the pass that leaves too: counted as the header's
  // passes, as the IR front end counts the loop (the work after the test
  // one pass too many).
  if (!BottomTested)
    for (unsigned K = Blocks[L.Header].Begin; K < unsigned(SetpIdx); ++K) {
      const Instr &I = *Instrs[K];
      StringRef B = I.Mods[0];
      if (B == "ld" || B == "st" || B == "atom" || B == "red" || B == "bar" ||
          B == "barrier" || B == "call" || B == "tex" || B == "cp" ||
          B == "mma" || B == "wmma" ||
          llvm::any_of(ArrayRef<StringRef>(I.Mods).drop_front(),
                       [](StringRef M) { return isFloatType(M); })) {
        BottomTested = true;
        break;
      }
    }
  // Swap the comparison when the IV is the right operand.
  if (IVSide == 2)
    Cmp = StringSwitch<StringRef>(Cmp)
              .Case("lt", "gt")
              .Case("gt", "lt")
              .Case("le", "ge")
              .Case("ge", "le")
              .Case("lo", "hi")
              .Case("hi", "lo")
              .Case("ls", "hs")
              .Case("hs", "ls")
              .Default(Cmp);
  std::optional<int64_t> Passes =
      countPasses(Cmp, Ty, BoundV, *Init, StepV, Post, ContinueWhen,
                  BoundFollows, Shift);
  // A counter run to its end value by an equality test that starts there
  // (`for (r = n & 3; r != 0; --r)` with n & 3 == 0) would wrap all the way
  // round: compilers guard such a remainder loop off (the branch around it
  // tests the same value), so it runs no pass.
  bool EqualityTest = (Cmp == "ne" && ContinueWhen) ||
                      (Cmp == "eq" && !ContinueWhen);
  if (!Passes && EqualityTest && !BoundFollows && *Init == BoundV) {
    L.IVReg = IV;
    L.ThreadStart = ThreadStart;
    L.AtRefBlock = At0 != 0;
    L.BlockStride = StepAtRef;
    return 0.0;
  }
  if (!Passes)
    return std::nullopt;
  double Trip = BottomTested ? *Passes + 1 : *Passes;
  L.IVReg = IV;
  L.ThreadStart = ThreadStart;
  L.AtRefBlock = At0 != 0;
  L.BlockStride = StepAtRef;
  return std::max(Trip, 0.0);
}

/// Loops counted by running them: the loop has one exit, in a block that
/// runs on every pass, and every register its exit predicate depends on
/// inside the loop (closed over their operands) has one unguarded integer
/// definition there that runs once on every pass. Those definitions run in
/// order, pass after pass, from the registers' values on entry (ivStart),
/// until the predicate leaves: a counter stepped by something other than a
/// constant sum, which countedTrip does not follow (`s /= 2` as nvcc writes
/// a signed division, `shr.u32 %t, %s, 31; add.s32 %u, %s, %t; shr.s32 %n,
/// %u, 1`, tested on the value before the step; `s = (s + 1) / 2`).
/// Thread 0's count when a value needs a thread index, at the reference
/// block when one needs blockDim; none when a step reads blockDim or gridDim
/// (a block- or grid-stride loop). At most 4,096 passes.
std::optional<double> FunctionAnalysis::steppedTrip(Loop &L) {
  int EBi = soleExitingBlock(L);
  if (EBi < 0)
    return std::nullopt;
  unsigned EB = unsigned(EBi);
  for (unsigned P : Blocks[L.Header].Preds)
    if (L.Body.test(P) && !dominates(EB, P))
      return std::nullopt;
  bool ContinueWhen = false;
  int Guard = exitGuard(L, EB, ContinueWhen);
  if (Guard < 0)
    return std::nullopt;
  int SetpIdx = exitSetp(L, EB, unsigned(Guard));
  if (SetpIdx < 0)
    return std::nullopt;
  // The definitions the predicate depends on in the loop, closed.
  SmallVector<unsigned, 16> Slice;
  SmallVector<unsigned, 16> Work{unsigned(Guard)};
  DenseSet<unsigned> SeenRegs{unsigned(Guard)};
  while (!Work.empty()) {
    unsigned R = Work.pop_back_val();
    int K = soleLoopDef(L, int(R));
    if (K < 0) {
      if (llvm::any_of(DefSites[R], [&](unsigned D) {
            return L.Body.test(InstrBlock[D]);
          }))
        return std::nullopt; // several definitions in the loop
      continue;            // loop invariant
    }
    const Instr &D = *Instrs[K];
    SmallVector<unsigned, 2> Defs;
    defsOf(D, Defs);
    if (!D.Guard.empty() || Defs.size() != 1 || !runsOncePerPass(L, unsigned(K)) ||
        Slice.size() >= 32)
      return std::nullopt;
    for (size_t M = 1; M < D.Mods.size(); ++M)
      if (isFloatType(D.Mods[M]))
        return std::nullopt;
    Slice.push_back(unsigned(K));
    for (size_t Op = 1; Op < D.Ops.size(); ++Op)
      if (D.Ops[Op].Kind == Operand::Reg)
        if (int U = regId(D.Ops[Op].Name); U >= 0 && SeenRegs.insert(U).second)
          Work.push_back(unsigned(U));
  }
  // Every definition runs once a pass, so their blocks lie on one chain of
  // dominators: that order, then the order within a block.
  llvm::sort(Slice, [&](unsigned A, unsigned B) {
    unsigned BA = InstrBlock[A], BB = InstrBlock[B];
    if (BA == BB)
      return A < B;
    return dominates(BA, BB);
  });
  // A counter stepped by blockDim or gridDim (`i += blockDim.x`) is a
  // block- or grid-stride loop's, which the model scales per launch: not
  // counted here. The steps: the definitions of registers carried from one
  // pass to the next.
  // Taint is flow-insensitive (a carried register has its start's), so
  // only the steps' other operands are read: `add %i, %i, %ntid` is a block
  // stride, `s = (s + 1) / 2` from `n / gridDim.x` is not.
  DenseSet<unsigned> SliceRegs;
  for (unsigned K : Slice) {
    SmallVector<unsigned, 2> Defs;
    defsOf(*Instrs[K], Defs);
    SliceRegs.insert(Defs.front());
  }
  {
    DenseSet<unsigned> Defined;
    for (unsigned K : Slice) {
      const Instr &D = *Instrs[K];
      for (size_t Op = 1; Op < D.Ops.size(); ++Op)
        if (D.Ops[Op].Kind == Operand::Reg) {
          int U = regId(D.Ops[Op].Name);
          if (U >= 0 && !Defined.count(unsigned(U)) &&
              soleLoopDef(L, U) >= 0) {
            const Instr &Step = *Instrs[soleLoopDef(L, U)];
            for (size_t SO = 1; SO < Step.Ops.size(); ++SO) {
              const Operand &SOp = Step.Ops[SO];
              int SR = SOp.Kind == Operand::Reg ? regId(SOp.Name) : -1;
              if (SR >= 0 && SliceRegs.count(unsigned(SR)))
                continue;
              if (taintOf(SOp) & (TNTid | TNCtaId))
                return std::nullopt;
            }
          }
        }
      SmallVector<unsigned, 2> Defs;
      defsOf(D, Defs);
      Defined.insert(Defs.front());
    }
  }
  // Registers read before their definition in a pass start at their value
  // on entry.
  auto Entry = [&](unsigned At0) -> std::optional<DenseMap<unsigned, int64_t>> {
    DenseMap<unsigned, int64_t> Regs;
    DenseSet<unsigned> Defined;
    for (unsigned K : Slice) {
      const Instr &D = *Instrs[K];
      for (size_t Op = 1; Op < D.Ops.size(); ++Op) {
        if (D.Ops[Op].Kind != Operand::Reg)
          continue;
        int U = regId(D.Ops[Op].Name);
        if (U < 0 || Defined.count(unsigned(U)) || Regs.count(unsigned(U)) ||
            soleLoopDef(L, U) < 0)
          continue;
        std::optional<int64_t> V = ivStart(L, unsigned(U), At0);
        if (!V)
          return std::nullopt;
        Regs[unsigned(U)] = *V;
      }
      SmallVector<unsigned, 2> Defs;
      defsOf(D, Defs);
      Defined.insert(Defs.front());
    }
    return Regs;
  };
  // Top-tested: the test is in the header and the loop's other blocks do
  // work (not only clang's `bra.uni` back to the header).
  bool WorkAfterTest = false;
  if (EB == L.Header)
    for (unsigned BI : L.Body.members())
      if (BI != L.Header)
        for (unsigned K = Blocks[BI].Begin; K < Blocks[BI].End; ++K)
          WorkAfterTest |= Instrs[K]->Mods[0] != "bra";
  // Run from the entry values, pass after pass; nullopt when a value is
  // unknown or the loop does not leave within MaxPasses.
  auto Run = [&](unsigned At0,
                 DenseMap<unsigned, int64_t> Start) -> std::optional<double> {
    SimLoop = &L;
    SimRegs = std::move(Start);
    std::optional<double> Trip;
    constexpr unsigned MaxPasses = 4096;
    for (unsigned Pass = 1; Pass <= MaxPasses && !Trip; ++Pass) {
      bool Failed = false;
      for (unsigned K : Slice) {
        if (SteppedBudget == 0 || SteppedTotal == 0) {
          Failed = true;
          break;
        }
        --SteppedBudget;
        --SteppedTotal;
        std::optional<int64_t> V = constOf(K, 0, At0);
        if (!V) {
          Failed = true;
          break;
        }
        SmallVector<unsigned, 2> Defs;
        defsOf(*Instrs[K], Defs);
        SimRegs[Defs.front()] = *V;
        if (Defs.front() == unsigned(Guard) && (*V != 0) != ContinueWhen) {
          // Left on this pass: the header ran Pass times; a top-tested
          // loop whose work follows the test runs it once less.
          Trip = double(WorkAfterTest ? Pass - 1 : Pass);
          break;
        }
      }
      if (Failed)
        break;
    }
    SimLoop = nullptr;
    SimRegs.clear();
    return Trip;
  };
  // Exact, else thread 0's, else at the reference block (a bound that
  // follows blockDim, `s < blockDim.x`, or a block's start, `blockIdx.x *
  // blockDim.x`, which tripOfFirstBlock checks at blocks 1 and 8; a step
  // that reads blockDim was refused above).
  unsigned At0 = 0;
  std::optional<double> Trip;
  for (unsigned Try :
       {0u, unsigned(AtThread0), unsigned(AtThread0 | AtRefBlock)}) {
    std::optional<DenseMap<unsigned, int64_t>> Start = Entry(Try);
    if (!Start)
      continue;
    if (skippedByGuard(L, Try))
      Trip = 0;
    else
      Trip = Run(Try, std::move(*Start));
    if (Trip) {
      At0 = Try;
      break;
    }
  }
  if (!Trip)
    return std::nullopt;
  L.ThreadStart = (At0 & AtThread0) != 0;
  L.AtRefBlock = (At0 & AtRefBlock) != 0;
  return Trip;
}

/// Loops run by a flag. The exit tests a predicate that the header copies
/// from a flag; the flag is one constant before the loop and is set to
/// another on every pass (clang's form of `for (t = 0; t < 2; ++t)` when it
/// has folded each pass's values into registers set in the latch):
///
///   mov.pred %f, -1            // before the loop
/// header:  mov.pred %p, %f  ...
/// latch:   mov.pred %f, 0;  @%p bra header;
///
/// One pass when the first value leaves, two when it stays and the later
/// one leaves; otherwise uncounted. Marks the loop FlagRun.
std::optional<double> FunctionAnalysis::flagTrip(Loop &L, unsigned Guard,
                                                 bool ContinueWhen) const {
  auto Split = [&](unsigned R, SmallVectorImpl<unsigned> &In,
                   SmallVectorImpl<unsigned> &Out) {
    for (unsigned K : DefSites[R])
      (L.Body.test(InstrBlock[K]) ? In : Out).push_back(K);
  };
  // The guard's one definition in the loop: an unpredicated copy in the
  // header (it runs first on every pass).
  SmallVector<unsigned, 2> GIn, GOut;
  Split(Guard, GIn, GOut);
  if (GIn.size() != 1 || InstrBlock[GIn[0]] != L.Header)
    return std::nullopt;
  const Instr &Copy = *Instrs[GIn[0]];
  if (Copy.Mods[0] != "mov" || !Copy.Guard.empty() || Copy.Ops.size() != 2 ||
      Copy.Ops[1].Kind != Operand::Reg || Copy.Ops[1].Neg)
    return std::nullopt;
  int Flag = regId(Copy.Ops[1].Name);
  if (Flag < 0 || unsigned(Flag) == Guard)
    return std::nullopt;
  auto ConstPred = [&](unsigned K) -> std::optional<bool> {
    const Instr &D = *Instrs[K];
    if (D.Mods[0] != "mov" || !D.Guard.empty() || D.Ops.size() != 2 ||
        D.Ops[1].Kind != Operand::Imm)
      return std::nullopt;
    return D.Ops[1].Value != 0;
  };
  SmallVector<unsigned, 2> FIn, FOut;
  Split(Flag, FIn, FOut);
  if (FIn.size() != 1 || FOut.empty())
    return std::nullopt;
  std::optional<bool> First;
  for (unsigned K : FOut) {
    std::optional<bool> V = ConstPred(K);
    if (!V || (First && *First != *V))
      return std::nullopt;
    First = V;
  }
  std::optional<bool> Later = ConstPred(FIn[0]);
  if (!Later)
    return std::nullopt;
  // The flag is set on every pass, after the header's copy.
  unsigned SetBlock = InstrBlock[FIn[0]];
  if (SetBlock == L.Header && FIn[0] < GIn[0])
    return std::nullopt;
  for (unsigned BI : L.Body.members())
    for (unsigned Sx : Blocks[BI].Succs)
      if (Sx == L.Header && !dominates(SetBlock, BI))
        return std::nullopt;
  double Trip;
  if (*First != ContinueWhen)
    Trip = 1;
  else if (*Later != ContinueWhen)
    Trip = 2;
  else
    return std::nullopt; // never leaves through this test
  L.ExitDesc = formatv("flag {0}: {1} on the first pass, {2} after",
                       Copy.Ops[1].Name, *First ? "true" : "false",
                       *Later ? "true" : "false")
                   .str();
  L.FlagRun = true;
  return Trip;
}

} // namespace ptx
} // namespace flipflop
