"""report.html as a reader sees it: valid HTML, every formula as MathML, every statement under
an anchor, and, where a browser exists, drawn by headless Chromium (screenshot kept)."""

from __future__ import annotations

import re
import shutil
import subprocess

import html5lib
import pytest

from tests.markdown_lint import math_spans
from verify.checks import load_all, resolve
from verify.checks.html_report import to_html
from verify.checks.report import to_markdown
from verify.checks.runner import run_checks

IDS = ["d1-h-display", "d1-parity", "remark-9"]


@pytest.fixture(scope="module")
def report() -> tuple[str, str]:
    load_all()
    md = to_markdown(run_checks(resolve(IDS)), seed=0, full=False)
    return md, to_html(md)


@pytest.mark.extended
def test_html_parses_and_carries_mathml_for_every_formula(report):
    md, page = report
    html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(page)  # raises on a parse error
    assert len(math_spans(md)) > 0
    assert page.count("<math") == len(math_spans(md)), "each $`latex`$ of report.md is one <math>"
    assert "$<code>" not in page


def test_every_statement_has_an_anchor_the_summary_links_to(report):
    _, page = report
    for check_id in IDS:
        assert f'id="{check_id}"' in page
        assert f'href="#{check_id}"' in page
    assert page.index("Errata: what fails") < page.index("Coverage of the paper") < page.index("Details")


def test_page_needs_no_network(report):
    _, page = report
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page), "the page loads nothing from outside"


BROWSER = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def probed(page: str, probe: str) -> str:
    """``page`` with the test's own measuring script before </body>, and without the page's
    Content-Security-Policy, which forbids every script (tests/test_report_hostile_pack.py)."""
    page = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>\n?', "", page)
    return page.replace("</body>", probe + "</body>")

def title_after_load(page: str, probe: str, tmp_path, window: str) -> str:
    """The document title ``probe`` (a script) leaves in ``page`` drawn by headless Chromium in a
    window of ``window`` ("1280,900") pixels; "" when the browser ran no script."""
    path = tmp_path / "probe.html"
    path.write_text(probed(page, probe), encoding="utf-8")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--window-size={window}"]
    dom = subprocess.run([BROWSER, *flags, "--dump-dom", path.as_uri()], capture_output=True, text=True,
                         timeout=120).stdout
    found = re.search(r"<title>([^<]*)</title>", dom)
    return found.group(1) if found else ""


_PROBE = """<script>
const maths = document.querySelectorAll('math');
const drawn = [...maths].filter(m => m.namespaceURI === 'http://www.w3.org/1998/Math/MathML'
                                  && m.getBoundingClientRect().width > 0).length;
document.title = 'mathml ' + maths.length + ' drawn ' + drawn;
</script>"""


@pytest.mark.extended
@pytest.mark.skipif(BROWSER is None, reason="no Chromium here (.ci/run installs Debian's chromium)")
def test_chromium_draws_the_formulas(report, tmp_path):
    _, page = report
    probe = tmp_path / "probe.html"
    probe.write_text(probed(page, _PROBE), encoding="utf-8")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1200,1600"]
    dom = subprocess.run([BROWSER, *flags, "--dump-dom", probe.as_uri()], capture_output=True, text=True,
                         timeout=120).stdout
    found = re.search(r"<title>mathml (\d+) drawn (\d+)</title>", dom)
    assert found, "the browser ran no script or gave no DOM"
    total, drawn = map(int, found.groups())
    assert total == page.count("<math") and drawn == total, f"{drawn} of {total} formulas drawn as MathML"
    shot = tmp_path / "report.png"
    page_file = tmp_path / "report.html"
    page_file.write_text(page, encoding="utf-8")
    subprocess.run([BROWSER, *flags, f"--screenshot={shot}", page_file.as_uri()], capture_output=True,
                   timeout=120)
    assert shot.exists() and shot.stat().st_size > 20_000, "the screenshot shows the page"


@pytest.mark.parametrize("latex", [r"\text{<script>alert(1)</script>}", r"\text{<img src=x onerror=alert(1)>}",
                                   r"\mathrm{a}\text{<a href='javascript:x'>y</a>}"])
def test_markup_inside_a_formula_never_reaches_the_page(latex):
    """latex2mathml copies \\text{...} verbatim: its output is whitelisted element by element,
    and a formula with anything else stays visible as escaped LaTeX (issue #38)."""
    from verify.base.markdown import math_span

    page = to_html(f"A formula: {math_span(latex)}\n")
    parsed = html5lib.parse(page, namespaceHTMLElements=False)
    assert not parsed.findall(".//script") and not parsed.findall(".//img") and not parsed.findall(".//a")
    import html

    assert f"<code>{html.escape(latex)}</code>" in page  # shown, as text


