//===- WriteFile.cpp - One careful file writer ----------------------------===//
#include "flipflop/Support/WriteFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

using namespace llvm;

namespace flipflop {

static Error fileError(StringRef Path, std::error_code EC, const Twine &What) {
  return createStringError(EC, "%s: %s: %s", Path.str().c_str(),
                           What.str().c_str(), EC.message().c_str());
}

/// Writes \p Write's output to \p OS and closes it.
static Error finish(raw_fd_ostream &OS, StringRef Path,
                    function_ref<void(raw_ostream &)> Write) {
  Write(OS);
  OS.close();
  if (OS.has_error()) {
    std::error_code EC = OS.error();
    OS.clear_error();
    return fileError(Path, EC, "cannot write");
  }
  return Error::success();
}

Error writeFileSafely(StringRef Path, function_ref<void(raw_ostream &)> Write) {
  if (Path == "-") {
    Write(outs());
    outs().flush();
    return Error::success();
  }
  sys::fs::file_status St;
  bool Exists = !sys::fs::status(Path, St, /*Follow=*/true);
  if (Exists && St.type() == sys::fs::file_type::directory_file)
    return fileError(Path, std::make_error_code(std::errc::is_a_directory),
                     "cannot write");
  if (Exists && St.type() != sys::fs::file_type::regular_file) {
    // A device or a FIFO: write into it, never replace it.
    std::error_code EC;
    raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
    if (EC)
      return fileError(Path, EC, "cannot open");
    return finish(OS, Path, Write);
  }
  // Replace the file a symbolic link points to, not the link.
  SmallString<256> Target(Path);
  sys::fs::file_status LinkSt;
  if (!sys::fs::status(Path, LinkSt, /*Follow=*/false) &&
      LinkSt.type() == sys::fs::file_type::symlink_file && Exists)
    if (std::error_code EC = sys::fs::real_path(Path, Target))
      return fileError(Path, EC, "cannot resolve the link");
  unsigned Mode = Exists ? unsigned(St.permissions())
                         : unsigned(sys::fs::all_read | sys::fs::all_write);
  SmallString<256> Model(Target), Tmp;
  Model += ".tmp-%%%%%%%%";
  int FD = -1;
  if (std::error_code EC = sys::fs::createUniqueFile(
          Model, FD, Tmp, sys::fs::OF_None, Mode))
    return fileError(Path, EC, "cannot create a temporary file next to it");
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    if (Error E = finish(OS, Path, Write)) {
      sys::fs::remove(Tmp);
      return E;
    }
  }
  if (std::error_code EC = sys::fs::rename(Tmp, Target)) {
    sys::fs::remove(Tmp);
    return fileError(Path, EC, "cannot replace");
  }
  return Error::success();
}

} // namespace flipflop
