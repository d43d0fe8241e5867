#!/usr/bin/env python3
"""End-to-end tests of the devtools page (`fluxsh web`): the server's refusals over plain HTTP and
WebSocket, bad input on the socket, and the page itself driven in headless Chromium.

Usage: web_test.py FLUXSH ATTACH_DEMO [EXAMPLES] [FILTER]
  EXAMPLES: the folder of the example shells (weathersh, vcountersh): the page on a TCA-style
  reducer with effects on a pinned clock, and on a VueFlux store object. Without it (or with
  `-`), those tests are skipped, and said to be.
  FILTER: run only the tests whose name contains it.
Needs chromium, chromium-driver and PyPI's selenium for the browser tests (`make test-deps` installs them).
"""
import base64
import contextlib
import http.client
import json
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile
import time

FLUXSH = os.path.abspath(sys.argv[1])
DEMO = os.path.abspath(sys.argv[2])
EXAMPLES = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] != "-" else None
FILTER = sys.argv[4] if len(sys.argv) > 4 else ""
failures = []


class Skipped(Exception):
    """A test that cannot run here, and says why."""


class Server:
    """`fluxsh ARGS` (`web …` or `attach NAME --web`) serving the page, until the test is done."""

    def __init__(self, *arguments, env=None, program=False, started=None):
        """`program`: the first argument is the shell to run (a user's), not an argument of fluxsh;
        `started`: called with the process before its address is read (`listen --web` serves the
        page once an app has paired)."""
        self.folder = tempfile.mkdtemp()
        command = list(arguments) if program else [FLUXSH, *arguments]
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=self.folder, env=env)
        if started:
            started(self.process)
        line = self.process.stdout.readline()
        match = re.match(r"devtools: (http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32}))$", line.strip())
        if not match:
            raise AssertionError(f"fluxsh web printed {line!r}, then {self.process.stderr.read()!r}")
        self.url, self.port, self.token = match.group(1), int(match.group(2)), match.group(3)
        self.process.stdout.readline()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.process.kill()
        self.process.wait()

    def alive(self):
        return self.process.poll() is None

    def cpu_ticks(self):
        """The server's CPU time so far, in clock ticks."""
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    def wait_until_idle(self, seconds=15):
        """Returns once the server used no CPU for half a second (it waits on a socket)."""
        deadline = time.time() + seconds
        before = self.cpu_ticks()
        while time.time() < deadline:
            time.sleep(0.5)
            now = self.cpu_ticks()
            if now == before:
                return
            before = now
        raise AssertionError("the server never became idle")

    def memory(self):
        """The server's resident memory, in MiB."""
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0

    def get(self, path, headers=None, method="GET"):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request(method, path, headers={"Host": f"127.0.0.1:{self.port}", **(headers or {})})
        response = connection.getresponse()
        return response.status, response.read().decode()


