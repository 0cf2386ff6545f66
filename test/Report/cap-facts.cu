// With ptxas on, the report carries ptxas's result under each register cap
// the sweep tried (resources.cap_facts: cap, registers, spill_bytes), the
// fact flipflop-apply needs before it writes a min-blocks cap
// (test/Apply/min-blocks.test); without ptxas there are none.
// REQUIRES: ptxas, cuda
// RUN: rm -rf %t && mkdir -p %t/on %t/off
// RUN: env FLIPFLOP_PTXAS=on FLIPFLOP_REPORT_DIR=%t/on %clang_ff_cuda -std=c++17 -O2 --cuda-gpu-arch=sm_80 -I%flipflop_src/examples -S %flipflop_src/examples/attention_flash.cu -o %t/on.s
// RUN: env FLIPFLOP_REPORT_DIR=%t/off %clang_ff_cuda -std=c++17 -O2 --cuda-gpu-arch=sm_80 -I%flipflop_src/examples -S %flipflop_src/examples/attention_flash.cu -o %t/off.s
// RUN: python3 -c "import json,glob; [print('facts', k['name'], [sorted(f) for f in k['resources']['cap_facts']]) for k in json.load(open(glob.glob('%t/on/*.json')[0]))['kernels'] if 'cap_facts' in k['resources']]" | FileCheck %s
// RUN: cat %t/off/*.json | FileCheck %s --check-prefix=OFF
// CHECK: facts _Z14attentionFlash{{.*}} {{\[}}['cap', 'registers', 'spill_bytes']
// OFF-NOT: cap_facts
