//===- Supervisor.h - Put the GPU's settings back however the run ends ----===//
//
// flipflop-measure may change a card's power limit and lock its clocks (root,
// on request). Whatever happens to the measuring process, the card must get
// its settings back. Restoring from a signal handler is not enough: NVML is
// not async-signal-safe, SIGKILL cannot be caught, and a crash can happen
// anywhere. So the tool splits in two before it touches the device:
//
//   supervisor (parent)                  worker (child)
//   -------------------                  --------------
//   maps a shared SettingsRecord         opens CUDA and NVML, measures;
//   forwards SIGINT/TERM/HUP/QUIT ──>    before each change, writes the value
//   waitpid()s                           to restore into the record, then
//   child gone, for any reason:          changes the setting; at the end it
//     restores what the record names     restores and clears the record
//     (NVML, normal context), then
//     exits as the child did (same code, same signal)
//
// The record is written *before* each change, so a crash between the change
// and the bookkeeping still restores; restoring a value that was never
// changed is harmless. Only SIGKILL of the supervisor itself escapes this;
// docs/MEASUREMENT.md gives the commands to restore by hand.
//
// Nothing here knows NVML: the device is a SettingsControl (NVML in the tool,
// a fake in unittests/Measure/SupervisorTest.cpp) and the restore is a
// callback, so the whole protocol is tested without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_MEASURE_SUPERVISOR_H
#define FLIPFLOP_MEASURE_SUPERVISOR_H

#include "Result.h"
#include <atomic>
#include <functional>
#include <string>

namespace flipflop {
namespace measure {

/// What the supervisor must put back. It lives in a MAP_SHARED mapping that
/// both processes see; the worker writes it, the supervisor reads it after
/// the worker has ended.
struct SettingsRecord {
  /// Nonzero: the power limit may have been changed; restore SavedLimitMilliW.
  std::atomic<unsigned> LimitSaved{0};
  std::atomic<unsigned> SavedLimitMilliW{0};
  /// Nonzero: clocks may have been locked; reset them.
  std::atomic<unsigned> ClocksLocked{0};
  /// The device, as NVML finds it (a PCI bus id); NUL-terminated.
  char Device[64] = {0};

  bool needsRestore() const { return LimitSaved.load() || ClocksLocked.load(); }
  void setDevice(const std::string &Id);
};

/// The few device settings the tools change. NVML in the tool, a fake in the
/// unit tests. Implementations may fail; they never throw.
class SettingsControl {
public:
  virtual ~SettingsControl();
  virtual Result<unsigned> powerLimitMilliW() = 0;
  virtual Error setPowerLimitMilliW(unsigned MilliW) = 0;
  virtual Error lockClocksMHz(unsigned MinMHz, unsigned MaxMHz) = 0;
  virtual Error resetLockedClocks() = 0;
};

/// Changes settings through a SettingsControl, recording in \p Rec what to
/// restore *before* each change.
class SettingsChanger {
public:
  SettingsChanger(SettingsControl &C, SettingsRecord &Rec) : Control(C), Rec(Rec) {}
  /// Sets the power limit; the first call records the limit to restore.
  Error setPowerLimitMilliW(unsigned MilliW);
  /// Locks the graphics clock to [MinMHz, MaxMHz]; reset on restore.
  Error lockClocksMHz(unsigned MinMHz, unsigned MaxMHz);
  /// Restores what the record names and clears it (idempotent).
  Error restore();

private:
  SettingsControl &Control;
  SettingsRecord &Rec;
};

/// Puts back what \p Rec names through \p C; clears each part that was
/// restored. Restoring a setting that was never changed is harmless.
Error restoreSettings(SettingsControl &C, SettingsRecord &Rec);

/// How the worker ended, and what the supervisor did about it.
struct SupervisedRun {
  int WaitStatus = 0;    ///< As waitpid() reports it.
  bool RestoreCalled = false;
  Error RestoreError;    ///< From the restore callback.
  /// The record as the restore left it (what is still to restore when it
  /// failed), for the message that tells how to restore by hand.
  std::string Device;
  bool LimitSaved = false, ClocksLocked = false;
  unsigned SavedLimitMilliW = 0;
};

/// Runs \p Worker in a forked child with a fresh shared SettingsRecord. The
/// child ends with _exit(Worker(Rec)) after flushing stdio (a Worker may also
/// end the process itself: exit(), a signal, a crash). The parent forwards
/// SIGINT, SIGTERM, SIGHUP and SIGQUIT to the child, waits for it, and when
/// the record names something to restore calls \p Restore once, in normal
/// context, before returning. Fails only when the fork or mapping fails.
Result<SupervisedRun>
runSupervised(const std::function<int(SettingsRecord &)> &Worker,
              const std::function<Error(SettingsRecord &)> &Restore);

/// Ends this process the way \p WaitStatus says the child ended: exit(code),
/// or the same signal with its default action (no core file for this
/// process). Does not return.
[[noreturn]] void exitLikeChild(int WaitStatus);

/// "exit code 3", "signal 11 (Segmentation fault)".
std::string describeWaitStatus(int WaitStatus);

} // namespace measure
} // namespace flipflop

#endif
