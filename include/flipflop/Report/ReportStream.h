//===- flipflop/Report/ReportStream.h - The report, streamed ----*- C++ -*-===//
//
// Writes the JSON report of reportToJSON one kernel at a time, so that a tool
// analysing many kernels holds one kernel's JSON instead of all of them. The
// bytes are those printJSON prints for reportToJSON(GPU, Kernels, Tool).
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_REPORT_REPORTSTREAM_H
#define FLIPFLOP_REPORT_REPORTSTREAM_H

#include "flipflop/Target/GPUSpec.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <cstddef>
#include <string>

namespace flipflop {

/// Prints a report to a stream as its kernels come: what precedes the first
/// kernel on the first add() (or on finish()), each kernel as it is added,
/// the rest on finish(). Nothing is printed before the first call, so a
/// tool may still fail without leaving a partial report.
class ReportStreamWriter {
public:
  ReportStreamWriter(llvm::raw_ostream &OS, const GPUSpec &GPU,
                     llvm::StringRef Tool);
  ReportStreamWriter(const ReportStreamWriter &) = delete;
  ReportStreamWriter &operator=(const ReportStreamWriter &) = delete;

  /// Prints one element of "kernels" (kernelToJSON's value).
  void add(const llvm::json::Value &Kernel);
  /// Prints the end of the report; nothing may be added after it.
  void finish();
  /// How many kernels were added.
  size_t size() const { return Count; }

private:
  void begin();

  llvm::raw_ostream &OS;
  std::string Head; ///< Up to and including the '[' of "kernels".
  std::string Tail; ///< From the ']' of "kernels" to the final newline.
  size_t Count = 0;
  bool Begun = false, Finished = false;
};

} // namespace flipflop

#endif
