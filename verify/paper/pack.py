"""Papers as data: a *pack* is a directory holding one text about this model and its ledger.

A pack directory holds

- ``pack.toml``: the paper's provenance (``[paper]``: title, authors, venue, note), its text
  (``[text]``: ``file`` and its ``sha256``; ``source`` and ``source_sha256`` where the text was
  extracted from a LaTeX file by ``verify ledger init``), its ledger files (``[ledger]``:
  ``displays`` and ``relations``, each a list of ``ledger.d/*.toml`` files in the paper's order;
  optional ``statements``, ``definitions``, ``parameter_choices`` (which inline spans only choose a
  parameter and get no entry, :func:`verify.paper.source._parameter_choices`) and ``coded_checks``,
  below) and an optional ``[numbering]`` (another
  version's statement numbers, :mod:`verify.paper.provenance`);
- the text, in the suite's extracted format (:mod:`verify.paper.source`: numbered headings,
  ``$$ … $$`` displays, statements and proofs opening their lines);
- ``ledger.d/``: one entry per display and per inline relation of a proof
  (:mod:`verify.paper.ledger`).

A pack is data: nothing in it runs.  Its entries decide their relations by a claim of the claim
language, by the id of one of the suite's coded checks (``verify check --list``), or give the
reason computation does not decide them.  Only a built-in pack (one inside this package,
:attr:`Pack.builtin`) may carry code: its ``coded_checks`` names a Python package beside its
pack.toml (the Dayı–Chen pack's ``"checks"``, :mod:`verify.paper.packs.dayi_chen.checks`), whose
checks run beside the ledger (:func:`verify.checks.packs.code_modules` imports it by that name).
Any other pack says ``"named"`` (the default), and runs only the coded checks its entries name;
a pack directory that names code is refused (:class:`PackError`), and nothing in it is imported.

The modules that read the text, the ledger, the paper's structure and the provenance read the
*current* pack (:func:`current`), the built-in Dayı–Chen pack unless :func:`using` says otherwise,
so one code path serves every pack.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import functools
import hashlib
import re
import shlex
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from verify.base import files
from verify.base.errors import VerifyInputError
from verify.base.files import read_input

#: The built-in pack: the paper the suite was built for.
BUILTIN = Path(__file__).with_name("packs") / "dayi_chen"
#: The package of the built-in packs: a built-in pack's code is ``PACKAGE.<directory>.<coded_checks>``.
PACKAGE = f"{__name__.rpartition('.')[0]}.packs"
#: The rules of ``[ledger] parameter_choices`` (:func:`verify.paper.source._parameter_choices`).
PARAMETER_CHOICES = ("digits", "symbols")
#: Largest pack file (text, pack.toml, a ledger file) read, in bytes.
MAX_FILE_BYTES = 8 << 20

T = TypeVar("T")


class PackError(VerifyInputError):
    """A pack directory, or a file in it, is not what a pack holds (names the file and what is wrong)."""


def read_bytes(path: Path, what: str = "pack file") -> bytes:
    """The bytes of a file of a pack (at most :data:`MAX_FILE_BYTES`), or :class:`PackError` naming it."""
    return read_input(path, MAX_FILE_BYTES, what, PackError)


def read_toml(path: Path, what: str = "pack file") -> dict:
    """A pack's TOML file, parsed (data only), or :class:`PackError` naming it."""
    return files.read_toml(path, MAX_FILE_BYTES, what, PackError)


