"""A region run directory reduced to what the README's regions table shows, and that table.

The summary keeps every claim's verdict, protocol, per-cell words, the flow gap and the best
explanation; it leaves out the wall time, so a rerun with the same seeds gives the same bytes
(``scripts/update_readme_figures.py --check`` compares them in CI).
"""

from __future__ import annotations

import json
from pathlib import Path

from verify.base.markdown import markdown_text


def _stable(value: float) -> float:
    """A measured gap to 6 significant digits: its last digits differ between machines (float64
    sums in another order), which made the committed summary differ from a fresh run in CI."""
    return float(f"{value:.6g}")


def summarize(directory: str | Path) -> dict:
    studies, tiers = {}, set()
    for path in sorted(Path(directory).glob("regions.*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        tiers.add(doc["tier"])
        studies[doc["study"]] = {
            "sizes": doc["sizes"],
            # a run under another kernel may differ in its last bits (verify.base.threads)
            "blas_kernel": doc.get("blas_kernel", "not recorded"),
            "xi": doc["xi"],
            "lambda_shapes": doc["lambda_shapes"],
            "confidence": doc["confidence"],
            "flow_gap": {
                fig: {**{k: _stable(g[k]) for k in ("median_abs_gap", "p90_abs_gap")},
                      **{k: g[k] for k in ("overlap_runs", "flow_used")}}
                for fig, g in doc["flow_gap"].items()
            },
            "claims": [
                {
                    "figure": c["figure"],
                    "claim": c["claim"],
                    "verdict": c["verdict"],
                    "reproduced_by": c["reproduced_by"],
                    "words": c["words"],
                    "explanation": None
                    if not c["explanation"] or c["explanation"]["best"] is None
                    else {
                        "statistic": c["explanation"]["statistic"],
                        "best": c["explanation"]["best"],
                        "spearman": c["explanation"]["correlations"][c["explanation"]["best"]]["spearman"],
                        "n": c["explanation"]["correlations"][c["explanation"]["best"]]["n"],
                    },
                }
                for c in doc["claims"]
            ],
        }
    if len(tiers) != 1:
        raise ValueError(f"{directory} holds no region run (or runs of several tiers: {sorted(tiers)})")
    return {"tier": tiers.pop(), "studies": studies}


_FIGURE_NAMES = {"fig4a": "Fig. 4(a)", "fig1a_4b": "Fig. 1(a) = Fig. 4(b)", "fig2": "Fig. 2",
                 "fig1b_6": "Fig. 1(b) = Fig. 6", "fig3": "Fig. 3", "fig5": "Fig. 5"}


def gap_words(gap: dict, detail: bool = False) -> str:
    """The flow-against-SGD gap of one figure in words."""
    if not gap["overlap_runs"]:
        return (
            "no curve's runs are described by the population flow (u_hat not projected, or no flow): "
            "not used"
        )
    p90 = f" (90th percentile {gap['p90_abs_gap']:.3f})" if detail else ""
    where = " at each curve's two smallest SGD steps" if detail else ""
    used = ("used below them" if detail else "used") if gap["flow_used"] else "not used"
    return (
        f"median |t_SGD/t_flow − 1| {gap['median_abs_gap']:.3f}{p90} over {gap['overlap_runs']} runs{where}; "
        f"flow {used}"
    )


def render(quick: dict | None, full: dict | None) -> str:
    """The README table: per claim and tier, the verdict, the protocol that reproduces it, and
    the region in words; then the flow gaps."""
    lines = [
        "| figure | claim | tier | verdict | reproduced by | where (tuned: fraction [99% CI]; shared: "
        "η·d where it holds on most) | best predictor of the failures (Spearman) |",
        "|---|---|---|---|---|---|---|",
    ]
    gaps = []
    for tier, summary in (("quick", quick), ("full", full)):
        if summary is None:
            continue
        for study in summary["studies"].values():
            sizes = study["sizes"]
            size = f"{tier} (k={sizes['k']}, d={sizes['d']}, {sizes['instances']} inst.)"
            for c in study["claims"]:
                exp = c["explanation"]
                why = f"{exp['best']} ({exp['spearman']:+.2f}, n={exp['n']})" if exp else ""
                why = markdown_text(why, table_cell=True)
                words = "<br>".join(markdown_text(w, table_cell=True) for w in c["words"])
                lines.append(
                    f"| {_FIGURE_NAMES.get(c['figure'], c['figure'])} "
                    f"| {markdown_text(c['claim'], table_cell=True)} "
                    f"| {size} | {c['verdict']} | {', '.join(c['reproduced_by'])} | {words} | {why} |"
                )
            for fig, g in study["flow_gap"].items():
                gaps.append(f"- {_FIGURE_NAMES.get(fig, fig)}, {tier}: {gap_words(g, detail=True)}")
    return "\n".join(lines) + "\n\nPopulation flow against SGD where both run:\n\n" + "\n".join(gaps) + "\n"
