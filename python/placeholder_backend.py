"""A PEP 517 build backend for the root pyproject.toml, pre-commit's placeholder.

`pip install .` of the repository builds a wheel with no files, named
loopconv-pre-commit-placeholder, whose one requirement is `loopconv==VERSION`, VERSION
being Cargo.toml's: pip then installs the published loopconv wheel, which carries the
binary the hooks run. Standard library only, so that pip needs no setuptools to build it.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

NAME = "loopconv_pre_commit_placeholder"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cargo_version(manifest: str) -> str:
    """The `version` of the `[package]` table of a Cargo.toml."""
    with open(manifest, encoding="utf-8") as f:
        text = f.read()
    package = re.search(r"^\[package\]\n(.*?)(?=^\[|\Z)", text, re.M | re.S)
    found = package and re.search(r'^version\s*=\s*"([^"]+)"', package.group(1), re.M)
    if not found:
        raise ValueError(f"no [package] version in {manifest}")
    return found.group(1)


def _version() -> str:
    return cargo_version(os.path.join(ROOT, "Cargo.toml"))


def _metadata() -> str:
    version = _version()
    return (
        "Metadata-Version: 2.1\n"
        "Name: loopconv-pre-commit-placeholder\n"
        f"Version: {version}\n"
        "Summary: pre-commit's install of the loopconv hooks: requires the loopconv wheel\n"
        f"Requires-Dist: loopconv=={version}\n"
    )


def _dist_info() -> str:
    return f"{NAME}-{_version()}.dist-info"


def _files() -> dict[str, str]:
    info = _dist_info()
    wheel = "Wheel-Version: 1.0\nGenerator: placeholder_backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    return {f"{info}/METADATA": _metadata(), f"{info}/WHEEL": wheel}


def _record(files: dict[str, str]) -> str:
    lines = []
    for path, text in files.items():
        digest = hashlib.sha256(text.encode()).digest()
        b64 = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
        lines.append(f"{path},sha256={b64},{len(text.encode())}")
    lines.append(f"{_dist_info()}/RECORD,,")
    return "\n".join(lines) + "\n"


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = os.path.join(metadata_directory, _dist_info())
    os.makedirs(info, exist_ok=True)
    for path, text in _files().items():
        with open(os.path.join(metadata_directory, path), "w", encoding="utf-8") as f:
            f.write(text)
    return _dist_info()


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name = f"{NAME}-{_version()}-py3-none-any.whl"
    files = _files()
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w") as whl:
        for path, text in files.items():
            whl.writestr(path, text)
        whl.writestr(f"{_dist_info()}/RECORD", _record(files))
    return name


def build_sdist(sdist_directory, config_settings=None):
    base = f"{NAME}-{_version()}"
    name = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as tar:
        for rel in ("pyproject.toml", "Cargo.toml", "python/placeholder_backend.py"):
            tar.add(os.path.join(ROOT, rel), arcname=f"{base}/{rel}")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata().encode()
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return name
