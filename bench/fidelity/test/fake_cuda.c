/* A stand-in for libcuda.so.1 and libnvidia-ml.so.1 (ctest fidelity.measure):
 * the entry points bench/fidelity/measure.py calls, with the driver's
 * signatures. It checks what a real driver would rely on (the context and
 * module handles passed back, the kernel-parameter array pointing at each
 * argument's value, the uploaded buffers) and fails the call otherwise; a
 * launch's "time" is its block count / 1e5 ms, so rows differ. Built with
 * the host C compiler; no GPU. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int Result;
enum { OK = 0, BAD = 1 };
static void *const Ctx = (void *)0x1000, *const Mod = (void *)0x2000,
                   *const Fn = (void *)0x3000;
static double LastMs = 1.0;
static int Fail(const char *Why) {
  fprintf(stderr, "fake_cuda: %s\n", Why);
  return BAD;
}

Result cuInit(unsigned Flags) { return Flags == 0 ? OK : Fail("cuInit flags"); }
Result cuDeviceGet(int *D, int Ordinal) { *D = Ordinal; return OK; }
Result cuDeviceGetName(char *N, int Len, int D) {
  snprintf(N, Len, "Fake GPU %d", D);
  return OK;
}
Result cuDevicePrimaryCtxRetain(void **C, int D) { *C = Ctx; return OK; }
Result cuCtxSetCurrent(void *C) { return C == Ctx ? OK : Fail("context handle"); }
Result cuCtxSynchronize(void) { return OK; }
Result cuGetErrorString(Result R, const char **S) { *S = "fake error"; return OK; }
Result cuMemAlloc_v2(uint64_t *P, size_t N) {
  *P = (uint64_t)(uintptr_t)calloc(1, N);
  return *P ? OK : Fail("out of memory");
}
Result cuMemcpyHtoD_v2(uint64_t D, const void *H, size_t N) {
  memcpy((void *)(uintptr_t)D, H, N);
  return OK;
}
Result cuMemsetD8_v2(uint64_t D, unsigned char V, size_t N) {
  memset((void *)(uintptr_t)D, V, N);
  return OK;
}
/* The loaded image, copied as a real driver does (its size: the end of the
 * ELF64 section header table, which ptxas writes last), to look kernels up
 * by their .text section as the driver does. */
static unsigned char *Image = NULL;
static size_t ImageSize = 0;
/* Which recipe's arguments the launch checks: gemm's (Xgemm) or the
 * held-out convolution's (output, input, filter). */
static int Conv = 0;
Result cuModuleLoadData(void **M, const void *Data) {
  const unsigned char *B = Data; /* a cubin is an ELF file */
  if (B[0] != 0x7f || B[1] != 'E' || B[2] != 'L' || B[3] != 'F' || B[4] != 2)
    return Fail("module image is not a cubin");
  uint64_t ShOff;
  uint16_t ShEntSize, ShNum;
  memcpy(&ShOff, B + 0x28, 8);
  memcpy(&ShEntSize, B + 0x3A, 2);
  memcpy(&ShNum, B + 0x3C, 2);
  free(Image);
  ImageSize = ShOff + (size_t)ShEntSize * ShNum;
  Image = malloc(ImageSize);
  if (!Image)
    return Fail("out of memory");
  memcpy(Image, B, ImageSize);
  *M = Mod;
  return OK;
}
Result cuModuleGetFunction(void **F, void *M, const char *Name) {
  if (M != Mod)
    return Fail("module handle");
  char Sec[512];
  int N = snprintf(Sec, sizeof Sec, ".text.%s", Name);
  int Found = 0;
  for (size_t I = 0; N > 0 && I + N + 1 <= ImageSize && !Found; ++I)
    Found = memcmp(Image + I, Sec, N + 1) == 0;
  if (!Found)
    return Fail("kernel name");
  Conv = strcmp(Name, "convolution_kernel") == 0;
  *F = Fn;
  return OK;
}
Result cuModuleUnload(void *M) { return M == Mod ? OK : Fail("unload handle"); }
Result cuEventCreate(void **E, unsigned Flags) {
  static uintptr_t Next = 0x4000;
  *E = (void *)Next++;
  return OK;
}
Result cuEventRecord(void *E, void *Stream) { return Stream ? Fail("stream") : OK; }
Result cuEventSynchronize(void *E) { return OK; }
Result cuEventElapsedTime_v2(float *Ms, void *A, void *B) {
  *Ms = (float)LastMs;
  return OK;
}
/* Xgemm(int M, int N, int K, float alpha, float beta, A, B, C): A and B
 * filled with floats in [1, 2), C zeroed. */
Result cuLaunchKernel(void *F, unsigned GX, unsigned GY, unsigned GZ, unsigned BX,
                      unsigned BY, unsigned BZ, unsigned Shared, void *Stream,
                      void **Params, void **Extra) {
  if (F != Fn || Stream || Extra || Shared)
    return Fail("launch handle/stream/extra");
  if (Conv) {
    float Out = *(float *)(uintptr_t)*(uint64_t *)Params[0];
    float In = *(float *)(uintptr_t)*(uint64_t *)Params[1];
    float Filter = *(float *)(uintptr_t)*(uint64_t *)Params[2];
    if (!(Out == 0 && In >= 1 && In < 2 && Filter >= 1 && Filter < 2))
      return Fail("buffer contents");
    if (GX == 0 || GY == 0 || BX * BY == 0 || BZ != 1 || GZ != 1)
      return Fail("launch geometry");
    LastMs = (double)GX * GY / 1e5;
    return OK;
  }
  for (int I = 0; I < 3; ++I)
    if (*(int32_t *)Params[I] != 4096)
      return Fail("integer argument");
  if (*(float *)Params[3] != 1.0f || *(float *)Params[4] != 1.0f)
    return Fail("float argument");
  float A0 = *(float *)(uintptr_t)*(uint64_t *)Params[5];
  float B0 = *(float *)(uintptr_t)*(uint64_t *)Params[6];
  float C0 = *(float *)(uintptr_t)*(uint64_t *)Params[7];
  if (!(A0 >= 1 && A0 < 2 && B0 >= 1 && B0 < 2 && C0 == 0))
    return Fail("buffer contents");
  if (GX == 0 || GY == 0 || BX * BY == 0 || BZ != 1 || GZ != 1)
    return Fail("launch geometry");
  LastMs = (double)GX * GY / 1e5;
  return OK;
}

/* NVML: an energy counter that advances 100 mJ per reading. */
int nvmlInit_v2(void) { return 0; }
int nvmlDeviceGetHandleByIndex_v2(unsigned I, void **H) { *H = (void *)0x5000; return 0; }
int nvmlDeviceGetTotalEnergyConsumption(void *H, unsigned long long *E) {
  static unsigned long long Counter = 1000000;
  *E = (Counter += 100);
  return H == (void *)0x5000 ? 0 : 1;
}
int nvmlDeviceGetPowerUsage(void *H, unsigned *P) { *P = 250000; return 0; }
int nvmlDeviceGetClockInfo(void *H, int Type, unsigned *C) { *C = Type == 1 ? 1410 : 0; return 0; }
int nvmlDeviceGetTemperature(void *H, int Sensor, unsigned *T) { *T = 50; return 0; }
int nvmlDeviceGetEnforcedPowerLimit(void *H, unsigned *P) { *P = 300000; return 0; }
