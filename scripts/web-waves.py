#!/usr/bin/env python3
"""The waves page in a real browser (Debian's chromium, headless).

Usage:
  web-waves.py LODESTONE WORKDIR PORT
      Imports the lake's timetable (lake_feed.py), runs the simulated walk beside it and opens
      the waves page at a phone's 390x844 and a tablet's 1024x768. A stop found by the search
      must show its timeline (a mark for each of the day's waves) and its sessions; a step to
      the next day must change the date shown, a step back bring it again, and each day's
      marks, sessions and lit waves must be the API's (GET /api/v1/waves) for that date. A
      spot typed as coordinates must list the wakes' arrivals. A departure tapped on the
      departures page must list its trip's next calls. No console error. Screenshots of each
      size, day and night, are left in WORKDIR.

Prints one JSON line with the findings and "problems"; exits 1 when there are any.
"""
import json
import os
import subprocess
import sys
import time

from selenium.webdriver.common.by import By

import webdevice
from lake_feed import lake_feed

# What the page shows, read in the page: the date, the marks, the sessions' spans, the
# frequency's line, the place.
SHOWN = """
return {date: document.getElementById("waves-date").value, day: document.getElementById("waves-day").innerText,
  place: document.getElementById("waves-place").innerText,
  marks: document.querySelectorAll("#waves-timeline g.wave").length,
  sessions: [...document.querySelectorAll("#waves-sessions li.session-row strong")].map((e) => e.innerText),
  frequency: document.getElementById("waves-frequency").innerText,
  wakes: document.querySelectorAll("#waves-list li .small").length};
"""

# The API's answer for the same question, fetched by the paired page.
API = """
const done = arguments[arguments.length - 1];
fetch(arguments[0]).then((r) => r.json()).then(done, () => done(null));
"""


def wait_for(driver, test, seconds=15):
    shown = {}
    for _ in range(int(seconds * 4)):
        shown = driver.execute_script(SHOWN)
        if test(shown):
            return shown
        time.sleep(0.25)
    return shown


def same_as_api(driver, shown, query, label, problems):
    """The page's figures against the API's for the date it shows."""
    api = driver.execute_async_script(API, "/api/v1/waves?%s&date=%s" % (query, shown["date"]))
    if not api or "waves" not in api:
        problems.append("%s: the API gave no waves for %s: %s" % (label, shown["date"], api))
        return
    if shown["marks"] != len(api["waves"]):
        problems.append("%s: %d marks on the timeline, the API has %d waves" % (label, shown["marks"], len(api["waves"])))
    spans = ["%s–%s" % (s["start"][11:16], s["end"][11:16]) for s in api["sessions"]]
    if shown["sessions"] != spans:
        problems.append("%s: sessions %s, the API's %s" % (label, shown["sessions"], spans))
    if str(api["frequency"]["count"]) not in shown["frequency"]:
        problems.append("%s: the lit waves %r should hold the API's count %d" % (label, shown["frequency"], api["frequency"]["count"]))


