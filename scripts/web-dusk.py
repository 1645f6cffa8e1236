#!/usr/bin/env python3
"""The web sky page after dusk, in a real browser (Debian's chromium, headless).

Usage:
  web-dusk.py LODESTONE WORKDIR PORT
      Runs the simulated walk from 20:30 UTC on Midsummer's day (after civil dusk in Zürich),
      pairs the browser and opens the sky page: its countdown must name the next day's civil
      dawn, a few hours away (the day's own events are all past).

Prints one JSON line with the findings and "problems"; exits 1 when there are any.
"""
import json
import re
import sys
import time

from selenium.webdriver.common.by import By

import webdevice


def main():
    lodestone, workdir, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    problems, findings = [], {}
    with webdevice.Session(lodestone, workdir, port, ["--scenario", "walk", "--sim-start", "2026-06-21T20:30:00Z"]) as session:
        driver = session.browser(390, 844)
        if not driver:
            return ["no pairing address: %s" % session.pairing_error], findings
        driver.get(session.base + "#sky")
        countdown = ""
        for _ in range(30):
            time.sleep(0.5)
            countdown = driver.find_element(By.ID, "sky-countdown").text
            if countdown.startswith("Civil dawn"):
                break
        findings["countdown"] = countdown
        hours = re.match(r"Civil dawn in (\d+) h", countdown)
        if not (hours and 4 <= int(hours.group(1)) <= 8):
            problems.append("after dusk the countdown should name the next civil dawn, hours away: %r" % countdown)
    return problems, findings


if __name__ == "__main__":
    found, seen = main()
    print(json.dumps({"findings": seen, "problems": found}))
    sys.exit(1 if found else 0)
