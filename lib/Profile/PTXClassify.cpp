//===- PTXClassify.cpp - PTX instruction classification -------------------===//
//
// The register estimate (liveness), instruction- and memory-level
// parallelism, the classification of every instruction into the profile,
// and the driver of the per-function analysis (FunctionAnalysis::run). The
// rules the IR front end shares (memory, FP width, warp and barrier
// classes, the expansion of division, roots and special functions) are in
// flipflop/Profile/OpRules.h; this file maps PTX mnemonics onto them.
//
//===----------------------------------------------------------------------===//
#include "PTXAnalysis.h"
#include "flipflop/Profile/OpRules.h"
#include "flipflop/Profile/VectorRuns.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

using namespace llvm;

namespace flipflop {
namespace ptx {

void FunctionAnalysis::estimateRegisters() {
  unsigned NR = RegWidth.size(), NB = Blocks.size();
  unsigned Declared = 0;
  for (unsigned W : RegWidth)
    Declared += W;
  if (NR == 0) {
    S.EstimatedRegs = 0;
    return;
  }
  if (uint64_t(NR) * NB > 50000000ull) { // too big: the declared count
    S.EstimatedRegs = std::min(MaxThreadRegisters, Declared);
    return;
  }
  std::vector<BitVector> Use(NB, BitVector(NR)), Def(NB, BitVector(NR)),
      LiveIn(NB, BitVector(NR)), LiveOut(NB, BitVector(NR));
  for (unsigned BI = 0; BI < NB; ++BI)
    for (unsigned K = Blocks[BI].Begin; K < Blocks[BI].End; ++K) {
      SmallVector<unsigned, 8> U, D;
      usesOf(*Instrs[K], U);
      defsOf(*Instrs[K], D);
      for (unsigned R : U)
        if (!Def[BI].test(R))
          Use[BI].set(R);
      if (Instrs[K]->Guard.empty())
        for (unsigned R : D)
          Def[BI].set(R);
    }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned BI = NB; BI-- > 0;) {
      BitVector Out(NR);
      for (unsigned Sx : Blocks[BI].Succs)
        Out |= LiveIn[Sx];
      BitVector In = Out;
      In.reset(Def[BI]);
      In |= Use[BI];
      if (In != LiveIn[BI] || Out != LiveOut[BI]) {
        LiveIn[BI] = std::move(In);
        LiveOut[BI] = std::move(Out);
        Changed = true;
      }
    }
  }
  // Peaks in three orders of each block: the PTX's own, every value
  // computed as early as its operands allow (ptxas hoisting loads for
  // latency) and as late as its first use needs (ptxas sinking them under
  // register pressure). The scheduled orders count a value loaded from a
  // fixed constant address as no register: ptxas makes it an operand of
  // its consumers (FFMA R, R, c[0x3][off], R).
  PressWidth = RegWidth;
  if (TargetSM) {
    BitVector Fixed(NR), Other(NR);
    SmallVector<unsigned, 4> D;
    for (const Instr *I : Instrs) {
      D.clear();
      defsOf(*I, D);
      bool IsFixed = I->Mods[0] == "ld" &&
                     I->hasMod("const") &&
                     I->Ops.size() > 1 && I->Ops[1].Kind == Operand::Addr &&
                     !I->Ops[1].BaseIsReg;
      for (unsigned R : D)
        (IsFixed ? Fixed : Other).set(R);
    }
    Fixed.reset(Other);
    for (unsigned R : Fixed.set_bits())
      PressWidth[R] = 0;
    // A 64-bit register that only addresses shared memory, or only feeds
    // the arithmetic of such registers, is a 32-bit shared address in SASS.
    BitVector SharedAddr(NR);
    for (unsigned R = 0; R < NR; ++R)
      SharedAddr[R] = RegWidth[R] == 2;
    SmallVector<unsigned, 8> U;
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (const Instr *I : Instrs) {
        D.clear();
        defsOf(*I, D);
        StringRef Base = I->Mods[0];
        bool Arith = (Base == "add" || Base == "sub" || Base == "mad" ||
                      Base == "mul" || Base == "shl" || Base == "mov") &&
                     D.size() == 1 && SharedAddr.test(D[0]);
        bool Shared = I->hasMod("shared");
        for (unsigned K = 0; K < I->Ops.size(); ++K) {
          const Operand &O = I->Ops[K];
          bool IsDef = K == 0 && hasDef(*I) && O.Kind != Operand::Addr;
          if (IsDef)
            continue;
          U.clear();
          regsOf(O, U);
          bool Ok = Arith || (Shared && O.Kind == Operand::Addr);
          for (unsigned R : U)
            if (SharedAddr.test(R) && !Ok) {
              SharedAddr.reset(R);
              Changed = true;
            }
        }
        if (!I->Guard.empty()) {
          int G = regId(I->Guard);
          if (G >= 0 && SharedAddr.test(G)) {
            SharedAddr.reset(G);
            Changed = true;
          }
        }
      }
    }
    for (unsigned R : SharedAddr.set_bits())
      PressWidth[R] = 1;
  }
  unsigned Prog = 0, Early = 0, Late = 0, LateReload = 0;
  // Spills under a register cap (SpillCurve): the fewest registers the
  // function fits in and each block's peak in the early order (where the
  // code cannot fit anyway, ptxas schedules for latency and spills what
  // does not fit); without a target, the PTX's own order for both. A
  // register over the cap is held in memory: reloaded where the block reads
  // a value that enters it, stored where it writes one that leaves.
  unsigned Fits = 0;
  std::vector<SpillCurve::Block> SpillBlocks;
  auto AddSpillBlock = [&](unsigned BI, unsigned BlockFits, unsigned Peak) {
    Fits = std::max(Fits, BlockFits + RegisterReserve);
    BitVector Read = LiveIn[BI], Written = LiveOut[BI];
    unsigned In = Read.count(), Out = Written.count();
    Read &= Use[BI];
    Written &= Def[BI];
    double Share = (In ? double(Read.count()) / In : 0.0) +
                   (Out ? double(Written.count()) / Out : 0.0);
    if (Peak + RegisterReserve > MinSpillCap && Share > 0)
      SpillBlocks.push_back({0, Peak + RegisterReserve, Share});
  };
  // Under a cap ptxas recomputes what is cheap rather than hold it.
  std::vector<unsigned> FitWidth = PressWidth;
  if (TargetSM) {
    BitVector Cheap = recomputable();
    for (unsigned R : Cheap.set_bits())
      FitWidth[R] = 0;
  }
  BlockPeak.assign(NB, 0);
  std::vector<unsigned> Order;
  std::vector<unsigned> Unroll =
      TargetSM ? ptxasUnrollFactors() : std::vector<unsigned>(NB, 1);
  for (unsigned BI = 0; BI < NB; ++BI) {
    const Block &B = Blocks[BI];
    Order.clear();
    for (unsigned K = B.Begin; K < B.End; ++K)
      Order.push_back(K);
    BlockPeak[BI] = blockPressure(LiveOut[BI], Order, false, RegWidth);
    Prog = std::max(Prog, BlockPeak[BI]);
    if (TargetSM == 0) {
      AddSpillBlock(BI, BlockPeak[BI], BlockPeak[BI]);
      continue;
    }
    scheduleBlock(BI, /*Early=*/true, Order);
    unsigned E = blockPressure(LiveOut[BI], Order, false, PressWidth);
    // A loop of a constant trip count, at least: of run-time counts ptxas
    // keeps the copies' loads apart (the bundled examples' grid-stride
    // and row loops: 18-24 registers against 29-32 if they were not).
    bool Hoists = Unroll[BI] > 1 && !B.Loops.empty() &&
                  Loops[B.Loops.back()].Rec.Exact;
    for (unsigned K = B.Begin; K < B.End && Hoists; ++K) {
      StringRef Base = Instrs[K]->Mods[0];
      Hoists = !isStoreLike(Base) || Base == "bra" || Base == "ret" ||
               Base == "exit";
    }
    if (Hoists) {
      // ptxas runs u copies of a small loop body at once, their loads
      // hoisted above the copies before them (nothing stored between):
      // what the body adds to the values live through it, u times.
      BitVector Through = LiveIn[BI];
      Through &= LiveOut[BI];
      unsigned T = 0;
      for (unsigned R : Through.set_bits())
        T += PressWidth[R];
      if (E > T)
        E = T + Unroll[BI] * (E - T);
    }
    Early = std::max(Early, E);
    scheduleBlock(BI, /*Early=*/false, Order);
    Late = std::max(Late, blockPressure(LiveOut[BI], Order, false, PressWidth));
    LateReload = std::max(LateReload, blockPressure(LiveOut[BI], Order,
                                                    /*Reload=*/true, PressWidth));
    AddSpillBlock(BI, blockPressure(LiveOut[BI], Order, /*Reload=*/true,
                                    FitWidth),
                  E);
  }
  // ptxas schedules for latency within the registers that let a full SM
  // of threads stay resident (32 a thread where an SM holds 2,048 threads,
  // 40 at 1,536, 64 at 1,024: ptxas 13's counts of the tuning data's
  // kernels cluster there), and beyond them only as far as the code needs
  // (docs/REGISTERS.md, "Scheduling").
  unsigned Est = Prog;
  if (unsigned Budget = fullOccupancyRegisters(TargetSM)) {
    if (Late <= Budget)
      Est = std::max(Late, std::min(Early, Budget));
    else if (LateReload <= Budget)
      Est = Budget; // Reached by loading values again rather than holding.
    else
      Est = Late;
  }
  S.EstimatedRegs =
      std::min(MaxThreadRegisters, std::max(Est + RegisterReserve, 8u));
  S.Spills = SpillCurve();
  S.Spills.Known = true;
  S.Held = heldLoads(Use, PressWidth);
  if (Fits > MinSpillCap)
    for (SpillCurve::Block &B : SpillBlocks) {
      B.Fits = Fits;
      S.Spills.Blocks.push_back(B);
    }
  // Code that needs more than a thread may hold spills (docs/REGISTERS.md,
  // "Spills without ptxas"): S.Spills at MaxThreadRegisters, and the values
  // over the limit at the peak take stack slots, 4 bytes each.
  S.EstimatedSpillFrameBytes = 0;
  if (S.Spills.bytesAt(MaxThreadRegisters) > 0 &&
      Est + RegisterReserve > MaxThreadRegisters)
    S.EstimatedSpillFrameBytes = (Est + RegisterReserve - MaxThreadRegisters) * 4;
}

HeldLoads FunctionAnalysis::heldLoads(ArrayRef<BitVector> Use,
                                     ArrayRef<unsigned> Width) const {
  unsigned NR = RegWidth.size(), NB = Blocks.size();
  // Each register defined once, by a load that takes a register (0 shared,
  // 1 global, 2 another space), and the block of that load.
  enum { NotLoad = -1, Shared, Global, Other };
  std::vector<int> Space(NR, NotLoad);
  std::vector<unsigned> DefBlock(NR, 0), Defs(NR, 0);
  SmallVector<unsigned, 4> D;
  for (unsigned K = 0; K < Instrs.size(); ++K) {
    const Instr &I = *Instrs[K];
    D.clear();
    defsOf(I, D);
    int Sp = NotLoad;
    if (I.Mods[0] == "ld" && !I.hasMod("param"))
      Sp = I.hasMod("shared") ? Shared : I.hasMod("global") ? Global : Other;
    for (unsigned R : D) {
      ++Defs[R];
      Space[R] = Sp;
      DefBlock[R] = InstrBlock[K];
    }
  }
  BitVector Loaded(NR);
  for (unsigned R = 0; R < NR; ++R)
    Loaded[R] = Defs[R] == 1 && Space[R] != NotLoad && Width[R] > 0;
  std::vector<unsigned> Readers(NR, 0);
  unsigned BestBlock = NB, BestN = 0;
  for (unsigned BI = 0; BI < NB && BI < Use.size(); ++BI) {
    BitVector H = Use[BI];
    H &= Loaded;
    unsigned N = 0;
    for (unsigned R : H.set_bits())
      if (DefBlock[R] != BI) {
        ++Readers[R];
        ++N;
      }
    if (N > BestN) {
      BestN = N;
      BestBlock = BI;
    }
  }
  HeldLoads Out;
  if (BestBlock == NB)
    return Out;
  BitVector H = Use[BestBlock];
  H &= Loaded;
  for (unsigned R : H.set_bits()) {
    if (DefBlock[R] == BestBlock)
      continue;
    ++Out.Values;
    (Space[R] == Shared ? Out.Shared
                        : Space[R] == Global ? Out.Global : Out.Other)++;
    Out.Readers = std::max(Out.Readers, Readers[R]);
  }
  return Out;
}

BitVector FunctionAnalysis::recomputable() const {
  // A value of one definition, made by arithmetic from parameters,
  // constants, special registers (thread and block indices) and other such
  // values, never from memory: ptxas rematerialises it at its uses rather
  // than hold it.
  unsigned NR = RegWidth.size();
  BitVector Cheap(NR);
  SmallVector<unsigned, 8> U;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned R = 0; R < NR; ++R) {
      if (Cheap.test(R) || R >= DefSites.size() || DefSites[R].size() != 1)
        continue;
      const Instr &I = *Instrs[DefSites[R][0]];
      if (!I.Guard.empty())
        continue;
      StringRef Base = I.Mods[0];
      bool FixedLoad = Base == "ld" && I.Ops.size() > 1 &&
                       I.Ops[1].Kind == Operand::Addr &&
                       !I.Ops[1].BaseIsReg &&
                       (I.hasMod("param") || I.hasMod("const"));
      bool Ok = FixedLoad ||
                StringSwitch<bool>(Base)
                    .Cases({"mov", "add", "sub", "mul", "mad", "shl", "shr",
                            "and", "or", "xor", "cvt", "cvta", "neg", "min",
                            "max"},
                           true)
                    .Default(false);
      if (!Ok)
        continue;
      U.clear();
      usesOf(I, U);
      if (llvm::all_of(U, [&](unsigned X) { return Cheap.test(X); })) {
        Cheap.set(R);
        Changed = true;
      }
    }
  }
  return Cheap;
}

unsigned FunctionAnalysis::blockPressure(const BitVector &LiveOut,
                                         ArrayRef<unsigned> Order, bool Reload,
                                         ArrayRef<unsigned> Width) const {
  // With Reload, a load's value used only in this block, after it and with
  // no store or barrier between, is loaded again before each use instead
  // of held (ptxas does so when registers run short): it takes a register
  // only at its use, and the load's address is live there.
  DenseMap<unsigned, unsigned> Reloaded; // register -> its load
  SmallVector<unsigned, 8> U, D;
  if (Reload) {
    DenseMap<unsigned, unsigned> Load;
    DenseSet<unsigned> Held; // Used across a store, or defined twice.
    for (unsigned K : Order) {
      const Instr &In = *Instrs[K];
      StringRef Base = In.Mods[0];
      if (!hasDef(In)) {
        if (Base != "bra" && Base != "ret" && Base != "exit")
          Load.clear(); // A store, barrier or call: no reload across it.
        continue;
      }
      usesAndDefs(In, U, D);
      for (unsigned R : U) {
        auto It = Load.find(R);
        if (It != Load.end())
          Reloaded[R] = It->second;
        else if (Reloaded.count(R))
          Held.insert(R);
      }
      for (unsigned R : D) {
        if (Load.erase(R) || Reloaded.count(R))
          Held.insert(R);
      }
      if (Base == "ld" && In.Guard.empty() && !In.hasMod("volatile") &&
          D.size() == 1 && !LiveOut.test(D[0]))
        Load[D[0]] = K;
    }
    for (unsigned R : Held)
      Reloaded.erase(R);
  }
  BitVector Live = LiveOut;
  unsigned Cur = 0, Peak = 0;
  for (unsigned R : Live.set_bits())
    Cur += Width[R];
  Peak = Cur;
  auto AddLive = [&](unsigned R) {
    if (!Live.test(R)) {
      Live.set(R);
      Cur += Width[R];
    }
  };
  for (unsigned I = Order.size(); I-- > 0;) {
    const Instr &In = *Instrs[Order[I]];
    usesAndDefs(In, U, D);
    if (D.size() == 1) {
      auto It = Reloaded.find(D[0]);
      if (It != Reloaded.end() && It->second == Order[I])
        continue; // Loaded again at each use.
    }
    // Definitions occupy a register at this point even when dead.
    unsigned Here = Cur;
    for (unsigned R : D)
      if (!Live.test(R))
        Here += Width[R];
    SmallVector<unsigned, 8> Addr;
    for (unsigned R : U) {
      auto It = Reloaded.find(R);
      if (It == Reloaded.end())
        continue;
      Here += Width[R];
      usesOf(*Instrs[It->second], Addr);
    }
    Peak = std::max(Peak, Here);
    if (In.Guard.empty())
      for (unsigned R : D)
        if (Live.test(R)) {
          Live.reset(R);
          Cur -= Width[R];
        }
    for (unsigned R : U)
      if (!Reloaded.count(R))
        AddLive(R);
    for (unsigned R : Addr)
      AddLive(R);
    Peak = std::max(Peak, Cur);
  }
  return Peak;
}

