//===- transpose_padded.cu - Tiled matrix transpose, padded tile ----------===//
//
// Out[Cols x Rows] = In[Rows x Cols]^T through a 32 x 32 shared-memory tile:
// a block reads a tile with coalesced row loads, and writes it transposed
// with coalesced row stores by reading the tile by column.
//
// Block shape fixed by design: 32 x 8 threads (TileDim x BlockRows); each
// thread moves TileDim / BlockRows = 4 elements. Other shapes are refused.
//
// The tile is padded to 32 x 33 floats: the column read Tile[x][y + j]
// touches words x * 33 + y + j, so the 32 lanes of a warp (x = 0..31) fall
// in 32 different banks. Conflict-free; memory-bound at full bandwidth.
//
// Check: exact (a permutation).
//
//===----------------------------------------------------------------------===//

#include "common/Driver.h"
#include "reference/Compare.h"
#include "reference/Grid.h"
#include "reference/Inputs.h"

using namespace flipflop::examples;

constexpr int TileDim = 32;
constexpr int BlockRows = 8;
constexpr int Pad = 1;

__global__ void __launch_bounds__(TileDim * BlockRows)
    transposePadded(const float *__restrict__ In, float *__restrict__ Out, int Rows,
        int Cols) {
  __shared__ float Tile[TileDim][TileDim + Pad];
  // Read the tile at (tile row blockIdx.y, tile column blockIdx.x).
  int X = blockIdx.x * TileDim + threadIdx.x;
  int Y = blockIdx.y * TileDim + threadIdx.y;
  for (int J = 0; J < TileDim; J += BlockRows)
    if (X < Cols && Y + J < Rows)
      Tile[threadIdx.y + J][threadIdx.x] = In[static_cast<size_t>(Y + J) * Cols + X];
  __syncthreads();
  // Write it to tile (blockIdx.x, blockIdx.y) of the Cols x Rows output.
  X = blockIdx.y * TileDim + threadIdx.x;
  Y = blockIdx.x * TileDim + threadIdx.y;
  for (int J = 0; J < TileDim; J += BlockRows)
    if (X < Rows && Y + J < Cols)
      Out[static_cast<size_t>(Y + J) * Rows + X] = Tile[threadIdx.x][threadIdx.y + J];
}

int main(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv, "transpose_padded",
                           "tiled transpose, shared tile padded to 32x33: conflict-free column reads",
                           dim3(TileDim, BlockRows), 4096,
                           "number of rows", {{"cols", 0, "number of columns (0: square)"}});
  if (O.Block.x != TileDim || O.Block.y != BlockRows || O.Block.z != 1)
    usageError(O, "the block shape is fixed by the 32x32 tile: --block 32x8");
  const long Rows = O.Size;
  const long Cols = O.extra("cols") ? O.extra("cols") : O.Size;
  if (Rows > 1L << 20 || Cols > 1L << 20 || Rows * Cols > 1L << 31)
    usageError(O, "matrix too large");
  requireDevice();

  std::vector<float> In = ref::uniformVector(Rows * Cols, 9, -1.0f, 1.0f);
  DeviceBuffer<float> DIn(In), DOut(In.size());
  dim3 Grid(ceilDiv(Cols, TileDim), ceilDiv(Rows, TileDim));
  float Ms = timeMedian(O.Repeat, [&] {
    transposePadded<<<Grid, O.Block>>>(DIn.get(), DOut.get(), Rows, Cols);
  });

  CheckResult Check = CheckResult::None;
  if (O.Check) {
    std::vector<float> Want(In.size());
    ref::transpose(In.data(), Want.data(), Rows, Cols);
    std::vector<float> Got = DOut.download();
    ref::CompareResult R =
        ref::compareArrays(Got.data(), Want.data(), Got.size(), 0.0, 0.0);
    if (!R.Ok)
      std::fprintf(stderr, "transpose_padded: mismatch at %zu: got %g, want %g\n",
                   R.Index, R.Got, R.Want);
    Check = R.Ok ? CheckResult::Pass : CheckResult::Fail;
  }
  return report(O, "transposePadded", O.Block, Grid, Ms, Check);
}