def test_a_traceback_cannot_close_its_code_block():
    from verify.base.markdown import code_block

    error = "Traceback\n```\n# Injected heading\n````\nValueError: x"
    page = to_html("\n".join(["before", *code_block(error), "after"]) + "\n")
    parsed = html5lib.parse(page, namespaceHTMLElements=False)
    assert not parsed.findall(".//h1")
    (block,) = parsed.findall(".//pre/code")
    assert block.text.rstrip("\n") == error


_GEOMETRY = """<script>
window.addEventListener('load', () => {
  const top = id => document.getElementById(id).getBoundingClientRect().top + window.scrollY;
  const summary = top('errata') - top('summary');
  document.getElementById('%s').scrollIntoView();
  const target = document.getElementById('%s').getBoundingClientRect().top;
  document.title = 'summary ' + Math.round(summary) + ' target ' + Math.round(target)
                   + ' scrolled ' + Math.round(window.scrollY);
});
</script>"""


def _ink(png) -> float:
    """The share of the screenshot's pixels that are not (near) white."""
    from PIL import Image

    with Image.open(png) as image:
        grey = image.convert("L")
        histogram = grey.histogram()
    return sum(histogram[:200]) / sum(histogram)


@pytest.mark.extended
@pytest.mark.skipif(BROWSER is None, reason="no Chromium here (.ci/run installs Debian's chromium)")
def test_the_summary_fits_one_screen_and_an_anchor_shows_its_statement(report, tmp_path):
    """Issue 39 item 3: screenshots of the summary (the top of the page, 1280 × 900) and of one
    statement's anchor.  Headless Chromium draws ``file://…#anchor`` blank, so the anchor is reached
    through a wrapper page whose frame opens the report at it; where it lies is measured in the page
    itself, by scrolling its element into view when the page has loaded."""
    _, page = report
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1280,900"]
    shots = {}
    for name, target in (("summary", "summary"), ("anchor", "remark-9")):
        probe = tmp_path / f"{name}.html"
        probe.write_text(probed(page, _GEOMETRY % (target, target)), encoding="utf-8")
        dom = subprocess.run([BROWSER, *flags, "--dump-dom", probe.as_uri()], capture_output=True, text=True,
                             timeout=120).stdout
        found = re.search(r"<title>summary (-?\d+) target (-?\d+) scrolled (-?\d+)</title>", dom)
        assert found, "the browser ran no script or gave no DOM"
        summary, top, scrolled = map(int, found.groups())
        assert 0 < summary <= 900, f"the summary is {summary} px tall: more than one 900 px screen"
        assert abs(top) <= 2, f"{target} is {top} px from the top of the window after scrolling to it"
        if name == "anchor":
            assert scrolled > 900, "the anchor lies below the first screen, and the window scrolled to it"
        # the screenshot through a wrapper page whose frame opens the report at the anchor
        (tmp_path / "report.html").write_text(page, encoding="utf-8")
        wrapper = tmp_path / f"wrapper-{name}.html"
        wrapper.write_text(f'<!DOCTYPE html><html><body style="margin:0"><iframe src="report.html#{target}" '
                           'style="border:0;width:1280px;height:900px"></iframe></body></html>', encoding="utf-8")
        shots[name] = tmp_path / f"{name}.png"
        subprocess.run([BROWSER, *flags, f"--screenshot={shots[name]}", wrapper.as_uri()], capture_output=True,
                       timeout=120)
        assert shots[name].exists() and _ink(shots[name]) > 0.01, f"the {name} screenshot is blank"
    assert shots["summary"].read_bytes() != shots["anchor"].read_bytes(), "both screenshots show the same place"


_WIDTH = """<script>
window.addEventListener('load', () => {
  const fractions = [...document.querySelectorAll('mfrac mfrac')].map(f => f.getBoundingClientRect().height);
  document.title = 'width ' + document.documentElement.scrollWidth
                   + ' nested ' + Math.round(Math.min(...fractions, 999));
});
</script>"""


@pytest.mark.skipif(BROWSER is None, reason="no Chromium here (.ci/run installs Debian's chromium)")
def test_a_long_formula_scrolls_in_its_box_and_nested_fractions_stay_legible(tmp_path):
    """Issue #49: one long formula (display C.3-7) made the page 7423 px wide, and nested fractions
    were about 5 px high.  A 1280 px window: the page is no wider, and an inner fraction is at
    least 12 px tall."""
    long_sum = " + ".join(rf"\frac{{a_{{{i}}}}}{{b_{{{i}}} + c_{{{i}}}}}" for i in range(120))
    nested = r"\frac{\frac{\beta^2}{100 d}}{\frac{C T \eta^2 S_k^2}{(\log d V_k)^2} + \frac{1}{3}}"
    page = to_html(f"# width\n\nA long one: $`{long_sum}`$ and a nested one: $`{nested}`$.\n\n"
                   f"| a | b |\n|---|---|\n| $`{long_sum}`$ | x |\n")
    found = re.fullmatch(r"width (\d+) nested (\d+)", title_after_load(page, _WIDTH, tmp_path, "1280,900"))
    assert found, "the browser ran no script or gave no DOM"
    width, nested_height = map(int, found.groups())
    assert width <= 1280, f"the page is {width} px wide in a 1280 px window"
    assert nested_height >= 12, f"an inner fraction is {nested_height} px tall"


