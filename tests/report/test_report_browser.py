"""The report as a reader opens it: Debian's headless Chromium (Selenium + chromedriver), offline (no name
resolves), opens report.html from disk, sees every expected figure drawn, logs no console error and requests
nothing but the page itself and its inline data. The screenshot is kept as a test artifact
(./artifacts/report.png)."""
from __future__ import annotations

import json
import time

import pytest
from helpers import HAVE_CHROMIUM, chromium, keep_screenshot
from test_report import ALL_FIGURES



@pytest.mark.skipif(not HAVE_CHROMIUM, reason="Debian chromium + chromium-driver not installed (make browser)")
def test_report_opens_offline_with_every_figure_and_no_error_or_request(demo, tmp_path):
    from selenium.webdriver.common.by import By

    driver = chromium(tmp_path / "chrome-profile", "1300,1800", logs=True)
    try:
        page = (demo.out / "report.html").as_uri()
        driver.get(page)
        deadline = time.monotonic() + 60
        while driver.execute_script("return document.readyState") != "complete" and time.monotonic() < deadline:
            time.sleep(0.2)
        drawn = driver.execute_script(
            "return Array.from(document.querySelectorAll('figure[data-figure] img'))"
            ".filter(i => i.complete && i.naturalWidth > 100).map(i => i.closest('figure').dataset.figure)")
        assert sorted(drawn) == sorted(ALL_FIGURES)
        assert "Admissibility rules, their tests and negative controls" in driver.find_element(By.TAG_NAME, "body").text
        errors = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
        assert errors == [], errors
        requests = []     # (url, the document that asked for it)
        for entry in driver.get_log("performance"):
            msg = json.loads(entry["message"])["message"]
            if msg.get("method") == "Network.requestWillBeSent":
                requests.append((msg["params"]["request"]["url"], msg["params"].get("documentURL")))
        ours = [u for u, doc in requests if doc == page]
        assert page in ours, "the performance log saw no request of the page (is it recording?)"
        assert [u for u in ours if u != page and not u.startswith("data:")] == []
        assert [u for u, _ in requests if u.startswith(("http:", "https:", "ws:", "wss:"))] == []
        keep_screenshot(driver, tmp_path / "report.png", 20_000)
    finally:
        driver.quit()
