#!/usr/bin/env python3
"""Drives the web app in a real browser (Debian's chromium, headless, through chromedriver).

Usage:
  web-browser.py LODESTONE WORKDIR PORT [SHOTS]
      Runs the simulated walk with --http 127.0.0.1:PORT, pairs the browser with the address
      `lodestone web pair` prints, then at 390x844 (a phone) and 1024x768 (a tablet) opens
      every page: no console error, each page's heading visible, and on the compass the
      heading changes while the walk turns. A track started and stopped from the track page's
      buttons must appear in `lodestone track list`; on the history page it opens, its GPX
      (the page's own download link) validates against GPX 1.1 (with GPX_XSD and xmllint),
      it is renamed and then deleted through the confirmation. On the departures page (a
      small lake timetable imported first) a reminder is set from a departure, kept on the
      card, and cancelled. With SHOTS, each page's screenshot is written there
      (PAGE-WIDTH.png), in the day theme and the compass also at night.

Prints one JSON line with the findings and "problems"; exits 1 when there are any.
"""
import json
import os
import re
import socket
import subprocess
import sys
import time

from lake_feed import lake_feed
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

PAGES = ["compass", "position", "track", "history", "barometer", "sky", "departures", "station", "snapshots", "device"]
problems = []
findings = {}


def check(condition, message):
    if not condition:
        problems.append(message)
    return condition


