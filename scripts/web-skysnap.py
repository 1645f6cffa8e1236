#!/usr/bin/env python3
"""The sky page's calendar and the snapshots page in a real browser (Debian's chromium, headless).

Usage:
  web-skysnap.py LODESTONE WORKDIR PORT
      Runs the simulated walk at --speed 60 and opens the web app at 390 px. The sky page must
      list four equinoxes and solstices and the next three of the Sun's events, draw the Sun's
      path as SVG with three paths (today and both solstices) and show the next eclipses. On
      the snapshots page two snapshots are taken from the page's form, both listed; ticked and
      compared, the comparison must mark the values that differ; one is opened and deleted
      through the confirmation, and the list keeps the other. With SHOTS set, screenshots at
      390 and 1024 px, day and night (skysnap-*.png in WORKDIR).

Prints one JSON line with the findings and "problems"; exits 1 when there are any.
"""
import json
import os
import sys
import time

from selenium.webdriver.common.by import By

import webdevice


def shoot(driver, workdir, name):
    if os.environ.get("SHOTS"):
        driver.save_screenshot(os.path.join(workdir, "skysnap-%s.png" % name))


def shoot_at(driver, workdir, element_id, name):
    """A screenshot with the element at the top of the screen."""
    if os.environ.get("SHOTS"):
        driver.execute_script("document.getElementById(arguments[0]).scrollIntoView()", element_id)
        time.sleep(0.3)
        shoot(driver, workdir, name)


def count(driver, selector):
    return driver.execute_script("return document.querySelectorAll(arguments[0]).length", selector)


def wait_for(test, seconds=15):
    for _ in range(int(seconds * 4)):
        value = test()
        if value:
            return value
        time.sleep(0.25)
    return test()


def sky(driver, workdir, problems, findings):
    seasons = wait_for(lambda: count(driver, "#sky-seasons li") >= 4 and count(driver, "#sky-seasons li"))
    findings["seasonEvents"] = seasons
    if seasons != 4:
        problems.append("the sky page should list four equinoxes and solstices, got %r" % seasons)
    paths = wait_for(lambda: count(driver, "#sky-path path.sun") >= 3 and count(driver, "#sky-path path.sun"))
    findings["sunPaths"] = paths
    if paths != 3:
        problems.append("the Sun's path should have three paths (today, both solstices), got %r" % paths)
    findings["next"] = wait_for(lambda: driver.find_element(By.ID, "sky-next").text)
    if count(driver, "#sky-next li") != 3:
        problems.append("the sky page should preview the next three of the Sun's events, got %r" % findings["next"])
    findings["eclipses"] = wait_for(lambda: count(driver, "#sky-eclipses article.eclipse"))
    if findings["eclipses"] != 2:
        problems.append("the next solar and lunar eclipses should be shown, got %r cards" % findings["eclipses"])
    findings["seasonBar"] = driver.find_element(By.ID, "sky-season-progress").get_attribute("class")


def take(driver, name):
    field = driver.find_element(By.ID, "snapshot-name")
    field.clear()
    field.send_keys(name)
    before = count(driver, "#snapshots-list li")
    driver.find_element(By.ID, "snapshot-take-button").click()
    # Listed, then opened (the list is written again with it marked).
    listed = wait_for(lambda: count(driver, "#snapshots-list li") > before)
    wait_for(lambda: driver.find_element(By.ID, "snapshot-title").text == name)
    time.sleep(0.5)
    return listed


