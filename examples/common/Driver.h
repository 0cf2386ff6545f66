//===- Driver.h - Shared host driver for the FlipFlop CUDA examples -------===//
//
// Every example binary uses this header for the same command line, the same
// deterministic set-up, the same timing method and the same one-line JSON
// result, so that on a GPU each binary is a measurement subject:
//
//   <example> [--block N | --block XxY] [--size N] [--repeat R] [--grid G]
//             [--check] [--<extra> N ...] [--help]
//
//   {"example":"gemm","kernel":"gemmNaive","block":[16,16,1],"grid":[64,64,1],
//    "size":1024,"repeat":5,"time_ms":0.123,"check":"pass"}
//
// "check" is "pass" or "fail" with --check and "none" without it. Exit codes:
// 0 run (and check, if asked) succeeded, 1 check failed or CUDA error,
// 2 bad command line, 77 no usable CUDA device (ctest reports it as SKIPPED).
//
// Timing: one untimed warm-up launch, then --repeat launches each bracketed
// by a pair of cudaEvents; the median of the per-launch times is reported.
//
//===----------------------------------------------------------------------===//

#ifndef FLIPFLOP_EXAMPLES_COMMON_DRIVER_H
#define FLIPFLOP_EXAMPLES_COMMON_DRIVER_H

#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

