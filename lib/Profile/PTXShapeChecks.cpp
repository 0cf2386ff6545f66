//===- PTXShapeChecks.cpp - Block shapes fixed by checks, from PTX --------===//
//
// The PTX side of lib/Profile/IRShapeChecks.cpp: a branch on a comparison of
// %ntid.d (affine: +-%ntid.d + constant) against a constant, one side of
// which does no work (it calls __assertfail, traps, or returns through blocks
// without stores, atomics or other calls), holds the block dimension at what
// the other side needs (nvcc's `assert(blockDim.x == 256)`).
//
//===----------------------------------------------------------------------===//

#include "PTXAnalysis.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace llvm;

namespace flipflop {
namespace ptx {

namespace {
enum class Idle { No, Returns, Fails };
} // namespace

/// How the path from block \p From ends: with an assert or a trap (Fails), a
/// return without work (Returns), or work (No). Bounded, no joins.
static Idle idleFrom(unsigned From, const std::vector<const Instr *> &Instrs,
                     const std::vector<unsigned> &Begin,
                     const std::vector<unsigned> &End,
                     const std::vector<SmallVector<unsigned, 2>> &Succs) {
  SmallVector<unsigned, 8> Work{From};
  std::vector<unsigned> Seen{From};
  bool Fails = false;
  while (!Work.empty()) {
    unsigned B = Work.pop_back_val();
    if (Seen.size() > 16)
      return Idle::No;
    bool Ends = false;
    for (unsigned K = Begin[B]; K < End[B] && !Ends; ++K) {
      const Instr &I = *Instrs[K];
      StringRef Base = I.Mods.empty() ? StringRef() : I.Mods[0];
      if (Base == "call") {
        bool Assert = std::any_of(I.Ops.begin(), I.Ops.end(), [](const Operand &O) {
          return O.Kind == Operand::Sym &&
                 (O.Name.contains("assertfail") || O.Name == "__assert_fail");
        });
        bool Print = std::any_of(I.Ops.begin(), I.Ops.end(), [](const Operand &O) {
          return O.Kind == Operand::Sym && O.Name == "vprintf";
        });
        if (Assert)
          Ends = Fails = true;
        else if (!Print)
          return Idle::No;
      } else if (Base == "trap" || Base == "brkpt") {
        Ends = Fails = true;
      } else if ((Base == "st" && !I.hasMod("param")) || Base == "atom" ||
                 Base == "red" || Base == "bar" || Base == "barrier" ||
                 Base == "cp" || Base == "sust" || Base == "suatom" ||
                 Base == "wmma" || Base == "mma" || Base == "wgmma") {
        return Idle::No;
      } else if (Base == "ret" || Base == "exit") {
        Ends = true;
      }
    }
    if (Ends)
      continue;
    for (unsigned S : Succs[B]) {
      if (std::find(Seen.begin(), Seen.end(), S) != Seen.end())
        return Idle::No; // a join or a loop: not a plain early exit
      Seen.push_back(S);
      Work.push_back(S);
    }
  }
  return Fails ? Idle::Fails : Idle::Returns;
}

void FunctionAnalysis::analyseShapeChecks() {
  if (!F.IsEntry || Blocks.empty() || Affs.empty())
    return;
  std::vector<unsigned> Begin, End;
  std::vector<SmallVector<unsigned, 2>> Succs;
  for (const Block &B : Blocks) {
    Begin.push_back(B.Begin);
    End.push_back(B.End);
    Succs.push_back(B.Succs);
  }
  ShapeInfo &SI = S.Shape;
  for (unsigned BI = 0; BI < Blocks.size(); ++BI) {
    std::optional<unsigned> Taken = conditionalTaken(BI);
    if (!Taken)
      continue;
    const Block &B = Blocks[BI];
    const Instr &Br = *Instrs[B.End - 1];
    int P = regId(Br.Guard);
    if (P < 0 || DefSites[P].size() != 1)
      continue;
    const Instr &D = *Instrs[DefSites[P][0]];
    if (D.Mods[0] != "setp" || D.Mods.size() != 3 || D.Ops.size() != 3 ||
        isFloatType(D.Mods[2]))
      continue;
    // A - B = c * ntid.d + K, c = +-1, nothing else.
    AffVal E = affCombine(affOf(D.Ops[1]), affOf(D.Ops[2]), 1, -1);
    // A form taken at a 1-D block (AffVal::OneD) is no fact of other
    // blocks' sizes.
    if (!E.known() || E.OneD)
      continue;
    int Dim = -1;
    int64_t Coef = 0;
    bool Other = false;
    for (unsigned V = 0; V < NumGuardVars; ++V) {
      if (!E.C[V])
        continue;
      if (V >= GVNtid && V < GVNtid + 3 && Dim < 0 &&
          (E.C[V] == 1 || E.C[V] == -1)) {
        Dim = int(V - GVNtid);
        Coef = E.C[V];
      } else {
        Other = true;
      }
    }
    if (Dim < 0 || Other)
      continue;
    // The taken side runs where the predicate (negated by '!') holds.
    Idle T = idleFrom(*Taken, Instrs, Begin, End, Succs);
    Idle N = idleFrom(BI + 1, Instrs, Begin, End, Succs);
    if ((T == Idle::No) == (N == Idle::No))
      continue;
    Idle How = T != Idle::No ? T : N;
    bool WorkWhenTrue = (T == Idle::No) != Br.GuardNeg;
    // Work runs where (A cmp B) == WorkWhenTrue, i.e. c*ntid + K cmp' 0.
    StringRef Cmp = D.Mods[1];
    if (!WorkWhenTrue)
      Cmp = StringSwitch<StringRef>(Cmp)
                .Case("eq", "ne").Case("ne", "eq")
                .Cases({"lt", "lo"}, "ge").Cases({"le", "ls"}, "gt")
                .Cases({"gt", "hi"}, "le").Cases({"ge", "hs"}, "lt")
                .Default("");
    else
      Cmp = StringSwitch<StringRef>(Cmp)
                .Cases({"lo", "lt"}, "lt").Cases({"ls", "le"}, "le")
                .Cases({"hi", "gt"}, "gt").Cases({"hs", "ge"}, "ge")
                .Default(Cmp);
    // ntid cmp -K (c = 1) or, with c = -1, ntid swapped-cmp K.
    int64_t V = Coef == 1 ? -E.K : E.K;
    if (Coef == -1)
      Cmp = StringSwitch<StringRef>(Cmp)
                .Case("lt", "gt").Case("gt", "lt").Case("le", "ge")
                .Case("ge", "le").Default(Cmp);
    if (V <= 0 || V > (1 << 20))
      continue;
    unsigned U = unsigned(V);
    std::string Op;
    if (Cmp == "eq") {
      SI.CheckedDim[Dim] = U;
      Op = "==";
    } else if (Cmp == "le" || (Cmp == "lt" && U > 1)) {
      unsigned M = Cmp == "le" ? U : U - 1;
      SI.CheckedMax[Dim] = SI.CheckedMax[Dim] ? std::min(SI.CheckedMax[Dim], M) : M;
      Op = "<=";
      U = M;
    } else if (Cmp == "ge" || Cmp == "gt") {
      unsigned M = Cmp == "ge" ? U : U + 1;
      SI.CheckedMin[Dim] = std::max(SI.CheckedMin[Dim], M);
      Op = ">=";
      U = M;
    } else {
      continue;
    }
    std::string Fact;
    raw_string_ostream OS(Fact);
    OS << "blockDim." << "xyz"[Dim] << " " << Op << " " << U
       << (How == Idle::Fails ? " is asserted"
                              : " is required (other shapes return early)");
    if (D.Loc.Line)
      OS << " at line " << D.Loc.Line;
    else
      OS << " at PTX line " << D.PtxLine;
    if (std::find(SI.CheckFacts.begin(), SI.CheckFacts.end(), Fact) ==
        SI.CheckFacts.end())
      SI.CheckFacts.push_back(Fact);
  }
}

} // namespace ptx
} // namespace flipflop
