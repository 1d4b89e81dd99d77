"""Resource limits and odd environments end in one line or a correct result (issue #38).

Each case runs ``verify`` in a subprocess under the limit a user or CI would set: an
address-space limit (``ulimit -v``), a file-size limit standing for a full disk (``ulimit -f``,
with SIGXFSZ ignored so the write fails with EFBIG as it would with ENOSPC), a strict ASCII
stdout, and a file name that is not UTF-8.  None may end in a traceback, and a failed write
leaves no partial or temporary file behind."""

from __future__ import annotations

import os
import resource
import signal
import stat
import subprocess
import sys

import pytest

from verify.base import cache
from verify.base.files import OutputPathError
from verify.cli import main


def _verify(*args: str, cwd, limit=None, env=None) -> subprocess.CompletedProcess:
    def preexec():
        if limit is not None:
            resource.setrlimit(*limit)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    return subprocess.run([sys.executable, "-m", "verify", *args], capture_output=True, cwd=cwd,
                          timeout=120, preexec_fn=preexec, env={**os.environ, **(env or {})})


@pytest.fixture(scope="module")
def instance(tmp_path_factory):
    path = tmp_path_factory.mktemp("inst") / "inst.json"
    done = _verify("instance", "orthonormal", "--k", "4", "--d", "16", "--activation", "relu",
                   "--seed", "1", "-o", str(path), cwd=path.parent)
    assert done.returncode == 0, done.stderr
    return path


@pytest.mark.parametrize("argv", [["h", "{inst}", "--m", "0.5"],
                                  ["grad", "{inst}", "--m", "0.5", "--samples", "2000", "--seed", "1"]])
def test_a_one_gigabyte_address_space_is_enough(instance, tmp_path, argv):
    """Loading an instance read ``MAX_FILE_BYTES + 1`` bytes at once (1.25 GB reserved for a
    2 kB file): under ``ulimit -v 1000000`` that was a MemoryError traceback."""
    args = [a.format(inst=instance) for a in argv]
    done = _verify(*args, cwd=tmp_path, limit=(resource.RLIMIT_AS, (1_000_000 << 10,) * 2))
    assert done.returncode == 0, done.stderr.decode()
    assert b"Traceback" not in done.stderr


def test_a_trajectory_beyond_the_memory_limit_is_refused_before_the_run(instance, tmp_path):
    """10^5 steps recorded every step for 10^5 replicas (within the steps x replicas limit) ran
    for minutes under ``ulimit -v 3000000`` on its way to a 450 GB trajectory.  Now: the records
    limit without --force, and the memory limit itself with it, each one line before any work."""
    argv = ["simulate", str(instance), "--mode", "frozen", "--steps", "100000", "--lr", "0.002",
            "--replicas", "100000", "--record-every", "1", "--quiet", "-o", "s.csv"]
    limit = (resource.RLIMIT_AS, (3_000_000 << 10,) * 2)
    for extra, fragment in (([], b"recorded_values"), (["--force"], b"memory limit of 2930 MiB (ulimit -v)")):
        done = _verify(*argv, *extra, cwd=tmp_path, limit=limit)
        assert done.returncode == 2 and done.stderr.count(b"\n") == 1 and fragment in done.stderr, done.stderr
        assert list(tmp_path.iterdir()) == []


def test_out_of_memory_is_one_line_naming_the_limit(monkeypatch, capsys):
    """The net under every size check: a MemoryError is exit 2 and one line, not a traceback."""
    from verify.cli import hermite_cmd

    def exhausted(args):
        raise MemoryError

    monkeypatch.setattr(hermite_cmd, "run", exhausted)
    assert main(["hermite", "relu"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "out of memory" in err[0] and "limit" in err[0]


def test_a_full_disk_is_one_line_and_leaves_nothing(tmp_path):
    old = tmp_path / "r.json"
    old.write_text("old report\n")
    done = _verify("check", "--only", "eq-14", "--json", str(old), "--markdown", str(tmp_path / "r.md"),
                   cwd=tmp_path, limit=(resource.RLIMIT_FSIZE, (1024,) * 2))
    lines = done.stderr.decode().strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "no room" in lines[0], done.stderr
    assert old.read_text() == "old report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]  # no temporary, no partial file


def test_a_full_cache_directory_never_breaks_a_computation(monkeypatch, tmp_path):
    """write_atomic says "no room" as an OutputPathError: the cache skips the entry (it broke
    ``verify regions`` under ``ulimit -f`` before its own outputs were reached)."""
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "c"))

    def full(*args, **kwargs):
        raise OutputPathError("no room to write it")

    monkeypatch.setattr(cache, "write_atomic", full)
    cache.store("kind", {"a": 1}, {"value": "1"})  # no exception
    assert cache.load("kind", {"a": 1}) is None


