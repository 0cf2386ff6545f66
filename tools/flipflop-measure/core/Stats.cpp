//===- Stats.cpp - Statistics, integration and fits for measurements ------===//
#include "Stats.h"
#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace flipflop {
namespace measure {

double quantileSorted(const std::vector<double> &Sorted, double Q) {
  assert(!Sorted.empty() && "quantile of an empty sample");
  if (Sorted.size() == 1)
    return Sorted[0];
  double H = (Sorted.size() - 1) * std::min(1.0, std::max(0.0, Q));
  size_t Lo = size_t(std::floor(H));
  size_t Hi = std::min(Lo + 1, Sorted.size() - 1);
  return Sorted[Lo] + (H - double(Lo)) * (Sorted[Hi] - Sorted[Lo]);
}

double Summary::relativeSpread() const {
  return Median != 0 ? (Max - Min) / Median : 0;
}

Summary summarize(std::vector<double> Xs) {
  Summary S;
  if (Xs.empty())
    return S;
  std::sort(Xs.begin(), Xs.end());
  S.Count = Xs.size();
  S.Min = Xs.front();
  S.Max = Xs.back();
  S.Median = quantileSorted(Xs, 0.5);
  S.Q1 = quantileSorted(Xs, 0.25);
  S.Q3 = quantileSorted(Xs, 0.75);
  double Sum = 0;
  for (double X : Xs)
    Sum += X;
  S.Mean = Sum / double(Xs.size());
  return S;
}

double kendallTauB(const std::vector<double> &X, const std::vector<double> &Y) {
  assert(X.size() == Y.size() && "paired samples of different lengths");
  size_t N = X.size();
  if (N < 2)
    return std::numeric_limits<double>::quiet_NaN();
  // O(n^2) is fine for the few hundred configurations of a kernel.
  double Concordant = 0, Discordant = 0, TiedX = 0, TiedY = 0;
  for (size_t I = 0; I < N; ++I)
    for (size_t J = I + 1; J < N; ++J) {
      double DX = X[I] - X[J], DY = Y[I] - Y[J];
      if (DX == 0)
        ++TiedX;
      if (DY == 0)
        ++TiedY;
      if (DX == 0 || DY == 0)
        continue;
      if ((DX > 0) == (DY > 0))
        ++Concordant;
      else
        ++Discordant;
    }
  double N0 = double(N) * double(N - 1) / 2;
  double Denom = std::sqrt((N0 - TiedX) * (N0 - TiedY));
  if (Denom == 0)
    return std::numeric_limits<double>::quiet_NaN();
  return (Concordant - Discordant) / Denom;
}

double trapezoidEnergy(const std::vector<PowerSample> &S, double Begin,
                       double End) {
  if (S.empty() || !(End > Begin))
    return 0;
  // Power at time T on the piecewise-linear curve, held flat outside.
  auto PowerAt = [&](double T) {
    if (T <= S.front().TimeS)
      return S.front().PowerW;
    if (T >= S.back().TimeS)
      return S.back().PowerW;
    size_t Hi = size_t(std::upper_bound(S.begin(), S.end(), T,
                                        [](double V, const PowerSample &P) {
                                          return V < P.TimeS;
                                        }) -
                       S.begin());
    const PowerSample &A = S[Hi - 1], &B = S[Hi];
    if (B.TimeS == A.TimeS)
      return B.PowerW;
    return A.PowerW +
           (B.PowerW - A.PowerW) * (T - A.TimeS) / (B.TimeS - A.TimeS);
  };
  // Breakpoints: the window ends and every sample strictly inside.
  double Energy = 0;
  double PrevT = Begin, PrevP = PowerAt(Begin);
  for (const PowerSample &P : S) {
    if (P.TimeS <= Begin)
      continue;
    if (P.TimeS >= End)
      break;
    Energy += 0.5 * (PrevP + P.PowerW) * (P.TimeS - PrevT);
    PrevT = P.TimeS;
    PrevP = P.PowerW;
  }
  Energy += 0.5 * (PrevP + PowerAt(End)) * (End - PrevT);
  return Energy;
}

LinearFit fitLine(const std::vector<double> &X, const std::vector<double> &Y) {
  assert(X.size() == Y.size() && "paired samples of different lengths");
  LinearFit F;
  size_t N = X.size();
  if (N < 2)
    return F;
  double MX = 0, MY = 0;
  for (size_t I = 0; I < N; ++I) {
    MX += X[I];
    MY += Y[I];
  }
  MX /= double(N);
  MY /= double(N);
  double SXX = 0, SXY = 0, SYY = 0;
  for (size_t I = 0; I < N; ++I) {
    SXX += (X[I] - MX) * (X[I] - MX);
    SXY += (X[I] - MX) * (Y[I] - MY);
    SYY += (Y[I] - MY) * (Y[I] - MY);
  }
  if (SXX == 0)
    return F;
  F.Slope = SXY / SXX;
  F.Intercept = MY - F.Slope * MX;
  F.R2 = SYY == 0 ? 1 : (SXY * SXY) / (SXX * SYY);
  F.Ok = true;
  return F;
}

double PowerLawFit::eval(double N) const {
  return Alpha * std::pow(N, Beta) + Delta;
}

namespace {
/// For a fixed Beta: the linear least-squares (Alpha, Delta) and the residual
/// sum of squares.
double fitForBeta(const std::vector<double> &X, const std::vector<double> &Y,
                  double Beta, double &Alpha, double &Delta) {
  std::vector<double> U(X.size());
  for (size_t I = 0; I < X.size(); ++I)
    U[I] = std::pow(X[I], Beta);
  LinearFit L = fitLine(U, Y);
  if (!L.Ok)
    return std::numeric_limits<double>::infinity();
  Alpha = L.Slope;
  Delta = L.Intercept;
  double SSR = 0;
  for (size_t I = 0; I < X.size(); ++I) {
    double R = Y[I] - (Alpha * U[I] + Delta);
    SSR += R * R;
  }
  return SSR;
}
} // namespace

PowerLawFit fitPowerLaw(const std::vector<double> &X,
                        const std::vector<double> &Y, double BetaMin,
                        double BetaMax) {
  assert(X.size() == Y.size() && "paired samples of different lengths");
  PowerLawFit F;
  std::vector<double> Distinct(X);
  std::sort(Distinct.begin(), Distinct.end());
  Distinct.erase(std::unique(Distinct.begin(), Distinct.end()), Distinct.end());
  if (Distinct.size() < 3 || Distinct.front() <= 0 || !(BetaMax > BetaMin))
    return F;
  // Coarse scan, then golden-section search around the best grid point.
  const unsigned Steps = 400;
  double Step = (BetaMax - BetaMin) / Steps;
  double BestBeta = BetaMin, BestSSR = std::numeric_limits<double>::infinity();
  double A, D;
  for (unsigned I = 0; I <= Steps; ++I) {
    double B = BetaMin + Step * I;
    double SSR = fitForBeta(X, Y, B, A, D);
    if (SSR < BestSSR) {
      BestSSR = SSR;
      BestBeta = B;
    }
  }
  double Lo = std::max(BetaMin, BestBeta - Step);
  double Hi = std::min(BetaMax, BestBeta + Step);
  const double G = (std::sqrt(5.0) - 1) / 2;
  double C1 = Hi - G * (Hi - Lo), C2 = Lo + G * (Hi - Lo);
  double F1 = fitForBeta(X, Y, C1, A, D), F2 = fitForBeta(X, Y, C2, A, D);
  for (int It = 0; It < 100 && Hi - Lo > 1e-12; ++It) {
    if (F1 < F2) {
      Hi = C2;
      C2 = C1;
      F2 = F1;
      C1 = Hi - G * (Hi - Lo);
      F1 = fitForBeta(X, Y, C1, A, D);
    } else {
      Lo = C1;
      C1 = C2;
      F1 = F2;
      C2 = Lo + G * (Hi - Lo);
      F2 = fitForBeta(X, Y, C2, A, D);
    }
  }
  double Beta = (Lo + Hi) / 2;
  double SSR = fitForBeta(X, Y, Beta, A, D);
  if (BestSSR < SSR) { // The grid point was better (flat residual).
    Beta = BestBeta;
    SSR = fitForBeta(X, Y, Beta, A, D);
  }
  F.Alpha = A;
  F.Beta = Beta;
  F.Delta = D;
  double MY = 0;
  for (double V : Y)
    MY += V;
  MY /= double(Y.size());
  double SST = 0;
  for (double V : Y)
    SST += (V - MY) * (V - MY);
  F.R2 = SST == 0 ? 1 : 1 - SSR / SST;
  F.RMSE = std::sqrt(SSR / double(Y.size()));
  F.Ok = std::isfinite(SSR);
  return F;
}

} // namespace measure
} // namespace flipflop