class Socket:
    """A WebSocket client, as small as a test needs: text messages, each a line of the protocol."""

    def __init__(self, server, token=None, origin="default", host=None):
        self.connection = socket.create_connection(("127.0.0.1", server.port), timeout=20)
        key = base64.b64encode(os.urandom(16)).decode()
        origin = f"http://127.0.0.1:{server.port}" if origin == "default" else origin
        request = (
            f"GET /socket?token={server.token if token is None else token} HTTP/1.1\r\n"
            f"Host: {host or f'127.0.0.1:{server.port}'}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            + (f"Origin: {origin}\r\n" if origin else "") + "\r\n")
        self.connection.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            piece = self.connection.recv(1)
            if not piece:
                break
            head += piece
        self.status = int(head.split(b" ")[1]) if head else 0
        self.buffer = b""

    def send(self, text, opcode=1):
        data = text.encode() if isinstance(text, str) else text
        mask = os.urandom(4)
        header = bytes([0x80 | opcode])
        if len(data) < 126:
            header += bytes([0x80 | len(data)])
        elif len(data) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(data))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(data))
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(data))
        self.connection.sendall(header + mask + masked)

    def _read(self, count):
        while len(self.buffer) < count:
            piece = self.connection.recv(65536)
            if not piece:
                raise EOFError("the server closed the connection")
            self.buffer += piece
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def receive(self):
        """The next message's text, or None when the server closed the socket. A ping is answered
        (the server pings every few seconds, and every second under FLUXSH_WEB_PING_SECONDS=1)
        and a pong skipped: neither is a message."""
        while True:
            first, second = self._read(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            data = self._read(length)
            opcode = first & 0x0F
            if opcode == 8:
                return None
            if opcode == 9:
                self.send(data, opcode=10)
                continue
            if opcode == 10:
                continue
            return data.decode()

    def frames(self):
        """Messages as JSON objects, until the socket closes."""
        while True:
            try:
                text = self.receive()
            except (EOFError, ConnectionResetError):
                return
            if text is None:
                return
            yield json.loads(text)

    def hello(self):
        self.send(json.dumps({"fluxsh": 1, "format": "json", "file": "<web>"}))
        return json.loads(self.receive())

    def command(self, line):
        """Sends a line; returns its output objects and whether it failed."""
        self.send(line)
        objects = []
        for frame in self.frames():
            if "out" in frame or "err" in frame:
                objects.append(json.loads(frame.get("out", frame.get("err"))))
            elif "done" in frame:
                return objects, frame["failed"]
        raise AssertionError(f"no answer to {line!r}")

    def flood(self, lines):
        """Sends every line before reading anything; returns how many were answered (`done`)."""
        for line in lines:
            self.send(line)
        answered = 0
        for frame in self.frames():
            answered += "done" in frame
            if answered == len(lines):
                break
        return answered

    def close(self):
        self.connection.close()


def check(condition, message):
    if not condition:
        raise AssertionError(message)


# MARK: - The server's refusals


def test_refusals():
    with Server("web", "--store", "counter") as server:
        status, body = server.get(f"/?token={server.token}")
        check(status == 200 and "data-role=\"timeline\"" in body, f"the page: {status}")
        check("http" not in re.sub(r"http://www\.w3\.org[^\"]*", "", body).replace("http://127.0.0.1", ""),
              "the page loads nothing from the network")
        for path, headers, expected in [
            ("/", {}, "token"),
            (f"/?token={'0' * 32}", {}, "token"),
            (f"/?token={server.token}", {"Origin": "http://evil.example"}, "another site"),
            (f"/?token={server.token}", {"Host": f"evil.example:{server.port}"}, "served as"),
            (f"/other?token={server.token}", {}, "not found"),
        ]:
            status, body = server.get(path, headers)
            check(status in (403, 404) and expected in body, f"{path} {headers}: {status} {body!r}")
        status, _ = server.get(f"/?token={server.token}", method="POST")
        check(status == 405, f"POST: {status}")
        for arguments, name in [({"token": "0" * 32}, "a wrong token"), ({"origin": "http://evil.example"}, "a foreign origin"),
                                ({"origin": None}, "no origin"), ({"host": "evil.example"}, "a foreign host")]:
            client = Socket(server, **arguments)
            check(client.status == 403, f"a socket with {name}: {client.status}")
            client.close()
        # Only the loopback address listens: another address of this machine refuses.
        addresses = subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
        for address in [a for a in addresses if ":" not in a][:1]:
            try:
                socket.create_connection((address, server.port), timeout=3).close()
                raise AssertionError(f"{address}:{server.port} accepted a connection")
            except (ConnectionRefusedError, OSError):
                pass
        # A connection that never makes its request (here: an upgrade without its key) is closed.
        silent = socket.create_connection(("127.0.0.1", server.port), timeout=20)
        silent.sendall(f"GET /socket?token={server.token} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                       "Upgrade: websocket\r\nConnection: Upgrade\r\n\r\n".encode())
        started = time.time()
        try:
            while silent.recv(4096):
                pass
        except ConnectionResetError:
            pass
        check(time.time() - started < 15, "a connection without a whole request is closed within 10 s")
        silent.close()
        # A port in use is a usage error that says so; an impossible one is refused before.
        taken = subprocess.run([FLUXSH, "web", "--port", str(server.port)], capture_output=True, text=True, timeout=30)
        check(taken.returncode == 2 and taken.stderr == f"error: cannot listen on 127.0.0.1:{server.port}: the port is "
              "in use (choose another with --port, or leave --port out for a free one)\n",
              f"a port in use: {taken.returncode} {taken.stderr!r}")
        wrong = subprocess.run([FLUXSH, "web", "--port", "70000"], capture_output=True, text=True, timeout=30)
        check(wrong.returncode == 2 and "--port takes 1 to 65535" in wrong.stderr, f"--port 70000: {wrong.stderr!r}")
        for arguments, said in [(["--web", "--port", "0"], "--port takes 1 to 65535"),
                                (["--port", "8080"], "give it with --web")]:
            attach = subprocess.run([FLUXSH, "attach", "some-app", *arguments], capture_output=True, text=True,
                                    timeout=30)
            check(attach.returncode == 2 and said in attach.stderr, f"attach {arguments}: {attach.stderr!r}")
        unknown = subprocess.run([FLUXSH, "web", "--store", "nope"], capture_output=True, text=True, timeout=30)
        check(unknown.returncode == 2 and "nope" in unknown.stderr, f"--store nope: {unknown.stderr!r}")
        check(server.alive(), "the server stays up")


# MARK: - Bad input on the socket


def test_bad_input_changes_nothing():
    with Server("web", "--store", "counter") as server:
        client = Socket(server)
        check(client.status == 101, f"upgrade: {client.status}")
        check(client.hello().get("prompt") == "counter> ", "attached")
        client.command("dispatch add 5")
        client.send('{"complete": ')
        check(next(client.frames()) == {"word": "", "completions": []}, "a malformed completion asks nothing")
        objects, failed = client.command('{"fluxsh": 1, "format"')
        check(failed and "error" in objects[0], f"malformed JSON is an error: {objects}")
        objects, failed = client.command("dispatch nope")
        check(failed and "unknown action" in objects[0]["error"], f"{objects}")
        # A 10 MB message closes that socket; the session is unchanged, the server stays up.
        big = Socket(server)
        big.hello()
        try:
            big.send("dispatch add " + "9" * (10 << 20))
            list(big.frames())
        except (BrokenPipeError, ConnectionResetError):
            pass
        big.close()
        check(server.alive(), "the server survives a 10 MB message")
        client = Socket(server)
        client.hello()
        objects, _ = client.command("state count")
        check(objects[0]["value"] == 5, f"state after the bad input: {objects}")
        # A flood: every command answered, in order, memory bounded.
        before = server.memory()
        check(client.flood(["dispatch increment"] * 5000) == 5000, "every command of the flood is answered")
        objects, _ = client.command("state count")
        check(objects[0]["value"] == 5005, f"the flood's count: {objects}")
        check(server.memory() - before < 64, f"memory grew {server.memory() - before:.0f} MiB for 5,000 commands")
        # A tab closed mid-command.
        client.send("dispatch add 1")
        client.close()
        client = Socket(server)
        client.hello()
        objects, _ = client.command("state count")
        check(objects[0]["value"] in (5005, 5006), f"{objects}")
        # Two tabs: the second takes the session over; the first is told and closed.
        second = Socket(server)
        check(second.hello().get("attached"), "a second tab attaches")
        frames = list(client.frames())
        check(frames and "another tab" in frames[-1].get("bye", ""), f"the first tab is told: {frames}")
        objects, _ = second.command("state count")
        check(objects[0]["value"] in (5005, 5006), f"the second tab has the session: {objects}")
        check(server.alive(), "the server stays up")


def read_until_closed(connection, seconds):
    """Everything the server sends until it closes the connection; fails after `seconds`."""
    connection.settimeout(seconds)
    data = b""
    try:
        while True:
            piece = connection.recv(65536)
            if not piece:
                return data
            data += piece
    except ConnectionResetError:
        return data
    except socket.timeout:
        raise AssertionError(f"the connection was still open after {seconds} s: {data[:200]!r}")


def test_connections_without_a_token_hold_no_place():
    """Idle connections do not keep the page from a browser, and are closed within seconds; a
    request that cannot be parsed is answered 400 and its connection closed at once, nothing
    after it read."""
    with Server("web", "--store", "counter") as server:
        idle = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(100)]
        status, body = server.get(f"/?token={server.token}")
        check(status == 200 and 'data-role="timeline"' in body, f"the page behind 100 idle connections: {status}")
        client = Socket(server)
        check(client.status == 101 and client.hello().get("attached"), "a tab behind 100 idle connections")
        started = time.time()
        read_until_closed(idle[0], 10)
        check(time.time() - started < 6, f"an idle connection was closed after {time.time() - started:.1f} s")
        for connection in idle:
            connection.close()
        for request in [
            f"GET /?token={server.token} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nTransfer-Encoding: xchunked\r\n\r\n"
            f"GET /?token={server.token} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n",
            "NOT HTTP AT ALL\r\n\r\n",
        ]:
            connection = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            connection.sendall(request.encode())
            started = time.time()
            answer = read_until_closed(connection, 10)
            check(answer.startswith(b"HTTP/1.1 400") and b"timeline" not in answer,
                  f"{request[:40]!r}: {answer[:200]!r}")
            check(time.time() - started < 2, f"{request[:40]!r}: closed after {time.time() - started:.1f} s")
            connection.close()
        check(server.alive(), "the server stays up")


def test_a_text_message_that_is_not_utf8_closes_with_1007():
    with Server("web", "--store", "counter") as server:
        client = Socket(server)
        client.hello()
        client.command("dispatch add 2")
        client.send(b"dispatch add \xff\xfe 3")
        first, second = client._read(2)
        data = client._read(second & 0x7F)
        check(first & 0x0F == 8 and struct.unpack(">H", data[:2])[0] == 1007, f"the close frame: {first} {data!r}")
        client.close()
        again = Socket(server)
        again.hello()
        objects, _ = again.command("state count")
        check(objects[0]["value"] == 2, f"nothing of it ran: {objects}")


def open_sockets(server):
    """How many sockets the server's process holds open."""
    folder = f"/proc/{server.process.pid}/fd"
    count = 0
    for name in os.listdir(folder):
        with contextlib.suppress(OSError):
            count += os.readlink(f"{folder}/{name}").startswith("socket:")
    return count


def wait_for(condition, seconds, what):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(what)


def test_silent_and_unread_tabs_are_closed():
    """With a ping every second: a tab that never answers a ping is closed; one that answers stays;
    one that sends a command at a time and reads nothing is closed once its answers stop moving."""
    environment = dict(os.environ, FLUXSH_WEB_PING_SECONDS="1")
    with Server("web", "--store", "todos", env=environment) as server:
        baseline = open_sockets(server)
        silent = Socket(server)
        silent.hello()
        wait_for(lambda: open_sockets(server) == baseline, 8, "a tab that answers no ping stays open")
        silent.close()
        # A tab that answers every ping stays open past several intervals.
        lively = Socket(server)
        lively.hello()
        deadline = time.time() + 4
        while time.time() < deadline:
            # NB: only the wait for a frame's head may time out: once it is read, the rest of
            # the frame is read whole, or the next head would be read from its middle.
            lively.connection.settimeout(0.5)
            try:
                first, second = lively._read(2)
            except socket.timeout:
                continue
            lively.connection.settimeout(20)
            data = lively._read(second & 0x7F)
            if first & 0x0F == 9:
                lively.send(data, opcode=10)
        lively.connection.settimeout(20)
        objects, _ = lively.command("dispatch add title: x")
        check(objects and "changes" in objects[0], f"the tab that answers pings stays: {objects}")
        check(lively.flood([f"dispatch add title: item{index}" for index in range(2000)]) == 2000, "2,000 todos")
        # One `state` at a time, about 100 KB each, none of it read.
        for _ in range(200):
            lively.send("state")
        wait_for(lambda: open_sockets(server) == baseline, 10, "a tab that reads nothing stays open")
        check(server.alive(), "the server stays up")


def test_a_stuck_tab_is_taken_over():
    """A tab that asked for far more than it reads (and reads nothing) holds the session for at
    most 10 s: it is closed, and the next tab takes the session over."""
    with Server("web", "--store", "todos") as server:
        stuck = Socket(server)
        stuck.hello()
        check(stuck.flood([f"dispatch add title: item{index}" for index in range(2000)]) == 2000, "2,000 todos")
        # Each `state` answer is about 100 KB: 1,000 of them fill the socket's buffers many times over.
        stuck.send("\n".join(["state"] * 1000))
        server.wait_until_idle()
        started = time.time()
        second = Socket(server)
        check(second.hello().get("attached"), "the second tab attaches")
        check(time.time() - started < 20, f"the takeover took {time.time() - started:.0f} s")
        objects, _ = second.command("state todos.count")
        check(objects[0]["value"] == 2000, f"the second tab has the session: {objects}")
        check(server.alive(), "the server stays up")


# MARK: - The page in a browser


def browser():
    os.environ["SE_AVOID_STATS"] = "true"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,900"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(20)
    driver.downloads = tempfile.mkdtemp(prefix="fluxsh-downloads-")
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": driver.downloads})
    return driver


def wait(driver, condition, what, seconds=10):
    """Waits until `condition` holds; an element it read that was drawn anew meanwhile (rows are,
    at every reading of the session) is read again."""
    from selenium.common.exceptions import StaleElementReferenceException

    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            value = condition()
        except StaleElementReferenceException:
            value = None
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"the page never showed {what}")


