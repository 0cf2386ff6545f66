//===- Guards.cpp - Share of threads behind bounds checks -----------------===//
//
// A kernel launched over more threads than it has work for skips the work in
// the extra threads: `if (i < n)`, or a tiled kernel whose grid covers the
// problem several times over. The profile records each bounds check as an
// affine form of the thread and block indices (AffineGuard) and the share of
// work behind each set of checks (GuardedWork); this file counts, for one
// launch, the threads that pass. docs/MODEL.md, "Bounds checks".
//
//===----------------------------------------------------------------------===//
#include "flipflop/Model/Model.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace flipflop {
namespace {

/// Every set of guards has its share of the memory bytes counted.
bool hasMemoryShares(const KernelProfile &K) {
  return llvm::all_of(K.Guarded,
                      [](const GuardedWork &W) { return W.MemShare >= 0; });
}

/// Free variables: tid.xyz, ctaid.xyz, the loop iterations and the warp of
/// the block (threadIdx.x / 32; a set of checks that reads it and not
/// threadIdx.x is counted over warps, 32 threads each).
constexpr unsigned NV = 7 + NumIterSlots;
constexpr unsigned WarpVar = 6 + NumIterSlots;

/// Whether \p G reads the warp of the block; and threadIdx.x.
bool readsWarp(const AffineGuard &G) { return G.Coef[GVWarp + 1] != 0; }
bool readsTidX(const AffineGuard &G) {
  return G.Coef[GVTid] != 0 || G.Coef[GVWarp] != 0;
}

/// The checks of \p Set that hold at \p Block (AffineGuard::at), less those
/// on the warp where another reads threadIdx.x (the two are not
/// independent variables).
std::vector<unsigned> checksAt(const KernelProfile &K,
                               const std::vector<unsigned> &Set,
                               const std::array<unsigned, 3> &Block) {
  std::vector<unsigned> Out;
  bool TidX = false;
  for (unsigned GI : Set)
    TidX |= GI < K.Guards.size() && K.Guards[GI].at(Block) &&
            readsTidX(K.Guards[GI]);
  for (unsigned GI : Set)
    if (GI < K.Guards.size() && K.Guards[GI].at(Block) &&
        !(TidX && readsWarp(K.Guards[GI])))
      Out.push_back(GI);
  return Out;
}

/// sum(A[v] * x_v) <= T over the free variables.
struct Ineq {
  double A[NV] = {};
  double T = 0;
};

/// Points of {x : every inequality holds} over the box [0, Range[v]),
/// divided by the box's size. The variable with the largest range is solved
/// for in closed form; the others are enumerated (evenly sampled beyond
/// 2^16 points).
double passShare(const std::vector<Ineq> &Is, const unsigned Vars,
                 const double Range[NV]) {
  unsigned Solve = NV;
  std::vector<unsigned> Enum;
  for (unsigned V = 0; V < NV; ++V) {
    if (!(Vars & (1u << V)))
      continue;
    if (Solve == NV || Range[V] > Range[Solve]) {
      if (Solve != NV)
        Enum.push_back(Solve);
      Solve = V;
    } else {
      Enum.push_back(V);
    }
  }
  if (Solve == NV) // No variable: the guards are decided.
    return std::all_of(Is.begin(), Is.end(),
                       [](const Ineq &Q) { return Q.T >= 0; })
               ? 1
               : 0;
  double Points = 1;
  for (unsigned V : Enum)
    Points *= Range[V];
  const double Budget = 65536;
  double Thin = Points > Budget
                    ? std::pow(Budget / Points, 1.0 / std::max<size_t>(1, Enum.size()))
                    : 1.0;
  std::vector<double> Steps(Enum.size());
  std::vector<unsigned> N(Enum.size());
  for (size_t I = 0; I < Enum.size(); ++I) {
    double R = Range[Enum[I]];
    N[I] = unsigned(std::max(1.0, std::floor(R * Thin)));
    Steps[I] = R / N[I];
  }
  std::vector<unsigned> Idx(Enum.size(), 0);
  double Pass = 0, Seen = 0;
  const double RS = Range[Solve];
  while (true) {
    double Lo = 0, Hi = RS - 1; // Integer range of the solved variable.
    for (const Ineq &Q : Is) {
      double T = Q.T;
      for (size_t I = 0; I < Enum.size(); ++I) {
        // Sample points at stratum midpoints, floored to integers.
        double X = std::floor((Idx[I] + 0.5) * Steps[I]);
        T -= Q.A[Enum[I]] * X;
      }
      double A = Q.A[Solve];
      if (A > 0)
        Hi = std::min(Hi, std::floor(T / A));
      else if (A < 0)
        Lo = std::max(Lo, std::ceil(T / A));
      else if (T < 0)
        Hi = -1;
    }
    Pass += std::max(0.0, Hi - Lo + 1);
    Seen += RS;
    size_t I = 0;
    for (; I < Idx.size(); ++I) {
      if (++Idx[I] < N[I])
        break;
      Idx[I] = 0;
    }
    if (I == Idx.size())
      break;
  }
  return Seen > 0 ? Pass / Seen : 1;
}

/// Fixed values of some indices: the block's (Ctaid) and the thread's
/// within it (Tid); null leaves them free over their ranges.
struct Fixed {
  const std::array<double, 3> *Ctaid = nullptr, *Tid = nullptr;
};

/// Share of the launch's threads that pass every guard of \p Set; with
/// \p At, of the threads (or iterations of the thread) at those indices.
double setShare(const KernelProfile &K, const std::vector<unsigned> &AllSet,
                const std::array<unsigned, 3> &Block,
                const std::array<unsigned, 3> &Grid, Fixed At = {}) {
  const std::vector<unsigned> Set = checksAt(K, AllSet, Block);
  double Range[NV] = {double(Block[0]), double(Block[1]), double(Block[2]),
                      double(std::max(1u, Grid[0])),
                      double(std::max(1u, Grid[1])),
                      double(std::max(1u, Grid[2]))};
  std::fill(Range + 6, Range + NV, 1.0);
  Range[WarpVar] = std::max(1.0, warpsOfBlock(Block));
  for (unsigned GI : Set)
    if (GI < K.Guards.size())
      for (unsigned I = 0; I < NumIterSlots; ++I)
        Range[6 + I] = std::max(Range[6 + I],
                                std::floor(K.Guards[GI].IterTrip[I]));
  std::vector<Ineq> Is;
  std::vector<unsigned> Uses;
  for (unsigned GI : Set) {
    if (GI >= K.Guards.size())
      continue;
    const AffineGuard &G = K.Guards[GI];
    Ineq Q;
    double C = double(G.Const);
    for (unsigned D = 0; D < 3; ++D) {
      Q.A[D] = double(G.Coef[GVTid + D]);
      Q.A[3 + D] = blockIdxCoef(G.Coef, D, Block);
    }
    C += blockDimTerms(G.Coef, Block);
    for (unsigned I = 0; I < NumIterSlots; ++I)
      Q.A[6 + I] = double(G.Coef[GVIter + I]);
    Q.A[WarpVar] = double(G.Coef[GVWarp + 1]);
    if (At.Tid) {
      C += Q.A[WarpVar] * std::floor((*At.Tid)[0] / 32);
      Q.A[WarpVar] = 0;
    }
    for (unsigned D = 0; D < 3; ++D) {
      if (At.Tid) {
        C += Q.A[D] * (*At.Tid)[D];
        Q.A[D] = 0;
      }
      if (At.Ctaid) {
        C += Q.A[3 + D] * (*At.Ctaid)[D];
        Q.A[3 + D] = 0;
      }
    }
    // Integers: F < 0 is F <= -1.
    Q.T = -C - (G.Strict ? 1 : 0);
    unsigned U = 0;
    for (unsigned V = 0; V < NV; ++V)
      if (Q.A[V] != 0 && Range[V] > 1)
        U |= 1u << V;
      else if (Q.A[V] != 0)
        Q.A[V] = 0; // A variable that is always 0.
    Is.push_back(Q);
    Uses.push_back(U);
  }
  // Guards over disjoint variables are independent: split into components.
  double Share = 1;
  std::vector<bool> Done(Is.size(), false);
  for (size_t I = 0; I < Is.size(); ++I) {
    if (Done[I])
      continue;
    unsigned Vars = Uses[I];
    std::vector<Ineq> Comp{Is[I]};
    Done[I] = true;
    for (bool Grew = true; Grew;) {
      Grew = false;
      for (size_t J = 0; J < Is.size(); ++J)
        if (!Done[J] && (Uses[J] & Vars || Uses[J] == 0)) {
          Done[J] = true;
          Vars |= Uses[J];
          Comp.push_back(Is[J]);
          Grew = true;
        }
    }
    Share *= passShare(Comp, Vars, Range);
  }
  return Share;
}

/// The work share of a block's busiest thread behind the guards of \p Set
/// (the block at \p Ctaid). Per dimension, the candidates are the end of
/// the range that every guard prefers (the smallest left-hand side), or,
/// where guards pull both ways, both ends and the middle; the largest share
/// among them.
double busiestShare(const KernelProfile &K, const std::vector<unsigned> &Set,
                    const std::array<unsigned, 3> &Block,
                    const std::array<unsigned, 3> &Grid,
                    const std::array<double, 3> &Ctaid) {
  std::vector<double> Cands[3];
  for (unsigned D = 0; D < 3; ++D) {
    double Last = std::max(1u, Block[D]) - 1.0;
    bool Up = false, Down = false;
    for (unsigned GI : checksAt(K, Set, Block)) {
      // The warp of the block runs along x with threadIdx.x.
      for (double A : {double(K.Guards[GI].Coef[GVTid + D]),
                       D ? 0.0 : double(K.Guards[GI].Coef[GVWarp + 1])}) {
        Up |= A < 0;
        Down |= A > 0;
      }
    }
    if (Last == 0 || !(Up || Down))
      Cands[D] = {0};
    else if (Up && Down)
      Cands[D] = {0, std::floor(Last / 2), Last};
    else
      Cands[D] = {Up ? Last : 0};
  }
  double Best = 0;
  for (double X : Cands[0])
    for (double Y : Cands[1])
      for (double Z : Cands[2]) {
        std::array<double, 3> T = {X, Y, Z};
        Best = std::max(Best, setShare(K, Set, Block, Grid, {&Ctaid, &T}));
      }
  return Best;
}

/// Block indices along grid dimension \p D that stand for all of them,
/// with their weights (blocks). A guard `A * blockIdx + rest <= T` passes
/// every thread of the blocks below one index and fails every thread above
/// another (or the reverse), whatever the rest (threads, iterations, other
/// block indices) takes; only the blocks between are partly past the edge.
/// Those are taken one by one (\p Most strata beyond \p Most of them), and
/// each stretch between them, whose blocks every guard treats alike, by its
/// middle.
std::vector<std::pair<double, double>>
blockSamples(const KernelProfile &K, unsigned D,
             const std::array<unsigned, 3> &Block,
             const std::array<unsigned, 3> &Grid, double Most) {
  const double N = std::max(1u, Grid[D]);
  // Intervals [Lo, Hi] of partly passing blocks.
  std::vector<std::pair<double, double>> Partial;
  for (const AffineGuard &G : K.Guards) {
    double A = blockIdxCoef(G.Coef, D, Block);
    if (A == 0 || !G.at(Block))
      continue;
    double RMin = double(G.Const) + blockDimTerms(G.Coef, Block),
           RMax = RMin;
    auto Span = [&](double Coef, double Range) {
      double V = Coef * (std::max(1.0, Range) - 1);
      RMin += std::min(0.0, V);
      RMax += std::max(0.0, V);
    };
    Span(double(G.Coef[GVWarp + 1]), warpsOfBlock(Block));
    for (unsigned E = 0; E < 3; ++E) {
      Span(double(G.Coef[GVTid + E]), Block[E]);
      if (E != D)
        Span(blockIdxCoef(G.Coef, E, Block), Grid[E]);
    }
    for (unsigned I = 0; I < NumIterSlots; ++I)
      Span(double(G.Coef[GVIter + I]), std::floor(G.IterTrip[I]));
    // Passes for every rest where A*c + RMax <= T, for none where
    // A*c + RMin > T (T = -strict).
    double T = G.Strict ? -1 : 0;
    double C1 = (T - RMax) / A, C2 = (T - RMin) / A;
    double Lo = std::min(C1, C2), Hi = std::max(C1, C2);
    Lo = std::max(0.0, std::floor(Lo));
    Hi = std::min(N - 1, std::ceil(Hi));
    if (Lo <= Hi)
      Partial.push_back({Lo, Hi});
  }
  // Overlapping intervals (the copies of an unrolled loop) as one.
  std::sort(Partial.begin(), Partial.end());
  std::vector<std::pair<double, double>> Merged;
  for (auto [Lo, Hi] : Partial)
    if (!Merged.empty() && Lo <= Merged.back().second + 1)
      Merged.back().second = std::max(Merged.back().second, Hi);
    else
      Merged.push_back({Lo, Hi});
  Partial = std::move(Merged);
  std::vector<std::pair<double, double>> Out;
  double Next = 0; // First index not yet sampled.
  auto Stretch = [&](double Lo, double Hi) { // Alike blocks [Lo, Hi].
    if (Hi >= Lo)
      Out.push_back({std::floor((Lo + Hi) / 2), Hi - Lo + 1});
  };
  for (auto [Lo, Hi] : Partial) {
    Lo = std::max(Lo, Next);
    if (Hi < Lo)
      continue;
    Stretch(Next, Lo - 1);
    double Count = Hi - Lo + 1;
    if (Count <= Most) {
      for (double C = Lo; C <= Hi; ++C)
        Out.push_back({C, 1});
    } else {
      double Step = Count / Most;
      for (unsigned I = 0; I < Most; ++I)
        Out.push_back({Lo + std::floor((I + 0.5) * Step), Step});
    }
    Next = Hi + 1;
  }
  Stretch(Next, N - 1);
  return Out;
}

} // namespace

