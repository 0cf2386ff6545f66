//===- Validate.cpp - Predictions against measurements --------------------===//
#include "Validate.h"
#include "Stats.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <tuple>

namespace flipflop {
namespace measure {

std::vector<size_t> paretoIndices(const std::vector<double> &Time,
                                  const std::vector<double> &Energy) {
  assert(Time.size() == Energy.size() && "mismatched vectors");
  std::vector<size_t> Order(Time.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return std::tie(Time[A], Energy[A]) < std::tie(Time[B], Energy[B]);
  });
  std::vector<size_t> Front;
  double BestEnergy = std::numeric_limits<double>::infinity();
  double LastTime = -1;
  for (size_t I : Order) {
    // Sorted by time then energy: a point is on the front if it uses less
    // energy than everything faster, or ties exactly with the previous
    // front point in both coordinates.
    if (Energy[I] < BestEnergy) {
      Front.push_back(I);
      BestEnergy = Energy[I];
      LastTime = Time[I];
    } else if (Energy[I] == BestEnergy && Time[I] == LastTime) {
      Front.push_back(I);
    }
  }
  return Front;
}

namespace {
long powerKey(double W, double Step) {
  return Step > 0 ? std::lround(W / Step) : std::lround(W);
}

bool sameBlock(const ConfigRecord &A, const ConfigRecord &B) {
  return A.Block == B.Block;
}
} // namespace

std::vector<size_t> neighbours(const std::vector<ConfigRecord> &Configs,
                               size_t I, double PowerMatchW) {
  // Sorted distinct values along each axis.
  std::vector<std::array<unsigned, 4>> Shapes;
  std::vector<unsigned> Mins;
  std::vector<long> Powers;
  for (const ConfigRecord &C : Configs) {
    Shapes.push_back({C.blockThreads(), C.Block[0], C.Block[1], C.Block[2]});
    Mins.push_back(C.MinBlocksPerSM);
    Powers.push_back(powerKey(C.PowerLimitW, PowerMatchW));
  }
  auto Uniq = [](auto V) {
    std::sort(V.begin(), V.end());
    V.erase(std::unique(V.begin(), V.end()), V.end());
    return V;
  };
  auto SU = Uniq(Shapes);
  auto MU = Uniq(Mins);
  auto PU = Uniq(Powers);
  auto Idx = [](const auto &Sorted, const auto &X) {
    return long(std::lower_bound(Sorted.begin(), Sorted.end(), X) - Sorted.begin());
  };
  auto Coord = [&](size_t J) {
    return std::array<long, 3>{Idx(SU, Shapes[J]), Idx(MU, Mins[J]),
                               Idx(PU, Powers[J])};
  };
  std::array<long, 3> CI = Coord(I);
  std::vector<size_t> Out;
  for (size_t J = 0; J < Configs.size(); ++J) {
    if (J == I)
      continue;
    std::array<long, 3> CJ = Coord(J);
    int Differ = 0;
    bool Adjacent = true;
    for (int A = 0; A < 3; ++A)
      if (CI[A] != CJ[A]) {
        ++Differ;
        Adjacent &= std::labs(CI[A] - CJ[A]) == 1;
      }
    if (Differ == 1 && Adjacent)
      Out.push_back(J);
  }
  return Out;
}

namespace {
/// Compares power limits; a limit of 0 ("the default") stands for the GPU's
/// default limit.
struct PowerMatcher {
  double DefaultW;
  double ToleranceW;