def test_page():
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    role = lambda name: f'[data-role="{name}"]'
    with Server("web", "--store", "todos") as server:
        driver = browser()
        try:
            driver.get(server.url)
            command = driver.find_element(By.CSS_SELECTOR, role("command"))
            wait(driver, lambda: driver.find_element(By.CSS_SELECTOR, role("prompt")).text == "todos>", "the prompt")
            parts = page_parts(driver)
            steps, inspector = parts["steps"], parts["inspector"]
            for line in ['dispatch add title: "Buy milk"', 'dispatch add "Walk the dog"', "dispatch toggle id: 1"]:
                count = len(steps())
                command.send_keys(line + Keys.ENTER)
                wait(driver, lambda: len(steps()) == count + 1, f"a step for {line}")
            check(steps() == ['1 add title: "Buy milk"', '2 add "Walk the dog"', "3 toggle id: 1"], f"{steps()}")
            check("~ todos[0].done: false -> true" in inspector(), f"the inspector: {inspector()}")
            # An error, where it happened; it changes nothing.
            command.send_keys("dispatch toggle id: 9" + Keys.ENTER)
            error = driver.find_element(By.CSS_SELECTOR, role("error"))
            wait(driver, lambda: "no todo has id 9" in error.text, "the error")
            check(len(steps()) == 3, "an error is no step")
            # The inspector of an earlier step.
            driver.find_element(By.CSS_SELECTOR, role("timeline") + ' [data-step="1"]').click()
            wait(driver, lambda: '+ todos[0]: {"id":1,"title":"Buy milk","done":false}' in inspector(), "step 1")
            # Jump: back to step 1 (undo 2), then the slider forward again (redo).
            driver.find_element(By.CSS_SELECTOR, role("jump")).click()
            wait(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, ".step.undone")) == 2, "two undone steps")
            tree = lambda: driver.find_element(By.CSS_SELECTOR, role("state-tree")).text
            wait(driver, lambda: "nextID\n2" in tree(), "the state after step 1 in the tree")
            driver.execute_script(
                "const s = document.querySelector('[data-role=slider]'); s.value = 3;"
                "s.dispatchEvent(new Event('change'));")
            wait(driver, lambda: not driver.find_elements(By.CSS_SELECTOR, ".step.undone"), "redone steps")
            # The tree: a value's why, and a watch.
            value = driver.find_element(By.CSS_SELECTOR, role("state-tree") + ' [data-path="nextID"] .value')
            value.click()
            output = lambda: driver.find_element(By.CSS_SELECTOR, role("output")).text
            wait(driver, lambda: "why nextID" in output() and "~ nextID: 2 -> 3" in output(), "why nextID")
            # Laid out as the shell prints it: each step's number, its lines indented under it.
            why = driver.execute_script(
                "return [...document.querySelectorAll('[data-role=output] div')].map((line) => line.textContent)")
            check('  1  add title: "Buy milk"' in why and "     ~ nextID: 1 -> 2" in why,
                  f"why's lines as the shell prints them: {why}")
            # save: the scenario is a download; nothing is written where the server runs.
            command.send_keys("save my.scenario" + Keys.ENTER)
            saved = os.path.join(driver.downloads, "my.scenario")
            wait(driver, lambda: os.path.exists(saved) and open(saved).read().endswith("\n"), "the download")
            scenario = open(saved).read()
            check("load todos" in scenario and 'dispatch add title: "Buy milk"' in scenario, f"{scenario!r}")
            check(not os.listdir(server.folder), f"the server's folder: {os.listdir(server.folder)}")
            replay = subprocess.run([FLUXSH, "test", saved], capture_output=True, text=True, timeout=60)
            check(replay.returncode == 0, f"the downloaded scenario replays: {replay.stdout} {replay.stderr}")
            # The save button downloads the session as session.scenario.
            driver.find_element(By.CSS_SELECTOR, '[data-action="download"]').click()
            button_saved = os.path.join(driver.downloads, "session.scenario")
            wait(driver, lambda: os.path.exists(button_saved) and open(button_saved).read() == scenario,
                 "the save button's download")
            # The tree's search marks the value and opens the way to it.
            driver.find_element(By.CSS_SELECTOR, role("find")).send_keys("walk the")
            wait(driver, lambda: driver.execute_script(
                "return [...document.querySelectorAll('[data-role=state-tree] .match')].map((e) => e.dataset.path)")
                == ["todos[1].title"], "the search's match")
            # Enter asks the engine's find: one line per path found, which shows it in the tree.
            driver.find_element(By.CSS_SELECTOR, role("find")).send_keys(Keys.ENTER)
            found = lambda: driver.execute_script(
                "return [...document.querySelectorAll('[data-role=find-results] > *')].map((e) => e.textContent)")
            wait(driver, lambda: found() == ['todos[1].title: "Walk the dog"'], "find's results")
            driver.find_element(By.CSS_SELECTOR, role("find-results") + " [data-path]").click()
            wait(driver, lambda: driver.execute_script(
                "return document.querySelector('[data-role=state-tree] [data-path=\"todos[1].title\"]')"
                "?.classList.contains('match')"), "the path found, shown in the tree")
            # Completion.
            command.send_keys("dispatch tog" + Keys.TAB)
            wait(driver, lambda: command.get_attribute("value") == "dispatch toggle ", "the completion, and a space")
            command.clear()
            command.send_keys("state to" + Keys.TAB)
            wait(driver, lambda: command.get_attribute("value") == "state todos", "a path that goes on, no space")
            command.send_keys(Keys.TAB)
            hint = driver.find_element(By.CSS_SELECTOR, ".completions")
            wait(driver, lambda: hint.is_displayed(), "the candidates listed")
            command.send_keys(Keys.CONTROL + "a", Keys.BACKSPACE)
            wait(driver, lambda: not hint.is_displayed(), "the candidates gone with the line")
            # The filter.
            driver.find_element(By.CSS_SELECTOR, role("filter")).send_keys("toggle")
            wait(driver, lambda: steps() == ["3 toggle id: 1"], "the filtered timeline")
            driver.find_element(By.CSS_SELECTOR, role("filter")).send_keys(Keys.CONTROL + "a", Keys.BACKSPACE)
            wait(driver, lambda: len(steps()) == 3, "the whole timeline again")
            driver.find_element(By.CSS_SELECTOR, role("timeline") + ' [data-step="3"]').click()
            # What the page did is the session's: another tab's history shows it.
            client = Socket(server)
            client.hello()
            objects, _ = client.command("history")
            check([step["number"] for step in objects[0]["history"]] == [1, 2, 3], f"{objects}")
            ended = driver.find_element(By.CSS_SELECTOR, role("ended"))
            wait(driver, lambda: "another tab" in ended.text, "the page told it lost the session")
            logs = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
            check(not logs, f"the page's console has errors: {logs}")
        finally:
            driver.quit()


