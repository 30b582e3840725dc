"""Where a model file is written: through a symbolic link to its target,
only to a regular file, with the permissions open() would give, atomically
(a temporary file in the same folder, renamed over the target)."""
import os
import stat
import sys

import numpy as np
import pytest

import perceptron
from perceptron import Perceptron

posix = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file types and modes")


@pytest.fixture
def model():
    X = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, -1.0]])
    return Perceptron(random_state=0).fit(X, [0, 1, 1, 0])


def same_model(a, b):
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)


@posix
def test_a_symlink_is_written_through_and_stays_a_link(model, tmp_path):
    target = tmp_path / "models" / "current.ptn"
    target.parent.mkdir()
    target.write_bytes(b"an older model")
    link = tmp_path / "model.ptn"
    link.symlink_to(target)
    model.save(link)
    assert link.is_symlink()
    assert os.readlink(link) == str(target)
    same_model(perceptron.load(target), model)
    assert sorted(p.name for p in target.parent.iterdir()) == ["current.ptn"]


@posix
def test_a_dangling_symlink_creates_its_target(model, tmp_path):
    link = tmp_path / "model.ptn"
    link.symlink_to(tmp_path / "new.ptn")
    model.save(link)
    assert link.is_symlink()
    same_model(perceptron.load(tmp_path / "new.ptn"), model)


@posix
def test_a_fifo_is_refused(model, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match=r"pipe.*named pipe.*regular file"):
        model.save(fifo)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


@posix
def test_a_device_node_is_refused(model, tmp_path):
    node = tmp_path / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, AttributeError):
        pytest.skip("creating a device node needs privileges")
    with pytest.raises(ValueError, match=r"null.*character device"):
        model.save(node)
    assert stat.S_ISCHR(os.lstat(node).st_mode)
    # and through a link to it
    link = tmp_path / "link"
    link.symlink_to(node)
    with pytest.raises(ValueError, match="character device"):
        model.save(link)
    assert link.is_symlink() and stat.S_ISCHR(os.lstat(node).st_mode)


def test_a_directory_is_refused(model, tmp_path):
    folder = tmp_path / "models"
    folder.mkdir()
    with pytest.raises(ValueError, match=r"models.*a directory"):
        model.save(folder)
    assert folder.is_dir() and not list(folder.iterdir())


def test_a_missing_folder_is_named(model, tmp_path):
    path = tmp_path / "no" / "such" / "m.ptn"
    with pytest.raises(FileNotFoundError, match=r"m\.ptn.*folder .*such.* does not exist"):
        model.save(path)
    assert not list(tmp_path.iterdir())


@posix
@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_a_new_file_gets_the_mode_open_would(model, tmp_path, umask):
    old = os.umask(umask)
    try:
        model.save(tmp_path / "m.ptn")
        with open(tmp_path / "plain", "wb"):
            pass
    finally:
        os.umask(old)
    mode = stat.S_IMODE(os.stat(tmp_path / "m.ptn").st_mode)
    assert mode == 0o666 & ~umask
    assert mode == stat.S_IMODE(os.stat(tmp_path / "plain").st_mode)


@posix
def test_an_existing_file_keeps_its_mode_and_is_replaced_whole(model, tmp_path):
    path = tmp_path / "m.ptn"
    path.write_bytes(b"x" * 100000)
    os.chmod(path, 0o640)
    old_inode = os.stat(path).st_ino
    model.save(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert os.stat(path).st_ino != old_inode  # a new file renamed over: atomic
    same_model(perceptron.load(path), model)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.ptn"]


def test_a_failed_save_leaves_the_old_file_and_no_temporary(model, tmp_path, monkeypatch):
    path = tmp_path / "m.ptn"
    model.save(path)
    before = path.read_bytes()

    def broken(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError, match="disk full"):
        model.save(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.ptn"]