void FunctionAnalysis::scheduleBlock(unsigned BI, bool Early,
                                     std::vector<unsigned> &Order) const {
  const Block &B = Blocks[BI];
  Order.clear();
  // Instructions without a register result (stores, barriers, branches,
  // calls) and atomics keep their place; the others move within the
  // stretch between two of them, in dependence order.
  auto Movable = [&](const Instr &In) {
    StringRef Base = In.Mods[0];
    return hasDef(In) && Base != "atom" && Base != "call" &&
           Base != "mbarrier" && Base != "wmma" && Base != "mma" &&
           Base != "wgmma";
  };
  std::vector<unsigned> Level;
  DenseMap<unsigned, unsigned> LastDef; // register -> position in stretch
  DenseMap<unsigned, SmallVector<unsigned, 4>> UsesSince;
  SmallVector<unsigned, 8> U, D;
  unsigned K = B.Begin;
  while (K < B.End) {
    unsigned Lo = K;
    while (K < B.End && Movable(*Instrs[K]))
      ++K;
    unsigned N = K - Lo;
    // Level: Early = depth from the stretch's start, Late = height to its
    // end (negated so that one ascending sort serves both).
    Level.assign(N, 0);
    LastDef.clear();
    UsesSince.clear();
    // Edges J -> I (J before I): operand (I reads what J wrote), anti (J
    // reads what I writes) and output (both write it).
    std::vector<SmallVector<unsigned, 4>> Preds(N);
    for (unsigned I = 0; I < N; ++I) {
      const Instr &In = *Instrs[Lo + I];
      usesAndDefs(In, U, D);
      for (unsigned R : U) {
        auto It = LastDef.find(R);
        if (It != LastDef.end())
          Preds[I].push_back(It->second);
      }
      for (unsigned R : D) {
        auto It = LastDef.find(R);
        if (It != LastDef.end())
          Preds[I].push_back(It->second);
        for (unsigned J : UsesSince[R])
          if (J != I)
            Preds[I].push_back(J);
      }
      for (unsigned R : U)
        UsesSince[R].push_back(I);
      for (unsigned R : D) {
        LastDef[R] = I;
        UsesSince[R].clear();
      }
    }
    if (Early) {
      for (unsigned I = 0; I < N; ++I)
        for (unsigned J : Preds[I])
          Level[I] = std::max(Level[I], Level[J] + 1);
    } else {
      std::vector<unsigned> Height(N, 0);
      for (unsigned I = N; I-- > 0;)
        for (unsigned J : Preds[I])
          Height[J] = std::max(Height[J], Height[I] + 1);
      unsigned Top = 0;
      for (unsigned H : Height)
        Top = std::max(Top, H);
      for (unsigned I = 0; I < N; ++I)
        Level[I] = Top - Height[I];
    }
    std::vector<unsigned> Idx(N);
    for (unsigned I = 0; I < N; ++I)
      Idx[I] = I;
    std::stable_sort(Idx.begin(), Idx.end(), [&](unsigned A, unsigned Bx) {
      return Level[A] < Level[Bx];
    });
    for (unsigned I : Idx)
      Order.push_back(Lo + I);
    if (K < B.End)
      Order.push_back(K++);
  }
}

unsigned fullOccupancyRegisters(unsigned SM) {
  unsigned Threads;
  switch (SM) {
  case 0:
    return 0;
  case 75:
    Threads = 1024;
    break;
  case 86:
  case 89:
  case 120:
  case 121:
    Threads = 1536;
    break;
  default:
    Threads = 2048;
    break;
  }
  return 65536 / Threads / 8 * 8;
}

/// What ptxas (13.0; sm_75, sm_80, sm_86 alike) does with an innermost
/// loop of a small body: a loop of k independent global loads and 4 + 2k +
/// e instructions, its trip count a kernel argument, comes out of ptxas
/// with 8k loads (the body four times in the loop, the rest in its
/// remainder) while the body has at most 40-48 PTX instructions, and with
/// k loads beyond (e = 32 with k = 6; e = 48 with k = 2). nvcc's
/// dedispersion channel loop, which NVVM unrolled by 8 (85 instructions),
/// keeps its 24 loads; clang's, unrolled by 4 (45 instructions), has 20 in
/// the PTX and 80 in the SASS (scripts/sass-histogram.py).
constexpr unsigned PtxasUnrollMaxBody = 48, PtxasUnrollFactor = 4;

std::vector<unsigned> FunctionAnalysis::ptxasUnrollFactors() const {
  std::vector<unsigned> Out(Blocks.size(), 1);
  SmallVector<unsigned, 4> Us, Ds;
  for (unsigned LI = 0; LI < Loops.size(); ++LI) {
    const Loop &L = Loops[LI];
    if (!(L.Trip >= 2))
      continue;
    std::vector<unsigned> Body = L.Body.members();
    unsigned N = 0;
    bool Ok = true;
    for (unsigned BI : Body) {
      const Block &B = Blocks[BI];
      // Innermost only: a block of a nested loop lists it last.
      if (B.Loops.empty() || B.Loops.back() != LI) {
        Ok = false;
        break;
      }
      N += B.End - B.Begin;
      for (unsigned K = B.Begin; K < B.End && Ok; ++K) {
        StringRef Base = Instrs[K]->Mods[0];
        Ok = !(Base == "bar" || Base == "barrier" || Base == "call" ||
               Base == "atom" || Base == "red" || Base == "membar" ||
               Base == "fence");
      }
      for (unsigned At : NoUnrollAt)
        Ok = Ok && !(At >= B.Begin && At < B.End);
    }
    if (!Ok || N > PtxasUnrollMaxBody)
      continue;
    // Unrolling adds loads in flight only when no load's address waits for
    // a load of an earlier pass (a pointer chase): two passes over the
    // body (at most PtxasUnrollMaxBody instructions), a register tainted
    // while it holds loaded data.
    SmallDenseSet<unsigned, 16> Tainted;
    SmallVector<bool, PtxasUnrollMaxBody> Seen(N, false);
    bool Carried = false;
    for (unsigned Pass = 0; Pass < 2 && !Carried; ++Pass) {
      unsigned At = 0; // Position in the body.
      for (unsigned BI : Body)
        for (unsigned K = Blocks[BI].Begin; K < Blocks[BI].End; ++K, ++At) {
          const Instr &I = *Instrs[K];
          Us.clear();
          Ds.clear();
          usesOf(I, Us);
          defsOf(I, Ds);
          bool In = llvm::any_of(Us,
                                 [&](unsigned R) { return Tainted.count(R); });
          bool Load = I.Mods[0] == "ld" || I.Mods[0] == "ldu";
          if (Load && In) {
            if (Pass == 1 && !Seen[At])
              Carried = true;
            Seen[At] = true;
          }
          for (unsigned R : Ds)
            if (Load || In)
              Tainted.insert(R);
            else
              Tainted.erase(R);
        }
    }
    if (Carried)
      continue;
    unsigned F = unsigned(std::min<double>(PtxasUnrollFactor, L.Trip));
    for (unsigned BI : Body)
      Out[BI] = std::max(1u, F);
  }
  return Out;
}

/// Parallelism within a thread, per basic block from its dependence graph:
/// ILP = instructions / longest dependence chain; MLP = global loads /
/// most global loads on one chain. Both averaged over blocks by their
/// loop-weighted instruction (load) counts; capped where the hardware stops
/// gaining (docs/MODEL.md, "Latency"). A small innermost loop's blocks
/// count their load chains over ptxas's unroll factor (ptxasUnrollFactors).
void FunctionAnalysis::analyseParallelism() {
  std::vector<unsigned> Unroll = ptxasUnrollFactors();
  double InstrW = 0, ChainW = 0, LoadW = 0, LoadChainW = 0;
  std::vector<unsigned> Depth(RegWidth.size(), 0), LDepth(RegWidth.size(), 0);
  std::vector<unsigned> Stamp(RegWidth.size(), ~0u);
  for (unsigned BI = 0; BI < Blocks.size(); ++BI) {
    const Block &B = Blocks[BI];
    if (!B.Reachable || B.End == B.Begin || B.Weight <= 0)
      continue;
    unsigned MaxD = 0, MaxL = 0, N = 0, Loads = 0;
    for (unsigned K = B.Begin; K < B.End; ++K) {
      const Instr &I = *Instrs[K];
      SmallVector<unsigned, 4> Us, Ds;
      usesOf(I, Us);
      defsOf(I, Ds);
      unsigned D = 0, L = 0;
      for (unsigned R : Us)
        if (Stamp[R] == BI) {
          D = std::max(D, Depth[R]);
          L = std::max(L, LDepth[R]);
        }
      StringRef Base = I.Mods[0];
      bool GLoad = (Base == "ld" || Base == "ldu") &&
                   (I.hasMod("global") || I.Mods.size() == 2 ||
                    !(I.hasMod("shared") || I.hasMod("local") ||
                      I.hasMod("param") || I.hasMod("const")));
      ++D;
      if (GLoad) {
        ++L;
        ++Loads;
      }
      ++N;
      MaxD = std::max(MaxD, D);
      MaxL = std::max(MaxL, L);
      for (unsigned R : Ds) {
        Depth[R] = D;
        LDepth[R] = L;
        Stamp[R] = BI;
      }
    }
    InstrW += B.Weight * N;
    ChainW += B.Weight * std::max(1u, MaxD);
    if (Loads) {
      LoadW += B.Weight * Loads;
      // ptxas's copies of a small loop's body run their loads side by
      // side: the passes' chains overlap.
      LoadChainW += B.Weight * std::max(1u, MaxL) / Unroll[BI];
    }
  }
  constexpr double MaxILP = 4, MaxMLP = 8;
  if (ChainW > 0)
    S.ILP = std::clamp(InstrW / ChainW, 1.0, MaxILP);
  if (LoadChainW > 0)
    S.MLP = std::clamp(LoadW / LoadChainW, 1.0, MaxMLP);
}

/// An unpredicated integer add or subtract of at most 32 bits, without a
/// carry (`.cc`, part of a wider sum) or saturation.
static bool isNarrowIntAdd(const Instr &I) {
  if ((I.Mods[0] != "add" && I.Mods[0] != "sub") || !I.Guard.empty() ||
      I.Ops.size() != 3 || I.Ops[0].Kind != Operand::Reg || I.hasMod("cc") ||
      I.hasMod("sat"))
    return false;
  for (size_t K = 1; K < I.Mods.size(); ++K) {
    StringRef M = I.Mods[K];
    if (M == "s32" || M == "u32" || M == "s16" || M == "u16")
      return true;
    if (typeBits(M))
      return false;
  }
  return false;
}

/// An unpredicated `mul.wide` (a product twice its operands' width).
static bool isWideMultiply(const Instr &I) {
  return I.Mods[0] == "mul" && I.hasMod("wide") && I.Guard.empty() &&
         I.Ops.size() == 3 && I.Ops[0].Kind == Operand::Reg;
}

/// An unpredicated 64-bit integer add of two operands, without a carry.
static bool isWideAdd(const Instr &I) {
  return I.Mods[0] == "add" && I.Guard.empty() && I.Ops.size() == 3 &&
         I.Ops[0].Kind == Operand::Reg && !I.hasMod("cc") &&
         (I.hasMod("s64") || I.hasMod("u64"));
}

std::vector<FunctionAnalysis::Fold> FunctionAnalysis::findFolded() const {
  std::vector<Fold> Folded(Instrs.size(), Fold::Kept);
  // Each register's uses: their count and the last instruction using it.
  std::vector<unsigned> NumUses(DefSites.size(), 0), User(DefSites.size(), 0);
  SmallVector<unsigned, 8> Us;
  for (unsigned K = 0; K < Instrs.size(); ++K) {
    Us.clear();
    usesOf(*Instrs[K], Us);
    for (unsigned R : Us)
      if (R < NumUses.size()) {
        ++NumUses[R];
        User[R] = K;
      }
  }
  // A constant operand of the SASS instruction: an immediate, a register
  // of known constant value, or a kernel parameter (constant bank).
  auto IsConstant = [&](const Operand &O, unsigned At) {
    if (O.Kind == Operand::Imm)
      return true;
    if (O.Kind != Operand::Reg)
      return false;
    int R = regId(O.Name);
    if (R < 0)
      return false; // special registers (S2R) are registers
    if (constAt(R, At))
      return true;
    if (!F.IsEntry || DefSites[R].size() != 1)
      return false;
    const Instr &D = *Instrs[DefSites[R][0]];
    return D.Mods[0] == "ld" && D.hasMod("param");
  };
  // Adds that already took one in: IADD3 has room for one more input only.
  std::vector<bool> Absorbed(Instrs.size(), false);
  for (const Block &B : Blocks)
    for (unsigned K = B.Begin; K < B.End; ++K) {
      const Instr &I = *Instrs[K];
      if (!isNarrowIntAdd(I) || Absorbed[K])
        continue;
      int D = regId(I.Ops[0].Name);
      if (D < 0 || DefSites[D].size() != 1 || NumUses[D] != 1)
        continue;
      unsigned J = User[D];
      if (J <= K || J >= B.End || !isNarrowIntAdd(*Instrs[J]))
        continue;
      const Instr &U = *Instrs[J];
      // The other input of the use (the folded value is one of its two).
      const Operand *Other = nullptr;
      if (U.Ops[1].Kind == Operand::Reg && U.Ops[1].Name == I.Ops[0].Name)
        Other = &U.Ops[2];
      else if (U.Ops[2].Kind == Operand::Reg && U.Ops[2].Name == I.Ops[0].Name)
        Other = &U.Ops[1];
      if (!Other)
        continue;
      unsigned Constants = IsConstant(I.Ops[1], K) + IsConstant(I.Ops[2], K) +
                           IsConstant(*Other, J);
      if (foldsIntoThreeInputAdd(Constants) && !Absorbed[J]) {
        Folded[K] = Fold::Gone;
        Absorbed[J] = true;
      }
    }
  // A 32 x 32 -> 64-bit product whose every use is a 64-bit add later in
  // its block: ptxas makes each add one IMAD.WIDE with the multiply, the
  // add's other input (a register, parameter or immediate) its addend, and
  // no multiply of its own remains: the multiply counts nothing and each
  // add one integer multiply-add (the IR front end counts such an address
  // as one instruction too, a GEP's index: classifyGEP; docs/MODEL.md,
  // "Wide multiply-adds").
  SmallVector<unsigned, 4> Regs;
  for (const Block &B : Blocks)
    for (unsigned K = B.Begin; K < B.End; ++K) {
      const Instr &I = *Instrs[K];
      if (!isWideMultiply(I))
        continue;
      int D = regId(I.Ops[0].Name);
      if (D < 0 || DefSites[D].size() != 1 || NumUses[D] == 0 ||
          User[D] <= K || User[D] >= B.End)
        continue;
      auto IsProduct = [&](const Operand &O) {
        return O.Kind == Operand::Reg && O.Name == I.Ops[0].Name;
      };
      SmallVector<unsigned, 4> Adds;
      bool Other = false;
      // Up to the last use; an earlier use outside (K, User] leaves the
      // count short of NumUses.
      for (unsigned J = K + 1; J <= User[D] && !Other; ++J) {
        Regs.clear();
        usesOf(*Instrs[J], Regs);
        if (!llvm::is_contained(Regs, unsigned(D)))
          continue;
        const Instr &U = *Instrs[J];
        if (isWideAdd(U) && IsProduct(U.Ops[1]) != IsProduct(U.Ops[2]))
          Adds.push_back(J); // not x + x
        else
          Other = true;
      }
      if (Other || Adds.size() != NumUses[D])
        continue;
      Folded[K] = Fold::Gone;
      for (unsigned J : Adds)
        Folded[J] = Fold::WideMultiplyAdd;
    }
  return Folded;
}

/// Adds \p N instructions of class \p C, weighted by the block's executions.
void FunctionAnalysis::addOp(const InstrCtx &X, OpClass C, double N) {
  S.Ops[static_cast<unsigned>(C)] += N * X.W;
}

/// The state space modifier of the instruction (empty when generic).
static StringRef spaceMod(const Instr &I) {
  for (StringRef M : {"global", "shared", "local", "const", "param"})
    if (I.hasMod(M))
      return M;
  return StringRef();
}

static AddrSpace spaceOf(StringRef Sp) {
  return StringSwitch<AddrSpace>(Sp)
      .Case("global", AddrSpace::Global)
      .Case("shared", AddrSpace::Shared)
      .Case("local", AddrSpace::Local)
      .Case("const", AddrSpace::Const)
      .Case("param", AddrSpace::Param)
      .Default(AddrSpace::Generic);
}

/// Bytes per thread of a load or store of the instruction's type.
static unsigned memBytes(const FunctionAnalysis::InstrCtx &X) {
  uint64_t Bits = X.Ty.empty() ? 32 : typeBits(X.Ty);
  return static_cast<unsigned>(
      std::clamp<uint64_t>(Bits * X.Vec / 8, 1, 1u << 20));
}

/// MemAccess::BlockDims of an address of taint \p T: the block indices it
/// depends on, and whether it depends on loaded data.
static unsigned blockDimsOf(unsigned T) {
  return ((T & TCtaIdX) ? 1u : 0u) | ((T & TCtaIdY) ? 2u : 0u) |
         ((T & TCtaIdZ) ? 4u : 0u) | ((T & TMem) ? AddrDependsOnData : 0u);
}

/// MemAccess::ThreadDims of an address of taint \p T (the lane counts as
/// x).
static unsigned threadDimsOf(unsigned T) {
  return ((T & (TTidX | TLane)) ? 1u : 0u) | ((T & TTidY) ? 2u : 0u) |
         ((T & TTidZ) ? 4u : 0u);
}