std::vector<BlockShare> blockShares(const KernelProfile &K,
                                    const std::array<unsigned, 3> &Block,
                                    const std::array<unsigned, 3> &Grid) {
  if (K.Guarded.empty())
    return {};
  // At most 64 blocks in all: a guard on a linearised index cuts every
  // block along each dimension; fewer strata then, and none (the blocks
  // counted alike) when even 4 per cut are too many.
  std::vector<std::pair<double, double>> Xs, Ys, Zs;
  const size_t Budget = 64;
  for (double Most : {64.0, 16.0, 4.0}) {
    Xs = blockSamples(K, 0, Block, Grid, Most);
    Ys = blockSamples(K, 1, Block, Grid, Most);
    Zs = blockSamples(K, 2, Block, Grid, Most);
    if (Xs.size() * Ys.size() * Zs.size() <= Budget)
      break;
  }
  if (Xs.size() * Ys.size() * Zs.size() > Budget)
    return {};
  double Total = double(std::max(1u, Grid[0])) * std::max(1u, Grid[1]) *
                 std::max(1u, Grid[2]);
  const bool Memory = hasMemoryShares(K);
  std::vector<BlockShare> Out;
  for (auto &[Z, WZ] : Zs)
    for (auto &[Y, WY] : Ys)
      for (auto &[X, WX] : Xs) {
        std::array<double, 3> At = {X, Y, Z};
        double Guarded = 0, Active = 0, Busiest = 0, GuardedMem = 0,
               ActiveMem = 0;
        for (const GuardedWork &W : K.Guarded) {
          double Sh = std::clamp(W.Share, 0.0, 1.0);
          double Pass = setShare(K, W.Guards, Block, Grid, {&At, nullptr});
          Guarded += Sh;
          Active += Sh * Pass;
          Busiest += Sh * busiestShare(K, W.Guards, Block, Grid, At);
          double ShMem = Memory ? std::clamp(W.MemShare, 0.0, 1.0) : Sh;
          GuardedMem += ShMem;
          ActiveMem += ShMem * Pass;
        }
        double Rest = 1 - std::min(1.0, Guarded);
        BlockShare B;
        B.Weight = WX * WY * WZ / Total;
        B.Active = std::clamp(Rest + Active, 0.0, 1.0);
        B.Busiest = std::clamp(Rest + Busiest, B.Active, 1.0);
        B.ActiveMem =
            std::clamp(1 - std::min(1.0, GuardedMem) + ActiveMem, 0.0, 1.0);
        auto Same = std::find_if(Out.begin(), Out.end(), [&](const BlockShare &O) {
          return std::fabs(O.Active - B.Active) < 1e-6 &&
                 std::fabs(O.Busiest - B.Busiest) < 1e-6 &&
                 std::fabs(O.ActiveMem - B.ActiveMem) < 1e-6;
        });
        if (Same != Out.end())
          Same->Weight += B.Weight;
        else
          Out.push_back(B);
      }
  return Out;
}

