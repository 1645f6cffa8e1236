#!/usr/bin/env python3
"""The device's one zone in a real browser (Debian's chromium, headless).

Usage:
  web-zone.py LODESTONE WORKDIR PORT
      Runs the simulated walk (Zurich: the device shows Europe/Zurich, the scenario's place's
      zone, not set by the configuration) and opens the web app in a browser whose own zone is
      America/New_York. The header must show the device's time with its zone's name (CEST),
      never the browser's; the app must offer once to use the phone's zone; taking it must
      change the device's zone live (GET /api/v1/device, the header), and a reload must
      neither offer again nor go back.

Prints one JSON line with the findings and "problems"; exits 1 when there are any.
"""
import json
import os
import re
import sys
import time

from selenium.webdriver.common.by import By

import webdevice


def main():
    lodestone, workdir, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    problems, findings = [], {}
    # A zone taken from a phone by an earlier run would leave nothing to offer.
    stale = os.path.join(workdir, "data", "zone.json")
    if os.path.exists(stale):
        os.remove(stale)
    # The browser's own zone: the phone is in New York.
    os.environ["TZ"] = "America/New_York"
    with webdevice.Session(lodestone, workdir, port, ["--scenario", "walk"]) as session:
        driver = session.browser(390, 844)
        if not driver:
            return ["no pairing address: %s" % session.pairing_error], findings
        findings["browserZone"] = driver.execute_script("return Intl.DateTimeFormat().resolvedOptions().timeZone")
        driver.get(session.base + "#sky")
        clock = webdevice.shown_text(driver, "device-clock", lambda t: re.fullmatch(r"\d\d:\d\d \S+", t) is not None)
        findings["headerBefore"] = clock
        # The device's own time (the simulated trip's), from its newest fix, in Zurich (UTC+2).
        state = driver.execute_script("return fetch('/api/v1/state').then(r => r.json())")
        fix = (state.get("TPV") or {}).get("time", "")
        expected = (int(fix[11:13]) + 2) % 24 * 60 + int(fix[14:16]) if len(fix) >= 16 else None
        shown = int(clock[0:2]) * 60 + int(clock[3:5]) if re.fullmatch(r"\d\d:\d\d CEST", clock) else None
        findings["deviceTime"] = fix
        if shown is None or expected is None or min(abs(shown - expected), 1440 - abs(shown - expected)) > 1:
            problems.append("the header should show the device's time in its zone (CEST), got %r for the device's %r" % (clock, fix))
        offer = webdevice.shown_text(driver, "zone-offer-text", lambda t: "New_York" in t)
        findings["offer"] = offer
        if offer != "This phone is in America/New_York; the device shows Europe/Zurich. Use America/New_York?":
            problems.append("the app should offer the phone's zone, got %r" % offer)
            return problems, findings
        driver.find_element(By.ID, "zone-offer-use").click()
        clock = webdevice.shown_text(driver, "device-clock", lambda t: t.endswith("EDT"))
        findings["headerAfter"] = clock
        if not clock.endswith("EDT"):
            problems.append("after taking the phone's zone the header should say EDT, got %r" % clock)
        about = driver.execute_script("return fetch('/api/v1/device').then(r => r.json())")
        findings["device"] = {key: about.get(key) for key in ["timeZone", "zoneAbbreviation", "zoneSource", "clock"]}
        if about.get("timeZone") != "America/New_York" or about.get("zoneSource") != "phone":
            problems.append("the device should now show America/New_York, taken from the phone: %s" % about)
        driver.refresh()
        time.sleep(3)
        clock = webdevice.shown_text(driver, "device-clock", lambda t: t.endswith("EDT"))
        shown = driver.find_element(By.ID, "zone-offer").is_displayed()
        findings["afterReload"] = {"header": clock, "offerShown": shown}
        if shown or not clock.endswith("EDT"):
            problems.append("after a reload the zone stays New York's and is not offered again: %s" % findings["afterReload"])
        driver.save_screenshot(os.path.join(workdir, "zone.png"))
    return problems, findings


if __name__ == "__main__":
    found, seen = main()
    print(json.dumps({"findings": seen, "problems": found}))
    sys.exit(1 if found else 0)
