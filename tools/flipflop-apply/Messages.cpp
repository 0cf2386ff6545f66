//===- Messages.cpp - How flipflop-apply speaks ---------------------------===//
#include "Messages.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace flipflop {
namespace apply {

std::string shownPath(StringRef Path) {
  SmallString<256> Cwd;
  if (!sys::fs::current_path(Cwd)) {
    SmallString<256> Real;
    if (!sys::fs::real_path(Cwd, Real))
      Cwd = Real;
    StringRef P(Path);
    if (P.consume_front(Cwd) && P.consume_front("/"))
      return P.str();
  }
  return Path.str();
}

std::string siteStr(const SourcePos &P) {
  return (shownPath(P.File) + ":" + Twine(P.Line) + ":" + Twine(P.Col)).str();
}

void message(const SourcePos &P, StringRef Kernel, const Twine &Msg) {
  errs() << ToolName << ": " << shownPath(P.File) << ":" << P.Line << ": "
         << Kernel << ": " << Msg << "\n";
}

void error(const Twine &Msg) {
  errs() << ToolName << ": error: " << Msg << "\n";
}

} // namespace apply
} // namespace flipflop
