//===- flipflop/Report/HTMLReport.h - Self-contained HTML page ------------===//
#ifndef FLIPFLOP_REPORT_HTMLREPORT_H
#define FLIPFLOP_REPORT_HTMLREPORT_H

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace flipflop {

/// Writes one self-contained HTML page (inline CSS and SVG, no scripts, no
/// external resources) for a report in the schema of docs/REPORT-SCHEMA.md.
/// Deterministic: the same report gives the same bytes.
void writeHTMLReport(const llvm::json::Value &Report, llvm::raw_ostream &OS);

} // namespace flipflop

#endif