def page_parts(driver):
    """Reads the parts of the page the tests look at, each in one script (rows are drawn anew)."""
    from selenium.webdriver.common.by import By

    role = lambda name: driver.find_element(By.CSS_SELECTOR, f'[data-role="{name}"]')
    return {
        "steps": lambda: driver.execute_script(
            "return [...document.querySelectorAll('[data-role=timeline] .step')]"
            ".map((row) => row.dataset.step + ' ' + row.querySelector('.action').textContent"
            " + (row.classList.contains('undone') ? ' (undone)' : '')"
            " + (row.classList.contains('skipped') ? ' (skipped)' : ''))"),
        "selected": lambda: driver.execute_script("return window.fluxsh.page.selected"),
        "inspector": lambda: role("inspector").text,
        "tree": lambda: role("state-tree").text,
        "output": lambda: role("output").text,
        "error": lambda: role("error").text,
        "command": lambda: role("command"),
    }


@contextlib.contextmanager
def opened_page(*arguments, prompt, program=False):
    """A server for `arguments`, and its page open in a browser once it shows `prompt`."""
    with Server(*arguments, program=program) as server:
        driver = browser()
        try:
            driver.get(server.url)
            parts = page_parts(driver)
            wait(driver, lambda: driver.execute_script("return window.fluxsh.page.prompt") == prompt, "the prompt")
            yield driver, parts
        finally:
            driver.quit()


def type_line(driver, parts, line, steps_after=None):
    """Types `line` into the command line; waits for the timeline to have `steps_after` rows."""
    from selenium.webdriver.common.keys import Keys

    parts["command"]().send_keys(line + Keys.ENTER)
    if steps_after is not None:
        wait(driver, lambda: len(parts["steps"]()) == steps_after, f"{steps_after} steps after {line!r}")


