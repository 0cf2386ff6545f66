//===- attention_flash.cu - Tiled online-softmax (flash-style) attention --===//
//
// FlashAttention-style forward pass: a block owns blockDim.x query rows of
// one head, one row per thread, and streams K and V through shared memory in
// tiles of Bc = 32 keys. Each thread keeps its scaled query row, its output
// accumulator, its running maximum m and running sum l in registers; per
// tile it computes 32 scores, raises m if needed (rescaling l and the
// accumulator by exp(m_old - m_new)), and accumulates exp(s - m) * V rows.
// The L x L score matrix never exists: global traffic is O(L * D) per block.
//
// What it shows: K/V tiles loaded once per block with coalesced loads and
// read by all threads at the same address (shared-memory broadcast, no
// conflicts); about 2 * D + Bc live registers per thread (limits the block
// size and occupancy); FP32 FMA-bound for long sequences.
//
// Block size: any 1-D block whose register demand fits (the driver asks the
// runtime for the kernel's limit and refuses larger ones). The head dimension
// is a template parameter, instantiated for D = 32 and D = 64.
// Check: common/AttentionDriver.h.
//
//===----------------------------------------------------------------------===//

#include "common/AttentionDriver.h"

#include <cmath>

using namespace flipflop::examples;

constexpr int Bc = 32;

template <int D>
__global__ void attentionFlash(const float *__restrict__ Q,
                               const float *__restrict__ K,
                               const float *__restrict__ V,
                               float *__restrict__ O, int L, float Scale) {
  __shared__ float Ks[Bc][D];
  __shared__ float Vs[Bc][D];
  const int Head = blockIdx.y;
  const int Row = blockIdx.x * blockDim.x + threadIdx.x;
  const bool Active = Row < L;
  const size_t HeadBase = static_cast<size_t>(Head) * L * D;
  const float *Kh = K + HeadBase, *Vh = V + HeadBase;

  float Qr[D], Acc[D];
#pragma unroll
  for (int E = 0; E < D; ++E) {
    Qr[E] = Active ? Q[HeadBase + static_cast<size_t>(Row) * D + E] * Scale : 0.0f;
    Acc[E] = 0.0f;
  }
  float M = -INFINITY, Lsum = 0.0f;

  for (int J0 = 0; J0 < L; J0 += Bc) {
    const int Tile = min(Bc, L - J0);
    // The tile's rows are contiguous in memory: coalesced cooperative load.
    for (int E = threadIdx.x; E < Tile * D; E += blockDim.x) {
      Ks[E / D][E % D] = Kh[static_cast<size_t>(J0) * D + E];
      Vs[E / D][E % D] = Vh[static_cast<size_t>(J0) * D + E];
    }
    __syncthreads();

    if (Active) {
      float S[Bc];
      float TileMax = -INFINITY;
#pragma unroll
      for (int J = 0; J < Bc; ++J) {
        float Dot = -INFINITY;
        if (J < Tile) {
          Dot = 0.0f;
#pragma unroll
          for (int E = 0; E < D; ++E)
            Dot += Qr[E] * Ks[J][E];
        }
        S[J] = Dot;
        TileMax = fmaxf(TileMax, Dot);
      }
      const float NewM = fmaxf(M, TileMax);
      const float Correction = __expf(M - NewM); // 0 on the first tile.
      Lsum *= Correction;
#pragma unroll
      for (int E = 0; E < D; ++E)
        Acc[E] *= Correction;
#pragma unroll
      for (int J = 0; J < Bc; ++J) {
        if (J < Tile) {
          const float P = __expf(S[J] - NewM);
          Lsum += P;
#pragma unroll
          for (int E = 0; E < D; ++E)
            Acc[E] += P * Vs[J][E];
        }
      }
      M = NewM;
    }
    __syncthreads(); // The next tile overwrites Ks and Vs.
  }

  if (Active) {
    const float Inv = 1.0f / Lsum;
#pragma unroll
    for (int E = 0; E < D; ++E)
      O[HeadBase + static_cast<size_t>(Row) * D + E] = Acc[E] * Inv;
  }
}

template <int D>
static void run(const Options &O, const AttentionProblem &P, dim3 &Grid,
                float &Ms, std::vector<float> &Out) {
  cudaFuncAttributes Attr;
  FFX_CUDA(cudaFuncGetAttributes(&Attr, attentionFlash<D>));
  if (static_cast<int>(O.Block.x) > Attr.maxThreadsPerBlock)
    usageError(O, "attentionFlash<" + std::to_string(D) + "> uses " +
                      std::to_string(Attr.numRegs) +
                      " registers per thread: at most " +
                      std::to_string(Attr.maxThreadsPerBlock) +
                      " threads per block");
  DeviceBuffer<float> DQ(P.Q), DK(P.K), DV(P.V), DO(P.Q.size());
  Grid = dim3(ceilDiv(P.L, O.Block.x), P.Heads);
  const float Scale = 1.0f / std::sqrt(static_cast<float>(D));
  Ms = timeMedian(O.Repeat, [&] {
    attentionFlash<D><<<Grid, O.Block>>>(DQ.get(), DK.get(), DV.get(), DO.get(),
                                         P.L, Scale);
  });
  Out = DO.download();
}

int main(int Argc, char **Argv) {
  Options O = parseAttentionOptions(Argc, Argv, "attention_flash",
                                    "multi-head attention, K/V tiles in "
                                    "shared memory, online softmax",
                                    dim3(64));
  if (O.Block.y != 1 || O.Block.z != 1)
    usageError(O, "attention_flash takes a 1-D block (one query per thread)");
  const long D = O.extra("head-dim");
  if (D != 32 && D != 64)
    usageError(O, "instantiated head dimensions: 32, 64");
  requireDevice();

  AttentionProblem P = makeAttentionProblem(O);
  dim3 Grid;
  float Ms = 0;
  std::vector<float> Out;
  if (D == 32)
    run<32>(O, P, Grid, Ms, Out);
  else
    run<64>(O, P, Grid, Ms, Out);

  CheckResult Check = CheckResult::None;
  if (O.Check)
    Check = checkAttention("attention_flash", P, Out);
  char Name[64];
  std::snprintf(Name, sizeof(Name), "attentionFlash<%ld>", D);
  return report(O, Name, O.Block, Grid, Ms, Check);
}
