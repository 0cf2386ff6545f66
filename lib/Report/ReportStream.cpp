//===- ReportStream.cpp - The JSON report, a kernel at a time -------------===//
//
// printJSON prints a report's keys sorted, so "kernels" sits between "gpu"
// and "schema_version". The report without kernels, printed once, gives the
// text before and after the array; each kernel is printed by printJSON too,
// through a stream that indents it to its place in the array (no string in
// printJSON's output holds a raw line break: every '\n' is layout).
//
//===----------------------------------------------------------------------===//
#include "flipflop/Report/ReportStream.h"
#include "flipflop/Report/JSONReport.h"
#include "llvm/Support/ErrorHandling.h"
#include <cassert>
#include <cstring>

using namespace llvm;

namespace flipflop {

namespace {
/// The text printJSON prints for "kernels" without elements, at the top
/// level of a report.
constexpr StringLiteral EmptyKernels = "\n  \"kernels\": []";
/// Where an element of "kernels" starts: printValue's indentation of the
/// array's elements.
constexpr unsigned ElementIndent = 4;

/// Passes text on with \p Indent spaces after each line break but the last
/// one (printJSON's final newline), which is dropped.
class IndentingOStream : public raw_ostream {
public:
  IndentingOStream(raw_ostream &OS, unsigned Indent)
      : OS(OS), Indent(Indent) {}
  ~IndentingOStream() override { flush(); }

private:
  void write_impl(const char *Ptr, size_t Size) override {
    Pos += Size;
    while (Size) {
      if (PendingNewLine) {
        OS << '\n';
        OS.indent(Indent);
        PendingNewLine = false;
      }
      const char *NL = static_cast<const char *>(std::memchr(Ptr, '\n', Size));
      size_t Len = NL ? size_t(NL - Ptr) : Size;
      OS.write(Ptr, Len);
      if (!NL)
        return;
      PendingNewLine = true;
      Ptr += Len + 1;
      Size -= Len + 1;
    }
  }
  uint64_t current_pos() const override { return Pos; }

  raw_ostream &OS;
  unsigned Indent;
  uint64_t Pos = 0;
  bool PendingNewLine = false;
};
} // namespace

ReportStreamWriter::ReportStreamWriter(raw_ostream &OS, const GPUSpec &GPU,
                                       StringRef Tool)
    : OS(OS) {
  std::string Whole;
  raw_string_ostream S(Whole);
  printJSON(reportToJSON(GPU, {}, Tool), S);
  size_t At = Whole.find(EmptyKernels.data());
  // Only a change of reportToJSON's or printJSON's layout can lose it; the
  // tests compare a streamed report with one printed whole.
  if (At == std::string::npos)
    report_fatal_error("ReportStreamWriter: no top-level \"kernels\" in the "
                       "report printJSON prints");
  size_t Split = At + EmptyKernels.size() - 1; // At the ']'.
  Head = Whole.substr(0, Split);
  Tail = Whole.substr(Split);
}

void ReportStreamWriter::begin() {
  if (Begun)
    return;
  Begun = true;
  OS << Head;
  Head.clear();
  Head.shrink_to_fit();
}

void ReportStreamWriter::add(const json::Value &Kernel) {
  assert(!Finished && "a kernel added after finish()");
  begin();
  OS << (Count++ ? ",\n" : "\n");
  OS.indent(ElementIndent);
  IndentingOStream Element(OS, ElementIndent);
  printJSON(Kernel, Element);
}

void ReportStreamWriter::finish() {
  assert(!Finished && "finish() called twice");
  begin();
  Finished = true;
  if (Count) {
    OS << '\n';
    OS.indent(ElementIndent - 2);
  }
  OS << Tail;
}

} // namespace flipflop
