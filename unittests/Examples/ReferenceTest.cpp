//===- ReferenceTest.cpp - CPU references of the CUDA examples ------------===//
//
// Each reference is compared with a case small enough to compute by hand;
// the expected values are written out in the comments.
//
//===----------------------------------------------------------------------===//

#include "reference/Attention.h"
#include "reference/Compare.h"
#include "reference/Conv2D.h"
#include "reference/Gemm.h"
#include "reference/Grid.h"
#include "reference/Inputs.h"
#include "reference/Rows.h"
#include "reference/Sparse.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <vector>

using namespace flipflop::examples::ref;

namespace {

TEST(GemmReference, TwoByTwo) {
  // [1 2; 3 4] * [5 6; 7 8] = [19 22; 43 50].
  const float A[] = {1, 2, 3, 4}, B[] = {5, 6, 7, 8};
  float C[4] = {};
  gemm(A, B, C, 2, 2, 2);
  EXPECT_FLOAT_EQ(C[0], 19);
  EXPECT_FLOAT_EQ(C[1], 22);
  EXPECT_FLOAT_EQ(C[2], 43);
  EXPECT_FLOAT_EQ(C[3], 50);
}

TEST(GemmReference, RectangularRowMajor) {
  // [1 2 3; 4 5 6] (2x3) * [1; 0; -1] (3x1) = [-2; -2].
  const float A[] = {1, 2, 3, 4, 5, 6}, B[] = {1, 0, -1};
  float C[2] = {};
  gemm(A, B, C, 2, 1, 3);
  EXPECT_FLOAT_EQ(C[0], -2);
  EXPECT_FLOAT_EQ(C[1], -2);
}

TEST(SoftmaxReference, ThreeElements) {
  // exp(-2), exp(-1), 1 over their sum 1.5032147.
  const float X[] = {1, 2, 3};
  float Y[3];
  softmaxRows(X, Y, 1, 3);
  EXPECT_NEAR(Y[0], 0.0900305732, 1e-7);
  EXPECT_NEAR(Y[1], 0.2447284711, 1e-7);
  EXPECT_NEAR(Y[2], 0.6652409558, 1e-7);
}

TEST(SoftmaxReference, RowsAreIndependentAndStable) {
  // Row 2 would overflow exp() without the max shift.
  const float X[] = {0, 0, 0, 1000, 1000, 1000};
  float Y[6];
  softmaxRows(X, Y, 2, 3);
  for (float V : Y)
    EXPECT_NEAR(V, 1.0 / 3, 1e-7);
}

TEST(AttentionReference, OneQuery) {
  // D = 2, two keys: scores (1, 0) / sqrt(2); p = (0.66976155, 0.33023845);
  // O = p0 * (1, 2) + p1 * (3, 4) = (1.6604769, 2.6604769).
  const float Q[] = {1, 0}, K[] = {1, 0, 0, 1}, V[] = {1, 2, 3, 4};
  float O[2];
  attention(Q, K, V, O, 1, 1, 2, 2);
  EXPECT_NEAR(O[0], 1.6604769, 1e-6);
  EXPECT_NEAR(O[1], 2.6604769, 1e-6);
}

TEST(AttentionReference, SingleKeyReturnsItsValue) {
  // With one key the softmax weight is 1, whatever the score; two heads.
  const float Q[] = {3, -1, 0.5f, 2}, K[] = {7, 9, -4, 1},
              V[] = {0.25f, -8, 5, 6};
  float O[4];
  attention(Q, K, V, O, 2, 1, 1, 2);
  EXPECT_FLOAT_EQ(O[0], 0.25f);
  EXPECT_FLOAT_EQ(O[1], -8);
  EXPECT_FLOAT_EQ(O[2], 5);
  EXPECT_FLOAT_EQ(O[3], 6);
}

TEST(TransposeReference, TwoByThree) {
  // [1 2 3; 4 5 6]^T = [1 4; 2 5; 3 6].
  const float In[] = {1, 2, 3, 4, 5, 6};
  float Out[6];
  transpose(In, Out, 2, 3);
  const float Want[] = {1, 4, 2, 5, 3, 6};
  for (int I = 0; I < 6; ++I)
    EXPECT_EQ(Out[I], Want[I]) << "element " << I;
}

TEST(Conv2DReference, BoxFilterWithZeroPadding) {
  // Image 1..9 (3x3), 3x3 all-ones filter: corner 1+2+4+5 = 12, edge
  // 1+2+3+4+5+6 = 21, centre 45.
  const float In[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const float F[] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  float Out[9];
  conv2d(In, Out, 3, 3, F, 1);
  EXPECT_FLOAT_EQ(Out[0], 12);
  EXPECT_FLOAT_EQ(Out[1], 21);
  EXPECT_FLOAT_EQ(Out[4], 45);
  EXPECT_FLOAT_EQ(Out[8], 5 + 6 + 8 + 9);
}

TEST(Conv2DReference, IsCrossCorrelation) {
  // Filter with a single 1 at its right neighbour picks In[y][x+1].
  const float In[] = {1, 2, 3, 4, 5, 6};
  const float F[] = {0, 0, 0, 0, 0, 1, 0, 0, 0};
  float Out[6];
  conv2d(In, Out, 2, 3, F, 1);
  const float Want[] = {2, 3, 0, 5, 6, 0};
  for (int I = 0; I < 6; ++I)
    EXPECT_FLOAT_EQ(Out[I], Want[I]) << "element " << I;
}

TEST(StencilReference, ThreeByThree) {
  // Centre: 0.5 * 5 + 0.125 * (2 + 8 + 4 + 6) = 5; the boundary is copied.
  const float In[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  float Out[9];
  stencil5(In, Out, 3, 3, 0.5f, 0.125f);
  for (int I = 0; I < 9; ++I)
    EXPECT_FLOAT_EQ(Out[I], In[I]) << "element " << I;
  const float Peak[] = {0, 0, 0, 0, 8, 0, 0, 0, 0};
  stencil5(Peak, Out, 3, 3, 0.5f, 0.125f);
  EXPECT_FLOAT_EQ(Out[4], 4);
}

TEST(LayerNormReference, FourElements) {
  // Mean 2.5, biased variance 1.25: (x - 2.5) / sqrt(1.25).
  const float X[] = {1, 2, 3, 4}, Ones[] = {1, 1, 1, 1}, Zeros[] = {0, 0, 0, 0};
  float Y[4];
  layerNorm(X, Ones, Zeros, Y, 1, 4, 0.0f);
  EXPECT_NEAR(Y[0], -1.3416408, 1e-6);
  EXPECT_NEAR(Y[1], -0.4472136, 1e-6);
  EXPECT_NEAR(Y[2], 0.4472136, 1e-6);
  EXPECT_NEAR(Y[3], 1.3416408, 1e-6);
  // Gamma 2, beta 1 (per column).
  const float Twos[] = {2, 2, 2, 2};
  layerNorm(X, Twos, Ones, Y, 1, 4, 0.0f);
  EXPECT_NEAR(Y[0], 1 - 2 * 1.3416408, 1e-6);
  // A constant row normalises to beta, Eps keeps it finite.
  const float Flat[] = {7, 7, 7, 7};
  layerNorm(Flat, Ones, Twos, Y, 1, 4, 1e-5f);
  EXPECT_FLOAT_EQ(Y[2], 2);
}

TEST(VectorReference, SumAndSaxpy) {
  const float X[] = {1, 2, 3, 4.5f}, Y[] = {10, 20, 30, 40};
  EXPECT_DOUBLE_EQ(sum(X, 4), 10.5);
  float Z[4];
  saxpy(2, X, Y, Z, 4);
  EXPECT_FLOAT_EQ(Z[0], 12);
  EXPECT_FLOAT_EQ(Z[3], 49);
}

TEST(HistogramReference, CountsBytes) {
  const unsigned char Data[] = {0, 255, 3, 3, 255, 3};
  unsigned Bins[256];
  histogram256(Data, 6, Bins);
  EXPECT_EQ(Bins[0], 1u);
  EXPECT_EQ(Bins[3], 3u);
  EXPECT_EQ(Bins[255], 2u);
  unsigned Total = 0;
  for (unsigned B : Bins)
    Total += B;
  EXPECT_EQ(Total, 6u);
}

TEST(SpMVReference, HandBuiltMatrix) {
  // [1 0 2; 0 0 0; 3 4 0] * (1, 2, 3) = (7, 0, 11).
  CsrMatrix M;
  M.Rows = M.Cols = 3;
  M.RowPtr = {0, 2, 2, 4};
  M.ColIdx = {0, 2, 0, 1};
  M.Values = {1, 2, 3, 4};
  const float X[] = {1, 2, 3};
  float Y[3];
  spmv(M, X, Y);
  EXPECT_FLOAT_EQ(Y[0], 7);
  EXPECT_FLOAT_EQ(Y[1], 0);
  EXPECT_FLOAT_EQ(Y[2], 11);
}

TEST(SpMVReference, RandomCsrIsWellFormed) {
  CsrMatrix M = randomCsr(200, 4, 11);
  ASSERT_EQ(M.RowPtr.size(), 201u);
  EXPECT_EQ(M.RowPtr.front(), 0);
  EXPECT_EQ(static_cast<size_t>(M.RowPtr.back()), M.ColIdx.size());
  EXPECT_EQ(M.ColIdx.size(), M.Values.size());
  bool Uneven = false;
  for (int R = 0; R < M.Rows; ++R) {
    int Begin = M.RowPtr[R], End = M.RowPtr[R + 1];
    ASSERT_LT(Begin, End) << "row " << R << " lacks its diagonal";
    bool Diagonal = false;
    for (int P = Begin; P < End; ++P) {
      EXPECT_GE(M.ColIdx[P], 0);
      EXPECT_LT(M.ColIdx[P], 200);
      if (P > Begin) {
        EXPECT_LT(M.ColIdx[P - 1], M.ColIdx[P]) << "row " << R;
      }
      Diagonal |= M.ColIdx[P] == R;
    }
    EXPECT_TRUE(Diagonal) << "row " << R;
    if (R > 0 && End - Begin != M.RowPtr[R] - M.RowPtr[R - 1])
      Uneven = true;
  }
  EXPECT_TRUE(Uneven);
  // Deterministic: the same seed gives the same matrix.
  CsrMatrix Again = randomCsr(200, 4, 11);
  EXPECT_EQ(Again.ColIdx, M.ColIdx);
  EXPECT_EQ(Again.Values, M.Values);
}

TEST(InputsReference, DeterministicAndInRange) {
  std::vector<float> A = uniformVector(1000, 5, -2.0f, 3.0f);
  std::vector<float> B = uniformVector(1000, 5, -2.0f, 3.0f);
  std::vector<float> C = uniformVector(1000, 6, -2.0f, 3.0f);
  EXPECT_EQ(A, B);
  EXPECT_NE(A, C);
  double Mean = 0;
  for (float V : A) {
    EXPECT_GE(V, -2.0f);
    EXPECT_LT(V, 3.0f);
    Mean += V / 1000;
  }
  EXPECT_NEAR(Mean, 0.5, 0.2);
  // The first output of seed 0: state 1 * 6364136223846793005 +
  // 1442695040888963407 = 7806831264735756412, high half 1817669548.
  Lcg G(0);
  EXPECT_EQ(G.next(), 1817669548u);
}

TEST(CompareReference, Tolerances) {
  const float Want[] = {1, 100, -3};
  const float Close[] = {1.0005f, 100.05f, -3};
  CompareResult R = compareArrays(Close, Want, 3, 1e-3, 1e-3);
  EXPECT_TRUE(R.Ok);
  const float Far[] = {1, 100.2f, -2};
  R = compareArrays(Far, Want, 3, 1e-3, 1e-3);
  EXPECT_FALSE(R.Ok);
  EXPECT_EQ(R.Index, 1u);
  EXPECT_NEAR(R.MaxAbsError, 1.0, 1e-6);
  const float WithNaN[] = {1, std::numeric_limits<float>::quiet_NaN(), -3};
  EXPECT_FALSE(compareArrays(WithNaN, Want, 3, 1e9, 1e9).Ok);
}

} // namespace
