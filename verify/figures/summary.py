"""The figures' verdicts in one small JSON and one README table, read from a figures directory.

``verify figures`` writes one NAME.json per figure (with ``--setup both``: each caption
claim's verdict under the paper and the normalised setup, ``setups.comparison``).  The
README's figures table must say what those files say, not what someone copied from them, so

- :func:`summarize` reduces a figures directory to ``{tier, figures: {NAME: {figure,
  claims: [{claim, paper, normalised, headline}]}}}``: the verdicts (``True``, ``False``, or
  ``None`` where a claim is not judged under that setup) and, per setup, the claim's number
  when it has exactly one (a ratio, a count);
- :func:`render` turns the quick and full summaries into the table of the README's
  ``figures`` block (with the one-line explanations of :mod:`verify.figures.explanations`),
  and lists beneath it the claims reproduced under neither setup at full size.

The summaries of the last runs are committed (``results/figures-quick.json``,
``results/figures-full.json``); ``scripts/update_readme_figures.py`` rewrites them and the
block, and CI compares the quick summary with a fresh ``verify figures --quick`` run.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from verify.base.errors import InvalidParameterError
from verify.base.markdown import markdown_text
from verify.figures import FIGURES
from verify.figures.common import NOT_REACHED
from verify.figures.explanations import explanation

SETUP_COLUMNS = ("paper", "normalised")
TIERS = ("quick", "full")


def summarize(directory: str | Path) -> dict:
    """The verdicts of every figure in ``directory`` (see the module docstring)."""

    directory = Path(directory)
    figures: dict = {}
    tiers = set()
    for name, module in FIGURES.items():
        found = _claims(directory, name)
        if found is None:
            continue
        claims, tier, setups = found
        tiers.add(tier)
        if not module.appendix_b:
            setups = sorted({*setups, "paper"})  # not an Appendix B figure: its paper cells read n/a
        figures[name] = {"figure": module.paper.split(":")[0], "setups": setups, "claims": claims}
    if not figures:
        raise InvalidParameterError(f"{directory} has no figure JSONs "
                                    f"(run `verify figures --out {directory}`)")
    if len(tiers) != 1:
        raise InvalidParameterError(f"{directory} mixes tiers {sorted(tiers)}: summarize one run")
    return {"tier": tiers.pop(), "figures": figures}


def _claims(directory: Path, name: str) -> tuple[list, str, list] | None:
    """The figure's claims with a verdict per setup, its tier and the setups that ran; None when
    the directory has no JSON of the figure."""
    normalised = _load(directory / f"{name}.json")
    paper = _load(directory / f"{name}.paper.json")
    if normalised is None and paper is None:
        return None
    tier = (normalised if normalised is not None else paper or {})["tier"]
    comparison = (normalised or {}).get("setups", {}).get("comparison")
    if comparison is not None:
        rows = [{"claim": entry["claim"], "paper": entry["paper"], "normalised": entry["normalised"],
                 "headline": {setup: _headline((entry.get("numbers") or {}).get(setup))
                              for setup in SETUP_COLUMNS},
                 "paper_sensitivity": _sensitivity(entry.get("paper sensitivity"))}
                for entry in comparison]
        return rows, tier, list(SETUP_COLUMNS)
    # One setup only (--setup paper|normalised, or a figure without a paper setup).
    by_claim: dict = {}
    for setup, meta in (("normalised", normalised), ("paper", paper)):
        for entry in (meta or {}).get("claims", []):
            row = by_claim.setdefault(entry["claim"], {"claim": entry["claim"], "paper": None,
                                                       "normalised": None,
                                                       "headline": dict.fromkeys(SETUP_COLUMNS)})
            row[setup] = bool(entry["holds"])
            row["headline"][setup] = _headline(entry.get("numbers"))
    setups = [setup for setup, meta in (("paper", paper), ("normalised", normalised)) if meta is not None]
    return list(by_claim.values()), tier, setups


def _load(path: Path) -> dict | None:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def _headline(numbers) -> str | None:
    """The claim's one number, at 3 significant digits, when it has exactly one; else None."""
    if not isinstance(numbers, dict):
        return None
    # "status", flags (e.g. "horizon capped": false) and the curves that never arrived annotate
    # the claim, they are not its number (a ratio over such curves says ">=" in its key)
    entries = {key: v for key, v in numbers.items()
               if key not in ("status", NOT_REACHED) and not isinstance(v, bool)}
    values = [(key, v) for key, v in entries.items() if _is_real(v)]
    if len(values) != len(entries) or not values:
        return None
    if len(values) > 1:  # several numbers: the one ratio among them, if there is exactly one
        values = [(key, v) for key, v in values if "ratio" in key or "/" in key]
    if len(values) != 1:
        return None
    key, value = values[0]
    return f"{key} {value:.3g}"


