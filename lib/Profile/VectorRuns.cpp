//===- VectorRuns.cpp - Scalar accesses the compiler merges into vectors --===//
#include "flipflop/Profile/VectorRuns.h"
#include "flipflop/Profile/OpRules.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <cstdlib>
#include <map>
#include <tuple>

namespace flipflop {

bool assemblerMergesSteppedPointers() {
  static const bool Merges = [] {
    const char *V = std::getenv("FLIPFLOP_FIT_ASSEMBLER");
    return !(V && llvm::StringRef(V) == "opencl-driver");
  }();
  return Merges;
}

namespace {
/// What two accesses must share, besides their base, to be one vector.
auto runKey(const MemAccess &A) {
  return std::make_tuple(A.BaseId, A.IsStore, unsigned(A.Space), A.Bytes,
                         A.StrideBytes, unsigned(A.Pattern), A.Count,
                         A.LaneMod, A.LaneDivStrideBytes);
}
using RunKey = decltype(runKey(std::declval<const MemAccess &>()));

/// Whether the lanes' addresses relate is no condition: the vectorizer
/// (and ptxas) merge one thread's adjacent accesses whatever the others do
/// (llm.c's `store128` of an int4 at a div/mod-indexed address is one
/// st.v4 in the PTX, four i32 stores in the IR).
bool isCandidate(const MemAccess &A) {
  return A.BaseId && !A.IsAtomic &&
         (A.Bytes == 1 || A.Bytes == 2 || A.Bytes == 4 || A.Bytes == 8) &&
         (A.Space == AddrSpace::Shared || A.Space == AddrSpace::Global ||
          A.Space == AddrSpace::Generic || A.Space == AddrSpace::Local);
}

/// \p First widened to \p N elements: its pattern and bank conflicts.
void widen(MemAccess &First, unsigned N) {
  First.Bytes *= N;
  // A stride not known (a row pitch argument: Strided at 0 bytes, a sector
  // a lane) stays what it is.
  if (First.Pattern == AccessPattern::Strided && First.StrideBytes == 0)
    return;
  if ((First.Pattern == AccessPattern::Coalesced ||
       First.Pattern == AccessPattern::Strided) &&
      !First.LaneMod)
    First.Pattern =
        static_cast<uint64_t>(std::llabs(First.StrideBytes)) <= First.Bytes
            ? AccessPattern::Coalesced
            : AccessPattern::Strided;
  if (First.Space == AddrSpace::Shared)
    First.BankConflictWays =
        First.LaneMod ? laneBankConflictWays(First)
                      : bankConflictWays(First.Bytes, First.StrideBytes,
                                         First.Pattern);
}
} // namespace

void mergeVectorRuns(std::vector<MemAccess> &As, size_t Begin,
                     llvm::function_ref<uint64_t(size_t)> Alignment,
                     std::array<double, NumOpClasses> &Ops,
                     llvm::function_ref<uint64_t(size_t)> Residue) {
  if (As.size() < Begin + 2)
    return;
  // The block's candidates by (key, offset), in program order: an unrolled
  // loop reads the same offsets again, and each read merges with its own
  // neighbours.
  std::map<std::pair<RunKey, int64_t>, std::vector<size_t>> ByOffset;
  for (size_t I = Begin; I < As.size(); ++I)
    if (isCandidate(As[I]))
      ByOffset[{runKey(As[I]), As[I].Offset}].push_back(I);
  std::vector<bool> Dead(As.size(), false);
  std::map<std::pair<RunKey, int64_t>, size_t> Used; // consumed per entry
  auto Take = [&](const RunKey &K, int64_t Off, unsigned N,
                  llvm::SmallVectorImpl<size_t> &Out) {
    for (unsigned J = 1; J < N; ++J) {
      auto It = ByOffset.find({K, Off + int64_t(J) * As[Out[0]].Bytes});
      size_t U = It == ByOffset.end() ? 0 : Used[It->first];
      if (It == ByOffset.end() || U >= It->second.size())
        return false;
      Out.push_back(It->second[U]);
    }
    return true;
  };
  for (auto &[KO, List] : ByOffset) {
    for (size_t &U = Used[KO]; U < List.size(); ++U) {
      size_t I = List[U];
      MemAccess &First = As[I];
      // The vector's width must be the first access's known alignment (a
      // row read off `in + x * 16` with align 4 stays scalar; a float4 tile
      // element with align 16 is one v4 access).
      uint64_t Align = Alignment(I);
      const int64_t Res = Residue ? int64_t(Residue(I)) : 0;
      llvm::SmallVector<size_t, 16> Run{I};
      // The widest vector the alignment allows whose elements are all
      // there: 16 bytes, else 8, else 4 (bf16 pairs and quads, llm.c's
      // Packed128 of 8 bf16 one 16-byte load).
      unsigned N = 1;
      for (unsigned Width : {16u, 8u, 4u}) {
        if (Width <= First.Bytes || Align < Width ||
            (First.Offset + Res) % int64_t(Width))
          continue;
        Run.resize(1);
        if (Take(KO.first, KO.second, Width / First.Bytes, Run)) {
          N = Width / First.Bytes;
          break;
        }
      }
      if (N == 1)
        continue;
      for (unsigned J = 1; J < N; ++J) {
        Dead[Run[J]] = true;
        ++Used[{KO.first, KO.second + int64_t(J) * First.Bytes}];
      }
      OpClass C = memOpClass(First.Space, First.IsStore, First.IsAtomic);
      Ops[static_cast<unsigned>(C)] -= (N - 1) * First.Count;
      widen(First, N);
    }
  }
  size_t Out = Begin;
  for (size_t I = Begin; I < As.size(); ++I)
    if (!Dead[I])
      As[Out++] = As[I];
  As.resize(Out);
}

} // namespace flipflop
