//===- Files.cpp - Which files flipflop-apply may edit, and how -----------===//
#include "Files.h"
#include "Messages.h"

#include "flipflop/Support/WriteFile.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace flipflop {
namespace apply {

namespace {

/// The top of the checkout holding \p Dir (a folder with .git, .hg or
/// .svn), or "" when there is none.
std::string checkoutTop(StringRef Dir) {
  SmallString<256> D(Dir);
  while (!D.empty()) {
    for (const char *VCS : {".git", ".hg", ".svn"}) {
      SmallString<256> P(D);
      sys::path::append(P, VCS);
      if (sys::fs::exists(P))
        return std::string(D);
    }
    StringRef Parent = sys::path::parent_path(D);
    if (Parent == D)
      break;
    D = Parent;
  }
  return "";
}

/// Whether \p File is \p Dir or under it (both real paths).
bool isUnder(StringRef File, StringRef Dir) {
  if (Dir == "/")
    return true;
  return File.starts_with(Dir) &&
         (File.size() == Dir.size() || File[Dir.size()] == '/');
}

} // namespace

Expected<FilePolicy> FilePolicy::create(ArrayRef<std::string> Sources,
                                        StringRef ProjectRoot,
                                        std::optional<std::string> HeaderFilter,
                                        bool InPlace) {
  FilePolicy P;
  P.InPlace = InPlace;
  for (const std::string &Src : Sources) {
    SmallString<256> Real;
    if (!sys::fs::real_path(Src, Real))
      P.MainFiles.insert(std::string(Real));
  }
  SmallString<256> Dir;
  if (!ProjectRoot.empty()) {
    if (std::error_code EC = sys::fs::real_path(ProjectRoot, Dir))
      return createStringError(EC, "--project-root %s: %s",
                               ProjectRoot.str().c_str(),
                               EC.message().c_str());
    P.Root = std::string(Dir);
  } else if (!sys::fs::current_path(Dir)) {
    SmallString<256> Real;
    if (!sys::fs::real_path(Dir, Real))
      Dir = Real;
    P.Root = checkoutTop(Dir);
    if (P.Root.empty())
      P.Root = std::string(Dir);
  }
  if (HeaderFilter) {
    P.FilterText = *HeaderFilter;
    P.Filter.emplace(P.FilterText);
    std::string Why;
    if (!P.Filter->isValid(Why))
      return createStringError(inconvertibleErrorCode(),
                               "--header-filter '%s': %s",
                               P.FilterText.c_str(), Why.c_str());
  }
  return P;
}

std::optional<FileBlock> FilePolicy::check(StringRef File) const {
  bool Allowed = MainFiles.count(File.str()) ||
                 (Filter ? Filter->match(File) : isUnder(File, Root));
  if (!Allowed)
    return FileBlock{false,
                     Filter ? "does not match --header-filter '" + FilterText +
                                  "'"
                            : "outside the project root " + Root +
                                  " (see --project-root, --header-filter)"};
  if (InPlace)
    if (std::string Why = readOnlyProblem(File); !Why.empty())
      return FileBlock{true, Why};
  return std::nullopt;
}

std::string readOnlyProblem(StringRef Path) {
  sys::fs::file_status St;
  if (std::error_code EC = sys::fs::status(Path, St))
    return EC.message();
  if (St.type() != sys::fs::file_type::regular_file)
    return "not a regular file";
  unsigned Perms = unsigned(St.permissions()) & sys::fs::all_perms;
  SmallString<8> Mode;
  raw_svector_ostream(Mode) << format("%04o", Perms);
  if (!(Perms & sys::fs::owner_write))
    return ("read-only (mode " + Mode + ")").str();
  if (!sys::fs::can_write(Path))
    return ("not writable by this user (mode " + Mode + ")").str();
  return "";
}

Error writeInPlace(StringRef Path, StringRef Parsed, StringRef NewText) {
  std::string Shown = shownPath(Path);
  auto Err = [&](const Twine &What, std::error_code EC = {}) -> Error {
    std::string Msg = (Shown + ": " + What).str();
    if (EC)
      Msg += ": " + EC.message();
    return createStringError(EC ? EC : inconvertibleErrorCode(), Msg);
  };
  SmallString<256> Real;
  if (std::error_code EC = sys::fs::real_path(Path, Real))
    return Err("cannot resolve", EC);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Now = MemoryBuffer::getFile(Real);
  if (!Now)
    return Err("cannot read", Now.getError());
  if ((*Now)->getBuffer() != Parsed)
    return Err("changed on disk since it was parsed; not written");
  // Checked again here: the file may have changed since planning.
  if (std::string Why = readOnlyProblem(Real); !Why.empty())
    return Err(Why + "; not written");
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(Real, Status))
    return Err("cannot stat", EC);
  // Created with the original's permissions from the start (a 0600 source
  // is never copied into a readable file), removed on a signal, synced,
  // renamed over the real file once complete.
  ReplaceOptions Opts;
  Opts.TempSuffix = ".flipflop-apply-%%%%%%";
  Opts.Shown = Shown;
  Opts.Sync = true;
  return replaceFileAtomically(
      Real, unsigned(Status.permissions()) & sys::fs::all_perms,
      [&](raw_ostream &OS) { OS << NewText; }, Opts);
}

} // namespace apply
} // namespace flipflop
