//===- HTMLReport.cpp - A self-contained page per report ------------------===//
//
// Renders a JSON report (docs/REPORT-SCHEMA.md) as one HTML page with no
// external resources: per kernel a time-energy scatter (inline SVG) of every
// configuration, the Pareto front, the picks and the occupancy heuristic
// highlighted, the picks' table and the explanation beside it.
//
//===----------------------------------------------------------------------===//
#include "flipflop/Report/HTMLReport.h"
#include "flipflop/Model/Recommender.h"
#include "flipflop/Report/AppAdvice.h"
#include "flipflop/Report/Picks.h"
#include "flipflop/Support/BlockShape.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cmath>
#include <set>

using namespace llvm;

namespace flipflop {
namespace {

void escape(StringRef S, raw_ostream &OS) {
  for (char C : S) {
    switch (C) {
    case '&': OS << "&amp;"; break;
    case '<': OS << "&lt;"; break;
    case '>': OS << "&gt;"; break;
    case '"': OS << "&quot;"; break;
    case '\'': OS << "&#39;"; break;
    default: OS << C;
    }
  }
}

std::string esc(StringRef S) {
  std::string R;
  raw_string_ostream OS(R);
  escape(S, OS);
  return R;
}

/// A kernel's display name: its demangled name, else its symbol.
StringRef displayName(const ReportKernel &K) {
  return K.DisplayName.empty() ? StringRef(K.Name) : StringRef(K.DisplayName);
}

struct Pick {
  const char *Label, *Short, *Color;
};
/// Each pick (in the order of ReportPickNames, its key) has its own colour
/// and marker shape (see marker()).
const Pick Picks[] = {
    {"fastest", "fastest", "#1f77b4"},
    {"least energy", "least energy", "#2ca02c"},
    {"least energy within budget", "within budget", "#9467bd"},
    {"best energy-delay", "best EDP", "#ff7f0e"},
    {"occupancy heuristic", "heuristic", "#d62728"},
};
constexpr size_t NumPicks = sizeof(Picks) / sizeof(Picks[0]);
static_assert(NumPicks == NumReportPicks, "one entry per pick");

/// The SVG shape of pick \p I centred at (X, Y): circle, square, diamond,
/// triangle, cross.
void marker(size_t I, double X, double Y, raw_ostream &OS,
            StringRef Extra = "") {
  const char *C = Picks[I].Color;
  switch (I) {
  case 0:
    OS << formatv("<circle cx=\"{0:F1}\" cy=\"{1:F1}\" r=\"6.5\"", X, Y);
    break;
  case 1:
    OS << formatv("<rect x=\"{0:F1}\" y=\"{1:F1}\" width=\"11\" height=\"11\"",
                  X - 5.5, Y - 5.5);
    break;
  case 2:
    OS << formatv("<path d=\"M{0:F1},{1:F1} l8.5,8.5 l-8.5,8.5 l-8.5,-8.5 z\"",
                  X, Y - 8.5);
    break;
  case 3:
    OS << formatv("<path d=\"M{0:F1},{1:F1} l8,13 l-16,0 z\"", X, Y - 8.5);
    break;
  default:
    OS << formatv("<path d=\"M{0:F1},{1:F1} l10,10 m0,-10 l-10,10\"", X - 5,
                  Y - 5);
    break;
  }
  OS << " fill=\"none\" stroke=\"" << C << "\" stroke-width=\"2.2\"" << Extra;
}

/// A small inline SVG of pick \p I's marker, for the legend and the table.
void markerIcon(size_t I, raw_ostream &OS) {
  OS << "<svg class=\"icon\" width=\"20\" height=\"20\" viewBox=\"0 0 20 20\" "
        "aria-hidden=\"true\">";
  marker(I, 10, 10, OS);
  OS << "/></svg>";
}

/// 1, 2 or 5 times a power of ten, at least \p Raw.
double niceStep(double Raw) {
  double P = std::pow(10, std::floor(std::log10(Raw)));
  double M = Raw / P;
  return (M <= 1 ? 1 : M <= 2 ? 2 : M <= 5 ? 5 : 10) * P;
}

/// One axis of the scatter, in display units: linear, or log10 when the
/// values shown span more than a decade; round ticks (1-2-5 steps).
struct Axis {
  double Lo = 0, Hi = 1;
  bool Log = false;
  std::vector<double> Ticks;
  double Step = 0;  ///< Linear ticks.
  int Decimals = 0; ///< Linear tick labels.
  double frac(double V) const {
    if (Log)
      return (std::log10(V) - std::log10(Lo)) /
             (std::log10(Hi) - std::log10(Lo));
    return (V - Lo) / (Hi - Lo);
  }
  std::string label(double V) const {
    if (Log)
      return formatv("{0}", format("%g", V)).str();
    return formatv("{0}", format("%.*f", Decimals, V)).str();
  }
};

/// The range to draw: from the smallest value to the largest of \p MustMax
/// (the Pareto front and the picks, always shown) and the rest of the
/// configurations up to their 95th percentile, but no further than 2.5
/// times the front's extent, so the front fills at least ~40% of the axis.
/// Values beyond are drawn on the edge; they no longer squeeze the front
/// into a corner.
Axis makeAxis(std::vector<double> All, double MustMax) {
  Axis A;
  llvm::sort(All);
  double Lo = All.front();
  double P95 = All[std::min(
      All.size() - 1, static_cast<size_t>(std::ceil(0.95 * All.size())) - 1)];
  double Extent = std::max(MustMax - Lo, 0.1 * std::abs(Lo));
  double Hi = std::max(MustMax, std::min(P95, Lo + 2.5 * Extent));
  if (!(Hi > Lo))
    Hi = Lo > 0 ? Lo * 1.1 : Lo + 1;
  if (Lo > 0 && Hi / Lo > 10) {
    A.Log = true;
    double Pad = (std::log10(Hi) - std::log10(Lo)) * 0.04;
    A.Lo = Lo / std::pow(10, Pad);
    A.Hi = Hi * std::pow(10, Pad);
    int D0 = static_cast<int>(std::floor(std::log10(A.Lo)));
    int D1 = static_cast<int>(std::ceil(std::log10(A.Hi)));
    const bool Sparse = D1 - D0 > 4;
    for (int D = D0; D <= D1; ++D)
      for (double M : {1.0, 2.0, 5.0}) {
        if (Sparse && M != 1.0)
          continue;
        double V = M * std::pow(10, D);
        if (V >= A.Lo && V <= A.Hi)
          A.Ticks.push_back(V);
      }
    return A;
  }
  double Pad = (Hi - Lo) * 0.05;
  A.Lo = Lo >= 0 ? std::max(0.0, Lo - Pad) : Lo - Pad;
  A.Hi = Hi + Pad;
  double Step = niceStep((A.Hi - A.Lo) / 6);
  A.Step = Step;
  for (double V = std::ceil(A.Lo / Step - 1e-9) * Step; V <= A.Hi + Step * 1e-9;
       V += Step)
    A.Ticks.push_back(std::abs(V) < Step * 1e-9 ? 0 : V);
  return A;
}

/// A display unit for values given in a base unit, chosen so that the
/// largest shown is between 1 and 999 of it.
struct Unit {
  const char *Name;
  double Scale; ///< Display value = base value * Scale.
};
Unit timeUnit(double MaxUs) {
  if (MaxUs >= 1e6)
    return {"s", 1e-6};
  if (MaxUs >= 1e3)
    return {"ms", 1e-3};
  if (MaxUs < 1)
    return {"ns", 1e3};
  return {"us", 1};
}
Unit energyUnit(double MaxMJ) {
  if (MaxMJ >= 1e3)
    return {"J", 1e-3};
  if (MaxMJ < 1e-3)
    return {"nJ", 1e6};
  if (MaxMJ < 1)
    return {"uJ", 1e3};
  return {"mJ", 1};
}
/// "845 us", "1.304 ms", "229.2 mJ".
std::string quantity(double Base, Unit (*Pick)(double)) {
  Unit U = Pick(Base);
  return formatv("{0} {1}", format("%.4g", Base * U.Scale), U.Name).str();
}

/// What a pick's label says: its block, power limit, clock (and min-blocks
/// when it caps registers).
std::string configText(const ReportConfig &C) {
  std::string S = "block " + blockShapeText(C.Block);
  if (int64_t M = C.MinBlocksPerSM)
    S += ", min-blocks " + std::to_string(M);
  S += formatv(", {0} W, {1} MHz", format("%.0f", C.PowerLimitW),
               format("%.0f", C.ClockMHz))
           .str();
  return S;
}

/// The configuration pick \p Key chose, and its index; -1 when the kernel
/// has no such pick.
int64_t pickIndex(const ReportKernel &K, StringRef Key) {
  auto It = K.Picks.find(Key.str());
  return It == K.Picks.end() ? -1 : int64_t(It->second.Index);
}

/// A configuration that can be drawn.
bool drawable(const ReportConfig *C) {
  return C && C->Valid && C->TimeS > 0 && C->EnergyJ > 0;
}

/// Configuration \p I of \p K; null when \p I is not an index of one.
const ReportConfig *configAt(const ReportKernel &K, int64_t I) {
  return I >= 0 && size_t(I) < K.Configs.size() ? &K.Configs[I] : nullptr;
}

/// \p A with its values multiplied by \p S (a display unit's scale), and
/// the decimals its linear tick labels then need.
Axis scaledAxis(Axis A, double S) {
  A.Lo *= S;
  A.Hi *= S;
  for (double &T : A.Ticks)
    T *= S;
  A.Step *= S;
  if (!A.Log)
    A.Decimals =
        std::max(0, -static_cast<int>(std::floor(std::log10(A.Step) + 1e-9)));
  return A;
}

/// The scatter's frame (SVG units) and its axes, in display units.
struct Plot {
  static constexpr double W = 640, H = 440, L = 70, R = 18, Top = 52, B = 46;
  static constexpr double PW = W - L - R, PH = H - Top - B;
  Axis XA, YA;
  Unit XU, YU;
  /// Where a time (us) and an energy (mJ) are drawn: on the edge when
  /// beyond the axes.
  double x(double Us) const {
    return L + std::clamp(XA.frac(Us * XU.Scale), 0.0, 1.0) * PW;
  }
  double y(double MJ) const {
    return H - B - std::clamp(YA.frac(MJ * YU.Scale), 0.0, 1.0) * PH;
  }
  bool beyond(double Us, double MJ) const {
    return XA.frac(Us * XU.Scale) > 1.0001 || YA.frac(MJ * YU.Scale) > 1.0001;
  }
};

/// The axes of \p K's scatter: every drawable configuration, the front and
/// the picks always shown (makeAxis), in display units from the range shown.
Plot makePlot(const ReportKernel &K) {
  // Values in the base units (us, mJ); the front and the picks must show.
  std::vector<double> Ts, Es;
  double TMust = 0, EMust = 0;
  for (const ReportConfig &C : K.Configs)
    if (drawable(&C)) {
      Ts.push_back(C.TimeS * 1e6);
      Es.push_back(C.EnergyJ * 1e3);
    }
  std::vector<int64_t> Must(K.Pareto.begin(), K.Pareto.end());
  for (size_t I = 0; I < NumPicks; ++I)
    Must.push_back(pickIndex(K, ReportPickNames[I]));
  for (int64_t I : Must)
    if (const ReportConfig *C = configAt(K, I); drawable(C)) {
      TMust = std::max(TMust, C->TimeS * 1e6);
      EMust = std::max(EMust, C->EnergyJ * 1e3);
    }
  Axis XA = makeAxis(Ts, TMust), YA = makeAxis(Es, EMust);
  const Unit XU = timeUnit(XA.Hi), YU = energyUnit(YA.Hi);
  return {scaledAxis(XA, XU.Scale), scaledAxis(YA, YU.Scale), XU, YU};
}

/// The legend, above the plot: the picks' markers, the configurations, the
/// front and the points beyond the axes (positions fit 11px labels).
void scatterLegend(raw_ostream &OS) {
  OS << "<g class=\"legend\">\n";
  const double LegendX[NumPicks] = {14, 100, 210, 14, 150};
  for (size_t I = 0; I < NumPicks; ++I) {
    double LX = LegendX[I], LY = I < 3 ? 14 : 34;
    marker(I, LX + 6, LY, OS);
    OS << "/>";
    OS << formatv(
        "<text x=\"{0}\" y=\"{1}\" class=\"legend-text\">{2}</text>\n", LX + 18,
        LY + 4, Picks[I].Label);
  }
  OS << "<line x1=\"420\" y1=\"14\" x2=\"432\" y2=\"14\" class=\"pareto\"/>"
        "<text x=\"438\" y=\"18\" class=\"legend-text\">Pareto front</text>\n"
        "<circle cx=\"306\" cy=\"34\" r=\"2.5\" class=\"cfg\"/>"
        "<text x=\"318\" y=\"38\" class=\"legend-text\">configuration</text>\n"
        "<path d=\"M430,34 l-7,-3.5 l0,7 z\" class=\"beyond\"/>"
        "<text x=\"438\" y=\"38\" class=\"legend-text\">beyond the "
        "axes</text>\n"
        "</g>\n";
}

/// Grid, axes, round ticks and the axes' labels.
void scatterAxes(const Plot &P, raw_ostream &OS) {
  const double W = P.W, H = P.H, L = P.L, R = P.R, Top = P.Top, B = P.B;
  OS << "<g class=\"axes\">\n";
  for (double T : P.XA.Ticks) {
    double PX = L + P.XA.frac(T) * P.PW;
    OS << formatv("<line x1=\"{0:F1}\" y1=\"{1}\" x2=\"{0:F1}\" y2=\"{2}\" "
                  "class=\"grid\"/><text x=\"{0:F1}\" y=\"{3}\" class=\"tick\" "
                  "text-anchor=\"middle\">{4}</text>\n",
                  PX, Top, H - B, H - B + 15, P.XA.label(T));
  }
  for (double E : P.YA.Ticks) {
    double PY = H - B - P.YA.frac(E) * P.PH;
    OS << formatv("<line x1=\"{0}\" y1=\"{1:F1}\" x2=\"{2}\" y2=\"{1:F1}\" "
                  "class=\"grid\"/><text x=\"{3}\" y=\"{4:F1}\" class=\"tick\" "
                  "text-anchor=\"end\">{5}</text>\n",
                  L, PY, W - R, L - 6, PY + 3.5, P.YA.label(E));
  }
  OS << formatv(
      "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" class=\"axis\"/>"
      "<line x1=\"{0}\" y1=\"{3}\" x2=\"{0}\" y2=\"{1}\" class=\"axis\"/>\n",
      L, H - B, W - R, Top);
  OS << formatv(
      "<text x=\"{0}\" y=\"{1}\" class=\"label\" text-anchor=\"middle\">"
      "time ({2}{3})</text>\n",
      L + P.PW / 2, H - 10, P.XU.Name, P.XA.Log ? ", log scale" : "");
  OS << formatv(
      "<text x=\"16\" y=\"{0}\" class=\"label\" text-anchor=\"middle\" "
      "transform=\"rotate(-90 16 {0})\">energy ({1}{2})</text>\n",
      Top + P.PH / 2, P.YU.Name, P.YA.Log ? ", log scale" : "");
  OS << "</g>\n";
}

/// Every configuration, with its figures as a tooltip; those beyond the
/// axes on the edge, as triangles. Returns how many are beyond.
size_t scatterConfigs(const ReportKernel &K, const Plot &P, raw_ostream &OS) {
  size_t NumBeyond = 0;
  OS << "<g class=\"configs\">\n";
  for (const ReportConfig &C : K.Configs) {
    if (!drawable(&C))
      continue;
    double T = C.TimeS * 1e6, E = C.EnergyJ * 1e3;
    std::string Title =
        formatv("block {0}, min-blocks {1}, {2} W: {3}, {4}",
                blockShapeText(C.Block), int64_t(C.MinBlocksPerSM),
                format("%.0f", C.PowerLimitW), quantity(T, timeUnit),
                quantity(E, energyUnit))
            .str();
    if (P.beyond(T, E)) {
      ++NumBeyond;
      OS << formatv(
          "<path class=\"beyond\" d=\"M{0:F1},{1:F1} l-7,-3.5 l0,7 z\">"
          "<title>beyond the axes: {2}</title></path>\n",
          P.x(T), P.y(E), Title);
      continue;
    }
    OS << formatv("<circle cx=\"{0:F1}\" cy=\"{1:F1}\" r=\"2.5\"><title>{2}"
                  "</title></circle>\n",
                  P.x(T), P.y(E), Title);
  }
  OS << "</g>\n";
  return NumBeyond;
}

/// The Pareto front, as a line through its configurations.
void scatterPareto(const ReportKernel &K, const Plot &P, raw_ostream &OS) {
  if (K.Pareto.empty())
    return;
  OS << "<polyline class=\"pareto\" points=\"";
  for (size_t I : K.Pareto)
    if (const ReportConfig *C = configAt(K, I); drawable(C))
      OS << format("%.1f,%.1f ", P.x(C->TimeS * 1e6), P.y(C->EnergyJ * 1e3));
  OS << "\"/>\n";
}

/// The label of one configuration picked, beside its marker.
struct PickLabel {
  double MX, MY; // Marker.
  std::vector<std::string> Lines;
  double X = 0, Y = 0, Width = 0, Height = 0; // Y: first baseline.
  bool Right = true;
};
constexpr double LabelLineH = 14, LabelCharW = 6.4; // 11px text, width guessed.

/// The picks: a marker each, with its configuration as a tooltip. Returns
/// one label per configuration picked, naming every pick that chose it and
/// its block, power limit and clock (not yet placed).
std::vector<PickLabel> scatterPicks(const ReportKernel &K, const Plot &P,
                                    raw_ostream &OS) {
  std::vector<PickLabel> Labels;
  std::vector<int64_t> Done;
  for (size_t I = 0; I < NumPicks; ++I) {
    const char *Key = ReportPickNames[I];
    int64_t Idx = pickIndex(K, Key);
    const ReportConfig *C = configAt(K, Idx);
    if (!drawable(C))
      continue;
    double MX = P.x(C->TimeS * 1e6), MY = P.y(C->EnergyJ * 1e3);
    marker(I, MX, MY, OS,
           formatv(" class=\"pick\" data-pick=\"{0}\"", Key).str());
    OS << "><title>" << Picks[I].Label << ": " << esc(configText(*C))
       << "</title></"
       << (I == 0   ? "circle"
           : I == 1 ? "rect"
                    : "path")
       << ">\n";
    if (llvm::is_contained(Done, Idx))
      continue;
    Done.push_back(Idx);
    std::string Names = Picks[I].Short;
    for (size_t J = I + 1; J < NumPicks; ++J)
      if (pickIndex(K, ReportPickNames[J]) == Idx)
        Names += std::string(" + ") + Picks[J].Short;
    PickLabel Lb{MX, MY, {Names + ": " + configText(*C)}};
    if (Lb.Lines[0].size() * LabelCharW > P.PW / 2)
      Lb.Lines = {Names + ":", configText(*C)};
    for (const std::string &T : Lb.Lines)
      Lb.Width = std::max(Lb.Width, T.size() * LabelCharW);
    Lb.Height = Lb.Lines.size() * LabelLineH;
    Labels.push_back(std::move(Lb));
  }
  return Labels;
}

/// Greedy placement, top marker first: each label takes the free slot
/// nearest its marker's height, right of the marker where it fits, else
/// left of it, so that no two overlap.
void placeLabels(std::vector<PickLabel> &Labels) {
  const double W = Plot::W, H = Plot::H, L = Plot::L, R = Plot::R,
               Top = Plot::Top, B = Plot::B, LineH = LabelLineH;
  llvm::stable_sort(Labels, [](const PickLabel &A, const PickLabel &B) {
    return A.MY < B.MY;
  });
  std::vector<const PickLabel *> Placed;
  auto Overlaps = [&](const PickLabel &A) {
    for (const PickLabel *P : Placed)
      if (A.X < P->X + P->Width + 4 && P->X < A.X + A.Width + 4 &&
          A.Y < P->Y + P->Height + 2 && P->Y < A.Y + A.Height + 2)
        return true;
    return false;
  };
  const double MinY = Top + 11, MaxY = H - B - 4;
  for (PickLabel &Lb : Labels) {
    Lb.Right = Lb.MX + 10 + Lb.Width <= W - R;
    Lb.X = Lb.Right ? Lb.MX + 10 : std::max(L + 2, Lb.MX - 10 - Lb.Width);
    double Want = Lb.MY + 4 - (Lb.Lines.size() - 1) * LineH / 2;
    for (int Step = 0; Step < 80; ++Step) {
      double Off = ((Step + 1) / 2) * (LineH / 2) * (Step % 2 ? 1 : -1);
      double Y = Want + Off;
      if (Y < MinY || Y + Lb.Height - LineH > MaxY)
        continue;
      Lb.Y = Y;
      if (!Overlaps(Lb))
        break;
    }
    if (Lb.Y == 0)
      Lb.Y = std::clamp(Want, MinY, MaxY);
    Placed.push_back(&Lb);
  }
}

/// The placed labels; a leader line joins a label moved away from its
/// marker.
void writeLabels(const std::vector<PickLabel> &Labels, raw_ostream &OS) {
  const double LineH = LabelLineH;
  OS << "<g class=\"pick-labels\">\n";
  for (const PickLabel &Lb : Labels) {
    double AX = Lb.Right ? Lb.X - 2 : Lb.X + Lb.Width + 2;
    double AY = std::clamp(Lb.MY, Lb.Y - 10, Lb.Y + Lb.Height - LineH);
    if (std::abs(AY - Lb.MY) > 2 || std::abs(AX - Lb.MX) > 12)
      OS << formatv("<line x1=\"{0:F1}\" y1=\"{1:F1}\" x2=\"{2:F1}\" "
                    "y2=\"{3:F1}\" class=\"leader\"/>",
                    Lb.MX, Lb.MY, AX, AY);
    OS << formatv("<text y=\"{0:F1}\" class=\"pick-label\">", Lb.Y);
    for (size_t I = 0; I < Lb.Lines.size(); ++I) {
      OS << formatv("<tspan x=\"{0:F1}\"{1}>", Lb.X,
                    I ? formatv(" dy=\"{0}\"", LineH).str() : std::string());
      escape(Lb.Lines[I], OS);
      OS << "</tspan>";
    }
    OS << "</text>\n";
  }
  OS << "</g>\n";
}

/// The time-energy scatter of one kernel.
void scatter(const ReportKernel &K, raw_ostream &OS) {
  const Plot P = makePlot(K);
  OS << "<svg class=\"scatter\" viewBox=\"0 0 " << P.W << " " << P.H
     << "\" width=\"" << P.W << "\" height=\"" << P.H
     << "\" role=\"img\" aria-label=\"time-energy scatter\">\n";
  scatterLegend(OS);
  scatterAxes(P, OS);
  size_t NumBeyond = scatterConfigs(K, P, OS);
  scatterPareto(K, P, OS);
  std::vector<PickLabel> Labels = scatterPicks(K, P, OS);
  placeLabels(Labels);
  writeLabels(Labels, OS);
  OS << "</svg>\n";
  if (NumBeyond)
    OS << "<p class=\"beyond-note\">" << NumBeyond
       << " configuration(s) far from the Pareto front lie beyond the axes "
          "and are drawn as triangles on the edge; hover for their "
          "figures.</p>\n";
}

void kernelSection(const ReportKernel &K, size_t Index, raw_ostream &OS) {
  OS << "<section class=\"kernel\" id=\"k" << Index << "\">\n<h2>";
  escape(displayName(K), OS);
  OS << "</h2>\n<p class=\"where\">";
  escape(K.File, OS);
  if (K.Line)
    OS << ":" << K.Line;
  if (K.GPU)
    OS << " &middot; GPU " << esc(*K.GPU);
  if (const std::optional<ReportResources> &Res = K.Resources)
    OS << " &middot; " << Res->Registers << " registers ("
       << (Res->RegistersExact ? "ptxas" : "estimated") << "), "
       << Res->SharedBytes << " B static shared";
  OS << "</p>\n";
  if (K.Configs.empty()) {
    // Why nothing was predicted (a kernel that does no work, an implausible
    // profile), where the report says.
    OS << "<p>"
       << (K.Explanation.empty() ? std::string("No configuration could be "
                                               "evaluated.")
                                 : esc(K.Explanation))
       << "</p>\n</section>\n";
    return;
  }
  if (llvm::none_of(K.Configs,
                    [](const ReportConfig &C) { return drawable(&C); })) {
    OS << "<p>No valid configuration.</p>\n</section>\n";
    return;
  }
  OS << "<div class=\"row\"><div class=\"plot\">\n";
  scatter(K, OS);
  OS << "</div>\n<div class=\"side\">\n<table "
        "class=\"picks\">\n<tr><th>pick</th>"
        "<th>block</th><th>min-blocks</th><th>power limit</th><th>clock</th>"
        "<th>time</th><th>energy</th></tr>\n";
  for (size_t I = 0; I < NumPicks; ++I) {
    const ReportConfig *C = K.pick(ReportPickNames[I]);
    if (!C)
      continue;
    OS << "<tr data-pick=\"" << ReportPickNames[I] << "\"><td>";
    markerIcon(I, OS);
    // The lever a pick needs, under the figure it sets (a second line keeps
    // the table as narrow as before): "set" under a power limit, "locked"
    // under a clock; a pick without a lever has neither.
    const char *LimitNote =
        C->Lever == "power_limit" ? "<br><small>set</small>" : "";
    const char *ClockNote =
        C->Lever == "locked_clock" ? "<br><small>locked</small>" : "";
    OS << formatv("{0}</td><td>{1}</td><td>{2}</td><td>{3} W{4}</td>"
                  "<td>{5} MHz{6}</td><td>{7}</td><td>{8}</td></tr>\n",
                  Picks[I].Label, blockShapeText(C->Block),
                  int64_t(C->MinBlocksPerSM),
                  format("%.0f", C->PowerLimitW), LimitNote,
                  format("%.0f", C->ClockMHz), ClockNote,
                  quantity(C->TimeS * 1e6, timeUnit),
                  quantity(C->EnergyJ * 1e3, energyUnit));
  }
  OS << "</table>\n<p class=\"stats\">" << K.Configs.size()
     << " configurations, " << K.Pareto.size()
     << " on the Pareto front (search space reduced by "
     << format("%.1f", 100 * K.SearchSpaceReduction) << "%).</p>\n";
  // Each pick's lever, how to set it, its bands, and a tie.
  OS << "<ul class=\"levers\">\n";
  for (size_t I = 0; I < NumPicks; ++I) {
    const ReportConfig *C = K.pick(ReportPickNames[I]);
    if (!C)
      continue;
    auto RecIt = K.Recommendations.find(ReportPickNames[I]);
    const ReportRecommendation *Rec =
        RecIt == K.Recommendations.end() ? nullptr : &RecIt->second;
    OS << "<li data-pick=\"" << ReportPickNames[I] << "\">" << Picks[I].Label
       << ": ";
    if (C->Lever == "power_limit")
      OS << "power limit " << format("%.0f", C->LeverValue) << " W";
    else if (C->Lever == "locked_clock")
      OS << "SM clock locked at " << format("%.0f", C->LeverValue) << " MHz";
    else
      OS << "no lever (default power limit, clocks not locked)";
    if (Rec && !Rec->Command.empty())
      OS << " &middot; <code>" << esc(Rec->Command) << "</code> (<code>"
         << esc(Rec->NVML) << "</code>), needs root/admin";
    auto Band = [&](const std::optional<std::array<double, 2>> &B,
                    double Scale, Unit (*U)(double)) {
      if (!B)
        return std::string("?");
      return quantity((*B)[0] * Scale, U) + " to " +
             quantity((*B)[1] * Scale, U);
    };
    OS << " &middot; time " << Band(C->TimeBandS, 1e6, timeUnit)
       << ", energy " << Band(C->EnergyBandJ, 1e3, energyUnit);
    if (Rec && !Rec->Note.empty())
      OS << " &middot; " << esc(Rec->Note);
    if (auto T = K.Ties.find(ReportPickNames[I]); T != K.Ties.end())
      OS << formatv(" &middot; <span class=\"tie\">tie: the model's optimum "
                    "is better by {0}%, inside the &plusmn;{1}% band of a "
                    "comparison; the less intrusive configuration is "
                    "shown</span>",
                    format("%.1f", T->second.AdvantagePct),
                    format("%.0f", T->second.BandPct));
    OS << "</li>\n";
  }
  OS << "</ul>\n";
  if (K.ShapeHeld)
    OS << "<p class=\"held\">Block shape held: " << esc(K.ShapeReason)
       << "</p>\n";
  OS << "<p class=\"why\">" << esc(K.Explanation) << "</p>\n";
  if (!K.Guesses.empty()) {
    OS << "<p class=\"guesses\">Guessed:</p><ul class=\"guesses\">\n";
    for (const std::string &G : K.Guesses)
      OS << "<li>" << esc(G) << "</li>\n";
    OS << "</ul>\n";
  }
  OS << "</div></div>\n</section>\n";
}

/// A pick's key in words ("occupancy_heuristic" -> "occupancy heuristic").
std::string pickWords(std::string Key) {
  std::replace(Key.begin(), Key.end(), '_', ' ');
  return Key;
}

/// The application-level advice (one setting for the whole program).
void adviceSection(const Report &R, const AppAdviceOptions &AO,
                   raw_ostream &OS) {
  std::vector<AppAdvice> Advice = computeAppAdvice(R, AO);
  if (Advice.empty())
    return;
  Bands AB = absoluteBands();
  OS << "<section class=\"advice\">\n<h2>Application-level advice</h2>\n";
  for (const AppAdvice &A : Advice) {
    double T0 = A.Default.TimeS * 1e6, E0 = A.Default.EnergyJ * 1e3;
    OS << "<p class=\"app\">" << esc(A.GPU) << ": one setting for the whole "
       << "program, from " << A.Kernels.size()
       << " kernel(s) weighted by their share of its GPU time (each at its "
       << esc(pickWords(A.At)) << " configuration; " << A.NumSettings
       << " settings). Default (no lever): " << quantity(T0, timeUnit)
       << " &plusmn;" << format("%.0f", AB.Time * 100) << "%, "
       << quantity(E0, energyUnit) << " &plusmn;"
       << format("%.0f", AB.Energy * 100) << "%.</p>\n<p class=\"app\">";
    if (A.Best.Lever == "none") {
      OS << "<b>Keep the default</b>: no power limit or locked clock saves "
            "energy within the slowdown budget.";
    } else {
      std::string What =
          A.Best.Lever == "power_limit"
              ? formatv("power limit {0} W", format("%.0f", A.Best.Value)).str()
              : formatv("SM clock locked at {0} MHz",
                        format("%.0f", A.Best.Value))
                    .str();
      if (A.Tie) {
        OS << "<b>Tie: keep the default</b> (no lever). The best setting, "
           << What << ", saves " << format("%.1f", A.SavingPct)
           << "% energy, inside the &plusmn;" << format("%.0f", A.BandPct)
           << "% band of a comparison.";
      } else {
        LeverCommand LC =
            leverCommand(A.Best.Lever, A.Best.Value, A.DefaultLimitW);
        OS << "<b>" << What << "</b> for the whole application: "
           << quantity(A.Best.TimeS * 1e6, timeUnit) << " ("
           << format("%+.1f", A.SlowdownPct) << "% time), "
           << quantity(A.Best.EnergyJ * 1e3, energyUnit) << " ("
           << format("%+.1f", -A.SavingPct)
           << "% energy; comparison band &plusmn;"
           << format("%.0f", A.BandPct) << "%). Apply with <code>"
           << esc(LC.Command) << "</code> (NVML <code>" << esc(LC.NVML)
           << "</code>); needs root/admin; undo with <code>" << esc(LC.Reset)
           << "</code>.";
      }
    }
    OS << "</p>\n<table class=\"app\"><tr><th>kernel</th><th>launches</th>"
          "<th>time/launch</th><th>share of GPU time</th></tr>\n";
    for (const AppKernel &K : A.Kernels)
      OS << "<tr><td>" << esc(K.DisplayName) << "</td><td>"
         << format("%.0f", K.Launches) << (K.LaunchesGiven ? "" : "*")
         << "</td><td>" << quantity(K.TimeS * 1e6, timeUnit) << "</td><td>"
         << format("%.1f", K.Share * 100) << "%</td></tr>\n";
    OS << "</table>\n<ul class=\"app\">\n";
    for (const AppKernel &K : A.Kernels)
      OS << "<li>" << esc(K.DisplayName) << ": " << esc(K.Advice) << "</li>\n";
    for (const std::string &N : A.Notes)
      OS << "<li class=\"note\">* " << esc(N) << "</li>\n";
    OS << "</ul>\n";
  }
  OS << "</section>\n";
}

} // namespace

void writeHTMLReport(const json::Value &V, raw_ostream &OS) {
  Expected<Report> R = reportFromJSON(V);
  if (!R) {
    OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
          "charset=\"utf-8\">\n<title>FlipFlop report</title>\n</head>\n"
          "<body>\n<p>Not a FlipFlop report: "
       << esc(toString(R.takeError())) << "</p>\n</body>\n</html>\n";
    return;
  }
  writeHTMLReport(*R, OS);
}

void writeHTMLReport(const Report &R, raw_ostream &OS,
                     const AppAdviceOptions &AO) {
  std::string GPU = R.GPU && !R.GPU->Name.empty() ? R.GPU->Name : "?";
  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<title>FlipFlop report: " << esc(GPU) << "</title>\n<style>\n"
        "body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1400px}\n"
        "h1{font-size:1.4em}h2{font-size:1.1em;margin-bottom:2px;font-family:monospace}\n"
        ".where{color:#666;margin-top:0}.row{display:flex;gap:24px;flex-wrap:wrap}\n"
        ".scatter{background:#fafafa;border:1px solid #ddd}\n"
        ".configs circle,circle.cfg{fill:#8a9a9a;opacity:.5}\n"
        ".beyond{fill:#b0b8b8;stroke:#778;stroke-width:.6}\n"
        ".grid{stroke:#e4e4e4}.leader{stroke:#888;stroke-width:.8}\n"
        ".pick-label{font-size:11px;fill:#111;paint-order:stroke;"
        "stroke:#fafafa;stroke-width:3px}\n"
        ".legend-text{font-size:11px;fill:#222}.icon{vertical-align:middle;"
        "margin-right:4px}.beyond-note{color:#666;font-size:.85em;margin:2px 0}\n"
        ".pareto{fill:none;stroke:#1f77b4;stroke-width:1.5}\n"
        ".axis{stroke:#444}.tick{font-size:11px;fill:#444}.label{font-size:12px;fill:#222}\n"
        ".plot{flex:0 0 642px;max-width:642px}.side{flex:1 1 540px;min-width:0}\n"
        "table{border-collapse:collapse;font-size:.85em}\n"
        "td,th{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left;"
        "white-space:nowrap}\ntd:first-child,th{white-space:normal}\n"

        ".why{background:#f3f6fb;padding:8px;border-left:3px solid #1f77b4}\n"
        ".held{color:#8a5a00}.guesses{color:#8a5a00;font-size:.9em}\n"
        ".levers{font-size:.85em;padding-left:18px}.tie{color:#8a5a00}\n"
        "section.advice{background:#f6f9f2;padding:8px 12px;"
        "border:1px solid #cdb}\n"
        "section.kernel{border-top:1px solid #ccc;padding-top:8px;margin-top:16px}\n"
        "</style>\n</head>\n<body>\n<h1>FlipFlop report &middot; "
     << esc(GPU) << "</h1>\n";
  OS << "<p>" << R.Kernels.size()
     << " kernel(s). Each dot is a predicted configuration (block shape, "
        "register cap, power limit); the line is the time-energy Pareto "
        "front; each of FlipFlop's picks and NVIDIA's occupancy heuristic has "
        "its own marker (legend above each plot), labelled with its block, "
        "power limit and clock. Configurations slower or costlier than 95% "
        "of the others are drawn on the edge of the axes; an axis spanning "
        "more than a decade is logarithmic.</p>\n";
  OS << "<ul class=\"toc\">\n";
  for (size_t I = 0; I < R.Kernels.size(); ++I)
    OS << "<li><a href=\"#k" << I << "\">" << esc(displayName(R.Kernels[I]))
       << "</a></li>\n";
  OS << "</ul>\n";
  adviceSection(R, AO, OS);
  for (size_t I = 0; I < R.Kernels.size(); ++I)
    kernelSection(R.Kernels[I], I, OS);
  OS << "</body>\n</html>\n";
}

} // namespace flipflop
