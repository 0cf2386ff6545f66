"""PTX of a kernel that keeps N accumulators live through a loop of 64
passes (each pass loads one value and adds it, scaled, to every
accumulator), then stores them: the register pressure is about N. A
second argument adds launch bounds: .maxntid of that many threads."""
import sys

n = int(sys.argv[1])
bounds = ["  .maxntid %s, 1, 1" % sys.argv[2]] if len(sys.argv) > 2 else []
out = [".version 8.0", ".target sm_80", ".address_size 64", "",
       ".visible .entry acc%d(.param .u64 p, .param .u64 q)" % n] + bounds + ["{",
       "  .reg .b32 %r<4>;", "  .reg .f32 %%f<%d>;" % (n + 2),
       "  .reg .b64 %rd<8>;", "  .reg .pred %p<2>;",
       "  ld.param.u64 %rd1, [p];", "  ld.param.u64 %rd5, [q];",
       "  cvta.to.global.u64 %rd2, %rd1;", "  cvta.to.global.u64 %rd6, %rd5;",
       "  mov.u32 %r1, %tid.x;", "  mul.wide.u32 %rd3, %r1, 4;",
       "  add.s64 %rd4, %rd2, %rd3;", "  add.s64 %rd7, %rd6, %rd3;"]
out += ["  mov.f32 %%f%d, 0f00000000;" % (i + 1) for i in range(n)]
out += ["  mov.u32 %r2, 0;", "$L_loop:",
        "  ld.global.f32 %%f%d, [%%rd4];" % (n + 1)]
# Each accumulator scaled by its own constant, so none can be merged.
out += ["  fma.rn.f32 %%f%d, %%f%d, 0f%08X, %%f%d;" % (i + 1, n + 1, 0x3F800000 + i, i + 1)
        for i in range(n)]
out += ["  add.s64 %rd4, %rd4, 4096;", "  add.s32 %r2, %r2, 1;",
        "  setp.lt.u32 %p1, %r2, 64;", "  @%p1 bra $L_loop;"]
out += ["  st.global.f32 [%%rd7+%d], %%f%d;" % (4096 * i, i + 1) for i in range(n)]
out += ["  ret;", "}"]
print("\n".join(out))
