//===- WriteFile.cpp - One careful file writer ----------------------------===//
#include "flipflop/Support/WriteFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include <cerrno>
#include <unistd.h>

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
  std::optional<unsigned> Perms;
  if (Exists)
    Perms = unsigned(St.permissions()) & sys::fs::all_perms;
  ReplaceOptions Opts;
  Opts.Shown = Path;
  return replaceFileAtomically(Target, Perms, Write, Opts);
}

Error replaceFileAtomically(StringRef Target, std::optional<unsigned> Perms,
                            function_ref<void(raw_ostream &)> Write,
                            const ReplaceOptions &Opts) {
  StringRef Shown = Opts.Shown.empty() ? Target : Opts.Shown;
  // TempFile: created with O_EXCL and removed on a signal until kept.
  Expected<sys::fs::TempFile> Tmp = sys::fs::TempFile::create(
      Target + Opts.TempSuffix,
      Perms ? *Perms : unsigned(sys::fs::all_read | sys::fs::all_write));
  if (!Tmp)
    return fileError(Shown, errorToErrorCode(Tmp.takeError()),
                     "cannot create a temporary file next to it");
  auto Fail = [&](std::error_code EC, const Twine &What) -> Error {
    consumeError(Tmp->discard());
    return fileError(Shown, EC, What);
  };
  {
    raw_fd_ostream OS(Tmp->FD, /*shouldClose=*/false);
    Write(OS);
    OS.flush();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      return Fail(EC, "cannot write");
    }
  }
  if (Opts.Sync && ::fsync(Tmp->FD) != 0)
    return Fail(std::error_code(errno, std::generic_category()),
                "cannot sync the temporary file");
  // Exactly the bits asked for (undoing the umask), set on the open
  // descriptor, so never broader than those.
  if (Perms)
    if (std::error_code EC = sys::fs::setPermissions(
            Tmp->FD, static_cast<sys::fs::perms>(*Perms)))
      return Fail(EC, "cannot set permissions");
  if (Error E = Tmp->keep(Target))
    return fileError(Shown, errorToErrorCode(std::move(E)), "cannot replace");
  return Error::success();
}

} // namespace flipflop