  double resolve(double W) const { return W > 0 ? W : DefaultW; }
  bool operator()(double A, double B) const {
    A = resolve(A);
    B = resolve(B);
    if (A == 0 || B == 0)
      return A == B;
    return std::fabs(A - B) <= std::max(ToleranceW, 0.01 * B);
  }
};

/// The share of the valid predicted configurations off the predicted Pareto
/// front: the search space the prediction saves measuring.
double searchSpaceReduction(const std::vector<const ConfigRecord *> &Valid) {
  std::vector<double> T, E;
  for (const ConfigRecord *P : Valid) {
    T.push_back(P->TimeS);
    E.push_back(P->EnergyJ);
  }
  if (T.empty())
    return 0;
  return 1.0 - double(paretoIndices(T, E).size()) / double(T.size());
}

/// Pairs each valid measured configuration with the valid prediction of the
/// same block, min blocks and power limit.
std::vector<MatchedConfig>
matchConfigs(const std::vector<const ConfigRecord *> &ValidPred,
             const KernelRecord &Meas, const PowerMatcher &PowerMatch) {
  std::vector<MatchedConfig> Matched;
  for (const ConfigRecord &M : Meas.Configs) {
    if (!M.Valid)
      continue;
    const ConfigRecord *Found = nullptr;
    for (const ConfigRecord *P : ValidPred)
      if (sameBlock(*P, M) && P->MinBlocksPerSM == M.MinBlocksPerSM &&
          PowerMatch(P->PowerLimitW, M.PowerLimitW)) {
        // Prefer an explicit limit over "default" when both are present.
        if (!Found || (Found->PowerLimitW == 0 && P->PowerLimitW > 0))
          Found = P;
      }
    if (Found)
      Matched.push_back({*Found, M});
  }
  return Matched;
}

/// The matched configurations column by column: predicted and measured time
/// and energy, and the measured records.
struct MatchedColumns {
  std::vector<double> PT, PE, MT, ME;
  std::vector<ConfigRecord> MC;

