//===- SupervisorTest.cpp - flipflop-measure restores the GPU's settings --===//
//
// The supervisor (tools/flipflop-measure/core/Supervisor.h) with a fake
// device: the worker changes the fake's power limit and clocks and then ends
// in every way a measurement can (crash, abort, SIGKILL, a forwarded
// SIGTERM, a normal exit); the supervisor must restore the recorded values
// exactly once, outside any signal handler, and report the worker's status.
//
//===----------------------------------------------------------------------===//
#include "Supervisor.h"
#include "gtest/gtest.h"
#include <csignal>
#include <cstdlib>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace flipflop::measure;

namespace {

constexpr unsigned OriginalLimit = 250000; // mW
constexpr const char *Bus = "00000000:17:00.0";

/// A card: a power limit and a clock lock. \p CrashInSet makes the set
/// itself die with that signal after "changing" the limit, before it
/// returns: the window where recording after the set loses the restore.
class FakeCard : public SettingsControl {
public:
  unsigned LimitMilliW = OriginalLimit;
  bool Locked = false;
  int CrashInSet = 0;
  unsigned Sets = 0, Resets = 0;

  Result<unsigned> powerLimitMilliW() override { return LimitMilliW; }
  Error setPowerLimitMilliW(unsigned MilliW) override {
    LimitMilliW = MilliW;
    ++Sets;
    if (CrashInSet)
      raise(CrashInSet);
    return Error::success();
  }
  Error lockClocksMHz(unsigned, unsigned) override {
    Locked = true;
    return Error::success();
  }
  Error resetLockedClocks() override {
    Locked = false;
    ++Resets;
    return Error::success();
  }
};

/// What the supervisor's restore saw and did (in the parent).
struct Restores {
  unsigned Calls = 0;
  unsigned SavedLimit = 0;
  bool LimitSaved = false, ClocksLocked = false;
  std::string Device;
  FakeCard Card; ///< The parent's view of the card, restored through it.

