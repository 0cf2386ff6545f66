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

Usage: scripts/sass-histogram.py FILE.ptx sm_XX [--ptxas PATH]
Standard library only.
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
    0x306: "I2F", 0x245: "I2FP", 0x305: "F2I",
}
WIDTHS = {0: "U8", 1: "S8", 2: "U16", 3: "S16", 4: "32", 5: "64", 6: "128"}
SIZED = {0x981, 0x986, 0x984, 0x388}


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


def histogram(cubin):
    counts = collections.Counter()
    for _, code in text_sections(cubin):
        for off in range(0, len(code) - 15, 16):
            lo, hi = struct.unpack_from("<QQ", code, off)
            op = lo & 0xFFF
            key = NAMES.get(op, "op%03x" % op)
            if op in SIZED:
                key += "." + WIDTHS.get((hi >> 9) & 7, "w%d" % ((hi >> 9) & 7))
            counts[key] += 1
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ptx")
    ap.add_argument("arch", help="sm_75, sm_80, sm_86, ...")
    ap.add_argument("--ptxas", default="ptxas")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "k.cubin")
        r = subprocess.run([a.ptxas, "-arch=" + a.arch, a.ptx, "-o", out],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
        if r.returncode != 0:
            sys.exit("sass-histogram: ptxas failed: " +
                     (r.stdout.strip().splitlines() or ["?"])[-1])
        with open(out, "rb") as f:
            counts = histogram(f.read())
    for key in sorted(counts, key=lambda k: (k.startswith("op"), k)):
        print("%-10s %d" % (key, counts[key]))


if __name__ == "__main__":
    main()
