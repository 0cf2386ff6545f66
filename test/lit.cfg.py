# lit configuration for FlipFlop. Substitutions:
#   %opt_ff          opt with FlipFlop.so loaded (-load-pass-plugin)
#   %profile         opt printing the plugin's kernel profiles
#   %clang_ff_cuda   clang++ -x cuda, device only, CUDA headers, plugin loaded
#   %clang_ff_nocuda the same without the CUDA headers (-nocudainc -nocudalib)
#   %clang_cuda      clang++ -x cuda, device only, without the plugin
#   %clang_cuda_host clang++ -x cuda, both sides, without the plugin
#   %clangxx         LLVM 22's clang++
#   %cu2ll           .cu -> device IR on stdout, without the CUDA toolkit
#   %ffplugin        path of FlipFlop.so
#   %ptxas           ptxas, or "false" without one
#   %cuda_path       the CUDA toolkit, or /nonexistent
#   %flipflop_src, %flipflop_obj: the source and build trees
#   %python          the Python running lit (for checker scripts)
# The tools (flipflop-ptx, flipflop-apply, flipflop-report, ...) are on
# PATH, by their names. test/Apply adds %apply_flags, test/Examples
# %example_remarks and %example_profile (their lit.local.cfg).
import os
import sys
import lit.formats

config.name = "FlipFlop"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".cu", ".ptx", ".test", ".cmake"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.flipflop_obj_root, "test")

llvm_bin = config.llvm_bin
config.environment["PATH"] = os.pathsep.join(
    [config.flipflop_bin, llvm_bin, config.environment.get("PATH", "")])
# Never let a developer's environment steer the tests.
# Every FLIPFLOP_* variable (the plugin reads a dozen; FLIPFLOP_FIT_* are
# the fitting scripts' hooks), whether lit passed it through or not.
for v in [k for k in list(os.environ) + list(config.environment)
          if k.startswith("FLIPFLOP_")]:
    config.environment.pop(v, None)
config.environment["FLIPFLOP_NO_CONFIG_SEARCH"] = "1"

plugin = config.flipflop_plugin
clang = os.path.join(llvm_bin, "clang++")
cuda = config.cuda_path
cuda_flags = "-x cuda -Wno-unknown-cuda-version --cuda-device-only"
if cuda:
    cuda_flags += " --cuda-path=%s" % cuda
    config.available_features.add("cuda")
else:
    lit_config.note("no CUDA toolkit: tests that need CUDA headers are unsupported")
# nvcc: CMake 3.25 finds the CUDA toolkit through nvcc even when clang is the
# CUDA compiler (test/CMakeProject).
if cuda and os.path.exists(os.path.join(cuda, "bin", "nvcc")):
    config.available_features.add("nvcc")
if config.ptxas:
    config.available_features.add("ptxas")
else:
    lit_config.note("no ptxas: ptxas-dependent tests are unsupported")

# Headless Chromium renders the HTML report (test/Report/chromium.test).
if os.path.exists("/usr/bin/chromium"):
    config.available_features.add("chromium")
else:
    lit_config.note("no /usr/bin/chromium: the HTML rendering test is unsupported")

config.substitutions.append(("%ffplugin", plugin))
config.substitutions.append(
    ("%opt_ff", "%s -load-pass-plugin=%s" % (os.path.join(llvm_bin, "opt"), plugin)))
config.substitutions.append(
    ("%clang_ff_nocuda", "%s -x cuda -Wno-unknown-cuda-version --cuda-device-only -nocudainc -nocudalib -fpass-plugin=%s" % (clang, plugin)))
config.substitutions.append(
    ("%clang_ff_cuda", "%s %s -fpass-plugin=%s" % (clang, cuda_flags, plugin)))
config.substitutions.append(
    ("%clang_cuda_host", "%s -x cuda -Wno-unknown-cuda-version %s" % (clang, ("--cuda-path=%s" % cuda) if cuda else "-nocudainc -nocudalib")))
config.substitutions.append(("%clang_cuda", "%s %s" % (clang, cuda_flags)))
config.substitutions.append(("%clangxx", clang))
# .cu -> device IR on stdout, without the CUDA toolkit (test/Inputs/ff_cuda.h).
config.substitutions.append(
    ("%cu2ll", "%s -x cuda -Wno-unknown-cuda-version --cuda-device-only -nocudainc -nocudalib -emit-llvm -S -I%s -o -" % (
        clang, os.path.join(config.flipflop_src_root, "test", "Inputs"))))
config.substitutions.append(("%profile", "opt -load-pass-plugin=%s '-passes=print<flipflop-profile>' -disable-output" % plugin))
config.substitutions.append(("%ptxas", config.ptxas or "false"))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%flipflop_src", config.flipflop_src_root))
config.substitutions.append(("%flipflop_obj", config.flipflop_obj_root))
config.substitutions.append(("%cuda_path", config.cuda_path or "/nonexistent"))
