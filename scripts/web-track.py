#!/usr/bin/env python3
"""The web track page against the recorder, in a real browser (Debian's chromium, headless).

Usage:
  web-track.py LODESTONE WORKDIR PORT [SHOTS]
      Runs the simulated walk (five times real time) with --http 127.0.0.1:PORT, pairs the
      browser and opens the track page at 390x844 (a phone): idle, only Start is offered and no
      page's header has a REC mark. Start from the page: the track page says it records, Pause
      and Stop are the only actions offered, and the compass page's header carries REC. After
      a while of walking the page's points and distance are the recorder's (the socket's
      ?TRACK; answer and GET /api/v1/track), and so they are again after a reload, at 390 and
      1024 px wide; the line the page draws starts at the recording's first point. Pause: only
      Resume and Stop, the header says "Paused"; Resume: recording again; Stop: only Start, no
      mark. A track then started and stopped on the socket shows and goes on the open page
      without a reload. With SHOTS, screenshots (track-recording-390.png, -1024.png, track-paused-390.png).

Prints one JSON line with the findings and "problems"; exits 1 when there are any.
"""
import json
import os
import re
import socket
import sys
import time

from selenium.webdriver.common.by import By

import webdevice

problems, findings = [], {}
BUTTONS = ["track-start", "track-pause", "track-resume", "track-stop"]


def check(condition, message):
    if not condition:
        problems.append(message)
    return condition


def recorder(sock):
    """The recorder's own figures: the socket's answer to ?TRACK;."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(5)
        s.connect(sock)
        s.sendall(b"?TRACK;\n")
        data = b""
        deadline = time.time() + 5
        while time.time() < deadline:
            data += s.recv(65536)
            for line in data.split(b"\n"):
                if b'"class":"TRACK"' in line:
                    return json.loads(line)
    return {}


def act(sock, request):
    """A request on the socket, as another client (the button, the command line) would."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(5)
        s.connect(sock)
        s.sendall(request.encode() + b"\n")
        time.sleep(0.5)


def api(driver):
    """GET /api/v1/track as the page's own origin fetches it (with its pairing cookie)."""
    return driver.execute_async_script(
        "const done = arguments[0]; fetch('/api/v1/track').then((r) => r.json()).then(done, () => done({}));")


def offered(driver):
    return [b for b in BUTTONS if driver.find_element(By.ID, b).is_displayed()]


def mark(driver):
    element = driver.find_element(By.ID, "rec")
    return element.text if element.is_displayed() else ""


def settled(driver, sock, what):
    """The page's points and distance against the recorder's, read until they agree (the
    walk adds a point a second, so a read may fall between two)."""
    seen = None
    for _ in range(20):
        before = recorder(sock)
        page = (driver.find_element(By.ID, "track-points").text, driver.find_element(By.ID, "track-distance").text)
        answer = api(driver)
        after = recorder(sock)
        seen = {"page": page, "recorder": [before.get("points"), before.get("distance")], "api": [answer.get("points"), answer.get("distance")]}
        same_now = before.get("points") == after.get("points") == answer.get("points")
        if same_now and page[0] == str(answer.get("points")) and answer.get("distance") == before.get("distance"):
            findings[what] = seen
            return answer
        time.sleep(0.4)
    check(False, "%s: the page's points and distance should be the recorder's: %s" % (what, seen))
    return {}


