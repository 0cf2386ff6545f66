//===- PTXCFG.cpp - PTX basic blocks, dominators, loops -------------------===//
//
// Basic blocks and their edges, reverse post-order, the dominator tree
// (Cooper-Harvey-Kennedy idoms, then DFS numbers for an O(1) dominance
// test) and natural loops merged per header.
//
//===----------------------------------------------------------------------===//
#include "PTXAnalysis.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <map>

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
  for (const Stmt &St : F.Body) {
    if (St.IsLabel) {
      if (Blocks.empty() || Blocks.back().End != Blocks.back().Begin ||
          !StartNew) {
        Block B;
        B.Begin = B.End = Instrs.size();
        Blocks.push_back(B);
      }
      LabelBlock[St.Label] = Blocks.size() - 1;
      StartNew = false;
      continue;
    }
    if (StartNew || Blocks.empty()) {
      Block B;
      B.Begin = B.End = Instrs.size();
      Blocks.push_back(B);
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
  if (Blocks.empty()) {
    Block B;
    Blocks.push_back(B);
  }
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

void FunctionAnalysis::computeRPO() {
  unsigned N = Blocks.size();
  // Reverse post-order from the entry (iterative DFS).
  std::vector<unsigned> Order;
  RPONum.assign(N, ~0u);
  std::vector<std::pair<unsigned, unsigned>> Stack{{0, 0}};
  std::vector<bool> Seen(N, false);
  Seen[0] = true;
  while (!Stack.empty()) {
    auto &[BI, K] = Stack.back();
    if (K < Blocks[BI].Succs.size()) {
      unsigned Sx = Blocks[BI].Succs[K++];
      if (!Seen[Sx]) {
        Seen[Sx] = true;
        Stack.push_back({Sx, 0});
      }
    } else {
      Order.push_back(BI);
      Stack.pop_back();
    }
  }
  std::reverse(Order.begin(), Order.end());
  for (unsigned I = 0; I < Order.size(); ++I) {
    RPONum[Order[I]] = I;
    Blocks[Order[I]].Reachable = true;
  }
  RPO = std::move(Order);
}

void FunctionAnalysis::computeDominators() {
  // Immediate dominators (Cooper, Harvey, Kennedy).
  IDom.assign(Blocks.size(), -1);
  IDom[0] = 0;
  auto Intersect = [&](int A, int B) {
    while (A != B) {
      while (RPONum[A] > RPONum[B])
        A = IDom[A];
      while (RPONum[B] > RPONum[A])
        B = IDom[B];
    }
    return A;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned BI : RPO) {
      if (BI == 0)
        continue;
      int New = -1;
      for (unsigned P : Blocks[BI].Preds) {
        if (IDom[P] < 0)
          continue;
        New = New < 0 ? (int)P : Intersect(P, New);
      }
      if (New >= 0 && IDom[BI] != New) {
        IDom[BI] = New;
        Changed = true;
      }
    }
  }
}

void FunctionAnalysis::numberDominatorTree() {
  // Children lists of the dominator tree (CSR), then an iterative DFS that
  // gives every reachable block the interval [DomIn, DomOut].
  unsigned N = Blocks.size();
  std::vector<unsigned> First(N + 1, 0), Kids(RPO.empty() ? 0 : RPO.size() - 1);
  for (unsigned BI : RPO)
    if (BI != 0)
      ++First[IDom[BI] + 1];
  for (unsigned I = 0; I < N; ++I)
    First[I + 1] += First[I];
  std::vector<unsigned> Fill(First.begin(), First.end() - 1);
  for (unsigned BI : RPO)
    if (BI != 0)
      Kids[Fill[IDom[BI]]++] = BI;
  DomIn.assign(N, 0);
  DomOut.assign(N, 0);
  unsigned Clock = 0;
  std::vector<std::pair<unsigned, unsigned>> Stack{{0, First[0]}};
  DomIn[0] = Clock++;
  while (!Stack.empty()) {
    auto &[BI, K] = Stack.back();
    if (K < First[BI + 1]) {
      unsigned C = Kids[K++];
      DomIn[C] = Clock++;
      Stack.push_back({C, First[C]});
    } else {
      DomOut[BI] = Clock++;
      Stack.pop_back();
    }
  }
}

void FunctionAnalysis::findNaturalLoops() {
  unsigned N = Blocks.size();
  // Back edges (the target dominates the source), grouped by header.
  std::map<unsigned, SmallVector<unsigned, 2>> Latches;
  for (unsigned BI : RPO)
    for (unsigned Sx : Blocks[BI].Succs) {
      if (!dominates(Sx, BI)) {
        if (RPONum[Sx] <= RPONum[BI] && Blocks[Sx].Reachable)
          S.Warnings.push_back(formatv("{0}irreducible control flow; the "
                                       "cycle is not weighted",
                                       where())
                                   .str());
        continue;
      }
      Latches[Sx].push_back(BI);
    }
  // Natural loops merged per header, in header RPO order: the header and
  // what reaches a latch backwards without passing the header. Mark[X] is
  // the last header whose body took X.
  std::vector<std::pair<unsigned, unsigned>> Headers;
  for (auto &[H, Ls] : Latches)
    Headers.push_back({RPONum[H], H});
  std::sort(Headers.begin(), Headers.end());
  std::vector<unsigned> Mark(N, ~0u);
  for (auto [R, H] : Headers) {
    std::vector<unsigned> Members{H}, Work;
    Mark[H] = H;
    for (unsigned BI : Latches[H])
      if (Mark[BI] != H) {
        Mark[BI] = H;
        Members.push_back(BI);
        Work.push_back(BI);
      }
    while (!Work.empty()) {
      unsigned X = Work.back();
      Work.pop_back();
      for (unsigned P : Blocks[X].Preds)
        if (Blocks[P].Reachable && Mark[P] != H) {
          Mark[P] = H;
          Members.push_back(P);
          Work.push_back(P);
        }
    }
    Loop L;
    L.Header = H;
    L.Body = BlockSet(Members);
    Loops.push_back(std::move(L));
  }
  for (unsigned LI = 0; LI < Loops.size(); ++LI)
    for (unsigned BI : Loops[LI].Body.members())
      Blocks[BI].Loops.push_back(LI);
}

void FunctionAnalysis::computeLoops() {
  computeRPO();
  computeDominators();
  numberDominatorTree();
  findNaturalLoops();
}

} // namespace ptx
} // namespace flipflop