def test_counter_paths_pairing_and_typed_requests():
    """A member named `count` is written `["count"]`; each step's inspector shows its own diff after
    undo and redo; a typed line that looks like a request is run, refused, and the next one runs."""
    from selenium.webdriver.common.by import By

    with opened_page("web", "--store", "counter", prompt="counter> ") as (driver, parts):
        type_line(driver, parts, "dispatch increment", 1)
        type_line(driver, parts, "dispatch add 5", 2)
        type_line(driver, parts, "undo")
        wait(driver, lambda: parts["steps"]()[-1] == "2 add 5 (undone)", "step 2 undone")
        # NB: the timeline has two rows before the step comes too (the undone one): wait for the rows.
        type_line(driver, parts, "dispatch add 7")
        wait(driver, lambda: parts["steps"]() == ["1 increment", "3 add 7"], "step 3 in place of the undone one")
        wait(driver, lambda: "~ count: 1 -> 8" in parts["inspector"](), "step 3's own diff")
        driver.find_element(By.CSS_SELECTOR, '[data-role="timeline"] [data-step="1"]').click()
        wait(driver, lambda: "~ count: 0 -> 1" in parts["inspector"](), "step 1's own diff")
        # The tree writes the member `count` as `["count"]`, which names it whatever holds it.
        value = driver.find_element(By.CSS_SELECTOR, '[data-role="state-tree"] .node .value')
        check(value.find_element(By.XPATH, "..").get_attribute("data-path") == '["count"]', "the path")
        value.click()
        wait(driver, lambda: 'why ["count"]' in parts["output"]() and "~ count: 1 -> 8" in parts["output"](),
             "why of the value")
        # A typed request-looking line: refused as a command, and the page stays in step.
        type_line(driver, parts, '{"complete":"dispatch in"}')
        wait(driver, lambda: "expected a command" in parts["error"](), "the refusal")
        type_line(driver, parts, "dispatch decrement", 3)
        wait(driver, lambda: "~ count: 8 -> 7" in parts["inspector"](), "the next command's step")
        # find, diff and effects print as the shell prints them, not as JSON.
        type_line(driver, parts, "find count")
        wait(driver, lambda: "count: 7" in parts["output"](), "find's places")
        type_line(driver, parts, "find nothing-here")
        wait(driver, lambda: "(nothing found)" in parts["output"](), "find with nothing found")
        type_line(driver, parts, "diff 0 4")
        wait(driver, lambda: "~ count: 0 -> 7" in parts["output"](), "diff's lines")
        type_line(driver, parts, "effects")
        wait(driver, lambda: "(no effects running)" in parts["output"](), "effects")
        check('"found"' not in parts["output"]() and '"effects"' not in parts["output"](), "no JSON printed")
        # quit leaves this tab's session, and says the server goes on.
        type_line(driver, parts, "quit")
        ended = driver.find_element(By.CSS_SELECTOR, ".ended")
        wait(driver, lambda: "the server goes on serving the page" in ended.text, "what quit says")


def test_the_skip_toggle_edits_the_past():
    """The timeline by keyboard (↑/↓ select, Enter jumps); each step that dispatched actions has a
    skip toggle (shown on hover): it runs `skip N`, the row is marked and the state replayed; on a
    skipped row it runs `unskip N`; *replace* puts `replace N ACTION` in the command line. An edit
    has no toggle; `history`, `commit` and `sweep` print as the shell prints them."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    with opened_page("web", "--store", "counter", prompt="counter> ") as (driver, parts):
        for number, amount in enumerate([1, 10, 100], start=1):
            type_line(driver, parts, f"dispatch add {amount}", number)
        row = lambda number: driver.find_element(By.CSS_SELECTOR, f'[data-role="timeline"] [data-step="{number}"]')
        toggle = lambda number: row(number).find_element(By.CSS_SELECTOR, '[data-role="skip"]')

        def retrying(act):
            """Does `act` again when the rows it found were drawn anew meanwhile (they are, on every
            reading of the session)."""
            from selenium.common.exceptions import StaleElementReferenceException

            for attempt in range(5):
                try:
                    return act()
                except StaleElementReferenceException:
                    if attempt == 4:
                        raise

        def click_toggle(number):
            def hover_and_click():
                ActionChains(driver).move_to_element(row(number)).perform()
                wait(driver, lambda: toggle(number).is_displayed(), f"step {number}'s toggle on hover")
                toggle(number).click()

            retrying(hover_and_click)

        # The keyboard: ↑ and ↓ select, Enter jumps.
        retrying(lambda: row(3).click())
        timeline = driver.find_element(By.CSS_SELECTOR, '[data-role="timeline"]')
        timeline.send_keys(Keys.ARROW_UP)
        wait(driver, lambda: parts["selected"]() == 2, "↑ selects the step before")
        timeline.send_keys(Keys.ENTER)
        wait(driver, lambda: parts["steps"]()[-1] == "3 add 100 (undone)", "Enter jumps to it")
        timeline.send_keys(Keys.ARROW_DOWN, Keys.ENTER)
        wait(driver, lambda: parts["steps"]()[-1] == "3 add 100", "↓ and Enter jump back")
        # Shift-click another step: the compare view shows the diff between the two.
        retrying(lambda: row(1).click())
        retrying(lambda: ActionChains(driver).key_down(Keys.SHIFT).click(row(3)).key_up(Keys.SHIFT).perform())
        compare = driver.find_element(By.CSS_SELECTOR, '[data-role="compare"]')
        wait(driver, lambda: compare.is_displayed() and "~ count: 1 -> 111" in compare.text, "the compare view")
        check("after step 1 -> after step 3" in compare.text, f"the compare view names the steps: {compare.text}")
        # Replace from a row: the command line gets the step's action, to change and run.
        retrying(lambda: (ActionChains(driver).move_to_element(row(3)).perform(),
                          row(3).find_element(By.CSS_SELECTOR, '[data-action="replace"]').click()))
        wait(driver, lambda: parts["command"]().get_attribute("value") == "replace 3 add 100", "replace in the line")
        parts["command"]().clear()
        check(not retrying(lambda: toggle(2).is_displayed()), "the toggle hides until the row is hovered")
        click_toggle(2)
        wait(driver, lambda: parts["steps"]()[1] == "2 add 10 (skipped)", "step 2 marked skipped")
        wait(driver, lambda: parts["steps"]()[-1] == "4 skip 2", "the skip is a step")
        wait(driver, lambda: "~ count: 111 -> 101" in parts["output"](), "the skip's diff")
        check(retrying(lambda: toggle(2).text == "unskip" and toggle(2).is_displayed()),
              "a skipped row shows its toggle, to unskip")
        check(retrying(lambda: toggle(4).get_attribute("hidden") is not None), "an edit has no toggle")
        type_line(driver, parts, "history")
        wait(driver, lambda: "2  add 10   (skipped)" in parts["output"](), "history's mark as the shell's")
        click_toggle(2)
        wait(driver, lambda: parts["steps"]()[-1] == "5 unskip 2", "the unskip is a step")
        wait(driver, lambda: "~ count: 101 -> 111" in parts["output"](), "the unskip's diff")
        check(parts["steps"]()[1] == "2 add 10", "step 2 no longer marked")
        type_line(driver, parts, "replace 1 add 2")
        wait(driver, lambda: "(replaced at step 6)" in row(1).text, "the replaced step's mark")
        type_line(driver, parts, "sweep")
        wait(driver, lambda: "(removed steps 4, 5, 6)" in parts["output"](), "sweep's line")
        wait(driver, lambda: parts["steps"]() == ["1 add 2", "2 add 10", "3 add 100"], "the swept timeline")
        type_line(driver, parts, "commit")
        wait(driver, lambda: "(3 steps forgotten: the history starts here)" in parts["output"](), "commit's line")
        wait(driver, lambda: parts["steps"]() == [], "no step left to travel to")
        logs = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        check(not logs, f"the page's console has errors: {logs}")


def test_a_reducer_with_effects_and_a_store_object():
    """The page on stores that are not FluxCore stores: a TCA-style reducer whose effect waits on
    the session's clock (`advance` releases its answer, a follow-up of that step), the same feature
    in its library's `@MainActor` Store, and a VueFlux store object that undo replays."""
    from selenium.webdriver.common.by import By

    if EXAMPLES is None:
        raise Skipped("no EXAMPLES folder given")
    with opened_page(os.path.join(EXAMPLES, "weathersh"), "web", "--store", "citysearch", prompt="citysearch> ",
                     program=True) as (driver, parts):
        type_line(driver, parts, 'dispatch queryChanged "Par"', 1)
        wait(driver, lambda: '~ query: "" -> "Par"' in parts["inspector"](), "the query's diff")
        type_line(driver, parts, "advance 0.3", 2)
        check(parts["steps"]()[-1] == "2 advance 0.3", f"{parts['steps']()}")
        follow = driver.execute_script(
            "return document.querySelector('[data-role=timeline] .step[data-step=\"2\"] .op-follow')?.textContent")
        check(follow and follow.startswith("=> searchResponse"), f"the effect's answer in the row: {follow!r}")
        wait(driver, lambda: "=> searchResponse" in parts["inspector"]() and "+ results[2]" in parts["inspector"](),
             "the answer's diff in the inspector")
        wait(driver, lambda: "Parma" in driver.execute_script("return JSON.stringify(window.fluxsh.page.state)"),
             "the results in the state")
        # Jump back to step 1: the answer is undone with its step.
        driver.find_element(By.CSS_SELECTOR, '[data-role="timeline"] [data-step="1"]').click()
        driver.find_element(By.CSS_SELECTOR, '[data-role="jump"]').click()
        wait(driver, lambda: parts["steps"]()[-1] == "2 advance 0.3 (undone)", "step 2 undone")
        wait(driver, lambda: "Parma" not in driver.execute_script("return JSON.stringify(window.fluxsh.page.state)"),
             "the state before the answer")
        logs = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        check(not logs, f"the page's console has errors: {logs}")
    # The same feature in its library's `@MainActor` Store (a store object): the page's session runs on
    # the main thread, and the store's own task answers at `advance`, a follow-up of that step.
    with opened_page(os.path.join(EXAMPLES, "weathersh"), "web", "--store", "citystore", prompt="citystore> ",
                     program=True) as (driver, parts):
        type_line(driver, parts, 'dispatch queryChanged "Os"', 1)
        wait(driver, lambda: '~ query: "" -> "Os"' in parts["inspector"](), "the query's diff")
        type_line(driver, parts, "advance 0.3", 2)
        follow = driver.execute_script(
            "return document.querySelector('[data-role=timeline] .step[data-step=\"2\"] .op-follow')?.textContent")
        check(follow and follow.startswith("=> searchResponse"), f"the store's task's answer in the row: {follow!r}")
        wait(driver, lambda: "Oslo" in driver.execute_script("return JSON.stringify(window.fluxsh.page.state.results)"),
             "the results in the state")
    with opened_page(os.path.join(EXAMPLES, "vcountersh"), "web", "--store", "vcounter", prompt="vcounter> ",
                     program=True) as (driver, parts):
        type_line(driver, parts, "dispatch setStep 3", 1)
        type_line(driver, parts, "dispatch increment", 2)
        type_line(driver, parts, "dispatch mark", 3)
        wait(driver, lambda: "+ marks[0]: 3" in parts["inspector"](), "the mark's diff")
        driver.find_element(By.CSS_SELECTOR, '[data-role="timeline"] [data-step="1"]').click()
        driver.find_element(By.CSS_SELECTOR, '[data-role="jump"]').click()
        wait(driver, lambda: parts["steps"]()[1:] == ["2 increment (undone)", "3 mark (undone)"], "two undone")
        state = lambda: driver.execute_script("return window.fluxsh.page.state")
        wait(driver, lambda: state() and state()["count"] == 0 and state()["marks"] == [] and state()["step"] == 3,
             "the store object replayed to step 1")