  explicit MatchedColumns(const std::vector<MatchedConfig> &Matched) {
    for (const MatchedConfig &M : Matched) {
      PT.push_back(M.Predicted.TimeS);
      PE.push_back(M.Predicted.EnergyJ);
      MT.push_back(M.Measured.TimeS);
      ME.push_back(M.Measured.EnergyJ);
      MC.push_back(M.Measured);
    }
  }
};

/// The index of the smallest (Primary, Secondary) pair; the first on ties.
size_t argMin(const std::vector<double> &Primary,
              const std::vector<double> &Secondary) {
  size_t Best = 0;
  for (size_t I = 1; I < Primary.size(); ++I)
    if (std::tie(Primary[I], Secondary[I]) <
        std::tie(Primary[Best], Secondary[Best]))
      Best = I;
  return Best;
}

/// Rank agreement, the picks against the measured bests, and whether the
/// energy pick is a local or global optimum.
void scorePicks(KernelValidation &KV, const MatchedColumns &C,
                const ValidateOptions &Opts) {
  const std::vector<double> &PT = C.PT, &PE = C.PE, &MT = C.MT, &ME = C.ME;
  KV.TauTime = kendallTauB(PT, MT);
  KV.TauEnergy = kendallTauB(PE, ME);
  KV.PickEnergy = argMin(PE, PT);
  KV.PickTime = argMin(PT, PE);
  KV.BestEnergy = argMin(ME, MT);
  KV.BestTime = argMin(MT, ME);
  KV.EnergyRegret = ME[KV.PickEnergy] / ME[KV.BestEnergy];
  KV.TimeRegret = MT[KV.PickTime] / MT[KV.BestTime];
  double Slack = 1 + Opts.Tolerance;
  std::vector<size_t> Nb = neighbours(C.MC, KV.PickEnergy, Opts.PowerMatchW);
  KV.Neighbours = Nb.size();
  KV.LocalOptimum = true;
  for (size_t J : Nb)
    if (ME[KV.PickEnergy] > ME[J] * Slack)
      KV.LocalOptimum = false;
  KV.GlobalOptimum = ME[KV.PickEnergy] <= ME[KV.BestEnergy] * Slack;
  for (size_t I : paretoIndices(PT, PE))
    if (ME[I] <= ME[KV.BestEnergy] * Slack)
      KV.BestOnPredictedPareto = true;
}

/// NVIDIA's occupancy heuristic: the driver's block at the default limit,
/// without launch bounds. Fallback: highest measured occupancy (ties: the
/// larger block, as cudaOccupancyMaxPotentialBlockSize keeps the first
/// maximum while scanning down from the largest block).
void findHeuristic(KernelValidation &KV, const MatchedColumns &C,
                   unsigned HeuristicBlock, const PowerMatcher &PowerMatch) {
  const std::vector<ConfigRecord> &MC = C.MC;
  double MaxLimit = 0;
  for (const ConfigRecord &R : MC)
    MaxLimit = std::max(MaxLimit, PowerMatch.resolve(R.PowerLimitW));
  double Want = PowerMatch.DefaultW > 0 ? PowerMatch.DefaultW : MaxLimit;
  for (size_t I = 0; I < MC.size(); ++I) {
    const ConfigRecord &R = MC[I];
    if (R.MinBlocksPerSM != 0 || !PowerMatch(R.PowerLimitW, Want))
      continue;
    bool OneD = R.Block[1] == 1 && R.Block[2] == 1;
    if (HeuristicBlock) {
      if (R.blockThreads() == HeuristicBlock && (!KV.HasHeuristic || OneD)) {
        KV.HasHeuristic = true;
        KV.Heuristic = I;
      }
    } else if (!std::isnan(R.Occupancy)) {
      const ConfigRecord *H = KV.HasHeuristic ? &MC[KV.Heuristic] : nullptr;
      if (!H || R.Occupancy > H->Occupancy ||
          (R.Occupancy == H->Occupancy &&
           R.blockThreads() > H->blockThreads())) {
        KV.HasHeuristic = true;
        KV.Heuristic = I;
      }
    }
  }
  if (KV.HasHeuristic) {
    KV.EnergyVsHeuristic = C.ME[KV.PickEnergy] / C.ME[KV.Heuristic];
    KV.SpeedupVsHeuristic = C.MT[KV.Heuristic] / C.MT[KV.PickEnergy];
  }
}
} // namespace

KernelValidation validateKernel(const KernelRecord &Pred,
                                const KernelRecord &Meas,
                                double DefaultPowerLimitW,
                                const ValidateOptions &Opts) {
  KernelValidation KV;
  KV.Name = Meas.Name;
  KV.MeasuredCount = Meas.Configs.size();
  std::vector<const ConfigRecord *> ValidPred;
  for (const ConfigRecord &P : Pred.Configs)
    if (P.Valid)
      ValidPred.push_back(&P);
  KV.PredictedCount = ValidPred.size();
  // Search-space reduction over the whole predicted space.
  KV.SearchSpaceReduction = searchSpaceReduction(ValidPred);

  PowerMatcher PowerMatch{DefaultPowerLimitW, Opts.PowerMatchW};
  KV.Matched = matchConfigs(ValidPred, Meas, PowerMatch);
  if (KV.Matched.size() < 2) {
    KV.Skipped = true;
    KV.Note = std::to_string(KV.Matched.size()) +
              " configuration(s) both predicted and measured (need 2)";
    return KV;
  }
  MatchedColumns C(KV.Matched);
  scorePicks(KV, C, Opts);
  findHeuristic(KV, C, Meas.HeuristicBlock, PowerMatch);
  return KV;
}

ValidationSummary validate(const ReportFile &Predictions,
                           const ReportFile &Measurements,
                           const ValidateOptions &Opts) {
  ValidationSummary S;
  S.GPUName = Measurements.GPUName;
  std::vector<double> TauT, TauE, LogER, LogTR, Red, LogEH, LogSH;
  size_t Local = 0, Global = 0, Pareto = 0;
  for (const KernelRecord &M : Measurements.Kernels) {
    const KernelRecord *P = Predictions.find(M.Name);
    KernelValidation KV;
    if (!P) {
      KV.Name = M.Name;
      KV.Skipped = true;
      KV.Note = "no prediction for this kernel";
      KV.MeasuredCount = M.Configs.size();
      S.Kernels.push_back(KV);
      continue;
    }
    KV = validateKernel(*P, M, Measurements.DefaultPowerLimitW, Opts);
    if (!KV.Skipped) {
      ++S.Validated;
      if (!std::isnan(KV.TauTime))
        TauT.push_back(KV.TauTime);
      if (!std::isnan(KV.TauEnergy))
        TauE.push_back(KV.TauEnergy);
      LogER.push_back(std::log(KV.EnergyRegret));
      LogTR.push_back(std::log(KV.TimeRegret));
      Red.push_back(KV.SearchSpaceReduction);
      Local += KV.LocalOptimum;
      Global += KV.GlobalOptimum;
      Pareto += KV.BestOnPredictedPareto;
      if (KV.HasHeuristic) {
        ++S.WithHeuristic;
        LogEH.push_back(std::log(KV.EnergyVsHeuristic));
        LogSH.push_back(std::log(KV.SpeedupVsHeuristic));
      }
    }
    S.Kernels.push_back(KV);
  }
  auto GeoMean = [](const std::vector<double> &Logs) {
    if (Logs.empty())
      return 1.0;
    return std::exp(std::accumulate(Logs.begin(), Logs.end(), 0.0) /
                    double(Logs.size()));
  };
  auto NaN = std::numeric_limits<double>::quiet_NaN();
  S.MedianTauTime = TauT.empty() ? NaN : summarize(TauT).Median;
  S.MedianTauEnergy = TauE.empty() ? NaN : summarize(TauE).Median;
  S.GeoMeanEnergyRegret = GeoMean(LogER);
  S.GeoMeanTimeRegret = GeoMean(LogTR);
  if (S.Validated) {
    S.LocalOptimumShare = double(Local) / double(S.Validated);
    S.GlobalOptimumShare = double(Global) / double(S.Validated);
    S.ParetoShare = double(Pareto) / double(S.Validated);
    S.MeanSearchSpaceReduction =
        std::accumulate(Red.begin(), Red.end(), 0.0) / double(Red.size());
  }
  S.GeoMeanEnergyVsHeuristic = GeoMean(LogEH);
  S.GeoMeanSpeedupVsHeuristic = GeoMean(LogSH);
  return S;
}

namespace {
std::string fmt(const char *F, double V) {
  if (std::isnan(V))
    return "n/a";
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), F, V);
  return Buf;
}
std::string pct(double V) { return fmt("%.1f%%", 100 * V); }
std::string configLabel(const ConfigRecord &C) {
  std::string S = std::to_string(C.Block[0]);
  if (C.Block[1] != 1 || C.Block[2] != 1)
    S += "x" + std::to_string(C.Block[1]) + "x" + std::to_string(C.Block[2]);
  if (C.MinBlocksPerSM)
    S += " m" + std::to_string(C.MinBlocksPerSM);
  if (C.PowerLimitW > 0)
    S += " @" + fmt("%.0f", C.PowerLimitW) + "W";
  return S;
}
} // namespace

