//===- Supervisor.cpp - Put the GPU's settings back however the run ends --===//
#include "Supervisor.h"
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace flipflop {
namespace measure {

void SettingsRecord::setDevice(const std::string &Id) {
  size_t N = std::min(Id.size(), sizeof(Device) - 1);
  std::memcpy(Device, Id.data(), N);
  Device[N] = 0;
}

SettingsControl::~SettingsControl() = default;

Error SettingsChanger::setPowerLimitMilliW(unsigned MilliW) {
  if (!Rec.LimitSaved.load()) {
    Result<unsigned> Cur = Control.powerLimitMilliW();
    if (!Cur)
      return Cur.takeError();
    // Record first: a crash inside or right after the set still restores.
    Rec.SavedLimitMilliW.store(*Cur);
    Rec.LimitSaved.store(1);
  }
  return Control.setPowerLimitMilliW(MilliW);
}

Error SettingsChanger::lockClocksMHz(unsigned MinMHz, unsigned MaxMHz) {
  Rec.ClocksLocked.store(1); // Record first, as above.
  return Control.lockClocksMHz(MinMHz, MaxMHz);
}

Error SettingsChanger::restore() { return restoreSettings(Control, Rec); }

Error restoreSettings(SettingsControl &C, SettingsRecord &Rec) {
  Error Worst;
  if (Rec.LimitSaved.load()) {
    Error E = C.setPowerLimitMilliW(Rec.SavedLimitMilliW.load());
    if (E)
      Worst = E.prefix("restoring the power limit: ");
    else
      Rec.LimitSaved.store(0);
  }
  if (Rec.ClocksLocked.load()) {
    Error E = C.resetLockedClocks();
    if (E)
      Worst = E.prefix("resetting the locked clocks: ");
    else
      Rec.ClocksLocked.store(0);
  }
  return Worst;
}

namespace {

const int Forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

// The child the supervisor forwards signals to; 0 once it has been reaped
// (so a late signal never reaches a recycled pid).
volatile std::sig_atomic_t ChildPid = 0;

extern "C" void flipflopForwardSignal(int Sig) {
  pid_t P = pid_t(ChildPid);
  if (P > 0)
    kill(P, Sig); // Async-signal-safe; the child decides what it means.
}

struct SharedRecord {
  SettingsRecord *Rec = nullptr;
  ~SharedRecord() {
    if (Rec) {
      Rec->~SettingsRecord();
      munmap(Rec, sizeof(SettingsRecord));
    }
  }
};

} // namespace

Result<SupervisedRun>
runSupervised(const std::function<int(SettingsRecord &)> &Worker,
              const std::function<Error(SettingsRecord &)> &Restore) {
  SharedRecord Shared;
  void *Mem = mmap(nullptr, sizeof(SettingsRecord), PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (Mem == MAP_FAILED)
    return makeError(std::string("mmap: ") + std::strerror(errno));
  Shared.Rec = new (Mem) SettingsRecord();
  SettingsRecord &Rec = *Shared.Rec;

  // Block the forwarded signals across the fork: the parent installs its
  // forwarding handlers and the child its defaults before either sees one.
  sigset_t Block, Old;
  sigemptyset(&Block);
  for (int S : Forwarded)
    sigaddset(&Block, S);
  sigprocmask(SIG_BLOCK, &Block, &Old);
  std::fflush(nullptr); // Or buffered output would be written twice.
  pid_t Pid = fork();
  if (Pid < 0) {
    int Errno = errno;
    sigprocmask(SIG_SETMASK, &Old, nullptr);
    return makeError(std::string("fork: ") + std::strerror(Errno));
  }
  if (Pid == 0) {
    for (int S : Forwarded)
      std::signal(S, SIG_DFL);
    sigprocmask(SIG_SETMASK, &Old, nullptr);
    int Code = Worker(Rec);
    std::fflush(nullptr);
    _exit(Code);
  }

  struct sigaction SA, Saved[sizeof(Forwarded) / sizeof(int)];
  std::memset(&SA, 0, sizeof(SA));
  SA.sa_handler = flipflopForwardSignal;
  sigemptyset(&SA.sa_mask);
  ChildPid = Pid;
  for (size_t I = 0; I < sizeof(Forwarded) / sizeof(int); ++I)
    sigaction(Forwarded[I], &SA, &Saved[I]);
  sigprocmask(SIG_SETMASK, &Old, nullptr);

  SupervisedRun Run;
  while (waitpid(Pid, &Run.WaitStatus, 0) < 0) {
    if (errno != EINTR) {
      // Cannot happen for our own child; restore anyway, report exit 1.
      Run.WaitStatus = 1 << 8;
      break;
    }
  }
  ChildPid = 0;
  // Signals that arrive from here on are forwarded to nobody: the restore
  // below runs to its end, then the caller exits as the child did.
  if (Rec.needsRestore()) {
    Run.RestoreCalled = true;
    Run.RestoreError = Restore(Rec);
  }
  Run.Device = Rec.Device;
  Run.LimitSaved = Rec.LimitSaved.load();
  Run.ClocksLocked = Rec.ClocksLocked.load();
  Run.SavedLimitMilliW = Rec.SavedLimitMilliW.load();
  for (size_t I = 0; I < sizeof(Forwarded) / sizeof(int); ++I)
    sigaction(Forwarded[I], &Saved[I], nullptr);
  return Run;
}

void exitLikeChild(int WaitStatus) {
  std::fflush(nullptr);
  if (WIFSIGNALED(WaitStatus)) {
    int Sig = WTERMSIG(WaitStatus);
    struct rlimit NoCore = {0, 0};
    setrlimit(RLIMIT_CORE, &NoCore); // The child's core file is the one.
    std::signal(Sig, SIG_DFL);
    sigset_t One;
    sigemptyset(&One);
    sigaddset(&One, Sig);
    sigprocmask(SIG_UNBLOCK, &One, nullptr);
    raise(Sig);
    _exit(128 + Sig); // A signal whose default action is not to terminate.
  }
  std::exit(WIFEXITED(WaitStatus) ? WEXITSTATUS(WaitStatus) : 1);
}

std::string describeWaitStatus(int WaitStatus) {
  if (WIFEXITED(WaitStatus))
    return "exit code " + std::to_string(WEXITSTATUS(WaitStatus));
  if (WIFSIGNALED(WaitStatus)) {
    int Sig = WTERMSIG(WaitStatus);
    const char *Name = strsignal(Sig);
    return "signal " + std::to_string(Sig) + (Name ? std::string(" (") + Name + ")" : "");
  }
  return "status " + std::to_string(WaitStatus);
}

} // namespace measure
} // namespace flipflop
