//===- CalibKernels.cpp - Hand-written PTX microbenchmarks ----------------===//
#include "CalibKernels.h"

namespace flipflop {
namespace measure {

namespace {
std::string reg(const char *Prefix, unsigned I) {
  return std::string("%") + Prefix + std::to_string(I);
}

/// A throughput kernel: CalibChains accumulators of register class \p Ty
/// (".f32", ".f64", ".b32"), initialised by \p Init from the thread id in
/// %r9 (u32) then updated by \p Op ("{a}" is the accumulator), summed with
/// \p Combine and stored as \p StoreTy.
std::string throughputKernel(const std::string &Name, const std::string &Ty,
                             const std::string &Init, const std::string &Op,
                             const std::string &Combine,
                             const std::string &StoreTy,
                             const std::string &Consts) {
  std::string P = Ty == ".f64" ? "d" : (Ty == ".f32" ? "f" : "a");
  std::string S;
  S += ".extern .shared .align 16 .b8 " + Name + "_dsmem[];\n\n";
  S += ".visible .entry " + Name + "(\n"
       "\t.param .u64 " + Name + "_out,\n"
       "\t.param .u32 " + Name + "_iters\n)\n{\n";
  S += "\t.reg .pred %p<2>;\n\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<6>;\n";
  S += "\t.reg " + Ty + " %" + P + "<" + std::to_string(CalibChains + 4) + ">;\n";
  S += "\tld.param.u64 %rd1, [" + Name + "_out];\n";
  S += "\tld.param.u32 %r1, [" + Name + "_iters];\n";
  S += "\tmov.u32 %r2, %tid.x;\n\tmov.u32 %r3, %ctaid.x;\n\tmov.u32 %r4, %ntid.x;\n";
  S += "\tmad.lo.u32 %r9, %r3, %r4, %r2;\n";
  // Touch dynamic shared memory once (thread 0 of each block).
  S += "\tsetp.ne.u32 %p1, %r2, 0;\n\t@%p1 bra " + Name + "_init;\n";
  S += "\tmov.u32 %r5, " + Name + "_dsmem;\n\tst.shared.u32 [%r5], %r9;\n";
  S += Name + "_init:\n";
  S += Consts;
  for (unsigned C = 0; C < CalibChains; ++C) {
    std::string Line = Init;
    for (size_t Pos; (Pos = Line.find("{a}")) != std::string::npos;)
      Line.replace(Pos, 3, reg(P.c_str(), C));
    for (size_t Pos; (Pos = Line.find("{c}")) != std::string::npos;)
      Line.replace(Pos, 3, std::to_string(C + 1));
    S += "\t" + Line + "\n";
  }
  S += "\tmov.u32 %r6, 0;\n";
  S += "\tsetp.eq.u32 %p1, %r1, 0;\n\t@%p1 bra " + Name + "_done;\n";
  S += Name + "_loop:\n";
  for (unsigned U = 0; U < CalibUnroll; ++U)
    for (unsigned C = 0; C < CalibChains; ++C) {
      std::string Line = Op;
      for (size_t Pos; (Pos = Line.find("{a}")) != std::string::npos;)
        Line.replace(Pos, 3, reg(P.c_str(), C));
      S += "\t" + Line + "\n";
    }
  S += "\tadd.u32 %r6, %r6, 1;\n\tsetp.lt.u32 %p1, %r6, %r1;\n";
  S += "\t@%p1 bra " + Name + "_loop;\n";
  S += Name + "_done:\n";
  for (unsigned C = 1; C < CalibChains; ++C) {
    std::string Line = Combine;
    for (size_t Pos; (Pos = Line.find("{a}")) != std::string::npos;)
      Line.replace(Pos, 3, reg(P.c_str(), 0));
    for (size_t Pos; (Pos = Line.find("{b}")) != std::string::npos;)
      Line.replace(Pos, 3, reg(P.c_str(), C));
    S += "\t" + Line + "\n";
  }
  unsigned Bytes = Ty == ".f64" ? 8 : 4;
  S += "\tmul.wide.u32 %rd2, %r9, " + std::to_string(Bytes) + ";\n";
  S += "\tadd.u64 %rd3, %rd1, %rd2;\n";
  S += "\tst.global" + StoreTy + " [%rd3], " + reg(P.c_str(), 0) + ";\n";
  S += "\tret;\n}\n\n";
  return S;
}

const char *ReadKernel = R"(.visible .entry ff_read(
	.param .u64 ff_read_in,
	.param .u64 ff_read_out,
	.param .u64 ff_read_nvec,
	.param .u32 ff_read_passes
)
{
	.reg .pred %p<3>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<12>;
	.reg .f32 %f<12>;
	ld.param.u64 %rd1, [ff_read_in];
	ld.param.u64 %rd2, [ff_read_out];
	ld.param.u64 %rd3, [ff_read_nvec];
	ld.param.u32 %r1, [ff_read_passes];
	mov.u32 %r2, %tid.x;
	mov.u32 %r3, %ctaid.x;
	mov.u32 %r4, %ntid.x;
	mov.u32 %r5, %nctaid.x;
	mad.lo.u32 %r6, %r3, %r4, %r2;
	mul.wide.u32 %rd4, %r4, %r5;
	mov.f32 %f1, 0f00000000;
	mov.f32 %f2, 0f00000000;
	mov.f32 %f3, 0f00000000;
	mov.f32 %f4, 0f00000000;
	mov.u32 %r7, 0;
ff_read_pass:
	setp.ge.u32 %p1, %r7, %r1;
	@%p1 bra ff_read_done;
	cvt.u64.u32 %rd5, %r6;
ff_read_loop:
	setp.ge.u64 %p2, %rd5, %rd3;
	@%p2 bra ff_read_next;
	shl.b64 %rd6, %rd5, 4;
	add.u64 %rd7, %rd1, %rd6;
	ld.global.cg.v4.f32 {%f5, %f6, %f7, %f8}, [%rd7];
	add.f32 %f1, %f1, %f5;
	add.f32 %f2, %f2, %f6;
	add.f32 %f3, %f3, %f7;
	add.f32 %f4, %f4, %f8;
	add.u64 %rd5, %rd5, %rd4;
	bra.uni ff_read_loop;
ff_read_next:
	add.u32 %r7, %r7, 1;
	bra.uni ff_read_pass;
ff_read_done:
	add.f32 %f1, %f1, %f2;
	add.f32 %f3, %f3, %f4;
	add.f32 %f1, %f1, %f3;
	mul.wide.u32 %rd8, %r6, 4;
	add.u64 %rd9, %rd2, %rd8;
	st.global.f32 [%rd9], %f1;
	ret;
}

.visible .entry ff_strided(
	.param .u64 ff_strided_in,
	.param .u64 ff_strided_out,
	.param .u64 ff_strided_mask,
	.param .u32 ff_strided_stride,
	.param .u32 ff_strided_iters
)
{
	.reg .pred %p<2>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<12>;
	.reg .f32 %f<4>;
	ld.param.u64 %rd1, [ff_strided_in];
	ld.param.u64 %rd2, [ff_strided_out];
	ld.param.u64 %rd3, [ff_strided_mask];
	ld.param.u32 %r1, [ff_strided_stride];
	ld.param.u32 %r2, [ff_strided_iters];
	mov.u32 %r3, %tid.x;
	mov.u32 %r4, %ctaid.x;
	mov.u32 %r5, %ntid.x;
	mov.u32 %r6, %nctaid.x;
	mad.lo.u32 %r7, %r4, %r5, %r3;
	mul.wide.u32 %rd4, %r5, %r6;
	cvt.u64.u32 %rd10, %r1;
	mul.lo.u64 %rd4, %rd4, %rd10;
	mul.wide.u32 %rd5, %r7, %r1;
	mov.f32 %f1, 0f00000000;
	mov.u32 %r8, 0;
	setp.eq.u32 %p1, %r2, 0;
	@%p1 bra ff_strided_done;
ff_strided_loop:
	and.b64 %rd6, %rd5, %rd3;
	shl.b64 %rd7, %rd6, 2;
	add.u64 %rd8, %rd1, %rd7;
	ld.global.cg.f32 %f2, [%rd8];
	add.f32 %f1, %f1, %f2;
	add.u64 %rd5, %rd5, %rd4;
	add.u32 %r8, %r8, 1;
	setp.lt.u32 %p1, %r8, %r2;
	@%p1 bra ff_strided_loop;
ff_strided_done:
	mul.wide.u32 %rd9, %r7, 4;
	add.u64 %rd9, %rd2, %rd9;
	st.global.f32 [%rd9], %f1;
	ret;
}

.visible .entry ff_smem(
	.param .u64 ff_smem_out,
	.param .u32 ff_smem_iters,
	.param .u32 ff_smem_stride
)
{
	.reg .pred %p<2>;
	.reg .b32 %r<20>;
	.reg .b64 %rd<4>;
	.shared .align 4 .b32 ff_smem_buf[8192];
	ld.param.u64 %rd1, [ff_smem_out];
	ld.param.u32 %r1, [ff_smem_iters];
	ld.param.u32 %r2, [ff_smem_stride];
	mov.u32 %r3, %tid.x;
	mov.u32 %r4, %ntid.x;
	mov.u32 %r5, ff_smem_buf;
	// Fill the buffer: thread t writes words t, t+ntid, ...
	mov.u32 %r6, %r3;
ff_smem_fill:
	setp.ge.u32 %p1, %r6, 8192;
	@%p1 bra ff_smem_filled;
	shl.b32 %r7, %r6, 2;
	add.u32 %r7, %r5, %r7;
	st.shared.u32 [%r7], %r6;
	add.u32 %r6, %r6, %r4;
	bra.uni ff_smem_fill;
ff_smem_filled:
	bar.sync 0;
	// Lane l reads word (l * stride) & 1023, and the same plus 1024*k.
	and.b32 %r8, %r3, 31;
	mul.lo.u32 %r8, %r8, %r2;
	and.b32 %r8, %r8, 1023;
	shl.b32 %r8, %r8, 2;
	add.u32 %r8, %r5, %r8;
	mov.u32 %r10, 0;
	mov.u32 %r11, 0;
	mov.u32 %r12, 0;
	mov.u32 %r13, 0;
	mov.u32 %r9, 0;
	setp.eq.u32 %p1, %r1, 0;
	@%p1 bra ff_smem_done;
ff_smem_loop:
	ld.volatile.shared.u32 %r14, [%r8];
	ld.volatile.shared.u32 %r15, [%r8+4096];
	ld.volatile.shared.u32 %r16, [%r8+8192];
	ld.volatile.shared.u32 %r17, [%r8+12288];
	add.u32 %r10, %r10, %r14;
	add.u32 %r11, %r11, %r15;
	add.u32 %r12, %r12, %r16;
	add.u32 %r13, %r13, %r17;
	add.u32 %r9, %r9, 1;
	setp.lt.u32 %p1, %r9, %r1;
	@%p1 bra ff_smem_loop;
ff_smem_done:
	add.u32 %r10, %r10, %r11;
	add.u32 %r12, %r12, %r13;
	add.u32 %r10, %r10, %r12;
	mov.u32 %r18, %ctaid.x;
	mad.lo.u32 %r18, %r18, %r4, %r3;
	mul.wide.u32 %rd2, %r18, 4;
	add.u64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r10;
	ret;
}

)";

std::string chaseKernel(const std::string &Name, const std::string &Cache) {
  return ".visible .entry " + Name + "(\n"
         "\t.param .u64 " + Name + "_buf,\n"
         "\t.param .u64 " + Name + "_out,\n"
         "\t.param .u32 " + Name + "_steps\n)\n{\n"
         "\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n"
         "\tld.param.u64 %rd1, [" + Name + "_buf];\n"
         "\tld.param.u64 %rd2, [" + Name + "_out];\n"
         "\tld.param.u32 %r1, [" + Name + "_steps];\n"
         "\tmov.u32 %r2, 0;\n\tmov.u32 %r3, 0;\n"
         "\tsetp.eq.u32 %p1, %r1, 0;\n\t@%p1 bra " + Name + "_done;\n" +
         Name + "_loop:\n"
         "\tmul.wide.u32 %rd3, %r2, 4;\n"
         "\tadd.u64 %rd4, %rd1, %rd3;\n"
         "\tld.global" + Cache + ".u32 %r2, [%rd4];\n"
         "\tadd.u32 %r3, %r3, 1;\n"
         "\tsetp.lt.u32 %p1, %r3, %r1;\n"
         "\t@%p1 bra " + Name + "_loop;\n" +
         Name + "_done:\n"
         "\tst.global.u32 [%rd2], %r2;\n\tret;\n}\n\n";
}

const char *ChaseSmemKernel = R"(.visible .entry ff_chase_smem(
	.param .u64 ff_chase_smem_out,
	.param .u32 ff_chase_smem_steps,
	.param .u32 ff_chase_smem_words
)
{
	.reg .pred %p<2>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<4>;
	.shared .align 4 .b32 ff_chase_smem_buf[8192];
	ld.param.u64 %rd1, [ff_chase_smem_out];
	ld.param.u32 %r1, [ff_chase_smem_steps];
	ld.param.u32 %r2, [ff_chase_smem_words];
	mov.u32 %r3, ff_chase_smem_buf;
	// buf[i] = byte offset of word (i + 33) % words: a stride that walks
	// every bank.
	mov.u32 %r4, 0;
ff_chase_smem_fill:
	setp.ge.u32 %p1, %r4, %r2;
	@%p1 bra ff_chase_smem_filled;
	add.u32 %r5, %r4, 33;
	rem.u32 %r5, %r5, %r2;
	shl.b32 %r5, %r5, 2;
	add.u32 %r5, %r5, %r3;
	shl.b32 %r6, %r4, 2;
	add.u32 %r6, %r6, %r3;
	st.shared.u32 [%r6], %r5;
	add.u32 %r4, %r4, 1;
	bra.uni ff_chase_smem_fill;
ff_chase_smem_filled:
	mov.u32 %r7, %r3;
	mov.u32 %r8, 0;
	setp.eq.u32 %p1, %r1, 0;
	@%p1 bra ff_chase_smem_done;
ff_chase_smem_loop:
	ld.volatile.shared.u32 %r7, [%r7];
	add.u32 %r8, %r8, 1;
	setp.lt.u32 %p1, %r8, %r1;
	@%p1 bra ff_chase_smem_loop;
ff_chase_smem_done:
	st.global.u32 [%rd1], %r7;
	ret;
}

)";
} // namespace

