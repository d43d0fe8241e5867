#!/usr/bin/env python3
"""Benchmarks of the devtools page in headless Chromium (figures in docs/performance.md):

1. a new step: from the command sent to its row drawn, 100 `dispatch increment`s (median, p90);
2. the timeline with 100,000 steps: the time to draw a frame while it scrolls (median, max);
3. a state of 10,000 todos: the page opened on it until the tree is drawn, and the fold of the
   10,000 opened;
4. for comparison, in the same run: what `fluxsh attach`'s protocol takes for one `dispatch` and for
   `state` of those 10,000 todos, without a browser;
5. what an app pays: the demo app's 20,000 actions, its wall time and its CPU time (its agent
   included), with nothing attached, with `fluxsh attach` reading (text, then JSON, which the page
   reads), and with the page attached (`fluxsh attach NAME --web` in Chromium), in turn.

Usage: Scripts/bench-web.py [FLUXSH [ATTACH_DEMO]]
  (default .build/release/fluxsh and .build/release/attach-demo; `make bench-web`)
"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Web"))
FLUXSH = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/release/fluxsh")
DEMO = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else ".build/release/attach-demo")
sys.argv = [sys.argv[0], FLUXSH, DEMO]
import subprocess  # noqa: E402
import tempfile  # noqa: E402

import web_test  # noqa: E402  (after the arguments it reads)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def main():
    if os.environ.get("BENCH_WEB_ONLY") == "app":
        for name, times in what_an_app_pays().items():
            print(f"  the app's 20,000 actions, {name} (5): median {statistics.median(t[0] for t in times):.0f} ms, "
                  f"the app's CPU {statistics.median(t[1] for t in times):.0f} ms")
        return
    with web_test.Server("web", "--store", "counter") as server:
        client = web_test.Socket(server)
        client.hello()
        wire = []
        for _ in range(100):
            started = time.perf_counter()
            client.command("dispatch increment")
            wire.append((time.perf_counter() - started) * 1000)
        client.close()
        driver = web_test.browser()
        try:
            driver.get(server.url)
            web_test.wait(driver, lambda: driver.execute_script("return window.fluxsh.page.prompt") == "counter> ",
                          "the prompt")
            steps = driver.execute_async_script("""
                const done = arguments[arguments.length - 1];
                (async () => {
                    const times = [];
                    for (let index = 0; index < 100; index++) {
                        const started = performance.now();
                        await window.fluxsh.submit("dispatch increment");
                        await new Promise((resolve) => requestAnimationFrame(resolve));
                        times.push(performance.now() - started);
                    }
                    done(times);
                })();""")
            frames = driver.execute_script("""
                const { page, drawTimeline } = window.fluxsh;
                page.steps = Array.from({ length: 100000 }, (_, index) =>
                    ({ number: index + 1, action: `toggle id: ${index % 997}`, undone: false }));
                page.done = page.steps.length;
                drawTimeline(false);
                const timeline = document.querySelector('[data-role=timeline]');
                const times = [];
                for (let frame = 0; frame < 300; frame++) {
                    timeline.scrollTop = (frame * 7919 * 22) % (100000 * 22);
                    const started = performance.now();
                    drawTimeline(false);
                    times.push(performance.now() - started);
                }
                return times;""")
        finally:
            driver.quit()

    with web_test.Server("web", "--store", "todos") as server:
        client = web_test.Socket(server)
        client.hello()
        client.flood([f"dispatch add title: item{index}" for index in range(10000)])
        states = []
        for _ in range(10):
            started = time.perf_counter()
            client.command("state")
            states.append((time.perf_counter() - started) * 1000)
        driver = web_test.browser()
        try:
            started = time.perf_counter()
            driver.get(server.url)
            web_test.wait(driver, lambda: driver.execute_script(
                "return document.querySelector('[data-role=state-tree] details') !== null"), "the tree", 60)
            opened = (time.perf_counter() - started) * 1000
            fold = driver.execute_async_script("""
                const done = arguments[arguments.length - 1];
                const fold = document.querySelector('[data-role=state-tree] details[data-path=todos]');
                const started = performance.now();
                fold.open = true;
                fold.addEventListener('toggle', () => requestAnimationFrame(() =>
                    requestAnimationFrame(() => done([performance.now() - started,
                        fold.querySelectorAll(':scope > details').length]))));""")
        finally:
            driver.quit()

    app_costs = what_an_app_pays()

    print("devtools page (headless Chromium), this run:")
    print(f"  a new step, command to row drawn (100): median {statistics.median(steps):.1f} ms, "
          f"p90 {percentile(steps, 0.9):.1f} ms")
    print(f"  the same command over the socket, no page (100): median {statistics.median(wire):.2f} ms")
    print(f"  100,000 steps, a frame of scrolling (300): median {statistics.median(frames):.2f} ms, "
          f"max {max(frames):.2f} ms")
    print(f"  10,000 todos: page opened to tree drawn {opened:.0f} ms; the fold of 10,000 opened "
          f"{fold[0]:.0f} ms ({fold[1]} rows)")
    print(f"  10,000 todos: `state` over the socket, no page (10): median {statistics.median(states):.1f} ms")

    for name, times in app_costs.items():
        print(f"  the app's 20,000 actions, {name} (5): median {statistics.median(t[0] for t in times):.0f} ms, "
              f"the app's CPU {statistics.median(t[1] for t in times):.0f} ms")


def what_an_app_pays():
    """The demo app's 20,000 actions, timed in the app's own loop, with each kind of watcher in turn."""
    runtime = tempfile.mkdtemp(prefix="fluxsh-bench-web-")
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime)
    app = subprocess.Popen([DEMO, "benchapp", "100000"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
                           text=True, bufsize=1)
    app.stdout.readline()

    def cpu():
        fields = open(f"/proc/{app.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def ticks():
        """The app's wall time for its 20,000 actions, and its CPU time (its agent's threads
        included) until a second after them, when what it owes its watchers is done."""
        before = cpu()
        started = time.perf_counter()
        app.stdin.write("tick 20000\n")
        app.stdin.flush()
        app.stdout.readline()
        wall = (time.perf_counter() - started) * 1000
        time.sleep(1)
        return wall, (cpu() - before) * 1000

    costs = {"nothing attached": [], "fluxsh attach reading": [], "fluxsh attach --format json reading": [],
             "the page attached": []}
    try:
        for _ in range(5):
            costs["nothing attached"].append(ticks())
            for name, options in [("fluxsh attach reading", []), ("fluxsh attach --format json reading", ["--format", "json"])]:
                shell = subprocess.Popen([FLUXSH, "attach", "benchapp", *options], stdin=subprocess.PIPE,
                                         stdout=subprocess.DEVNULL, env=env)
                time.sleep(0.5)
                costs[name].append(ticks())
                shell.stdin.close()
                shell.wait()
            with web_test.Server("attach", "benchapp", "--web", env=env) as server:
                driver = web_test.browser()
                try:
                    driver.get(server.url)
                    web_test.wait(driver, lambda: driver.execute_script("return window.fluxsh.page.prompt") != "> ",
                                  "the prompt")
                    costs["the page attached"].append(ticks())
                finally:
                    driver.quit()
    finally:
        app.kill()
        app.wait()
    return costs


if __name__ == "__main__":
    main()