/// Records a memory access: its lane pattern from the address register's
/// abstract value, the thread/block dimensions it depends on, and whether
/// the innermost loop around it changes the address.
void FunctionAnalysis::addAccess(const InstrCtx &X, AddrSpace Sp, bool Store,
                                 bool Atomic, unsigned Bytes,
                                 const Operand *AddrOp) {
  const Instr &I = X.I;
  MemAccess A;
  A.Space = Sp;
  A.IsStore = Store;
  A.IsAtomic = Atomic;
  A.ReadOnly = I.hasMod("nc") || X.Base == "ldu";
  A.Bytes = Bytes;
  A.Count = X.W;
  A.Line = I.Loc.Line;
  if (AddrOp && AddrOp->Kind == Operand::Addr) {
    if (!AddrOp->BaseIsReg) {
      A.Pattern = AccessPattern::Uniform;
      A.LoopInvariant = !Blocks[X.BlockIdx].Loops.empty();
      if (!AddrOp->Name.empty())
        S.Symbols.insert(AddrOp->Name);
    } else if (int R = regId(AddrOp->Name); R >= 0) {
      const unsigned T = Taints[R];
      A.BlockDims = blockDimsOf(T);
      A.ThreadDims = threadDimsOf(T);
      A.ThreadDimsKnown = true;
      A.BaseId = unsigned(R) + 1;
      A.Offset = AddrOp->Value;
      // Global siblings by the address's value, not its register: clang
      // computes each guarded tap of a stencil afresh (%rd5 = %rd4 + 4x,
      // %rd6 = %rd4 + 4(x + 1)), which are one base 4 bytes apart. Shared
      // accesses keep their register, whose alignment ptxas proves.
      if (Sp == AddrSpace::Global || Sp == AddrSpace::Generic) {
        A.BaseId = siblingBase(unsigned(R), A.Offset);
        A.FootprintBytes = tableBytes(unsigned(R));
      }
      A.Form = addressForm(unsigned(R), X.BlockIdx, AddrOp->Value);
      if ((Sp == AddrSpace::Global || Sp == AddrSpace::Generic) &&
          (T & TSmooth))
        if (std::optional<SmoothCoordinate> SC =
                smoothCoordinate(unsigned(R), T, A)) {
          SC->Access = S.Accesses.size();
          SC->Addr.K += AddrOp->Value;
          PendingSmooth.push_back(*SC);
        }
      if (A.Form.Known && A.Form.NumLoops > 0 &&
          !A.Form.LoopPerBlockDim[0] && !A.Form.LoopPerGrid[0]) {
        A.InnerLoopStep = A.Form.LoopStep[0];
        A.InnerLoopTrip = A.Form.LoopTrip[0];
      } else if (!Blocks[X.BlockIdx].Loops.empty()) {
        // Without a form (an address the data or a division sets): the
        // step of its register per pass of the innermost loop.
        const Loop &In = Loops[Blocks[X.BlockIdx].Loops.back()];
        if (std::optional<int64_t> St = stepPerPass(unsigned(R), In);
            St && *St) {
          A.InnerLoopStep = *St;
          A.InnerLoopTrip = In.Trip;
        }
      }
      const AbsVal &V = Vals[R];
      if (V.known()) {
        if (V.uniformV()) {
          A.Pattern = AccessPattern::Uniform;
        } else if (V.Mod) {
          // Rows of a tile: a stride within a row, another between rows.
          A.StrideBytes = V.Coef;
          A.LaneMod = V.Mod;
          A.LaneDivStrideBytes = V.Coef2;
          A.Pattern = AccessPattern::Strided;
        } else {
          A.StrideBytes = V.Coef;
          A.Pattern = std::llabs(V.Coef) == (int64_t)Bytes
                          ? AccessPattern::Coalesced
                          : AccessPattern::Strided;
        }
      }
      // The steps between the block's rows and planes, from the address
      // form (a shared tile's row pitch), where it agrees with the lanes'.
      if (A.Form.Known && !A.LaneMod && !A.Form.Lane && !A.Form.Warp &&
          (A.ThreadDims & 6u) &&
          A.Form.Tid[0] == ((A.ThreadDims & 1u) ? A.StrideBytes : 0)) {
        A.RowStepBytes = {A.Form.Tid[1], A.Form.Tid[2]};
        A.RowStepsKnown = true;
      }
      if (!Blocks[X.BlockIdx].Loops.empty()) {
        unsigned Inner = Blocks[X.BlockIdx].Loops.back();
        bool Inv = true;
        for (unsigned K : DefSites[R])
          if (Loops[Inner].Body.test(InstrBlock[K]))
            Inv = false;
        A.LoopInvariant = Inv;
      }
    }
  }
  if (Sp == AddrSpace::Shared) {
    A.BankConflictWays = bankConflictWays(A.Bytes, A.StrideBytes, A.Pattern);
    // A lane stride the loop moves: its conflicts pass by pass.
    if (A.Pattern == AccessPattern::Unknown && AddrOp &&
        AddrOp->Kind == Operand::Addr && AddrOp->BaseIsReg &&
        !(A.BlockDims & AddrDependsOnData))
      if (int R = regId(AddrOp->Name); R >= 0) {
        const Block &B = Blocks[X.BlockIdx];
        for (unsigned K = B.Begin; K < B.End; ++K)
          if (Instrs[K] == &I) {
            if (std::optional<double> W = loopBankWays(
                    unsigned(R), K, X.BlockIdx, AddrOp->Value, Bytes)) {
              A.BankConflictWays = std::max(1u, unsigned(std::lround(*W)));
              A.WaysByPass = true;
            }
            break;
          }
      }
  }
  if (X.BlockIdx < BlockGuards.size())
    A.Guards.assign(BlockGuards[X.BlockIdx].begin(),
                    BlockGuards[X.BlockIdx].end());
  S.Accesses.push_back(A);
}

/// Arithmetic on the instruction's type: FP32/FP64/FP16 with \p Flops
/// floating-point operations per lane, else integer.
void FunctionAnalysis::addArith(const InstrCtx &X, double Flops) {
  StringRef Ty = X.Ty, Base = X.Base;
  unsigned LaneBits = StringSwitch<unsigned>(Ty)
                          .Case("f32", 32)
                          .Case("f64", 64)
                          .Cases({"f16", "bf16", "f16x2", "bf16x2"}, 16)
                          .Default(0);
  if (OpClass C = fpOpClass(LaneBits); C != OpClass::Other) {
    addOp(X, C, X.Lanes);
    flopsOf(S, C) += Flops * X.Lanes * X.W;
  } else if (Base == "mul" || Base == "mad" || Base == "mul24" ||
             Base == "mad24" || Base == "sad" || Base == "madc") {
    addOp(X, OpClass::IntMul);
  } else {
    addOp(X, OpClass::Int);
  }
}

/// The MathType of a PTX type name: f16 and bf16 (and their pairs) use
/// the f32 rules; any integer type is 32- or 64-bit.
static MathType mathTypeOf(StringRef Ty) {
  if (Ty == "f64")
    return MathType::F64;
  if (Ty == "f32")
    return MathType::F32;
  if (isFloatType(Ty))
    return MathType::F16;
  return typeBits(Ty) == 64 ? MathType::S64 : MathType::S32;
}

/// Division, remainder and the special functions: the shared expansion
/// table (OpRules.cpp).
bool FunctionAnalysis::classifyDivSFU(const InstrCtx &X) {
  const Instr &I = X.I;
  StringRef Ty = X.Ty;
  std::optional<MathOp> Op = ptxMathOp(X.Base, isFloatType(Ty));
  if (!Op)
    return false;
  // Only f32 and f64 have IEEE forms (div.rn, div.full is approximate); the
  // special functions are approximate only.
  bool Approx = I.hasMod("approx") || I.hasMod("full") ||
                *Op == MathOp::Transcendental || !(Ty == "f32" || Ty == "f64");
  const MathRule &R = mathRule(*Op, mathTypeOf(Ty), Approx);
  for (const OpCount &C : R.ops())
    addOp(X, C.Class, C.N * X.Lanes);
  if (R.Flops)
    flopsOf(S, R.flopClass()) += R.Flops * X.Lanes * X.W;
  return true;
}

/// Integer logic, bit manipulation, selects and SIMD video instructions.
static bool isIntLogic(StringRef Base) {
  return Base == "and" || Base == "or" || Base == "xor" || Base == "not" ||
         Base == "cnot" || Base == "shl" || Base == "shr" || Base == "lop3" ||
         Base == "bfe" || Base == "bfi" || Base == "bfind" || Base == "brev" ||
         Base == "clz" || Base == "popc" || Base == "prmt" || Base == "shf" ||
         Base == "bmsk" || Base == "szext" || Base == "fns" || Base == "selp" ||
         Base == "slct" || Base == "cvta" || Base == "isspacep" ||
         Base == "vadd" || Base == "vsub" || Base == "vabsdiff" ||
         Base == "vmin" || Base == "vmax" || Base == "vshl" || Base == "vshr" ||
         Base == "vset" || Base == "vadd2" || Base == "vsub2" ||
         Base == "vavrg2" || Base == "vabsdiff2" || Base == "vmin2" ||
         Base == "vmax2" || Base == "vset2" || Base == "vadd4" ||
         Base == "vsub4" || Base == "vavrg4" || Base == "vabsdiff4" ||
         Base == "vmin4" || Base == "vmax4" || Base == "vset4" ||
         Base == "istypeof";
}

/// Arithmetic, logic, moves and conversions.
bool FunctionAnalysis::classifyALU(const InstrCtx &X) {
  const Instr &I = X.I;
  StringRef Base = X.Base;
  if (Base == "add" || Base == "sub" || Base == "mul" || Base == "addc" ||
      Base == "subc") {
    addArith(X, 1);
  } else if (Base == "fma" || Base == "mad" || Base == "madc") {
    // madc: the extended-precision multiply-add with carry of CUDA's
    // sinf / cosf argument reduction (clang's libdevice code).
    addArith(X, 2);
  } else if (Base == "min" || Base == "max" || Base == "neg" || Base == "abs" ||
             Base == "copysign" || Base == "testp" || Base == "setp" ||
             Base == "set" || Base == "mul24" || Base == "mad24" ||
             Base == "sad") {
    addArith(X, 0);
  } else if (classifyDivSFU(X)) {
    return true;
  } else if (isIntLogic(Base)) {
    addOp(X, OpClass::Int);
  } else if (Base == "vmad" || Base == "dp4a" || Base == "dp2a") {
    addOp(X, OpClass::IntMul);
  } else if (Base == "mov") {
    // Register copies vanish in ptxas; reading a special register (S2R) or a
    // symbol address does not.
    if (I.Ops.size() >= 2 && I.Ops[1].Kind == Operand::Reg &&
        regId(I.Ops[1].Name) < 0 && I.Ops[1].Name.starts_with("%"))
      addOp(X, OpClass::Int);
  } else if (Base == "cvt") {
    bool AnyFloat = false;
    for (StringRef T : X.Types)
      AnyFloat |= isFloatType(T);
    if (AnyFloat) {
      addOp(X, OpClass::Conv,
            X.Types.size() && (X.Types[0].ends_with("x2")) ? 2 : 1);
      // To f32 from an unsigned integer of up to 32 bits or from s32 (not
      // s8/s16, whose sign extension I2FP lacks): KernelProfile::ConvIntToF32.
      if (X.Types.size() == 2 && X.Types[0] == "f32" &&
          (X.Types[1] == "u8" || X.Types[1] == "u16" ||
           X.Types[1] == "u32" || X.Types[1] == "s32"))
        S.ConvIntToF32 += X.W;
    } else
      addOp(X, OpClass::Int);
  } else {
    return false;
  }
  return true;
}

/// Warp-level exchanges, barriers and fences.
bool FunctionAnalysis::classifySync(const InstrCtx &X) {
  const Instr &I = X.I;
  StringRef Base = X.Base;
  std::optional<OpClass> C = syncOpClass(Base, I.hasMod("warp"));
  if (!C)
    return false;
  addOp(X, *C);
  if ((Base == "bar" || Base == "barrier") && !I.hasMod("warp")) {
    unsigned Ids = 16; // a barrier id in a register: any of them
    if (I.Ops.empty())
      Ids = 1;
    else if (I.Ops[0].Kind == Operand::Imm && I.Ops[0].Value >= 0 &&
             I.Ops[0].Value < 16)
      Ids = I.Ops[0].Value + 1;
    S.BarrierIds = std::max(S.BarrierIds, Ids);
  }
  return true;
}

/// A bulk copy's direction (`cp.async.bulk[.tensor.Nd].DST.SRC...`):
/// +1 global to shared, -1 shared to global, 0 anything else (prefetches
/// to L2, copies between shared memories, reductions).
static int bulkDirection(const Instr &I) {
  if (I.Mods.size() < 3 || I.Mods[1] != "async" || I.Mods[2] != "bulk" ||
      I.hasMod("prefetch"))
    return 0;
  SmallVector<StringRef, 2> Spaces;
  for (StringRef M : ArrayRef<StringRef>(I.Mods).drop_front(3))
    if (M == "global" || M.starts_with("shared"))
      Spaces.push_back(M);
  if (Spaces.size() != 2)
    return 0;
  if (Spaces[0].starts_with("shared") && Spaces[1] == "global")
    return 1;
  if (Spaces[0] == "global" && Spaces[1].starts_with("shared"))
    return -1;
  return 0;
}

/// The FLOPs of one issue of tensor-memory MMA \p I and their type, where
/// its instruction descriptor is a constant (\p ValueOf): the fourth
/// operand, the fifth of `.sp` (after its metadata's address), a 32-bit
/// pattern with N / 8 at bits 17-22 and M / 16 at bits 24-28 (PTX ISA,
/// "Instruction descriptor"); K by the kind, twice for `.sp`; a pair of
/// blocks' (`cta_group::2`) shares one issue, half each.
template <typename ValueFn>
static std::optional<std::pair<double, std::string>>
tensorMemoryMMAFlops(const Instr &I, ValueFn ValueOf) {
  size_t At = I.hasMod("sp") ? 4 : 3;
  if (I.Ops.size() <= At)
    return std::nullopt;
  std::optional<int64_t> D = ValueOf(I.Ops[At]);
  if (!D)
    return std::nullopt;
  struct Kind {
    const char *Name;
    unsigned K;
    const char *Type;
  };
  static const Kind Kinds[] = {{"f16", 16, "f16"},     {"tf32", 8, "tf32"},
                               {"f8f6f4", 32, "fp8"},  {"mxf8f6f4", 32, "fp8"},
                               {"i8", 32, "s8"},       {"mxf4", 64, "fp4"},
                               {"mxf4nvf4", 64, "fp4"}};
  // The kind and the CTA group are `::` qualifiers, which Mods drop.
  SmallVector<StringRef, 8> Parts;
  I.Opcode.split(Parts, '.');
  const Kind *Found = nullptr;
  for (StringRef M : Parts)
    if (M.consume_front("kind::"))
      for (const Kind &Kd : Kinds)
        if (M == Kd.Name)
          Found = &Kd;
  if (!Found)
    return std::nullopt;
  uint32_t Bits = uint32_t(*D);
  double N = double((Bits >> 17) & 0x3F) * 8,
         M = double((Bits >> 24) & 0x1F) * 16;
  double Flops = 2 * M * N * Found->K * (I.hasMod("sp") ? 2 : 1);
  if (llvm::is_contained(Parts, "cta_group::2"))
    Flops /= 2;
  if (!(Flops > 0))
    return std::nullopt;
  return std::make_pair(Flops, std::string(Found->Type));
}

void FunctionAnalysis::analyseEngineWork() {
  // Bytes a copy moves: a plain bulk copy names its size (an immediate or
  // a constant register); a tensor copy's box is in its tensor map, which
  // the PTX does not hold, but the mbarrier it completes on is told the
  // bytes to expect (`mbarrier.arrive.expect_tx ... [bar], 16384`): the
  // kernel's expected bytes, less the plain copies', are its tensor
  // copies', shared by their executions.
  double Expected = 0, Plain = 0, TensorRuns = 0;
  bool Untold = false; // An expected count that is not a constant.
  std::vector<const Instr *> Tensors;
  for (unsigned BI = 0; BI < Blocks.size(); ++BI) {
    double W = Blocks[BI].Weight;
    if (!(W > 0))
      continue;
    for (unsigned K = Blocks[BI].Begin; K < Blocks[BI].End; ++K) {
      const Instr &I = *Instrs[K];
      // An immediate or a constant register.
      auto ValueOf = [&](const Operand &O) -> std::optional<int64_t> {
        if (O.Kind == Operand::Imm)
          return O.Value;
        if (O.Kind == Operand::Reg)
          if (int R = regId(O.Name); R >= 0)
            return constAt(unsigned(R), K);
        return std::nullopt;
      };
      // A count of bytes: a positive constant.
      auto BytesOf = [&](const Operand &O) -> std::optional<double> {
        std::optional<int64_t> V = ValueOf(O);
        return V && *V > 0 ? std::optional<double>(double(*V)) : std::nullopt;
      };
      if (I.Mods[0] == "mbarrier" && I.hasMod("expect_tx")) {
        // The count follows the barrier's address.
        for (size_t O = 0; O + 1 < I.Ops.size(); ++O)
          if (I.Ops[O].Kind == Operand::Addr) {
            if (std::optional<double> V = BytesOf(I.Ops[O + 1]))
              Expected += *V * W;
            else
              Untold = true;
            break;
          }
        continue;
      }
      if (I.Mods[0] == "tcgen05" && I.Mods.size() > 1 && I.Mods[1] == "mma") {
        if (auto F = tensorMemoryMMAFlops(I, ValueOf))
          EngineFlops[&I] = *F;
        continue;
      }
      if (I.Mods[0] != "cp" || I.Mods.size() < 3 || I.Mods[1] != "async" ||
          I.Mods[2] != "bulk" || I.hasMod("prefetch"))
        continue;
      int Dir = bulkDirection(I);
      if (I.hasMod("tensor")) {
        if (Dir > 0) {
          TensorRuns += W;
          Tensors.push_back(&I);
        }
        continue;
      }
      // [dst], [src], size, ...: into shared memory (from global memory or
      // another block's shared memory) it completes on an mbarrier, told
      // of its bytes too.
      if (I.Ops.size() >= 3)
        if (std::optional<double> V = BytesOf(I.Ops[2])) {
          if (Dir)
            BulkBytes[&I] = *V;
          if (Dir >= 0 && I.Ops.size() >= 4)
            Plain += *V * W;
        }
    }
  }
  // A count that is not a constant (a kernel argument not stated) leaves
  // the tensor copies' bytes unknown: not a share of the others'.
  if (TensorRuns > 0 && Expected > Plain && !Untold)
    for (const Instr *I : Tensors)
      BulkBytes[I] = (Expected - Plain) / TensorRuns;
}

/// cp.async and its relatives.
void FunctionAnalysis::classifyCopy(const InstrCtx &X) {
  const Instr &I = X.I;
  if (int Dir = bulkDirection(I)) {
    classifyBulkCopy(X, Dir);
    return;
  }
  if (I.Mods.size() > 2 && I.Mods[1] == "async" && I.Mods[2] != "bulk" &&
      I.Mods[2] != "commit_group" && I.Mods[2] != "wait_group" &&
      I.Mods[2] != "wait_all" && I.Mods[2] != "mbarrier") {
    unsigned Bytes = I.Ops.size() >= 3 && I.Ops[2].Kind == Operand::Imm
                         ? (unsigned)std::clamp<int64_t>(I.Ops[2].Value, 1, 16)
                         : 16;
    addOp(X, memOpClass(AddrSpace::Global, false, false));
    addOp(X, memOpClass(AddrSpace::Shared, true, false));
    addAccess(X, AddrSpace::Global, false, false, Bytes,
              I.Ops.size() >= 2 ? &I.Ops[1] : nullptr);
    addAccess(X, AddrSpace::Shared, true, false, Bytes,
              I.Ops.empty() ? nullptr : &I.Ops[0]);
  } else if (I.Mods.size() > 2 &&
             (I.Mods[2] == "wait_group" || I.Mods[2] == "wait_all")) {
    addOp(X, OpClass::Barrier);
  } else {
    addOp(X, OpClass::Other);
  }
}

/// Whether the checks \p Gs (indices into S.Guards) pick threads of a
/// block: a thread index, or the warp split's lane or warp, in one of them.
bool FunctionAnalysis::checksThreads(ArrayRef<unsigned> Gs) const {
  for (unsigned G : Gs) {
    if (G >= S.Guards.size())
      continue;
    if (S.Guards[G].readsThreads())
      return true;
  }
  return false;
}

