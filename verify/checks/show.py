"""One check's whole outcome as terminal text (``verify show ID``).

The record shown is the one report.json holds for the check (:meth:`Result.to_dict`), whether
it was just computed or read back from a report, so both paths print the same thing: the
statement's number, section and quote, the verdict with the kind of failure, the basis, the
scope, the evidence in full, the counterexample, the correction, the tolerances, the numbers,
the notes and the rerun command, wrapped to the terminal's width.

A report is untrusted input: :func:`record_from_report` reads it with limits (size, nesting,
integer length), checks the type of every field it shows, and raises :class:`ReportError`
(one line, exit status 2 on the command line) for anything else; control characters in its
text are shown escaped, so a report cannot drive the terminal.
"""

from __future__ import annotations

import json
import math
import re
import textwrap
import types
from pathlib import Path
from typing import Any

from verify.base.errors import VerifyInputError, escape_controls
from verify.base.files import TooLargeError, read_limited
from verify.checks.core import LEDGER_READINGS, Check, close_ids
from verify.paper.macros import expand
from verify.paper.pack import PackError, load, using
from verify.paper.provenance import paper
from verify.verdict.display import BASIS_MEANING, FAILURE_MEANING, value_text

#: Largest report read: a full report.json is about 1 MB.
MAX_REPORT_BYTES = 64 << 20
#: Deepest nesting read: a report is an object of a list of records with nested numbers.
MAX_DEPTH = 32
#: Longest integer read (Python itself refuses integers beyond 4300 digits, with a traceback).
MAX_INTEGER_DIGITS = 64

#: The record fields shown, by the JSON type each must have (None allowed for every one but id).
_TEXT_FIELDS = ("id", "statement", "section", "arxiv_v1", "quote", "quote_source", "reading", "method",
                "verdict", "basis", "scope", "failure_kind", "impact", "evidence", "correction", "reproduce",
                "error")
#: The text fields of a per-entry part (report.json's ``parts``) that are shown.
_PART_FIELDS = ("entry", "verdict", "basis", "failure_kind", "impact", "evidence", "correction")
_OBJECT_FIELDS = ("counterexample", "numbers", "parameters")
_VERDICTS = ("holds", "fails", "consistent", "inconclusive", "cited", "crashed")

#: Names of the constants (in a check's code) and numbers (in its record) that are tolerances,
#: confidence levels or working precisions.
_TOLERANCE_NAME = re.compile(r"TOL|DPS|STEP|ROUNDING|CONFIDENCE|(^|_)Z($|_)|Z_CRIT|PREC|SCREEN", re.I)


class ReportError(VerifyInputError):
    """A --from report cannot be read, is not a verify check report, or lacks the check."""


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise ReportError(f"an integer of {len(text.lstrip('-'))} digits is longer than the limit of "
                          f"{MAX_INTEGER_DIGITS}")
    return int(text)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 is valid JSON, and float() makes it infinite
        raise ReportError(f"holds the number {text[:40]}, beyond the range of a float64")
    return value


def _not_json(name: str) -> None:
    raise ReportError(f"holds the number {name}, which is not JSON (verify check writes "
                      "non-finite numbers as text)")


def _depth(value: Any, level: int = 1) -> int:
    if level > MAX_DEPTH or not isinstance(value, dict | list):
        return level - (not isinstance(value, dict | list))
    children = value.values() if isinstance(value, dict) else value
    return max((_depth(v, level + 1) for v in children), default=level)


def read_report(path: str | Path) -> list[dict[str, Any]]:
    """The ``checks`` records of the report.json at ``path``, each checked (:class:`ReportError`)."""
    return read_report_data(path)["checks"]


