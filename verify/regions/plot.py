"""One heat map per figure: per claim, the fraction of instances where it holds at each
(ξ, λ shape) row and grid step η·d column, and the tuned-step protocol as the last column."""

from __future__ import annotations

import io

import numpy as np

from verify.base.files import write_atomic


def heat_map(path: str, figure: str, claims: list[dict], paper: str) -> None:
    # lazy: matplotlib costs 0.5 s at import; only the PNGs need it
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(
        len(claims),
        1,
        figsize=(11, 1.6 + 1.15 * sum(len(c["shared"]) for c in claims)),
        squeeze=False,
        constrained_layout=True,
    )
    for ax, claim in zip(axes[:, 0], claims, strict=True):
        rows = list(claim["shared"])
        grid = claim["shared"][rows[0]]["eta_d"]
        frac = np.full((len(rows), len(grid) + 1), np.nan)
        for i, key in enumerate(rows):
            cells = claim["shared"][key]["cells"] + [claim["tuned"][key]]
            for j, c in enumerate(cells):
                known = c["instances"] - c["unknown"]
                frac[i, j] = c["holds"] / c["instances"] if known else np.nan
                mark = {"holds": "+", "fails": "-", "undecided": "?"}[c["status"]]
                ax.text(j, i, f"{c['holds']}/{c['instances']}\n{mark}", ha="center", va="center", fontsize=7)
        image = ax.imshow(frac, vmin=0, vmax=1, cmap="RdYlGn", aspect="auto")
        ax.axvline(len(grid) - 0.5, color="k", lw=2)
        ax.set_xticks(range(len(grid) + 1), [f"{x:.3g}" for x in grid] + ["tuned"], fontsize=7)
        ax.set_yticks(
            range(len(rows)),
            [r.replace("xi=", r"$\xi$=").replace("lambda", r"$\lambda$") for r in rows],
            fontsize=8,
        )
        ax.set_xlabel(r"shared step $\eta d$ (columns)  |  step tuned per curve (last column)")
        ax.set_title(
            f"{claim['claim']}\nverdict: {claim['verdict']}; reproduced by: "
            f"{', '.join(claim['reproduced_by'])}",
            fontsize=9,
        )
        fig.colorbar(image, ax=ax, label="fraction of instances where it holds", shrink=0.8)
    fig.suptitle(
        f"{paper}\n{figure}: + holds on most instances (99% Clopper–Pearson), - fails on most, ? undecided",
        fontsize=9,
    )
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    plt.close(fig)
    # through write_atomic: an interrupt while drawing leaves no torn PNG, and a link is not followed
    write_atomic(path, buffer.getvalue(), "regions heat map")