std::optional<FunctionAnalysis::BulkIssue>
FunctionAnalysis::bulkIssue(const Instr &I, ArrayRef<unsigned> Checks) const {
  auto It = BulkBytes.find(&I);
  if (It == BulkBytes.end())
    return std::nullopt;
  BulkIssue Is;
  Is.Bytes = It->second;
  // Its predicate elects one lane of a warp (`elect.sync`, through
  // `and.pred`s with other conditions).
  bool Elected = false;
  if (int P = I.Guard.empty() ? -1 : regId(I.Guard); P >= 0) {
    SmallVector<unsigned, 8> Work{unsigned(P)};
    for (unsigned Step = 0; Step < 16 && !Work.empty() && !Elected; ++Step) {
      unsigned R = Work.pop_back_val();
      if (R >= DefSites.size())
        continue;
      for (unsigned K : DefSites[R]) {
        const Instr &D = *Instrs[K];
        if (D.Mods[0] == "elect")
          Elected = true;
        else if (D.Mods[0] == "and" && D.hasMod("pred"))
          usesOf(D, Work);
      }
    }
  }
  if (checksThreads(Checks)) {
    // `if (threadIdx.x == 0)`: the threads that pass the checks issue it,
    // as they make a guarded load (the model counts them at each block);
    // one lane of each where it is elected (`if (warp == 0)`, then
    // `elect.sync`).
    Is.Mode = BulkIssue::Checked;
    Is.Lanes = Elected ? 32 : 1;
  } else if (!I.Guard.empty() || I.hasMod("tensor")) {
    // Predicated on an election (`elect.sync`, a warp's lane) that no
    // check holds, or a tensor copy (a block's tile: one issuer): the
    // block's, spread over its threads.
    Is.Mode = BulkIssue::Block;
    unsigned T = F.Bounds.maxThreads();
    Is.Threads = T ? T : 256;
    Is.ThreadsAssumed = !T;
  } else {
    Is.Mode = BulkIssue::EveryThread; // Each thread its own copy.
  }
  return Is;
}

/// A bulk asynchronous copy (TMA) between global and shared memory,
/// \p Dir +1 into shared memory, -1 out of it: the copy engine moves its
/// bytes past the registers, the LSU and the L1. Who issues it
/// (bulkIssue): the threads a check on thread indices lets through, each
/// its copy's bytes (counted by the model as a guarded load is); a single
/// thread the checks do not say (an election, or any tensor copy: a
/// block's tile), the block's bytes counted as its threads copying them
/// together, bytes / (16 x the launch bounds' threads) a thread; or every
/// thread, each its own copy (docs/MODEL.md, "Bulk copies").
void FunctionAnalysis::classifyBulkCopy(const InstrCtx &X, int Dir) {
  const Instr &I = X.I;
  addOp(X, OpClass::Other);
  if (!(X.W > 0))
    return; // Never runs: nothing to count or say.
  bool Tensor = I.hasMod("tensor");
  ArrayRef<unsigned> Checks;
  if (X.BlockIdx < BlockGuards.size())
    Checks = BlockGuards[X.BlockIdx];
  std::optional<BulkIssue> Is = bulkIssue(I, Checks);
  if (!Is) {
    S.Warnings.push_back(
        formatv("{0}PTX line {1}: a bulk asynchronous copy (TMA) of unknown "
                "size is not counted{2}",
                where(), I.PtxLine,
                Tensor ? (Dir > 0 ? " (its mbarriers are told no constant "
                                    "count of bytes)"
                                  : " (a tensor store's box is in its map)")
                       : "")
            .str());
    return;
  }
  if (Is->ThreadsAssumed && !BulkThreadsWarned) {
    BulkThreadsWarned = true;
    S.Warnings.push_back(
        formatv("{0}bulk asynchronous copies are spread over a block of "
                "256 threads (the kernel states no launch bounds)",
                where())
            .str());
  }
  // The global side: its block indices say which blocks read the same
  // data (a tensor copy's coordinates, a plain copy's address).
  const Operand *Global = nullptr;
  if (I.Ops.size() >= 2 && I.Ops[0].Kind == Operand::Addr &&
      I.Ops[1].Kind == Operand::Addr)
    Global = &I.Ops[Dir > 0 ? 1 : 0];
  // A coordinate that follows a block index through a division or a
  // remainder (a 1-D grid cut into tile rows and columns, `blockIdx.x /
  // tilesN`, `% tilesN`; a persistent kernel's tile index) is the same for
  // several blocks: the tile is read again by them, as a tile indexed by
  // the other dimension of a 2-D grid is. Its value (addressPoly) then
  // holds an opaque register that follows a block index, defined by such
  // a step (division, remainder, shift right, mask or bit field: `x - q *
  // (x / q)` too, whose x is also a term).
  unsigned Dims = 0;
  bool Shared = false;
  if (Global) {
    SmallVector<StringRef, 6> Regs(Global->Regs.begin(), Global->Regs.end());
    if (!Tensor && Global->BaseIsReg)
      Regs.push_back(Global->Name);
    for (StringRef N : Regs)
      if (int R = regId(N); R >= 0) {
        unsigned D = blockDimsOf(Taints[R]);
        Dims |= D;
        if (!(D & 7u) || (D & AddrDependsOnData))
          continue;
        for (const auto &MC : addressPoly(unsigned(R)))
          for (const std::string &V : MC.first) {
            unsigned Leaf;
            StringRef Name(V);
            if (!Name.consume_front("r") || Name.getAsInteger(10, Leaf) ||
                Leaf >= Taints.size() || Leaf >= DefSites.size() ||
                DefSites[Leaf].size() != 1 ||
                !(blockDimsOf(Taints[Leaf]) & 7u) ||
                (blockDimsOf(Taints[Leaf]) & AddrDependsOnData))
              continue;
            StringRef Op = Instrs[DefSites[Leaf][0]]->Mods[0];
            Shared |= Op == "div" || Op == "rem" || Op == "shr" ||
                      Op == "and" || Op == "bfe";
          }
      }
  }
  // The shared side is written or read by the copy engine, which the
  // checks do not scale: the block's bytes over its threads (where checks
  // pick the issuers, as where one thread issues it).
  unsigned T = F.Bounds.maxThreads();
  const double SharedCount =
      X.W *
      (Is->Mode == BulkIssue::EveryThread ? Is->Bytes
       : Is->Mode == BulkIssue::Checked   ? Is->Bytes / (T ? T : 256)
                                          : Is->perThread()) /
      16.0;
  for (bool SharedSide : {false, true}) {
    MemAccess A;
    A.Space = SharedSide ? AddrSpace::Shared : AddrSpace::Global;
    A.IsStore = SharedSide == (Dir > 0);
    A.Bytes = 16;
    A.Count = SharedSide ? SharedCount : X.W * Is->perThread() / 16.0;
    A.Pattern = AccessPattern::Coalesced;
    A.StrideBytes = 16;
    A.ThreadDims = 1;
    A.ThreadDimsKnown = true;
    A.BlockDims = SharedSide ? 0 : Dims;
    A.ReusedAcrossBlocks = !SharedSide && Dir > 0 && Shared;
    A.Bulk = true;
    A.Line = I.Loc.Line;
    // The checks it runs behind scale its global side as they scale a
    // load: those on thread indices pick its issuers, those on block
    // indices its blocks.
    if (!SharedSide)
      A.Guards.assign(Checks.begin(), Checks.end());
    S.Accesses.push_back(A);
  }
}

/// Loads, stores, atomics and asynchronous copies.
bool FunctionAnalysis::classifyMemory(const InstrCtx &X) {
  const Instr &I = X.I;
  StringRef Base = X.Base;
  if (Base == "atom" || Base == "red") {
    // Atomics address global, shared or generic memory.
    AddrSpace AS = spaceOf(spaceMod(I));
    if (AS != AddrSpace::Shared && AS != AddrSpace::Global)
      AS = AddrSpace::Generic;
    addOp(X, memOpClass(AS, Base == "red", true));
    addAccess(X, AS, Base == "red", true, memBytes(X), X.AddrOp);
  } else if (Base == "ld" || Base == "ldu" || Base == "st") {
    bool Store = Base == "st";
    AddrSpace AS = spaceOf(spaceMod(I));
    // A constant at a fixed address (`ld.const [sym+off]`) becomes an
    // operand of its consumer in SASS (FFMA R, R, c[0x3][off], R), as a
    // kernel parameter does: no instruction of its own.
    bool AsOperand = AS == AddrSpace::Const && !Store && X.AddrOp &&
                   X.AddrOp->Kind == Operand::Addr && !X.AddrOp->BaseIsReg;
    if (!AsOperand)
      addOp(X, memOpClass(AS, Store, false));
    if (AS != AddrSpace::Param)
      addAccess(X, AS, Store, false, memBytes(X), X.AddrOp);
  } else if (Base == "ldmatrix" || Base == "stmatrix") {
    bool Store = Base == "stmatrix";
    addOp(X, memOpClass(AddrSpace::Shared, Store, false));
    unsigned Num = I.hasMod("x4") ? 4 : I.hasMod("x2") ? 2 : 1;
    addAccess(X, AddrSpace::Shared, Store, false, 4 * Num, X.AddrOp);
  } else if (Base == "cp") {
    classifyCopy(X);
  } else {
    return false;
  }
  return true;
}

/// The mMnNkK shape modifier of a tensor instruction (zeros when absent).
static void tensorShape(const Instr &I, unsigned &Mm, unsigned &Nn,
                        unsigned &Kk) {
  for (StringRef Md : I.Mods) {
    unsigned A, B, C;
    if (Md.size() > 4 && Md[0] == 'm' &&
        sscanf(Md.str().c_str(), "m%un%uk%u", &A, &B, &C) == 3) {
      Mm = A;
      Nn = B;
      Kk = C;
    }
  }
}

/// mma / wgmma.mma_async / wmma.mma: tensor FLOPs per thread by A type.
void FunctionAnalysis::classifyMMA(const InstrCtx &X) {
  const Instr &I = X.I;
  StringRef Base = X.Base;
  addOp(X, OpClass::Tensor);
  unsigned Mm = 0, Nn = 0, Kk = 0;
  tensorShape(I, Mm, Nn, Kk);
  StringRef AType;
  if (Base == "wmma" && X.Types.size() == 2)
    AType = "f16";
  else if (X.Types.size() >= 2)
    AType = X.Types[1];
  else if (!X.Types.empty())
    AType = X.Types[0];
  std::string TT = StringSwitch<std::string>(AType)
                       .Cases({"u8", "s8"}, "s8")
                       .Cases({"u4", "s4"}, "s4")
                       .Cases({"e4m3", "e5m2"}, "fp8")
                       .Default(AType.str());
  double Flops = 2.0 * Mm * Nn * Kk;
  double PerThread = Base == "wgmma" ? Flops / 128 : Flops / 32;
  if (Mm == 8 && Nn == 8 && Kk == 4 && AType == "f16")
    PerThread *= 4; // four quad-pairs each compute an 8x8x4 product
  if (Flops == 0)
    S.Warnings.push_back(formatv("{0}PTX line {1}: tensor instruction "
                                 "without a shape; FLOPs not counted",
                                 where(), I.PtxLine)
                             .str());
  S.TensorFlops += PerThread * X.W;
  S.TensorByType[TT] += PerThread * X.W;
}

/// wmma.load / wmma.store: one fragment, coalesced.
void FunctionAnalysis::classifyWMMAMemory(const InstrCtx &X) {
  const Instr &I = X.I;
  bool Store = I.Mods.size() > 1 && I.Mods[1] == "store";
  StringRef Frag = I.Mods.size() > 2 ? I.Mods[2] : "";
  unsigned Mm = 0, Nn = 0, Kk = 0;
  tensorShape(I, Mm, Nn, Kk);
  uint64_t Elems = Frag == "a"   ? uint64_t(Mm) * Kk
                   : Frag == "b" ? uint64_t(Kk) * Nn
                                 : uint64_t(Mm) * Nn;
  uint64_t Bits = X.Ty.empty() ? 16 : typeBits(X.Ty);
  unsigned Bytes = static_cast<unsigned>(
      std::clamp<uint64_t>(Elems * Bits / 8 / 32, 1, 1u << 20));
  AddrSpace AS = spaceOf(spaceMod(I));
  OpClass C = memOpClass(AS == AddrSpace::Shared || AS == AddrSpace::Global
                             ? AS
                             : AddrSpace::Generic,
                         Store, false);
  addOp(X, C);
  addAccess(X, AS, Store, false, Bytes, nullptr);
  S.Accesses.back().Pattern = AccessPattern::Coalesced;
  S.Accesses.back().StrideBytes = Bytes;
  // The fragment's address is the warp's, not a lane's: only the block
  // indices it depends on are read from it (reuse across blocks), as the
  // IR front end does.
  if (X.AddrOp && X.AddrOp->Kind == Operand::Addr && X.AddrOp->BaseIsReg)
    if (int R = regId(X.AddrOp->Name); R >= 0)
      S.Accesses.back().BlockDims = blockDimsOf(Taints[R]);
  if (AS == AddrSpace::Shared)
    S.Accesses.back().BankConflictWays = 1;
}

/// Blackwell's tensor-memory MMA (`tcgen05.mma`): one thread issues it for
/// the block (or for a pair of blocks), its shape in an instruction
/// descriptor. Its FLOPs are the block's, spread over the launch bounds'
/// threads as a bulk copy's bytes are (docs/MODEL.md, "Bulk copies and
/// mbarrier waits").
void FunctionAnalysis::classifyTensorMemoryMMA(const InstrCtx &X) {
  const Instr &I = X.I;
  addOp(X, OpClass::Tensor);
  if (!(X.W > 0))
    return; // Never runs: nothing to count or say.
  auto It = EngineFlops.find(&I);
  if (It == EngineFlops.end()) {
    S.Warnings.push_back(formatv("{0}PTX line {1}: a tensor-memory MMA "
                                 "whose instruction descriptor is not a "
                                 "constant: its FLOPs are not counted",
                                 where(), I.PtxLine)
                             .str());
    return;
  }
  // One issue's FLOPs: the kernel spreads them over its threads
  // (parsePTXModule), a callee's over its caller's.
  S.EngineIssueFlops += It->second.first * X.W;
  if (S.EngineType.empty())
    S.EngineType = It->second.second;
}

/// Tensor-core instructions.
bool FunctionAnalysis::classifyTensor(const InstrCtx &X) {
  const Instr &I = X.I;
  StringRef Base = X.Base;
  if (Base == "tcgen05" && I.Mods.size() > 1 && I.Mods[1] == "mma") {
    classifyTensorMemoryMMA(X);
    return true;
  }
  if (Base == "mma" || Base == "wgmma" ||
      (Base == "wmma" && I.Mods.size() > 1 && I.Mods[1] == "mma")) {
    if (Base == "wgmma" && (I.Mods.size() < 2 || I.Mods[1] != "mma_async"))
      addOp(X, OpClass::Other); // fence / commit_group / wait_group
    else
      classifyMMA(X);
  } else if (Base == "wmma") { // load / store
    classifyWMMAMemory(X);
  } else {
    return false;
  }
  return true;
}

/// Instructions counted as OpClass::Other without a warning.
static bool isKnownOther(StringRef Base) {
  return Base == "prefetch" || Base == "prefetchu" || Base == "nanosleep" ||
         Base == "trap" || Base == "brkpt" || Base == "pmevent" ||
         Base == "getctarank" || Base == "mapa" || Base == "setmaxnreg" ||
         Base == "griddepcontrol" || Base == "mbarrier" ||
         Base == "tensormap" || Base == "stacksave" || Base == "stackrestore" ||
         Base == "alloca" || Base == "discard" || Base == "applypriority" ||
         Base == "createpolicy" || Base == "txq" || Base == "suq" ||
         Base == "clusterlaunchcontrol" || Base == "multimem" ||
         Base == "tcgen05" || Base == "cp" || Base == "st" || Base == "red" ||
         Base == "ld";
}

/// A texture fetch's texel and lanes (docs/MODEL.md "Texture fetches"):
/// the components the kernel reads of the fetched vector times their size,
/// and the lanes' pattern along the x coordinate, an integer converted to
/// float (`cvt.rn.f32.s32`, plus a constant such as 0.5) or an integer
/// coordinate: adjacent texels for adjacent lanes are a coalesced run.
/// The coordinates' block indices say whether blocks read apart.
void FunctionAnalysis::readTextureFetch(const InstrCtx &X, MemAccess &A) {
  const Instr &I = X.I;
  if (I.Ops.size() < 2 || I.Ops[0].Kind != Operand::Vec ||
      I.Ops[1].Kind != Operand::Addr || I.Ops[1].Regs.empty() ||
      X.Types.empty())
    return;
  // Components read: a destination register some instruction reads (the
  // registers read, gathered once a function).
  if (!ReadRegs) {
    ReadRegs.emplace();
    for (const Instr *J : Instrs)
      for (size_t K = 1; K < J->Ops.size(); ++K) {
        const Operand &O = J->Ops[K];
        if (O.Kind == Operand::Reg)
          ReadRegs->insert(O.Name);
        if (O.Kind == Operand::Vec || O.Kind == Operand::Addr)
          ReadRegs->insert(O.Regs.begin(), O.Regs.end());
        if (O.Kind == Operand::Addr && O.BaseIsReg)
          ReadRegs->insert(O.Name);
      }
  }
  unsigned Elem = std::max(1u, typeBits(X.Types.front()) / 8);
  unsigned Used = 0;
  for (StringRef D : I.Ops[0].Regs)
    Used += ReadRegs->contains(D);
  A.Bytes = std::max(1u, Used) * Elem;
  // The integer behind a coordinate.
  auto IntOf = [&](StringRef Name) -> int {
    int R = regId(Name);
    for (unsigned Hop = 0; R >= 0 && Hop < 4; ++Hop) {
      if (DefSites[R].size() != 1)
        return -1;
      const Instr &D = *Instrs[DefSites[R][0]];
      StringRef B = D.Mods[0];
      bool FloatDest = D.Mods.size() >= 2 && isFloatType(D.Mods[1]);
      if (B == "cvt" && D.Ops.size() == 2 && D.Ops[1].Kind == Operand::Reg &&
          !isFloatType(D.Mods.back()))
        return regId(D.Ops[1].Name);
      if (!FloatDest && !isFloatType(D.Mods.back()))
        return R; // An integer coordinate.
      // x + 0.5 (a texel's centre): the other operand.
      if (B == "add" && D.Ops.size() == 3 &&
          (D.Ops[2].Kind == Operand::FImm || D.Ops[1].Kind == Operand::FImm)) {
        const Operand &O = D.Ops[2].Kind == Operand::FImm ? D.Ops[1] : D.Ops[2];
        R = O.Kind == Operand::Reg ? regId(O.Name) : -1;
        continue;
      }
      if (B == "mov" && D.Ops.size() == 2 && D.Ops[1].Kind == Operand::Reg) {
        R = regId(D.Ops[1].Name);
        continue;
      }
      return -1;
    }
    return -1;
  };
  // The indices every coordinate reads: threads of other rows read other
  // texels (the y coordinate), blocks read apart.
  unsigned Taint = 0;
  bool AllKnown = true;
  for (StringRef C : I.Ops[1].Regs) {
    int R = IntOf(C);
    if (R < 0)
      AllKnown = false;
    else
      Taint |= Taints[R];
  }
  // A layered texture's first coordinate is the layer.
  bool Layered = I.hasMod("a1d") || I.hasMod("a2d") || I.hasMod("acube");
  if (Layered && I.Ops[1].Regs.size() < 2)
    return;
  int RX = IntOf(I.Ops[1].Regs[Layered ? 1 : 0]);
  if (!AllKnown || RX < 0)
    return;
  A.BlockDims = blockDimsOf(Taint);
  A.ThreadDims = threadDimsOf(Taint);
  A.ThreadDimsKnown = true;
  const AbsVal &V = Vals[RX];
  if (!V.known() || V.Mod)
    return;
  if (V.uniformV()) {
    A.Pattern = AccessPattern::Uniform;
    return;
  }
  A.StrideBytes = V.Coef * int64_t(A.Bytes);
  A.Pattern = std::llabs(V.Coef) == 1 ? AccessPattern::Coalesced
                                      : AccessPattern::Strided;
}

