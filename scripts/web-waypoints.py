#!/usr/bin/env python3
"""Waypoints and navigation from the phone, in a real browser (Debian's chromium, headless).

Usage:
  web-waypoints.py LODESTONE WORKDIR PORT [SHOTS]
      Runs the simulated walk (five times real time) with --http 127.0.0.1:PORT and pairs a
      browser at 390x844 (a phone). On the waypoints page: "Save this place" saves the fix as
      "Waypoint 1"; a place typed in degrees and minutes is saved under its name where the
      device reads it (the socket's own list); the list is nearest first with the distances
      and bearings of GET /api/v1/waypoints; a rename and a delete through the page's dialog
      reach the store; each row's GPX is GPX with that one place. "Go to" opens the compass
      page leading there: the name, the bearing and the distance of the socket's WAYPOINT, the
      target's mark on the rose turning as the walker turns; the place and elevation under the
      rose open the position page. "Stop navigating" ends it on the socket too. The same at
      1024x768. With SHOTS, screenshots (waypoints-390.png, compass-navigating-390.png, -1024.png).

Prints one JSON line with the findings and "problems"; exits 1 when there are any.
"""
import json
import os
import re
import socket
import sys
import time

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By

import webdevice

problems, findings = [], {}


def check(condition, message):
    if not condition:
        problems.append(message)
    return condition


def ask(sock, request, answer):
    """The socket's first answer of class `answer` to `request`."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(5)
        s.connect(sock)
        s.sendall(request.encode() + b"\n")
        data, deadline = b"", time.time() + 5
        while time.time() < deadline:
            data += s.recv(65536)
            for line in data.split(b"\n"):
                if ('"class":"%s"' % answer).encode() in line:
                    return json.loads(line)
    return {}


def fetch(driver, path, as_text=False):
    """A read as the page's own origin makes it (with its pairing cookie)."""
    how = "r.text()" if as_text else "r.json()"
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; fetch(arguments[0]).then((r) => %s).then(done, () => done(null));" % how, path)


def rows(driver):
    """The names listed, read at once (the list is drawn again as the walker moves)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#waypoint-list li.waypoint strong')).map((e) => e.textContent);")


def press(driver, name, text):
    """Clicks the row's button that starts with `text`; False when there is none."""
    for _ in range(5):
        try:
            for item in driver.find_elements(By.CSS_SELECTOR, "#waypoint-list li.waypoint"):
                if item.find_element(By.TAG_NAME, "strong").text == name:
                    for button in item.find_elements(By.CSS_SELECTOR, "button, a.button"):
                        if button.text.startswith(text):
                            button.click()
                            return True
            return False
        except StaleElementReferenceException:
            time.sleep(0.2)
    return False


def wait_for(test, seconds=10):
    for _ in range(int(seconds * 4)):
        value = test()
        if value:
            return value
        time.sleep(0.25)
    return test()