def test_no_link_is_broken(report):
    """Issue #49: every in-page link of report.md and report.html reaches an anchor (the summary's
    link to "#impact-false statement" once had a space, so GitHub showed it as raw Markdown)."""
    md, page = report
    md_targets = set(re.findall(r"\]\(#([^)\s]*)\)", md))
    md_anchors = set(re.findall(r'<a id="([^"]+)"></a>', md))
    assert md_targets and md_targets <= md_anchors, sorted(md_targets - md_anchors)
    assert not re.search(r"\]\(#[^)]*\s[^)]*\)", md), "a link target holds a space"
    html_targets = set(re.findall(r'href="#([^"]*)"', page))
    html_anchors = set(re.findall(r'id="([^"]+)"', page))
    assert html_targets and html_targets <= html_anchors, sorted(html_targets - html_anchors)


def _failing_result(check_id: str, outcome):
    """A throwaway Result of a check that no pack holds, with ``outcome``."""
    from verify.checks.core import Check
    from verify.checks.runner import Result

    def function(ctx):
        """Test statement: a throwaway check whose outcome is given."""
        return outcome

    return Result(Check(check_id, "Test 1", "1", "claim", function), 0, False, 0.0, outcome)


def test_a_rerun_command_is_code_in_both_reports_never_math():
    """A claim's rerun command is copied into a shell: report.md and report.html print it verbatim
    as code (its 4/(3*pi)*rho was drawn as math, in the middle of the command)."""
    from verify.checks.report import _details
    from verify.verdict import Outcome, Verdict

    command = "verify claim 'K(rho) >= 4/(3*pi)*rho' --activation erf --for 'rho = -1'"
    outcome = Outcome(Verdict.FAILS, "fails at rho=-1",
                      counterexample={"rho": -1, "lhs": -0.46, "rhs": -0.42, "rerun": command},
                      parameters={"claim": "K(rho) >= 4/(3*pi)*rho", "for": ["xi = sqrt(k)", "rho = -1"]})
    md = "\n".join(_details(_failing_result("test-rerun-cell", outcome), 0))
    assert f"| rerun | `{command}` |" in md
    assert """| for | `["xi = sqrt(k)", "rho = -1"]` |""" in md  # a claim's quantifiers: code too
    page = to_html(md)
    assert f"<code>{command.replace('>', '&gt;')}</code>" in page
    cell = page[page.index("<td>rerun</td>"):]
    assert "<math" not in cell[:cell.index("</tr>")]


def test_an_align_quote_is_a_display_in_both_reports(tmp_path):
    """An align's quote is a display block: report.md a ```math block of \\begin{aligned} (GitHub
    draws neither & nor \\\\ in inline math), report.html one MathML table, through the one
    whitelist; never raw TeX in <code>, never \\nonumber or \\label."""
    from tests.pack_helpers import align_note_pack, run_pack
    from verify.paper import pack

    found, results = run_pack(align_note_pack(tmp_path), ["display-1-1"])
    with pack.using(found):
        md = to_markdown(results, seed=0, full=False)
    details = md[md.index("### `display-1-1`"):]
    assert details.split("\n")[2:9] == [
        "> ```math", r"> \begin{aligned}", r"> K(0) &= 0, \\",
        r"> K(1) &= \mathbb{E}[\operatorname{erf}(g)^2] \\", r"> &= 1.", r"> \end{aligned}", "> ```"]
    page = to_html(md)
    quote = page[page.index('<h3><code>display-1-1</code>'):]
    quote = quote[quote.index("<blockquote>"):quote.index("</blockquote>")]
    assert quote.count("<math") == 1 and 'display="block"' in quote and quote.count("<mtr>") == 3
    assert "<code>" not in quote and "&amp;" not in quote and "nonumber" not in quote
    html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(page)


@pytest.mark.parametrize(("block", "kept"), [('<pre lang="math"><code>x</code></pre>', True),
                                             ('<pre lang="math x" onclick="y"><code>x</code></pre>', False)])
def test_a_math_block_keeps_only_its_language(block, kept):
    from verify.base.safe_html import sanitize_html

    assert sanitize_html(block).startswith('<pre lang="math">') is kept
    assert "onclick" not in sanitize_html(block)