def main():
    lodestone, workdir, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    shots = sys.argv[4] if len(sys.argv) > 4 else None
    os.makedirs(workdir, exist_ok=True)
    if shots:
        os.makedirs(shots, exist_ok=True)
    sock, data = os.path.join(workdir, "s.sock"), os.path.join(workdir, "data")
    feed = lake_feed(os.path.join(workdir, "feed"))
    imported = subprocess.run([lodestone, "timetable", "import", feed, "--data-dir", data], capture_output=True, text=True, timeout=60)
    check(imported.returncode == 0, "the lake timetable should import: %s" % imported.stderr)
    with open(os.path.join(data, "timetable-marks.csv"), "w") as marks:
        marks.write("T1030,Stadt Zürich,5\n")
    device = subprocess.Popen([lodestone, "run", "--scenario", "walk", "--speed", "5", "--duration", "240", "--display", "none",
                               "--socket", sock, "--data-dir", data, "--http", "127.0.0.1:%d" % port],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    driver = None
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        paired = subprocess.run([lodestone, "web", "pair", "--socket", sock], capture_output=True, text=True, timeout=30)
        match = re.search(r"http://\S+", paired.stdout)
        if not check(match, "no pairing address: %s" % paired.stderr):
            return
        options = Options()
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        driver.set_window_size(390, 844)
        pairing_checks(driver, port)
        driver.get(match.group(0))
        time.sleep(2)
        check("Compass" in driver.page_source and "Pair this browser" not in driver.page_source, "the pairing address should open the app")
        theme_checks(driver)
        for width, height in [(390, 844), (1024, 768)]:
            driver.set_window_size(width, height)
            for page in PAGES:
                driver.get("http://127.0.0.1:%d/#%s" % (port, page))
                time.sleep(2)
                section = driver.find_element(By.ID, "page-" + page)
                check(section.is_displayed(), "%s at %dx%d is not shown" % (page, width, height))
                ratio, where = driver.execute_script(CONTRAST)
                findings["lowestContrast"] = min(findings.get("lowestContrast", 99), round(ratio, 2))
                check(ratio >= 4.5, "%s at %d: text contrast %.2f:1 (below 4.5:1) at %s" % (page, width, ratio, where))
                if shots:
                    driver.save_screenshot(os.path.join(shots, "%s-%d.png" % (page, width)))
        # The heading follows the walk's turns.
        driver.set_window_size(390, 844)
        driver.get("http://127.0.0.1:%d/#compass" % port)
        headings = set()
        for _ in range(20):
            time.sleep(1)
            headings.add(driver.find_element(By.ID, "heading-text").text)
        findings["headings"] = sorted(headings)
        check(len(headings) >= 2, "the heading should change while the walk turns: %s" % sorted(headings))
        # The night theme: every page's text still 4.5:1 or more.
        driver.find_element(By.ID, "theme").click()
        time.sleep(1)
        if shots:
            driver.save_screenshot(os.path.join(shots, "compass-night-390.png"))
        for page in PAGES:
            driver.get("http://127.0.0.1:%d/#%s" % (port, page))
            time.sleep(1)
            ratio, where = driver.execute_script(CONTRAST)
            findings["lowestContrastNight"] = min(findings.get("lowestContrastNight", 99), round(ratio, 2))
            check(ratio >= 4.5, "%s at night: text contrast %.2f:1 (below 4.5:1) at %s" % (page, ratio, where))
        driver.find_element(By.ID, "theme").click()
        # A track from the page's buttons.
        driver.get("http://127.0.0.1:%d/#track" % port)
        time.sleep(2)
        driver.find_element(By.ID, "track-start").click()
        time.sleep(4)
        # A photo from the page's shutter, while the track records.
        driver.find_element(By.ID, "track-photo").click()
        time.sleep(2)
        check("recording" in driver.find_element(By.ID, "track-state").text.lower(), "the track page should say recording: %s" % driver.find_element(By.ID, "track-state").text)
        driver.find_element(By.ID, "track-stop").click()
        time.sleep(2)
        listed = subprocess.run([lodestone, "track", "list", "--data-dir", data], capture_output=True, text=True, timeout=30)
        findings["tracks"] = listed.stdout.strip().splitlines()[-1:] if listed.stdout.strip() else []
        check(listed.returncode == 0 and len(listed.stdout.strip().splitlines()) >= 1, "the track from the page should be listed: %s %s" % (listed.stdout, listed.stderr))
        history_checks(driver, port, lodestone, data, workdir, shots)
        departure_checks(driver, port, data, shots)
        # A snapshot from the device page is kept.
        driver.get("http://127.0.0.1:%d/#device" % port)
        time.sleep(3)
        # Task times in the unit a person reads them in ("19.0 s", never "19000000.0").
        # Read in one go: the tables are drawn again every 2 s.
        cells = driver.execute_script("return Array.from(document.querySelectorAll('#tasks td, #output-tasks td'), (c) => c.textContent)")
        about = driver.execute_script("return document.getElementById('device-about').textContent")
        check("Version" in about and "Free storage" in about and "Running for" in about, "the device page should say its version, uptime and free storage: %s" % about)
        check(cells and not any(re.fullmatch(r"\d{5,}(\.\d+)?", cell) for cell in cells), "task times should carry their unit: %s" % cells[:12])
        time.sleep(2)
        driver.find_element(By.ID, "snapshot").click()
        time.sleep(2)
        kept = subprocess.run([lodestone, "snapshot", "list", "--data-dir", data], capture_output=True, text=True, timeout=30)
        check(kept.returncode == 0 and kept.stdout.strip(), "the snapshot from the page should be listed: %s %s" % (kept.stdout, kept.stderr))
        # The expired code's 403 was asked for (its page is checked above); any other is an error.
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE" and "/pair?code=EXPIRED" not in entry["message"]]
        check(not errors, "console errors: %s" % errors[:5])
    finally:
        if driver:
            driver.quit()
        device.terminate()
        try:
            device.wait(timeout=20)
        except subprocess.TimeoutExpired:
            device.kill()
    print(json.dumps({"findings": findings, "problems": problems}))
    sys.exit(1 if problems else 0)


CONTRAST = """
const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null; const p = m[1].split(",").map(Number); return p.length === 4 ? p : p.concat([1]); };
const lum = (p) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(p[0]) + 0.7152 * f(p[1]) + 0.0722 * f(p[2]); };
const background = (e) => { for (let n = e; n; n = n.parentElement) { const b = parse(getComputedStyle(n).backgroundColor); if (b && b[3] > 0.5) return b; } return [255, 255, 255, 1]; };
let worst = [99, ""];
for (const e of document.querySelectorAll("body *")) {
  if (!e.offsetParent && getComputedStyle(e).position !== "fixed") continue;
  if (e.disabled || e.closest("[hidden]")) continue;
  const own = Array.from(e.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
  if (!own) continue;
  const fg = parse(getComputedStyle(e).color);
  if (!fg) continue;
  const [a, b] = [lum(fg), lum(background(e))];
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  if (ratio < worst[0]) worst = [ratio, e.tagName + "#" + e.id + " " + e.textContent.trim().slice(0, 30)];
}
return worst;
"""


def fetch_text(driver, path):
    """A GET from inside the page (its cookie, its origin), as the browser's download would."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(arguments[0]).then(r => r.text().then(t => done([r.status, r.headers.get('content-type'), t]))).catch(e => done([0, '', String(e)]));", path)


def history_checks(driver, port, lodestone, data, workdir, shots):
    driver.get("http://127.0.0.1:%d/#history" % port)
    time.sleep(2)
    rows = driver.find_elements(By.CSS_SELECTOR, "#history-list button.row")
    if not check(rows, "the history page should list the track just recorded"):
        return
    rows[0].click()
    time.sleep(2)
    check(driver.find_element(By.ID, "history-detail").is_displayed(), "a track opened on the history page should show its detail")
    # The photo taken from the page, shown with the track and loaded (the device serves it).
    images = driver.find_elements(By.CSS_SELECTOR, "#detail-photos img")
    loaded = [driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image) for image in images]
    findings["photosShown"] = len(images)
    check(images and all(loaded), "the track's photo should be shown on the history page, loaded: %s" % loaded)
    link = driver.find_element(By.ID, "detail-gpx")
    href = link.get_attribute("href")
    check(link.get_attribute("download"), "the GPX link should download")
    status, kind, text = fetch_text(driver, href)
    check(status == 200 and kind == "application/gpx+xml" and "<gpx" in text, "the page's GPX link: %s %s" % (status, kind))
    xsd = os.environ.get("GPX_XSD", "")
    if xsd and os.path.exists(xsd) and os.path.exists("/usr/bin/xmllint"):
        path = os.path.join(workdir, "page.gpx")
        with open(path, "w") as f:
            f.write(text)
        valid = subprocess.run(["/usr/bin/xmllint", "--noout", "--schema", xsd, path], capture_output=True, text=True)
        findings["pageGpxValid"] = valid.returncode == 0
        check(valid.returncode == 0, "the GPX downloaded from the page should validate against GPX 1.1: %s" % valid.stderr[-400:])
    if shots:
        driver.save_screenshot(os.path.join(shots, "history-detail-%d.png" % driver.get_window_size()["width"]))
    rename = driver.find_element(By.ID, "detail-rename")
    rename.clear()
    rename.send_keys("Renamed on the page")
    driver.find_element(By.CSS_SELECTOR, "#detail-edit button[type=submit]").click()
    time.sleep(2)
    listed = subprocess.run([lodestone, "track", "list", "--data-dir", data], capture_output=True, text=True, timeout=30)
    check("Renamed on the page" in listed.stdout, "the rename should reach the store: %s" % listed.stdout)
    driver.find_element(By.ID, "detail-delete").click()
    time.sleep(1)
    check(driver.find_element(By.ID, "confirm-delete").is_displayed(), "deleting should ask first")
    driver.find_element(By.ID, "confirm-yes").click()
    time.sleep(2)
    listed = subprocess.run([lodestone, "track", "list", "--data-dir", data], capture_output=True, text=True, timeout=30)
    check("Renamed on the page" not in listed.stdout, "the confirmed delete should remove the track: %s" % listed.stdout)


def pairing_checks(driver, port):
    """Unpaired: the page says how to pair from the display's Connect page and from a shell; an
    expired code is a page in the app's style that says to pair again from the Connect page."""
    driver.get("http://127.0.0.1:%d/" % port)
    time.sleep(1)
    text = driver.find_element(By.TAG_NAME, "main").text
    check("Connect" in text and "lodestone web pair" in text, "the unpaired page should name the Connect page and the shell: %s" % text)
    driver.get("http://127.0.0.1:%d/pair?code=EXPIRED" % port)
    time.sleep(1)
    text = driver.find_element(By.TAG_NAME, "main").text
    check("no longer works" in text and "Connect page" in text, "an expired code should be a page saying to pair again: %s" % text)
    # A wrong code holds the address back for a second.
    time.sleep(1.5)


def theme_checks(driver):
    """Until the person chooses, the theme is the browser's own preference."""
    for scheme, night in [("dark", True), ("light", False)]:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        time.sleep(0.5)
        shown = driver.execute_script("return document.documentElement.classList.contains('night')")
        check(shown == night, "with the browser %s the night theme should be %s" % (scheme, "on" if night else "off"))
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def departure_checks(driver, port, data, shots):
    driver.get("http://127.0.0.1:%d/#departures" % port)
    time.sleep(3)
    items = driver.find_elements(By.CSS_SELECTOR, "#departures-list li.departure")
    if not check(items, "the departures page should list the lake's boats: %s" % driver.find_element(By.ID, "departures-stop").text):
        return
    findings["departures"] = items[0].text
    check("Stadt Zürich" in driver.find_element(By.ID, "departures-list").text, "the marked boat should carry its mark")
    items[1 if len(items) > 1 else 0].find_element(By.CSS_SELECTOR, "button.remind").click()
    time.sleep(2)
    reminders = driver.find_elements(By.CSS_SELECTOR, "#reminders li button")
    check(len(reminders) == 1, "one reminder should be listed after setting it")
    kept = os.path.join(data, "timetable-reminders.json")
    check(os.path.exists(kept) and '"trip"' in open(kept).read(), "the reminder should be kept on the card")
    if shots:
        driver.save_screenshot(os.path.join(shots, "departures-reminder-%d.png" % driver.get_window_size()["width"]))
    if reminders:
        reminders[0].click()
        time.sleep(2)
        check(not driver.find_elements(By.CSS_SELECTOR, "#reminders li button"), "the cancelled reminder should be gone")
    # The star shows what the stop is now, right after each tap (and again after the second).
    for _ in range(2):
        star = driver.find_element(By.ID, "departures-favourite")
        before = star.get_attribute("aria-pressed")
        star.click()
        time.sleep(2)
        after = driver.find_element(By.ID, "departures-favourite")
        check(after.get_attribute("aria-pressed") != before and ("★" in after.text) == (before != "true"),
              "the star should show the new state after a tap: %s, %s" % (before, after.text))


if __name__ == "__main__":
    main()
