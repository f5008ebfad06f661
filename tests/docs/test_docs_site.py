"""The generated site: one self-contained page, and `make docs-serve` serves it on 127.0.0.1 only."""
from __future__ import annotations

import subprocess
import sys
import urllib.request

from evalhouse.paths import PROJECT_DIR


def test_static_page_is_self_contained(docs_build):
    html = docs_build.site.read_text(encoding="utf-8")
    assert '"MANIFEST.JSON INLINE DATA"' not in html and '"CATALOG.JSON INLINE DATA"' not in html
    assert "change_assertions_total" in html and "**Lineage**" in html
    assert "<script src=\"http" not in html and "<link href=\"http" not in html


def test_docs_serve_binds_loopback_only(docs_build):
    proc = subprocess.Popen([sys.executable, "-m", "evalhouse.docs_site", "serve", "--site",
                             str(docs_build.site.parent), "--port", "0"],
                            cwd=PROJECT_DIR, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert "http://127.0.0.1:" in line, line + proc.stderr.read() if proc.poll() is not None else line
        url = line.split("http://", 1)[1].split("/", 1)[0]
        port = int(url.rsplit(":", 1)[1])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/index.html", timeout=10) as resp:
            assert resp.status == 200 and b"change_assertions_total" in resp.read()
        # bound to the loopback address, not 0.0.0.0: the socket table shows 127.0.0.1:<port>
        listening = open("/proc/net/tcp").read().lower()
        assert f"0100007f:{port:04x}" in listening and f"00000000:{port:04x}" not in listening
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_site_ships_the_analyst_guide_linked_from_the_overview(docs_build):
    guide = docs_build.site.parent / "analysts.html"
    assert guide.exists() and "Ten questions" in guide.read_text(encoding="utf-8")
    assert "](analysts.html)" in docs_build.site.read_text(encoding="utf-8")   # the overview's link


def test_overview_lists_each_rule_with_its_tests_and_negative_controls(docs_build):
    html = docs_build.site.read_text(encoding="utf-8")
    assert "Rule tests and their negative controls" in html
    for i in range(1, 27):
        assert f"| **R{i:02d}** |" in html