def main():
    lodestone, workdir, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    shots = sys.argv[4] if len(sys.argv) > 4 else None
    if shots:
        os.makedirs(shots, exist_ok=True)
    with webdevice.Session(lodestone, workdir, port, ["--scenario", "walk", "--speed", "5"], seconds=1200) as session:
        sock, base = session.sock, session.base
        driver = session.browser(390, 844, logs=True)
        if not check(driver, "no pairing address: %s" % getattr(session, "pairing_error", "")):
            return
        driver.set_script_timeout(10)
        time.sleep(3)
        driver.get(base + "#waypoints")
        time.sleep(1.5)
        check("No waypoints" in driver.find_element(By.ID, "waypoint-list").text, "a new device should say there are none yet")
        driver.find_element(By.ID, "waypoint-here").click()
        check(wait_for(lambda: rows(driver) == ["Waypoint 1"]), "Save this place should list Waypoint 1: %s" % rows(driver))
        driver.find_element(By.ID, "waypoint-position").send_keys("N 47°22.9000' E 8°32.9000'")
        driver.find_element(By.ID, "waypoint-name").send_keys("Lookout")
        driver.find_element(By.CSS_SELECTOR, "#waypoint-add button[type=submit]").click()
        check(wait_for(lambda: "Lookout" in rows(driver)), "the typed place should be listed: %s" % rows(driver))
        saved = {w["name"]: w for w in json.loads(os.popen("%s waypoint list --json --data-dir %s" % (lodestone, os.path.join(workdir, "data"))).read() or "[]")}
        lookout = saved.get("Lookout", {})
        check(abs(lookout.get("lat", 0) - (47 + 22.9 / 60)) < 1e-6 and abs(lookout.get("lon", 0) - (8 + 32.9 / 60)) < 1e-6,
              "the store should hold the typed place: %s" % lookout)
        listed = (fetch(driver, "/api/v1/waypoints") or {}).get("waypoints", [])
        findings["api"] = [(w["name"], w.get("distance"), w.get("bearing")) for w in listed]
        distances = [w.get("distance") for w in listed]
        check(all(d is not None for d in distances) and distances == sorted(distances), "the API should list nearest first: %s" % distances)
        check(rows(driver) == [w["name"] for w in listed], "the page should list as the API: %s against %s" % (rows(driver), [w["name"] for w in listed]))
        gpx = fetch(driver, "/api/v1/waypoints?format=gpx&name=Lookout", as_text=True) or ""
        check(gpx.count("<wpt") == 1 and "<name>Lookout</name>" in gpx, "one waypoint's GPX should hold that place alone: %s" % gpx[:300])
        if shots:
            driver.save_screenshot(os.path.join(shots, "waypoints-390.png"))

        # Rename and delete through the page's dialog.
        if check(press(driver, "Waypoint 1", "Rename"), "each row should offer Rename"):
            field = driver.find_element(By.ID, "waypoint-new-name")
            field.clear()
            field.send_keys("Bench")
            driver.find_element(By.ID, "waypoint-dialog-yes").click()
            check(wait_for(lambda: "Bench" in rows(driver) and "Waypoint 1" not in rows(driver)), "the rename should show: %s" % rows(driver))

        # Go to: the compass page leads there, as the socket says.
        if check(press(driver, "Lookout", "Go to"), "each row should offer Go to"):
            check(wait_for(lambda: driver.execute_script("return location.hash") == "#compass"), "Go to should open the compass page")
            name = webdevice.shown_text(driver, "nav-name", lambda t: t == "Lookout")
            check(name == "Lookout", "the compass page should say where it leads: %r" % name)
            turns = set()
            for _ in range(16):
                mark = driver.find_element(By.ID, "target-mark").get_attribute("transform") or ""
                turns.add(mark)
                time.sleep(0.5)
            findings["targetMarks"] = len(turns)
            check(len(turns) >= 3, "the target's mark should turn as the walker turns: %s" % sorted(turns))
            way = ask(sock, "?WAYPOINT;", "WAYPOINT")
            page_distance = driver.find_element(By.ID, "nav-distance").text
            page_bearing = driver.find_element(By.ID, "nav-bearing").text
            findings["navigation"] = {"page": [page_bearing, page_distance], "socket": [way.get("bearing"), way.get("distance")]}
            check(way.get("name") == "Lookout", "the socket should navigate to Lookout: %s" % way)
            bearing = re.match(r"(\d+)°", page_bearing)
            check(bearing and way.get("bearing") is not None and abs((int(bearing.group(1)) - way["bearing"] + 540) % 360 - 180) <= 5,
                  "the page's bearing should be the socket's: %s against %s" % (page_bearing, way.get("bearing")))
            check("m" in page_distance or "km" in page_distance, "the distance should carry its unit: %r" % page_distance)
            place = driver.find_element(By.ID, "compass-place").text
            check("°" in place and " m" in place, "the place and elevation should stand under the rose: %r" % place)
            if shots:
                driver.save_screenshot(os.path.join(shots, "compass-navigating-390.png"))
                driver.set_window_size(1024, 768)
                time.sleep(1)
                driver.save_screenshot(os.path.join(shots, "compass-navigating-1024.png"))
                driver.set_window_size(390, 844)
            driver.find_element(By.ID, "compass-place").click()
            check(wait_for(lambda: driver.execute_script("return location.hash") == "#position"), "a tap on the place should open the position page")
            driver.get(base + "#compass")
            time.sleep(1)
            driver.find_element(By.ID, "nav-stop").click()
            check(wait_for(lambda: not driver.find_element(By.ID, "compass-nav").is_displayed()), "Stop navigating should hide the way")
            check("name" not in ask(sock, "?WAYPOINT;", "WAYPOINT"), "the socket should have stopped navigating too")

        driver.get(base + "#waypoints")
        time.sleep(1.5)
        if check(press(driver, "Bench", "Delete"), "each row should offer Delete"):
            driver.find_element(By.ID, "waypoint-dialog-yes").click()
            check(wait_for(lambda: rows(driver) == ["Lookout"]), "the delete should show: %s" % rows(driver))
        errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        check(not errors, "no console errors: %s" % errors[:3])


if __name__ == "__main__":
    try:
        main()
    except Exception as error:
        problems.append("the check stopped: %r" % error)
    print(json.dumps({"findings": findings, "problems": problems}, ensure_ascii=False))
    sys.exit(1 if problems else 0)