def snapshots(driver, workdir, problems, findings):
    wait_for(lambda: driver.find_element(By.ID, "snapshot-take-button").is_displayed())
    if not take(driver, "Summit"):
        problems.append("the first snapshot taken from the page is not listed")
    # A minute of the walk (at 60 times) between them: the place and the values move.
    time.sleep(3)
    if not take(driver, "Pass"):
        problems.append("the second snapshot taken from the page is not listed")
    findings["listed"] = wait_for(lambda: count(driver, "#snapshots-list input[type=checkbox]") >= 2 and 2, seconds=30)
    if findings["listed"] != 2:
        problems.append("two snapshots taken should be listed with a tick box each, got %r" % findings["listed"])
        return
    for index in range(2):
        driver.find_elements(By.CSS_SELECTOR, "#snapshots-list input[type=checkbox]")[index].click()
    button = driver.find_element(By.ID, "snapshots-compare")
    if not button.is_enabled():
        problems.append("two ticked snapshots should let them be compared")
    button.click()
    columns = wait_for(lambda: count(driver, "#snapshot-head th") == 4 and 4)
    changed = wait_for(lambda: count(driver, "#snapshot-values tr.changed"))
    findings["comparedColumns"], findings["changedRows"] = columns, changed
    if columns != 4:
        problems.append("the comparison should show both snapshots and the change side by side")
    if not changed or changed < 2:
        problems.append("the comparison should mark the values that differ (the time and more), got %r" % changed)
    findings["comparison"] = driver.find_element(By.ID, "snapshot-when").text
    shoot_at(driver, workdir, "snapshot-detail", "compare-%d" % driver.get_window_size()["width"])
    overflow = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    if overflow > 0:
        problems.append("the comparison is %d px wider than the screen" % overflow)


def delete_one(driver, problems, findings):
    before = count(driver, "#snapshots-list li")
    driver.find_element(By.CSS_SELECTOR, "#snapshots-list button.row").click()
    wait_for(lambda: driver.find_element(By.ID, "snapshot-delete").is_displayed())
    link = driver.find_element(By.ID, "snapshot-csv").get_attribute("href")
    findings["csvLink"] = link
    if "/api/v1/snapshots/export?format=csv&id=" not in (link or ""):
        problems.append("an open snapshot should offer its CSV from the device, got %r" % link)
    driver.find_element(By.ID, "snapshot-delete").click()
    wait_for(lambda: driver.find_element(By.ID, "confirm-snapshot").is_displayed())
    driver.find_element(By.ID, "confirm-snapshot-yes").click()
    after = wait_for(lambda: count(driver, "#snapshots-list li") < before and count(driver, "#snapshots-list li"), seconds=40)
    findings["afterDelete"] = after
    if after != before - 1:
        problems.append("deleting through the confirmation should leave %d snapshot(s), got %r" % (before - 1, after))


def main():
    lodestone, workdir, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    problems, findings = [], {}
    seconds = 240 if os.environ.get("SHOTS") else 90
    with webdevice.Session(lodestone, workdir, port, ["--scenario", "walk", "--speed", "60"], seconds=seconds) as session:
        driver = session.browser(390, 844)
        if not driver:
            return ["no pairing address: %s" % session.pairing_error], findings
        driver.get(session.base + "#sky")
        sky(driver, workdir, problems, findings)
        for element in ["sky-next", "sky-seasons", "sky-path", "sky-eclipses"]:
            shoot_at(driver, workdir, element, "%s-390" % element)
        driver.get(session.base + "#snapshots")
        snapshots(driver, workdir, problems, findings)
        delete_one(driver, problems, findings)
        if os.environ.get("SHOTS"):
            screenshots(session, driver, workdir)
    return problems, findings


def screenshots(session, driver, workdir):
    """Both themes at 390 and 1024 px, to look at (SHOTS set)."""
    driver.find_element(By.ID, "theme").click()
    shoot_at(driver, workdir, "snapshot-detail", "snapshot-390-night")
    driver.get(session.base + "#sky")
    wait_for(lambda: count(driver, "#sky-path path.sun") >= 3)
    for element in ["sky-next", "sky-path", "sky-eclipses"]:
        shoot_at(driver, workdir, element, "%s-390-night" % element)
    driver.set_window_size(1024, 768)
    driver.find_element(By.ID, "theme").click()
    wait_for(lambda: count(driver, "#sky-path path.sun") >= 3)
    for element in ["sky-next", "sky-path", "sky-eclipses"]:
        shoot_at(driver, workdir, element, "%s-1024" % element)
    driver.get(session.base + "#snapshots")
    take(driver, "Valley")
    shoot(driver, workdir, "snapshots-1024")
    for index in range(2):
        driver.find_elements(By.CSS_SELECTOR, "#snapshots-list input[type=checkbox]")[index].click()
    driver.find_element(By.ID, "snapshots-compare").click()
    time.sleep(1)
    shoot_at(driver, workdir, "snapshot-detail", "compare-1024")


if __name__ == "__main__":
    found, seen = main()
    print(json.dumps({"findings": seen, "problems": found}))
    sys.exit(1 if found else 0)
