//===- HTMLReport.cpp - A self-contained page per report ------------------===//
//
// Renders a JSON report (docs/REPORT-SCHEMA.md) as one HTML page with no
// external resources: per kernel a time-energy scatter (inline SVG) of every
// configuration, the Pareto front, the picks and the occupancy heuristic
// highlighted, the picks' table and the explanation beside it.
//
//===----------------------------------------------------------------------===//
#include "flipflop/Report/HTMLReport.h"

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

double num(const json::Object *O, StringRef K) {
  if (!O)
    return 0;
  if (auto V = O->getNumber(K))
    return *V;
  return 0;
}

std::string dims(const json::Object *C, StringRef Key) {
  const json::Array *A = C ? C->getArray(Key) : nullptr;
  if (!A || A->size() != 3)
    return "?";
  auto At = [&](size_t I) { return (*A)[I].getAsInteger().value_or(0); };
  std::string S = std::to_string(At(0));
  if (At(1) > 1 || At(2) > 1)
    S += "x" + std::to_string(At(1));
  if (At(2) > 1)
    S += "x" + std::to_string(At(2));
  return S;
}

struct Pick {
  const char *Key, *Label, *Color;
};
const Pick Picks[] = {
    {"fastest", "fastest", "#1f77b4"},
    {"least_energy", "least energy", "#2ca02c"},
    {"energy_within_budget", "least energy within budget", "#9467bd"},
    {"best_edp", "best energy-delay", "#ff7f0e"},
    {"occupancy_heuristic", "occupancy heuristic", "#d62728"},
};

