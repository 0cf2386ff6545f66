//===- flipflop-ptx-fuzz.cpp - libFuzzer target for the PTX front end -----===//
//
// Feeds arbitrary bytes to the PTX parser (and, when it accepts them, to the
// profile printer) and to the ptxas output parser. Neither may crash, hang or
// read outside the input. docs/FUZZING.md says how to build and run it.
//
//===----------------------------------------------------------------------===//
#include "flipflop/Profile/PTXParser.h"
#include "flipflop/Profile/ProfilePrinter.h"
#include "flipflop/Profile/Ptxas.h"
#include "llvm/Support/raw_ostream.h"
#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // A copy of exactly Size bytes: AddressSanitizer catches any read past it.
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  auto M = flipflop::parsePTXModule(Text, "fuzz.ptx");
  if (M) {
    llvm::raw_null_ostream OS;
    for (const flipflop::KernelProfile &K : M->Kernels)
      flipflop::printProfile(K, OS);
  } else {
    llvm::consumeError(M.takeError());
  }
  (void)flipflop::parsePtxasOutput(Text);
  return 0;
}