def test_numbers_show_as_the_shell_prints_them():
    """A Double the shell prints `14.0` shows `14.0` in the output, the inspector and the tree,
    not JavaScript's `14`."""
    from selenium.webdriver.common.by import By

    with opened_page("web", "--store", "library", prompt="library> ") as (driver, parts):
        type_line(driver, parts, "dispatch rate 14", 1)
        wait(driver, lambda: "~ rating: 0.0 -> 14.0" in parts["output"](), "the diff line as printed")
        wait(driver, lambda: "~ rating: 0.0 -> 14.0" in parts["inspector"](), "the inspector's diff")
        value = driver.find_element(By.CSS_SELECTOR, '[data-role="state-tree"] [data-path="rating"] .value')
        check(value.text == "14.0", f"the tree's value: {value.text!r}")
        type_line(driver, parts, "state rating")
        wait(driver, lambda: parts["output"]().endswith("14.0"), "state's value")
        # watch: the page prints a diff as the shell does, `(N more changes)` for what it leaves
        # out; the inspector keeps the whole diff.
        type_line(driver, parts, "watch rating")
        type_line(driver, parts, "dispatch setBudget 5", 2)
        wait(driver, lambda: parts["output"]().endswith("(1 more change)"), "the watched diff")
        check("~ budget" not in parts["output"](), f"the line the watch leaves out: {parts['output']()!r}")
        wait(driver, lambda: "~ budget: 100.5 -> 5" in parts["inspector"](), "the inspector's whole diff")
        type_line(driver, parts, "dispatch rate 2.5", 3)
        wait(driver, lambda: parts["output"]().endswith("~ rating: 14.0 -> 2.5"), "a watched line")


def test_nested_actions_show_by_their_path_of_cases():
    """A TCA-style action nested in an identified element shows as `syncUps › element(…0001) ›
    opened` in the timeline, its whole text in the row's tooltip."""
    if EXAMPLES is None:
        raise Skipped("no EXAMPLES folder given")
    lines = [
        'dispatch addSyncUpButtonTapped id: "00000000-0000-0000-0000-000000000001"',
        'dispatch addSyncUp {"presented":{"_0":{"setTitle":{"_0":"Design"}}}}',
        "dispatch confirmAddSyncUp",
        'dispatch syncUps {"element":{"id":"00000000-0000-0000-0000-000000000001","action":"opened"}}',
        'dispatch syncUps {"element":{"id":"00000000-0000-0000-0000-000000000001","action":{"recordMeeting":'
        '{"id":"00000000-0000-0000-0000-0000000000E1","date":"2026-11-24T10:00:00Z","transcript":"hi"}}}}',
    ]
    with opened_page(os.path.join(EXAMPLES, "syncupsh"), "web", "--store", "syncups", prompt="syncups> ",
                     program=True) as (driver, parts):
        for number, line in enumerate(lines, start=1):
            type_line(driver, parts, line, number)
        steps = parts["steps"]()
        check(steps[1] == "2 addSyncUp › presented › setTitle", f"a presented form's action: {steps}")
        check(steps[3] == "4 syncUps › element(…0001) › opened", f"a case with no payload: {steps}")
        check(steps[4] == "5 syncUps › element(…0001) › recordMeeting", f"a case with a payload: {steps}")
        check(steps[0].startswith("1 addSyncUpButtonTapped id:"), f"an action of labels stays as typed: {steps}")
        title = driver.execute_script(
            "return document.querySelector('[data-role=timeline] .step[data-step=\"5\"]').title")
        check(title.startswith('syncUps {"element":'), f"the whole action in the tooltip: {title!r}")


