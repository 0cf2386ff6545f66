// Trust model of config files (docs/SECURITY.md, issue 17): a .flipflop.json
// found by searching from the source may not name a program, a place to
// write or change the generated code; the search stops at the project root;
// a config file that is not a small regular file is refused without being
// read (no hang on a FIFO, no out-of-memory on /dev/zero). Each refusal is a
// warning in clang's usual form, and the compile succeeds.
//
// RUN: rm -rf %t && mkdir -p %t/proj/.git %t/proj/src
// RUN: cp %S/../Plugin/Inputs/saxpy.cu %t/proj/src/saxpy.cu
// RUN: printf '#!/bin/sh\ntouch %t/ran\nexit 1\n' > %t/proj/src/fake-ptxas
// RUN: chmod +x %t/proj/src/fake-ptxas
// RUN: echo '{"ptxas": "%t/proj/src/fake-ptxas", "report_dir": "%t/written", "apply_bounds": "on", "objective": "time"}' > %t/proj/.flipflop.json
// RUN: env -u FLIPFLOP_NO_CONFIG_SEARCH %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %t/proj/src/saxpy.cu -I%flipflop_src/test/Inputs -o %t/a.s -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=HOSTILE
// RUN: not test -e %t/ran
// RUN: not test -e %t/written
// RUN: not grep maxntid %t/a.s
// HOSTILE-DAG: warning: FlipFlop: config file '{{.*}}.flipflop.json': option 'ptxas' refused: {{.*}} [-Wbackend-plugin]
// HOSTILE-DAG: warning: FlipFlop: config file '{{.*}}.flipflop.json': option 'report_dir' refused
// HOSTILE-DAG: warning: FlipFlop: config file '{{.*}}.flipflop.json': option 'apply_bounds' refused
// Analysis options from the same file still apply:
// HOSTILE-DAG: remark: [FF001] kernel 'saxpy{{.*}}' on A100-SXM4-40GB: for time use
//
// The same settings from a file the user names are trusted.
// RUN: env FLIPFLOP_CONFIG=%t/proj/.flipflop.json %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %t/proj/src/saxpy.cu -I%flipflop_src/test/Inputs -o %t/b.s 2>&1 | FileCheck %s --allow-empty --check-prefix=NAMED
// RUN: ls %t/written | FileCheck %s --check-prefix=REPORT
// NAMED-NOT: refused
// REPORT: saxpy.cu-{{.*}}.flipflop.json
//
// A config file writable by others is skipped.
// RUN: echo '{"objective": "time"}' > %t/proj/.flipflop.json && chmod 666 %t/proj/.flipflop.json
// RUN: env -u FLIPFLOP_NO_CONFIG_SEARCH %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %t/proj/src/saxpy.cu -I%flipflop_src/test/Inputs -o %t/c.s -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=WRITABLE
// WRITABLE: warning: FlipFlop: config file '{{.*}}.flipflop.json' ignored: writable by group or others
// WRITABLE: remark: [FF001] kernel 'saxpy{{.*}} for energy use
//
// The search stops at the project root (the directory holding .git).
// RUN: rm %t/proj/.flipflop.json && echo '{"objective": "time"}' > %t/.flipflop.json
// RUN: env -u FLIPFLOP_NO_CONFIG_SEARCH %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %t/proj/src/saxpy.cu -I%flipflop_src/test/Inputs -o %t/d.s -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=ROOT
// ROOT: remark: [FF001] kernel 'saxpy{{.*}} for energy use
//
// Not a regular file: refused before reading.
// RUN: env FLIPFLOP_CONFIG=/dev/zero %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %t/proj/src/saxpy.cu -I%flipflop_src/test/Inputs -o %t/e.s 2>&1 | FileCheck %s --check-prefix=DEVZERO
// DEVZERO: warning: FlipFlop: cannot read config file '/dev/zero': not a regular file
// RUN: mkfifo %t/fifo.json
// RUN: env FLIPFLOP_CONFIG=%t/fifo.json %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %t/proj/src/saxpy.cu -I%flipflop_src/test/Inputs -o %t/f.s 2>&1 | FileCheck %s --check-prefix=FIFO
// FIFO: warning: FlipFlop: cannot read config file '{{.*}}fifo.json': not a regular file
