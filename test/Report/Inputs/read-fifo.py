"""read-fifo.py FIFO CMD...: runs CMD while reading FIFO; prints what came
through the FIFO. Fails (instead of hanging) after 60 seconds."""
import subprocess, sys, threading

fifo, cmd = sys.argv[1], sys.argv[2:]
got = []


def reader():
    with open(fifo, "rb") as f:
        got.append(f.read())


t = threading.Thread(target=reader, daemon=True)
t.start()
subprocess.run(cmd, check=True, timeout=60)
t.join(60)
if t.is_alive():
    sys.exit("read-fifo.py: nothing arrived through " + fifo)
sys.stdout.write(got[0].decode())