def test_every_stores_state_in_one_tree():
    """With two stores loaded, the tree and the inspector's state hold both, each under its alias,
    with the paths diff lines give them; a value's why is asked with that path."""
    from selenium.webdriver.common.by import By

    with opened_page("web", "--store", "todos", "--store", "counter", prompt="counter> ") as (driver, parts):
        type_line(driver, parts, "dispatch add title: a", 1)
        type_line(driver, parts, "dispatch increment", 2)
        driver.find_element(By.CSS_SELECTOR, '[data-role="timeline"] [data-step="1"]').click()
        wait(driver, lambda: '"title": "a"' in parts["inspector"]() and '"count": 0' in parts["inspector"](),
             "the state after step 1 holds both stores")
        tree = lambda: driver.execute_script(
            "return [...document.querySelectorAll('[data-role=state-tree] .node')].map((n) => n.dataset.path)")
        wait(driver, lambda: "todos.todos[0].title" in tree() and 'counter["count"]' in tree(), "both stores' values")
        driver.find_element(By.CSS_SELECTOR, '[data-role="state-tree"] [data-path="todos.todos[0].title"] .value').click()
        wait(driver, lambda: "why todos.todos[0].title" in parts["output"]() and "1  add title: a" in parts["output"](),
             "why of another store's value")


def test_a_step_from_before_the_page_opened_is_inspected_without_travel():
    """A tab opened on a session with steps already taken shows an earlier step's diff and the
    state after it, as the engine keeps them for undo; nothing travels (no step is undone)."""
    from selenium.webdriver.common.by import By

    with Server("web", "--store", "todos") as server:
        client = Socket(server)
        client.hello()
        for line in ["dispatch add title: a", "dispatch add title: b", "dispatch toggle id: 1"]:
            client.command(line)
        driver = browser()
        try:
            driver.get(server.url)
            parts = page_parts(driver)
            wait(driver, lambda: len(parts["steps"]()) == 3, "the steps from before the page opened")
            driver.find_element(By.CSS_SELECTOR, '[data-role="timeline"] [data-step="2"]').click()
            wait(driver, lambda: '+ todos[1]: {"id":2,"title":"b","done":false}' in parts["inspector"](),
                 "step 2's diff")
            wait(driver, lambda: '"title": "b"' in parts["inspector"]() and '"done": true' not in parts["inspector"](),
                 "the state after step 2, before the toggle")
            check(not driver.find_elements(By.CSS_SELECTOR, ".step.undone"), "nothing travelled")
        finally:
            driver.quit()


def test_a_scenario_opens_paused_at_its_first_step():
    """*open* runs a scenario file in place of the session (another store's, here): the timeline is
    the scenario's, paused at its first step, the later ones undone and walked forward from the
    states kept. A scenario with a line that fails is refused, naming the line, and the session is
    as it was; one whose expected lines do not hold opens, and says so. A tab opened after it sees
    the opened session."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    folder = tempfile.mkdtemp(prefix="fluxsh-open-")
    good = os.path.join(folder, "todos.scenario")
    with open(good, "w") as file:
        file.write("load todos\ndispatch add title: a\n+ todos[0]: {\"id\":1,\"title\":\"a\",\"done\":false}\n"
                   "~ nextID: 1 -> 2\ndispatch add title: b\ndispatch toggle id: 1\n")
    bad = os.path.join(folder, "bad.scenario")
    with open(bad, "w") as file:
        file.write("load todos\ndispatch nope\n")
    chooser = lambda driver: driver.find_element(By.CSS_SELECTOR, '[data-role="open-file"]')
    with opened_page("web", "--store", "counter", prompt="counter> ") as (driver, parts):
        type_line(driver, parts, "dispatch add 5", 1)
        chooser(driver).send_keys(bad)
        wait(driver, lambda: "bad.scenario:2: " in parts["error"]() and "nope" in parts["error"](), "the refusal")
        check(parts["steps"]() == ["1 add 5"], "the session as it was")
        check(driver.execute_script("return window.fluxsh.page.prompt") == "counter> ", "the prompt as it was")
        chooser(driver).send_keys(good)
        wait(driver, lambda: parts["steps"]() == ["1 add title: a", "2 add title: b (undone)", "3 toggle id: 1 (undone)"],
             "the scenario's steps, paused at the first")
        wait(driver, lambda: "opened todos.scenario: 3 steps, paused at the first" in parts["output"](), "what open says")
        check(parts["selected"]() == 1, "the first step selected")
        check(driver.execute_script("return window.fluxsh.page.prompt") == "todos> ", "the scenario's store is active")
        check('"title": "b"' not in parts["tree"]() and '"a"' in parts["tree"](), f"the state at step 1: {parts['tree']()}")
        check(not parts["error"](), f"no error: {parts['error']()}")
        # Walking forward: ↓ and Enter redo the next step from the state kept.
        timeline = driver.find_element(By.CSS_SELECTOR, '[data-role="timeline"]')
        timeline.send_keys(Keys.ARROW_DOWN, Keys.ENTER)
        wait(driver, lambda: parts["steps"]()[1] == "2 add title: b", "step 2 redone")
        # Expected lines that do not hold: opened, and told.
        with open(good, "w") as file:
            file.write("load todos\ndispatch add title: a\n~ nextID: 1 -> 3\n")
        chooser(driver).send_keys(good)
        wait(driver, lambda: parts["steps"]() == ["1 add title: a"], "the mismatching scenario opened")
        wait(driver, lambda: "todos.scenario:2: " in parts["error"](), "the mismatch told")
        driver.get(driver.current_url)
        wait(driver, lambda: parts["steps"]() == ["1 add title: a"], "a new tab on the opened session")
        logs = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        check(not logs, f"the page's console has errors: {logs}")


def test_large_state():
    """A fold of more than 100 members shows groups of a hundred; the search opens the one it needs."""
    from selenium.webdriver.common.by import By

    with Server("web", "--store", "todos") as server:
        client = Socket(server)
        client.hello()
        client.flood([f"dispatch add title: item{index}" for index in range(250)])
        client.close()
        driver = browser()
        try:
            driver.get(server.url)
            script = "return [...document.querySelectorAll(arguments[0])].map((e) => e.textContent)"
            fold = '[data-role=state-tree] details[data-path="todos"]'
            wait(driver, lambda: driver.execute_script(script, fold + " > summary .key") == ["todos"], "the fold")
            driver.find_element(By.CSS_SELECTOR, fold + " > summary .key").click()
            wait(driver, lambda: driver.execute_script(script, fold + " > details > summary")
                 == ["[0 … 99]", "[100 … 199]", "[200 … 249]"], "three groups")
            driver.find_element(By.CSS_SELECTOR, '[data-role="find"]').send_keys("item249")
            wait(driver, lambda: driver.execute_script(
                "return [...document.querySelectorAll('.match')].map((e) => e.dataset.path)") == ["todos[249].title"],
                "the match in the last group")
        finally:
            driver.quit()


@contextlib.contextmanager
def demo_app():
    """The attach demo app serving `webdemo`: yields a function that sends it a line and returns
    its answer, and the environment that finds its socket."""
    runtime = tempfile.mkdtemp(prefix="fluxsh-web-")
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime)
    app = subprocess.Popen([DEMO, "webdemo"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True,
                           bufsize=1)
    ask = lambda line: (app.stdin.write(line + "\n"), app.stdin.flush(), app.stdout.readline().strip())[2]
    try:
        check(app.stdout.readline().startswith("ready"), "the demo app serves")
        yield ask, env
    finally:
        app.kill()
        app.wait()


def test_an_attached_tab_that_reads_nothing():
    """`attach NAME --web`: a tab that reads nothing while the app dispatches 200,000 actions holds
    up neither the app nor the server's memory; when it reads again it is told what it missed."""
    with demo_app() as (ask, env), Server("attach", "webdemo", "--web", env=env) as server:
        client = Socket(server)
        check(client.hello().get("attached") == "webdemo", "attached")
        before = server.memory()
        started = time.time()
        for _ in range(40):
            check(ask("tick 5000") == "ticked 5000", "the app dispatched")
        check(time.time() - started < 30, f"the app was held up {time.time() - started:.0f} s")
        grown = server.memory() - before
        check(grown < 64, f"the server's memory grew {grown:.0f} MiB for a tab that reads nothing")
        check(ask("state").startswith("count 200000 "), "the app's state")
        dropped = False
        for frame in client.frames():
            if "app" in frame and '"event":"dropped"' in frame["app"]:
                dropped = True
                break
        check(dropped, "the tab is told that actions were dropped")
        objects, _ = client.command("state count")
        check(objects[0]["value"] == 200000, f"the tab's session has the app's state: {objects}")
        check(server.alive(), "the server stays up")


