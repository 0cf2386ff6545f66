//===- layernorm.cu - Layer normalisation, one block per row --------------===//
//
// Y = (X - mean) / sqrt(var + eps) * gamma + beta over each row of a
// Rows x Cols matrix (a transformer's hidden dimension), biased variance.
// One block per row; two-pass statistics (mean, then the sum of squared
// deviations) for accuracy; block reductions by warp shuffles.
//
// Block size: any multiple of 32 up to 1024. Memory-bound, coalesced.
//
// Check: abs 1e-4 + rel 1e-4 against a double reference (outputs are O(1)).
//
//===----------------------------------------------------------------------===//

#include "common/BlockReduce.cuh"
#include "common/Driver.h"
#include "reference/Compare.h"
#include "reference/Inputs.h"
#include "reference/Rows.h"

using namespace flipflop::examples;

__global__ void layerNorm(const float *__restrict__ In,
                          const float *__restrict__ Gamma,
                          const float *__restrict__ Beta,
                          float *__restrict__ Out, int Cols, float Eps) {
  __shared__ float Scratch[32];
  const float *X = In + static_cast<size_t>(blockIdx.x) * Cols;
  float *Y = Out + static_cast<size_t>(blockIdx.x) * Cols;

  float Sum = 0.0f;
  for (int C = threadIdx.x; C < Cols; C += blockDim.x)
    Sum += X[C];
  const float Mean = blockSum(Sum, Scratch) / Cols;

  float SqDev = 0.0f;
  for (int C = threadIdx.x; C < Cols; C += blockDim.x) {
    float D = X[C] - Mean;
    SqDev += D * D;
  }
  const float InvStd = rsqrtf(blockSum(SqDev, Scratch) / Cols + Eps);

  for (int C = threadIdx.x; C < Cols; C += blockDim.x)
    Y[C] = (X[C] - Mean) * InvStd * Gamma[C] + Beta[C];
}

int main(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv, "layernorm",
                           "layer normalisation, one block per row", dim3(256),
                           8192, "number of rows (tokens)",
                           {{"cols", 1024, "row length (hidden size)"}});
  const long Cols = O.extra("cols");
  if (O.Block.y != 1 || O.Block.z != 1 || O.Block.x % 32 != 0)
    usageError(O, "layernorm takes a 1-D block, a multiple of 32");
  if (O.Size > 2147483647L)
    usageError(O, "too many rows");
  requireDevice();

  const long Rows = O.Size;
  const float Eps = 1e-5f;
  std::vector<float> X = ref::uniformVector(Rows * Cols, 5, -3.0f, 5.0f);
  std::vector<float> Gamma = ref::uniformVector(Cols, 6, 0.5f, 1.5f);
  std::vector<float> Beta = ref::uniformVector(Cols, 7, -0.5f, 0.5f);
  DeviceBuffer<float> DX(X), DGamma(Gamma), DBeta(Beta), DY(Rows * Cols);
  dim3 Grid(static_cast<unsigned>(Rows));
  float Ms = timeMedian(O.Repeat, [&] {
    layerNorm<<<Grid, O.Block>>>(DX.get(), DGamma.get(), DBeta.get(), DY.get(),
                                 static_cast<int>(Cols), Eps);
  });

  CheckResult Check = CheckResult::None;
  if (O.Check) {
    std::vector<float> Want(Rows * Cols);
    ref::layerNorm(X.data(), Gamma.data(), Beta.data(), Want.data(), Rows, Cols,
                   Eps);
    std::vector<float> Got = DY.download();
    ref::CompareResult R =
        ref::compareArrays(Got.data(), Want.data(), Got.size(), 1e-4, 1e-4);
    if (!R.Ok)
      std::fprintf(stderr, "layernorm: mismatch at %zu: got %g, want %g\n",
                   R.Index, R.Got, R.Want);
    Check = R.Ok ? CheckResult::Pass : CheckResult::Fail;
  }
  return report(O, "layerNorm", O.Block, Grid, Ms, Check);
}
