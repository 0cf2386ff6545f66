//===- CudaDriver.h - The CUDA driver API, loaded at run time -------------===//
//
// The tools include cuda.h for its types and prototypes but open
// libcuda.so.1 with dlopen instead of linking it: a machine without a driver
// then gets a one-line error and exit code 77 instead of a loader failure,
// and the tools build and run (--help, --dump-ptx, validation) anywhere.
// Each entry point is looked up under the name cuda.h maps it to
// (cuMemAlloc -> cuMemAlloc_v2), so its type is the header's.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_MEASURE_CUDADRIVER_H
#define FLIPFLOP_MEASURE_CUDADRIVER_H

#include "Result.h"
#include <cuda.h>
#include <string>

namespace flipflop {
namespace measure {

/// Exit codes shared by the tools.
enum ExitCode : int {
  ExitOk = 0,
  ExitFailure = 1,
  ExitUsage = 2,
  ExitNoGPU = 77, ///< No driver, no device, or no NVML: nothing to measure.
};

#define FLIPFLOP_CU_FUNCTIONS(X)                                               \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDeviceGetPCIBusId)                                                       \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxSetCurrent)                                                           \
  X(cuCtxSynchronize)                                                          \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleGetFunction)                                                       \
  X(cuModuleUnload)                                                            \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemsetD8)                                                                \
  X(cuLaunchKernel)                                                            \
  X(cuEventCreate)                                                             \
  X(cuEventRecord)                                                             \
  X(cuEventQuery)                                                              \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)                                                        \
  X(cuEventDestroy)                                                            \
  X(cuFuncGetAttribute)                                                        \
  X(cuFuncSetAttribute)                                                        \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor)                               \
  X(cuOccupancyMaxPotentialBlockSize)                                          \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)

/// Function pointers of the driver API.
struct CudaApi {
#define FLIPFLOP_CU_MEMBER(F) decltype(&::F) F##Fn = nullptr;
  FLIPFLOP_CU_FUNCTIONS(FLIPFLOP_CU_MEMBER)
#undef FLIPFLOP_CU_MEMBER
};

/// Opens the driver library once. Errors mean "no driver" (exit 77).
Result<const CudaApi *> loadCudaDriver();

/// "cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)".
std::string cudaErrorText(const CudaApi &Api, const char *What, CUresult R);

/// Checks a driver call: CU_CHECK(Api, cuInit(0)) returns an Error from the
/// enclosing function (which must return Error or Result<T>) on failure.
#define CU_CHECK(Api, Call)                                                    \
  do {                                                                         \
    CUresult FlipFlopR_ = (Api).Call;                                          \
    if (FlipFlopR_ != CUDA_SUCCESS)                                            \
      return ::flipflop::measure::makeError(                                   \
          ::flipflop::measure::cudaErrorText((Api), #Call, FlipFlopR_));       \
  } while (false)

/// The device and its primary context, made current.
struct CudaDevice {
  const CudaApi *Api = nullptr;
  CUdevice Dev = 0;
  CUcontext Ctx = nullptr;
  int Ordinal = 0;
  std::string Name;
  std::string PciBusId;
  int CCMajor = 0, CCMinor = 0;
  int SMCount = 0;
  int MaxThreadsPerSM = 0, MaxThreadsPerBlock = 0;
  int MaxSharedPerBlockOptin = 0, MaxSharedPerSM = 0;
  int L2Bytes = 0;
  int DriverVersion = 0;
  ~CudaDevice();
};

/// Opens device \p Ordinal. \p NoGPU is set when the failure means "no GPU
/// or driver here" (exit 77) rather than a real error.
Result<CudaDevice *> openCudaDevice(int Ordinal, bool &NoGPU);

} // namespace measure
} // namespace flipflop

#endif