def test_attached_app():
    """`fluxsh attach NAME --web`: the app's own actions show as they happen; the page's dispatch
    runs in the app."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    with demo_app() as (ask, env), Server("attach", "webdemo", "--web", env=env) as server:
        driver = browser()
        try:
            driver.get(server.url)
            steps = lambda: driver.execute_script(
                "return [...document.querySelectorAll('[data-role=timeline] .step')]"
                ".map((row) => row.querySelector('.action').textContent)")
            wait(driver, lambda: driver.find_element(By.CSS_SELECTOR, '[data-role="prompt"]').text.endswith(">"),
                 "the prompt")
            ask("tick 2")
            wait(driver, lambda: steps() == ["tick", "tick"], "the app's two ticks, live")
            command = driver.find_element(By.CSS_SELECTOR, '[data-role="command"]')
            command.send_keys('dispatch add title: "from the page"' + Keys.ENTER)
            wait(driver, lambda: len(steps()) == 3, "the page's own step")
            follow = driver.execute_script(
                "return document.querySelector('[data-role=timeline] .step:last-of-type .op-follow')?.textContent")
            check(follow and follow.startswith("=> tag"), f"the app's follow-up in the step's row: {follow!r}")
            check("from the page" in ask("state"), "the page's dispatch ran in the app")
            # A step selected (to jump to) stays selected while the app dispatches.
            driver.find_element(By.CSS_SELECTOR, '[data-role="timeline"] [data-step="1"]').click()
            wait(driver, lambda: driver.execute_script("return window.fluxsh.page.selected") == 1, "step 1 selected")
            ask("tick 1")
            wait(driver, lambda: len(steps()) == 4, "the app's next tick")
            selected = driver.execute_script("return window.fluxsh.page.selected")
            check(selected == 1, f"the selection moved to {selected} with the app's action")
        finally:
            driver.quit()


def test_listen_serves_the_page_on_the_app_that_dials():
    """`fluxsh listen --web`: the app dials with the code, the page's tab is its session (the app's
    actions live, a dispatch runs in it), and a second tab is told that a pairing is one connection."""
    apps = []

    def dial(process):
        code = process.stderr.readline().strip()
        check(code.startswith("fluxsh://127.0.0.1:"), f"the pairing code: {code!r}")
        app = subprocess.Popen([DEMO, "webdemo"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                               bufsize=1, env=dict(os.environ, FLUXSH_PAIRING=code))
        apps.append(app)
        check(app.stdout.readline().strip() == "ready dialing", "the demo app dials")

    try:
        with Server("listen", "--web", started=dial) as server:
            app = apps[0]
            ask = lambda line: (app.stdin.write(line + "\n"), app.stdin.flush(), app.stdout.readline().strip())[2]
            client = Socket(server)
            check(client.hello().get("attached") == "webdemo", "the tab is attached to the app that dialed")
            check(ask("tick 1") == "ticked 1", "the app dispatched")
            live = next((frame for frame in client.frames() if "app" in frame), None)
            check(live and json.loads(live["app"]).get("action") == "tick", f"the app's action, live: {live}")
            objects, failed = client.command("dispatch tick")
            check(not failed and objects and objects[0].get("changes"), f"the tab's dispatch: {objects}")
            check(ask("state").startswith("count 2 "), "the tab's dispatch ran in the app")
            second = Socket(server)
            bye = second.hello()
            check("a pairing is one connection" in bye.get("bye", ""), f"a second tab is told why: {bye}")
            check(server.alive(), "the server stays up")
    finally:
        for app in apps:
            app.kill()
            app.wait()


def main():
    tests = [(name, test) for name, test in globals().items() if name.startswith("test_") and FILTER in name]
    skipped = 0
    for name, test in tests:
        started = time.time()
        try:
            test()
            print(f"web_test: PASS {name} ({time.time() - started:.1f} s)")
        except Skipped as reason:
            skipped += 1
            print(f"web_test: SKIP {name}: {reason}")
        except Exception as error:  # noqa: BLE001 — every failure is reported, and the others still run
            failures.append(name)
            text = str(error) or type(error).__name__
            print(f"web_test: FAIL {name}: {text[:600]}", file=sys.stderr)
    print(f"web_test: {len(tests) - len(failures) - skipped} passed, {len(failures)} failed, {skipped} skipped")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
