#!/usr/bin/env python3
"""The devtools page on a real session of the SyncUps example, saved as a picture for the
README and the reference: a sync-up added through its form, attendees, a meeting recorded, a step
selected. `make screenshots` runs it; the page is drawn by the code `make test` tests.

Usage: screenshot.py SYNCUPSH OUTPUT.png
"""
import os
import sys
import time

SYNCUPSH, OUTPUT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.argv = [sys.argv[0], SYNCUPSH, "/bin/true"]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import web_test  # noqa: E402  (after the arguments it reads)

ID = "00000000-0000-0000-0000-000000000001"
SESSION = [
    f'dispatch addSyncUpButtonTapped id: "{ID}"',
    'dispatch addSyncUp {"presented":{"_0":{"setTitle":{"_0":"Design"}}}}',
    'dispatch addSyncUp {"presented":{"_0":{"addAttendee":{"id":"00000000-0000-0000-0000-0000000000A1","name":"Blob"}}}}',
    'dispatch addSyncUp {"presented":{"_0":{"addAttendee":{"id":"00000000-0000-0000-0000-0000000000A2","name":"Blob Jr"}}}}',
    'dispatch addSyncUp {"presented":{"_0":{"setDuration":{"_0":900}}}}',
    'dispatch addSyncUp {"presented":{"_0":{"setTheme":{"_0":"poppy"}}}}',
    "dispatch confirmAddSyncUp",
    'dispatch syncUps {"element":{"id":"%s","action":"opened"}}' % ID,
    'dispatch syncUps {"element":{"id":"%s","action":{"recordMeeting":{"id":"00000000-0000-0000-0000-0000000000E1",'
    '"date":"2026-11-24T10:00:00Z","transcript":"Shipped the devtools page."}}}}' % ID,
    'dispatch syncUps {"element":{"id":"%s","action":{"rename":{"_0":"Design review"}}}}' % ID,
    "why syncUps[0].title",
]


def main():
    with web_test.Server("web", "--store", "syncups") as server:
        driver = web_test.browser()
        try:
            driver.set_window_size(1400, 820)
            driver.get(server.url)
            web_test.wait(driver, lambda: driver.execute_script("return window.fluxsh.page.prompt") == "syncups> ",
                          "the prompt")
            for line in SESSION:
                driver.execute_async_script(
                    "const done = arguments[arguments.length - 1]; window.fluxsh.submit(arguments[0]).then(done);", line)
            driver.execute_script("document.querySelector('[data-role=timeline] [data-step=\"9\"]').click()")
            time.sleep(0.3)
            driver.save_screenshot(OUTPUT)
        finally:
            driver.quit()
    print(f"screenshot: {OUTPUT}")


if __name__ == "__main__":
    main()