std::string validationMarkdown(const ValidationSummary &S,
                               const ValidateOptions &Opts) {
  std::string O;
  O += "## Validation on " + (S.GPUName.empty() ? std::string("(unknown GPU)") : S.GPUName) + "\n\n";
  O += "Kernels validated: " + std::to_string(S.Validated) + " of " +
       std::to_string(S.Kernels.size()) + " measured. Tolerance " +
       pct(Opts.Tolerance) + " (measurement noise).\n\n";
  O += "| Metric | Value |\n|---|---|\n";
  O += "| Median Kendall tau-b, time | " + fmt("%.3f", S.MedianTauTime) + " |\n";
  O += "| Median Kendall tau-b, energy | " + fmt("%.3f", S.MedianTauEnergy) + " |\n";
  O += "| Energy pick is a measured local optimum | " + pct(S.LocalOptimumShare) + " |\n";
  O += "| Energy pick within tolerance of the measured best | " + pct(S.GlobalOptimumShare) + " |\n";
  O += "| Measured best on the predicted Pareto front | " + pct(S.ParetoShare) + " |\n";
  O += "| Geometric-mean energy regret of the energy pick | " + fmt("%.3f", S.GeoMeanEnergyRegret) + " |\n";
  O += "| Geometric-mean time regret of the time pick | " + fmt("%.3f", S.GeoMeanTimeRegret) + " |\n";
  O += "| Mean search-space reduction (predicted Pareto front) | " + pct(S.MeanSearchSpaceReduction) + " |\n";
  O += "| Energy of the pick / occupancy heuristic (geo. mean, " +
       std::to_string(S.WithHeuristic) + " kernels) | " +
       fmt("%.3f", S.GeoMeanEnergyVsHeuristic) + " |\n";
  O += "| Speed-up of the pick over the occupancy heuristic (geo. mean) | " +
       fmt("%.3f", S.GeoMeanSpeedupVsHeuristic) + " |\n\n";
  O += "| Kernel | Configs (pred/meas/both) | tau time | tau energy | Energy pick | "
       "Measured best | Regret E | Local opt. | Heuristic | E pick/heur. | Speed-up |\n";
  O += "|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const KernelValidation &K : S.Kernels) {
    std::string Counts = std::to_string(K.PredictedCount) + "/" +
                         std::to_string(K.MeasuredCount) + "/" +
                         std::to_string(K.Matched.size());
    if (K.Skipped) {
      O += "| `" + K.Name + "` | " + Counts + " | skipped: " + K.Note +
           " | | | | | | | | |\n";
      continue;
    }
    O += "| `" + K.Name + "` | " + Counts + " | " + fmt("%.3f", K.TauTime) +
         " | " + fmt("%.3f", K.TauEnergy) + " | " +
         configLabel(K.Matched[K.PickEnergy].Measured) + " | " +
         configLabel(K.Matched[K.BestEnergy].Measured) + " | " +
         fmt("%.3f", K.EnergyRegret) + " | " +
         (K.LocalOptimum ? "yes" : "no") + " (" + std::to_string(K.Neighbours) +
         " nb.) | " +
         (K.HasHeuristic ? configLabel(K.Matched[K.Heuristic].Measured) : "n/a") +
         " | " + (K.HasHeuristic ? fmt("%.3f", K.EnergyVsHeuristic) : "n/a") +
         " | " + (K.HasHeuristic ? fmt("%.3f", K.SpeedupVsHeuristic) : "n/a") +
         " |\n";
  }
  return O;
}

