// FlipFlop's own problems are compiler warnings, visible without any -R
// flag, in clang's form with the remark page's ID; the compile succeeds and
// its PTX is clang's own. Before: an unknown GPU, an unusable ptxas, an
// unwritable report directory and an internal failure were remarks only
// (nothing without -Rpass-analysis=flipflop), and option warnings failed a
// -Werror build.
// RUN: rm -rf %t && mkdir -p %t && touch %t/afile
// RUN: %clang_cuda -nocudainc -nocudalib --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/ref.ptx
//
// An unknown GPU gives one warning per compile, no -R flag needed.
// RUN: env FLIPFLOP_GPU=H100-SMX5 %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/gpu.ptx 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: cmp %t/gpu.ptx %t/ref.ptx
// GPU: warning: FlipFlop: unknown GPU 'H100-SMX5': use a name from --list-gpus or a .json spec file; no recommendation [FF901] [-Wbackend-plugin]
// GPU-NOT: warning:
// GPU: 1 warning generated
//
// A plain -Werror keeps it a warning (FlipFlop prints it itself) and the
// compile succeeds, with clang's cc1 in process or not:
// RUN: env FLIPFLOP_GPU=H100-SMX5 %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/werror.ptx -Werror 2>&1 | FileCheck %s --check-prefix=WERROR
// RUN: cmp %t/werror.ptx %t/ref.ptx
// RUN: env FLIPFLOP_GPU=H100-SMX5 %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/werror2.ptx -fno-integrated-cc1 -Werror 2>&1 | FileCheck %s --check-prefix=WERROR
// RUN: env FLIPFLOP_OBJECTIVE=fastest %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/werror3.ptx -Werror 2>&1 | FileCheck %s --check-prefix=WERROR-OPT
// WERROR: warning: FlipFlop: unknown GPU 'H100-SMX5'{{.*}} [FF901] [-Wbackend-plugin]
// WERROR-NOT: error
// WERROR-OPT: warning: FlipFlop: invalid value 'fastest' for option 'objective' (from env){{.*}} (default kept) [FF901] [-Wbackend-plugin]
// WERROR-OPT-NOT: error
//
// Opting in makes it an error: -Werror=backend-plugin, or warnings=error.
// RUN: env FLIPFLOP_GPU=H100-SMX5 not %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/e1.ptx -Werror=backend-plugin 2>&1 | FileCheck %s --check-prefix=OPTIN
// RUN: env FLIPFLOP_GPU=H100-SMX5 FLIPFLOP_WARNINGS=error not %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/e2.ptx 2>&1 | FileCheck %s --check-prefix=OPTIN
// OPTIN: error: FlipFlop: unknown GPU 'H100-SMX5'{{.*}} [FF901]
//
// Silenced: -Wno-backend-plugin (also with -Werror), -w, warnings=off.
// RUN: env FLIPFLOP_GPU=H100-SMX5 %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/s1.ptx -Wno-backend-plugin 2>&1 | count 0
// RUN: env FLIPFLOP_GPU=H100-SMX5 %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/s2.ptx -Werror -Wno-backend-plugin 2>&1 | count 0
// RUN: env FLIPFLOP_GPU=H100-SMX5 %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/s3.ptx -Werror -w 2>&1 | count 0
// RUN: env FLIPFLOP_GPU=H100-SMX5 FLIPFLOP_WARNINGS=off %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/s4.ptx 2>&1 | count 0
// The remark stays for -R and the YAML record:
// RUN: env FLIPFLOP_GPU=H100-SMX5 FLIPFLOP_WARNINGS=off %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/s5.ptx -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-NOT: warning:
// REMARK: remark: [FF900] FlipFlop could not analyse kernel 'scale(float*, float, int)': unknown GPU 'H100-SMX5'
//
// ptxas asked for and not usable; report directory not writable; an
// internal failure (in the -O2 copy at -O0, too):
// RUN: env FLIPFLOP_PTXAS=%t/no/ptxas FLIPFLOP_REPORT_DIR=%t/afile/reports %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/p.ptx 2>&1 | FileCheck %s --check-prefix=PTXAS
// PTXAS-DAG: warning: FlipFlop: ptxas not used (ptxas not found at '{{.*}}/no/ptxas'): registers are estimated [FF901] [-Wbackend-plugin]
// PTXAS-DAG: warning: FlipFlop: could not write the report of '{{.*}}warnings.cu': cannot create '{{.*}}afile/reports'{{.*}} [FF902] [-Wbackend-plugin]
// RUN: %clang_ff_nocuda -fplugin=%ffplugin --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/c.ptx -mllvm -flipflop-internal-crash-test=scale 2>&1 | FileCheck %s --check-prefix=CRASH
// RUN: %clang_ff_nocuda -fplugin=%ffplugin --cuda-gpu-arch=sm_80 -O0 -S %s -I%flipflop_src/test/Inputs -o %t/c0.ptx -mllvm -flipflop-internal-crash-test=scale 2>&1 | FileCheck %s --check-prefix=CRASH
// RUN: cmp %t/c.ptx %t/ref.ptx
// CRASH: warning: FlipFlop: could not analyse kernel 'scale(float*, float, int)': internal error while profiling the kernel's IR; no recommendation [FF900] [-Wbackend-plugin]
#include "ff_cuda.h"
__global__ void scale(float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] *= a;
}
