#!/usr/bin/env python3
"""Alerts and settings from the phone, in a real browser (Debian's chromium, headless).

Usage:
  web-alertset.py LODESTONE WORKDIR PORT [SHOTS]
      Runs the simulated walk at --speed 60 (two simulated hours: two minutes) with a configuration file, pairs a browser at
      390 px and:
      - on the alerts page, types a threshold beyond the altitude rule's range: the page
        refuses it with a sentence and nothing reaches the device (`lodestone alert list`);
        sets 2500 m: the socket's ?ALERT and GET /api/v1/alerts report 2500; in mph (feet)
        the field shows the threshold in ft, and 9843 ft reaches the device as 3000 m;
      - on the device page, types an IMU rate beyond its range (refused on the page, the
        device's rate unchanged), then sets the units to imperial and the display's theme to
        night: GET /api/v1/device says imperial, GET /api/v1/settings says night, the header's
        switch says "auto (mph)", and the configuration file holds both.
      With SHOTS, screenshots of both at 390 and 1024 px, day and night.

Prints one JSON line with the findings and "problems"; exits 1 when there are any.
"""
import json
import os
import subprocess
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import webdevice


def fetch(driver, path):
    """GET path with the browser's own cookie: the answer's JSON (None when it fails)."""
    try:
        return driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch(arguments[0]).then((r) => r.json()).then(done, () => done(null));", path)
    except Exception:
        return None


def rule_on_socket(lodestone, session, name):
    listed = subprocess.run([lodestone, "alert", "list", "--json", "--socket", session.sock], capture_output=True, text=True, timeout=30)
    try:
        return next(r for r in json.loads(listed.stdout)["rules"] if r["name"] == name)
    except (ValueError, KeyError, StopIteration):
        return None


def wait(test, seconds=30):
    """test()'s value once it is true (a list the page drew again meanwhile is read again)."""
    value = None
    for _ in range(int(seconds * 4)):
        try:
            value = test()
        except Exception:
            value = None
        if value:
            return value
        time.sleep(0.25)
    return value


def rule_item(driver, name):
    return driver.find_element(By.CSS_SELECTOR, 'li.rule[data-rule="%s"]' % name)


def set_threshold(driver, name, text):
    field = rule_item(driver, name).find_element(By.CSS_SELECTOR, ".rule-threshold")
    field.clear()
    field.send_keys(text)
    rule_item(driver, name).find_element(By.CSS_SELECTOR, "button[type=submit]").click()


def problem_shown(driver, selector):
    try:
        element = driver.find_element(By.CSS_SELECTOR, selector)
        return element.text if element.is_displayed() else ""
    except Exception:
        return ""


def setting_row(driver, key):
    return driver.find_element(By.CSS_SELECTOR, 'li.setting[data-key="%s"]' % key)


def shoot(driver, shots, name, width, height, night, anchor=None):
    driver.set_window_size(width, height)
    driver.execute_script("localStorage.setItem('theme', arguments[0]); document.documentElement.classList.toggle('night', arguments[1]);",
                          "night" if night else "day", night)
    driver.execute_script("const a = arguments[0] && document.getElementById(arguments[0]);"
                          "if (a) a.scrollIntoView(); else window.scrollTo(0, 0);", anchor)
    time.sleep(0.4)
    driver.save_screenshot(os.path.join(shots, "%s-%s%d.png" % (name, "night-" if night else "", width)))