/// Textures and surfaces, branches, calls and everything else.
void FunctionAnalysis::classifyOther(const InstrCtx &X) {
  const Instr &I = X.I;
  StringRef Base = X.Base;
  if (Base == "tex" || Base == "tld4" || Base == "suld") {
    addOp(X, OpClass::LoadGlobal);
    addAccess(X, AddrSpace::Global, false, false, memBytes(X), nullptr);
    S.Accesses.back().ReadOnly = Base != "suld";
    if (Base != "suld")
      readTextureFetch(X, S.Accesses.back());
  } else if (Base == "sust" || Base == "sured") {
    addOp(X, OpClass::StoreGlobal);
    addAccess(X, AddrSpace::Global, true, Base == "sured", memBytes(X),
              nullptr);
  } else if (Base == "bra" || Base == "brx" || Base == "ret" ||
             Base == "exit") {
    // An unconditional branch is the layout of the PTX's blocks, which
    // ptxas lays out again (a loop's `@p bra exit; bra.uni head` is one
    // bottom-tested BRA in the SASS): not counted, as the IR front end
    // counts conditional branches only (docs/MODEL.md, "Branches").
    if (Base == "bra" && I.Guard.empty())
      return;
    addOp(X, OpClass::Branch);
    if (Base == "bra" && !I.Guard.empty())
      if (int P = regId(I.Guard);
          P >= 0 && (Taints[P] & (TTidX | TTidY | TTidZ | TLane)))
        ++S.DivergentBranches;
  } else if (Base == "call") {
    addOp(X, OpClass::Branch);
    const Operand *Callee = nullptr;
    for (const Operand &O : I.Ops)
      if (O.Kind == Operand::Sym || O.Kind == Operand::Reg) {
        Callee = &O;
        break;
      }
    if (Callee && Callee->Kind == Operand::Sym)
      S.Calls.push_back({Callee->Name.str(), X.W});
    else
      S.IndirectCalls = true;
  } else if (isKnownOther(Base)) {
    addOp(X, OpClass::Other);
  } else {
    addOp(X, OpClass::Other);
    ++S.UnknownInstrs;
    S.Warnings.push_back(formatv("{0}PTX line {1}: unknown instruction '{2}' "
                                 "counted as other",
                                 where(), I.PtxLine, I.Opcode)
                             .str());
  }
}

void FunctionAnalysis::classify(const Instr &I, double W, unsigned BlockIdx) {
  InstrCtx X(I, W, BlockIdx);
  X.Base = I.Mods[0];
  // Type modifiers in order.
  for (size_t K = 1; K < I.Mods.size(); ++K) {
    StringRef M = I.Mods[K];
    if (typeBits(M) && M != "pred")
      X.Types.push_back(M);
    else if (M.size() >= 2 && M[0] == 'v' && isDigit(M[1]))
      M.drop_front().getAsInteger(10, X.Vec);
  }
  X.Ty = X.Types.empty() ? StringRef() : X.Types.back();
  for (const Operand &O : I.Ops)
    if (O.Kind == Operand::Addr) {
      X.AddrOp = &O;
      break;
    }
  for (const Operand &O : I.Ops)
    if (O.Kind == Operand::Sym || (O.Kind == Operand::Addr && !O.BaseIsReg))
      if (!O.Name.empty())
        S.Symbols.insert(O.Name);
  X.Lanes = (X.Ty == "f16x2" || X.Ty == "bf16x2") ? 2 : 1;
  if (classifyALU(X) || classifySync(X) || classifyMemory(X) ||
      classifyTensor(X))
    return;
  classifyOther(X);
}

/// A loop whose trip count is not recognised: the default, unless it is a
/// block-stride loop over a constant range; the guess is explained.
void FunctionAnalysis::guessTrip(Loop &L) {
  LoopRecord &R = L.Rec;
  const Block &H = Blocks[L.Header];
  R.Trip = Opts.DefaultTripCount;
  R.Guessed = true;
  // Describe the bound and look at the step's dependences.
  // OwnTaint: of the loop's own steps alone; CounterSteps: their taint
  // and step register by the register they step.
  unsigned StepTaint = 0, OwnTaint = 0;
  std::map<int, std::pair<unsigned, int>> CounterSteps;
  // The smallest step at the reference block of the loop's own counters
  // and of its inner loops', and whether it is an unrolled chain's.
  std::pair<int64_t, bool> OwnStepAt{0, false}, InnerStepAt{0, false};
  int OwnStepReg = -1;
  R.Symbolic = L.ExitDesc;
  int InnerStepReg = -1;
  for (unsigned BI : L.Body.members()) {
    // The step register from its own blocks: an inner loop's step is that
    // loop's (a column loop over x around a row loop over y strides x,
    // not y). Its taint still makes the nest a grid-stride one (rows over
    // gridDim.y around columns over the grid's threads along x).
    bool Own = !Blocks[BI].Loops.empty() &&
               Loops[Blocks[BI].Loops.back()].Header == L.Header;
    int &StepReg = Own ? OwnStepReg : InnerStepReg;
    for (unsigned K = Blocks[BI].Begin; K < Blocks[BI].End; ++K) {
      const Instr &I = *Instrs[K];
      // A step: an integer `add R, R, X`, or `add R, C, X` with C a copy
      // of R made in the loop (clang's round trip through 64 bits); a float
      // accumulator is no counter.
      // Or the last add of an unrolled step's chain (traceIV).
      auto Chained = ChainedSteps.find(K);
      if (I.Mods[0] == "add" && I.Ops.size() == 3 &&
          I.Ops[0].Kind == Operand::Reg && !isFloatType(I.Mods.back()))
        for (unsigned Side = 1; Side <= 2; ++Side) {
          const Operand &Self = I.Ops[Side];
          if (Chained != ChainedSteps.end()
                  ? Chained->second.second == 3 - Side
                  : Self.Kind == Operand::Reg &&
                        (Self.Name == I.Ops[0].Name ||
                         loopCopyOf(L, Self, regId(I.Ops[0].Name)) >= 0)) {
            StepTaint |= taintOf(I.Ops[3 - Side]);
            if (Own) {
              OwnTaint |= taintOf(I.Ops[3 - Side]);
              if (int D = regId(I.Ops[0].Name); D >= 0)
                CounterSteps[D] = {
                    taintOf(I.Ops[3 - Side]),
                    I.Ops[3 - Side].Kind == Operand::Reg
                        ? regId(I.Ops[3 - Side].Name)
                        : -1};
            }
            if (I.Ops[3 - Side].Kind == Operand::Reg && StepReg < 0)
              StepReg = regId(I.Ops[3 - Side].Name);
            // The step at the reference block (`48 * blockDim.x`: 48
            // blocks' worth), when it is a constant there: the loop's own
            // counters' smallest (a pointer stepped beside the index
            // steps by the element's bytes or a row's more), through an
            // unrolled chain the chain's.
            if (I.Ops[3 - Side].Kind == Operand::Reg)
              if (int SR = regId(I.Ops[3 - Side].Name); SR >= 0)
                if (auto V = constAt(unsigned(SR), K, 0,
                                     AtThread0 | AtRefBlock);
                    V && *V > 0) {
                  bool InChain = Chained != ChainedSteps.end();
                  int64_t At = *V * (InChain ? int64_t(Chained->second.first)
                                             : 1);
                  auto &[Min, FromChain] = Own ? OwnStepAt : InnerStepAt;
                  if (!Min || At < Min) {
                    Min = At;
                    FromChain = InChain;
                  }
                }
            break;
          }
        }
      if (I.Mods[0] == "setp" && R.Symbolic.empty() && I.Ops.size() == 3 &&
          L.ExitDesc.empty())
        R.Symbolic = formatv("{0} {1}, {2}", I.Opcode,
                             I.Ops[1].Name.empty() ? "?" : I.Ops[1].Name,
                             I.Ops[2].Kind == Operand::Imm
                                 ? std::to_string(I.Ops[2].Value)
                                 : I.Ops[2].Name.str())
                         .str();
    }
  }
  int StepReg = OwnStepReg >= 0 ? OwnStepReg : InnerStepReg;
  auto [StepAtRef, StepChained] = OwnStepAt.first ? OwnStepAt : InnerStepAt;
  // The remainder is said with its main loop: one guess per source loop
  // (a grid-stride loop's too: its counter steps by the grid).
  // A loop of that form that no main loop claims (the user's own `for (j =
  // m & 3; j; --j)`) is guessed as any other.
  if (std::optional<int64_t> M = remainderMask(L)) {
    auto [Prev, Next] = siblingsAround(L);
    for (const Loop *N : {Prev, Next})
      if (N && unrolledBy(*N) == *M + 1) {
        R.Trip = std::min(Opts.DefaultTripCount, double(*M) / 2);
        R.UnrollRemainder = true;
        return;
      }
  }
  // Stepped by the grid's blocks alone (`r += gridDim.x`: a block per row
  // at a time, its threads sharing the row in loops of their own, or none):
  // a grid-stride loop over units of a block. Along x: over y or z alone
  // (split-K's `k += gridDim.z`) the x grid's work, which no loop counts,
  // is not known. To a bound that does not read blockDim: virtual blocks
  // (`b < (n + blockDim.x - 1) / blockDim.x`) are no units of a problem
  // the launch's threads divide.
  // The tests the loop's exits branch on (the setp defining each exiting
  // block's branch predicate).
  SmallVector<const Instr *, 2> ExitTests;
  for (unsigned BI : L.Body.members()) {
    const Block &B = Blocks[BI];
    if (B.End == B.Begin ||
        llvm::all_of(B.Succs, [&](unsigned Sx) { return L.Body.test(Sx); }))
      continue;
    const Instr &Br = *Instrs[B.End - 1];
    int P = Br.Guard.empty() ? -1 : regId(Br.Guard);
    if (P >= 0)
      for (unsigned D : DefSites[unsigned(P)])
        ExitTests.push_back(Instrs[D]);
  }
  unsigned ExitTaint = 0;
  for (const Instr *T : ExitTests)
    for (size_t O = 1; O < T->Ops.size(); ++O)
      ExitTaint |= taintOf(T->Ops[O]);
  // The counter the exit compares, where it is one of the loop's own
  // steps, speaks for the loop (pointers stepped beside a row counter, `p
  // += gridDim.x * blockDim.x`, step by a row's elements a pass).
  unsigned CounterTaint = OwnTaint;
  int CounterStepReg = OwnStepReg;
  if (ExitTests.size() == 1)
    for (const Operand &O : ExitTests.front()->Ops)
      if (auto It = CounterSteps.find(O.Kind == Operand::Reg ? regId(O.Name)
                                                             : -1);
          It != CounterSteps.end()) {
        CounterTaint = It->second.first;
        CounterStepReg = It->second.second;
      }
  bool OverBlocks = (CounterTaint & TNCtaId) && !(CounterTaint & TNTid) &&
                    CounterStepReg >= 0 && !(ExitTaint & TNTid);
  bool ByBlocks =
      OverBlocks && (launchDims(unsigned(CounterStepReg)) & 1u);
  bool OverThreads = (StepTaint & TNTid) && (StepTaint & TNCtaId);
  // The count with one thread in the grid. The branches one thread decides
  // too (nvcc's test of the unrolled loop's remainder, `count & 3`, ahead
  // of it).
  auto UnitGridCount = [&]() -> std::optional<double> {
    UnitGrid = true;
    if (ConstMemo)
      ConstMemo->clear();
    std::vector<int> Decided = ConstSucc;
    for (unsigned B = 0; B < Blocks.size(); ++B)
      if (ConstSucc[B] < 0)
        if (std::optional<unsigned> S = branchGoes(B, 0))
          ConstSucc[B] = int(*S);
    Loop Try = L;
    std::optional<double> E = countedTrip(Try);
    ConstSucc = std::move(Decided);
    UnitGrid = false;
    if (ConstMemo)
      ConstMemo->clear();
    return E;
  };
  // Over blocks along y or z alone (split-K's `k += gridDim.z`, rows by
  // `gridDim.y`) and no stated grid: counted where the grid is one block
  // along them, as every grid the model derives is (1-D).
  if (OverBlocks && !ByBlocks && !OverThreads)
    if (std::optional<double> E = UnitGridCount(); E && *E > 0) {
      R.Trip = *E;
      R.Guessed = false;
      R.Symbolic = formatv("at one block along its step's dimensions (the "
                           "derived grid's; a stated grid counts it there; "
                           "{0})",
                           L.ExitDesc)
                       .str();
      return;
    }
  if (OverThreads || ByBlocks) {
    R.GridStride = true;
    R.GridStrideBlocks = ByBlocks;
    S.Shape.GridStrideLoop = true;
    if (int SR = ByBlocks ? CounterStepReg : StepReg; SR >= 0)
      R.GridStrideDims = launchDims(unsigned(SR));
    // Its elements: the count with one thread in the grid.
    if (std::optional<double> E = UnitGridCount(); E && *E > 0)
      R.GridStrideElements = *E;
  } else if (StepTaint & TNTid) {
    R.DependsOnBlockDim = true;
    S.Shape.WorkScalesWithBlock = true;
    if (StepReg >= 0)
      R.BlockStrideDims = launchDims(unsigned(StepReg));
    if (L.ConstBound && *L.ConstBound > 0) {
      // A block-stride loop over a constant range: resolved at the
      // profile's reference block size (docs/MODEL.md).
      // Stepped by the block's threads along x, or a multiple of them;
      // along y or z (one thread there at the reference block), by the
      // step there.
      unsigned Dims = R.BlockStrideDims;
      int64_t Per = StepAtRef >= int64_t(PTXReferenceBlockThreads) &&
                            StepAtRef % PTXReferenceBlockThreads == 0
                        ? StepAtRef / PTXReferenceBlockThreads
                        : 1;
      double Step = double(PTXReferenceBlockThreads * Per);
      std::string Dim = "blockDim.x";
      if (OwnStepAt.first > 0 && Dims && !(Dims & 1u)) {
        Per = StepAtRef;
        Step = double(StepAtRef);
        Dim = Dims == 2u ? "blockDim.y" : Dims == 4u ? "blockDim.z"
                                                     : "blockDim.y * blockDim.z";
      }
      // Thread 0's passes; an unrolled loop's copies (an exit each) run
      // the elements' share of a pass each, on average over the threads.
      R.Trip = StepChained
                   ? double(*L.ConstBound) / Step
                   : std::max(1.0, std::ceil(double(*L.ConstBound) / Step));
      R.Guessed = false;
      R.Symbolic =
          Per > 1 ? formatv("{0} / ({1} * {2})", *L.ConstBound, Per, Dim).str()
                  : formatv("{0} / {1}", *L.ConstBound, Dim).str();
      return;
    }
  }
  std::string Where =
      formatv("{0}loop at {1}{2} (depth {3})", where(),
              R.Line ? "line " : "PTX line ",
              R.Line ? R.Line
              : Instrs.empty()
                  ? 0
                  : Instrs[H.Begin < Instrs.size() ? H.Begin : 0]->PtxLine,
              R.Depth)
          .str();
  // A grid-stride loop's passes are the problem size over the launched
  // threads (the model's work scale): what is assumed is the problem size.
  if (R.GridStride) {
    // Over stated elements: nothing is assumed (the model divides them by
    // the launched threads).
    const char *Over = R.GridStrideBlocks
                           ? "units of a block over the launched blocks"
                           : "elements over the launched threads";
    if (R.GridStrideElements > 0) {
      R.Guessed = false;
      R.Symbolic = formatv("{0} {1} ({2})", uint64_t(R.GridStrideElements),
                           Over, L.ExitDesc)
                       .str();
      return;
    }
    L.GuessAt = int(S.Guesses.size());
    S.Guesses.push_back(
        Where +
        (R.GridStrideBlocks
             ? ": a grid-stride loop over blocks, its passes the problem size "
               "over the launched threads"
             : ": a grid-stride loop, its passes the problem size over the "
               "launched threads"));
    return;
  }
  // A loop unrolled U times at run time (nvcc and LLVM unroll a loop of
  // unknown count by 4): a remainder loop of `n % U` passes and the main
  // loop of n / U passes, U copies each. The guess is of the source loop's
  // iterations, as the IR front end's (which sees the loop before NVPTX's
  // unrolling, or rolled): the remainder (U - 1) / 2 passes on average, the
  // main loop the default over U.
  auto Num = [](double V) {
    return V == std::floor(V) ? std::to_string((long long)V)
                              : formatv("{0:f1}", V).str();
  };
  std::string Assumed = Num(R.Trip);
  bool Peeled = false;
  if (std::optional<int64_t> U = unrolledBy(L, &Peeled)) {
    R.Trip = Opts.DefaultTripCount / double(*U);
    Assumed = formatv("{0} (unrolled {1} times by the compiler: {2} passes "
                      "and {3})",
                      Num(Opts.DefaultTripCount), *U, Num(R.Trip),
                      Peeled ? formatv("up to {0} iterations after them",
                                       *U - 1)
                                   .str()
                             : std::string("a remainder loop"))
                  .str();
  }
  L.GuessAt = int(S.Guesses.size());
  S.Guesses.push_back(formatv("{0}: trip count unknown{1}, assumed {2}",
                              Where,
                              R.DependsOnBlockDim ? " (block-stride)" : "",
                              Assumed)
                          .str());
}

