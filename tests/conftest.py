import os
import pathlib

import numpy as np
import pytest

import perceptron

SHARED_DATA = pathlib.Path(__file__).resolve().parents[1].parent / "shared" / "data"


def pytest_configure(config):
    # registered here rather than in pyproject.toml so that the copies of
    # tests/ run against an installed wheel (wheelhouse-config/) know them too
    config.addinivalue_line(
        "markers", "slow: seconds or more per case: C compilers and sanitizers, subprocesses "
        "(command line, examples, fresh interpreters), mypy, import-linter, exhaustive grids; "
        "python -m pytest -m \"not slow\" leaves them out")


def pytest_report_header(config):
    info = perceptron.simd_info()
    return (f"perceptron {perceptron.__version__} from {pathlib.Path(perceptron.__file__).parent}; "
            f"simd level {info['level']} (supported: {', '.join(info['supported'])})")


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


@pytest.fixture(scope="session")
def a9a_path():
    path = pathlib.Path(os.environ.get("PERCEPTRON_A9A", SHARED_DATA / "a9a"))
    if not path.exists():
        pytest.skip(f"the a9a data set is not at {path} (set PERCEPTRON_A9A to its path)")
    return path


@pytest.fixture(scope="session")
def ewt_dir():
    """The Universal Dependencies English Web Treebank (train and dev CoNLL-U)."""
    path = pathlib.Path(os.environ.get("PERCEPTRON_UD_EWT", SHARED_DATA / "ud-ewt"))
    if not (path / "en_ewt-ud-train.conllu").exists():
        pytest.skip(f"the UD English Web Treebank is not at {path} (set PERCEPTRON_UD_EWT)")
    return path


@pytest.fixture(scope="module")
def client():
    """A dask.distributed client of two single-threaded in-process workers
    (quick to start), one per test module that asks for it."""
    distributed = pytest.importorskip(
        "distributed", reason="distributed is not installed (pip install perceptron-family[dask])")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster:
        with distributed.Client(cluster) as c:
            yield c
