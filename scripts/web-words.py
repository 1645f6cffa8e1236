#!/usr/bin/env python3
"""Words, not codes, on every page of the web app (Debian's chromium, headless).

Usage:
  web-words.py LODESTONE WORKDIR PORT
      Runs the simulated walk and then the boat, with the lake's timetable imported, and opens
      every page in a browser speaking English and in one speaking German (navigator.language
      de-CH: the app follows it, the device setting no language). On each page the visible
      text (document.body.innerText) must hold no camelCase identifier or raw code, no JSON
      fragment, no NaN, null, undefined or nil, no number in exponent form and no unit in
      capitals or in one letter (the display's and the terminal's rules: Tests/Outputs/
      VisibleText.swift); in German, none of the table's English words (web/words.js) may
      show where the table has German.

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

PAGES = ["compass", "position", "track", "history", "barometer", "sky", "departures", "station", "device"]

# What a person must never read, as one script run in the page: the problems in its text.
CHECK = r"""
const text = document.body.innerText;
const found = [];
const units = new Set(["hPa", "inHg", "mmHg", "kWh", "mAh"]);
for (const m of text.matchAll(/\b[a-z]+[A-Z][A-Za-z]*\b/g)) if (!units.has(m[0])) found.push("camelCase " + m[0]);
for (const m of text.matchAll(/\b(NaN|null|undefined|nil|Infinity)\b/g)) found.push("code " + m[0]);
for (const m of text.matchAll(/(^|[^0-9A-Za-z.])\d+(\.\d+)?[eE][+-]\d+(?![0-9A-Za-z])/g)) found.push("exponent " + m[0].trim());
for (const m of text.matchAll(/[{}\\]|(^|[^0-9])"/g)) found.push("JSON or code mark " + m[0]);
for (const m of text.matchAll(/\b(HPA|KM\/H|KMH|KN|MIN|HZ)\b/g)) found.push("unit in capitals " + m[0]);
for (const m of text.matchAll(/\b\d+(\.\d+)?[mM]\b|\b\d+(\.\d+)?\sM\b|\bG\d/g)) found.push("one letter for a unit " + m[0]);
// In German: no phrase of the table in its English where the table has German, in what the
// app writes (the elements it fills by their id; the page's fixed prose is not the table's).
if (arguments[0]) {
  const written = Array.from(document.querySelectorAll("main [id]"), (e) => e.offsetParent !== null && e.children.length === 0 ? e.innerText : "").join("\n");
  for (const [english, german] of arguments[0]) {
    if (!german || english.toLowerCase() === german.toLowerCase() || english.includes("{") || english.length < 6) continue;
    const escaped = english.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    if (new RegExp("(^|[^A-Za-z'])" + escaped + "($|[^A-Za-z'])", "i").test(written)) found.push("English in German: " + english);
  }
}
return found;
"""


def table(path):
    """The table's [English, German] pairs, read from web/words.js."""
    pairs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r'\s*"[^"]+": \["((?:[^"\\]|\\.)*)", (null|"((?:[^"\\]|\\.)*)")\],', line)
            if m:
                pairs.append([m.group(1), m.group(3)])
    return pairs


def browser(language):
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--lang=" + language]:
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_window_size(390, 844)
    return driver


def run(lodestone, workdir, port, scenario, words, problems, findings):
    sock, data = os.path.join(workdir, scenario + ".sock"), os.path.join(workdir, "data-" + scenario)
    feed = lake_feed(os.path.join(workdir, "feed"))
    subprocess.run([lodestone, "timetable", "import", feed, "--data-dir", data], capture_output=True, text=True, timeout=60)
    device = subprocess.Popen([lodestone, "run", "--scenario", scenario, "--speed", "60", "--duration", "240", "--display", "none",
                               "--socket", sock, "--data-dir", data, "--http", "127.0.0.1:%d" % port],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    drivers = []
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        # Long enough for the trend (30 minutes of the device's time at 60 times the speed).
        time.sleep(40)
        for language in ["en-GB", "de-CH"]:
            paired = subprocess.run([lodestone, "web", "pair", "--socket", sock, "--no-qr"], capture_output=True, text=True, timeout=30)
            match = re.search(r"http://\S+", paired.stdout)
            if not match:
                problems.append("%s: no pairing address: %s" % (scenario, paired.stderr))
                return
            driver = browser(language)
            drivers.append(driver)
            driver.get(match.group(0))
            time.sleep(2)
            german = language.startswith("de")
            findings["%s %s language" % (scenario, language)] = driver.execute_script("return navigator.language")
            for page in PAGES:
                driver.get("http://127.0.0.1:%d/#%s" % (port, page))
                time.sleep(1.5)
                found = driver.execute_script(CHECK, words if german else None)
                for problem in sorted(set(found)):
                    problems.append("%s %s #%s: %s" % (scenario, language, page, problem))
                if page == "barometer":
                    findings["%s %s trend" % (scenario, language)] = driver.execute_script("return document.getElementById('trend').innerText")
            # One browser at a time: the device serves an address a few live streams only.
            driver.quit()
            drivers.remove(driver)
    finally:
        for driver in drivers:
            driver.quit()
        device.terminate()
        device.wait()


def self_check(problems):
    """The rules themselves, on text that breaks each one, in a blank page."""
    driver = browser("en-GB")
    try:
        driver.get("data:text/html,<p>x</p>")
        driver.execute_script("document.body.innerText = arguments[0]", 'fallingFast 1e+05 NaN {"a":1} 1040 HPA 523 M 6M G11.2 hPa 46°41\'10.7"')
        found = driver.execute_script(CHECK, None)
        for expected in ["camelCase fallingFast", "exponent 1e+0", "code NaN", "unit in capitals HPA", "one letter for a unit 6M", "one letter for a unit G1"]:
            if not any(f.startswith(expected) for f in found):
                problems.append("the check misses %r in %s" % (expected, found))
        if any("hPa" in f or "10.7" in f for f in found):
            problems.append("the check should let hPa and seconds of arc pass: %s" % found)
    finally:
        driver.quit()


def main():
    lodestone, workdir, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    os.makedirs(workdir, exist_ok=True)
    words = table(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "web", "words.js"))
    problems, findings = [], {"entries": len(words)}
    self_check(problems)
    for scenario in ["walk", "boat"]:
        run(lodestone, workdir, port, scenario, words, problems, findings)
    return problems, findings


if __name__ == "__main__":
    found, seen = main()
    print(json.dumps({"findings": seen, "problems": found}, ensure_ascii=False))
    sys.exit(1 if found else 0)