/// The mask M = U - 1 (U a power of two from 2 to 16) when \p L is the
/// remainder loop of a loop unrolled U times at run time: it counts the
/// `n & M` iterations the unrolled loop leaves, down to zero (nvcc's
/// `and.b32 %c, %n, 3` before it, `add.s32 %c, %c, -1; setp.ne.s32 %p, %c,
/// 0` in it) or up from zero to that mask (LLVM's `xtraiter`).
const Instr *FunctionAnalysis::soleExitSetp(const Loop &L) const {
  int EB = soleExitingBlock(L);
  if (EB < 0)
    return nullptr;
  bool ContinueWhen = false;
  int Guard = exitGuard(L, unsigned(EB), ContinueWhen);
  if (Guard < 0)
    return nullptr;
  for (unsigned K = Blocks[unsigned(EB)].End; K-- > Blocks[unsigned(EB)].Begin;)
    if (const Instr &I = *Instrs[K];
        I.Mods[0] == "setp" && I.Ops.size() == 3 &&
        I.Ops[0].Kind == Operand::Reg && regId(I.Ops[0].Name) == Guard)
      return &I;
  return nullptr;
}

std::optional<int64_t> FunctionAnalysis::remainderMask(const Loop &L) const {
  const Instr *SetpI = soleExitSetp(L);
  if (!SetpI)
    return std::nullopt;
  const Instr &Setp = *SetpI;
  // Every definition of R outside the loop: `and R, X, M` (either side).
  auto MaskOf = [&](const Operand &O) -> std::optional<int64_t> {
    int R = O.Kind == Operand::Reg ? regId(O.Name) : -1;
    if (R < 0)
      return std::nullopt;
    std::optional<int64_t> M;
    for (unsigned K : DefSites[R]) {
      if (L.Body.test(InstrBlock[K]))
        continue;
      const Instr &D = *Instrs[K];
      if (D.Mods[0] != "and" || D.Ops.size() != 3 || !D.Guard.empty())
        return std::nullopt;
      const Operand &C = D.Ops[2].Kind == Operand::Imm ? D.Ops[2] : D.Ops[1];
      if (C.Kind != Operand::Imm || C.Value < 1 || C.Value > 15 ||
          ((C.Value + 1) & C.Value) != 0 || (M && *M != C.Value))
        return std::nullopt;
      M = C.Value;
    }
    return M;
  };
  // The loop's one step of register R: `add R, R, By` in the loop.
  auto StepOf = [&](const Operand &O) -> std::optional<int64_t> {
    int R = O.Kind == Operand::Reg ? regId(O.Name) : -1;
    int K = R >= 0 ? soleLoopDef(L, R) : -1;
    if (K < 0)
      return std::nullopt;
    const Instr &D = *Instrs[K];
    if ((D.Mods[0] != "add" && D.Mods[0] != "sub") || D.Ops.size() != 3 ||
        D.Ops[1].Kind != Operand::Reg || D.Ops[1].Name != O.Name ||
        D.Ops[2].Kind != Operand::Imm)
      return std::nullopt;
    return D.Mods[0] == "sub" ? -D.Ops[2].Value : D.Ops[2].Value;
  };
  const Operand &A = Setp.Ops[1], &B = Setp.Ops[2];
  // Down to zero.
  if (B.Kind == Operand::Imm && B.Value == 0 && StepOf(A) == -1)
    return MaskOf(A);
  // Up from zero to the mask.
  int IV = A.Kind == Operand::Reg ? regId(A.Name) : -1;
  if (IV >= 0 && StepOf(A) == 1 && ivStart(L, unsigned(IV)) == 0 &&
      B.Kind == Operand::Reg && regId(B.Name) >= 0 &&
      soleLoopDef(L, regId(B.Name)) < 0 &&
      llvm::none_of(DefSites[regId(B.Name)],
                    [&](unsigned K) { return L.Body.test(InstrBlock[K]); }))
    return MaskOf(B);
  return std::nullopt;
}

/// The nearest loops before and after \p L in the same enclosing loops
/// (null where none): a runtime-unrolled loop's remainder and main loop
/// are next to each other, and the remainder may be skipped (no
/// dominance), so the layout decides.
std::pair<const FunctionAnalysis::Loop *, const FunctionAnalysis::Loop *>
FunctionAnalysis::siblingsAround(const Loop &L) const {
  const Loop *Prev = nullptr, *Next = nullptr;
  for (const Loop &R : Loops) {
    if (R.Header == L.Header ||
        Blocks[R.Header].Loops.size() != Blocks[L.Header].Loops.size() ||
        !llvm::equal(ArrayRef<unsigned>(Blocks[R.Header].Loops).drop_back(),
                     ArrayRef<unsigned>(Blocks[L.Header].Loops).drop_back()))
      continue;
    if (R.Header < L.Header && (!Prev || R.Header > Prev->Header))
      Prev = &R;
    if (R.Header > L.Header && (!Next || R.Header < Next->Header))
      Next = &R;
  }
  return {Prev, Next};
}

/// U when \p L is the main loop of a loop unrolled U times at run time: a
/// remainder loop of mask U - 1 (remainderMask) is next to it in the same
/// enclosing loops, before or after, and the branch that skips \p L when
/// fewer than U iterations are left (`setp.lt.u32 %p, %n, 3`) is on the way
/// to it.
std::optional<int64_t> FunctionAnalysis::unrolledBy(const Loop &L,
                                                   bool *Peeled) const {
  if (remainderMask(L))
    return std::nullopt;
  if (Peeled)
    *Peeled = false;
  // The blocks on the single-predecessor path into the header, from outside.
  SmallVector<unsigned, 4> Path;
  {
    unsigned Pre = ~0u;
    for (unsigned P : Blocks[L.Header].Preds)
      if (!L.Body.test(P)) {
        if (Pre != ~0u)
          return std::nullopt;
        Pre = P;
      }
    for (unsigned Hop = 0; Pre != ~0u && Hop < 3; ++Hop) {
      Path.push_back(Pre);
      Pre = Blocks[Pre].Preds.size() == 1 ? Blocks[Pre].Preds[0] : ~0u;
    }
  }
  // The remainder runs first (a prologue) or last (nvcc's epilogue).
  auto [Prev, Next] = siblingsAround(L);
  for (const Loop *R : {Prev, Next}) {
    if (!R)
      continue;
    std::optional<int64_t> M = remainderMask(*R);
    if (!M)
      continue;
    for (unsigned P : Path)
      for (unsigned K = Blocks[P].Begin; K < Blocks[P].End; ++K) {
        const Instr &I = *Instrs[K];
        // n - 1 < M (nvcc), n < U (clang -O2), or -n >u -U (clang:
        // `setp.gt.u32 %p, %d, -8`); in units of a step S of a power of two
        // when the compiler tests the distance left, not the count
        // (`setp.lt.u32 %p, %d, 768` for 3 iterations of 256). Not for U =
        // 2, where every power of two (`tid < 256`) would be such a step.
        auto Times = [&](int64_t V, int64_t Of) {
          if (V <= 0 || V % Of != 0)
            return false;
          return *M == 1 ? V == Of : isPowerOf2_64(uint64_t(V / Of));
        };
        if (I.Mods[0] == "setp" && I.Ops.size() == 3 &&
            I.Ops[2].Kind == Operand::Imm &&
            (((I.Mods[1] == "lt" || I.Mods[1] == "lo") &&
              (Times(I.Ops[2].Value, *M) || Times(I.Ops[2].Value, *M + 1))) ||
             ((I.Mods[1] == "gt" || I.Mods[1] == "hi") &&
              Times(-I.Ops[2].Value, *M + 1))))
          return *M + 1;
      }
  }
  if (std::optional<int64_t> M = peeledUnrollMask(L)) {
    if (Peeled)
      *Peeled = true;
    return *M + 1;
  }
  return std::nullopt;
}

/// The mask M = U - 1 (U a power of two from 2 to 16) when \p L is the
/// main loop of a loop unrolled U times at run time whose remainder is
/// straight-line code (nvcc peels up to 3 iterations into ifs after a loop
/// unrolled 4 times inside another loop): its counter steps by U, and the
/// exit test compares it, or it plus a distance, with a count rounded down
/// to U, `X - (X & M)` (`and.b32 %m, %n, 3; sub.s32 %c, %n, %m` counted down
/// to zero, or `sub.s32 %d, %m, %n` added to a counter from zero).
std::optional<int64_t> FunctionAnalysis::peeledUnrollMask(const Loop &L) const {
  const Instr *Setp = soleExitSetp(L);
  if (!Setp || (Setp->Mods[1] != "eq" && Setp->Mods[1] != "ne"))
    return std::nullopt;
  auto Reg = [&](const Operand &O) {
    return O.Kind == Operand::Reg ? regId(O.Name) : -1;
  };
  // `add R, R, By` once a pass: By.
  auto StepOf = [&](int R) -> std::optional<int64_t> {
    int K = R >= 0 ? soleLoopDef(L, R) : -1;
    if (K < 0 || !runsOncePerPass(L, unsigned(K)))
      return std::nullopt;
    const Instr &D = *Instrs[K];
    if ((D.Mods[0] != "add" && D.Mods[0] != "sub") || D.Ops.size() != 3 ||
        Reg(D.Ops[1]) != R || D.Ops[2].Kind != Operand::Imm)
      return std::nullopt;
    return D.Mods[0] == "sub" ? -D.Ops[2].Value : D.Ops[2].Value;
  };
  // D is `sub R, X, (X & M)` or its negation: M.
  auto RoundedDownBy = [&](const Instr &D) -> std::optional<int64_t> {
    if (D.Mods[0] != "sub" || D.Ops.size() != 3 || !D.Guard.empty())
      return std::nullopt;
    for (unsigned Side = 1; Side <= 2; ++Side) {
      int Mk = Reg(D.Ops[Side]);
      const Operand &X = D.Ops[3 - Side];
      if (Mk < 0 || DefSites[Mk].size() != 1 || X.Kind != Operand::Reg)
        continue;
      const Instr &A = *Instrs[DefSites[Mk].front()];
      if (A.Mods[0] != "and" || A.Ops.size() != 3 || !A.Guard.empty())
        continue;
      for (unsigned Q = 1; Q <= 2; ++Q) {
        const Operand &C = A.Ops[Q], &Y = A.Ops[3 - Q];
        if (C.Kind == Operand::Imm && C.Value >= 1 && C.Value <= 15 &&
            ((C.Value + 1) & C.Value) == 0 && Y.Kind == Operand::Reg &&
            Y.Name == X.Name)
          return C.Value;
      }
    }
    return std::nullopt;
  };
  // R, set once, outside the loop, to such a difference.
  auto RoundedDown = [&](int R) -> std::optional<int64_t> {
    if (R < 0 || DefSites[R].size() != 1 ||
        L.Body.test(InstrBlock[DefSites[R].front()]))
      return std::nullopt;
    return RoundedDownBy(*Instrs[DefSites[R].front()]);
  };
  auto Matches = [](std::optional<int64_t> Step, std::optional<int64_t> M) {
    return Step && M && (*Step == *M + 1 || *Step == -(*M + 1));
  };
  for (unsigned Side = 1; Side <= 2; ++Side) {
    int C = Reg(Setp->Ops[Side]);
    const Operand &Other = Setp->Ops[3 - Side];
    bool Zero = Other.Kind == Operand::Imm && Other.Value == 0;
    if (C < 0)
      continue;
    // The counter itself, from the rounded count down to zero, or up to it.
    if (std::optional<int64_t> St = StepOf(C)) {
      std::optional<int64_t> M;
      if (!Zero) {
        M = RoundedDown(Reg(Other));
      } else {
        for (unsigned K : DefSites[C]) {
          if (L.Body.test(InstrBlock[K]))
            continue;
          const Instr &D = *Instrs[K];
          // Or a copy of such a difference made before the loop.
          std::optional<int64_t> Mk =
              (D.Mods[0] == "mov" || D.Mods[0] == "cvt") && D.Ops.size() == 2
                  ? RoundedDown(Reg(D.Ops[1]))
                  : RoundedDownBy(D);
          if (!Mk || (M && *M != *Mk))
            return std::nullopt;
          M = Mk;
        }
      }
      if (Matches(St, M))
        return M;
      continue;
    }
    // A counter plus a distance, `add %t, %d, %i`, against zero.
    int K = soleLoopDef(L, C);
    if (!Zero || K < 0)
      continue;
    const Instr &D = *Instrs[K];
    if (D.Mods[0] != "add" || D.Ops.size() != 3)
      continue;
    for (unsigned Q = 1; Q <= 2; ++Q)
      if (Matches(StepOf(Reg(D.Ops[Q])), RoundedDown(Reg(D.Ops[3 - Q]))))
        return RoundedDown(Reg(D.Ops[3 - Q]));
  }
  return std::nullopt;
}

/// Trip counts, outer loops first (RPO of headers).
void FunctionAnalysis::computeTripCounts() {
  ConstMemo.emplace();
  ConstSucc.assign(Blocks.size(), -1);
  for (unsigned B = 0; B < Blocks.size(); ++B)
    if (std::optional<unsigned> S = branchGoes(B, 0))
      ConstSucc[B] = int(*S);
  SteppedTotal = uint64_t(1) << 21;
  for (Loop &L : Loops) {
    LoopRecord &R = L.Rec;
    SteppedBudget = uint64_t(1) << 17;
    // The loops whose body holds the header (Blocks[].Loops lists exactly
    // those): O(1) instead of a test per loop.
    R.Depth = Blocks[L.Header].Loops.size();
    // The line of the loop's exit test, where compilers put the `for`
    // statement's (its condition); else the header's first.
    for (unsigned BI : L.Body.members()) {
      if (llvm::all_of(Blocks[BI].Succs,
                       [&](unsigned Sx) { return L.Body.test(Sx); }))
        continue;
      for (unsigned K = Blocks[BI].End; K-- > Blocks[BI].Begin;)
        if (Instrs[K]->Mods[0] == "setp" && Instrs[K]->Loc.Line) {
          R.Line = Instrs[K]->Loc.Line;
          break;
        }
      break;
    }
    const Block &H = Blocks[L.Header];
    for (unsigned K = H.Begin; K < H.End && !R.Line; ++K)
      R.Line = Instrs[K]->Loc.Line;
    if (auto T = countedTrip(L)) {
      R.Trip = *T;
      R.Exact = !L.MultiExit && !L.ThreadStart && !L.AtRefBlock;
      if (L.BlockStride) {
        // Stepped by blockDim: the block shares the loop's work, as in the
        // IR front end's block-stride loops.
        R.DependsOnBlockDim = true;
        S.Shape.WorkScalesWithBlock = true;
        R.BlockStrideDims = stepDims(L);
      }
      if (L.Skipped)
        R.Symbolic = L.ExitDesc;
      else if (L.AtRefBlock)
        R.Symbolic = "at the reference block, " +
                     std::to_string(PTXReferenceBlockThreads) +
                     " x 1 x 1, thread 0's (the count follows blockDim; " +
                     L.ExitDesc + ")";
      else if (L.MultiExit)
        R.Symbolic = "at most " + std::to_string(uint64_t(*T)) +
                     " (several exits; " + L.ExitDesc + ")";
      else if (L.ThreadStart)
        R.Symbolic = "thread 0's (the count starts at a thread index; " +
                     L.ExitDesc + ")";
    } else if (auto T = tripOverEnclosing(L)) {
      R.Trip = *T;
      R.Exact = false;
    } else if (auto T = steppedTrip(L)) {
      R.Trip = *T;
      R.Exact = false;
      R.Symbolic = std::string("stepped pass by pass") +
                   (L.ThreadStart ? ", thread 0's" : "") +
                   (L.AtRefBlock ? " at the reference block" : "") +
                   " (the counter is no sum of steps; " + L.ExitDesc + ")";
    } else if (auto T = tripOfFirstBlock(L)) {
      R.Trip = *T;
      R.Exact = false;
    } else if (auto T = tripAtStatedGrid(L)) {
      R.Trip = *T;
      R.Exact = false;
    } else if (auto T = tripOverFallingBlocks(L)) {
      R.Trip = *T;
      R.Exact = false;
    } else if (waitsOnBarrier(L)) {
      // Polling an mbarrier until its phase completes: the passes are the
      // time the arrivals and copies take, which the model charges as
      // their latency and traffic; the loop's own work runs once.
      R.Trip = 1;
      R.Exact = false;
      R.Symbolic =
          "waits on an mbarrier" +
          (L.ExitDesc.empty() ? std::string() : " (" + L.ExitDesc + ")") +
          ", counted once";
    } else {
      guessTrip(L);
    }
    L.Trip = R.Trip;
  }
  ConstMemo.reset();
}

bool FunctionAnalysis::waitsOnBarrier(const Loop &L) const {
  // The names the loop's polls decide: their predicates, and what the
  // loop's instructions compute from them (CCCL's `selp` of the poll's
  // predicate, then a `setp` on it).
  llvm::StringSet<> Decided;
  auto Own = [&](unsigned BI) {
    return !Blocks[BI].Loops.empty() &&
           Loops[Blocks[BI].Loops.back()].Header == L.Header;
  };
  for (unsigned BI : L.Body.members()) {
    if (!Own(BI)) // An inner loop's wait is that loop's.
      continue;
    for (unsigned K = Blocks[BI].Begin; K < Blocks[BI].End; ++K) {
      const Instr &I = *Instrs[K];
      if (I.Mods[0] == "mbarrier" && I.Mods.size() > 1 &&
          (I.Mods[1] == "try_wait" || I.Mods[1] == "test_wait") &&
          !I.Ops.empty() && !I.Ops[0].Name.empty())
        Decided.insert(I.Ops[0].Name);
    }
  }
  if (Decided.empty())
    return false;
  for (unsigned Round = 0; Round < 4; ++Round)
    for (unsigned BI : L.Body.members())
      for (unsigned K = Blocks[BI].Begin; K < Blocks[BI].End; ++K) {
        const Instr &I = *Instrs[K];
        if (I.Ops.empty() || I.Ops[0].Name.empty() ||
            Decided.count(I.Ops[0].Name))
          continue;
        for (size_t O = 1; O < I.Ops.size(); ++O)
          if (Decided.count(I.Ops[O].Name)) {
            Decided.insert(I.Ops[0].Name);
            break;
          }
      }
  // A wait: a branch on a decided name leaves the loop (or stays in it
  // where falling through leaves), so the poll's outcome ends it. A loop
  // over a counter that polls once a pass to choose whether to wait is
  // not one.
  for (unsigned BI : L.Body.members()) {
    const Block &B = Blocks[BI];
    if (B.End == B.Begin)
      continue;
    const Instr &T = *Instrs[B.End - 1];
    if (T.Mods[0] != "bra" || T.Guard.empty() || !Decided.count(T.Guard))
      continue;
    if (llvm::any_of(B.Succs, [&](unsigned Sx) { return !L.Body.test(Sx); }))
      return true;
  }
  return false;
}