@dataclass(frozen=True)
class Pack:
    """One paper as data (module docstring)."""

    root: Path
    text_file: str
    sha256: str
    #: [paper] of pack.toml, as (key, value) pairs in order
    paper: tuple[tuple[str, str], ...]
    display_files: tuple[str, ...]
    relation_files: tuple[str, ...]
    definitions_file: str | None = None
    #: the package of coded checks inside a built-in pack's directory (the Dayı–Chen pack's
    #: ``"checks"``), run beside the ledger; None for every other pack (module docstring)
    coded_checks: str | None = None
    numbering: tuple[tuple[str, str], ...] = ()
    source: str | None = None
    source_sha256: str | None = None
    #: [citations] of pack.toml: (("add", pairs), ("remove", pairs)) of (citing, cited)
    #: statements, hand corrections of the citation graph (verify.paper.structure)
    citations: tuple = ()
    #: [regime] of pack.toml: the main theorems and the values their regime fixes (verify.paper.regime)
    regime: Regime | None = None
    #: the directory as the user gave it (``--paper examples/note``): rerun commands print it, so a
    #: report names no machine path unless the user typed one
    given: str | None = dataclasses.field(default=None, compare=False)
    #: [ledger] statements: the files of the inline relations inside statements (Theorem, …,
    #: Remark), ``[[statement]]`` entries; a pack written before they were tracked has none, and
    #: ``verify ledger status`` says how many relations that leaves untracked
    statement_files: tuple[str, ...] = ()
    #: [ledger] parameter_choices: which inline spans only choose a parameter and get no entry
    #: (:func:`verify.paper.source._parameter_choices`): "digits" (the default, the rule a pack
    #: written before had its ledger numbered by) or "symbols" (what ``ledger init`` writes now)
    parameter_choices: str = "digits"
    #: [ledger] prose: the files of the inline relations of the prose, outside every proof and
    #: statement (:func:`verify.paper.source.prose_relations`), ``[[prose]]`` entries; a pack written
    #: before they were tracked has none, and ``verify ledger status`` says how many that leaves
    prose_files: tuple[str, ...] = ()

    @property
    def builtin(self) -> bool:
        return self.root == BUILTIN.resolve()

    @property
    def key(self) -> str:
        """The pack its checks declare (:attr:`verify.checks.core.Check.pack`): a built-in pack's
        directory name (``dayi_chen``, the name of its package), another pack's directory."""
        return self.root.name if self.builtin else str(self.root)

    @property
    def code_package(self) -> str | None:
        """The full name of the Python package of the pack's coded checks
        (``verify.paper.packs.dayi_chen.checks``), or None: a pack that is not built in has none."""
        if self.coded_checks is None or not self.builtin:
            return None
        return f"{PACKAGE}.{self.root.name}.{self.coded_checks}"

    @property
    def text_path(self) -> Path:
        return self.root / self.text_file

    @property
    def ledger_dir(self) -> Path:
        return self.root / "ledger.d"

    def field(self, key: str, default: str = "") -> str:
        return dict(self.paper).get(key, default)

    def number_field(self, key: str, default: str = "") -> str:
        return dict(self.numbering).get(key, default)

    @property
    def name(self) -> str:
        """How reports name the pack's text: its path (relative to the package for the built-in one)."""
        if self.builtin:
            return str(self.text_path.relative_to(BUILTIN.resolve().parents[3]))
        return self.shown(self.text_path)

    def shown(self, path: Path) -> str:
        """``path``, a file of the pack, as reports print it: under the directory as the user gave
        it (``examples/note/paper.txt``), never a machine path the user did not type."""
        if self.given is None:
            return str(path)
        return str(Path(self.given) / path.relative_to(self.root))

    @property
    def check_command(self) -> str:
        """The command line that checks this pack (what a report's rerun commands start with)."""
        if self.builtin:
            return "verify check"
        return f"verify check --paper {shlex.quote(self.given or str(self.root))}"

    def text(self) -> str:
        """The pack's text, after checking it is the one its ledger was written against."""
        return _text(self.text_path, self.sha256)

    def macros(self) -> dict:
        """The macros of the pack's LaTeX source (:mod:`verify.paper.macros`), by name; none when
        the pack has no source, or its source is not the one ``source_sha256`` records."""
        if self.source is None:
            return {}
        return _macros(self.root / self.source, self.source_sha256)


@functools.cache
def _macros(path: Path, sha256: str | None) -> dict:
    # lazy: only a report of a pack made from LaTeX reads its macros
    from verify.paper.macros import read_macros

    try:
        data = read_bytes(path, "source")
    except PackError:  # a missing or unreadable source leaves the quotes as printed
        return {}
    if sha256 is not None and hashlib.sha256(data).hexdigest() != sha256:
        return {}
    return read_macros(data.decode("utf-8", errors="replace"))


