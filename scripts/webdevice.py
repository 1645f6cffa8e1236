"""What every browser check of the web app shares: a simulated device with the web app on a
loopback port, the pairing address it prints, and a headless chromium paired through it.

    with webdevice.Session(lodestone, workdir, port, ["--scenario", "walk"]) as session:
        driver = session.browser(390, 844)   # paired, at the app's address
        ...

The device and the browser are stopped when the block ends, whatever happened in it.
"""
import os
import re
import socket
import subprocess
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def shown_text(driver, element_id, test, seconds=15):
    """The element's visible text once `test` accepts it, else the last seen after `seconds`
    ("" while the element is hidden or not there)."""
    text = ""
    for _ in range(int(seconds * 4)):
        try:
            element = driver.find_element(By.ID, element_id)
            text = element.text if element.is_displayed() else ""
        except Exception:
            text = ""
        if test(text):
            return text
        time.sleep(0.25)
    return text


class Session:
    def __init__(self, lodestone, workdir, port, arguments, seconds=90):
        self.lodestone, self.workdir, self.port = lodestone, workdir, port
        os.makedirs(workdir, exist_ok=True)
        self.sock = os.path.join(workdir, "s.sock")
        self.base = "http://127.0.0.1:%d/" % port
        self.arguments = ["run"] + arguments + ["--duration", str(seconds), "--display", "none", "--socket", self.sock,
                                                "--data-dir", os.path.join(workdir, "data"), "--http", "127.0.0.1:%d" % port]
        self.device, self.driver = None, None

    def __enter__(self):
        # The device's log beside its data, for a check that fails.
        self.log = open(os.path.join(self.workdir, "device.log"), "w")
        self.device = subprocess.Popen([self.lodestone] + self.arguments, stdout=subprocess.DEVNULL, stderr=self.log)
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        return self

    def __exit__(self, *problem):
        if self.driver:
            self.driver.quit()
        self.device.terminate()
        self.device.wait()
        self.log.close()
        return False

    def pairing_address(self):
        """The address `lodestone web pair` prints, or None (with why in `self.pairing_error`)."""
        paired = subprocess.run([self.lodestone, "web", "pair", "--socket", self.sock, "--no-qr"], capture_output=True, text=True, timeout=30)
        match = re.search(r"http://\S+", paired.stdout)
        self.pairing_error = paired.stderr
        return match.group(0) if match else None

    def browser(self, width, height, logs=False, language=None):
        """A headless chromium at that size, paired; None when the device gave no address."""
        address = self.pairing_address()
        if not address:
            return None
        self.driver = chromium(width, height, logs=logs, language=language)
        self.driver.get(address)
        time.sleep(1)
        return self.driver


def chromium(width, height, logs=False, language=None):
    """A headless chromium at that size, not yet at any address; speaking `language`
    ("de-CH": navigator.language and Accept-Language) when one is given."""
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]:
        options.add_argument(argument)
    if language:
        options.add_argument("--lang=" + language)
        options.add_experimental_option("prefs", {"intl.accept_languages": language})
    if logs:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_window_size(width, height)
    return driver
