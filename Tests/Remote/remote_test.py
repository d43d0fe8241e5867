#!/usr/bin/env python3
"""End-to-end tests of `fluxsh listen` and an app that dials it with a pairing code
(FluxShellRemote), against a real app process (Tests/AttachDemo): a session on loopback, the app
stopping or killed, every kind of peer the listener refuses (a wrong token, a used code, another
certificate, plain TCP, TLS clients that are not apps, a flood), codes that are not valid, a
listener that cannot be reached, and, in network namespaces, a link between two hosts that is cut
or comes up late.

Usage: Tests/Remote/remote_test.py FLUXSH ATTACH_DEMO [WORD]   (called by `make test`; WORD runs
only the tests whose names hold it)
"""
import atexit
import os
import re
import shutil
import signal
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import threading
import time

FLUXSH, DEMO = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
RUNTIME = tempfile.mkdtemp(prefix="fluxsh-remote-")
atexit.register(shutil.rmtree, RUNTIME, True)
ENV = dict(os.environ, XDG_RUNTIME_DIR=RUNTIME, NO_COLOR="1")
ENV.pop("FLUXSH_PAIRING", None)
CODE = re.compile(r"^fluxsh://(?P<host>[0-9.]+|\[[0-9a-f:]+\]):(?P<port>[0-9]+)#(?P<secret>[0-9a-f]{96})$")
failures = []
# Every process a test started: what it left running is killed after it.
started = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("  FAIL:", what, file=sys.stderr)
    return condition


def waits_until(condition, seconds=10):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def built(program):
    """`program`, once it is there: the build may replace it under the tests (briefly missing)."""
    waits_until(lambda: os.access(program, os.X_OK), 30)
    return program


def launch(command, env):
    """Starts `command` (a program briefly missing, or busy being written, is waited for)."""
    for program in (FLUXSH, DEMO):
        if program in command:
            built(program)
    deadline = time.time() + 30
    while True:
        try:
            return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    env=env, text=True, bufsize=1)
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.5)


class Process:
    """A process whose standard output and error are read as they come, line by line, by threads
    of their own: a test waits for a line with a deadline, never for the stream's end alone."""

    def __init__(self, command, env=None):
        self.process = launch(command, env or ENV)
        self.pid = self.process.pid
        self.out, self.err = [], []
        self.ended = {"out": False, "err": False}
        self.changed = threading.Condition()
        for stream, lines, key in ((self.process.stdout, self.out, "out"), (self.process.stderr, self.err, "err")):
            threading.Thread(target=self._read, args=(stream, lines, key), daemon=True).start()
        started.append(self)

    def _read(self, stream, lines, key):
        for line in stream:
            with self.changed:
                lines.append(line.rstrip("\n"))
                self.changed.notify_all()
        with self.changed:
            self.ended[key] = True
            self.changed.notify_all()

    def line(self, key, predicate, seconds=10, start=0):
        """The first line of `key` ("out" or "err") from `start` on that `predicate` holds of,
        waiting for it up to `seconds`; None when none came."""
        lines = self.out if key == "out" else self.err
        deadline = time.time() + seconds
        with self.changed:
            while True:
                for line in lines[start:]:
                    if predicate(line):
                        return line
                left = deadline - time.time()
                if left <= 0 or self.ended[key]:
                    return None
                self.changed.wait(left)

    def err_with(self, text, seconds=10):
        return self.line("err", lambda line: text in line, seconds)

    def write(self, text):
        self.process.stdin.write(text)
        self.process.stdin.flush()

    def close_input(self):
        try:
            self.process.stdin.close()
        except OSError:
            pass

    def status(self, seconds):
        """The exit status, waiting up to `seconds`; None if it still runs."""
        try:
            return self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            return None

    def output(self, seconds=5):
        """Everything it wrote, once its streams ended (at most `seconds` after it exited)."""
        with self.changed:
            self.changed.wait_for(lambda: all(self.ended.values()), seconds)
            return list(self.out), list(self.err)

    def cpu_seconds(self):
        fields = open(f"/proc/{self.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def descriptors(self):
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)
        self.close_input()


class Shell(Process):
    """A piped `fluxsh listen`: its pairing code is the first line of its standard error."""

    def __init__(self, options=(), prefix=()):
        super().__init__([*prefix, FLUXSH, "listen", *options])
        first = self.line("err", lambda line: True, seconds=20)
        self.code = first or ""
        match = CODE.match(self.code)
        assert match, f"fluxsh listen printed no pairing code first: {first!r} {self.err!r}"
        self.host, self.port, self.secret = match["host"], int(match["port"]), match["secret"]
        self.token, self.fingerprint = self.secret[:32], self.secret[32:]

    def refusals(self):
        with self.changed:
            return [line for line in self.err if line.startswith("refused ")]

    def answer(self, command, seconds=10):
        """Sends `command`; the next line of output after what came before."""
        start = len(self.out)
        self.write(command + "\n")
        return self.line("out", lambda line: True, seconds, start=start)