def test_a_file_name_that_is_not_utf8_under_a_strict_ascii_terminal(tmp_path):
    name = os.fsencode(str(tmp_path)) + b"/\xff\xfe.json"
    done = subprocess.run([sys.executable, "-m", "verify", "check", "--only", "eq-14", "--json", name,
                           "--markdown", str(tmp_path / "r.md")], capture_output=True, cwd=tmp_path,
                          timeout=300, env={**os.environ, "PYTHONIOENCODING": "ascii:strict", "LC_ALL": "C"})
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert b"Traceback" not in done.stderr
    assert os.path.exists(name)
    assert b"\\udcff" in done.stdout  # the name is shown escaped


@pytest.mark.parametrize("argv", [["h", "{fifo}", "--m", "0"],
                                  ["show", "remark-14", "--from", "{fifo}"],
                                  ["show", "remark-14", "--from", "{link}"],
                                  ["calibrate", "--ledger", "{fifo}", "--quiet"]])
def test_a_fifo_as_an_input_file_is_refused_not_waited_on(tmp_path, argv):
    """Opening a FIFO for reading waits for a writer: `verify h FIFO` hung until killed.  Inputs
    are opened without blocking and refused unless the descriptor is a regular file."""
    fifo, link = tmp_path / "f.json", tmp_path / "l.json"
    os.mkfifo(fifo)
    link.symlink_to(fifo)
    done = _verify(*[a.format(fifo=fifo, link=link) for a in argv], cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count(b"\n") == 1, done.stderr
    assert b"a FIFO, not a regular file" in done.stderr


def test_stdout_on_a_full_device_is_one_line(tmp_path):
    """`verify hermite relu > /dev/full` ended in an OSError traceback (ENOSPC on stdout)."""
    full = tmp_path / "full"
    os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))  # the /dev/full device, in a temporary dir
    with open(full, "wb") as sink:
        done = subprocess.run([sys.executable, "-m", "verify", "hermite", "relu", "--terms", "8"],
                              stdout=sink, stderr=subprocess.PIPE, timeout=120, cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count(b"\n") == 1, done.stderr
    assert b"cannot write stdout: No space left on device" in done.stderr


def test_control_characters_of_an_output_name_are_printed_escaped(tmp_path):
    """`-o $'a\\x1b[2Jb.json'` printed `wrote a<ESC>[2Jb.json`, which clears a terminal."""
    name = "a\x1b[2Jb.json"
    done = _verify("instance", "orthonormal", "--k", "4", "--d", "16", "--activation", "relu", "-o", name,
                   cwd=tmp_path)
    assert done.returncode == 0 and (tmp_path / name).is_file()
    assert b"\x1b" not in done.stdout and b"wrote a\\x1b[2Jb.json" in done.stdout


@pytest.mark.extended
def test_ctrl_c_to_the_process_group_is_one_line_and_leaves_no_worker(tmp_path):
    """Ctrl-C in a terminal signals the whole group: each pool worker of `verify calibrate`
    printed its KeyboardInterrupt traceback (about 300 lines)."""
    import time

    process = subprocess.Popen([sys.executable, "-m", "verify", "calibrate", "--quiet", "--workers", "2",
                                "--json", "c.json"], cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(8)
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130 and err == b"verify: interrupted\n", err
    # nothing of the group is left: the pool workers are reaped before the parent exits, and a
    # budgeted fork of a worker gets SIGKILL from the kernel when that worker dies (PDEATHSIG),
    # which on a loaded machine may land after the parent is gone, so the group is given 10 s
    deadline = time.monotonic() + 10
    while True:
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            break
        assert time.monotonic() < deadline, "a process of the interrupted group outlived it by 10 s"
        time.sleep(0.1)
    assert not (tmp_path / "c.json").exists()