void kernelSection(const json::Object &K, size_t Index, raw_ostream &OS) {
  StringRef Display = K.getString("display_name").value_or(
      K.getString("name").value_or("?"));
  const json::Array *Configs = K.getArray("configs");
  const json::Object *PicksObj = K.getObject("picks");
  const json::Object *Res = K.getObject("resources");
  OS << "<section class=\"kernel\" id=\"k" << Index << "\">\n<h2>";
  escape(Display, OS);
  OS << "</h2>\n<p class=\"where\">";
  escape(K.getString("file").value_or(""), OS);
  if (auto L = K.getInteger("line"); L && *L)
    OS << ":" << *L;
  if (auto G = K.getString("gpu"))
    OS << " &middot; GPU " << esc(*G);
  if (Res)
    OS << " &middot; " << int64_t(num(Res, "registers")) << " registers ("
       << (Res->getBoolean("registers_exact").value_or(false) ? "ptxas"
                                                                : "estimated")
       << "), " << int64_t(num(Res, "shared_bytes")) << " B static shared";
  OS << "</p>\n";
  if (!Configs || Configs->empty() || !PicksObj) {
    OS << "<p>No configuration could be evaluated.</p>\n</section>\n";
    return;
  }
  // Scatter bounds (log-free linear axes with a margin).
  double TMin = INFINITY, TMax = 0, EMin = INFINITY, EMax = 0;
  for (const json::Value &V : *Configs) {
    const json::Object *C = V.getAsObject();
    if (!C || !C->getBoolean("valid").value_or(true))
      continue;
    double T = num(C, "time_s") * 1e6, E = num(C, "energy_j") * 1e3;
    if (!(T > 0) || !(E > 0))
      continue;
    TMin = std::min(TMin, T);
    TMax = std::max(TMax, T);
    EMin = std::min(EMin, E);
    EMax = std::max(EMax, E);
  }
  if (!(TMax > 0)) {
    OS << "<p>No valid configuration.</p>\n</section>\n";
    return;
  }
  // Zoom on the interesting region: up to 3x the fastest time.
  TMax = std::min(TMax, TMin * 3);
  double TSpan = std::max(TMax - TMin, TMin * 0.05);
  double ESpan = std::max(EMax - EMin, EMin * 0.05);
  TMin -= TSpan * 0.05;
  TMax += TSpan * 0.05;
  EMin -= ESpan * 0.05;
  EMax += ESpan * 0.05;
  const double W = 560, H = 360, L = 64, B = 44, R = 16, Top = 12;
  auto X = [&](double T) { return L + (T - TMin) / (TMax - TMin) * (W - L - R); };
  auto Y = [&](double E) { return H - B - (E - EMin) / (EMax - EMin) * (H - B - Top); };
  auto Cfg = [&](size_t I) -> const json::Object * {
    return I < Configs->size() ? (*Configs)[I].getAsObject() : nullptr;
  };

  OS << "<div class=\"row\"><svg class=\"scatter\" viewBox=\"0 0 " << W << " "
     << H << "\" width=\"" << W << "\" height=\"" << H
     << "\" role=\"img\" aria-label=\"time-energy scatter\">\n";
  // Axes and ticks.
  OS << formatv("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" class=\"axis\"/>"
                "<line x1=\"{0}\" y1=\"{3}\" x2=\"{0}\" y2=\"{1}\" class=\"axis\"/>\n",
                L, H - B, W - R, Top);
  for (int I = 0; I <= 4; ++I) {
    double T = TMin + (TMax - TMin) * I / 4, E = EMin + (EMax - EMin) * I / 4;
    OS << formatv("<text x=\"{0:F1}\" y=\"{1}\" class=\"tick\" "
                  "text-anchor=\"middle\">{2}</text>\n",
                  X(T), H - B + 16, format("%.4g", T));
    OS << formatv("<text x=\"{0}\" y=\"{1:F1}\" class=\"tick\" "
                  "text-anchor=\"end\">{2}</text>\n",
                  L - 6, Y(E) + 4, format("%.4g", E));
  }
  OS << formatv("<text x=\"{0}\" y=\"{1}\" class=\"label\" "
                "text-anchor=\"middle\">time (us)</text>\n",
                (L + W - R) / 2, H - 8);
  OS << formatv("<text x=\"14\" y=\"{0}\" class=\"label\" text-anchor=\"middle\" "
                "transform=\"rotate(-90 14 {0})\">energy (mJ)</text>\n",
                (Top + H - B) / 2);
  // Every configuration.
  OS << "<g class=\"configs\">\n";
  for (size_t I = 0; I < Configs->size(); ++I) {
    const json::Object *C = Cfg(I);
    if (!C || !C->getBoolean("valid").value_or(true))
      continue;
    double T = num(C, "time_s") * 1e6, E = num(C, "energy_j") * 1e3;
    if (T > TMax || T < TMin || !(E > 0))
      continue;
    OS << formatv("<circle cx=\"{0:F1}\" cy=\"{1:F1}\" r=\"2.5\"><title>block "
                  "{2}, min-blocks {3}, {4} W: {5} us, {6} mJ</title></circle>\n",
                  X(T), Y(E), dims(C, "block"),
                  int64_t(num(C, "min_blocks_per_sm")),
                  format("%.0f", num(C, "power_limit_w")), format("%.4g", T),
                  format("%.4g", E));
  }
  OS << "</g>\n";
  // The Pareto front as a polyline.
  if (const json::Array *P = K.getArray("pareto")) {
    OS << "<polyline class=\"pareto\" points=\"";
    for (const json::Value &V : *P) {
      const json::Object *C = Cfg(V.getAsInteger().value_or(-1));
      if (!C)
        continue;
      double T = num(C, "time_s") * 1e6, E = num(C, "energy_j") * 1e3;
      if (T <= TMax)
        OS << format("%.1f,%.1f ", X(T), Y(E));
    }
    OS << "\"/>\n";
  }
  // The picks.
  for (const Pick &Pk : Picks) {
    auto Idx = PicksObj->getInteger(Pk.Key);
    const json::Object *C = Idx ? Cfg(*Idx) : nullptr;
    if (!C)
      continue;
    double T = num(C, "time_s") * 1e6, E = num(C, "energy_j") * 1e3;
    if (T > TMax)
      continue;
    if (StringRef(Pk.Key) == "occupancy_heuristic")
      OS << formatv("<path class=\"pick\" data-pick=\"{0}\" d=\"M{1:F1},{2:F1} "
                    "l10,10 m0,-10 l-10,10\" stroke=\"{3}\" stroke-width=\"2.5\">"
                    "<title>{4}</title></path>\n",
                    Pk.Key, X(T) - 5, Y(E) - 5, Pk.Color, Pk.Label);
    else
      OS << formatv("<circle class=\"pick\" data-pick=\"{0}\" cx=\"{1:F1}\" "
                    "cy=\"{2:F1}\" r=\"7\" fill=\"none\" stroke=\"{3}\" "
                    "stroke-width=\"2.5\"><title>{4}</title></circle>\n",
                    Pk.Key, X(T), Y(E), Pk.Color, Pk.Label);
  }
  OS << "</svg>\n<div class=\"side\">\n<table class=\"picks\">\n<tr><th>pick</th>"
        "<th>block</th><th>min-blocks</th><th>power limit</th><th>time</th>"
        "<th>energy</th></tr>\n";
  for (const Pick &Pk : Picks) {
    auto Idx = PicksObj->getInteger(Pk.Key);
    const json::Object *C = Idx ? Cfg(*Idx) : nullptr;
    if (!C)
      continue;
    OS << formatv("<tr><td><span class=\"swatch\" style=\"border-color:{0}\">"
                  "</span>{1}</td><td>{2}</td><td>{3}</td><td>{4} W</td>"
                  "<td>{5} us</td><td>{6} mJ</td></tr>\n",
                  Pk.Color, Pk.Label, dims(C, "block"),
                  int64_t(num(C, "min_blocks_per_sm")),
                  format("%.0f", num(C, "power_limit_w")),
                  format("%.4g", num(C, "time_s") * 1e6),
                  format("%.4g", num(C, "energy_j") * 1e3));
  }
  OS << "</table>\n<p class=\"stats\">" << Configs->size()
     << " configurations, "
     << (K.getArray("pareto") ? K.getArray("pareto")->size() : 0)
     << " on the Pareto front (search space reduced by "
     << format("%.1f", 100 * num(&K, "search_space_reduction")) << "%).</p>\n";
  if (K.getBoolean("shape_held").value_or(false))
    OS << "<p class=\"held\">Block shape held: "
       << esc(K.getString("shape_reason").value_or("")) << "</p>\n";
  OS << "<p class=\"why\">" << esc(K.getString("explanation").value_or(""))
     << "</p>\n";
  if (const json::Object *Prof = K.getObject("profile"))
    if (const json::Array *G = Prof->getArray("guesses"); G && !G->empty()) {
      OS << "<p class=\"guesses\">Guessed:</p><ul class=\"guesses\">\n";
      for (const json::Value &V : *G)
        OS << "<li>" << esc(V.getAsString().value_or("")) << "</li>\n";
      OS << "</ul>\n";
    }
  OS << "</div></div>\n</section>\n";
}

} // namespace

