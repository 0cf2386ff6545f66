//===- PTXCFG.cpp - PTX basic blocks, dominators, loops -------------------===//
//
// Basic blocks and their edges; reverse post-order, the dominator tree and
// natural loops merged per header come from LLVM's generic algorithms run on
// the blocks (PTXCFG.h).
//
//===----------------------------------------------------------------------===//
#include "PTXAnalysis.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/GenericDomTreeConstruction.h"
#include "llvm/Support/GenericLoopInfoImpl.h"
#include <algorithm>

using namespace llvm;

namespace flipflop {
namespace ptx {

void FunctionAnalysis::assignRegisterIds() {
  // Register ids, assigned only to declared registers the body uses (a
  // "%r<100000>" declaration costs nothing until its registers appear).
  StringMap<std::pair<unsigned, unsigned>> Ranges; // prefix -> count, width
  StringMap<unsigned> Singles;                     // name -> width
  for (const RegDecl &R : F.Regs) {
    if (R.Range)
      Ranges[R.Name] = {R.Count, R.Width};
    else
      Singles[R.Name] = R.Width;
  }
  auto Declare = [&](StringRef Name) {
    if (Name.empty() || RegIds.count(Name))
      return;
    std::optional<unsigned> Width;
    auto S = Singles.find(Name);
    if (S != Singles.end()) {
      Width = S->second;
    } else {
      size_t Digits = Name.size();
      while (Digits > 0 && isDigit(Name[Digits - 1]))
        --Digits;
      unsigned Idx;
      auto R = Ranges.find(Name.take_front(Digits));
      if (Digits < Name.size() && R != Ranges.end() &&
          !Name.drop_front(Digits).getAsInteger(10, Idx) &&
          Idx < R->second.first)
        Width = R->second.second;
    }
    if (!Width)
      return;
    RegIds[Name] = RegWidth.size();
    RegWidth.push_back(*Width);
  };
  for (const Stmt &St : F.Body) {
    if (St.IsLabel)
      continue;
    Declare(St.I.Guard);
    for (const Operand &O : St.I.Ops) {
      if (O.Kind == Operand::Reg || (O.Kind == Operand::Addr && O.BaseIsReg))
        Declare(O.Name);
      for (StringRef R : O.Regs)
        Declare(R);
    }
  }
}

void FunctionAnalysis::buildBlocks() {
  assignRegisterIds();
  bool StartNew = true;
  size_t NextPragma = 0;
  for (size_t SI = 0; SI < F.Body.size(); ++SI) {
    const Stmt &St = F.Body[SI];
    for (; NextPragma < F.NoUnroll.size() && F.NoUnroll[NextPragma] <= SI;
         ++NextPragma)
      NoUnrollAt.push_back(Instrs.size());
    if (St.IsLabel) {
      if (Blocks.empty() || Blocks.back().End != Blocks.back().Begin ||
          !StartNew) {
        Block &B = Blocks.add();
        B.Begin = B.End = Instrs.size();
      }
      LabelBlock[St.Label] = Blocks.size() - 1;
      StartNew = false;
      continue;
    }
    if (StartNew || Blocks.empty()) {
      Block &B = Blocks.add();
      B.Begin = B.End = Instrs.size();
      StartNew = false;
    }
    Instrs.push_back(&St.I);
    InstrBlock.push_back(Blocks.size() - 1);
    Blocks.back().End = Instrs.size();
    StringRef Base = St.I.Mods[0];
    if (Base == "bra" || Base == "brx" || Base == "ret" || Base == "exit" ||
        Base == "trap")
      StartNew = true;
  }
  if (Blocks.empty())
    Blocks.add();
  for (unsigned BI = 0; BI < Blocks.size(); ++BI) {
    Block &B = Blocks[BI];
    bool FallThrough = true;
    auto AddSucc = [&](StringRef Label) {
      auto It = LabelBlock.find(Label);
      if (It != LabelBlock.end())
        B.Succs.push_back(It->second);
      else
        S.Warnings.push_back(
            formatv("{0}branch to unknown label {1}", where(), Label).str());
    };
    if (B.End > B.Begin) {
      const Instr &T = *Instrs[B.End - 1];
      StringRef Base = T.Mods[0];
      bool Guarded = !T.Guard.empty();
      if (Base == "bra") {
        if (!T.Ops.empty() && T.Ops[0].Kind == Operand::Sym)
          AddSucc(T.Ops[0].Name);
        FallThrough = Guarded;
      } else if (Base == "brx") {
        if (T.Ops.size() >= 2) {
          auto It = F.BranchTargets.find(T.Ops[1].Name);
          if (It != F.BranchTargets.end())
            for (StringRef L : It->second)
              AddSucc(L);
        }
        FallThrough = Guarded;
      } else if (Base == "ret" || Base == "exit" || Base == "trap") {
        FallThrough = Guarded;
      }
    }
    if (FallThrough && BI + 1 < Blocks.size())
      B.Succs.push_back(BI + 1);
    std::sort(B.Succs.begin(), B.Succs.end());
    B.Succs.erase(std::unique(B.Succs.begin(), B.Succs.end()), B.Succs.end());
  }
  for (unsigned BI = 0; BI < Blocks.size(); ++BI)
    for (unsigned Sx : Blocks[BI].Succs)
      Blocks[Sx].Preds.push_back(BI);
}

bool FunctionAnalysis::checkRetreatingEdges(
    const std::vector<unsigned> &RPONum) {
  // A retreating edge (in RPO) is a back edge when its target dominates its
  // source. Otherwise it closes a cycle entered at more than one block
  // (irreducible), which LoopInfo silently leaves out: its blocks keep
  // weight 1, so say so, once per such edge.
  bool HasBackEdge = false;
  for (unsigned BI : RPO)
    for (unsigned Sx : Blocks[BI].Succs) {
      if (RPONum[Sx] > RPONum[BI])
        continue;
      if (dominates(Sx, BI))
        HasBackEdge = true;
      else
        S.Warnings.push_back(formatv("{0}irreducible control flow; the "
                                     "cycle is not weighted",
                                     where())
                                 .str());
    }
  return HasBackEdge;
}

void FunctionAnalysis::findNaturalLoops() {
  // LoopInfo merges the natural loops of one header (all its back edges)
  // into one loop and leaves unreachable blocks out, as the weights need.
  BlockLoopInfo LI;
  LI.analyze(DomTree);
  // Loops in header RPO order: a loop comes after the loops containing it,
  // so each Blocks[].Loops below lists them outer to inner.
  std::vector<unsigned> Members;
  for (unsigned H : RPO) {
    const CFGLoop *L = LI.getLoopFor(&Blocks[H]);
    if (!L || L->getHeader() != &Blocks[H])
      continue;
    Members.clear();
    for (const Block *B : L->blocks())
      Members.push_back(B->Index);
    for (unsigned BI : Members)
      Blocks[BI].Loops.push_back(Loops.size());
    Loop &NL = Loops.emplace_back();
    NL.Header = H;
    NL.Body = BlockSet(Members);
  }
}

void FunctionAnalysis::computeLoops() {
  // RPONum: position in RPO, ~0u for blocks the entry does not reach.
  std::vector<unsigned> RPONum(Blocks.size(), ~0u);
  for (Block *B : ReversePostOrderTraversal<BlockGraph *>(&Blocks)) {
    RPONum[B->Index] = RPO.size();
    RPO.push_back(B->Index);
    B->Reachable = true;
  }
  DomTree.recalculate(Blocks);
  // DFS numbers make every later dominates() query O(1).
  DomTree.updateDFSNumbers();
  // Without a back edge there is no loop; LoopInfo would still walk the
  // dominator tree and the CFG to find none (4% of all the work for a long
  // loop-free body).
  if (checkRetreatingEdges(RPONum))
    findNaturalLoops();
}

} // namespace ptx
} // namespace flipflop
