//===- spmv_csr.cu - Sparse matrix-vector product, CSR scalar -------------===//
//
// Y = A * X for a CSR matrix, one row per thread (the "scalar" kernel).
// Adjacent threads walk different rows, so the loads of ColIdx and Values
// are strided (uncoalesced: roughly one 32-byte sector per element), X is
// gathered at random columns, and rows of different lengths make the warp's
// threads diverge. Memory-bound and latency-bound. Any 1-D block size.
//
// Check: abs 1e-5 + rel 1e-5 against a double reference (rows have at most
// 2 * avg-nnz entries of magnitude < 1).
//
//===----------------------------------------------------------------------===//

#include "common/Driver.h"
#include "reference/Compare.h"
#include "reference/Inputs.h"
#include "reference/Sparse.h"

using namespace flipflop::examples;

__global__ void spmvCsrScalar(int Rows, const int *__restrict__ RowPtr,
                              const int *__restrict__ ColIdx,
                              const float *__restrict__ Values,
                              const float *__restrict__ X,
                              float *__restrict__ Y) {
  const int Row = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row >= Rows)
    return;
  float Acc = 0.0f;
  for (int P = RowPtr[Row]; P < RowPtr[Row + 1]; ++P)
    Acc += Values[P] * X[ColIdx[P]];
  Y[Row] = Acc;
}

int main(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv, "spmv_csr",
                           "CSR sparse matrix-vector product, one row per "
                           "thread",
                           dim3(256), 1L << 19, "matrix rows (square)",
                           {{"avg-nnz", 16, "average off-diagonal entries per row"}});
  if (O.Block.y != 1 || O.Block.z != 1)
    usageError(O, "spmv_csr takes a 1-D block (--block N)");
  const long AvgNnz = O.extra("avg-nnz");
  if (O.Size > (1L << 26) || O.Size * 2 * AvgNnz > (1L << 30))
    usageError(O, "matrix too large");
  requireDevice();

  const int N = static_cast<int>(O.Size);
  ref::CsrMatrix A = ref::randomCsr(N, static_cast<int>(AvgNnz), 11);
  std::vector<float> X = ref::uniformVector(N, 12, -1.0f, 1.0f);
  DeviceBuffer<int> DRowPtr(A.RowPtr), DColIdx(A.ColIdx);
  DeviceBuffer<float> DValues(A.Values), DX(X), DY(N);
  dim3 Grid(ceilDiv(N, O.Block.x));
  float Ms = timeMedian(O.Repeat, [&] {
    spmvCsrScalar<<<Grid, O.Block>>>(N, DRowPtr.get(), DColIdx.get(),
                                     DValues.get(), DX.get(), DY.get());
  });

  CheckResult Check = CheckResult::None;
  if (O.Check) {
    std::vector<float> Want(N);
    ref::spmv(A, X.data(), Want.data());
    std::vector<float> Got = DY.download();
    ref::CompareResult R = ref::compareArrays(Got.data(), Want.data(), N, 1e-5, 1e-5);
    if (!R.Ok)
      std::fprintf(stderr, "spmv_csr: row %zu: got %g, want %g\n", R.Index,
                   R.Got, R.Want);
    Check = R.Ok ? CheckResult::Pass : CheckResult::Fail;
  }
  return report(O, "spmvCsrScalar", O.Block, Grid, Ms, Check);
}
