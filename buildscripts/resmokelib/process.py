"""Paths of the repository, log tails and running one test process."""

import os
import signal
import subprocess
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def tail(path, lines=40):
    try:
        with open(path, "rb") as f:
            data = f.read()[-200000:]
    except OSError:
        return "(no log at %s)" % path
    text = data.decode("utf-8", "replace").splitlines()
    return "\n".join(text[-lines:])


def indent(text, prefix="    | "):
    return "\n".join(prefix + l for l in text.rstrip().splitlines())


def run_process(args, env, timeout, log_path, cwd=REPO):
    """Runs a test command; returns (exit code or None on timeout, output, seconds)."""
    start = time.time()
    with open(log_path, "wb") as out:
        out.write(("# %s\n" % " ".join(args)).encode())
        out.flush()
        try:
            proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=cwd,
                                    stdin=subprocess.DEVNULL, start_new_session=True)
        except OSError as e:
            return -1, "could not start %s: %s" % (args[0], e), time.time() - start
        try:
            code = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            # The test may have started servers of its own: end its whole process group.
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass
            proc.wait()
            code = None
    with open(log_path, "rb") as f:
        output = f.read().decode("utf-8", "replace")
    return code, output, time.time() - start


def tail_text(text, lines=80):
    return "\n".join(text.rstrip().splitlines()[-lines:])