std::optional<double> FunctionAnalysis::tripInBlock(Loop &Try, int64_t B) {
  BlockIdx = B;
  if (ConstMemo)
    ConstMemo->clear();
  std::optional<double> T = countedTrip(Try);
  // Bounds that read the block's index and an enclosing loop's counter
  // (`j < n && start + j < keyspace`, start = (block * threads + tid) * W +
  // k inside `for (k = 0; k < W; ++k)`).
  if (!T)
    T = tripOverEnclosing(Try);
  if (!T)
    T = steppedTrip(Try);
  BlockIdx = -1;
  if (ConstMemo)
    ConstMemo->clear();
  return T;
}

std::optional<double> FunctionAnalysis::tripOverFallingBlocks(Loop &L) {
  Loop Try0 = L;
  uint64_t Blocks = 0;
  std::optional<double> T = meanOverFallingBlocks(
      [&](uint64_t B) -> std::optional<double> {
        Loop Try = L;
        std::optional<double> TB = tripInBlock(Try, int64_t(B));
        if (B == 0)
          Try0 = std::move(Try);
        return TB;
      },
      &Blocks);
  if (!T)
    return std::nullopt;
  L = std::move(Try0);
  L.Rec.Symbolic = formatv("the mean over the {0} blocks that run it, thread "
                           "0's (the count falls with the block's index; {1})",
                           Blocks, L.ExitDesc)
                       .str();
  return T;
}

std::optional<double> FunctionAnalysis::tripOfFirstBlock(Loop &L) {
  auto At = [&](int64_t B, Loop &Try) { return tripInBlock(Try, B); };
  Loop Try0 = L, Try1 = L, Try8 = L;
  std::optional<double> T0 = At(0, Try0);
  std::optional<double> T1 = T0 ? At(1, Try1) : std::nullopt;
  std::optional<double> T8 = T1 ? At(8, Try8) : std::nullopt;
  if (!T8)
    return std::nullopt;
  if (!sameInEveryBlock(*T0, *T1, *T8))
    return std::nullopt;
  L = std::move(Try0);
  L.Rec.Symbolic = "block 0's, thread 0's (the count reads the block's "
                   "index; " + L.ExitDesc + ")";
  return T0;
}

std::optional<double> FunctionAnalysis::tripAtStatedGrid(Loop &L) {
  if (!Opts.Grid[0])
    return std::nullopt;
  auto Clear = [&] {
    if (ConstMemo)
      ConstMemo->clear();
  };
  AtStatedGrid = true;
  Clear();
  Loop Try = L;
  std::optional<double> T = countedTrip(Try);
  if (!T)
    T = tripOverEnclosing(Try = L);
  if (!T)
    T = steppedTrip(Try = L);
  if (!T)
    T = tripOfFirstBlock(Try = L);
  AtStatedGrid = false;
  Clear();
  if (!T)
    return std::nullopt;
  // A counter stepped by the launched threads (blockDim x gridDim) is a
  // grid-stride loop's: the model's (a block's, `i += gridDim.x`, is
  // counted, as the IR front end does).
  if (Try.IVReg >= 0)
    if (int K = soleLoopDef(Try, Try.IVReg); K >= 0)
      for (size_t O = 1; O < Instrs[K]->Ops.size(); ++O) {
        const Operand &Op = Instrs[K]->Ops[O];
        if (Op.Kind == Operand::Reg && regId(Op.Name) == Try.IVReg)
          continue;
        if ((taintOf(Op) & (TNTid | TNCtaId)) == (TNTid | TNCtaId))
          return std::nullopt;
      }
  std::string Desc = Try.Rec.Symbolic.empty() ? Try.ExitDesc : Try.Rec.Symbolic;
  L = std::move(Try);
  L.Rec.Symbolic = formatv("at the stated grid {0} x {1} x {2}: {3}",
                           Opts.Grid[0], std::max(1u, Opts.Grid[1]),
                           std::max(1u, Opts.Grid[2]), Desc)
                       .str();
  return T;
}

std::optional<double> FunctionAnalysis::tripOverEnclosing(Loop &L) {
  // The enclosing loops, innermost first (a loop's body holds the bodies of
  // the loops inside it).
  SmallVector<unsigned, 4> Outer;
  for (unsigned LI : Blocks[L.Header].Loops)
    if (Loops[LI].Header != L.Header && Loops[LI].Body.test(L.Header))
      Outer.push_back(LI);
  llvm::sort(Outer, [&](unsigned A, unsigned B) {
    return Loops[A].Body.count() < Loops[B].Body.count();
  });
  constexpr int64_t MaxPasses = 64;
  for (unsigned LI : Outer) {
    const Loop &P = Loops[LI];
    // Counted, not guessed; its passes sampled evenly beyond MaxPasses.
    if (P.Rec.Guessed || P.Trip < 1 || P.Trip > 1e6)
      continue;
    int64_t N = int64_t(P.Trip);
    int64_t Samples = std::min(N, MaxPasses);
    double Sum = 0;
    bool AllCounted = true;
    Loop Try = L;
    for (int64_t K = 0; K < Samples && AllCounted; ++K) {
      PinLoop = &P;
      PinPass = Samples == N ? K : K * (N - 1) / std::max<int64_t>(1, Samples - 1);
      if (ConstMemo)
        ConstMemo->clear();
      Try = L;
      std::optional<double> T = countedTrip(Try);
      if (!T)
        T = steppedTrip(Try);
      PinLoop = nullptr;
      if (ConstMemo)
        ConstMemo->clear();
      if (!T)
        AllCounted = false;
      else
        Sum += *T;
    }
    if (!AllCounted)
      continue;
    double Mean = Sum / double(Samples);
    std::string Desc = Try.ExitDesc;
    L = std::move(Try);
    L.Rec.Symbolic =
        formatv("the mean over the {0} passes of the enclosing loop at depth "
                "{1}, whose counter moves this loop's bounds{2} ({3})",
                N, P.Rec.Depth,
                L.ThreadStart ? ", thread 0's" : "", Desc)
            .str();
    return Mean;
  }
  return std::nullopt;
}

namespace {
constexpr uint64_t MaxAlign = 16;

AlignFact known(uint64_t Align, uint64_t Residue) {
  return {Align, Residue & (Align - 1), false};
}
AlignFact openFact() { return {MaxAlign, 0, true}; }
/// The alignment alone: the low zero bits.
uint64_t zeroBits(const AlignFact &F) {
  if (F.Open)
    return MaxAlign;
  return F.Residue ? F.Residue & (~F.Residue + 1) : F.Align;
}
/// What holds of a value that is either one (a definition of several, a
/// select): the largest modulus under which the two agree.
AlignFact meet(const AlignFact &X, const AlignFact &Y) {
  if (X.Open)
    return Y;
  if (Y.Open)
    return X;
  uint64_t A = std::min(X.Align, Y.Align);
  while (A > 1 && ((X.Residue ^ Y.Residue) & (A - 1)))
    A /= 2;
  return known(A, X.Residue);
}
AlignFact sum(const AlignFact &X, const AlignFact &Y, bool Minus) {
  if (X.Open || Y.Open)
    return openFact();
  return known(std::min(X.Align, Y.Align),
               Minus ? X.Residue - Y.Residue : X.Residue + Y.Residue);
}
/// Alignments only (products, bitwise operations): residue 0.
AlignFact zeros(uint64_t Align) { return known(std::min(MaxAlign, Align), 0); }
} // namespace

/// What ptxas infers of a value's low bits from the arithmetic that
/// defines it, before it merges adjacent scalar accesses into vector ones:
/// an alignment and the residue under it (a pointer 12 bytes into a
/// 16-byte-aligned row, read at -12 .. 0: one 16-byte access). Symbols are
/// aligned (ptxas lays shared memory out itself); immediates by their low
/// bits; shifts, sums and differences carry both, products and bitwise
/// operations the alignment. A register of several definitions (a pointer
/// stepped around a loop) has what all of them keep: its start's and its
/// steps' (an induction proof: its own value taken as the hypothesis,
/// from the optimistic start, refined until the definitions agree with
/// it), which is what ptxas 13 proves of a loop-stepped shared pointer
/// (docs/MODEL.md, "Vector accesses the compiler forms").
AlignFact FunctionAnalysis::provenAlign(unsigned R, unsigned Depth) const {
  if (auto It = RedefinedBase.find(R + 1); It != RedefinedBase.end())
    R = It->second;
  SmallVector<std::pair<unsigned, AlignFact>, 4> Open;
  int MinOpen = INT_MAX;
  AlignSteps = 0;
  return provenAlignIn(R, Depth, Open, MinOpen);
}

AlignFact
FunctionAnalysis::provenAlignIn(unsigned R, unsigned Depth, OpenProof &Open,
                                int &MinOpen) const {
  const AlignFact None = known(1, 0);
  // Cut short (deep, or a proof that has read too many definitions, which
  // only contrived code needs): not proven, and nothing above it memoised.
  if (Depth > 12 || ++AlignSteps > 4096) {
    MinOpen = -1;
    return None;
  }
  if (R >= DefSites.size() || DefSites[R].empty())
    return None;
  for (size_t I = 0; I < Open.size(); ++I)
    if (Open[I].first == R) {
      MinOpen = std::min(MinOpen, int(I));
      return Open[I].second; // The induction hypothesis.
    }
  bool Stepped = DefSites[R].size() > 1;
  if (Stepped && !assemblerMergesSteppedPointers())
    return None;
  if (auto It = AlignMemo.find(R); It != AlignMemo.end())
    return It->second;
  const int Mine = int(Open.size());
  Open.push_back({R, openFact()});
  AlignFact F;
  int Min = INT_MAX;
  // The hypothesis refined until the definitions agree with it: each
  // round can only lose bits, so five rounds reach it (16, 8, 4, 2, 1).
  bool Agreed = false;
  for (unsigned Round = 0; Round < 7 && !Agreed; ++Round) {
    F = openFact();
    int Read = INT_MAX;
    for (unsigned Site : DefSites[R]) {
      F = meet(F, alignOfDef(*Instrs[Site], Stepped, Depth, Open, Read));
      if (!F.Open && F.Align == 1 && Read >= 0)
        break;
    }
    Min = std::min(Min, Read);
    // Its own hypothesis unread (or cut short): nothing to refine.
    Agreed = F == Open[Mine].second || Read < 0 || Read > Mine;
    Open[Mine].second = F;
  }
  Open.pop_back();
  // Still open on a hypothesis opened further out (its first round): open
  // too, for that round to refine.
  if (F.Open && Min < Mine) {
    MinOpen = std::min(MinOpen, Min);
    return F;
  }
  if (!Agreed || F.Open)
    F = None;
  // An answer that read the hypothesis of a register opened further out
  // holds only under it (nothing proven holds under any): not memoised,
  // and the caller learns it. R's own hypothesis is discharged here.
  if (Min < 0 || (Min < Mine && F.Align > 1))
    MinOpen = std::min(MinOpen, Min);
  else
    AlignMemo[R] = F;
  return F;
}

AlignFact
FunctionAnalysis::alignOfDef(const Instr &I, bool Stepped, unsigned Depth,
                             OpenProof &Open, int &MinOpen) const {
  const AlignFact None = known(1, 0);
  auto Of = [&](size_t K) -> AlignFact {
    if (K >= I.Ops.size())
      return None;
    const Operand &O = I.Ops[K];
    if (O.Kind == Operand::Imm)
      return known(MaxAlign, uint64_t(O.Value)); // Two's complement bits.
    if (O.Kind == Operand::Sym)
      return known(MaxAlign, 0);
    if (O.Kind == Operand::Reg) {
      int Id = regId(O.Name);
      return Id >= 0 ? provenAlignIn(unsigned(Id), Depth + 1, Open, MinOpen)
                     : None;
    }
    return None;
  };
  // An unpacked half (`mov.b64 {%lo, %hi}, %rd`): the high half's low bits
  // are the wide value's middle ones.
  if (!I.Ops.empty() && I.Ops[0].Kind != Operand::Reg)
    return None;
  StringRef Base = I.Mods[0];
  bool FloatCvt = I.hasMod("f16") || I.hasMod("f32") || I.hasMod("f64");
  if (Base == "mov" || Base == "cvta" || (Base == "cvt" && !FloatCvt))
    return Of(1);
  // A register stepped down by another register is a step ptxas does not
  // prove (x = c - x, x -= y): only constant steps down.
  if (Base == "sub" && Stepped && I.Ops.size() > 2 &&
      I.Ops[2].Kind != Operand::Imm)
    return None;
  // Nor one that subtracts the value being proven, through other
  // registers (t = c - x; x = t + 0).
  if (Base == "sub" && I.Ops.size() > 2 && I.Ops[2].Kind == Operand::Reg) {
    int Id = regId(I.Ops[2].Name);
    if (Id < 0)
      return None;
    int Read = INT_MAX;
    AlignFact Sub = provenAlignIn(unsigned(Id), Depth + 1, Open, Read);
    if (Read >= 0 && Read != INT_MAX)
      return None;
    MinOpen = std::min(MinOpen, Read);
    return sum(Of(1), Sub, /*Minus=*/true);
  }
  if (Base == "add" || Base == "sub")
    return sum(Of(1), Of(2), Base == "sub");
  if (Base == "shl" && I.Ops.size() > 2 && I.Ops[2].Kind == Operand::Imm) {
    AlignFact X = Of(1);
    if (X.Open)
      return X;
    unsigned Sh = unsigned(std::min<int64_t>(4, std::max<int64_t>(0, I.Ops[2].Value)));
    return known(std::min(MaxAlign, X.Align << Sh), X.Residue << Sh);
  }
  if (Base == "mul" && !I.hasMod("hi"))
    return zeros(zeroBits(Of(1)) * zeroBits(Of(2)));
  if (Base == "mad" && !I.hasMod("hi"))
    return sum(zeros(zeroBits(Of(1)) * zeroBits(Of(2))), Of(3), false);
  if (Base == "and") // Low zero bits of either operand stay zero.
    return zeros(std::max(zeroBits(Of(1)), zeroBits(Of(2))));
  if (Base == "selp") // One of the two.
    return meet(Of(1), Of(2));
  if (Base == "or" || Base == "xor") // Low zero bits of both stay zero.
    return zeros(std::min(zeroBits(Of(1)), zeroBits(Of(2))));
  return None;
}

namespace {
using AddressPoly = std::map<std::vector<std::string>, int64_t>;
constexpr size_t MaxPolyTerms = 24, MaxPolyDegree = 4;
constexpr int64_t MaxPolyCoeff = int64_t(1) << 40;

/// \p A + \p Sign * \p B, or none beyond the limits.
std::optional<AddressPoly> polySum(AddressPoly A, const AddressPoly &B,
                                   int64_t Sign) {
  for (const auto &[M, C] : B) {
    int64_t &D = A[M];
    D += Sign * C;
    if (std::llabs(D) > MaxPolyCoeff)
      return std::nullopt;
    if (D == 0)
      A.erase(M);
  }
  if (A.size() > MaxPolyTerms)
    return std::nullopt;
  return A;
}

/// \p A * \p B, or none beyond the limits.
std::optional<AddressPoly> polyProduct(const AddressPoly &A,
                                       const AddressPoly &B) {
  AddressPoly Out;
  for (const auto &[MA, CA] : A)
    for (const auto &[MB, CB] : B) {
      if (MA.size() + MB.size() > MaxPolyDegree ||
          std::llabs(CA) > MaxPolyCoeff || std::llabs(CB) > MaxPolyCoeff)
        return std::nullopt;
      std::vector<std::string> M(MA);
      M.insert(M.end(), MB.begin(), MB.end());
      llvm::sort(M);
      int64_t &D = Out[M];
      D += CA * CB;
      if (std::llabs(D) > MaxPolyCoeff || Out.size() > MaxPolyTerms)
        return std::nullopt;
      if (D == 0)
        Out.erase(M);
    }
  return Out;
}

AddressPoly polyLeaf(std::string Name) { return {{{std::move(Name)}, 1}}; }
} // namespace

const FunctionAnalysis::AddressPoly &
FunctionAnalysis::addressPoly(unsigned R, unsigned Depth) const {
  if (auto It = AddressPolys.find(R); It != AddressPolys.end())
    return It->second;
  AddressPoly Opaque = polyLeaf("r" + std::to_string(R));
  std::optional<AddressPoly> P;
  // The recursion guard of a long chain: its head stays opaque.
  if (Depth <= 16 && R < DefSites.size() && DefSites[R].size() == 1) {
    const Instr &I = *Instrs[DefSites[R][0]];
    auto Op = [&](size_t K) -> std::optional<AddressPoly> {
      if (K >= I.Ops.size())
        return std::nullopt;
      const Operand &O = I.Ops[K];
      if (O.Kind == Operand::Imm)
        return O.Value ? AddressPoly{{{}, O.Value}} : AddressPoly{};
      if (O.Kind == Operand::Sym)
        return polyLeaf("s:" + O.Name.str());
      if (int Id = O.Kind == Operand::Reg ? regId(O.Name) : -1; Id >= 0)
        return addressPoly(unsigned(Id), Depth + 1);
      if (O.Kind == Operand::Reg &&
          (O.Name.starts_with("%tid.") || O.Name.starts_with("%ctaid.")))
        return polyLeaf(O.Name.str());
      return std::nullopt;
    };
    StringRef Base = I.Mods[0];
    if (I.hasMod("f16") || I.hasMod("f32") || I.hasMod("f64") ||
        I.hasMod("hi")) {
      // Floating point and high halves: not address arithmetic.
    } else if (Base == "mov" || Base == "cvt" || Base == "cvta") {
      P = Op(1);
    } else if (Base == "add" || Base == "sub") {
      if (auto A = Op(1), B = Op(2); A && B)
        P = polySum(*A, *B, Base == "add" ? 1 : -1);
    } else if (Base == "mul") {
      if (auto A = Op(1), B = Op(2); A && B)
        P = polyProduct(*A, *B);
    } else if (Base == "shl" && I.Ops.size() > 2 &&
               I.Ops[2].Kind == Operand::Imm && I.Ops[2].Value >= 0 &&
               I.Ops[2].Value < 32) {
      if (auto A = Op(1))
        P = polyProduct(*A, AddressPoly{{{}, int64_t(1) << I.Ops[2].Value}});
    } else if (Base == "mad") {
      if (auto A = Op(1), B = Op(2), C = Op(3); A && B && C)
        if (auto M = polyProduct(*A, *B))
          P = polySum(*M, *C, 1);
    }
  }
  return AddressPolys.try_emplace(R, P ? std::move(*P) : std::move(Opaque))
      .first->second;
}

