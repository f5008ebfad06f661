"""Check the docs as a user would: Debian's Chromium (headless, driven by Selenium + chromedriver) opens the
generated static page, searches for `change_assertions_total`, opens fct_big_runs from the results, expands
the column and sees its description and its computed lineage. A screenshot is saved as a test artifact
(./artifacts/docs_change_assertions_total.png, plus a copy in the test's tmp dir).

Install the browser from Debian (`make test`'s setup does it):
    apt-get update && apt-get install -y chromium chromium-driver
"""
from __future__ import annotations

import time

import pytest
from helpers import HAVE_CHROMIUM, chromium, keep_screenshot


COLUMN = "change_assertions_total"
MODEL = "fct_big_runs"


def _wait_for(fn, timeout=90.0, what="element"):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            got = fn()
            if got:
                return got
        except Exception as exc:  # the page is still rendering
            last = exc
        time.sleep(0.25)
    raise AssertionError(f"timed out waiting for {what} ({last})")


@pytest.mark.skipif(not HAVE_CHROMIUM,
                    reason="Debian chromium + chromium-driver not installed "
                           "(apt-get install -y chromium chromium-driver)")
def test_search_column_shows_description_and_lineage(docs_build, tmp_path):
    from selenium.webdriver.common.by import By

    driver = chromium(tmp_path / "chrome-profile")
    try:
        driver.get(docs_build.site.as_uri())
        search = _wait_for(lambda: [i for i in driver.find_elements(By.CSS_SELECTOR, "input")
                                    if i.is_displayed() and "Search" in (i.get_attribute("placeholder") or "")],
                           what="the search box")[0]
        search.send_keys(COLUMN)
        _wait_for(lambda: "search results" in driver.find_element(By.TAG_NAME, "body").text, what="search results")
        results = driver.find_element(By.TAG_NAME, "body").text
        assert f"columns: {COLUMN}" in results, "the search does not find the column"
        hit = _wait_for(lambda: [e for e in driver.find_elements(By.XPATH, f"//*[normalize-space(text())='{MODEL}']")
                                 if e.is_displayed()], what=f"{MODEL} in the results")[0]
        hit.click()
        _wait_for(lambda: f"model.evalhouse.{MODEL}" in driver.current_url, what="the model page")
        cell = _wait_for(lambda: [e for e in driver.find_elements(By.XPATH, f"//*[normalize-space(text())='{COLUMN}']")
                                  if e.is_displayed()], what="the column row")[0]
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", cell)
        cell.click()
        body = _wait_for(lambda: (t := driver.find_element(By.TAG_NAME, "body").text) and "Lineage (computed" in t and t,
                         what="the expanded column with its lineage")
        # the expanded column shows its own description, then the computed lineage appended to it
        at = body.index("Lineage (computed")
        lineage_text = body[at:at + 3000]
        assert f"{MODEL}.{COLUMN} <-" in lineage_text
        assert "raw.big_lines.record" in lineage_text and "$.change_detail" in lineage_text
        own = body[body.rindex("Description", 0, at) + len("Description"):at].strip()
        assert len(own) > 20, f"no description shown above the lineage: {own!r}"
        driver.execute_script("window.scrollBy(0, -120)")
        keep_screenshot(driver, tmp_path / "docs_change_assertions_total.png")
    finally:
        driver.quit()
