"""Where pip put the `loopconv` binary (a wheel's scripts folder, like ruff's find_bin)."""

from __future__ import annotations

import os
import sys
import sysconfig


def _candidates() -> list[str]:
    exe = "loopconv.exe" if sys.platform == "win32" else "loopconv"
    dirs = [sysconfig.get_path("scripts")]
    user_scheme = sysconfig.get_preferred_scheme("user") if sys.version_info >= (3, 10) else (
        "nt_user" if os.name == "nt" else "posix_user"
    )
    dirs.append(sysconfig.get_path("scripts", scheme=user_scheme))
    # `pip install --target DIR`: the scripts are in DIR/bin, beside the package folder.
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    dirs.append(os.path.join(package_root, "bin"))
    return [os.path.join(d, exe) for d in dirs]


def find_loopconv_bin() -> str:
    """The path of the loopconv binary; FileNotFoundError when none is installed."""
    for path in _candidates():
        if os.path.isfile(path):
            return path
    raise FileNotFoundError("no loopconv binary beside this package; looked at: " + ", ".join(_candidates()))
