"""A minimal PEP 517 build backend: a pure-Python wheel and an sdist with zipfile/tarfile.

It exists so that ``pip install ./clients/python`` works offline on any
Python >= 3.9, also in a venv without setuptools. The metadata is fixed here
(the version is read from massim/__init__.py); pyproject.toml is not parsed
(tomllib only exists from Python 3.11).
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
import time
import zipfile
from typing import Any, Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "massim"
SUMMARY = "A client for massim-go and the MASSim 2022 contest (Agents Assemble)"


def _version() -> str:
    with open(os.path.join(ROOT, NAME, "__init__.py"), encoding="utf-8") as f:
        m = re.search(r'^__version__ = "([^"]+)"', f.read(), re.M)
    if not m:
        raise RuntimeError("no __version__ in massim/__init__.py")
    return m.group(1)


def _package_files() -> List[str]:
    """The package's files, relative to ROOT, sorted (no caches)."""
    out = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, NAME)):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for fn in sorted(filenames):
            if fn.endswith((".py", ".typed")):
                out.append(os.path.relpath(os.path.join(dirpath, fn), ROOT).replace(os.sep, "/"))
    return out


def _metadata() -> str:
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\nSummary: {SUMMARY}\n"
            "Requires-Python: >=3.9\nLicense: MIT\n")


def _dist_info() -> Dict[str, str]:
    return {
        "METADATA": _metadata(),
        "WHEEL": "Wheel-Version: 1.0\nGenerator: massim_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        "top_level.txt": NAME + "\n",
    }


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def get_requires_for_build_editable(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: Optional[Dict[str, Any]] = None) -> str:
    name = f"{NAME}-{_version()}.dist-info"
    os.makedirs(os.path.join(metadata_directory, name), exist_ok=True)
    for fn, text in _dist_info().items():
        with open(os.path.join(metadata_directory, name, fn), "w", encoding="utf-8") as f:
            f.write(text)
    return name


def _write_wheel(wheel_directory: str, files: List[Tuple[str, bytes]]) -> str:
    version = _version()
    info = f"{NAME}-{version}.dist-info"
    filename = f"{NAME}-{version}-py3-none-any.whl"
    records = []
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w", zipfile.ZIP_DEFLATED) as z:
        entries = files + [(f"{info}/{fn}", text.encode()) for fn, text in _dist_info().items()]
        for arc, data in entries:
            zi = zipfile.ZipInfo(arc, date_time=(2022, 1, 1, 0, 0, 0))
            zi.external_attr = 0o644 << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
            records.append(_record_line(arc, data))
        records.append(f"{info}/RECORD,,")
        z.writestr(zipfile.ZipInfo(f"{info}/RECORD", date_time=(2022, 1, 1, 0, 0, 0)), "\n".join(records) + "\n")
    return filename


def build_wheel(wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None,
                metadata_directory: Optional[str] = None) -> str:
    files = []
    for rel in _package_files():
        with open(os.path.join(ROOT, rel), "rb") as f:
            files.append((rel, f.read()))
    return _write_wheel(wheel_directory, files)


def build_editable(wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None,
                   metadata_directory: Optional[str] = None) -> str:
    """A wheel holding only a .pth file that puts this folder on sys.path."""
    return _write_wheel(wheel_directory, [(f"_{NAME}_editable.pth", (ROOT + "\n").encode())])


def build_sdist(sdist_directory: str, config_settings: Optional[Dict[str, Any]] = None) -> str:
    base = f"{NAME}-{_version()}"
    filename = base + ".tar.gz"
    members = ["pyproject.toml", "_build/massim_build.py"] + _package_files()
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for rel in members:
            with open(os.path.join(ROOT, rel), "rb") as f:
                data = f.read()
            ti = tarfile.TarInfo(f"{base}/{rel}")
            ti.size, ti.mode, ti.mtime = len(data), 0o644, int(time.mktime((2022, 1, 1, 0, 0, 0, 0, 0, -1)))
            tar.addfile(ti, io.BytesIO(data))
        pkg_info = _metadata().encode()
        ti = tarfile.TarInfo(f"{base}/PKG-INFO")
        ti.size, ti.mode = len(pkg_info), 0o644
        tar.addfile(ti, io.BytesIO(pkg_info))
    return filename
