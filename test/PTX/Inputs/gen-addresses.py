"""PTX of a kernel that computes N output addresses from its thread index
and a parameter before a loop of 64 passes and stores to them after it:
held, the addresses take about 2N registers through the loop; ptxas can
compute each again where it is stored."""
import sys

n = int(sys.argv[1])
out = [".version 8.0", ".target sm_80", ".address_size 64", "",
       ".visible .entry addr%d(.param .u64 p, .param .u64 q)" % n, "{",
       "  .reg .b32 %%r<%d>;" % (n + 4), "  .reg .f32 %f<4>;",
       "  .reg .b64 %%rd<%d>;" % (2 * n + 8), "  .reg .pred %p<2>;",
       "  ld.param.u64 %rd1, [p];", "  ld.param.u64 %rd2, [q];",
       "  cvta.to.global.u64 %rd3, %rd1;", "  cvta.to.global.u64 %rd4, %rd2;",
       "  mov.u32 %r1, %tid.x;", "  mul.wide.u32 %rd5, %r1, 4;",
       "  add.s64 %rd6, %rd3, %rd5;"]
for i in range(n):
    out += ["  mul.lo.s32 %%r%d, %%r1, %d;" % (i + 3, 17 + 2 * i),
            "  mul.wide.s32 %%rd%d, %%r%d, 4;" % (7 + 2 * i, i + 3),
            "  add.s64 %%rd%d, %%rd4, %%rd%d;" % (8 + 2 * i, 7 + 2 * i)]
out += ["  mov.f32 %f1, 0f00000000;", "  mov.u32 %r2, 0;", "$L_loop:",
        "  ld.global.f32 %f2, [%rd6];", "  add.f32 %f1, %f1, %f2;",
        "  add.s64 %rd6, %rd6, 4096;", "  add.s32 %r2, %r2, 1;",
        "  setp.lt.u32 %p1, %r2, 64;", "  @%p1 bra $L_loop;"]
out += ["  st.global.f32 [%%rd%d], %%f1;" % (8 + 2 * i) for i in range(n)]
out += ["  ret;", "}"]
print("\n".join(out))