/// activeFraction() over the instruction shares, or over the memory
/// shares (\p Memory) where every set has one.
static double passingShare(const KernelProfile &K,
                           const std::array<unsigned, 3> &Block,
                           const std::array<unsigned, 3> &Grid, bool Memory,
                           bool BlocksOnly = false) {
  if (K.Guarded.empty())
    return 1;
  Memory = Memory && hasMemoryShares(K);
  double Guarded = 0, Active = 0;
  for (const GuardedWork &W : K.Guarded) {
    double Sh = std::clamp(Memory ? W.MemShare : W.Share, 0.0, 1.0);
    if (Sh <= 0)
      continue;
    Guarded += Sh;
    std::vector<unsigned> Set = W.Guards;
    if (BlocksOnly)
      llvm::erase_if(Set, [&](unsigned GI) {
        return GI >= K.Guards.size() || K.Guards[GI].readsThreads();
      });
    Active += Sh * (Set.empty() ? 1.0 : setShare(K, Set, Block, Grid));
  }
  return std::clamp(1 - std::min(1.0, Guarded) + Active, 0.0, 1.0);
}

double activeFraction(const KernelProfile &K,
                      const std::array<unsigned, 3> &Block,
                      const std::array<unsigned, 3> &Grid) {
  return passingShare(K, Block, Grid, false);
}

double activeBlockFraction(const KernelProfile &K,
                           const std::array<unsigned, 3> &Block,
                           const std::array<unsigned, 3> &Grid) {
  return passingShare(K, Block, Grid, false, /*BlocksOnly=*/true);
}

double activeMemoryFraction(const KernelProfile &K,
                            const std::array<unsigned, 3> &Block,
                            const std::array<unsigned, 3> &Grid) {
  return passingShare(K, Block, Grid, true);
}

double guardsPassShare(const KernelProfile &K,
                       const std::vector<unsigned> &Guards,
                       const std::array<unsigned, 3> &Block,
                       const std::array<unsigned, 3> &Grid) {
  return Guards.empty() ? 1.0 : setShare(K, Guards, Block, Grid);
}

} // namespace flipflop
