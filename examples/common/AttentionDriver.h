//===- AttentionDriver.h - Shared set-up and check of attention examples --===//
//
// Multi-head scaled dot-product attention without mask, O = softmax(Q K^T /
// sqrt(D)) V per head; Q, K, V, O are [heads][seq][D] row-major floats,
// Q and K uniform in [-2, 2), V uniform in [-1, 1). --size is the sequence
// length, --heads the number of (batch x head) problems, --head-dim D.
//
// Check: |err| <= 2e-5 + 1e-3 * |o| per element against a double-precision
// reference (outputs are convex combinations of V rows, so |o| < 1; the GPU
// uses __expf and float sums over the sequence).
//
//===----------------------------------------------------------------------===//

#ifndef FLIPFLOP_EXAMPLES_COMMON_ATTENTIONDRIVER_H
#define FLIPFLOP_EXAMPLES_COMMON_ATTENTIONDRIVER_H

#include "common/Driver.h"
#include "reference/Attention.h"
#include "reference/Compare.h"
#include "reference/Inputs.h"

namespace flipflop {
namespace examples {

struct AttentionProblem {
  int Heads, L, D;
  std::vector<float> Q, K, V;
};

inline Options parseAttentionOptions(int Argc, char **Argv,
                                     const char *Example, const char *Summary,
                                     dim3 DefaultBlock) {
  Options O = parseOptions(Argc, Argv, Example, Summary, DefaultBlock, 1024,
                           "sequence length",
                           {{"heads", 16, "independent heads (batch x heads)"},
                            {"head-dim", 64, "head dimension D"}});
  if (O.Size > 65535 || O.extra("heads") > 65535 || O.extra("head-dim") > 1024)
    usageError(O, "problem too large (seq and heads <= 65535, D <= 1024)");
  return O;
}

inline AttentionProblem makeAttentionProblem(const Options &O) {
  AttentionProblem P;
  P.Heads = static_cast<int>(O.extra("heads"));
  P.L = static_cast<int>(O.Size);
  P.D = static_cast<int>(O.extra("head-dim"));
  size_t N = static_cast<size_t>(P.Heads) * P.L * P.D;
  P.Q = ref::uniformVector(N, 31, -2.0f, 2.0f);
  P.K = ref::uniformVector(N, 32, -2.0f, 2.0f);
  P.V = ref::uniformVector(N, 33, -1.0f, 1.0f);
  return P;
}

inline CheckResult checkAttention(const char *Example,
                                  const AttentionProblem &P,
                                  const std::vector<float> &Got) {
  std::vector<float> Want(Got.size());
  ref::attention(P.Q.data(), P.K.data(), P.V.data(), Want.data(), P.Heads, P.L,
                 P.L, P.D);
  ref::CompareResult R =
      ref::compareArrays(Got.data(), Want.data(), Want.size(), 2e-5, 1e-3);
  if (!R.Ok)
    std::fprintf(stderr, "%s: mismatch at %zu: got %g, want %g\n", Example,
                 R.Index, R.Got, R.Want);
  return R.Ok ? CheckResult::Pass : CheckResult::Fail;
}

} // namespace examples
} // namespace flipflop

#endif // FLIPFLOP_EXAMPLES_COMMON_ATTENTIONDRIVER_H
