#!/usr/bin/env python3
"""Drives the web app in a real browser (Debian's chromium, headless, through chromedriver).

Usage:
  web-browser.py LODESTONE WORKDIR PORT [SHOTS]
      Runs the simulated walk with --http 127.0.0.1:PORT, pairs the browser with the address
      `lodestone web pair` prints, then at 390x844 (a phone) and 1024x768 (a tablet) opens
      every page: no console error, each page's heading visible, and on the compass the
      heading changes while the walk turns. A track started and stopped from the track page's
      buttons must appear in `lodestone track list`. With SHOTS, each page's screenshot is
      written there (PAGE-WIDTH.png), in the day theme and the compass also at night.

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

PAGES = ["compass", "position", "track", "barometer", "station", "device"]
problems = []
findings = {}


def check(condition, message):
    if not condition:
        problems.append(message)
    return condition


def main():
    lodestone, workdir, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    shots = sys.argv[4] if len(sys.argv) > 4 else None
    os.makedirs(workdir, exist_ok=True)
    if shots:
        os.makedirs(shots, exist_ok=True)
    sock, data = os.path.join(workdir, "s.sock"), os.path.join(workdir, "data")
    device = subprocess.Popen([lodestone, "run", "--scenario", "walk", "--speed", "5", "--duration", "240", "--display", "none",
                               "--socket", sock, "--data-dir", data, "--http", "127.0.0.1:%d" % port],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
        if not check(match, "no pairing address: %s" % paired.stderr):
            return
        options = Options()
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        driver.set_window_size(390, 844)
        driver.get(match.group(0))
        time.sleep(2)
        check("Compass" in driver.page_source and "Pair this browser" not in driver.page_source, "the pairing address should open the app")
        for width, height in [(390, 844), (1024, 768)]:
            driver.set_window_size(width, height)
            for page in PAGES:
                driver.get("http://127.0.0.1:%d/#%s" % (port, page))
                time.sleep(2)
                section = driver.find_element(By.ID, "page-" + page)
                check(section.is_displayed(), "%s at %dx%d is not shown" % (page, width, height))
                if shots:
                    driver.save_screenshot(os.path.join(shots, "%s-%d.png" % (page, width)))
        # The heading follows the walk's turns.
        driver.set_window_size(390, 844)
        driver.get("http://127.0.0.1:%d/#compass" % port)
        headings = set()
        for _ in range(20):
            time.sleep(1)
            headings.add(driver.find_element(By.ID, "heading-text").text)
        findings["headings"] = sorted(headings)
        check(len(headings) >= 2, "the heading should change while the walk turns: %s" % sorted(headings))
        if shots:
            driver.find_element(By.ID, "theme").click()
            time.sleep(1)
            driver.save_screenshot(os.path.join(shots, "compass-night-390.png"))
            driver.find_element(By.ID, "theme").click()
        # A track from the page's buttons.
        driver.get("http://127.0.0.1:%d/#track" % port)
        time.sleep(2)
        driver.find_element(By.ID, "track-start").click()
        time.sleep(6)
        check("recording" in driver.find_element(By.ID, "track-state").text, "the track page should say recording: %s" % driver.find_element(By.ID, "track-state").text)
        driver.find_element(By.ID, "track-stop").click()
        time.sleep(2)
        listed = subprocess.run([lodestone, "track", "list", "--data-dir", data], capture_output=True, text=True, timeout=30)
        findings["tracks"] = listed.stdout.strip().splitlines()[-1:] if listed.stdout.strip() else []
        check(listed.returncode == 0 and len(listed.stdout.strip().splitlines()) >= 1, "the track from the page should be listed: %s %s" % (listed.stdout, listed.stderr))
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        check(not errors, "console errors: %s" % errors[:5])
    finally:
        if driver:
            driver.quit()
        device.terminate()
        try:
            device.wait(timeout=20)
        except subprocess.TimeoutExpired:
            device.kill()
    print(json.dumps({"findings": findings, "problems": problems}))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