  std::function<Error(SettingsRecord &)> callback() {
    return [this](SettingsRecord &Rec) {
      ++Calls;
      SavedLimit = Rec.SavedLimitMilliW.load();
      LimitSaved = Rec.LimitSaved.load();
      ClocksLocked = Rec.ClocksLocked.load();
      Device = Rec.Device;
      Card.LimitMilliW = 123000; // Whatever the worker left.
      Card.Locked = true;
      return restoreSettings(Card, Rec);
    };
  }
};

void noCoreFiles() {
  struct rlimit Zero = {0, 0};
  setrlimit(RLIMIT_CORE, &Zero);
}

/// A worker that lowers the limit, locks the clock, then ends with \p End.
std::function<int(SettingsRecord &)> changeThen(std::function<int()> End) {
  return [End](SettingsRecord &Rec) {
    noCoreFiles();
    FakeCard Card;
    SettingsChanger Changer(Card, Rec);
    Rec.setDevice(Bus);
    if (Changer.setPowerLimitMilliW(200000) || Changer.lockClocksMHz(1500, 1500))
      return 90;
    return End();
  };
}

SupervisedRun run(const std::function<int(SettingsRecord &)> &Worker, Restores &R) {
  Result<SupervisedRun> Run = runSupervised(Worker, R.callback());
  EXPECT_TRUE(bool(Run)) << Run.error().message();
  return Run ? std::move(*Run) : SupervisedRun();
}

void expectRestoredOnce(const Restores &R) {
  EXPECT_EQ(R.Calls, 1u);
  EXPECT_TRUE(R.LimitSaved);
  EXPECT_EQ(R.SavedLimit, OriginalLimit);
  EXPECT_TRUE(R.ClocksLocked);
  EXPECT_EQ(R.Device, Bus);
  EXPECT_EQ(R.Card.LimitMilliW, OriginalLimit) << "the card got the recorded limit back";
  EXPECT_FALSE(R.Card.Locked) << "the locked clocks were reset";
  EXPECT_EQ(R.Card.Resets, 1u);
}

void expectSignal(const SupervisedRun &Run, int Sig) {
  ASSERT_TRUE(WIFSIGNALED(Run.WaitStatus)) << describeWaitStatus(Run.WaitStatus);
  EXPECT_EQ(WTERMSIG(Run.WaitStatus), Sig) << describeWaitStatus(Run.WaitStatus);
}

TEST(SupervisorTest, RestoresAfterSegfault) {
  Restores R;
  SupervisedRun Run = run(changeThen([] { raise(SIGSEGV); return 0; }), R);
  expectSignal(Run, SIGSEGV);
  expectRestoredOnce(R);
  EXPECT_TRUE(Run.RestoreCalled);
  EXPECT_FALSE(Run.RestoreError);
  EXPECT_FALSE(Run.LimitSaved) << "the record is cleared once restored";
}

TEST(SupervisorTest, RestoresAfterAbort) {
  Restores R;
  SupervisedRun Run = run(changeThen([]() -> int { std::abort(); }), R);
  expectSignal(Run, SIGABRT);
  expectRestoredOnce(R);
}

TEST(SupervisorTest, RestoresAfterOtherFatalSignals) {
  for (int Sig : {SIGBUS, SIGFPE, SIGILL, SIGPIPE, SIGQUIT, SIGHUP, SIGINT}) {
    Restores R;
    SupervisedRun Run = run(changeThen([Sig] { raise(Sig); return 0; }), R);
    expectSignal(Run, Sig);
    expectRestoredOnce(R);
  }
}

TEST(SupervisorTest, RestoresAfterSigkill) {
  Restores R;
  SupervisedRun Run = run(changeThen([] { kill(getpid(), SIGKILL); return 0; }), R);
  expectSignal(Run, SIGKILL);
  expectRestoredOnce(R);
}

TEST(SupervisorTest, RestoresAfterExitWithoutRestoring) {
  Restores R;
  // die() in the tool: exit() in the middle of the sweep.
  SupervisedRun Run = run(changeThen([]() -> int { std::exit(3); }), R);
  ASSERT_TRUE(WIFEXITED(Run.WaitStatus));
  EXPECT_EQ(WEXITSTATUS(Run.WaitStatus), 3);
  expectRestoredOnce(R);
}

TEST(SupervisorTest, RestoresWhenTheSetItselfCrashes) {
  // The worker dies inside the set, after the card changed and before the
  // set returns: the value must already be in the record.
  Restores R;
  SupervisedRun Run = run(
      [](SettingsRecord &Rec) {
        noCoreFiles();
        FakeCard Card;
        Card.CrashInSet = SIGSEGV;
        SettingsChanger Changer(Card, Rec);
        Rec.setDevice(Bus);
        return Changer.setPowerLimitMilliW(200000) ? 90 : 0;
      },
      R);
  expectSignal(Run, SIGSEGV);
  EXPECT_EQ(R.Calls, 1u);
  EXPECT_TRUE(R.LimitSaved);
  EXPECT_EQ(R.SavedLimit, OriginalLimit);
  EXPECT_FALSE(R.ClocksLocked);
  EXPECT_EQ(R.Card.LimitMilliW, OriginalLimit);
  EXPECT_EQ(R.Card.Resets, 0u) << "clocks were never locked";
}

TEST(SupervisorTest, KeepsTheFirstLimit) {
  Restores R;
  SupervisedRun Run = run(
      [](SettingsRecord &Rec) {
        noCoreFiles();
        FakeCard Card;
        SettingsChanger Changer(Card, Rec);
        if (Changer.setPowerLimitMilliW(200000) || Changer.setPowerLimitMilliW(150000))
          return 90;
        raise(SIGSEGV);
        return 0;
      },
      R);
  expectSignal(Run, SIGSEGV);
  EXPECT_EQ(R.Calls, 1u);
  EXPECT_EQ(R.SavedLimit, OriginalLimit) << "not the 200 W of the first set";
}

TEST(SupervisorTest, ForwardsSigtermToTheWorker) {
  // The supervisor gets SIGTERM; the worker must get it too (and die of it),
  // the supervisor must survive to restore.
  Restores R;
  SupervisedRun Run = run(changeThen([] {
                            alarm(20); // A broken forward fails, not hangs.
                            kill(getppid(), SIGTERM);
                            for (;;)
                              pause();
                            return 0;
                          }),
                          R);
  expectSignal(Run, SIGTERM);
  expectRestoredOnce(R);
}

TEST(SupervisorTest, NothingToRestoreAfterTheWorkerRestored) {
  Restores R;
  SupervisedRun Run = run(
      [](SettingsRecord &Rec) {
        FakeCard Card;
        SettingsChanger Changer(Card, Rec);
        if (Changer.setPowerLimitMilliW(200000) || Changer.lockClocksMHz(1500, 1500))
          return 90;
        if (Changer.restore() || Card.LimitMilliW != OriginalLimit || Card.Locked)
          return 91;
        return 0;
      },
      R);
  ASSERT_TRUE(WIFEXITED(Run.WaitStatus)) << describeWaitStatus(Run.WaitStatus);
  EXPECT_EQ(WEXITSTATUS(Run.WaitStatus), 0);
  EXPECT_EQ(R.Calls, 0u);
  EXPECT_FALSE(Run.RestoreCalled);
}

TEST(SupervisorTest, NothingChangedNothingRestored) {
  Restores R;
  SupervisedRun Run = run([](SettingsRecord &) { return 7; }, R);
  ASSERT_TRUE(WIFEXITED(Run.WaitStatus));
  EXPECT_EQ(WEXITSTATUS(Run.WaitStatus), 7);
  EXPECT_EQ(R.Calls, 0u);
}

TEST(SupervisorTest, RestoreFailureIsReported) {
  SupervisedRun Run = *runSupervised(changeThen([] { raise(SIGSEGV); return 0; }),
                                     [](SettingsRecord &) { return makeError("no NVML"); });
  EXPECT_TRUE(Run.RestoreCalled);
  ASSERT_TRUE(bool(Run.RestoreError));
  EXPECT_EQ(Run.RestoreError.message(), "no NVML");
  EXPECT_TRUE(Run.LimitSaved) << "still to restore, for the by-hand message";
  EXPECT_EQ(Run.SavedLimitMilliW, OriginalLimit);
  EXPECT_TRUE(Run.ClocksLocked);
}

// The supervisor process ends as the worker did: same signal, same code.
void superviseAndExit(const std::function<int()> &End) {
  Restores R;
  Result<SupervisedRun> Run = runSupervised(changeThen(End), R.callback());
  if (!Run || R.Calls != 1 || R.Card.LimitMilliW != OriginalLimit)
    _exit(99);
  noCoreFiles();
  exitLikeChild(Run->WaitStatus);
}

TEST(SupervisorDeathTest, ExitsWithTheWorkersSignal) {
  EXPECT_EXIT(superviseAndExit([] { raise(SIGSEGV); return 0; }),
              testing::KilledBySignal(SIGSEGV), "");
  EXPECT_EXIT(superviseAndExit([]() -> int { std::abort(); }),
              testing::KilledBySignal(SIGABRT), "");
  EXPECT_EXIT(superviseAndExit([] { kill(getpid(), SIGKILL); return 0; }),
              testing::KilledBySignal(SIGKILL), "");
}

TEST(SupervisorDeathTest, ExitsWithTheWorkersCode) {
  EXPECT_EXIT(superviseAndExit([] { return 77; }), testing::ExitedWithCode(77), "");
  EXPECT_EXIT(superviseAndExit([]() -> int { std::exit(1); }), testing::ExitedWithCode(1), "");
}

TEST(SupervisorTest, DescribesStatus) {
  EXPECT_EQ(describeWaitStatus(3 << 8), "exit code 3");
  EXPECT_EQ(describeWaitStatus(SIGSEGV).substr(0, 9), "signal 11");
}

} // namespace