void writeHTMLReport(const json::Value &Report, raw_ostream &OS) {
  const json::Object *Top = Report.getAsObject();
  std::string GPU = "?";
  if (Top)
    if (const json::Object *G = Top->getObject("gpu"))
      GPU = G->getString("name").value_or("?").str();
  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<title>FlipFlop report: " << esc(GPU) << "</title>\n<style>\n"
        "body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1200px}\n"
        "h1{font-size:1.4em}h2{font-size:1.1em;margin-bottom:2px;font-family:monospace}\n"
        ".where{color:#666;margin-top:0}.row{display:flex;gap:24px;flex-wrap:wrap}\n"
        ".scatter{background:#fafafa;border:1px solid #ddd}\n"
        ".configs circle{fill:#9aa;opacity:.45}\n"
        ".pareto{fill:none;stroke:#1f77b4;stroke-width:1.5}\n"
        ".axis{stroke:#444}.tick{font-size:10px;fill:#444}.label{font-size:12px;fill:#222}\n"
        ".side{flex:1;min-width:360px}table{border-collapse:collapse;font-size:.9em}\n"
        "td,th{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left}\n"
        ".swatch{display:inline-block;width:9px;height:9px;border:3px solid;"
        "border-radius:50%;margin-right:6px}\n"
        ".why{background:#f3f6fb;padding:8px;border-left:3px solid #1f77b4}\n"
        ".held{color:#8a5a00}.guesses{color:#8a5a00;font-size:.9em}\n"
        "section.kernel{border-top:1px solid #ccc;padding-top:8px;margin-top:16px}\n"
        "</style>\n</head>\n<body>\n<h1>FlipFlop report &middot; "
     << esc(GPU) << "</h1>\n";
  const json::Array *Kernels = Top ? Top->getArray("kernels") : nullptr;
  OS << "<p>" << (Kernels ? Kernels->size() : 0)
     << " kernel(s). Each dot is a predicted configuration (block shape, "
        "register cap, power limit); the line is the time-energy Pareto "
        "front; circles mark FlipFlop's picks and the cross NVIDIA's "
        "occupancy heuristic.</p>\n";
  if (Kernels) {
    OS << "<ul class=\"toc\">\n";
    for (size_t I = 0; I < Kernels->size(); ++I)
      if (const json::Object *K = (*Kernels)[I].getAsObject())
        OS << "<li><a href=\"#k" << I << "\">"
           << esc(K->getString("display_name").value_or(
                  K->getString("name").value_or("?")))
           << "</a></li>\n";
    OS << "</ul>\n";
    for (size_t I = 0; I < Kernels->size(); ++I)
      if (const json::Object *K = (*Kernels)[I].getAsObject())
        kernelSection(*K, I, OS);
  }
  OS << "</body>\n</html>\n";
}

} // namespace flipflop
