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

#include <algorithm>
#include <cmath>
#include <vector>

namespace flipflop {
namespace {

/// Free variables: tid.xyz, ctaid.xyz and four loop iterations.
constexpr unsigned NV = 10;

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

/// Share of the launch's threads that pass every guard of \p Set.
double setShare(const KernelProfile &K, const std::vector<unsigned> &Set,
                const std::array<unsigned, 3> &Block,
                const std::array<unsigned, 3> &Grid) {
  double Range[NV] = {double(Block[0]), double(Block[1]), double(Block[2]),
                      double(std::max(1u, Grid[0])),
                      double(std::max(1u, Grid[1])),
                      double(std::max(1u, Grid[2])), 1, 1, 1, 1};
  for (unsigned GI : Set)
    if (GI < K.Guards.size())
      for (unsigned I = 0; I < 4; ++I)
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
      Q.A[3 + D] = double(G.Coef[GVCtaid + D]) +
                   double(G.Coef[GVGlobal + D]) * Block[D];
      C += double(G.Coef[GVNtid + D]) * Block[D];
    }
    for (unsigned I = 0; I < 4; ++I)
      Q.A[6 + I] = double(G.Coef[GVIter + I]);
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

} // namespace

double activeFraction(const KernelProfile &K,
                      const std::array<unsigned, 3> &Block,
                      const std::array<unsigned, 3> &Grid) {
  if (K.Guarded.empty())
    return 1;
  double Guarded = 0, Active = 0;
  for (const GuardedWork &W : K.Guarded) {
    double Sh = std::clamp(W.Share, 0.0, 1.0);
    Guarded += Sh;
    Active += Sh * setShare(K, W.Guards, Block, Grid);
  }
  return std::clamp(1 - std::min(1.0, Guarded) + Active, 0.0, 1.0);
}

} // namespace flipflop
