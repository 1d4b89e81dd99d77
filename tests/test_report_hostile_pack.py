"""A colleague's pack opened as a report runs no script and loads nothing (issue #51, item 1).

The pack is examples/rank1-note with a hostile string of each class the red team found in each
place that reaches the report: the comment trick inside a display quote's ``\\text{}``, a
``venue`` and a ``boundary`` note; ``javascript:`` links and remote images in the title and a
``note``; raw tags.  Every payload, if it ran, would change ``document.title``; every image or
link target points at a local HTTP server that counts what reaches it.  The page is opened in
headless Chromium twice: as written, and with its Content-Security-Policy removed, so the
whitelist (:mod:`verify.base.safe_html`) is tested on its own as well as the policy.
"""

from __future__ import annotations

import hashlib
import http.server
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import html5lib
import pytest

from verify.base.safe_html import sanitize_html, sanitize_mathml

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "rank1-note"
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")

#: What a payload does when it runs: the page's title records it.
RUN = "document.title='PWNED'"


def payloads(port: int) -> dict[str, str]:
    remote = f"http://127.0.0.1:{port}"
    return {
        "comment": f"<!--><script>{RUN}</script>-->",
        "script": f"<script>{RUN}</script>",
        "img": f"<img src={remote}/img onerror=\"{RUN}\">",
        "link": f"[click](javascript:{RUN})",
        "image": f"![x]({remote}/md-image)",
        "autolink": f"<{remote}/autolink> and {remote}/bare",
        "svg": f"<svg onload=\"{RUN}\"></svg>",
        "iframe": f"<iframe src=\"{remote}/frame\"></iframe>",
        "style": f"<style>@import url({remote}/css);</style>",
    }


class _Counter(http.server.BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self):  # noqa: N802 (the stdlib's name)
        type(self).hits.append(self.path)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    httpd = http.server.HTTPServer(("127.0.0.1", 0), _Counter)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()


def _hostile_pack(root: Path, port: int) -> Path:
    """examples/rank1-note with every payload in every field that reaches the report."""
    attack = payloads(port)
    every = " ".join(attack.values())
    copy = root / "hostile"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("report.*", "note.tex"))
    old_quote = r"\mu_1(\sigma) = \frac{1}{2}."
    new_quote = r"\mu_1(\sigma) = \frac{1}{2} \text{" + attack["comment"] + "}."
    text = (copy / "paper.txt").read_text(encoding="utf-8").replace(old_quote, new_quote, 1)
    (copy / "paper.txt").write_text(text, encoding="utf-8")
    displays = copy / "ledger.d" / "displays.toml"
    ledger = displays.read_text(encoding="utf-8").replace(old_quote, new_quote, 1)
    toml_text = every.replace("\\", "\\\\").replace('"', '\\"')
    ledger = ledger.replace("claim = 'mu(1) == 1/2'",
                            f"claim = 'mu(1) == 1/2'\nnote = \"{toml_text}\"\nboundary = \"{toml_text}\"", 1)
    displays.write_text(ledger, encoding="utf-8")
    manifest = (copy / "pack.toml").read_text(encoding="utf-8")
    manifest = re.sub(r"^source.*\n", "", manifest, flags=re.M)
    manifest = re.sub(r"sha256 = '[0-9a-f]+'", f"sha256 = '{hashlib.sha256(text.encode()).hexdigest()}'",
                      manifest)
    manifest = manifest.replace("venue = ''", f"venue = \"{toml_text}\"")
    manifest = re.sub(r"^title = .*$", f"title = \"Note {toml_text}\"", manifest, count=1, flags=re.M)
    (copy / "pack.toml").write_text(manifest, encoding="utf-8")
    return copy


