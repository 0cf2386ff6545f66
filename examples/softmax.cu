//===- softmax.cu - Row-wise softmax, one block per row -------------------===//
//
// Y[r][:] = softmax(X[r][:]) for a Rows x Cols matrix. One block per row;
// threads stride over the columns (coalesced), two block reductions (max,
// then sum of exponentials) through warp shuffles and 32 shared slots. The
// row is read twice more from global memory (L1/L2 hits for rows that fit).
//
// Block size: any multiple of 32 up to 1024. Memory-bound, coalesced, one
// expf per element (SFU), 4 barriers per row.
//
// Check: abs 1e-6 + rel 1e-4 per element against a double reference.
//
//===----------------------------------------------------------------------===//

#include "common/BlockReduce.cuh"
#include "common/Driver.h"
#include "reference/Compare.h"
#include "reference/Inputs.h"
#include "reference/Rows.h"

using namespace flipflop::examples;

__global__ void softmaxRows(const float *__restrict__ In,
                            float *__restrict__ Out, int Cols) {
  __shared__ float Scratch[32];
  const float *X = In + static_cast<size_t>(blockIdx.x) * Cols;
  float *Y = Out + static_cast<size_t>(blockIdx.x) * Cols;

  float Max = -INFINITY;
  for (int C = threadIdx.x; C < Cols; C += blockDim.x)
    Max = fmaxf(Max, X[C]);
  Max = blockMax(Max, Scratch);

  float Sum = 0.0f;
  for (int C = threadIdx.x; C < Cols; C += blockDim.x)
    Sum += __expf(X[C] - Max);
  Sum = blockSum(Sum, Scratch);

  const float Inv = 1.0f / Sum;
  for (int C = threadIdx.x; C < Cols; C += blockDim.x)
    Y[C] = __expf(X[C] - Max) * Inv;
}

int main(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv, "softmax",
                           "row-wise softmax, one block per row", dim3(256),
                           8192, "number of rows",
                           {{"cols", 1024, "row length"}});
  const long Cols = O.extra("cols");
  if (O.Block.y != 1 || O.Block.z != 1 || O.Block.x % 32 != 0)
    usageError(O, "softmax takes a 1-D block, a multiple of 32");
  if (O.Size > 2147483647L)
    usageError(O, "too many rows");
  requireDevice();

  const long Rows = O.Size;
  std::vector<float> X = ref::uniformVector(Rows * Cols, 4, -8.0f, 8.0f);
  DeviceBuffer<float> DX(X), DY(Rows * Cols);
  dim3 Grid(static_cast<unsigned>(Rows));
  float Ms = timeMedian(O.Repeat, [&] {
    softmaxRows<<<Grid, O.Block>>>(DX.get(), DY.get(), static_cast<int>(Cols));
  });

  CheckResult Check = CheckResult::None;
  if (O.Check) {
    std::vector<float> Want(Rows * Cols);
    ref::softmaxRows(X.data(), Want.data(), Rows, Cols);
    std::vector<float> Got = DY.download();
    ref::CompareResult R =
        ref::compareArrays(Got.data(), Want.data(), Got.size(), 1e-6, 1e-4);
    if (!R.Ok)
      std::fprintf(stderr, "softmax: mismatch at %zu: got %g, want %g\n",
                   R.Index, R.Got, R.Want);
    Check = R.Ok ? CheckResult::Pass : CheckResult::Fail;
  }
  return report(O, "softmaxRows", O.Block, Grid, Ms, Check);
}