#: How the sensitivity column names what was varied (``paper sensitivity`` in the JSONs).
SENSITIVITY_NAMES = {"eta": "η", "c_step": "ĉ step", "xi": "ξ", "horizon": "T", "grid": "ξ grid"}


def _sensitivity(table) -> dict | None:
    """Per varied choice of the paper setup: "holds/judged" over its values (e.g. η: "2/3")."""
    if not isinstance(table, dict):
        return None
    out = {}
    for choice, verdicts in table.items():
        judged = [v for v in verdicts.values() if isinstance(v, bool)]
        if judged:
            out[choice] = f"{sum(judged)}/{len(judged)}"
    return out or None


def _is_real(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def render(quick: dict | None, full: dict | None) -> str:
    """The README's figures table: one row per caption claim, a column per setup and tier."""

    summaries = {"quick": quick, "full": full}
    header = (["figure", "claim"] + [f"{setup}, {tier}" for tier in TIERS for setup in SETUP_COLUMNS]
              + ["paper setup holds at (quick; full)", "why, where a setup does not reproduce it"])
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    neither = []
    for name in FIGURES:
        rows = {tier: {row["claim"]: row for row in _figure(summary, name)}
                for tier, summary in summaries.items()}
        claims = list(dict.fromkeys([*rows["quick"], *rows["full"]]))
        label = _figure_label(summaries, name)
        for claim in claims:
            cells = [_cell(rows[tier].get(claim), setup, setup in _setups(summaries[tier], name))
                     for tier in TIERS for setup in SETUP_COLUMNS]
            cells.append("; ".join(_sensitivity_cell(rows[tier].get(claim)) for tier in TIERS))
            cells.append(_escape(explanation(name, claim) or ""))
            lines.append(f"| {_escape(label)} | {_escape(claim)} | " + " | ".join(cells) + " |")
            full_row = rows["full"].get(claim)
            if full_row and _setups(full, name) == list(SETUP_COLUMNS) and False in \
                    (full_row["paper"], full_row["normalised"]) and True not in (full_row["paper"],
                                                                                full_row["normalised"]):
                numbers = "; ".join(f"{setup}: {full_row['headline'][setup]}" for setup in SETUP_COLUMNS
                                    if full_row["headline"].get(setup))
                neither.append(markdown_text(f"{label}: {claim}" + (f" ({numbers})" if numbers else ""))
                               + f"; rerun: `verify figures --full --only {name} --out figures-full/`")
    text = "\n".join(lines) + "\n"
    if neither:
        text += ("\nNot reproduced under either setup at full size (a finding about the paper, or about "
                 "a choice Appendix B leaves open; see the explanations below):\n\n")
        text += "".join(f"- {item}\n" for item in neither)
    return text


def _figure(summary: dict | None, name: str) -> list:
    return [] if summary is None else summary["figures"].get(name, {}).get("claims", [])


def _setups(summary: dict | None, name: str) -> list:
    return [] if summary is None else summary["figures"].get(name, {}).get("setups", [])


def _figure_label(summaries: dict, name: str) -> str:
    for summary in summaries.values():
        if summary is not None and name in summary["figures"]:
            return summary["figures"][name]["figure"]
    return name


def _escape(text: str) -> str:
    # |m| inside a claim must not end the table cell; SymPy's * must not turn into emphasis
    return markdown_text(text, table_cell=True)


def _sensitivity_cell(row: dict | None) -> str:
    table = (row or {}).get("paper_sensitivity")
    if not table:
        return "—"
    # the order of SENSITIVITY_NAMES (the JSON's keys are sorted), then any other choice
    order = [*[c for c in SENSITIVITY_NAMES if c in table], *sorted(set(table) - set(SENSITIVITY_NAMES))]
    return ", ".join(f"{SENSITIVITY_NAMES.get(choice, choice)} {table[choice]}" for choice in order)


def _cell(row: dict | None, setup: str, ran: bool) -> str:
    if not ran:
        return "not run"
    if row is None:
        return "—"  # the setup ran but has no such claim at this tier
    verdict = row[setup]
    if verdict is None:
        return "n/a"
    headline = row["headline"].get(setup)
    text = "yes" if verdict else "**no**"
    return f"{text} ({headline})" if headline else text
