"""One wheel, every CPU: no AVX instruction outside the kernels marked for it.

Usage: python check_baseline_isa.py PATH [PATH ...]

Each PATH is a wheel, an x86-64 ELF shared object, or a folder searched for
both.  Every shared object is disassembled with objdump (binutils) and each
instruction is attributed to the function whose symbol precedes it.  An
instruction counts as AVX when it is VEX- or EVEX-encoded: in 64-bit mode the
first opcode byte is then 0xC4/0xC5 (VEX) or 0x62 (EVEX), which covers AVX,
AVX2, FMA, AVX-512 (and the VEX-encoded BMI that came with them), whatever
the mnemonic, and none of which a baseline x86-64 CPU can run.

Such instructions may appear only in functions marked for AVX, whose names
end in ``_avx2`` or ``_avx512`` (optionally with more ISA letters, as in
``_avx512bw``; compiler clones such as ``.cold`` or ``.isra.0`` keep their
parent's name).  Anything else runs, or may run, before the CPU has been
asked what it supports, so one AVX instruction there makes the wheel crash
with SIGILL on an older CPU.  The check also fails when it finds no AVX
kernel at all, which would mean a stripped binary or a build without them.

Exit status: 0 when clean, 1 when an AVX instruction is outside the marked
functions, 2 when the input cannot be checked.
"""
import argparse
import collections
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

MARKED = re.compile(r"(?:^|_)avx(?:2|512)[a-z0-9]*$")
LABEL = re.compile(r"^[0-9a-f]+ <(?P<name>[^>]+)>:$")
INSN = re.compile(r"^\s*[0-9a-f]+:\t(?P<bytes>[0-9a-f ]+?)\s*\t(?P<text>.*)$")
# Segment-override and address-size prefixes may precede a VEX/EVEX prefix;
# operand-size, REP, LOCK and REX prefixes may not (they make it #UD).
SKIPPABLE_PREFIXES = {"26", "2e", "36", "3e", "64", "65", "67"}
VEX_EVEX = {"c4", "c5", "62"}


class CheckError(Exception):
    """The input cannot be checked (exit status 2)."""


def is_marked(symbol):
    """Whether a function may hold AVX code: its name (clone suffix and
    @plt/@@version dropped) ends in _avx2 or _avx512..."""
    base = symbol.split("@")[0].split(".")[0]
    return MARKED.search(base) is not None


def is_vex_or_evex(hex_bytes):
    for byte in hex_bytes.split():
        if byte not in SKIPPABLE_PREFIXES:
            return byte in VEX_EVEX
    return False


def objdump(*args):
    exe = shutil.which("objdump")
    if exe is None:
        raise CheckError("objdump not found: install binutils (Debian: apt-get install binutils)")
    proc = subprocess.run([exe, *args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise CheckError(f"objdump {' '.join(args)} failed: {proc.stderr.strip()}")
    return proc.stdout


def check_binary(path):
    """Return (marked, leaks, n_functions) for one shared object.

    ``marked`` maps each marked function to its count of AVX instructions;
    ``leaks`` maps every other function holding AVX to a list of them.
    """
    header = objdump("-f", str(path))
    if "architecture: i386:x86-64" not in header:
        raise CheckError(f"{path} is not an x86-64 binary; this check is for x86-64 wheels")
    if "SYMBOL TABLE:\nno symbols" in objdump("-t", str(path)):
        raise CheckError(f"{path} is stripped: without its symbol table no instruction can be "
                         "attributed to a function; check the binary before stripping")
    marked = collections.Counter()
    leaks = collections.defaultdict(list)
    functions = set()
    function = None
    for line in objdump("-d", "-w", str(path)).splitlines():
        label = LABEL.match(line)
        if label:
            function = label.group("name")
            functions.add(function)
            continue
        insn = INSN.match(line)
        if insn is None or not is_vex_or_evex(insn.group("bytes")):
            continue
        if function is not None and is_marked(function):
            marked[function] += 1
        else:
            leaks[function or "<no symbol>"].append(insn.group("text").strip())
    return marked, leaks, len(functions)


def shared_objects(path, tmp):
    """The ELF shared objects in PATH (a wheel, a .so, or a folder of either)."""
    path = pathlib.Path(path)
    if path.is_dir():
        found = sorted(path.rglob("*.so")) + sorted(path.rglob("*.so.*"))
        for wheel in sorted(path.rglob("*.whl")):
            found += shared_objects(wheel, tmp)
        return found
    if path.suffix == ".whl":
        dest = pathlib.Path(tempfile.mkdtemp(prefix=path.stem[:40] + "-", dir=tmp))
        with zipfile.ZipFile(path) as wheel:
            members = [m for m in wheel.namelist() if m.endswith(".so") or ".so." in m]
            for member in members:
                wheel.extract(member, dest)
        return [dest / m for m in members]
    if path.is_file():
        return [path]
    raise CheckError(f"{path} does not exist")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", help="wheels, shared objects or folders")
    args = parser.parse_args(argv)
    total_marked = collections.Counter()
    failed = False
    try:
        with tempfile.TemporaryDirectory(prefix="isa-check-") as tmp:
            binaries = [so for p in args.paths for so in shared_objects(p, tmp)]
            if not binaries:
                raise CheckError(f"no shared object found in {' '.join(args.paths)}")
            for so in binaries:
                marked, leaks, n_functions = check_binary(so)
                total_marked.update(marked)
                name = so.name
                if leaks:
                    failed = True
                    print(f"FAIL {name}: AVX instructions outside the functions marked for AVX:")
                    for function, insns in sorted(leaks.items()):
                        sample = "; ".join(insns[:3])
                        print(f"     {function}: {len(insns)} (e.g. {sample})")
                elif marked:
                    print(f"ok   {name}: {n_functions} functions; {sum(marked.values())} AVX "
                          f"instructions, all in the {len(marked)} marked for AVX")
                else:
                    print(f"ok   {name}: {n_functions} functions; no AVX instruction")
        if not total_marked:
            raise CheckError("no AVX instruction found in any function marked for AVX: the "
                             "x86 kernels are missing from this build")
    except CheckError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if failed:
        print("baseline ISA check FAILED: a CPU without AVX would crash (SIGILL) running this code")
        return 1
    print(f"baseline ISA check passed: AVX only inside {', '.join(sorted(total_marked))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
