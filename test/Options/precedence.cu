// Option precedence: -mllvm beats the environment, which beats the config
// file, which beats the built-in default (the GPU from sm_XX).
// RUN: rm -rf %t && mkdir -p %t/sub && cp %S/../Plugin/Inputs/saxpy.cu %t/sub/k.cu
// RUN: echo '{"gpu": "T4", "objective": "time"}' > %t/.flipflop.json
// Default (config search off in tests unless asked):
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %t/sub/k.cu -I%flipflop_src/test/Inputs -o /dev/null -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=DEFAULT
// Config file found upward from the source:
// RUN: env -u FLIPFLOP_NO_CONFIG_SEARCH %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %t/sub/k.cu -I%flipflop_src/test/Inputs -o /dev/null -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=CONFIG
// Named config file:
// RUN: env FLIPFLOP_CONFIG=%t/.flipflop.json %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %t/sub/k.cu -I%flipflop_src/test/Inputs -o /dev/null -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=CONFIG
// Environment beats the config file (objective still from the config):
// RUN: env FLIPFLOP_CONFIG=%t/.flipflop.json FLIPFLOP_GPU=L4 %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %t/sub/k.cu -I%flipflop_src/test/Inputs -o /dev/null -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=ENV
// -mllvm beats the environment:
// RUN: env FLIPFLOP_CONFIG=%t/.flipflop.json FLIPFLOP_GPU=L4 %clang_ff_nocuda -fplugin=%ffplugin -mllvm -flipflop-gpu=A10 --cuda-gpu-arch=sm_80 -O2 -S %t/sub/k.cu -I%flipflop_src/test/Inputs -o /dev/null -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=CL
// DEFAULT: on A100-SXM4-40GB: for energy use
// CONFIG: on T4: for time use
// ENV: on L4: for time use
// CL: on A10: for time use
