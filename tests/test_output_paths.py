"""Output paths: the suite writes only regular files of its own (issue 38, item 1).

A fuzz over the kinds of path an output option can name (regular, missing, directory, symbolic
link, FIFO, socket, device node, read-only directory, full disk), through the one writer every
command uses (:func:`verify.base.files.write_atomic`) and its up-front check
(:func:`~verify.base.files.output_file`), then the same classes through the command line.
"""

from __future__ import annotations

import os
import resource
import socket
import stat
import subprocess
import sys

import pytest

from tests.cli_helpers import assert_one_line_usage_error, run_verify
from verify.base.files import OutputPathError, follow_symlinks, output_directory, output_file, write_atomic


def _fifo(path):
    os.mkfifo(path)


def _socket(path):
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    return sock


def _device(path):
    """A character device like /dev/null (1, 3), made in the temporary directory; needs root."""
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("mknod needs root (CI runs as root)")


REFUSED = {"directory": (os.mkdir, "is a directory"), "fifo": (_fifo, "is a FIFO"),
           "socket": (_socket, "is a socket"), "device": (_device, "is a device")}


@pytest.mark.parametrize("kind", sorted(REFUSED))
def test_a_path_that_is_not_a_regular_file_is_refused_and_left_as_it_was(tmp_path, kind):
    make, message = REFUSED[kind]
    target = tmp_path / "out"
    keep = make(target)
    before = os.lstat(target)
    for attempt in (lambda: output_file(target, "--json"), lambda: write_atomic(target, "x", "--json")):
        with pytest.raises(OutputPathError, match=message):
            attempt()
    after = os.lstat(target)
    assert (after.st_mode, after.st_ino, after.st_rdev) == (before.st_mode, before.st_ino, before.st_rdev)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no stray temporary file
    if keep is not None:
        keep.close()


def test_a_symlink_is_refused_unless_asked_and_then_the_link_stays(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    with pytest.raises(OutputPathError, match="symbolic link"):
        output_file(link)
    with pytest.raises(OutputPathError, match="symbolic link"):
        write_atomic(link, "new")
    assert real.read_text() == "old" and link.is_symlink()
    with follow_symlinks():
        output_file(link)
        write_atomic(link, "new")
    assert real.read_text() == "new" and link.is_symlink()


def test_a_symlink_to_a_device_is_refused_even_when_links_are_followed(tmp_path):
    link = tmp_path / "stdout"
    link.symlink_to(os.devnull)
    with follow_symlinks(), pytest.raises(OutputPathError, match="is a device"):
        write_atomic(link, "x")
    assert link.is_symlink()


def test_a_symlink_loop_is_refused(tmp_path):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    with follow_symlinks(), pytest.raises(OutputPathError, match="loop"):
        write_atomic(tmp_path / "a", "x")


def test_a_new_file_gets_the_umask_mode_and_an_existing_one_keeps_its_mode(tmp_path):
    old = os.umask(0o027)
    try:
        write_atomic(tmp_path / "new", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "new").st_mode) == 0o640
    existing = tmp_path / "existing"
    existing.write_text("old")
    existing.chmod(0o604)
    write_atomic(existing, "new")
    assert stat.S_IMODE(os.stat(existing).st_mode) == 0o604 and existing.read_text() == "new"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_a_read_only_directory_is_refused_up_front(tmp_path):
    tmp_path.chmod(0o500)
    try:
        with pytest.raises(OutputPathError, match="not writable"):
            output_file(tmp_path / "r.json")
    finally:
        tmp_path.chmod(0o700)


def test_an_interrupted_write_leaves_the_old_file_and_nothing_else(tmp_path, monkeypatch):
    target = tmp_path / "report.json"
    target.write_text("old")

    def interrupted(*_args):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, "new" * 1000)
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


_FULL_DISK = """
import sys
from verify.base.files import OutputPathError, write_atomic
try:
    write_atomic(sys.argv[1], b"x" * 100_000)
except OutputPathError as exc:
    print(exc)
    sys.exit(2)
"""


