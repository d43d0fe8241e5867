#!/usr/bin/env python3
"""End-to-end tests of `fluxsh attach` against a real app process (Tests/AttachDemo), as users
and CI run them: piped sessions, the app's own actions, another user refused, killed, stopped
and repeated shells, an app that exits, and garbage on the socket.

Usage: Tests/Attach/attach_test.py FLUXSH ATTACH_DEMO   (called by `make test`)
"""
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

FLUXSH, DEMO = sys.argv[1], sys.argv[2]
RUNTIME = tempfile.mkdtemp(prefix="fluxsh-attach-")
ENV = dict(os.environ, XDG_RUNTIME_DIR=RUNTIME, NO_COLOR="1")
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("  FAIL:", what, file=sys.stderr)


class App:
    """The demo app, driven through its standard input."""

    def __init__(self, name, queue_limit=None):
        arguments = [DEMO, name] + ([str(queue_limit)] if queue_limit else [])
        self.process = subprocess.Popen(
            arguments, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=ENV, text=True, bufsize=1)
        ready = self.process.stdout.readline().split()
        assert ready and ready[0] == "ready", ready
        self.socket = ready[1]

    def ask(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return self.process.stdout.readline().strip()

    def number(self, word):
        return int(self.ask(word).split()[1])

    def end(self):
        if self.process.poll() is None:
            try:
                self.ask("stop")
            except (BrokenPipeError, OSError):
                pass
        self.process.wait(timeout=20)


def attach(name, script, timeout=30, user=None):
    """A piped `fluxsh attach NAME` with `script` on its standard input."""
    command = [FLUXSH, "attach", name]
    if user:
        command = ["runuser", "-u", user, "--"] + command
    done = subprocess.run(command, input=script, capture_output=True, text=True, env=ENV, timeout=timeout)
    return done.returncode, done.stdout, done.stderr


def raw(path, payload, read=True, timeout=5):
    """Sends bytes on the socket as any client could; returns what came back before it closed."""
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.settimeout(timeout)
    connection.connect(path)
    connection.sendall(payload)
    connection.shutdown(socket.SHUT_WR)
    received = b""
    while read:
        try:
            block = connection.recv(65536)
        except socket.timeout:
            break
        if not block:
            break
        received += block
    connection.close()
    return received


def waits_until(condition, seconds=10):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_piped_session_runs_in_the_app():
    app = App("shop")
    app.ask("tick 2")
    status, out, err = attach("shop", 'dispatch add title: "milk"\nstate count\nexpect tags contains "new"\n'
                              'dispatch toggle id: 1\nundo\nhistory\n')
    check(status == 0, f"piped attach exits 0 (got {status}, stderr {err!r})")
    check(out.splitlines()[:4] == ['+ items[0]: {"id":1,"title":"milk","done":false}', "=> tag new",
                                   '+ tags[0]: "new"', "2"], f"dispatch and state as printed: {out!r}")
    check("~ items[0].done: false -> true" in out and "~ items[0].done: true -> false" in out,
          f"toggle and undo diffs: {out!r}")
    check(app.ask("state") == "count 2 items [\"milk\"] tags [\"new\"]", "the app's own store holds the shell's changes")
    # A shell that sends commands without reading the answers: the agent stops reading it.
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect(app.socket)
    connection.setblocking(False)
    sent = 0
    try:
        for _ in range(100_000):
            sent += connection.send(b"state\n" * 1000)
    except BlockingIOError:
        pass
    check(sent < 50_000_000, f"a shell that does not read is read no more (it sent {sent} bytes)")
    check(app.number("rss") < 300 * 1024, "the answers waiting for it stay bounded")
    connection.close()
    status, out, err = attach("shop", "dispatch tick\nstate count")
    check(status == 0 and out.endswith("3\n"), f"a last line without its newline runs: {status} {out!r}")
    app.ask("state")
    status, out, err = attach("shop", "state count\nquit\n" + "state count\n" * 100_000)
    check(status == 0 and out == "3\n" and err == "", f"lines after a quit are not run, status 0: {status} {err!r}")
    done = subprocess.run([FLUXSH, "attach", "--bail", "shop"], input="dispatch nope\n" + "dispatch tick\n" * 100_000,
                          capture_output=True, text=True, env=ENV, timeout=30)
    check(done.returncode == 1 and "unknown action 'nope'" in done.stderr and "app exited" not in done.stderr,
          f"--bail stops at the first failure, and says why: {done.returncode} {done.stderr[:300]!r}")
    status, out, err = attach("shop", "dispatch nope\nstate count\n")
    check(status == 1, "a failed command: status 1")
    check(err.startswith("<stdin>:1: error: unknown action 'nope'"), f"located error: {err!r}")
    check(out == "3\n", f"the next line still runs: {out!r}")
    app.end()


def test_the_apps_actions_stream_as_they_happen():
    app = App("stream")
    shell = subprocess.Popen([FLUXSH, "attach", "stream"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=ENV, text=True)
    check(waits_until(lambda: app.number("shells") == 1), "the shell is attached")
    app.ask("tick 3")
    lines = [shell.stdout.readline().strip() for _ in range(6)]
    check(lines == ["<= tick", "~ count: 0 -> 1", "<= tick", "~ count: 1 -> 2", "<= tick", "~ count: 2 -> 3"],
          f"the app's actions, as they happen: {lines}")
    shell.stdin.write("dispatch tick\ndetach\n")
    shell.stdin.close()
    out = shell.stdout.read()
    check(shell.wait(timeout=10) == 0 and out == "~ count: 3 -> 4\n", f"dispatch after streaming: {out!r}")
    check(app.number("shells") == 0 or waits_until(lambda: app.number("shells") == 0), "detached")
    app.ask("tick 1")
    check(app.ask("state").startswith("count 5"), "the app goes on after the shell left")
    app.end()


def test_several_shells_each_see_everything():
    app = App("many")
    shells = [subprocess.Popen([FLUXSH, "attach", "many"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=ENV, text=True) for _ in range(2)]
    check(waits_until(lambda: app.number("shells") == 2), "two shells attached")
    app.ask("tick 1")
    for shell in shells:
        lines = [shell.stdout.readline().strip() for _ in range(2)]
        check(lines == ["<= tick", "~ count: 0 -> 1"], f"each shell sees the app's action: {lines}")
    first, second = shells
    first.stdin.write('dispatch add title: "tea"\n')
    first.stdin.flush()
    lines = [second.stdout.readline().strip() for _ in range(4)]
    check(lines == ['<= add title: tea', '+ items[0]: {"id":1,"title":"tea","done":false}', "=> tag new",
                    '+ tags[0]: "new"'], f"one shell's action is the app's action to the other: {lines}")
    for shell in shells:
        shell.stdin.close()
        shell.wait(timeout=10)
    app.end()


def test_the_app_exiting_ends_the_session():
    for how in ("stop", "exit"):
        app = App("leaving")
        shell = subprocess.Popen([FLUXSH, "attach", "leaving"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, env=ENV, text=True)
        check(waits_until(lambda: app.number("shells") == 1), "attached before the app leaves")
        app.process.stdin.write(how + "\n")
        app.process.stdin.flush()
        app.process.wait(timeout=10)
        out, err = shell.communicate(timeout=10)
        check(shell.returncode == 1 and err.strip() == "app exited", f"{how}: 'app exited', status 1: "
              f"{shell.returncode} {err!r}")


def test_another_user_is_refused():
    if os.geteuid() != 0 or shutil.which("runuser") is None:
        print("  skipped: another user (needs root and runuser)")
        return
    app = App("private")
    # The folder keeps other users out: they cannot even reach the socket.
    status, out, err = attach(app.socket, "dispatch tick\n", user="nobody")
    check(status == 2 and "no running app serves" in err, f"folder refuses nobody: {status} {err!r}")
    # With the folder and socket opened by hand, the agent's own check refuses them.
    os.chmod(os.path.dirname(app.socket), 0o711)
    os.chmod(app.socket, 0o777)
    os.chmod(RUNTIME, 0o711)
    status, out, err = attach(app.socket, "dispatch tick\nstate\n", user="nobody")
    check(status == 1 and "refused" in err and out == "", f"credentials refuse nobody: {status} {out!r} {err!r}")
    check(app.ask("state").startswith("count 0"), "nothing ran for another user")
    os.chmod(RUNTIME, 0o700)
    app.end()


def test_killed_and_stopped_shells_leave_the_app_as_it_was():
    app = App("sturdy", queue_limit=1024)
    shell = subprocess.Popen([FLUXSH, "attach", "sturdy"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=ENV)
    check(waits_until(lambda: app.number("shells") == 1), "attached before the kill")
    shell.send_signal(signal.SIGKILL)
    shell.wait()
    check(waits_until(lambda: app.number("shells") == 0), "a killed shell is forgotten")
    check(app.ask("state").startswith("count 0"), "a killed shell changed nothing")

    stalled = subprocess.Popen([FLUXSH, "attach", "sturdy"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=ENV)
    check(waits_until(lambda: app.number("shells") == 1), "attached before the stop")
    stalled.send_signal(signal.SIGSTOP)
    before = app.number("rss")
    started = time.time()
    app.ask("tick 200000")
    seconds = time.time() - started
    grown = app.number("rss") - before
    check(grown < 100 * 1024, f"a stopped shell does not grow the app: +{grown} KiB after 200,000 actions")
    check(seconds < 20, f"a stopped shell does not stall the app: 200,000 actions took {seconds:.1f} s")
    stalled.send_signal(signal.SIGCONT)
    out, err = stalled.communicate(input=b"state count\n", timeout=30)
    check(b"changes dropped)" in out and out.endswith(b"200000\n"),
          f"a shell that read too slowly is told, then sees the state: ...{out[-200:]!r}")
    app.end()


def test_attach_and_detach_cycles_leave_no_descriptor_open():
    app = App("cycles")
    before = app.number("fds")
    for _ in range(100):
        status, _, _ = attach("cycles", "detach\n")
        check(status == 0, "a detach exits 0")
    check(waits_until(lambda: app.number("shells") == 0), "every shell is gone")
    after = app.number("fds")
    check(after == before, f"100 attach/detach cycles: {before} descriptors before, {after} after")
    app.end()


def test_garbage_on_the_socket_changes_nothing():
    app = App("garbage")
    random.seed(7)
    raw(app.socket, bytes(random.getrandbits(8) for _ in range(200_000)))
    # NB: a bound, not a wait: a debug build reads a 20 MiB line in about 5 s on a busy machine.
    raw(app.socket, b"dispatch add title: " + b"x" * (20 << 20) + b"\nstate count\n", timeout=30)
    raw(app.socket, b"dispatch tick", read=False)
    raw(app.socket, b'{"fluxsh":1,"format":"json"}\n{"complete":' + b"[" * 100_000 + b"\n")
    raw(app.socket, b"\xff\xfe\x00\ndispatch add title: \"\\ud800\"\n")
    check(waits_until(lambda: app.number("shells") == 0), "garbage connections end")
    check(app.ask("state").startswith("count 0 items [] tags []"), f"garbage changed nothing: {app.ask('state')}")
    back = raw(app.socket, b"dispatch tick\nstate count\n").decode()
    check(back.splitlines() == ['{"line":1,"command":"dispatch","action":"tick","changes":'
                                '[{"op":"~","path":"count","old":0,"new":1}]}',
                                '{"line":2,"command":"state","path":"count","value":1}'],
          f"a client that sends commands only gets --format json: {back!r}")
    long_line = raw(app.socket, b"dispatch add title: " + b"x" * (20 << 20) + b"\n", timeout=30).decode()
    check("line longer than 16 MiB, skipped" in long_line, f"a 20 MiB line is reported: {long_line[:200]!r}")
    app.end()


tests = [value for name, value in sorted(globals().items()) if name.startswith("test_")]
for test in tests:
    print(test.__name__)
    try:
        test()
    except Exception as error:  # a test that cannot finish fails, with why
        check(False, f"{test.__name__}: {error!r}")
shutil.rmtree(RUNTIME, ignore_errors=True)
if failures:
    print(f"attach tests: {len(failures)} failed", file=sys.stderr)
    sys.exit(1)
print(f"attach tests: {len(tests)} passed")