@functools.cache
def _text(path: Path, sha256: str) -> str:
    data = read_bytes(path, "text")
    digest = hashlib.sha256(data).hexdigest()
    if digest != sha256:
        raise PackError(f"text {str(path)!r} has SHA-256 {digest}, not the {sha256} its pack.toml records "
                        "(the ledger was written against another text)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise PackError(f"text {str(path)!r} is not UTF-8") from None


def _strings(table: dict, key: str, where: str) -> tuple[str, ...]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise PackError(f"{where}: {key} must be a list of file names")
    for name in value:
        if Path(name).name != name or not name.endswith(".toml"):
            raise PackError(f"{where}: {key} entry {name!r} is not a .toml file name inside ledger.d/")
    return tuple(value)


def _pairs(table: object, where: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
        raise PackError(f"{where} must be a table of strings")
    return tuple(table.items())


@functools.cache
def load(directory: Path | str) -> Pack:
    """The pack in ``directory`` (its ``pack.toml`` read and checked), or :class:`PackError`."""
    root = Path(directory).resolve()
    if not root.is_dir():
        raise PackError(f"--paper {str(directory)!r} is not a directory holding a pack.toml")
    where = str(root / "pack.toml")
    data = read_toml(root / "pack.toml", "pack.toml")
    stray = set(data) - {"paper", "text", "ledger", "numbering", "citations", "regime"}
    if stray:
        raise PackError(f"{where}: unknown table(s) {', '.join(sorted(stray))}")
    text, ledger = data.get("text", {}), data.get("ledger", {})
    if (not isinstance(text, dict) or not isinstance(text.get("file"), str)
            or Path(text["file"]).name != text["file"]):
        raise PackError(f"{where}: [text] file must name the text, a file beside pack.toml")
    sha = text.get("sha256")
    if not isinstance(sha, str) or len(sha) != 64 or any(c not in "0123456789abcdef" for c in sha):
        raise PackError(f"{where}: [text] sha256 must be the text's SHA-256, 64 lowercase hex digits")
    for key in ("source", "source_sha256"):
        if key in text and not isinstance(text[key], str):
            raise PackError(f"{where}: [text] {key} must be text, not {type(text[key]).__name__}")
    if "source" in text and (not text["source"].strip() or Path(text["source"]).name != text["source"]):
        raise PackError(f"{where}: [text] source must name a file beside pack.toml, got {text['source']!r}")
    source_sha = text.get("source_sha256")
    if source_sha is not None and (len(source_sha) != 64 or any(c not in "0123456789abcdef" for c in source_sha)):
        raise PackError(f"{where}: [text] source_sha256 must be a SHA-256, 64 lowercase hex digits")
    if not isinstance(ledger, dict):
        raise PackError(f"{where}: [ledger] must be a table")
    coded = _coded_checks(ledger.get("coded_checks", "named"), root, where)
    definitions = ledger.get("definitions")
    if definitions is not None and (not isinstance(definitions, str)
                                    or Path(definitions).name != definitions):
        raise PackError(f"{where}: [ledger] definitions must be a file name inside ledger.d/")
    numbering = _pairs(data.get("numbering", {}), f"{where}: [numbering]")
    numbering_file = dict(numbering).get("file")
    if numbering_file is not None and (not numbering_file.strip() or Path(numbering_file).name != numbering_file):
        raise PackError(f"{where}: [numbering] file must name a file beside pack.toml, got {numbering_file!r}")
    pack = Pack(root, text["file"], sha, _pairs(data.get("paper", {}), f"{where}: [paper]"),
                _strings(ledger, "displays", f"{where}: [ledger]"),
                _strings(ledger, "relations", f"{where}: [ledger]"), definitions, coded,
                numbering, text.get("source"), source_sha,
                _citations(data.get("citations", {}), f"{where}: [citations]"),
                _regime(data.get("regime"), f"{where}: [regime]"), str(directory),
                _strings(ledger, "statements", f"{where}: [ledger]"),
                _parameter_choices(ledger.get("parameter_choices", "digits"), where),
                _strings(ledger, "prose", f"{where}: [ledger]"))
    return pack


def _parameter_choices(value: object, where: str) -> str:
    if value not in PARAMETER_CHOICES:
        raise PackError(f"{where}: [ledger] parameter_choices must be one of "
                        f"{', '.join(map(repr, PARAMETER_CHOICES))}, got {value!r}"[:300])
    return str(value)


def _coded_checks(value: object, root: Path, where: str) -> str | None:
    """``[ledger] coded_checks``: the package of coded checks beside a built-in pack's pack.toml
    (``"checks"``; ``"all"``, as pack.toml said before the checks moved into the pack, reads as
    ``"checks"``), or None for ``"named"`` (the default).  Any other pack that names code is refused
    here, before anything could import it: a pack directory is data."""
    if not isinstance(value, str):
        raise PackError(f"{where}: [ledger] coded_checks must be text, not {type(value).__name__}")
    if value == "named":
        return None
    if root != BUILTIN.resolve():
        raise PackError(f"{where}: [ledger] coded_checks = {value!r} names Python code, and only the "
                        "built-in pack may carry code (a pack directory is data): write coded_checks = "
                        "'named' or leave it out")
    package = "checks" if value == "all" else value
    if not package.isidentifier() or not (root / package / "__init__.py").is_file():
        raise PackError(f"{where}: [ledger] coded_checks {value!r} is not 'named' or a package beside "
                        "pack.toml")
    return package


_LABEL = re.compile(r"^[A-Z][a-z]+ \d{1,4}$")


#: A regime's value of one variable, as a --for binding: "xi = 1".
BINDING = re.compile(r"^\s*([A-Za-z_]\w*)\s*=\s*(.+)$")


@dataclass(frozen=True)
class Regime:
    main: tuple[str, ...]
    bindings: tuple[str, ...]  # --for texts: "xi = 1"
    says: str

    def variables(self) -> dict[str, str]:
        """variable -> its binding text (``xi`` -> ``xi = 1``)."""
        return {BINDING.match(b).group(1): b for b in self.bindings}


def _regime(table: object, where: str) -> Regime | None:
    """``[regime]`` of pack.toml, checked; None when the pack has none."""
    if table is None:
        return None
    if not isinstance(table, dict) or set(table) - {"main", "for", "says"}:
        raise PackError(f"{where} must be a table with main, for and says")
    main, bindings, says = table.get("main", []), table.get("for", []), table.get("says", "")
    labels_ok = isinstance(main, list) and main and all(isinstance(m, str) and _LABEL.match(m) for m in main)
    if not labels_ok:
        raise PackError(f"{where}: main must list the main theorems' labels, such as \"Theorem 11\"")
    if not isinstance(bindings, list) or not all(isinstance(b, str) and BINDING.match(b) for b in bindings):
        raise PackError(f"{where}: for must list bindings such as \"xi = 1\"")
    if not isinstance(says, str):
        raise PackError(f"{where}: says must be text")
    return Regime(tuple(main), tuple(bindings), says)




def _citations(table: object, where: str) -> tuple:
    """[citations] add/remove: lists of [citing, cited] statement labels ("Claim 7", "Lemma 31")."""
    if not isinstance(table, dict) or set(table) - {"add", "remove"}:
        raise PackError(f"{where} must be a table with the lists add and remove")
    out = {}
    for key, pairs in table.items():
        if not isinstance(pairs, list) or not all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) and _LABEL.match(x) for x in p)
                for p in pairs):
            raise PackError(f"{where}: {key} must be a list of [citing, cited] pairs of labels such as "
                            f"[\"Claim 7\", \"Lemma 31\"]")
        out[key] = tuple(tuple(p) for p in pairs)
    return tuple(sorted(out.items()))


_CURRENT: contextvars.ContextVar[Pack | None] = contextvars.ContextVar("verify_pack", default=None)


def current() -> Pack:
    """The pack the text, ledger and structure modules read now (the built-in one by default)."""
    return _CURRENT.get() or load(BUILTIN)


@contextlib.contextmanager
def using(pack: Pack) -> Iterator[Pack]:
    """Within this block, :func:`current` is ``pack``."""
    token = _CURRENT.set(pack)
    try:
        yield pack
    finally:
        _CURRENT.reset(token)


def builtin_pack_of(module: str) -> str | None:
    """The built-in pack whose code ``module`` is part of (``dayi_chen`` for
    ``verify.paper.packs.dayi_chen.checks.sec1_2_setting``), or None."""
    if not module.startswith(f"{PACKAGE}."):
        return None
    name, inside, _ = module.removeprefix(f"{PACKAGE}.").partition(".")
    return name if inside else None


def per_pack(function: Callable[[], T]) -> Callable[[], T]:
    """Cache a function of the current pack's text (one value per pack)."""
    cached = functools.cache(lambda pack: function())

    @functools.wraps(function)
    def wrapper() -> T:
        return cached(current())

    wrapper.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
    return wrapper