namespace flipflop {
namespace examples {

/// Exit code that ctest maps to SKIPPED (SKIP_RETURN_CODE 77).
constexpr int ExitSkip = 77;
constexpr int ExitUsage = 2;

/// Abort with a one-line message naming the failing CUDA call.
#define FFX_CUDA(Call)                                                         \
  do {                                                                         \
    cudaError_t FfxErr = (Call);                                               \
    if (FfxErr != cudaSuccess) {                                               \
      std::fprintf(stderr, "error: %s:%d: %s: %s\n", __FILE__, __LINE__,       \
                   #Call, cudaGetErrorString(FfxErr));                         \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

/// An example-specific integer option, given as `--Name Value`.
struct ExtraOption {
  const char *Name;
  long Default;
  const char *Help;
};

struct Options {
  std::string Example;
  dim3 Block;
  bool BlockGiven = false;
  long Size = 0;
  int Repeat = 5;
  long Grid = 0; ///< 0: the example chooses (grid-stride kernels only).
  bool Check = false;
  std::vector<ExtraOption> Extras;
  std::vector<long> ExtraValues;

  long extra(const char *Name) const {
    for (size_t I = 0; I < Extras.size(); ++I)
      if (std::strcmp(Extras[I].Name, Name) == 0)
        return ExtraValues[I];
    std::fprintf(stderr, "internal error: unknown option --%s\n", Name);
    std::exit(1);
  }
  unsigned blockThreads() const { return Block.x * Block.y * Block.z; }
};

[[noreturn]] inline void usageError(const Options &O, const std::string &Msg) {
  std::fprintf(stderr, "%s: error: %s (try --help)\n", O.Example.c_str(),
               Msg.c_str());
  std::exit(ExitUsage);
}

inline bool parseLong(const char *Text, long &Out) {
  if (!Text || !*Text)
    return false;
  char *End = nullptr;
  errno = 0;
  long V = std::strtol(Text, &End, 10);
  if (errno != 0 || *End != '\0')
    return false;
  Out = V;
  return true;
}

/// Parses "N" or "XxY" (or "XxYxZ") into a block shape.
inline bool parseBlock(const char *Text, dim3 &Out) {
  long Dims[3] = {1, 1, 1};
  std::string S(Text ? Text : "");
  size_t Start = 0;
  for (int D = 0; D < 3; ++D) {
    size_t X = S.find('x', Start);
    std::string Part = S.substr(Start, X == std::string::npos ? X : X - Start);
    if (!parseLong(Part.c_str(), Dims[D]) || Dims[D] <= 0 || Dims[D] > 1024)
      return false;
    if (X == std::string::npos) {
      Out = dim3(Dims[0], Dims[1], Dims[2]);
      return Dims[0] * Dims[1] * Dims[2] <= 1024;
    }
    Start = X + 1;
  }
  return false;
}

/// Parses the common options and the example's extra ones. Exits with code 2
/// and a one-line message on a bad command line, and 0 after --help.
inline Options parseOptions(int Argc, char **Argv, const char *Example,
                            const char *Summary, dim3 DefaultBlock,
                            long DefaultSize, const char *SizeHelp,
                            std::initializer_list<ExtraOption> Extras = {}) {
  Options O;
  O.Example = Example;
  O.Block = DefaultBlock;
  O.Size = DefaultSize;
  O.Extras.assign(Extras.begin(), Extras.end());
  for (const ExtraOption &E : O.Extras)
    O.ExtraValues.push_back(E.Default);

  for (int I = 1; I < Argc; ++I) {
    std::string Arg = Argv[I];
    std::string Value;
    bool HasInline = false;
    if (size_t Eq = Arg.find('='); Arg.rfind("--", 0) == 0 &&
                                   Eq != std::string::npos) {
      Value = Arg.substr(Eq + 1);
      Arg = Arg.substr(0, Eq);
      HasInline = true;
    }
    auto NextValue = [&]() -> std::string {
      if (HasInline)
        return Value;
      if (I + 1 >= Argc)
        usageError(O, "option " + Arg + " needs a value");
      return Argv[++I];
    };
    auto NextLong = [&](long Min) -> long {
      std::string V = NextValue();
      long L;
      if (!parseLong(V.c_str(), L) || L < Min)
        usageError(O, "bad value '" + V + "' for " + Arg + " (integer >= " +
                          std::to_string(Min) + " expected)");
      return L;
    };
    if (Arg == "--help" || Arg == "-h") {
      std::printf("%s: %s\n\nusage: %s [options]\n"
                  "  --block N|XxY   thread-block shape (default %ux%u)\n"
                  "  --size N        %s (default %ld)\n"
                  "  --repeat R      timed launches; the median is printed "
                  "(default 5)\n"
                  "  --grid G        blocks for grid-stride kernels (default: "
                  "fill the GPU)\n"
                  "  --check         compare with the CPU reference\n",
                  Example, Summary, Example, DefaultBlock.x, DefaultBlock.y,
                  SizeHelp, DefaultSize);
      for (const ExtraOption &E : O.Extras)
        std::printf("  --%-13s %s (default %ld)\n", E.Name, E.Help, E.Default);
      std::exit(0);
    } else if (Arg == "--check") {
      O.Check = true;
    } else if (Arg == "--block") {
      std::string V = NextValue();
      if (!parseBlock(V.c_str(), O.Block))
        usageError(O, "bad block shape '" + V +
                          "' (N or XxY, at most 1024 threads)");
      O.BlockGiven = true;
    } else if (Arg == "--size") {
      O.Size = NextLong(1);
    } else if (Arg == "--repeat") {
      O.Repeat = static_cast<int>(NextLong(1));
    } else if (Arg == "--grid") {
      O.Grid = NextLong(1);
    } else {
      bool Found = false;
      for (size_t E = 0; E < O.Extras.size() && !Found; ++E)
        if (Arg == std::string("--") + O.Extras[E].Name) {
          O.ExtraValues[E] = NextLong(1);
          Found = true;
        }
      if (!Found)
        usageError(O, "unknown option '" + Arg + "'");
    }
  }
  return O;
}

/// Exits with code 77 unless a CUDA device is usable (and, when MinMajor is
/// given, has at least that compute capability). Call after option parsing
/// and validation, so that a bad command line is reported without a GPU.
inline cudaDeviceProp requireDevice(int MinMajor = 0) {
  int Count = 0;
  cudaError_t Err = cudaGetDeviceCount(&Count);
  if (Err != cudaSuccess || Count == 0) {
    std::printf("no CUDA device: skipping run (%s)\n",
                Err != cudaSuccess ? cudaGetErrorString(Err)
                                   : "device count is 0");
    std::fflush(stdout);
    std::exit(ExitSkip);
  }
  int Dev = 0;
  FFX_CUDA(cudaGetDevice(&Dev));
  cudaDeviceProp Prop;
  FFX_CUDA(cudaGetDeviceProperties(&Prop, Dev));
  if (Prop.major < MinMajor) {
    std::printf("no CUDA device: skipping run (%s is sm_%d%d, sm_%d0+ "
                "needed)\n",
                Prop.name, Prop.major, Prop.minor, MinMajor);
    std::fflush(stdout);
    std::exit(ExitSkip);
  }
  return Prop;
}

/// Grid for a grid-stride kernel: --grid if given, else enough resident
/// blocks to fill every SM (occupancy calculator), but never more blocks
/// than there is work for.
template <typename KernelT>
inline unsigned gridStrideBlocks(const Options &O, const cudaDeviceProp &Prop,
                                 KernelT Kernel, long WorkItems,
                                 size_t DynamicSmem = 0) {
  if (O.Grid > 0)
    return static_cast<unsigned>(O.Grid);
  int PerSM = 0;
  FFX_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &PerSM, Kernel, O.blockThreads(), DynamicSmem));
  long Full = static_cast<long>(std::max(PerSM, 1)) * Prop.multiProcessorCount;
  long Needed = (WorkItems + O.blockThreads() - 1) / O.blockThreads();
  return static_cast<unsigned>(std::max(1L, std::min(Full, Needed)));
}

/// Runs Launch() once untimed, then Repeat times between two events, calling
/// Reset() (untimed) before each; returns the median time in milliseconds.
/// Every launch is checked for launch and execution errors.
template <typename ResetT, typename LaunchT>
inline float timeMedian(int Repeat, ResetT Reset, LaunchT Launch) {
  cudaEvent_t Start, Stop;
  FFX_CUDA(cudaEventCreate(&Start));
  FFX_CUDA(cudaEventCreate(&Stop));
  Reset();
  Launch();
  FFX_CUDA(cudaGetLastError());
  FFX_CUDA(cudaDeviceSynchronize());
  std::vector<float> Times;
  for (int R = 0; R < Repeat; ++R) {
    Reset();
    FFX_CUDA(cudaEventRecord(Start));
    Launch();
    FFX_CUDA(cudaGetLastError());
    FFX_CUDA(cudaEventRecord(Stop));
    FFX_CUDA(cudaEventSynchronize(Stop));
    float Ms = 0;
    FFX_CUDA(cudaEventElapsedTime(&Ms, Start, Stop));
    Times.push_back(Ms);
  }
  FFX_CUDA(cudaEventDestroy(Start));
  FFX_CUDA(cudaEventDestroy(Stop));
  std::sort(Times.begin(), Times.end());
  size_t N = Times.size();
  return N % 2 ? Times[N / 2] : 0.5f * (Times[N / 2 - 1] + Times[N / 2]);
}

template <typename LaunchT> inline float timeMedian(int Repeat, LaunchT Launch) {
  return timeMedian(Repeat, [] {}, Launch);
}

enum class CheckResult { None, Pass, Fail };

/// Prints the JSON result line and returns the process exit code.
inline int report(const Options &O, const char *Kernel, dim3 Block, dim3 Grid,
                  float TimeMs, CheckResult Check) {
  const char *CheckText = Check == CheckResult::None   ? "none"
                          : Check == CheckResult::Pass ? "pass"
                                                       : "fail";
  std::printf("{\"example\":\"%s\",\"kernel\":\"%s\",\"block\":[%u,%u,%u],"
              "\"grid\":[%u,%u,%u],\"size\":%ld,\"repeat\":%d,"
              "\"time_ms\":%.6f,\"check\":\"%s\"}\n",
              O.Example.c_str(), Kernel, Block.x, Block.y, Block.z, Grid.x,
              Grid.y, Grid.z, O.Size, O.Repeat, TimeMs, CheckText);
  std::fflush(stdout);
  return Check == CheckResult::Fail ? 1 : 0;
}

/// A device allocation freed at scope exit.
template <typename T> class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t Count) : Count(Count) {
    FFX_CUDA(cudaMalloc(&Ptr, std::max<size_t>(Count, 1) * sizeof(T)));
  }
  DeviceBuffer(const std::vector<T> &Host) : DeviceBuffer(Host.size()) {
    upload(Host);
  }
  ~DeviceBuffer() { cudaFree(Ptr); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  T *get() const { return Ptr; }
  size_t size() const { return Count; }
  void upload(const std::vector<T> &Host) {
    FFX_CUDA(cudaMemcpy(Ptr, Host.data(), Count * sizeof(T),
                        cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> Host(Count);
    FFX_CUDA(cudaMemcpy(Host.data(), Ptr, Count * sizeof(T),
                        cudaMemcpyDeviceToHost));
    return Host;
  }
  void zero() { FFX_CUDA(cudaMemset(Ptr, 0, Count * sizeof(T))); }

private:
  T *Ptr = nullptr;
  size_t Count;
};

inline unsigned ceilDiv(long A, long B) {
  return static_cast<unsigned>((A + B - 1) / B);
}

} // namespace examples
} // namespace flipflop

#endif // FLIPFLOP_EXAMPLES_COMMON_DRIVER_H