unsigned FunctionAnalysis::stepDims(const Loop &L) const {
  if (L.IVReg < 0)
    return 0;
  unsigned Dims = 0;
  for (unsigned K : DefSites[L.IVReg]) {
    const Instr &I = *Instrs[K];
    if (!L.Body.test(InstrBlock[K]) ||
        (I.Mods[0] != "add" && I.Mods[0] != "sub"))
      continue;
    for (size_t O = 1; O < I.Ops.size(); ++O)
      if (int R = I.Ops[O].Kind == Operand::Reg ? regId(I.Ops[O].Name) : -1;
          R >= 0 && R != L.IVReg)
        Dims |= launchDims(unsigned(R));
  }
  return Dims;
}

unsigned FunctionAnalysis::launchDims(unsigned R) const {
  unsigned Dims = 0;
  std::vector<bool> Seen(DefSites.size(), false);
  SmallVector<unsigned, 8> Work{R};
  Seen[R] = true;
  while (!Work.empty()) {
    unsigned X = Work.pop_back_val();
    for (unsigned K : DefSites[X])
      for (const Operand &O : Instrs[K]->Ops) {
        if (O.Kind != Operand::Reg || &O == &Instrs[K]->Ops[0])
          continue;
        StringRef N = O.Name;
        if ((N.starts_with("%ntid.") || N.starts_with("%nctaid.")) &&
            N.back() >= 'x' && N.back() <= 'z')
          Dims |= 1u << (N.back() - 'x');
        else if (int Id = regId(N); Id >= 0 && !Seen[Id] && Work.size() < 64) {
          Seen[Id] = true;
          Work.push_back(unsigned(Id));
        }
      }
  }
  return Dims;
}

uint64_t FunctionAnalysis::tableBytes(unsigned R) const {
  StringRef Sym;
  for (const auto &[M, C] : addressPoly(R))
    for (const std::string &L : M)
      if (StringRef(L).starts_with("s:")) {
        if (!Sym.empty() || M.size() != 1 || C != 1)
          return 0;
        Sym = StringRef(L).drop_front(2);
      }
  if (Sym.empty())
    return 0;
  const VarDecl *V = nullptr;
  for (const VarDecl &D : F.Vars)
    if (D.Name == Sym)
      V = &D;
  if (!V && Globals)
    if (auto It = Globals->find(Sym); It != Globals->end())
      V = &It->second;
  return V && V->Space == "global" && !V->Extern && !V->Unsized ? V->Bytes
                                                                : 0;
}

unsigned FunctionAnalysis::siblingBase(unsigned R, int64_t &Offset) {
  std::string Key;
  for (const auto &[M, C] : addressPoly(R)) {
    if (M.empty()) {
      Offset += C;
      continue;
    }
    Key += std::to_string(C);
    for (const std::string &L : M)
      Key += "*" + L;
    Key += ";";
  }
  // Ids above any register's (R + 1), so the two kinds never meet.
  return AddressBases
      .try_emplace(Key, (1u << 30) + unsigned(AddressBases.size()))
      .first->second;
}

unsigned FunctionAnalysis::tidPitch() const {
  unsigned Best = 0;
  for (unsigned R = 0; R < DefSites.size(); ++R) {
    if (DefSites[R].size() != 1)
      continue;
    StringRef Base = Instrs[DefSites[R][0]]->Mods[0];
    if (Base != "add" && Base != "mad" && Base != "shl" && Base != "mul")
      continue;
    int64_t Coeff[2] = {0, 0};
    bool Linear = true;
    for (const auto &[M, C] : addressPoly(R)) {
      bool Thread = llvm::any_of(
          M, [](const std::string &L) { return L.rfind("%tid.", 0) == 0; });
      if (!Thread)
        continue;
      if (M.size() != 1 || M[0] == "%tid.z") {
        Linear = false;
        break;
      }
      Coeff[M[0] == "%tid.y"] = C;
    }
    if (!Linear || Coeff[0] <= 0 || Coeff[1] <= 0 || Coeff[1] % Coeff[0])
      continue;
    int64_t Pitch = Coeff[1] / Coeff[0];
    if (Pitch >= 2 && Pitch <= 1024 && (!Best || unsigned(Pitch) < Best))
      Best = unsigned(Pitch);
  }
  return Best;
}

/// Follows register \p R's definitions to a float-to-int conversion and,
/// from its source, through the float arithmetic to the int-to-float
/// conversion of an affine integer: that integer's threadIdx.D coefficient
/// and register. Each (register, side of the conversion) is visited once.
std::optional<std::pair<int64_t, unsigned>>
FunctionAnalysis::smoothTidStep(unsigned R, unsigned D) const {
  if (R >= DefSites.size() || D > 2)
    return std::nullopt;
  std::vector<bool> Seen(2 * DefSites.size(), false);
  SmallVector<std::pair<unsigned, bool>, 16> Work{{R, false}};
  Seen[2 * R] = true;
  while (!Work.empty()) {
    auto [Reg, InFloat] = Work.pop_back_val();
    for (unsigned Site : DefSites[Reg]) {
      const Instr &I = *Instrs[Site];
      StringRef Base = I.Mods[0];
      if (Base == "ld" || Base == "ldu" || Base == "atom" || Base == "tex")
        continue; // Data, not the coordinate.
      bool ToInt = isFloatToInt(I);
      bool ToFloat = isIntToFloat(I);
      if (ToFloat && !InFloat)
        continue; // An integer from a float outside a coordinate.
      if (ToFloat) {
        int Src = I.Ops.size() > 1 && I.Ops[1].Kind == Operand::Reg
                      ? regId(I.Ops[1].Name)
                      : -1;
        if (Src >= 0 && Affs[Src].known() && Affs[Src].C[GVTid + D] != 0)
          return std::make_pair(Affs[Src].C[GVTid + D], unsigned(Src));
        continue;
      }
      for (size_t K = 1; K < I.Ops.size(); ++K) {
        int Src = I.Ops[K].Kind == Operand::Reg ? regId(I.Ops[K].Name) : -1;
        bool F = InFloat || ToInt;
        if (Src < 0 || Seen[2 * Src + F])
          continue;
        Seen[2 * Src + F] = true;
        Work.push_back({unsigned(Src), F});
      }
    }
  }
  return std::nullopt;
}

/// A data-scaled coordinate in the address register \p R (taint \p T) and
/// the facts that bound how far apart it moves the rows of a warp.
std::optional<FunctionAnalysis::SmoothCoordinate>
FunctionAnalysis::smoothCoordinate(unsigned R, unsigned T, MemAccess &A) const {
  SmoothCoordinate SC;
  int Coord = -1;
  for (unsigned D = 1; D < 3; ++D) {
    if (T & (TTidY << (D - 1)))
      continue; // The rows differ anyway: no smooth coordinate to spread.
    if (auto P = smoothTidStep(R, D)) {
      A.SmoothDims |= 1u << D;
      SC.TidStep[D] = std::llabs(P->first);
      if (Coord < 0)
        Coord = int(P->second);
    }
  }
  if (Coord < 0 || R >= AddrAffs.size() || !AddrAffs[R].known())
    return std::nullopt;
  // The coordinate's range: the widest bounds check on the integer it was
  // computed from (`dm < nr_dms`), or on a multiple of it (clang tests
  // y0 < 64 and converts y0 * 4 + r): u = M * g + K with g < -Const, up to
  // M * (-Const - 1) + 1 over the paths (the copies of an unrolled loop
  // check g + k and read u + k: K is left out, so every copy has the range
  // of the widest check).
  const AffVal &U = Affs[unsigned(Coord)];
  const AffVal &Addr = AddrAffs[R];
  SC.Addr = Addr;
  // Values 0 .. Count - 1 of a check's form, and M with C = M x its form on
  // the check's terms (with no other terms when \p Only).
  auto Count = [](const AffineGuard &G) {
    return -double(G.Const) + (G.Strict ? 0 : 1);
  };
  auto Multiple = [](const std::array<int64_t, NumGuardVars> &C,
                     const AffineGuard &G, bool Only) {
    double M = 0;
    for (unsigned V = 0; V < NumGuardVars; ++V) {
      if (G.Coef[V] == 0) {
        if (Only && C[V] != 0)
          return 0.0;
        continue;
      }
      double MV = double(C[V]) / double(G.Coef[V]);
      if (MV <= 0 || (M > 0 && MV != M))
        return 0.0;
      M = MV;
    }
    return M;
  };
  std::vector<bool> OnCoordinate(S.Guards.size(), false);
  for (size_t GI = 0; GI < S.Guards.size(); ++GI) {
    double M = Multiple(U.C, S.Guards[GI], true);
    if (M <= 0)
      continue;
    OnCoordinate[GI] = true;
    SC.Bound = std::max(SC.Bound, M * (Count(S.Guards[GI]) - 1) + 1);
  }
  if (SC.Bound <= 0)
    return std::nullopt;
  // The row the coordinate shifts along: a bounds check on the address's
  // other index terms (`sample < nr_samples`), in bytes, and the smallest
  // of the address's remaining steps that clears it (a row pitch).
  for (size_t GI = 0; GI < S.Guards.size(); ++GI) {
    const AffineGuard &G = S.Guards[GI];
    double K = OnCoordinate[GI] ? 0 : Multiple(Addr.C, G, false);
    SC.Extent = K * Count(G);
    if (SC.Extent <= 0)
      continue;
    for (unsigned V = 0; V < NumGuardVars; ++V)
      if (G.Coef[V] == 0 && Addr.C[V] != 0 &&
          double(std::llabs(Addr.C[V])) >= SC.Extent)
        SC.Pitch = SC.Pitch > 0
                       ? std::min(SC.Pitch, double(std::llabs(Addr.C[V])))
                       : double(std::llabs(Addr.C[V]));
    return SC;
  }
  return std::nullopt;
}

/// MemAccess::SmoothStepBytes of the accesses PendingSmooth holds: the
/// coordinate can move the address no further than the padding of its row
/// (pitch minus the row's checked extent), over its whole range; a warp's
/// rows are that slope times their coordinate steps apart, at half the
/// bound on average (the slope's distribution is not in the code: a uniform
/// prior). The pitch may also be the distance between copies of one load
/// (an unrolled loop over rows).
void FunctionAnalysis::finishSmooth() {
  SmoothSeen.insert(SmoothSeen.end(), PendingSmooth.begin(),
                    PendingSmooth.end());
  for (const SmoothCoordinate &SC : PendingSmooth) {
    if (SC.Access >= S.Accesses.size())
      continue;
    MemAccess &A = S.Accesses[SC.Access];
    double Pitch = SC.Pitch;
    for (const SmoothCoordinate &B : SmoothSeen) {
      if (B.Addr.C != SC.Addr.C || B.Addr.K == SC.Addr.K)
        continue;
      double Apart = double(std::llabs(B.Addr.K - SC.Addr.K));
      if (Apart >= SC.Extent)
        Pitch = Pitch > 0 ? std::min(Pitch, Apart) : Apart;
    }
    if (Pitch <= SC.Extent)
      continue;
    double Slope = (Pitch - SC.Extent) / SC.Bound;
    if (!std::isfinite(Slope) || Slope <= 0)
      continue;
    for (unsigned D = 0; D < 3; ++D)
      A.SmoothStepBytes[D] = 0.5 * double(SC.TidStep[D]) * Slope;
  }
  PendingSmooth.clear();
}

FuncSummary FunctionAnalysis::run() {
  buildBlocks();
  computeLoops();
  analyseValues();
  computeTripCounts();
  std::vector<bool> RareOnly = rareOnlyBlocks();
  std::vector<double> Shrunk = shrinkingCheckShares();
  for (unsigned BI = 0; BI < Blocks.size(); ++BI) {
    Block &B = Blocks[BI];
    B.Weight = B.Reachable && !RareOnly[BI] ? Shrunk[BI] : 0.0;
    for (unsigned LI : B.Loops)
      B.Weight = std::min(B.Weight * Loops[LI].Trip, MaxBlockWeight);
  }
  // A loop that never runs (only a rare branch's side or a skipped loop
  // reaches it) is no guess.
  std::vector<bool> DropGuess(S.Guesses.size(), false);
  for (Loop &L : Loops)
    if (L.Rec.Guessed && Blocks[L.Header].Weight <= 0) {
      L.Rec.Guessed = false;
      if (L.GuessAt >= 0 && size_t(L.GuessAt) < DropGuess.size())
        DropGuess[L.GuessAt] = true;
    }
  if (llvm::is_contained(DropGuess, true)) {
    std::vector<std::string> Kept;
    for (size_t I = 0; I < S.Guesses.size(); ++I)
      if (!DropGuess[I])
        Kept.push_back(std::move(S.Guesses[I]));
    S.Guesses = std::move(Kept);
  }
  estimateRegisters(); // After the trips: ptxas's unrolling needs them.
  for (unsigned BI = 0; BI < BlockPeak.size() && BI < Blocks.size(); ++BI)
    if (Blocks[BI].Weight > 0 && Blocks[BI].End > Blocks[BI].Begin)
      S.BlockPressure.push_back({BlockPeak[BI], Blocks[BI].Weight});
  analyseEngineWork(); // Bulk bytes are in the checks' shares of traffic.
  analyseGuards();
  if (F.IsEntry) // Loads in called functions have no forms.
    analyseAddressForms();
  analyseShapeChecks();
  S.Shape.TidPitch = tidPitch();
  analyseParallelism();
  std::vector<Fold> Folded = findFolded();
  // Shared accesses off a register that an earlier instruction of their
  // block redefined address another value than those before it: a base id
  // of their own (per register and redefinition), so that no vector run
  // joins them (a pointer stepped between loads, x += 16 in mid-block).
  DenseMap<std::pair<unsigned, unsigned>, unsigned> RedefIds;
  const unsigned FirstRedefId = unsigned(DefSites.size()) + 1;
  for (unsigned BI = 0; BI < Blocks.size(); ++BI) {
    size_t AccessesBefore = S.Accesses.size();
    DenseMap<unsigned, unsigned> DefsInBlock;
    for (unsigned K = Blocks[BI].Begin; K < Blocks[BI].End; ++K) {
      if (S.FirstLoc.Line == 0 && Instrs[K]->Loc.Line)
        S.FirstLoc = Instrs[K]->Loc;
      size_t AccessesBeforeK = S.Accesses.size();
      if (Folded[K] == Fold::WideMultiplyAdd)
        addOp(InstrCtx(*Instrs[K], Blocks[BI].Weight, BI), OpClass::IntMul);
      else if (Folded[K] == Fold::Kept)
        classify(*Instrs[K], Blocks[BI].Weight, BI);
      for (size_t AI = AccessesBeforeK; AI < S.Accesses.size(); ++AI) {
        MemAccess &A = S.Accesses[AI];
        if (A.Space != AddrSpace::Shared || !A.BaseId ||
            A.BaseId >= FirstRedefId)
          continue;
        auto Gen = DefsInBlock.find(A.BaseId - 1);
        if (Gen == DefsInBlock.end())
          continue;
        unsigned Id = RedefIds
                          .try_emplace({A.BaseId - 1, Gen->second},
                                       FirstRedefId + RedefIds.size())
                          .first->second;
        RedefinedBase[Id] = A.BaseId - 1;
        A.BaseId = Id;
      }
      SmallVector<unsigned, 4> Defined;
      defsOf(*Instrs[K], Defined);
      for (unsigned R : Defined)
        ++DefsInBlock[R];
      // Shape facts from special registers.
      for (const Operand &O : Instrs[K]->Ops) {
        if (O.Kind != Operand::Reg || regId(O.Name) >= 0)
          continue;
        StringRef N = O.Name;
        for (unsigned D = 0; D < 3; ++D) {
          char C = "xyz"[D];
          if (N == (Twine("%tid.") + Twine(C)).str())
            S.Shape.UsesTid[D] = true;
          if (N == (Twine("%ntid.") + Twine(C)).str()) {
            S.Shape.ReadsNTid[D] = true;
            S.Shape.ReadsBlockDim = true;
          }
        }
        if (N.starts_with("%nctaid"))
          S.Shape.ReadsGridDim = true;
      }
    }
    // How far apart a data-scaled coordinate moves a warp's rows, while
    // this block's accesses still have their indices.
    finishSmooth();
    // ptxas merges adjacent scalar shared accesses whose alignment it can
    // prove, off a pointer stepped around a loop too (provenAlign); a
    // pointer parameter's alignment is not in the PTX, so nvcc's scalar
    // global loads stay scalar. Accesses nvcc already wrote as vectors (v2)
    // are left as they are: ptxas 13.0 merges those pairs as well, but no
    // measurement here shows it (docs/MODEL.md, "What ptxas 13.0 does with
    // them").
    DenseMap<size_t, AlignFact> Proven;
    auto ProofOf = [&](size_t I) -> AlignFact {
      const MemAccess &A = S.Accesses[I];
      if (A.Space != AddrSpace::Shared || !A.BaseId || A.Bytes != 4)
        return {0, 0, false};
      auto [It, New] = Proven.try_emplace(I);
      if (New)
        It->second = provenAlign(A.BaseId - 1);
      return It->second;
    };
    mergeVectorRuns(
        S.Accesses, AccessesBefore,
        [&](size_t I) -> uint64_t { return ProofOf(I).Align; }, S.Ops,
        [&](size_t I) -> uint64_t { return ProofOf(I).Residue; });
  }
  for (const Loop &L : Loops)
    S.Loops.push_back(L.Rec);
  return S;
}

} // namespace ptx
} // namespace flipflop