def test_a_full_disk_is_one_line_and_leaves_the_old_file(tmp_path):
    """``ulimit -f`` stands in for a full disk: the write fails with EFBIG (Python ignores SIGXFSZ)."""
    target = tmp_path / "r.json"
    target.write_text("old")

    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    res = subprocess.run([sys.executable, "-c", _FULL_DISK, str(target)], capture_output=True, text=True,
                         preexec_fn=small_files, timeout=60)
    assert res.returncode == 2, res.stderr
    assert "no room" in res.stdout and "Traceback" not in res.stderr
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_an_empty_output_directory_is_refused():
    with pytest.raises(OutputPathError, match="empty"):
        output_directory("")
    with pytest.raises(OutputPathError, match="empty"):
        output_file("")


# The command line: every class above ends with exit 2 and one line, and the path is untouched.

def test_check_html_to_a_device_is_refused_and_the_device_stays(tmp_path):
    node = tmp_path / "null"
    _device(node)
    res = run_verify("check", "--only", "d1-parity", "--json", str(tmp_path / "r.json"),
                     "--markdown", str(tmp_path / "r.md"), "--html", str(node))
    assert_one_line_usage_error(res, "is a device")
    assert stat.S_ISCHR(os.lstat(node).st_mode)
    assert not (tmp_path / "r.json").exists()


@pytest.mark.parametrize("argv", [
    ["check", "--only", "d1-parity", "--json", "{link}", "--markdown", "{root}/r.md",
     "--html", "{root}/r.html"],
    ["regions", "--quick", "--out", "{link}"],
    ["derive", "--out", ""],
    ["regions", "--quick", "--out", ""],
])
@pytest.mark.extended
def test_the_command_line_refuses_links_and_empty_paths(tmp_path, argv):
    real = tmp_path / "real"
    real.mkdir() if "--out" in argv else real.write_text("old")
    link = tmp_path / "link"
    link.symlink_to(real)
    res = run_verify(*[a.format(root=tmp_path, link=link) for a in argv])
    assert_one_line_usage_error(res, "symbolic link" if "{link}" in argv else "empty")
    assert link.is_symlink()
    if real.is_file():
        assert real.read_text() == "old"


@pytest.mark.parametrize(("argv", "inner"), [
    (["regions", "--quick", "--only", "linearized"], "regions.linearized.json"),
    (["regions", "--quick", "--only", "linearized"], "fig3.regions.png"),
    (["figures", "--quick", "--only", "fig2"], "fig2.csv"),
    (["derive"], "prop_4.md"),
])
@pytest.mark.extended
def test_a_link_or_fifo_among_a_directorys_outputs_is_refused_before_any_work(tmp_path, argv, inner):
    """The files a command writes into its --out directory are checked up front: a link or a
    FIFO there was found only when the results were written, after minutes of work."""
    out = tmp_path / "out"
    out.mkdir()
    (tmp_path / "real").write_text("old")
    (out / inner).symlink_to(tmp_path / "real")
    res = run_verify(*argv, "--out", str(out))
    assert_one_line_usage_error(res, "symbolic link")
    (out / inner).unlink()
    os.mkfifo(out / inner)
    res = run_verify(*argv, "--out", str(out))
    assert_one_line_usage_error(res, "FIFO")
    assert (tmp_path / "real").read_text() == "old" and stat.S_ISFIFO(os.lstat(out / inner).st_mode)
    assert sorted(p.name for p in out.iterdir()) == [inner]


def test_follow_symlinks_is_offered_in_help():
    res = run_verify("--help")
    assert "--follow-symlinks" in res.stdout


# The fuzz target through every writer of the command line: each output option of each command
# that writes files, against each kind of path.  In-process, so the whole product runs in CI.

def _tiny_corpus(root):
    corpus = root / "corpus"
    corpus.mkdir()
    (corpus / "one.toml").write_text('[[statement]]\nid = "k4"\nclass = "exact"\ntruth = true\n'
                                     'claim = "k == 4"\nfor = ["k = 4"]\nreason = "k is 4"\n')
    return corpus


