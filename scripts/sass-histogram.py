#!/usr/bin/env python3
"""Histogram of the SASS instructions ptxas makes of a PTX file.

The CUDA toolkit this project finds may ship without a disassembler
(nvdisasm, cuobjdump), yet what ptxas does to the PTX decides what the model
should count: whether scalar shared loads become LDS.128, which pipe a
conversion runs on. This script compiles the PTX with `ptxas -arch=ARCH`,
reads the cubin's `.text` sections (ELF64) and counts each 128-bit
instruction word by its opcode field (the low 12 bits of the first 64-bit
half, Volta and later). Loads and stores also get their width field (bits
9-11 of the second half).

The names below were identified by compiling one PTX instruction at a time
and comparing the words (session 13; docs/MODEL.md, "Conversions" and
"Vector accesses the compiler forms"); verified on sm_75, sm_80 and sm_86,
the conversions also on sm_87, sm_89, sm_90, sm_100 and sm_120. Any other
opcode is printed as its number. This is a diagnostic for the people who
build FlipFlop, not part of it: the SASS encoding is not documented and may
change.

With --schedule it also reads each instruction's control field (the top 23
bits of the word, Volta and later; Jia et al., "Dissecting the NVIDIA Volta
GPU Architecture via Microbenchmarking", 2018, section 2): the stall count
ptxas gives it (cycles before the warp may issue its next instruction), and
the scoreboards a variable-latency instruction sets and a later one waits
on. Per kernel it prints the instructions, the sum of their stalls (the
static schedule of one warp that never waits on a scoreboard) and, for
shared and global loads, the median number of instructions between a load
and the first instruction that waits for it (how much of the load's
latency the schedule covers). Checked on sm_80 and sm_86: a run of FFMA
stalls 2 cycles each on sm_80 (16 FP32 lanes a partition) and 1 on sm_86
(32), and every LDS of a 15 x 15 convolution sets a scoreboard that a
later instruction waits on (session 39, docs/FIDELITY.md).

With --sequence it prints each kernel's instructions in order, runs of
one name as NAMExN: where the loads of a phase sit against its stores and
barriers (session 56: ptxas issues a guarded tile's 16 LDG before its
first STS, where the PTX has each load in a basic block of its own).

Usage: scripts/sass-histogram.py FILE.ptx|FILE.cubin sm_XX [--ptxas PATH]
       [--schedule] [--sequence]
A .cubin (nvcc -cubin, or ptxas -o) is read as it is (the arch argument
is then not used). Standard library only.
"""
import argparse
import collections
import os
import struct
import subprocess
import sys
import tempfile

NAMES = {
    0x981: "LDG", 0x986: "STG", 0x984: "LDS", 0x388: "STS",
    # Global accesses addressed by a register alone (no uniform-register
    # operand): sm_75's form of the same loads and stores (session 39).
    0x381: "LDG", 0x386: "STG",
    0x306: "I2F", 0x245: "I2FP", 0x305: "F2I",
    # fma.rn.f32 with a register, an immediate or a constant-bank third
    # operand (session 39: the counts of fma in the PTX, sm_80 and sm_86).
    0x223: "FFMA", 0x823: "FFMA", 0xA23: "FFMA",
    # bar.sync (session 56: one PTX barrier compiled alone, sm_86).
    0xB1D: "BAR",
}
WIDTHS = {0: "U8", 1: "S8", 2: "U16", 3: "S16", 4: "32", 5: "64", 6: "128"}
SIZED = {0x981, 0x986, 0x984, 0x388, 0x381, 0x386}


def text_sections(data):
    """(name, bytes) of each .text section of an ELF64 little-endian file."""
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise ValueError("not an ELF64 file")
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
            for i in range(shnum)]
    strtab_off = secs[shstrndx][4]
    for sec in secs:
        raw = data[strtab_off + sec[0]:]
        name = raw[:raw.index(b"\0")].decode()
        if name.startswith(".text"):
            yield name, data[sec[4]:sec[4] + sec[5]]


