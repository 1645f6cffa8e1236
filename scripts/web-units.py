#!/usr/bin/env python3
"""The units switch in a real browser (Debian's chromium, headless).

Usage:
  web-units.py LODESTONE WORKDIR PORT
      Runs the simulated boat (whose units, unset, are nautical: the display shows knots) and
      opens the position page at 390 px. The web app must show the device's units (the speed
      in kn) with the switch in the header saying so; choosing km/h there must write the speed
      in km/h at once and keep it after a reload; choosing "device's" again must follow the
      device (kn). The switch must be on every page.

Prints one JSON line with the findings and "problems"; exits 1 when there are any.
"""
import json
import os
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import webdevice


def main():
    lodestone, workdir, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    problems, findings = [], {}
    with webdevice.Session(lodestone, workdir, port, ["--scenario", "boat"]) as session:
        driver = session.browser(390, 844)
        if not driver:
            return ["no pairing address: %s" % session.pairing_error], findings
        driver.get(session.base + "#position")
        shown = webdevice.shown_text(driver, "speed", lambda t: t.endswith("kn"))
        findings["deviceUnits"] = shown
        if not shown.endswith("kn"):
            problems.append("the boat's units are nautical: the speed should be in kn, got %r" % shown)
        choice = Select(driver.find_element(By.ID, "units")).first_selected_option.text
        findings["switchSays"] = choice
        if choice != "auto (kn)":
            problems.append("the switch should say the device's units (auto) are shown, got %r" % choice)
        driver.save_screenshot(os.path.join(workdir, "units-390.png"))
        Select(driver.find_element(By.ID, "units")).select_by_value("metric")
        shown = webdevice.shown_text(driver, "speed", lambda t: t.endswith("km/h"))
        findings["chosen"] = shown
        if not shown.endswith("km/h"):
            problems.append("after choosing km/h the speed should be in km/h, got %r" % shown)
        driver.refresh()
        shown = webdevice.shown_text(driver, "speed", lambda t: t.endswith("km/h"))
        findings["afterReload"] = shown
        if not shown.endswith("km/h"):
            problems.append("the browser's choice should stay after a reload, got %r" % shown)
        for page in ["compass", "track", "history", "barometer", "sky", "departures", "station", "snapshots", "device"]:
            driver.get(session.base + "#" + page)
            if not driver.find_element(By.ID, "units").is_displayed():
                problems.append("the units switch is not shown on the %s page" % page)
        driver.get(session.base + "#position")
        Select(driver.find_element(By.ID, "units")).select_by_value("")
        shown = webdevice.shown_text(driver, "speed", lambda t: t.endswith("kn"))
        findings["deviceAgain"] = shown
        if not shown.endswith("kn"):
            problems.append("choosing the device's units again should show kn, got %r" % shown)
    return problems, findings


if __name__ == "__main__":
    found, seen = main()
    print(json.dumps({"findings": seen, "problems": found}))
    sys.exit(1 if found else 0)
