//===- attention_naive.cu - Straightforward multi-head attention ----------===//
//
// One block per (query row, head): the block stages the query in shared
// memory, computes all L scores into shared memory (thread j takes keys j,
// j + blockDim.x, ...), reduces their maximum and the sum of exponentials
// across the block, then each thread produces output dimensions d, d +
// blockDim.x, ... as a weighted sum over all L rows of V.
//
// What it shows: the whole score row lives in shared memory (L + D floats of
// dynamic shared memory per block, so occupancy falls as L grows); K rows are
// read with a stride of D floats across the threads of a warp (uncoalesced);
// K and V are re-read from L2 by each of the L blocks of a head; only D of
// the blockDim.x threads work in the output phase. Memory/L2-bound.
//
// Block size: any multiple of 32 up to 1024. Check: common/AttentionDriver.h.
//
//===----------------------------------------------------------------------===//

#include "common/AttentionDriver.h"
#include "common/BlockReduce.cuh"

#include <cmath>

using namespace flipflop::examples;

/// Dynamic shared memory: (D + L) floats.
__global__ void attentionNaive(const float *__restrict__ Q,
                               const float *__restrict__ K,
                               const float *__restrict__ V,
                               float *__restrict__ O, int L, int D,
                               float Scale) {
  extern __shared__ float Smem[];
  __shared__ float Scratch[32];
  float *Qs = Smem;    // [D]
  float *S = Smem + D; // [L]
  const int Row = blockIdx.x, Head = blockIdx.y;
  const size_t HeadBase = static_cast<size_t>(Head) * L * D;
  const float *Kh = K + HeadBase, *Vh = V + HeadBase;

  for (int E = threadIdx.x; E < D; E += blockDim.x)
    Qs[E] = Q[HeadBase + static_cast<size_t>(Row) * D + E];
  __syncthreads();

  float Max = -INFINITY;
  for (int J = threadIdx.x; J < L; J += blockDim.x) {
    float Dot = 0.0f;
    for (int E = 0; E < D; ++E)
      Dot += Qs[E] * Kh[static_cast<size_t>(J) * D + E];
    Dot *= Scale;
    S[J] = Dot;
    Max = fmaxf(Max, Dot);
  }
  Max = blockMax(Max, Scratch);

  float Sum = 0.0f;
  for (int J = threadIdx.x; J < L; J += blockDim.x) {
    float P = __expf(S[J] - Max);
    S[J] = P;
    Sum += P;
  }
  Sum = blockSum(Sum, Scratch); // Its barriers also publish S.
  const float Inv = 1.0f / Sum;

  for (int E = threadIdx.x; E < D; E += blockDim.x) {
    float Acc = 0.0f;
    for (int J = 0; J < L; ++J)
      Acc += S[J] * Vh[static_cast<size_t>(J) * D + E];
    O[HeadBase + static_cast<size_t>(Row) * D + E] = Acc * Inv;
  }
}

int main(int Argc, char **Argv) {
  Options O = parseAttentionOptions(Argc, Argv, "attention_naive",
                                    "multi-head attention, one block per "
                                    "query row, scores in shared memory",
                                    dim3(128));
  if (O.Block.y != 1 || O.Block.z != 1 || O.Block.x % 32 != 0)
    usageError(O, "attention_naive takes a 1-D block, a multiple of 32");
  // Dynamic (L + D floats) plus static (32 floats) within the default 48 KiB.
  const size_t Smem = (O.Size + O.extra("head-dim")) * sizeof(float);
  if (Smem + 32 * sizeof(float) > 48 * 1024)
    usageError(O, "seq + head-dim must fit 48 KiB of shared memory (seq <= "
                  "12256 - head-dim): use attention_flash for longer ones");
  requireDevice();

  AttentionProblem P = makeAttentionProblem(O);
  DeviceBuffer<float> DQ(P.Q), DK(P.K), DV(P.V), DO(P.Q.size());
  dim3 Grid(P.L, P.Heads);
  const float Scale = 1.0f / std::sqrt(static_cast<float>(P.D));
  float Ms = timeMedian(O.Repeat, [&] {
    attentionNaive<<<Grid, O.Block, Smem>>>(DQ.get(), DK.get(), DV.get(),
                                            DO.get(), P.L, P.D, Scale);
  });

  CheckResult Check = CheckResult::None;
  if (O.Check)
    Check = checkAttention("attention_naive", P, DO.download());
  return report(O, "attentionNaive", O.Block, Grid, Ms, Check);
}