@pytest.fixture(scope="module")
def hostile_report(tmp_path_factory, server) -> Path:
    copy = _hostile_pack(tmp_path_factory.mktemp("pack"), server.server_address[1])
    done = subprocess.run([sys.executable, "-m", "verify", "check", "--paper", str(copy), "--quiet",
                           "--only", "display-2-1"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return copy / "report.partial.html"


def test_the_page_holds_no_active_markup(hostile_report):
    page = hostile_report.read_text(encoding="utf-8")
    parsed = html5lib.parse(page, namespaceHTMLElements=False)
    for tag in ("script", "img", "iframe", "svg", "object", "embed", "link"):
        assert not parsed.findall(f".//{tag}"), f"a <{tag}> element reached the page"
    assert len(parsed.findall(".//style")) == 1, "only the page's own style sheet"
    hrefs = [a.get("href") for a in parsed.iter("a") if a.get("href") is not None]
    assert hrefs and all(href.startswith("#") for href in hrefs), [h for h in hrefs if not h.startswith("#")]
    for element in parsed.iter():
        assert not any(name.lower().startswith("on") for name in element.attrib), element.attrib
    assert "<!--" not in page.split("</head>", 1)[1], "no comment in the body"
    assert "Content-Security-Policy" in page
    assert "PWNED" in page, "the payloads are shown, as text"


def _open(browser_page: Path) -> str:
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=3000"]
    return subprocess.run([BROWSER, *flags, "--dump-dom", browser_page.as_uri()], capture_output=True,
                          text=True, timeout=120).stdout


@pytest.mark.skipif(BROWSER is None, reason="no Chromium here (.ci/run installs Debian's chromium)")
@pytest.mark.parametrize("policy", ["with the policy", "without the policy"])
def test_chromium_runs_no_script_and_loads_nothing(hostile_report, server, tmp_path, policy):
    page = hostile_report.read_text(encoding="utf-8")
    if policy == "without the policy":
        page = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page)
        assert "Content-Security-Policy" not in page
    opened = tmp_path / "page.html"
    # a probe of the test's own, after the report: it proves scripts could run where it sits
    # (without the policy), so a title left unchanged means the payloads did not run
    probe = ("<script>document.body.setAttribute('data-probe', 'ran')</script>"
             if policy.startswith("without") else "")
    opened.write_text(page.replace("</body>", probe + "</body>"), encoding="utf-8")
    _Counter.hits.clear()
    dom = _open(opened)
    assert "<title>" in dom, "the browser gave no DOM"
    title = re.search(r"<title>(.*?)</title>", dom, re.S).group(1)
    assert title.strip() != "PWNED", "a payload ran"  # the page's own title quotes the payloads, as text
    if probe:
        assert 'data-probe="ran"' in dom, "scripts can run in this browser, so the test means something"
    assert _Counter.hits == [], f"the page fetched {_Counter.hits}"


@pytest.mark.parametrize("fragment", [
    '<p>a<!--><script>x()</script>--></p>', "<p><img src=x onerror=alert(1)>b</p>",
    '<a href="javascript:alert(1)">c</a>', '<a href="http://example.org/">d</a>',
    "<p><svg><g onload=alert(1)></g></svg>e</p>", '<td align="left" onclick="x()">f</td>',
    "<p>&lt;script&gt;</p>", "<![CDATA[<script>x()</script>]]><p>g</p>",
    '<a id="x" href="#y">h</a>', "<p><b>unclosed", "</p></td>stray",
])
def test_the_rebuilt_html_is_only_the_whitelist(fragment):
    out = sanitize_html(fragment)
    parsed = html5lib.parseFragment(out, namespaceHTMLElements=False)
    allowed = {"p", "a", "td", "b", "code"}
    assert {e.tag for e in parsed.iter() if isinstance(e.tag, str)} <= allowed | {"DOCUMENT_FRAGMENT"}
    assert "javascript" not in out.lower() or "&" in out and "<a" not in out
    assert "onerror" not in out or "&lt;" in out
    assert "href=\"http" not in out and "<script" not in out and "<!--" not in out


@pytest.mark.parametrize(("mathml", "kept"), [
    ('<math xmlns="http://www.w3.org/1998/Math/MathML"><mi>x</mi></math>', True),
    ('<math><mtext><!--><script>x()</script>--></mtext></math>', False),
    ('<math><mtext><script>x()</script></mtext></math>', False),
    ('<math><mi onclick="x()">x</mi></math>', False),
    ('<math><mtext>&lt;img src=x&gt;</mtext></math>', True),
    ('<math><?xml-stylesheet href="http://x"?><mi>y</mi></math>', False),
])
def test_the_embedded_mathml_is_the_checked_tree(mathml, kept):
    out = sanitize_mathml(mathml)
    assert (out is not None) == kept
    if out is not None:
        assert "<img" not in out and "<!--" not in out and "<script" not in out
        assert out == sanitize_mathml(out), "serializing the tree again changes nothing"
