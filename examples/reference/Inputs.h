//===- Inputs.h - Deterministic inputs for the CUDA examples --------------===//
//
// Plain C++ (no CUDA): a 64-bit linear congruential generator (Knuth's MMIX
// constants) so that every run, on every machine, fills the same inputs.
//
//===----------------------------------------------------------------------===//

#ifndef FLIPFLOP_EXAMPLES_REFERENCE_INPUTS_H
#define FLIPFLOP_EXAMPLES_REFERENCE_INPUTS_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace flipflop {
namespace examples {
namespace ref {

class Lcg {
public:
  explicit Lcg(uint64_t Seed) : State(Seed * 2 + 1) {}
  /// The next 32 random bits (the high half of the state).
  uint32_t next() {
    State = State * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(State >> 32);
  }
  /// Uniform in [Lo, Hi).
  float uniform(float Lo, float Hi) {
    return Lo + (Hi - Lo) * static_cast<float>(next() >> 8) * (1.0f / 16777216.0f);
  }

private:
  uint64_t State;
};

inline std::vector<float> uniformVector(size_t N, uint64_t Seed, float Lo,
                                        float Hi) {
  Lcg G(Seed);
  std::vector<float> V(N);
  for (float &X : V)
    X = G.uniform(Lo, Hi);
  return V;
}

inline std::vector<unsigned char> byteVector(size_t N, uint64_t Seed) {
  Lcg G(Seed);
  std::vector<unsigned char> V(N);
  for (unsigned char &X : V)
    X = static_cast<unsigned char>(G.next() >> 24);
  return V;
}

} // namespace ref
} // namespace examples
} // namespace flipflop

#endif // FLIPFLOP_EXAMPLES_REFERENCE_INPUTS_H