json::Value validationJSON(const ValidationSummary &S) {
  auto Num = [](double V) { return std::isnan(V) ? json::Value() : json::Value(V); };
  json::Value Root = json::Value::object();
  Root["schema_version"] = ReportSchemaVersion;
  Root["tool"] = "flipflop-validate";
  Root["gpu"] = S.GPUName;
  json::Value Sum = json::Value::object();
  Sum["kernels_validated"] = S.Validated;
  Sum["median_tau_time"] = Num(S.MedianTauTime);
  Sum["median_tau_energy"] = Num(S.MedianTauEnergy);
  Sum["local_optimum_share"] = S.LocalOptimumShare;
  Sum["global_optimum_share"] = S.GlobalOptimumShare;
  Sum["best_on_predicted_pareto_share"] = S.ParetoShare;
  Sum["geomean_energy_regret"] = S.GeoMeanEnergyRegret;
  Sum["geomean_time_regret"] = S.GeoMeanTimeRegret;
  Sum["mean_search_space_reduction"] = S.MeanSearchSpaceReduction;
  Sum["kernels_with_heuristic"] = S.WithHeuristic;
  Sum["geomean_energy_vs_heuristic"] = S.GeoMeanEnergyVsHeuristic;
  Sum["geomean_speedup_vs_heuristic"] = S.GeoMeanSpeedupVsHeuristic;
  Root["summary"] = Sum;
  json::Value Ks = json::Value::array();
  for (const KernelValidation &K : S.Kernels) {
    json::Value O = json::Value::object();
    O["name"] = K.Name;
    O["predicted_configs"] = K.PredictedCount;
    O["measured_configs"] = K.MeasuredCount;
    O["matched_configs"] = K.Matched.size();
    if (K.Skipped) {
      O["skipped"] = K.Note;
      Ks.push_back(O);
      continue;
    }
    O["tau_time"] = Num(K.TauTime);
    O["tau_energy"] = Num(K.TauEnergy);
    O["energy_pick"] = configToJSON(K.Matched[K.PickEnergy].Measured);
    O["time_pick"] = configToJSON(K.Matched[K.PickTime].Measured);
    O["measured_best_energy"] = configToJSON(K.Matched[K.BestEnergy].Measured);
    O["measured_best_time"] = configToJSON(K.Matched[K.BestTime].Measured);
    O["energy_regret"] = K.EnergyRegret;
    O["time_regret"] = K.TimeRegret;
    O["local_optimum"] = K.LocalOptimum;
    O["neighbours"] = K.Neighbours;
    O["global_optimum"] = K.GlobalOptimum;
    O["best_on_predicted_pareto"] = K.BestOnPredictedPareto;
    O["search_space_reduction"] = K.SearchSpaceReduction;
    if (K.HasHeuristic) {
      O["heuristic"] = configToJSON(K.Matched[K.Heuristic].Measured);
      O["energy_vs_heuristic"] = K.EnergyVsHeuristic;
      O["speedup_vs_heuristic"] = K.SpeedupVsHeuristic;
    }
    Ks.push_back(O);
  }
  Root["kernels"] = Ks;
  return Root;
}

} // namespace measure
} // namespace flipflop