def words(code):
    """(lo, hi) 64-bit halves of each 128-bit instruction of \p code."""
    for off in range(0, len(code) - 15, 16):
        yield struct.unpack_from("<QQ", code, off)


def schedule(code):
    """Static schedule of one .text section (see --schedule above)."""
    n = stalls = 0
    pending = {}  # scoreboard -> [index of the load that set it]
    gaps = {"LDS": [], "LDG": []}
    for i, (lo, hi) in enumerate(words(code)):
        ctrl = hi >> 41
        stalls += ctrl & 0xF
        wait = (ctrl >> 11) & 0x3F
        for sb in range(6):
            if wait >> sb & 1 and sb in pending:
                for kind, at in pending.pop(sb):
                    gaps[kind].append(i - at)
        op = lo & 0xFFF
        wbar = (ctrl >> 5) & 7
        if op in (0x984, 0x981, 0x381) and wbar != 7:
            pending.setdefault(wbar, []).append(
                ("LDS" if op == 0x984 else "LDG", i))
        n += 1
    return n, stalls, gaps


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if v else None


def histogram(cubin):
    counts = collections.Counter()
    for _, code in text_sections(cubin):
        for lo, hi in words(code):
            counts[name_of(lo, hi)] += 1
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ptx")
    ap.add_argument("arch", help="sm_75, sm_80, sm_86, ...")
    ap.add_argument("--ptxas", default="ptxas")
    ap.add_argument("--schedule", action="store_true",
                    help="also each kernel's static schedule")
    ap.add_argument("--sequence", action="store_true",
                    help="also each kernel's instructions in order")
    a = ap.parse_args()
    if a.ptx.endswith(".cubin"):
        try:
            with open(a.ptx, "rb") as f:
                data = f.read()
        except OSError as e:
            sys.exit("sass-histogram: %s: %s" % (a.ptx, e.strerror))
        report(data, a.schedule, a.sequence)
        return
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "k.cubin")
        r = subprocess.run([a.ptxas, "-arch=" + a.arch, a.ptx, "-o", out],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
        if r.returncode != 0:
            sys.exit("sass-histogram: ptxas failed: " +
                     (r.stdout.strip().splitlines() or ["?"])[-1])
        with open(out, "rb") as f:
            report(f.read(), a.schedule, a.sequence)


def name_of(lo, hi):
    op = lo & 0xFFF
    key = NAMES.get(op, "op%03x" % op)
    if op in SIZED:
        key += "." + WIDTHS.get((hi >> 9) & 7, "w%d" % ((hi >> 9) & 7))
    return key


def sequence(code):
    """The instructions of one .text section in order, runs collapsed."""
    out = []
    for lo, hi in words(code):
        key = name_of(lo, hi)
        if out and out[-1][0] == key:
            out[-1][1] += 1
        else:
            out.append([key, 1])
    return " ".join(k if n == 1 else "%sx%d" % (k, n) for k, n in out)


def report(cubin, with_schedule, with_sequence=False):
    try:
        counts = histogram(cubin)
    except ValueError as e:
        sys.exit("sass-histogram: " + str(e))
    for key in sorted(counts, key=lambda k: (k.startswith("op"), k)):
        print("%-10s %d" % (key, counts[key]))
    if with_sequence:
        for name, code in text_sections(cubin):
            print("%s: %s" % (name[len(".text."):] or name, sequence(code)))
    if not with_schedule:
        return
    for name, code in text_sections(cubin):
        n, stalls, gaps = schedule(code)
        line = "%s: %d instructions, %d stall cycles" % (
            name[len(".text."):] or name, n, stalls)
        for kind in ("LDS", "LDG"):
            if gaps[kind]:
                line += ", %s covered by %d (median of %d)" % (
                    kind, median(gaps[kind]), len(gaps[kind]))
        print(line)


if __name__ == "__main__":
    main()