def read_report_data(path: str | Path) -> dict[str, Any]:
    """The whole report.json at ``path`` (its run: ``suite``, ``seed``, ``full``; its ``checks``),
    every record checked (:class:`ReportError`)."""
    name = repr(str(path))
    try:
        data = json.loads(read_limited(path, MAX_REPORT_BYTES).decode("utf-8"), parse_int=_integer,
                          parse_float=_finite, parse_constant=_not_json)
    except TooLargeError as exc:
        raise ReportError(f"report {name} is {exc}") from None
    except ReportError as exc:
        raise ReportError(f"report {name}: {exc}" if name not in str(exc) else str(exc)) from None
    except OSError as exc:
        raise ReportError(f"cannot read report {name}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ReportError(f"report {name} is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ReportError(f"report {name} is not valid JSON: {exc.msg} (line {exc.lineno}, column "
                          f"{exc.colno})") from None
    except (RecursionError, ValueError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else " ".join(str(exc).split())[:120]
        raise ReportError(f"report {name} cannot be read: {reason}") from None
    if _depth(data) > MAX_DEPTH:
        raise ReportError(f"report {name}: JSON nested deeper than the limit of {MAX_DEPTH}")
    if not isinstance(data, dict) or not isinstance(data.get("checks"), list):
        raise ReportError(f"report {name} is not a verify check report (no list of 'checks')")
    for index, record in enumerate(data["checks"]):
        _validate(record, f"report {name}, check {index + 1}")
    return data


def _validate(record: Any, where: str) -> None:
    if not isinstance(record, dict):
        raise ReportError(f"{where} is not a JSON object")
    if not isinstance(record.get("id"), str) or not record["id"]:
        raise ReportError(f"{where} has no text 'id'")
    where = f"{where} ({_clean(record['id'])[:40]!r})"
    for key in _TEXT_FIELDS:
        if record.get(key) is not None and not isinstance(record[key], str):
            raise ReportError(f"{where}: field {key!r} is not text")
    for key in _OBJECT_FIELDS:
        if record.get(key) is not None and not isinstance(record[key], dict):
            raise ReportError(f"{where}: field {key!r} is not a JSON object")
    for key in ("notes", "code_tolerances"):
        if record.get(key) is not None and not (
                isinstance(record[key], list) and all(isinstance(n, str) for n in record[key])):
            raise ReportError(f"{where}: field {key!r} is not a list of text")
    if record.get("notes") is not None and not (
            isinstance(record["notes"], list) and all(isinstance(n, str) for n in record["notes"])):
        raise ReportError(f"{where}: field 'notes' is not a list of text")
    for key, kinds in (("seed", int), ("seconds", int | float), ("cached_seconds", int | float), ("full", bool)):
        value = record.get(key)
        wrong_kind = not isinstance(value, kinds) or isinstance(value, bool) and kinds is not bool
        if value is not None and wrong_kind:
            wanted = "whole number" if kinds is int else "true or false" if kinds is bool else "number"
            raise ReportError(f"{where}: field {key!r} is {_clean(repr(value))[:40]}, not a {wanted}")
    if record.get("correction_verified") not in (None, True, False):
        raise ReportError(f"{where}: field 'correction_verified' is not true, false or null")
    parts = record.get("parts")
    if parts is not None and not (isinstance(parts, list) and all(
            isinstance(p, dict) and all(p.get(k) is None or isinstance(p[k], str) for k in _PART_FIELDS)
            for p in parts)):
        raise ReportError(f"{where}: field 'parts' is not a list of objects with text fields")
    if record.get("verdict") not in _VERDICTS:
        raise ReportError(f"{where}: verdict {_clean(str(record.get('verdict')))[:40]!r} is not one of "
                          f"{', '.join(_VERDICTS)}")


def find_record(records: list[dict[str, Any]], wanted: str) -> dict[str, Any] | None:
    """The record of check ``wanted`` (spelled as ``verify check --only`` accepts it), or None."""
    key = re.sub(r"[^a-z0-9.]+", "-", wanted.strip().lower()).strip("-")
    return next((r for r in records if r["id"] == key), None)


def record_from_report(path: str | Path, wanted: str, pack_dir: str | Path | None = None) -> dict[str, Any]:
    """The record of check ``wanted`` in the report at ``path``, its quote and reading with the
    macros of the report's pack expanded (:func:`with_macros`); an id the report lacks is a
    :class:`ReportError` naming the report's closest ids."""
    data = read_report_data(path)
    found = find_record(data["checks"], wanted)
    if found is not None:
        return with_macros(found, report_macros(path, data, pack_dir))
    by_id = {r["id"]: r for r in data["checks"]}
    raise ReportError(f"report {str(path)!r} has no check {wanted!r}" + _clean(close_ids(wanted, by_id)))


#: Longest pack directory a report may name (report.json's ``pack``) that is looked for.
MAX_PACK_NAME = 4096


def report_macros(path: str | Path, data: dict[str, Any], pack_dir: str | Path | None = None) -> dict:
    """The macros of the pack the report at ``path`` is about (:meth:`Pack.macros`): ``pack_dir``
    where given, else the directory the report names (its ``pack``, as the rerun commands print
    it), else the report's own directory (where ``verify check --paper DIR`` writes it).  A pack
    counts only when its LaTeX source is the one the report records (``paper.source``, with its
    SHA-256); none for the built-in pack, which names none, or a pack that cannot be read."""
    named = data.get("pack")
    if pack_dir is not None:
        places = [pack_dir]
    elif isinstance(named, str) and 0 < len(named) <= MAX_PACK_NAME:
        places = [named, Path(path).parent]
    else:
        return {}
    recorded = (data.get("paper") or {}).get("source") if isinstance(data.get("paper"), dict) else None
    for place in places:
        try:
            found = load(place)
        except (PackError, OSError, ValueError):  # a report is untrusted: a name that is no pack
            continue
        with using(found):
            same = found.source is not None and recorded is not None and paper().get("source") == recorded
        if same:
            return found.macros()
    return {}


def with_macros(record: dict[str, Any], macros: dict) -> dict[str, Any]:
    """``record`` with the pack's ``macros`` expanded in its quote and reading, as the reports print
    them (:func:`verify.paper.macros.expand`): ``\\gelu`` as ``\\operatorname{gelu}``."""
    if not macros:
        return record
    return {**record, **{key: expand(record[key], macros) for key in ("quote", "reading")
                         if isinstance(record.get(key), str)}}


def code_tolerances(check: Check) -> list[str]:
    """The module constants the check's own code names that are tolerances (``FD_TOL``,
    ``Z_CRIT``, ``HERMITE_DPS``; helpers it calls may use more), as ``NAME = value (where)``
    lines; report.json keeps them with each record so that a report answers without the code."""
    namespace = check.function.__globals__
    return [f"{name} = {namespace[name]} (named in the check's code)"
            for name in sorted(_code_names(check.function.__code__))
            if name.isupper() and _TOLERANCE_NAME.search(name) and _is_number(namespace.get(name))]


def tolerances(record: dict[str, Any], check: Check | None) -> list[str]:
    """The tolerances behind a verdict: those the check's code names (from ``check``, else as the
    report recorded them) and the record's numbers and parameters named like a tolerance."""
    found = code_tolerances(check) if check is not None else list(record.get("code_tolerances") or [])
    for part in ("numbers", "parameters"):
        for key, value in sorted((record.get(part) or {}).items()):
            if _TOLERANCE_NAME.search(key) or "tolerance" in key:
                found.append(f"{key} = {value_text(value)} (in the outcome's {part})")
    return found


def _is_number(value: Any) -> bool:
    # mpmath's mpf is a number too: its class name is the one thing that marks it without an import
    return isinstance(value, int | float) and not isinstance(value, bool) or type(value).__name__ == "mpf"


def _code_names(code: types.CodeType) -> set[str]:
    """Global names a function's code uses, its nested functions' included."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def _clean(text: str) -> str:
    """``text`` with control characters shown as escapes (``\\x1b``), so a report cannot drive the
    terminal; tabs and newlines become spaces."""
    return escape_controls(text.replace("\t", " ").replace("\n", " "))


def render(record: dict[str, Any], tolerance_lines: list[str], width: int = 100) -> str:
    """The record as labelled, wrapped paragraphs (the output of ``verify show``)."""
    width = max(60, width)
    label_width = 16
    out: list[str] = []

    def field(label: str, text: str, hang: int = 0) -> None:
        out.extend(textwrap.wrap(_clean(text), width=width, initial_indent=f"{label:<{label_width}}",
                                 subsequent_indent=" " * (label_width + hang), break_on_hyphens=False)
                   or [label])

    def field_lines(label: str, items: list[str], hang: int = 0) -> None:
        for i, item in enumerate(items):
            field(label if i == 0 else "", item, hang)

    section = f"§{record['section']}" if record.get("section") else None
    arxiv = f"arXiv v1: {record['arxiv_v1']}" if record.get("arxiv_v1") else None
    place = "; ".join(p for p in (section, arxiv) if p)
    where = " ".join(p for p in (record.get("statement"), f"({place})" if place else None) if p)
    out += textwrap.wrap(_clean(f"{record['id']}: {where}" if where else record["id"]), width=width)
    if record.get("quote"):
        from_reading = record.get("quote_source") == "the check's reading"
        quote = ("the check's own reading (no passage of the text is located for it): " if from_reading
                 else "") + record["quote"]
        # never broken at a hyphen: "Cauchy-Schwarz" and a TeX "a-b" must read back as printed
        out += [""] + textwrap.wrap(_clean(quote), width=width, initial_indent="  ", subsequent_indent="  ",
                                    break_on_hyphens=False) + [""]
        # a ledger check's reading is its quote again ("Display (2-2), as printed: $…$")
        reading = record.get("reading")
        repeated = str(reading).startswith(tuple(f"{label} (" for label in LEDGER_READINGS.values()))
        if not from_reading and reading and reading != record["quote"] and not repeated:
            out += textwrap.wrap(_clean("the check's own reading: " + record["reading"]), width=width,
                                 initial_indent="  ", subsequent_indent="  ", break_on_hyphens=False) + [""]
    verdict = record.get("verdict") or "unknown"
    field("verdict", verdict)
    kind = record.get("failure_kind")
    if kind:
        field("failure kind", f"{kind}: {FAILURE_MEANING.get(kind, '')}".rstrip(": "))
    elif verdict == "fails":
        field("failure kind", "not recorded")
    else:
        field("failure kind", "none (only a fails has one)")
    if record.get("impact"):
        field("impact", record["impact"])
    basis = record.get("basis")
    field("basis", f"{basis}: {BASIS_MEANING.get(basis, '')}".rstrip(": ") if basis else "none recorded")
    if record.get("scope"):
        field("scope", record["scope"])
    else:
        field("scope", "none: a fails is covered by its counterexample" if verdict == "fails"
              else "none (only a holds or consistent has one)")
    if record.get("method"):
        field("method", record["method"])
    if verdict == "crashed":
        field("error", "the check crashed; its traceback follows")
        out += ["", *(_clean(line) for line in (record.get("error") or "").rstrip().splitlines()), ""]
    else:
        field("evidence", record.get("evidence") or "none recorded")
    counterexample = record.get("counterexample")
    if counterexample:
        field_lines("counterexample", [f"{k} = {value_text(v)}" for k, v in counterexample.items()])
    elif verdict != "crashed":
        field("counterexample", "none (only a fails has one)" if verdict != "fails" else "none recorded")
    if record.get("correction"):
        state = record.get("correction_verified")
        verified = (" (verified by the check)" if state is True else " (NOT verified)" if state is False
                    else " (not checked)")
        field("correction", record["correction"] + verified)
    else:
        field("correction", "none")
    entries = [f"{p.get('entry')}: {p.get('verdict')} ({p.get('basis')}"
               + (f"; {p['failure_kind']}, impact {p.get('impact')}" if p.get("failure_kind") else "")
               + f"): {p.get('evidence')}" for p in record.get("parts") or []]
    if entries:
        field_lines("ledger entries", [_clean(e) for e in entries], hang=2)
    field_lines("tolerances", tolerance_lines or ["none found in the check's code or its numbers"])
    for part in ("numbers", "parameters"):
        if record.get(part):
            field_lines(part, [f"{k} = {value_text(v)}" for k, v in record[part].items()])
    field_lines("notes", [f"- {note}" for note in record.get("notes") or []], hang=2)
    run = [f"seed {record['seed']}" if isinstance(record.get("seed"), int) else None,
           "full run" if record.get("full") is True else "quick run" if record.get("full") is False else None,
           f"{record['seconds']} s" if isinstance(record.get("seconds"), int | float) else None,
           f"read back from the last run of this code, which computed it in {record['cached_seconds']} s"
           if isinstance(record.get("cached_seconds"), int | float) else None]
    if any(run):
        field("run", ", ".join(p for p in run if p))
    field("rerun", record.get("reproduce") or f"verify check --only {record['id']}")
    return "\n".join(out)