std::string calibrationPtx() {
  std::string S = "//\n// FlipFlop calibration microbenchmarks (generated by "
                  "flipflop-calibrate).\n//\n.version 7.0\n.target sm_70\n"
                  ".address_size 64\n\n";
  // FP32: a = a * 0.999 + 0.001 keeps values bounded.
  S += throughputKernel("ff_fp32", ".f32", "cvt.rn.f32.u32 {a}, %r9;",
                        "fma.rn.f32 {a}, {a}, %f10, %f11;",
                        "add.f32 {a}, {a}, {b};", ".f32",
                        "\tmov.f32 %f10, 0f3F7FBE77;\n\tmov.f32 %f11, 0f3A83126F;\n");
  S += throughputKernel("ff_fp64", ".f64", "cvt.rn.f64.u32 {a}, %r9;",
                        "fma.rn.f64 {a}, {a}, %d10, %d11;",
                        "add.f64 {a}, {a}, {b};", ".f64",
                        "\tmov.f64 %d10, 0d3FEFF7CED916872B;\n"
                        "\tmov.f64 %d11, 0d3F50624DD2F1A9FC;\n");
  // INT32: add and xor alternate in each chain (both run on the INT pipe).
  S += throughputKernel("ff_int32", ".b32", "add.u32 {a}, %r9, {c};",
                        "add.u32 {a}, {a}, %a10;\n\txor.b32 {a}, {a}, %a11;",
                        "add.u32 {a}, {a}, {b};", ".u32",
                        "\tmov.u32 %a10, 40503;\n\tmov.u32 %a11, 2654435769;\n");
  S += throughputKernel("ff_imul", ".b32", "add.u32 {a}, %r9, {c};",
                        "mad.lo.u32 {a}, {a}, {a}, %a11;",
                        "add.u32 {a}, {a}, {b};", ".u32",
                        "\tmov.u32 %a10, 1664525;\n\tmov.u32 %a11, 1013904223;\n");
  // SFU: reciprocal square root of a positive value stays positive.
  S += throughputKernel("ff_sfu", ".f32",
                        "cvt.rn.f32.u32 {a}, %r9;\n\tadd.f32 {a}, {a}, 0f3F800000;",
                        "rsqrt.approx.ftz.f32 {a}, {a};",
                        "add.f32 {a}, {a}, {b};", ".f32", "");
  S += ReadKernel;
  S += chaseKernel("ff_chase_ca", ".ca");
  S += chaseKernel("ff_chase_cg", ".cg");
  S += ChaseSmemKernel;
  return S;
}

} // namespace measure
} // namespace flipflop