class App(Process):
    """The demo app with FLUXSH_PAIRING set to `code`, driven through its standard input."""

    def __init__(self, code, name="demo", prefix=()):
        super().__init__([*prefix, DEMO, name], env=dict(ENV, FLUXSH_PAIRING=code))
        ready = self.line("out", lambda line: True, seconds=20)
        assert ready == "ready dialing", f"the demo did not say it dials: {ready!r} {self.err!r}"

    def ask(self, word, seconds=10):
        start = len(self.out)
        self.write(word + "\n")
        return self.line("out", lambda line: True, seconds, start=start)

    def shells(self):
        answer = self.ask("shells") or ""
        return int(answer.split()[1]) if answer.startswith("shells ") else -1

    def stop(self):
        if self.process.poll() is None:
            try:
                self.ask("stop")
            except OSError:
                pass
        return self.status(10)


def with_digit_changed(text, index):
    return text[:index] + ("0" if text[index] != "0" else "1") + text[index + 1:]


def free_port():
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    return port


def paired(app, seconds=15):
    return waits_until(lambda: app.shells() == 1, seconds)


def tls_client(host, port, line, maximum=None):
    """A TLS client that does not check the certificate, as anyone on the network can be: sends
    `line`, and returns what came back until the listener closed (or the TLS error)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    if maximum:
        context.maximum_version = maximum
    connection = socket.create_connection((host, port), timeout=10)
    try:
        tls = context.wrap_socket(connection)
    except (ssl.SSLError, OSError) as error:
        connection.close()
        return error
    received = b""
    try:
        tls.sendall(line)
        while True:
            block = tls.recv(65536)
            if not block:
                break
            received += block
    except (ssl.SSLError, OSError):
        pass
    tls.close()
    return received


# MARK: - Loopback


def test_1_loopback_session():
    shell = Shell()
    check(shell.host == "127.0.0.1" and shell.err == [shell.code],
          f"piped, listen says its code alone, on loopback: {shell.err!r}")
    app = App(shell.code, "happy")
    check(paired(app), "the app pairs with the listener")
    check(shell.err == [shell.code] and shell.out == [], f"piped, nothing more is said on pairing: {shell.err!r}")
    check(app.ask("tick 2") == "ticked 2", "the app ticks by itself")
    actions = ["<= tick", "~ count: 0 -> 1", "<= tick", "~ count: 1 -> 2"]
    check(waits_until(lambda: shell.out[:4] == actions, 10), f"the app's own actions stream to the shell: {shell.out}")
    start = len(shell.out)
    shell.write("state count\ndispatch tick\nhistory\n")
    check(shell.line("out", lambda line: line.strip() == "3  tick", start=start) is not None,
          f"the shell's commands are answered: {shell.out[start:]}")
    check(shell.out[start:] == ["2", "~ count: 2 -> 3", "  1  tick", "  2  tick", "  3  tick"],
          f"state, dispatch and history, as printed: {shell.out[start:]}")
    check(app.ask("state") == "count 3 items [] tags []", "the app's own store holds the shell's dispatch")
    check(app.shells() == 1, "the app counts one shell attached")
    started_at = time.time()
    shell.close_input()
    check(shell.status(10) == 0, f"stdin's end ends the session, status 0: {shell.process.returncode} {shell.err}")
    check(time.time() - started_at < 3, f"at once: {time.time() - started_at:.1f} s")
    check(shell.output()[1] == [shell.code], f"and says nothing more: {shell.err}")
    said = app.err_with("ended; the pairing is used", 5)
    check(said == f"ShellAgent 'happy': the session with 127.0.0.1:{shell.port} ended; the pairing is used",
          f"the app says the session ended and the pairing is used: {app.err}")
    check(app.shells() == 0, "the app counts no shell once it left")
    check(app.ask("state") == "count 3 items [] tags []", "the app runs on")
    check(app.stop() == 0, "the app stops")
    check(len(app.err) == 1, f"the app said one thing: {app.err}")


def test_1_loopback_json_and_options():
    port = free_port()
    shell = Shell(["--port", str(port), "--format", "json"])
    check(shell.port == port, f"--port is the code's port: {shell.code}")
    app = App(shell.code, "json")
    check(paired(app), "the app pairs")
    check(shell.answer("state count") == '{"line":1,"command":"state","path":"count","value":0}',
          f"--format json answers in JSON: {shell.out}")
    # The port is taken while the listener runs, and an address that is every interface is refused.
    taken = subprocess.run([built(FLUXSH), "listen", "--port", str(port)], capture_output=True, text=True, env=ENV,
                           timeout=20, stdin=subprocess.DEVNULL)
    check(taken.returncode == 2 and "the port is taken" in taken.stderr and "fluxsh://" not in taken.stderr,
          f"a port taken: status 2, and why: {taken.returncode} {taken.stderr!r}")
    everywhere = subprocess.run([built(FLUXSH), "listen", "--address", "0.0.0.0"], capture_output=True, text=True,
                                env=ENV, timeout=20, stdin=subprocess.DEVNULL)
    check(everywhere.returncode == 2 and "every interface" in everywhere.stderr,
          f"--address 0.0.0.0: status 2, and why: {everywhere.returncode} {everywhere.stderr!r}")
    elsewhere = subprocess.run([built(FLUXSH), "listen", "--address", "192.0.2.1"], capture_output=True, text=True,
                               env=ENV, timeout=20, stdin=subprocess.DEVNULL)
    check(elsewhere.returncode == 2 and "cannot listen on 192.0.2.1:0" in elsewhere.stderr,
          f"an address not this host's: status 2, and why: {elsewhere.returncode} {elsewhere.stderr!r}")
    shell.close_input()
    check(shell.status(10) == 0, "the JSON session ends with stdin, status 0")
    app.stop()
    # IPv6: the code carries the address in brackets.
    if socket.has_ipv6 and os.path.exists("/proc/net/if_inet6"):
        shell = Shell(["--address", "::1"])
        check(shell.host == "[::1]", f"an IPv6 address, in brackets: {shell.code}")
        app = App(shell.code, "six")
        check(paired(app), f"the app dials it: {app.err}")
        check(shell.answer("state count") == "0", "and the session runs")
        shell.close_input()
        check(shell.status(10) == 0, "the session ends cleanly")
        check(app.err_with(f"the session with [::1]:{shell.port} ended", 5) is not None, f"{app.err}")
        app.stop()
    # As a script pipes it: the commands and the end of stdin come before the app; they run once it pairs.
    shell = Shell()
    shell.write("dispatch tick\nstate count\n")
    shell.close_input()
    check(shell.status(1) is None, "a listener whose stdin ended waits for the app")
    app = App(shell.code, "later")
    check(shell.status(10) == 0 and shell.output()[0] == ["~ count: 0 -> 1", "1"],
          f"the piped commands run in the app that paired, then the session ends: {shell.out} {shell.err}")
    check(app.ask("state") == "count 1 items [] tags []", "in the app's own store")
    check(app.err_with("the pairing is used", 5) is not None, f"the app says the pairing is used: {app.err}")
    app.stop()


def test_2_app_stops_or_is_killed():
    for how, said, status in (("stop", "app exited", 0), ("kill", "app exited unexpectedly", 1)):
        shell = Shell()
        app = App(shell.code, "leaving")
        check(paired(app), f"{how}: paired before the app leaves")
        check(shell.answer("state count") == "0", f"{how}: the session runs")
        if how == "kill":
            app.process.kill()
        else:
            app.write("stop\n")
        check(app.status(10) is not None, f"{how}: the app ended")
        gone = time.time()
        # NB: the shell's standard input stays open: the app's end alone ends the session.
        ended = shell.status(5)
        seconds = time.time() - gone
        check(ended == status, f"{how}: status {status}: {ended}")
        check(seconds < 1, f"{how}: the shell ended {seconds:.2f} s after the app")
        check(shell.output()[1] == [shell.code, said], f"{how}: the shell says {said!r}: {shell.err}")
        if how == "stop":
            check(app.output()[1] == [], f"a stopping app says nothing of its link, nor dials again: {app.err}")
        shell.close_input()


# MARK: - Refusals


def test_2_a_stalled_shell_holds_up_neither_the_app_nor_the_link():
    """A shell that reads nothing for 8 s (longer than the listener gives unacknowledged data)
    while the app dispatches 50,000 actions: the app does not wait, the link stays, and the shell,
    reading again, is told what it missed and gets the state."""
    errors = tempfile.NamedTemporaryFile(dir=RUNTIME, delete=False)
    shell = subprocess.Popen([FLUXSH, "listen"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors,
                             env=ENV)
    try:
        check(waits_until(lambda: open(errors.name).read().endswith("\n"), 20), "listen prints its code")
        code = open(errors.name).read().split("\n")[0]
        app = App(code, "stalled")
        check(paired(app), "the app pairs")
        started_at = time.time()
        check(app.ask("tick 50000", 60) == "ticked 50000", "the app dispatched 50,000 actions")
        check(time.time() - started_at < 20, f"without waiting for the shell: {time.time() - started_at:.1f} s")
        time.sleep(8)  # NB: what is measured is that nothing ends while the shell reads nothing.
        check(shell.poll() is None and app.shells() == 1, "the session is still open after 8 s unread")
        output, _ = shell.communicate(input=b"state count\n", timeout=60)
        lines = output.decode().split("\n")
        check(any(re.fullmatch(r"\(\d+ changes dropped\)", line) for line in lines),
              f"the shell is told what it missed: {lines[:3]} … {lines[-4:]}")
        check(lines[-2] == "50000", f"and gets the state: {lines[-4:]}")
        check(shell.returncode == 0, f"then ends as its input does: {shell.returncode} {open(errors.name).read()!r} {app.err}")
        check(app.stop() == 0, "the app stops")
    finally:
        if shell.poll() is None:
            shell.kill()
            shell.wait()


def test_3_refused_wrong_token_and_used_code():
    shell = Shell()
    wrong = shell.code[:-96] + with_digit_changed(shell.token, 31) + shell.fingerprint
    stranger = App(wrong, "stranger")
    said = stranger.err_with("refused the pairing", 10)
    check(said == f"ShellAgent 'stranger': 127.0.0.1:{shell.port} refused the pairing: refused: the pairing token "
          "is wrong", f"a wrong token: the app is told: {stranger.err}")
    check(waits_until(lambda: any("a wrong token" in line for line in shell.refusals()), 5),
          f"listen says it refused a wrong token: {shell.err}")
    check(re.match(r"^refused 127\.0\.0\.1:[0-9]+: a wrong token$", (shell.refusals() or [""])[0]),
          f"with the peer's address: {shell.refusals()}")
    # Nothing of the refused app reaches the shell: not its actions, not its state.
    check(stranger.ask("tick 5") == "ticked 5", "the refused app ticks")
    check(stranger.shells() == 0, "the refused app has no shell")
    app = App(shell.code, "owner")
    check(paired(app), "the right app pairs after a wrong token (the code is not used by it)")
    check(shell.answer("state count") == "0", f"the shell sees the right app's state, not the refused one's: "
          f"{shell.out}")
    check(shell.out == ["0"], f"nothing of the refused app was read: {shell.out}")
    late = App(shell.code, "late")
    said = late.err_with("refused the pairing", 10)
    check(said == f"ShellAgent 'late': 127.0.0.1:{shell.port} refused the pairing: refused: the pairing code was "
          "used already (fluxsh listen prints a new one each time it runs)",
          f"a used code: the app is told: {late.err}")
    check(waits_until(lambda: any("the code was used already" in line for line in shell.refusals()), 5),
          f"listen says it refused a used code: {shell.err}")
    check(late.ask("tick 1") == "ticked 1" and app.shells() == 1, "the first app's session goes on")
    start = len(shell.out)
    check(shell.answer("state count") == "0" and shell.out[start:] == ["0"],
          f"the shell still sees the first app alone: {shell.out}")
    check(len(shell.refusals()) == 2 and len(stranger.err) == 1 and len(late.err) == 1,
          f"refused apps do not dial again: {shell.refusals()} {stranger.err} {late.err}")
    shell.close_input()
    check(shell.status(10) == 0, "the session ends cleanly")
    for each in (stranger, late, app):
        check(each.stop() == 0, "the apps stop")


def test_3_refused_other_certificate():
    # A code with listener A's address and token, and B's fingerprint: the code of another run.
    first, second = Shell(), Shell()
    other = first.code[:-64] + second.fingerprint
    app = App(other, "pinned")
    said = app.err_with("certificate", 10)
    check(said == f"ShellAgent 'pinned': the listener at 127.0.0.1:{first.port} shows another certificate than the "
          "pairing code's; not dialing it again (pass the code of the fluxsh listen running now)",
          f"another certificate: the app says so: {app.err}")
    check(waits_until(lambda: len(first.refusals()) == 1, 5), f"listener A refused it: {first.err}")
    cpu = [process.cpu_seconds() for process in (first, second, app)]
    time.sleep(3.5)  # NB: a wait for dials that must not come (0.5 s, 1 s and 2 s later if it dialed again)
    used = [process.cpu_seconds() - before for process, before in zip((first, second, app), cpu)]
    check(max(used) < 0.2, f"two listeners waiting and an app that gave up do not spin: {used} s of CPU in 3.5 s")
    check(len(first.refusals()) == 1 and second.refusals() == [],
          f"the app does not dial again: {first.refusals()} {second.refusals()}")
    check(len(app.err) == 1, f"and says it once: {app.err}")
    check(first.out == [] and second.out == [], "neither shell read anything")
    check(app.ask("state") == "count 0 items [] tags []" and app.shells() == 0, "the app runs on, unattached")
    # The token was never shown to a listener with another certificate: the right code still pairs.
    right = App(first.code, "right")
    check(paired(right), "the right code pairs afterwards")
    check(first.answer("state count") == "0", "and the session runs")
    for shell in (first, second):
        shell.close_input()
    check(first.status(10) == 0, "listener A's session ends cleanly")
    for each in (app, right):
        each.stop()


def test_3_refused_plain_tcp_clients():
    shell = Shell()
    silent = socket.create_connection((shell.host, shell.port), timeout=15)
    silent_at = time.time()
    silent_port = silent.getsockname()[1]
    garbage = socket.create_connection((shell.host, shell.port), timeout=10)
    garbage_port = garbage.getsockname()[1]
    garbage.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    received = b""
    while True:
        try:
            block = garbage.recv(65536)
        except OSError:
            break
        if not block:
            break
        received += block
    garbage.close()
    check(b"HTTP" not in received and b"{" not in received, f"garbage gets no answer of the shell's: {received!r}")
    check(waits_until(lambda: any(line.startswith(f"refused 127.0.0.1:{garbage_port}: ") for line in shell.refusals()),
                      5), f"listen refuses a peer that sends garbage: {shell.err}")
    closing = socket.create_connection((shell.host, shell.port), timeout=10)
    closing_port = closing.getsockname()[1]
    closing.close()
    check(waits_until(lambda: any(line.startswith(f"refused 127.0.0.1:{closing_port}: ") for line in shell.refusals()),
                      5), f"listen refuses a peer that closes at once: {shell.err}")
    # A real app pairs while the silent one still waits to be refused.
    app = App(shell.code, "after")
    check(paired(app), "a real app pairs after garbage, with a silent peer still connected")
    check(shell.answer("state count") == "0", "the session runs")
    # The silent one is refused after 10 s, its connection closed.
    try:
        left = silent.recv(100)
    except OSError as error:
        left = error
    held = time.time() - silent_at
    check(left == b"" and 9 < held < 13, f"a silent peer is closed after 10 s: {left!r} after {held:.1f} s")
    silent.close()
    check(waits_until(lambda: any(line == f"refused 127.0.0.1:{silent_port}: no pairing line within 10 s"
                                  for line in shell.refusals()), 3), f"listen says why: {shell.refusals()}")
    check(app.ask("tick 1") == "ticked 1", "the app ticks")
    check(shell.line("out", lambda line: line == "~ count: 0 -> 1", 5) is not None,
          f"the session goes on: {shell.out}")
    shell.close_input()
    check(shell.status(10) == 0, "the session ends cleanly")
    app.stop()


def test_3_refused_tls_clients():
    shell = Shell()
    answer = tls_client(shell.host, shell.port, b'{"pair":"' + b"00" * 16 + b'","app":"x"}\n')
    check(answer == b'{"bye":"refused: the pairing token is wrong"}\n', f"a TLS client with a wrong token: {answer!r}")
    answer = tls_client(shell.host, shell.port, b"state\n")
    check(answer == b'{"bye":"refused: not a pairing line"}\n', f"a TLS client with a command: {answer!r}")
    answer = tls_client(shell.host, shell.port, b"x" * 5000)
    check(answer == b'{"bye":"refused: not a pairing line"}\n', f"a TLS client with a long line: {answer!r}")
    answer = tls_client(shell.host, shell.port, b"", maximum=ssl.TLSVersion.TLSv1_2)
    check(isinstance(answer, ssl.SSLError), f"a TLS 1.2 client is refused: {answer!r}")
    check(waits_until(lambda: len(shell.refusals()) == 4, 5), f"listen says each refusal: {shell.err}")
    # NB: each is said as its connection closes, not always in the order they came.
    reasons = sorted(line.split(": ", 1)[-1] for line in shell.refusals())
    check(len(reasons) == 4 and reasons[:2] == ["a pairing line over 1024 bytes", "a wrong token"]
          and reasons[2].startswith("no TLS with this listener's certificate") and reasons[3] == "not a pairing line",
          f"and why: {reasons}")
    check(shell.out == [], "the shell read nothing of them")
    app = App(shell.code, "tls")
    check(paired(app), "a real app pairs after them")
    check(shell.answer("state count") == "0", "the session runs")
    shell.close_input()
    check(shell.status(10) == 0, "the session ends cleanly")
    app.stop()


def test_3_refused_flood():
    shell = Shell()
    descriptors = shell.descriptors()
    connections = []
    for _ in range(200):
        connection = socket.socket()
        connection.setblocking(False)
        try:
            connection.connect((shell.host, shell.port))
        except BlockingIOError:
            pass
        connections.append(connection)
    try:
        check(shell.err_with("(100 refused so far)", 10) is not None,
              f"200 connections at once: the listener refuses those past its limit: {shell.err[:8]}")
        check(len(shell.err) <= 1 + 5 + 2, f"in a few lines: {len(shell.err)}")
        cpu = shell.cpu_seconds()
        app = App(shell.code, "flooded")
    finally:
        for connection in connections:
            connection.close()
    check(paired(app, 20), f"then a real app pairs: {app.err}")
    check(shell.answer("state count") == "0", "and the session runs")
    check(shell.cpu_seconds() - cpu < 2, f"the listener did not spin: {shell.cpu_seconds() - cpu:.2f} s of CPU")
    check(len(shell.err) <= 1 + 5 + 2, f"the refusals are said in a few lines: {shell.err}")
    # NB: the session holds a socket pair and the app's connection.
    check(shell.descriptors() <= descriptors + 4,
          f"the refused connections leave no descriptor open: {descriptors} before, {shell.descriptors()} after")
    shell.close_input()
    check(shell.status(10) == 0, "the session ends cleanly")
    app.stop()


# MARK: - Codes


def test_4_malformed_codes():
    secret = "ab" * 48
    valid = f"fluxsh://127.0.0.1:5000#{secret}"
    cases = [
        ("", 1, "the code is empty"),
        (f"fluxsh://127.0.0.1:0#{secret}", 20, "the port is not a number from 1 to 65535"),
        ("fluxsh://127.0.0.1:5000", 24, "the secret is missing (#SECRET)"),
        ("fluxsh://127.0.0.1:5000#", 25, "the secret has 0 digits, not 96"),
        (valid[:-1], 120, "the secret has 95 digits, not 96 (was the code cut short?)"),
        (valid + "a", 121, "the secret has 97 digits, not 96"),
        (valid[:30] + " " + valid[30:], 31, "a space or line break inside the code"),
        (valid[:30] + "\n" + valid[30:], 31, "a space or line break inside the code"),
        ("http" + valid[6:], 1, "it does not begin with fluxsh://"),
        (valid[:40] + "g" + valid[41:], 41, "the secret has 'g', which is not a hexadecimal digit"),
        ("fluxsh://:5000#" + secret, 10, "the host is missing"),
    ]
    for code, column, problem in cases:
        app = App(code, "malformed")
        said = app.line("err", lambda line: True, 5)
        check(said is not None and said.startswith(f"attach-demo: pairing code, column {column}: {problem}")
              and "(pass the line fluxsh listen printed" in said, f"{code!r}: column {column}, {problem!r}: {said!r}")
        check(app.ask("state") == "count 0 items [] tags []" and app.ask("tick 1") == "ticked 1"
              and app.shells() == 0, f"{code!r}: the app runs on without its agent")
        check(app.stop() == 0 and len(app.output()[1]) == 1, f"{code!r}: and says nothing more: {app.err}")
    # Spaces and line breaks around a valid code are not part of it.
    shell = Shell()
    app = App(" \t\n" + shell.code + " \n", "spaced")
    check(paired(app), f"a code with spaces around it pairs: {app.err}")
    check(shell.answer("state count") == "0", "and the session runs")
    shell.close_input()
    check(shell.status(10) == 0, "the session ends cleanly")
    app.stop()
    check(not any("pairing code" in line for line in app.err), f"nothing said of the code: {app.err}")


def test_5_unreachable_listener():
    secret = "ab" * 48
    dead = free_port()
    nothing = App(f"fluxsh://127.0.0.1:{dead}#{secret}", "alone")
    # Something that accepts and closes, as a port forwarder with nothing behind it does: when each
    # dial comes shows the backoff. It closes one way, then the other: after reading the app's
    # hello (the app sees TLS cut short), then with a reset.
    closer = socket.socket()
    closer.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    closer.bind(("127.0.0.1", 0))
    closer.listen(16)
    closer.settimeout(0.2)
    dials = []
    stop = threading.Event()

    def accept():
        while not stop.is_set():
            try:
                connection, _ = closer.accept()
            except OSError:
                continue
            dials.append(time.time())
            connection.settimeout(2)
            try:
                connection.recv(65536)
            except OSError:
                pass
            if len(dials) % 2 == 0:
                connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            connection.close()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    closing = App(f"fluxsh://127.0.0.1:{closer.getsockname()[1]}#{secret}", "closed")
    try:
        said = nothing.err_with("cannot reach", 3)
        check(said == f"ShellAgent 'alone': cannot reach 127.0.0.1:{dead} (Connection refused); dialing again",
              f"the app says it cannot reach the listener: {nothing.err}")
        cpu, descriptors = nothing.cpu_seconds(), nothing.ask("fds")
        time.sleep(6)  # NB: a measurement of idle time, not a wait for work
        used = nothing.cpu_seconds() - cpu
        check(used < 0.2, f"dialing a port nothing listens on does not spin: {used:.2f} s of CPU in 6 s")
        check(nothing.err == [said], f"and is said once, not once a dial: {nothing.err}")
        check(nothing.ask("state") == "count 0 items [] tags []", "the app runs on")
        check(nothing.ask("fds") == descriptors, f"its dials leave no descriptor open: {descriptors}, then "
              f"{nothing.ask('fds')}")
        gaps = [later - earlier for earlier, later in zip(dials, dials[1:])]
        check(3 <= len(dials) <= 5, f"a dial after 0.5 s, 1 s, 2 s, 4 s: {len(dials)} dials in 6 s, {gaps}")
        check(all(0.8 * 0.5 * 2 ** n - 0.15 <= gap <= 1.2 * 0.5 * 2 ** n + 0.5 for n, gap in enumerate(gaps)),
              f"each wait twice the one before (±20 %): {[round(gap, 2) for gap in gaps]}")
        check(closing.err == [f"ShellAgent 'closed': 127.0.0.1:{closer.getsockname()[1]} closed the connection "
                              "before pairing (it is not fluxsh listen, or one that has as many apps pairing as it "
                              "takes); dialing again"],
              f"a peer that closes one way, then another: one message, said once, not once a dial: {closing.err}")
    finally:
        stop.set()
        thread.join()
        closer.close()
    check(nothing.stop() == 0 and closing.stop() == 0, "the apps stop while they dial")


# MARK: - Across hosts


def ip(*arguments):
    return subprocess.run(["ip", *arguments], capture_output=True, text=True, timeout=20)


class Hosts:
    """Two network namespaces, a shell's and an app's, joined by a veth pair: 10.X.Y.1 and
    10.X.Y.2."""

    def __init__(self):
        pid = os.getpid()
        self.shell_ns, self.app_ns = f"fluxsh-s-{pid}", f"fluxsh-a-{pid}"
        self.shell_link, self.app_link = f"fxs{pid}"[:15], f"fxa{pid}"[:15]
        net = f"10.{100 + pid % 150}.{(pid >> 8) % 250}"
        self.shell_address, self.app_address = f"{net}.1", f"{net}.2"
        self.made = []

    def make(self):
        """None when made; otherwise why not."""
        for namespace in (self.shell_ns, self.app_ns):
            done = ip("netns", "add", namespace)
            if done.returncode != 0:
                return f"ip netns add: {done.stderr.strip()}"
            self.made.append(namespace)
        for arguments in (
                ("link", "add", self.shell_link, "type", "veth", "peer", "name", self.app_link),
                ("link", "set", self.shell_link, "netns", self.shell_ns),
                ("link", "set", self.app_link, "netns", self.app_ns),
                ("-n", self.shell_ns, "addr", "add", f"{self.shell_address}/24", "dev", self.shell_link),
                ("-n", self.app_ns, "addr", "add", f"{self.app_address}/24", "dev", self.app_link),
                ("-n", self.shell_ns, "link", "set", "lo", "up"),
                ("-n", self.app_ns, "link", "set", "lo", "up"),
                ("-n", self.shell_ns, "link", "set", self.shell_link, "up")):
            done = ip(*arguments)
            if done.returncode != 0:
                return f"ip {' '.join(arguments)}: {done.stderr.strip()}"
        return None

    def app_link_up(self, up):
        done = ip("-n", self.app_ns, "link", "set", self.app_link, "up" if up else "down")
        check(done.returncode == 0, f"ip link set {self.app_link}: {done.stderr}")

    def shell_link_down(self):
        done = ip("-n", self.shell_ns, "link", "set", self.shell_link, "down")
        check(done.returncode == 0, f"ip link set {self.shell_link} down: {done.stderr}")

    def delete(self):
        ip("link", "del", self.shell_link)
        for namespace in self.made:
            ip("netns", "del", namespace)

    def shell(self):
        return Shell(["--address", self.shell_address], prefix=("ip", "netns", "exec", self.shell_ns))

    def app(self, code, name):
        return App(code, name, prefix=("ip", "netns", "exec", self.app_ns))


def namespaces():
    """Two hosts, or None with why not (then the test is skipped)."""
    if os.geteuid() != 0:
        return None, "not root"
    if shutil.which("ip") is None:
        return None, "no ip command"
    hosts = Hosts()
    why = hosts.make()
    if why:
        hosts.delete()
        return None, why
    return hosts, None


def across_hosts(test):
    hosts, why = namespaces()
    if hosts is None:
        print(f"  SKIP netns: {why}")
        return
    try:
        test(hosts)
    finally:
        for process in list(started):
            process.kill()
        hosts.delete()
        check(not any(name in ip("netns", "list").stdout for name in (hosts.shell_ns, hosts.app_ns)),
              "the namespaces are deleted")


def test_6_across_hosts_link_cut():
    def test(hosts):
        hosts.app_link_up(True)
        shell = hosts.shell()
        check(shell.host == hosts.shell_address, f"the code names the address given: {shell.code}")
        app = hosts.app(shell.code, "phone")
        check(paired(app), f"the app on the other host pairs: {app.err}")
        check(shell.answer("dispatch tick") == "~ count: 0 -> 1", f"a dispatch across hosts: {shell.out}")
        check(app.ask("tick 1") == "ticked 1", "the app ticks")
        check(shell.line("out", lambda line: line == "~ count: 1 -> 2", 5) is not None
              and shell.out[-2:] == ["<= tick", "~ count: 1 -> 2"], f"its actions stream live: {shell.out}")
        check(app.ask("state") == "count 2 items [] tags []", "the app holds both")
        # The link is cut, the shell's standard input still open.
        hosts.shell_link_down()
        cut = time.time()
        ended = shell.status(15)
        seconds = time.time() - cut
        print(f"  link cut: the shell ended after {seconds:.1f} s")
        check(ended == 1 and seconds < 12, f"the shell ends, status 1, within 12 s: {ended} after {seconds:.1f} s")
        check(shell.output()[1] == [shell.code, "app disconnected"], f"and says the app disconnected: {shell.err}")
        lost = app.err_with("lost the link", 15 - (time.time() - cut))
        check(lost is not None and lost.startswith(f"ShellAgent 'phone': lost the link to {shell.host}:{shell.port} (")
              and lost.endswith("); the pairing is used (pass the code of a new fluxsh listen to attach again)"),
              f"the app says it lost the link, and that the pairing is used: {app.err}")
        check(app.ask("state") == "count 2 items [] tags []" and app.shells() == 0, "the app runs on, unattached")
        shell.close_input()
        check(app.stop() == 0, "the app stops while it dials again")

    across_hosts(test)


def test_6_across_hosts_link_up_late():
    def test(hosts):
        hosts.app_link_up(False)
        shell = hosts.shell()
        app = hosts.app(shell.code, "late")
        said = app.err_with("cannot reach", 10)
        check(said is not None and said.startswith(f"ShellAgent 'late': cannot reach {shell.host}:{shell.port} (")
              and said.endswith("; dialing again"), f"the app cannot reach the listener yet: {app.err}")
        cpu = app.cpu_seconds()
        time.sleep(2)  # NB: the link stays down a while: the app backs off meanwhile
        check(app.cpu_seconds() - cpu < 0.2, f"and backs off: {app.cpu_seconds() - cpu:.2f} s of CPU in 2 s")
        check(shell.out == [] and shell.refusals() == [], f"nothing reached the listener: {shell.err}")
        hosts.app_link_up(True)
        check(paired(app, 15), f"once the link is up, the app pairs: {app.err}")
        check(len(app.err) == 1, f"'cannot reach' was said once: {app.err}")
        check(shell.answer("state count") == "0", f"the session runs: {shell.out}")
        check(app.ask("tick 1") == "ticked 1", "the app ticks")
        check(shell.line("out", lambda line: line == "~ count: 0 -> 1", 5) is not None, f"live: {shell.out}")
        shell.close_input()
        check(shell.status(10) == 0, f"stdin's end ends the session, status 0: {shell.err}")
        check(app.err_with("the pairing is used", 5) is not None, f"the app says the pairing is used: {app.err}")
        check(app.stop() == 0, "the app stops")

    across_hosts(test)


# NB: a runner that gives up on the tests (SIGTERM) still has them clean up: the namespaces go.
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
tests = [value for name, value in sorted(globals().items())
         if name.startswith("test_") and (len(sys.argv) < 4 or sys.argv[3] in name)]
began = time.time()
for test in tests:
    print(test.__name__, flush=True)
    count = len(failures)
    try:
        test()
    except Exception as error:  # a test that cannot finish fails, with why
        check(False, f"{test.__name__}: {error!r}")
    finally:
        for process in started:
            process.kill()
        started.clear()
    if len(failures) > count:
        print(f"FAIL {test.__name__}", flush=True)
if failures:
    print(f"remote: {len(failures)} failed ({len(tests)} tests, {time.time() - began:.0f} s)")
    sys.exit(1)
print(f"remote: {len(tests)} passed ({time.time() - began:.0f} s)")