WRITERS = {
    "check --json": ["check", "--only", "eq-14", "--json", "{out}", "--markdown", "{root}/r.md",
                     "--html", "{root}/r.html"],
    "check --markdown": ["check", "--only", "eq-14", "--json", "{root}/r.json", "--markdown", "{out}",
                         "--html", "{root}/r.html"],
    "check --html": ["check", "--only", "eq-14", "--json", "{root}/r.json", "--markdown", "{root}/r.md",
                     "--html", "{out}"],
    "simulate csv": ["simulate", "{inst}", "--lr", "0.01", "--steps", "5", "-o", "{out}"],
    "simulate npz": ["simulate", "{inst}", "--lr", "0.01", "--steps", "5", "-o", "{out}"],
    "instance": ["instance", "orthonormal", "--k", "2", "--d", "8", "--activation", "relu", "--seed", "1",
                 "-o", "{out}"],
    "calibrate --json": ["calibrate", "--corpus", "{corpus}", "--quiet", "--json", "{out}"],
}


def _name(writer: str, stem: str) -> str:
    """The output's file name: simulate picks its format from the suffix."""
    return stem + ({"simulate csv": ".csv", "simulate npz": ".npz"}.get(writer, ".out"))


def _symlink(path):
    real = path.with_name("real")
    real.write_text("old")
    path.symlink_to(real)


KINDS = {**{kind: make for kind, (make, _) in REFUSED.items()}, "symlink": _symlink}


@pytest.fixture(scope="module")
def instance_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("instance") / "inst.json"
    from verify.cli import main

    assert main(["instance", "orthonormal", "--k", "2", "--d", "8", "--activation", "relu",
                 "--seed", "1", "-o", str(path)]) == 0
    return path


def _run(writer, out, root, instance_file, capsys):
    from verify.cli import main

    argv = [a.format(out=out, root=root, inst=instance_file,
                     corpus=root / "corpus" if (root / "corpus").exists() else _tiny_corpus(root))
            for a in WRITERS[writer]]
    try:
        status = main(argv)
    except SystemExit as exc:
        status = exc.code
    return status, capsys.readouterr()


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_every_writer_refuses_every_path_that_is_not_a_regular_file(tmp_path, writer, kind,
                                                                      instance_file, capsys):
    out = tmp_path / _name(writer, "out")
    keep = KINDS[kind](out)
    before = os.lstat(out)
    status, streams = _run(writer, out, tmp_path, instance_file, capsys)
    lines = streams.err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and "Traceback" not in streams.err, streams.err
    after = os.lstat(out)
    assert (after.st_mode, after.st_ino, after.st_rdev) == (before.st_mode, before.st_ino, before.st_rdev)
    if kind == "symlink":
        assert out.with_name("real").read_text() == "old"
    assert lines[0].startswith(f"verify {WRITERS[writer][0]}: error:") and str(out) in lines[0]
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    if keep is not None:
        keep.close()


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_every_writer_keeps_a_files_mode_and_gives_a_new_one_the_umask_mode(tmp_path, writer,
                                                                            instance_file, capsys):
    existing = tmp_path / _name(writer, "out")
    existing.write_text("old")
    existing.chmod(0o640)
    status, streams = _run(writer, existing, tmp_path, instance_file, capsys)
    assert status == 0, streams.err
    assert stat.S_IMODE(os.lstat(existing).st_mode) == 0o640 and existing.read_bytes() != b"old"
    fresh = tmp_path / _name(writer, "fresh")
    old_mask = os.umask(0o027)
    try:
        status, streams = _run(writer, fresh, tmp_path, instance_file, capsys)
    finally:
        os.umask(old_mask)
    assert status == 0, streams.err
    assert stat.S_IMODE(os.lstat(fresh).st_mode) == 0o640  # 0o666 & ~0o027
