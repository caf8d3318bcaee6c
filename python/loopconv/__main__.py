"""`python -m loopconv ARGS`: run the binary with ARGS, with its exit code."""

from __future__ import annotations

import os
import subprocess
import sys

from loopconv._find_bin import find_loopconv_bin


def main() -> int:
    binary = find_loopconv_bin()
    if sys.platform == "win32":
        # No exec on Windows: a child process, and its exit code.
        return subprocess.run([binary, *sys.argv[1:]]).returncode
    os.execvp(binary, [binary, *sys.argv[1:]])
    return 2  # not reached: execvp replaces this process or raises


if __name__ == "__main__":
    sys.exit(main())
