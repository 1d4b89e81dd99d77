"""Files written as one generation (issue #51, item 2): a report set or a figure's files appear
together or not at all, and `ledger init` never replaces a file it did not write."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from verify.base.files import OutputPathError, one_generation, write_atomic, write_set

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "rank1-note"


def test_a_set_with_one_refused_target_changes_none(tmp_path):
    (tmp_path / "a.json").write_text("old a")
    (tmp_path / "c.html").mkdir()  # a directory is refused as a target
    with pytest.raises(OutputPathError):
        write_set([(tmp_path / "a.json", "new a", "a"), (tmp_path / "b.md", "new b", "b"),
                   (tmp_path / "c.html", "new c", "c")])
    assert (tmp_path / "a.json").read_text() == "old a"
    assert not (tmp_path / "b.md").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "c.html"], "no temporary file is left"


def test_a_generation_interrupted_writes_nothing(tmp_path):
    (tmp_path / "fig.json").write_text("old")
    with pytest.raises(KeyboardInterrupt), one_generation():
        write_atomic(tmp_path / "fig.png", b"new png")
        write_atomic(tmp_path / "fig.csv", "new csv")
        raise KeyboardInterrupt  # Ctrl-C before the JSON is written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fig.json"]
    assert (tmp_path / "fig.json").read_text() == "old"


def test_a_generation_appears_whole(tmp_path):
    with one_generation():
        write_atomic(tmp_path / "fig.png", b"png")
        assert not (tmp_path / "fig.png").exists(), "nothing appears before the generation ends"
        write_atomic(tmp_path / "fig.json", "json")
    assert (tmp_path / "fig.png").read_bytes() == b"png" and (tmp_path / "fig.json").read_text() == "json"


def test_signals_are_held_while_a_set_is_renamed(tmp_path, monkeypatch):
    """A SIGINT that arrives during the renames is delivered after the last one."""
    order = []
    real_replace = os.replace

    def replace(src, dst):
        real_replace(src, dst)
        order.append(Path(dst).name)
        if len(order) == 1:
            os.kill(os.getpid(), signal.SIGINT)  # held back: the second rename still happens

    monkeypatch.setattr(os, "replace", replace)
    # Python's own SIGINT handler (a test runner's worker may have replaced it)
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            write_set([(tmp_path / "r.json", "j", "j"), (tmp_path / "r.html", "h", "h")])
    finally:
        signal.signal(signal.SIGINT, handler)
    assert order == ["r.json", "r.html"]


def _init(tex: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "verify", "ledger", "init", str(tex), "--out", str(out)],
                          capture_output=True, text=True, timeout=300)


def test_ledger_init_replaces_no_file_it_did_not_write(tmp_path):
    tex = tmp_path / "note.tex"
    tex.write_text((EXAMPLE / "note.tex").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "paper.txt").write_text("the user's own text")
    done = _init(tex, tmp_path)
    assert done.returncode == 2 and "already holds paper.txt" in done.stderr and done.stderr.count("\n") == 1
    assert (tmp_path / "paper.txt").read_text() == "the user's own text"
    # a filled ledger file, ledger.d/statements.toml too (the relations of the statements: it was
    # overwritten), is never replaced, and nothing is written beside it
    for name in ("displays.toml", "statements.toml"):
        filled = tmp_path / f"filled-{name}"
        (filled / "ledger.d").mkdir(parents=True)
        (filled / "ledger.d" / name).write_text("# filled by hand")
        done = _init(tex, filled)
        assert done.returncode == 2 and f"already holds ledger.d/{name}" in done.stderr
        assert (filled / "ledger.d" / name).read_text() == "# filled by hand"
        assert sorted(p.name for p in filled.rglob("*")) == sorted(["ledger.d", name])
    # so was a file of the source's name that is not the source
    other = tmp_path / "other"
    other.mkdir()
    (other / "note.tex").write_text("the user's own note")
    done = _init(tex, other)
    assert done.returncode == 2 and "already holds note.tex" in done.stderr
    assert (other / "note.tex").read_text() == "the user's own note"


def test_ledger_init_leaves_no_manifest_and_a_stopped_init_may_be_rerun(tmp_path, monkeypatch):
    """The manifest (.ledger-init.json) lets a rerun replace what an init that stopped before
    pack.toml wrote; once pack.toml is written the directory is refused whole, and the manifest
    is removed (it was left behind in every pack)."""
    from verify.paper import skeleton
    from verify.paper.pack import PackError

    tex = tmp_path / "note.tex"
    tex.write_text((EXAMPLE / "note.tex").read_text(encoding="utf-8"), encoding="utf-8")
    done = _init(tex, tmp_path / "pack")
    assert done.returncode == 0, done.stderr
    assert skeleton.MANIFEST not in [p.name for p in (tmp_path / "pack").iterdir()]
    # an init that stops before pack.toml (here: writing it fails) may be run again
    real = skeleton.write_atomic

    def fails_at_pack_toml(path, *args, **kwargs):
        if Path(path).name == "pack.toml":
            raise OSError("disk full")
        return real(path, *args, **kwargs)

    fresh = tmp_path / "fresh"
    monkeypatch.setattr(skeleton, "write_atomic", fails_at_pack_toml)
    with pytest.raises(OSError):
        skeleton.init_pack(tex, fresh)
    assert (fresh / skeleton.MANIFEST).is_file() and not (fresh / "pack.toml").exists()
    monkeypatch.setattr(skeleton, "write_atomic", real)
    (fresh / "ledger.d" / "relations.toml").write_text("# edited since")
    with pytest.raises(PackError, match="relations.toml"):
        skeleton.init_pack(tex, fresh)  # a file changed since: refused
    (fresh / "ledger.d" / "relations.toml").unlink()
    skeleton.init_pack(tex, fresh)
    assert (fresh / "pack.toml").is_file() and not (fresh / skeleton.MANIFEST).exists()
