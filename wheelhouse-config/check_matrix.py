"""Check that pyproject.toml's [tool.cibuildwheel] yields exactly the
intended wheel matrix.

Usage: python check_matrix.py   (needs cibuildwheel; no Docker)

Runs ``cibuildwheel --print-build-identifiers --platform P`` for linux,
macos and windows from the project root, where cibuildwheel reads its
configuration and requires-python from pyproject.toml (as a plain
``cibuildwheel`` there does), and compares each list with the matrix stated
above the configuration, which is written out again below on purpose: a
change to either must be made to both.  CIBW_* variables are removed from
the environment, so only the file is checked.  Exit status 0 when all three
lists match.
"""
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
# every CPython that requires-python (>=3.11) admits, and the free-threaded 3.14
PYTHONS = ["cp311", "cp312", "cp313", "cp314", "cp315", "cp314t"]
PYTHONS_WIN_ARM64 = PYTHONS

EXPECTED = {
    "linux": {f"{py}-{plat}" for py in PYTHONS
              for plat in ("manylinux_x86_64", "manylinux_aarch64",
                           "musllinux_x86_64", "musllinux_aarch64")},
    "macos": {f"{py}-{plat}" for py in PYTHONS for plat in ("macosx_x86_64", "macosx_arm64")},
    "windows": ({f"{py}-win_amd64" for py in PYTHONS}
                | {f"{py}-win_arm64" for py in PYTHONS_WIN_ARM64}),
}


def identifiers(platform):
    env = {k: v for k, v in os.environ.items() if not k.startswith("CIBW_")}
    proc = subprocess.run(
        [sys.executable, "-m", "cibuildwheel", "--print-build-identifiers",
         "--platform", platform],
        capture_output=True, text=True, cwd=ROOT, env=env)
    if proc.returncode != 0:
        raise SystemExit(f"cibuildwheel --print-build-identifiers --platform {platform} "
                         f"failed:\n{proc.stdout}{proc.stderr}")
    return proc.stdout.split()


def describe(listed):
    """'manylinux_x86_64 cp311-cp315 cp314t, ...': the Pythons of each platform tag."""
    versions = {}
    for ident in listed:
        python, tag = ident.split("-", 1)
        versions.setdefault(tag, []).append(python)
    parts = []
    for tag, pythons in sorted(versions.items()):
        plain = sorted((py for py in pythons if not py.endswith("t")), key=lambda py: int(py[2:]))
        threaded = sorted(py for py in pythons if py.endswith("t"))
        parts.append(" ".join([f"{tag} {plain[0]}-{plain[-1]}" if plain else tag, *threaded]))
    return ", ".join(parts)


def main():
    ok = True
    total = 0
    for platform, expected in EXPECTED.items():
        listed = identifiers(platform)
        total += len(listed)
        missing = sorted(expected - set(listed))
        unexpected = sorted(set(listed) - expected)
        if missing or unexpected or len(listed) != len(set(listed)):
            ok = False
            print(f"FAIL {platform}: {len(listed)} identifiers, expected {len(expected)}")
            if missing:
                print(f"     missing: {' '.join(missing)}")
            if unexpected:
                print(f"     unexpected: {' '.join(unexpected)}")
        else:
            print(f"ok   {platform}: {len(listed)} identifiers ({describe(listed)})")
    if not ok:
        print("the wheel matrix of pyproject.toml's [tool.cibuildwheel] is not the intended one")
        return 1
    print(f"wheel matrix as intended: {total} wheels")
    return 0


if __name__ == "__main__":
    sys.exit(main())