def main():
    lodestone, workdir, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    shots = sys.argv[4] if len(sys.argv) > 4 else None
    problems, findings = [], {}
    os.makedirs(workdir, exist_ok=True)
    config = os.path.join(os.path.abspath(workdir), "lodestone.json")
    with open(config, "w") as file:
        file.write('{"// units": "metric, imperial or nautical", "theme": "day"}\n')
    with webdevice.Session(lodestone, workdir, port, ["--scenario", "walk", "--speed", "60", "--config", config], seconds=7200) as session:
        driver = session.browser(390, 844, logs=True)
        if not driver:
            return ["no pairing address: %s" % session.pairing_error], findings
        # A machine busy with other work answers slowly: a read may take a while.
        driver.set_script_timeout(60)

        # The alerts page: a threshold refused on the page, one set, one in feet.
        driver.get(session.base + "#alerts")
        if not wait(lambda: driver.find_elements(By.CSS_SELECTOR, 'li.rule[data-rule="altitudeReached"] .rule-threshold')):
            return ["the alerts page shows no altitude rule"], findings
        findings["rules"] = len(driver.find_elements(By.CSS_SELECTOR, "li.rule"))
        if findings["rules"] != 6:
            problems.append("the alerts page should list the 6 rules, found %d" % findings["rules"])
        before = rule_on_socket(lodestone, session, "altitudeReached")
        set_threshold(driver, "altitudeReached", "12000")
        refusal = wait(lambda: problem_shown(driver, 'li.rule[data-rule="altitudeReached"] .problem'))
        findings["refusedOnThePage"] = refusal
        if "9000" not in refusal:
            problems.append("a threshold beyond the range should be refused with its range on the page, got %r" % refusal)
        after = rule_on_socket(lodestone, session, "altitudeReached")
        if not before or not after or after["threshold"] != before["threshold"]:
            problems.append("a refused threshold must not reach the device: %r then %r" % (before, after))
        set_threshold(driver, "altitudeReached", "2500")
        said = webdevice.shown_text(driver, "alerts-said", lambda t: "2500" in t)
        findings["said"] = said
        on_socket = wait(lambda: (lambda r: r if r and r["threshold"] == 2500 else None)(rule_on_socket(lodestone, session, "altitudeReached")))
        findings["socket"] = on_socket and on_socket["threshold"]
        if not on_socket:
            problems.append("the threshold set on the page should be ?ALERT's: %r" % rule_on_socket(lodestone, session, "altitudeReached"))
        read = fetch(driver, "/api/v1/alerts") or {}
        web = next((r for r in read.get("rules", []) if r["name"] == "altitudeReached"), {})
        if web.get("threshold") != 2500:
            problems.append("GET /api/v1/alerts should report 2500, got %r" % web)
        state = driver.find_element(By.CSS_SELECTOR, 'li.rule[data-rule="altitudeReached"] .rule-state').text
        findings["state"] = state
        if not state:
            problems.append("the rule's state is not said")
        if shots:
            os.makedirs(shots, exist_ok=True)
            for width, height in [(390, 844), (1024, 768)]:
                for night in [False, True]:
                    shoot(driver, shots, "alerts", width, height, night)
            shoot(driver, shots, "alerts", 390, 844, False)
        # In mph the heights are feet: 2500 m shows as 8202 ft, and 9843 ft is 3000 m.
        Select(driver.find_element(By.ID, "units")).select_by_value("imperial")
        feet = wait(lambda: (lambda v: v if v.startswith("8202") else None)(
            rule_item(driver, "altitudeReached").find_element(By.CSS_SELECTOR, ".rule-threshold").get_attribute("value")))
        findings["inFeet"] = feet
        if not feet:
            problems.append("in mph the altitude threshold should show in feet (8202)")
        set_threshold(driver, "altitudeReached", "9843")
        metres = wait(lambda: (lambda r: r if r and abs(r["threshold"] - 3000) < 0.5 else None)(rule_on_socket(lodestone, session, "altitudeReached")))
        findings["feetOnSocket"] = metres and metres["threshold"]
        if not metres:
            problems.append("9843 ft should reach the device as 3000 m: %r" % rule_on_socket(lodestone, session, "altitudeReached"))
        Select(driver.find_element(By.ID, "units")).select_by_value("")

        # The device page: a rate refused on the page, the units and the theme in force.
        driver.get(session.base + "#device")
        if not wait(lambda: driver.find_elements(By.CSS_SELECTOR, 'li.setting[data-key="units"] select')):
            return problems + ["the device page shows no units setting"], findings
        listed = fetch(driver, "/api/v1/settings") or {}
        shown = [e.get_attribute("data-key") for e in driver.find_elements(By.CSS_SELECTOR, "li.setting")]
        findings["settingsShown"] = len(shown)
        # Grouped by the key's first part, each group in the table's order.
        if sorted(shown) != sorted(s["key"] for s in listed.get("settings", [])) or len(shown) != len(set(shown)):
            problems.append("the page should show every setting GET /api/v1/settings lists, once: %r against %r"
                            % (shown, [s["key"] for s in listed.get("settings", [])]))
        rate_before = next((s["value"] for s in listed.get("settings", []) if s["key"] == "rates.imu"), None)
        driver.execute_script("for (const d of document.querySelectorAll('#settings details')) d.open = true;")
        field = setting_row(driver, "rates.imu").find_element(By.CSS_SELECTOR, "input")
        field.clear()
        field.send_keys("5000")
        setting_row(driver, "rates.imu").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        refusal = wait(lambda: problem_shown(driver, 'li.setting[data-key="rates.imu"] .problem'))
        findings["rateRefused"] = refusal
        if "1000" not in refusal:
            problems.append("an IMU rate of 5000 should be refused with its range, got %r" % refusal)
        rate_after = next((s["value"] for s in (fetch(driver, "/api/v1/settings") or {}).get("settings", []) if s["key"] == "rates.imu"), None)
        if rate_after != rate_before:
            problems.append("a refused rate must leave the device's: %r then %r" % (rate_before, rate_after))
        for key, value in [("units", "imperial"), ("theme", "night")]:
            Select(setting_row(driver, key).find_element(By.CSS_SELECTOR, "select")).select_by_value(value)
            setting_row(driver, key).find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            now = wait(lambda: (lambda s: s if s and s.get("value") == value else None)(
                next((s for s in (fetch(driver, "/api/v1/settings") or {}).get("settings", []) if s["key"] == key), None)))
            if not now:
                problems.append("%s should be %s after the page set it" % (key, value))
        device = fetch(driver, "/api/v1/device") or {}
        findings["deviceUnits"] = device.get("units")
        if device.get("units") != "imperial":
            problems.append("GET /api/v1/device should say imperial, got %r" % device.get("units"))
        switch = wait(lambda: (lambda t: t if "mph" in t else None)(Select(driver.find_element(By.ID, "units")).first_selected_option.text))
        findings["switch"] = switch
        if not switch:
            problems.append("the header's switch should follow the device to mph")
        now_said = setting_row(driver, "theme").find_element(By.CSS_SELECTOR, ".setting-now").text
        findings["themeNow"] = now_said
        with open(config) as file:
            kept = json.load(file)
        findings["file"] = {k: kept.get(k) for k in ["units", "theme"]}
        if kept.get("units") != "imperial" or kept.get("theme") != "night" or "// units" not in kept:
            problems.append("the configuration file should keep imperial and night, and its comment: %r" % kept)
        if shots:
            # As a person opening the first group sees it.
            driver.execute_script("for (const d of document.querySelectorAll('#settings details')) d.open = d.dataset.group === 'general';")
            for width, height in [(390, 844), (1024, 768)]:
                for night in [False, True]:
                    shoot(driver, shots, "device-settings", width, height, night, anchor="settings-title")
        logs = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"] if hasattr(driver, "get_log") else []
        if logs:
            problems.append("console errors: %r" % logs[:3])
    return problems, findings


if __name__ == "__main__":
    found, seen = main()
    print(json.dumps({"findings": seen, "problems": found}))
    sys.exit(1 if found else 0)
