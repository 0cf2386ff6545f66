//===- flipflop/Report/HTMLReport.h - Self-contained HTML page ------------===//
#ifndef FLIPFLOP_REPORT_HTMLREPORT_H
#define FLIPFLOP_REPORT_HTMLREPORT_H

#include "flipflop/Report/AppAdvice.h"
#include "flipflop/Report/JSONReport.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace flipflop {

/// Writes one self-contained HTML page (inline CSS and SVG, no scripts, no
/// external resources) for a report (docs/REPORT-SCHEMA.md, read by
/// parseReport). Deterministic: the same report gives the same bytes.
/// The page starts with the application-level advice (AppAdvice.h), with
/// launch counts from \p Advice (default: one launch per kernel, said so).
void writeHTMLReport(const Report &R, llvm::raw_ostream &OS,
                     const AppAdviceOptions &Advice = AppAdviceOptions());
/// The same for a report as JSON (reportToJSON): read with reportFromJSON; a
/// value that is not a report gives a page that says why.
void writeHTMLReport(const llvm::json::Value &Report, llvm::raw_ostream &OS);

} // namespace flipflop

#endif
