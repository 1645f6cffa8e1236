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
      VisibleText.swift). In German, no English may show, in the text or in a visible
      element's aria-label, title or placeholder, names left aside (an element marked
      translate="no": a track's, a stop's, a task's name): none of the table's English words
      (web/words.js) where the table has German, and none of a fixed list of frequent English
      words of an app (ENGLISH), so English written in a page and never put in the table is
      caught too. The pairing page, which a browser not yet paired gets, is checked in German
      as well.

Prints one JSON line with the findings and "problems"; exits 1 when there are any.
"""
import json
import os
import re
import subprocess
import sys
import time

import webdevice
from lake_feed import lake_feed

PAGES = ["compass", "position", "track", "waypoints", "history", "barometer", "alerts", "sky", "departures", "waves", "station", "snapshots", "device"]

# Frequent English words of an app's labels, buttons and sentences that a German page never
# shows, whatever the table holds. Words German has borrowed and uses as they are (Track,
# Station, Name, Wind, Thread, Version, Phase) are left out.
ENGLISH = ["Distance", "Speed", "Accuracy", "Elevation", "Altitude", "Start", "Pause", "Paused", "Resume", "Stop", "Save", "Saved",
           "Delete", "Cancel", "Share", "Search", "Sort", "Points", "Moving", "Elapsed", "Climb", "Descent", "Pace", "Sunrise",
           "Sunset", "Moonrise", "Moonset", "Next", "Previous", "Now", "Today", "Tomorrow", "Yesterday", "Waiting", "Loading", "No",
           "None", "Yes", "Copy", "Copied", "Download", "Remind", "Reminder", "Favourite", "Nearest", "Direction", "Water", "Gust",
           "Temperature", "Pressure", "Humidity", "Heading", "Bearing", "Lock", "Unlock", "Calibrate", "Declination", "Course",
           "Satellites", "Sensors", "Device", "History", "Sky", "Compass", "Departures", "Settings", "Notes", "Photo", "Date",
           "Season", "Planets", "Moon", "Sun", "Day", "Days", "Night", "Hours", "Minutes", "Total", "Average", "Free", "Storage",
           "Running", "Task", "Mean", "Longest", "Sampling", "Output", "Alerts", "Given", "Graph", "Daylight", "Rise", "Lit", "True",
           "Magnetic", "Apparent", "Wear", "Close", "Keep", "Units", "Theme", "Pages", "Recording", "Mon", "Tue", "Wed", "Thu", "Fri",
           "Sat", "the", "and", "of", "with", "from", "to", "at", "yet", "for", "your", "this", "is", "are", "press", "tap"]

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
// In German: none of the English words given (arguments[0]) in what a person reads or hears:
// the visible text and the visible elements' aria-label, title and placeholder, and the
// page's title; names (translate="no") and commands (<code>) left aside.
if (arguments[0]) {
  const shown = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent && !parent.closest('[translate="no"], code, script, style') && parent.checkVisibility()) shown.push(node.data);
  }
  for (const element of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
    if (!element.checkVisibility()) continue;
    for (const name of ["aria-label", "title", "placeholder"]) if (element.getAttribute(name)) shown.push(element.getAttribute(name));
  }
  // The compass points as German writes them in capitals ("NO" is north-east, not "no").
  const all = shown.join("\n").replace(/\b(NNO|NO|ONO|OSO|SO|SSO)\b/gu, " ");
  for (const english of arguments[0]) {
    const escaped = english.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    // A whole word, not part of a file's or a setting's name ("satellites.tle").
    if (new RegExp("(^|[^\\p{L}'.])" + escaped + "(?=$|[^\\p{L}'.]|\\.(?!\\p{L}))", "iu").test(all)) found.push("English in German: " + english);
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


def english_words(pairs):
    """What must not show in German: each English piece of the table (the words between its
    figures {1}, {2}) of four letters or more that its German does not hold, and ENGLISH."""
    found = set(ENGLISH)
    for english, german in pairs:
        if not german or english.lower() == german.lower():
            continue
        for piece in re.split(r"\{\d\}", english):
            piece = piece.strip(" ,.:;()·—–-?!“”'")
            if len(piece) >= 4 and piece.lower() not in german.lower():
                found.add(piece)
    return sorted(found)


def run(lodestone, workdir, port, scenario, words, problems, findings):
    place = os.path.join(workdir, scenario)
    feed = lake_feed(os.path.join(workdir, "feed"))
    subprocess.run([lodestone, "timetable", "import", feed, "--data-dir", os.path.join(place, "data")], capture_output=True, text=True, timeout=60)
    with webdevice.Session(lodestone, place, port, ["--scenario", scenario, "--speed", "60"], seconds=240) as session:
        # Long enough for the trend (30 minutes of the device's time at 60 times the speed).
        time.sleep(40)
        for language in ["en-GB", "de-CH"]:
            german = language.startswith("de")
            if german:
                # The page a browser not yet paired gets, in its language.
                driver = webdevice.chromium(390, 844, language=language)
                try:
                    driver.get(session.base)
                    time.sleep(1.5)
                    for problem in sorted(set(driver.execute_script(CHECK, words))):
                        problems.append("%s %s pairing page: %s" % (scenario, language, problem))
                finally:
                    driver.quit()
            driver = session.browser(390, 844, language=language)
            if not driver:
                problems.append("%s: no pairing address: %s" % (scenario, session.pairing_error))
                return
            time.sleep(1)
            findings["%s %s language" % (scenario, language)] = driver.execute_script("return navigator.language")
            for page in PAGES:
                driver.get(session.base + "#" + page)
                time.sleep(1.5)
                found = driver.execute_script(CHECK, words if german else None)
                for problem in sorted(set(found)):
                    problems.append("%s %s #%s: %s" % (scenario, language, page, problem))
                if page == "barometer":
                    findings["%s %s trend" % (scenario, language)] = driver.execute_script("return document.getElementById('trend').innerText")
            # One browser at a time: the device serves an address a few live streams only.
            driver.quit()
            session.driver = None


def self_check(problems, words):
    """The rules themselves, on text that breaks each one, in a blank page."""
    driver = webdevice.chromium(390, 844, language="en-GB")
    try:
        driver.get("data:text/html,<p>x</p>")
        driver.execute_script("document.body.innerText = arguments[0]", 'fallingFast 1e+05 NaN {"a":1} 1040 HPA 523 M 6M G11.2 hPa 46°41\'10.7"')
        found = driver.execute_script(CHECK, None)
        for expected in ["camelCase fallingFast", "exponent 1e+0", "code NaN", "unit in capitals HPA", "one letter for a unit 6M", "one letter for a unit G1"]:
            if not any(f.startswith(expected) for f in found):
                problems.append("the check misses %r in %s" % (expected, found))
        if any("hPa" in f or "10.7" in f for f in found):
            problems.append("the check should let hPa and seconds of arc pass: %s" % found)
        # In German: the table's English and the fixed list's, not the German nor a name.
        driver.execute_script("document.body.innerHTML = arguments[0]",
                              '<p>Distanz 3 km, Speed 4 km/h</p><p title="Heading north">Kurs</p><p translate="no">Stop Street</p>'
                              + '<p>Sonnenuntergang in 2 h, sunset, 3 points since the start. Now.</p><p hidden>Delete</p><p>satellites.tle</p>')
        found = driver.execute_script(CHECK, words)
        for expected in ["Speed", "Heading", "sunset", "points since the start", "Now"]:
            if not any(f.lower() == ("English in German: " + expected).lower() for f in found):
                problems.append("the check misses the English %r in German: %s" % (expected, found))
        for allowed in ["Distanz", "Stop", "Delete", "Street", "Sonnenuntergang", "Satellites"]:
            if any(f == "English in German: " + allowed for f in found):
                problems.append("the check should let %r pass in German: %s" % (allowed, found))
    finally:
        driver.quit()


def main():
    lodestone, workdir, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    os.makedirs(workdir, exist_ok=True)
    pairs = table(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "web", "words.js"))
    words = english_words(pairs)
    problems, findings = [], {"entries": len(pairs), "englishWords": len(words)}
    self_check(problems, words)
    for scenario in ["walk", "boat"]:
        run(lodestone, workdir, port, scenario, words, problems, findings)
    return problems, findings


if __name__ == "__main__":
    found, seen = main()
    print(json.dumps({"findings": seen, "problems": found}, ensure_ascii=False))
    sys.exit(1 if found else 0)
