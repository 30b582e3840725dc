"""csrc/sources.txt, the one list of C sources, as the C tests read it."""
import pathlib

CSRC = pathlib.Path(__file__).resolve().parents[2] / "csrc"


def c_sources(group):
    """The files of `group` (``[kernels]``, ``[svmlight]``, ``[model_file]``)
    in csrc/sources.txt, relative to csrc/; none when csrc/ is not beside the
    tests (an installed-package run)."""
    path, files, current = CSRC / "sources.txt", [], None
    for line in path.read_text().splitlines() if path.exists() else []:
        line = line.split("#", 1)[0].strip()
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1]
        elif line and current == group:
            files.append(line)
    return files
