//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//
#include "CudaDriver.h"
#include <dlfcn.h>

namespace flipflop {
namespace measure {

#define FLIPFLOP_STR2(X) #X
#define FLIPFLOP_STR(X) FLIPFLOP_STR2(X)

Result<const CudaApi *> loadCudaDriver() {
  static CudaApi Api;
  static bool Loaded = false;
  static std::string Failure;
  if (Loaded)
    return &Api;
  if (!Failure.empty())
    return makeError(Failure);
  void *H = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!H) {
    Failure = std::string("no CUDA driver: cannot load libcuda.so.1 (") +
              dlerror() + ")";
    return makeError(Failure);
  }
  // FLIPFLOP_STR(F) expands cuda.h's macro first: the ABI symbol name.
#define FLIPFLOP_CU_LOAD(F)                                                    \
  Api.F##Fn = reinterpret_cast<decltype(Api.F##Fn)>(dlsym(H, FLIPFLOP_STR(F))); \
  if (!Api.F##Fn) {                                                            \
    Failure = "CUDA driver too old: libcuda.so.1 lacks " FLIPFLOP_STR(F);      \
    return makeError(Failure);                                                 \
  }
  FLIPFLOP_CU_FUNCTIONS(FLIPFLOP_CU_LOAD)
#undef FLIPFLOP_CU_LOAD
  Loaded = true;
  return &Api;
}

std::string cudaErrorText(const CudaApi &Api, const char *What, CUresult R) {
  const char *Name = nullptr, *Desc = nullptr;
  if (Api.cuGetErrorNameFn)
    Api.cuGetErrorNameFn(R, &Name);
  if (Api.cuGetErrorStringFn)
    Api.cuGetErrorStringFn(R, &Desc);
  std::string Call = What;
  size_t Paren = Call.find('(');
  if (Paren != std::string::npos)
    Call.resize(Paren);
  // "cuInitFn" -> "cuInit".
  if (Call.size() > 2 && Call.compare(Call.size() - 2, 2, "Fn") == 0)
    Call.resize(Call.size() - 2);
  std::string S = Call + ": " + (Name ? Name : ("CUDA error " + std::to_string(int(R))));
  if (Desc)
    S += std::string(" (") + Desc + ")";
  return S;
}

CudaDevice::~CudaDevice() {
  if (Api && Ctx)
    Api->cuDevicePrimaryCtxReleaseFn(Dev);
}

namespace {
Error initDevice(CudaDevice &D) {
  const CudaApi &Api = *D.Api;
  CU_CHECK(Api, cuDeviceGetFn(&D.Dev, D.Ordinal));
  char Name[256] = {0};
  CU_CHECK(Api, cuDeviceGetNameFn(Name, sizeof(Name) - 1, D.Dev));
  D.Name = Name;
  char Bus[64] = {0};
  CU_CHECK(Api, cuDeviceGetPCIBusIdFn(Bus, sizeof(Bus) - 1, D.Dev));
  D.PciBusId = Bus;
  struct {
    CUdevice_attribute A;
    int *Out;
  } Attrs[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &D.CCMajor},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &D.CCMinor},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &D.SMCount},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, &D.MaxThreadsPerSM},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &D.MaxThreadsPerBlock},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, &D.MaxSharedPerBlockOptin},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, &D.MaxSharedPerSM},
      {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, &D.L2Bytes},
  };
  for (auto &A : Attrs)
    CU_CHECK(Api, cuDeviceGetAttributeFn(A.Out, A.A, D.Dev));
  CU_CHECK(Api, cuDriverGetVersionFn(&D.DriverVersion));
  CU_CHECK(Api, cuDevicePrimaryCtxRetainFn(&D.Ctx, D.Dev));
  CU_CHECK(Api, cuCtxSetCurrentFn(D.Ctx));
  return Error::success();
}
} // namespace

Result<CudaDevice *> openCudaDevice(int Ordinal, bool &NoGPU) {
  NoGPU = false;
  Result<const CudaApi *> Api = loadCudaDriver();
  if (!Api) {
    NoGPU = true;
    return Api.takeError();
  }
  CUresult R = (*Api)->cuInitFn(0);
  if (R == CUDA_ERROR_NO_DEVICE || R == CUDA_ERROR_SYSTEM_NOT_READY || R == CUDA_ERROR_DEVICE_UNAVAILABLE ||
      R == CUDA_ERROR_STUB_LIBRARY || R == CUDA_ERROR_SYSTEM_DRIVER_MISMATCH ||
      R == CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE) {
    NoGPU = true;
    return makeError("no usable GPU: " + cudaErrorText(**Api, "cuInit", R));
  }
  if (R != CUDA_SUCCESS)
    return makeError(cudaErrorText(**Api, "cuInit", R));
  int Count = 0;
  CU_CHECK(**Api, cuDeviceGetCountFn(&Count));
  if (Count == 0) {
    NoGPU = true;
    return makeError("no GPU: the CUDA driver reports no device");
  }
  if (Ordinal < 0 || Ordinal >= Count)
    return makeError("device " + std::to_string(Ordinal) + " does not exist (" +
                     std::to_string(Count) + " device(s))");
  CudaDevice *D = new CudaDevice();
  D->Api = *Api;
  D->Ordinal = Ordinal;
  if (Error E = initDevice(*D)) {
    delete D;
    return E;
  }
  return D;
}

} // namespace measure
} // namespace flipflop
