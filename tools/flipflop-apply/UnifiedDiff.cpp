//===- UnifiedDiff.cpp - A small unified line diff ------------------------===//
#include "UnifiedDiff.h"

#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <vector>

using namespace llvm;

namespace flipflop {
namespace apply {

namespace {
enum class Op : char { Keep = ' ', Del = '-', Ins = '+' };
struct Edit {
  Op Kind;
  size_t OldLine, NewLine; ///< Indices of the line in Old / New (0-based).
};
} // namespace

/// Splits into lines, each keeping its terminating newline.
static std::vector<StringRef> splitLines(StringRef S) {
  std::vector<StringRef> Lines;
  while (!S.empty()) {
    size_t NL = S.find('\n');
    size_t Len = NL == StringRef::npos ? S.size() : NL + 1;
    Lines.push_back(S.take_front(Len));
    S = S.drop_front(Len);
  }
  return Lines;
}

/// Myers' O((N+M)D) shortest edit script. Keeps one V vector per D for the
/// backtrack; D is small for the edits this tool makes.
static std::vector<Edit> diffLines(const std::vector<StringRef> &A,
                                   const std::vector<StringRef> &B) {
  const long N = A.size(), M = B.size(), Max = N + M, Off = Max + 1;
  std::vector<long> V(2 * Max + 3, 0);
  std::vector<std::vector<long>> Trace;
  long FinalD = 0;
  for (long D = 0; D <= Max; ++D) {
    Trace.push_back(V);
    bool Done = false;
    for (long K = -D; K <= D; K += 2) {
      long X;
      if (K == -D || (K != D && V[Off + K - 1] < V[Off + K + 1]))
        X = V[Off + K + 1]; // Down: insertion.
      else
        X = V[Off + K - 1] + 1; // Right: deletion.
      long Y = X - K;
      while (X < N && Y < M && A[X] == B[Y])
        ++X, ++Y;
      V[Off + K] = X;
      if (X >= N && Y >= M) {
        Done = true;
        break;
      }
    }
    if (Done) {
      FinalD = D;
      break;
    }
  }
  // Backtrack from (N, M).
  std::vector<Edit> Script;
  long X = N, Y = M;
  for (long D = FinalD; D >= 0; --D) {
    const std::vector<long> &VD = Trace[D];
    long K = X - Y;
    long PrevK;
    if (D == 0)
      PrevK = K;
    else if (K == -D || (K != D && VD[Off + K - 1] < VD[Off + K + 1]))
      PrevK = K + 1;
    else
      PrevK = K - 1;
    long PrevX = D == 0 ? 0 : VD[Off + PrevK];
    long PrevY = PrevX - PrevK;
    long StartX = D == 0 ? 0 : (PrevK == K + 1 ? PrevX : PrevX + 1);
    long StartY = StartX - K;
    while (X > StartX && Y > StartY) {
      --X, --Y;
      Script.push_back({Op::Keep, size_t(X), size_t(Y)});
    }
    if (D > 0) {
      if (PrevK == K + 1)
        Script.push_back({Op::Ins, size_t(PrevX), size_t(PrevY)});
      else
        Script.push_back({Op::Del, size_t(PrevX), size_t(PrevY)});
    }
    X = PrevX;
    Y = PrevY;
  }
  std::reverse(Script.begin(), Script.end());
  return Script;
}

static void writeLine(raw_ostream &OS, char Prefix, StringRef Line) {
  OS << Prefix << Line;
  if (!Line.ends_with("\n"))
    OS << "\n\\ No newline at end of file\n";
}

void writeUnifiedDiff(raw_ostream &OS, StringRef OldName, StringRef NewName,
                      StringRef Old, StringRef New, unsigned Context) {
  if (Old == New)
    return;
  std::vector<StringRef> A = splitLines(Old), B = splitLines(New);
  std::vector<Edit> Script = diffLines(A, B);
  OS << "--- " << OldName << "\n+++ " << NewName << "\n";
  size_t I = 0, E = Script.size();
  while (I < E) {
    // Find the next change.
    while (I < E && Script[I].Kind == Op::Keep)
      ++I;
    if (I == E)
      break;
    size_t Begin = I >= Context ? I - Context : 0;
    // Extend the hunk while changes are within 2*Context of each other.
    size_t End = I;
    while (true) {
      while (End < E && Script[End].Kind != Op::Keep)
        ++End;
      size_t Next = End;
      while (Next < E && Script[Next].Kind == Op::Keep)
        ++Next;
      if (Next < E && Next - End <= 2 * Context) {
        End = Next;
        continue;
      }
      End = std::min(E, End + Context);
      break;
    }
    size_t OldStart = 0, OldCount = 0, NewStart = 0, NewCount = 0;
    bool SeenOld = false, SeenNew = false;
    for (size_t J = Begin; J < End; ++J) {
      const Edit &Ed = Script[J];
      if (Ed.Kind != Op::Ins) {
        if (!SeenOld)
          OldStart = Ed.OldLine, SeenOld = true;
        ++OldCount;
      }
      if (Ed.Kind != Op::Del) {
        if (!SeenNew)
          NewStart = Ed.NewLine, SeenNew = true;
        ++NewCount;
      }
    }
    // diff(1) convention: an empty range names the line before it.
    if (!SeenOld)
      OldStart = Script[Begin].OldLine;
    if (!SeenNew)
      NewStart = Script[Begin].NewLine;
    OS << "@@ -" << (OldCount ? OldStart + 1 : OldStart);
    if (OldCount != 1)
      OS << "," << OldCount;
    OS << " +" << (NewCount ? NewStart + 1 : NewStart);
    if (NewCount != 1)
      OS << "," << NewCount;
    OS << " @@\n";
    for (size_t J = Begin; J < End; ++J) {
      const Edit &Ed = Script[J];
      writeLine(OS, static_cast<char>(Ed.Kind),
                Ed.Kind == Op::Ins ? B[Ed.NewLine] : A[Ed.OldLine]);
    }
    I = End;
  }
}

} // namespace apply
} // namespace flipflop
