"""The package's build backend (PEP 517 and PEP 660), standard library only.

`pip install ./clients/python` builds in an isolated environment and installs the backend's requirements there
first; with setuptools or flit that means PyPI. This backend needs nothing, so the install works offline, with
any pip. It packs memory_service/ (its .py files and py.typed) into a pure-Python wheel, metadata from
pyproject.toml."""

from __future__ import annotations

import base64
import hashlib
import io
import tarfile
import tomllib
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "memory_service"


def _project() -> dict[str, Any]:
    project: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return project


def _dist_name() -> str:
    return f"{_project()['name'].replace('-', '_')}-{_project()['version']}"


def _metadata() -> str:
    p = _project()
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {p['name']}",
        f"Version: {p['version']}",
        f"Summary: {p['description']}",
        f"Requires-Python: {p['requires-python']}",
        *[f"Requires-Dist: {d}" for d in p.get("dependencies", [])],
        *[f"Classifier: {c}" for c in p.get("classifiers", [])],
        "Description-Content-Type: text/markdown",
    ]
    readme = ROOT / p.get("readme", "README.md")
    return "\n".join(lines) + "\n\n" + (readme.read_text() if readme.exists() else "")


def _sources() -> list[Path]:
    return sorted(
        f
        for f in (ROOT / PACKAGE).rglob("*")
        if f.is_file() and "__pycache__" not in f.parts and (f.suffix == ".py" or f.name == "py.typed")
    )


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _wheel(directory: str, files: dict[str, bytes]) -> str:
    dist_info = f"{_dist_name()}.dist-info"
    files = {
        **files,
        f"{dist_info}/METADATA": _metadata().encode(),
        f"{dist_info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: memory-service-backend\n"
        b"Root-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = "".join(f"{name},{_digest(data)},{len(data)}\n" for name, data in files.items())
    files[f"{dist_info}/RECORD"] = (record + f"{dist_info}/RECORD,,\n").encode()
    name = f"{_dist_name()}-py3-none-any.whl"
    with zipfile.ZipFile(Path(directory) / name, "w", zipfile.ZIP_DEFLATED) as whl:
        for path, data in files.items():
            whl.writestr(path, data)
    return name


def get_requires_for_build_wheel(config_settings: object = None) -> list[str]:
    return []


get_requires_for_build_sdist = get_requires_for_build_wheel
get_requires_for_build_editable = get_requires_for_build_wheel


def build_wheel(wheel_directory: str, config_settings: object = None, metadata_directory: object = None) -> str:
    return _wheel(wheel_directory, {f.relative_to(ROOT).as_posix(): f.read_bytes() for f in _sources()})


def build_editable(wheel_directory: str, config_settings: object = None, metadata_directory: object = None) -> str:
    # A .pth file puts the checkout on sys.path: edits take effect without reinstalling.
    return _wheel(wheel_directory, {f"{PACKAGE}_editable.pth": f"{ROOT}\n".encode()})


def build_sdist(sdist_directory: str, config_settings: object = None) -> str:
    name = _dist_name()
    files = [*_sources(), ROOT / "pyproject.toml", ROOT / "README.md", *sorted((ROOT / "_build").glob("*.py"))]
    with tarfile.open(Path(sdist_directory) / f"{name}.tar.gz", "w:gz") as tar:
        for f in files:
            if f.exists():
                tar.add(f, arcname=f"{name}/{f.relative_to(ROOT).as_posix()}")
        info = tarfile.TarInfo(f"{name}/PKG-INFO")
        data = _metadata().encode()
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return f"{name}.tar.gz"
