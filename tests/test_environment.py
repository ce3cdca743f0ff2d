"""environment.yml (conda) and constraints.txt (.venv, CI) describe the same environment."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def pins() -> dict[str, str]:
    out = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, version = line.split("==")
            out[re.sub(r"[-_.]+", "-", name).lower()] = version
    return out


def env_pip_lines() -> list[str]:
    text = (ROOT / "environment.yml").read_text()
    return [m.split("#")[0].strip() for m in re.findall(r"^\s{6}- (.+)$", text, flags=re.M)]


def test_environment_yml_installs_the_package_under_the_constraints():
    lines = env_pip_lines()
    assert "-c constraints.txt" in lines
    assert "-e .[test,book,dev]" in lines
    makefile = (ROOT / "Makefile").read_text()
    assert '-e ".[test,book,dev]"' in makefile and "-c constraints.txt" in makefile


def test_pinned_versions_agree():
    p = pins()
    pinned = [ln for ln in env_pip_lines() if "==" in ln]
    assert pinned, "environment.yml pins nothing explicitly"
    for line in pinned:
        name, version = line.split("==")
        key = re.sub(r"[-_.]+", "-", name).lower()
        assert p.get(key) == version, f"environment.yml pins {name}=={version}, constraints.txt has {p.get(key)}"


def test_python_version_agrees_with_the_venv():
    m = re.search(r"- python=(\d+)\.(\d+)", (ROOT / "environment.yml").read_text())
    assert m, "environment.yml does not pin python"
    assert (int(m.group(1)), int(m.group(2))) == sys.version_info[:2]


def test_every_dependency_of_the_package_is_pinned():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    deps = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        deps += extra
    p = pins()
    for dep in deps:
        name = re.split(r"[<>=!~;\[ ]", dep, maxsplit=1)[0]
        assert re.sub(r"[-_.]+", "-", name).lower() in p, f"{name} is not pinned in constraints.txt"
