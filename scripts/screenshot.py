#!/usr/bin/python3
"""Opens a page of `opsim serve` in headless Chromium and saves a screenshot of it.

usage: screenshot.py URL OUT.png [--wait-for CSS] [--timeout SECONDS] [--size WxH]

It waits until an element matching --wait-for is on the page (the client's map once drawn),
fails if the page logged a JavaScript error, and prints where it saved the picture. Uses
Debian's chromium, chromium-driver and python3-selenium (scripts/lib.sh installs them).
"""
import argparse
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("url")
    p.add_argument("out")
    p.add_argument("--wait-for", default="#map[data-drawn]")
    p.add_argument("--timeout", type=float, default=30)
    p.add_argument("--size", default="1400x900")
    a = p.parse_args()
    width, height = (int(x) for x in a.size.split("x"))
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--hide-scrollbars", f"--window-size={width},{height}"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.get(a.url)
        WebDriverWait(driver, a.timeout).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, a.wait_for))
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        driver.save_screenshot(a.out)
        if errors:
            for e in errors:
                print(f"screenshot.py: JavaScript error: {e['message']}", file=sys.stderr)
            return 1
        print(f"saved {a.out}")
        return 0
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(main())