def main():
    lodestone, workdir, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    shots = sys.argv[4] if len(sys.argv) > 4 else None
    os.makedirs(workdir, exist_ok=True)
    if shots:
        os.makedirs(shots, exist_ok=True)
    with webdevice.Session(lodestone, workdir, port, ["--scenario", "walk", "--speed", "5"], seconds=200) as session:
        sock = session.sock
        driver = session.browser(390, 844, logs=True)
        if not check(driver, "no pairing address: %s" % getattr(session, "pairing_error", "")):
            return
        driver.set_script_timeout(10)
        time.sleep(1)
        base = session.base
        driver.get(base + "#track")
        time.sleep(2)
        check(offered(driver) == ["track-start"], "idle, only Start should be offered: %s" % offered(driver))
        check(mark(driver) == "", "idle, the header should have no REC mark: %r" % mark(driver))
        driver.find_element(By.ID, "track-name").send_keys("Browser loop")
        driver.find_element(By.ID, "track-start").click()
        time.sleep(2)
        state = driver.find_element(By.ID, "track-state").text
        check(state.startswith("Recording: Browser loop"), "after Start the page should say it records: %r" % state)
        check(offered(driver) == ["track-pause", "track-stop"], "recording, only Pause and Stop: %s" % offered(driver))
        driver.get(base + "#compass")
        time.sleep(1.5)
        check(mark(driver) == "REC", "recording, the compass page's header should say REC: %r" % mark(driver))
        driver.get(base + "#track")
        time.sleep(15)
        first = settled(driver, sock, "beforeReload")
        check((first.get("points") or 0) >= 5, "the walk should have added points: %s" % first.get("points"))
        path = first.get("path") or []
        check(0 < len(path) <= 500, "the path should have 1 to 500 points: %d" % len(path))
        for width, height in [(390, 844), (1024, 768)]:
            driver.set_window_size(width, height)
            driver.refresh()
            time.sleep(3)
            again = settled(driver, sock, "afterReload%d" % width)
            check(again.get("path", [None])[:1] == path[:1], "the line should start where the track starts: %s against %s" % (again.get("path", [])[:1], path[:1]))
            for figure in ["track-elapsed", "track-moving", "track-pace", "track-climb", "track-descent", "track-split"]:
                text = driver.find_element(By.ID, figure).text
                findings.setdefault("figures%d" % width, {})[figure] = text
                check(text and text != "--" and not re.search(r"NaN|null|undefined", text), "%s should be shown at %d: %r" % (figure, width, text))
            if shots:
                driver.execute_script("window.scrollTo(0, 0)")
                driver.save_screenshot(os.path.join(shots, "track-recording-%d.png" % width))
        driver.set_window_size(390, 844)
        driver.find_element(By.ID, "track-pause").click()
        time.sleep(2)
        check(offered(driver) == ["track-resume", "track-stop"], "paused, only Resume and Stop: %s" % offered(driver))
        check(mark(driver) == "Paused", "paused, the header should say Paused: %r" % mark(driver))
        check(recorder(sock).get("state") == "paused", "the recorder should be paused")
        if shots:
            driver.execute_script("window.scrollTo(0, 0)")
            driver.save_screenshot(os.path.join(shots, "track-paused-390.png"))
        driver.find_element(By.ID, "track-resume").click()
        time.sleep(2)
        check(recorder(sock).get("state") == "recording", "Resume should record again: %s" % recorder(sock).get("state"))
        check(offered(driver) == ["track-pause", "track-stop"], "resumed, only Pause and Stop: %s" % offered(driver))
        driver.find_element(By.ID, "track-stop").click()
        time.sleep(2)
        check(recorder(sock).get("state") == "stopped", "Stop should stop the recorder")
        check(offered(driver) == ["track-start"], "stopped, only Start: %s" % offered(driver))
        check(mark(driver) == "", "stopped, no REC mark: %r" % mark(driver))
        # Another client starts and stops a track: the open page follows without a reload.
        act(sock, '?TRACK={"action":"start","name":"Socket loop"};')
        for _ in range(10):
            time.sleep(0.5)
            if mark(driver) == "REC":
                break
        state = driver.find_element(By.ID, "track-state").text
        check(mark(driver) == "REC" and state.startswith("Recording: Socket loop"),
              "a track started elsewhere should show at once: %r %r" % (mark(driver), state))
        check(offered(driver) == ["track-pause", "track-stop"], "recording from elsewhere, only Pause and Stop: %s" % offered(driver))
        act(sock, '?TRACK={"action":"stop"};')
        for _ in range(10):
            time.sleep(0.5)
            if mark(driver) == "":
                break
        check(mark(driver) == "" and offered(driver) == ["track-start"], "stopped elsewhere, the mark goes: %r %s" % (mark(driver), offered(driver)))
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        check(not errors, "console errors: %s" % errors[:5])


if __name__ == "__main__":
    main()
    print(json.dumps({"findings": findings, "problems": problems}))
    sys.exit(1 if problems else 0)
