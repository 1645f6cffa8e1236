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
import os
import re
import socket
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def main():
    lodestone, workdir, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    os.makedirs(workdir, exist_ok=True)
    sock = os.path.join(workdir, "s.sock")
    problems, findings = [], {}
    device = subprocess.Popen([lodestone, "run", "--scenario", "walk", "--sim-start", "2026-06-21T20:30:00Z", "--duration", "90",
                               "--display", "none", "--socket", sock, "--data-dir", os.path.join(workdir, "data"),
                               "--http", "127.0.0.1:%d" % port], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
        if not match:
            problems.append("no pairing address: %s" % paired.stderr)
            return problems, findings
        options = Options()
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]:
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        driver.set_window_size(390, 844)
        driver.get(match.group(0))
        time.sleep(2)
        driver.get("http://127.0.0.1:%d/#sky" % port)
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
    finally:
        if driver:
            driver.quit()
        device.terminate()
        device.wait()
    return problems, findings


if __name__ == "__main__":
    found, seen = main()
    print(json.dumps({"findings": seen, "problems": found}))
    sys.exit(1 if found else 0)
