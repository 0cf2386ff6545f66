#!/usr/bin/env python3
"""Compiles every .cu file of a directory with one command line, the plugin
writing its JSON report into a directory (FLIPFLOP_REPORT_DIR).

usage: compile_all.py REPORT_DIR SOURCE_DIR -- COMMAND...
Runs COMMAND + [file] for each SOURCE_DIR/*.cu, two at a time; prints the
stderr of a failing compile and exits 1 if any fails.
"""
import concurrent.futures
import glob
import os
import subprocess
import sys


def main(argv):
    if "--" not in argv or argv.index("--") != 3:
        sys.exit("usage: compile_all.py REPORT_DIR SOURCE_DIR -- COMMAND...")
    report_dir, source_dir, command = argv[1], argv[2], argv[4:]
    os.makedirs(report_dir, exist_ok=True)
    env = dict(os.environ, FLIPFLOP_REPORT_DIR=os.path.abspath(report_dir))
    sources = sorted(glob.glob(os.path.join(source_dir, "*.cu")))
    if not sources:
        sys.exit("no .cu files in %s" % source_dir)

    def run(src):
        p = subprocess.run(command + [src], env=env, capture_output=True, text=True)
        return src, p.returncode, p.stderr

    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for src, rc, err in pool.map(run, sources):
            if rc:
                failed += 1
                sys.stderr.write("%s: exit %d\n%s" % (src, rc, err))
    print("compiled %d files, %d failed" % (len(sources), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
