//===- VectorRuns.cpp - Scalar accesses the compiler merges into vectors --===//
#include "flipflop/Profile/VectorRuns.h"
#include "flipflop/Profile/OpRules.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdlib>
#include <map>
#include <tuple>

namespace flipflop {

namespace {
/// What two accesses must share, besides their base, to be one vector.
auto runKey(const MemAccess &A) {
  return std::make_tuple(A.BaseId, A.IsStore, unsigned(A.Space), A.Bytes,
                         A.StrideBytes, unsigned(A.Pattern), A.Count,
                         A.LaneMod, A.LaneDivStrideBytes);
}
using RunKey = decltype(runKey(std::declval<const MemAccess &>()));

bool isCandidate(const MemAccess &A) {
  return A.BaseId && !A.IsAtomic && (A.Bytes == 4 || A.Bytes == 8) &&
         A.Pattern != AccessPattern::Unknown &&
         (A.Space == AddrSpace::Shared || A.Space == AddrSpace::Global ||
          A.Space == AddrSpace::Generic || A.Space == AddrSpace::Local);
}

/// \p First widened to \p N elements: its pattern and bank conflicts.
void widen(MemAccess &First, unsigned N) {
  First.Bytes *= N;
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
                     std::array<double, NumOpClasses> &Ops) {
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
      llvm::SmallVector<size_t, 4> Run{I};
      unsigned N = 1;
      if (Align >= 16 && First.Offset % 16 == 0 &&
          Take(KO.first, KO.second, 16 / First.Bytes, Run)) {
        N = 16 / First.Bytes;
      } else {
        Run.resize(1);
        if (First.Bytes == 4 && Align >= 8 && First.Offset % 8 == 0 &&
            Take(KO.first, KO.second, 2, Run))
          N = 2;
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