def check_size(session, width, height, problems, findings):
    label = "%dx%d" % (width, height)
    driver = session.browser(width, height, logs=True)
    if not driver:
        problems.append("no pairing address: %s" % session.pairing_error)
        return
    driver.get(session.base + "#waves")
    # The page shown once the app's script has run.
    for _ in range(60):
        search = driver.find_element(By.ID, "waves-q")
        if search.is_displayed():
            break
        time.sleep(0.25)
    driver.execute_script("arguments[0].scrollIntoView()", search)
    search.send_keys("Bürkliplatz")
    found = webdevice.shown_text(driver, "waves-results", lambda t: "Bürkliplatz" in t)
    if "Bürkliplatz" not in found:
        problems.append("%s: the search found no Bürkliplatz: %r" % (label, found))
        return
    driver.find_element(By.CSS_SELECTOR, "#waves-results button").click()
    first = wait_for(driver, lambda s: s["place"] == "Zürich Bürkliplatz" and s["marks"] > 0)
    findings[label] = {"today": first}
    if first["place"] != "Zürich Bürkliplatz" or first["marks"] == 0 or not first["sessions"]:
        problems.append("%s: the stop's timeline and sessions should show: %s" % (label, first))
    same_as_api(driver, first, "stop=BU", label + " today", problems)
    driver.save_screenshot(os.path.join(session.workdir, "waves-%d.png" % width))
    driver.find_element(By.ID, "waves-next").click()
    tomorrow = wait_for(driver, lambda s: s["date"] != first["date"] and s["day"] != first["day"])
    findings[label]["tomorrow"] = tomorrow
    if tomorrow["date"] <= first["date"] or tomorrow["day"] == first["day"]:
        problems.append("%s: the next day's date should show: %s after %s" % (label, tomorrow, first))
    same_as_api(driver, tomorrow, "stop=BU", label + " tomorrow", problems)
    driver.find_element(By.ID, "waves-previous").click()
    back = wait_for(driver, lambda s: s["date"] == first["date"])
    if back["date"] != first["date"] or back["day"] != first["day"]:
        problems.append("%s: a step back should show the first day again: %s" % (label, back))
    same_as_api(driver, back, "stop=BU", label + " back", problems)
    # At night (red on black), the same page.
    driver.find_element(By.ID, "theme").click()
    time.sleep(0.5)
    driver.save_screenshot(os.path.join(session.workdir, "waves-night-%d.png" % width))
    driver.find_element(By.ID, "theme").click()
    # A spot on the shore between the piers: the wakes' arrivals.
    spot = driver.find_element(By.ID, "waves-spot")
    spot.send_keys("47.342, 8.567")
    driver.find_element(By.CSS_SELECTOR, "#waves-spot-form button[type=submit]").click()
    shore = wait_for(driver, lambda s: s["wakes"] > 0)
    findings[label]["spot"] = {"marks": shore["marks"], "wakes": shore["wakes"], "place": shore["place"]}
    if shore["wakes"] == 0:
        problems.append("%s: a spot should list the wakes' arrivals: %s" % (label, shore))
    else:
        same_as_api(driver, shore, "lat=47.342&lon=8.567", label + " spot", problems)
    driver.save_screenshot(os.path.join(session.workdir, "waves-spot-%d.png" % width))
    # A departure tapped: its trip's next calls.
    driver.get(session.base + "#departures")
    opened = ""
    for _ in range(40):
        buttons = driver.find_elements(By.CSS_SELECTOR, "#departures-list .trip-open")
        if buttons:
            buttons[0].click()
            opened = webdevice.shown_text(driver, "departures-list", lambda t: "Küsnacht" in t and "Thalwil" in t, seconds=5)
            break
        time.sleep(0.25)
    marks = driver.find_elements(By.CSS_SELECTOR, "#departures-list .light")
    if not marks or not driver.find_elements(By.CSS_SELECTOR, "#departures-list .calls li"):
        problems.append("%s: a departure should carry its light and open its calls: %r" % (label, opened[:300]))
    driver.save_screenshot(os.path.join(session.workdir, "departures-calls-%d.png" % width))
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    if errors:
        problems.append("%s: console errors: %s" % (label, errors[:5]))
    driver.quit()
    session.driver = None


def main():
    lodestone, workdir, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    os.makedirs(workdir, exist_ok=True)
    problems, findings = [], {}
    feed = lake_feed(os.path.join(workdir, "feed"))
    imported = subprocess.run([lodestone, "timetable", "import", feed, "--data-dir", os.path.join(workdir, "data")],
                              capture_output=True, text=True, timeout=60)
    if imported.returncode != 0:
        return ["the lake's timetable did not import: %s" % imported.stderr], findings
    with webdevice.Session(lodestone, workdir, port, ["--scenario", "walk", "--speed", "60"], seconds=240) as session:
        # A fix first: the departures page's nearest stop needs one.
        time.sleep(3)
        for width, height in [(390, 844), (1024, 768)]:
            check_size(session, width, height, problems, findings)
    return problems, findings


if __name__ == "__main__":
    found, seen = main()
    print(json.dumps({"findings": seen, "problems": found}, ensure_ascii=False))
    sys.exit(1 if found else 0)
