#!/usr/bin/env python3
"""End-to-end tests of `fluxsh mcp` and `fluxsh attach NAME --mcp` with PyPI's `mcp` client, as an
agent drives them: the tools listed (the active store's actions in `dispatch`'s description), each
tool answered with what the shell prints, errors as `isError`, bad calls refused with nothing
changed, a saved scenario that replays, 1,000 calls sent at once (MCP_CALLS=N for more), a client
that vanishes, and an attached app driven and read.

Usage: Tests/MCP/mcp_test.py FLUXSH ATTACH_DEMO [WORD]   (called by `make test`; WORD runs only the
tests whose names hold it)
"""
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

FLUXSH, DEMO = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
FILTER = sys.argv[3] if len(sys.argv) > 3 else ""
RUNTIME = tempfile.mkdtemp(prefix="fluxsh-mcp-")
ENV = dict(os.environ, XDG_RUNTIME_DIR=RUNTIME, NO_COLOR="1")
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("  FAIL:", what, file=sys.stderr)


def text(result):
    return "\n".join(item.text for item in result.content if item.type == "text")


class Client:
    """A client session with the server, calling its tools."""

    def __init__(self, session):
        self.session = session

    async def call(self, tool, **arguments):
        result = await self.session.call_tool(tool, arguments)
        error = getattr(result, "is_error", None)
        return text(result), bool(error if error is not None else getattr(result, "isError", False))


@contextlib.asynccontextmanager
async def Server(*arguments, notified=None):
    """A client session with `fluxsh ARGUMENTS`, over its standard input and output; `notified`, a
    list, gets the names of the notifications the server sends."""
    parameters = StdioServerParameters(command=FLUXSH, args=list(arguments), env=ENV)

    async def handle(message):
        if notified is not None and not isinstance(message, Exception):
            # NB: the client gives a notification as itself, or (older clients) wrapped in `root`.
            notified.append(type(getattr(message, "root", message)).__name__)

    async with stdio_client(parameters) as (read, write):
        async with ClientSession(read, write, message_handler=handle) as session:
            await session.initialize()
            yield Client(session)


async def test_tools_answer_as_the_shell_prints():
    async with Server("mcp", "--store", "todos") as server:
        tools = (await server.session.list_tools()).tools
        names = [tool.name for tool in tools]
        check(names == ["run", "load", "dispatch", "state", "why", "history", "undo", "find", "diff", "save"],
              f"the tools: {names}")
        dispatch = next(tool for tool in tools if tool.name == "dispatch")
        check("add(title: String)" in dispatch.description, f"dispatch lists the actions: {dispatch.description!r}")
        schema = getattr(dispatch, "input_schema", None) or getattr(dispatch, "inputSchema", None)
        check(schema["required"] == ["action"], f"dispatch's schema: {schema}")
        out, error = await server.call("dispatch", action="add title: milk")
        check(not error and out == '+ todos[0]: {"id":1,"title":"milk","done":false}\n~ nextID: 1 -> 2',
              f"dispatch: {out!r} {error}")
        await server.call("dispatch", action="add title: eggs")
        await server.call("dispatch", action="toggle id: 1")
        check(await server.call("state", path="todos[0].title") == ('"milk"', False), "state at a path")
        out, _ = await server.call("state")
        check(out.startswith("{\n  \"todos\": ["), f"the whole state: {out!r}")
        out, _ = await server.call("why", path="todos[0].done")
        check(out == "  1  add title: milk\n     + todos[0]: {\"id\":1,\"title\":\"milk\",\"done\":false}\n"
                     "  3  toggle id: 1\n     ~ todos[0].done: false -> true", f"why: {out!r}")
        out, _ = await server.call("history")
        check(out == "  1  add title: milk\n  2  add title: eggs\n  3  toggle id: 1", f"history: {out!r}")
        check(await server.call("find", text="EGG") == ('todos[1].title: "eggs"', False), "find")
        check(await server.call("diff", **{"from": "1", "to": "2"}) ==
              ('+ todos[1]: {"id":2,"title":"eggs","done":false}\n~ nextID: 2 -> 3', False), "diff")
        check(await server.call("undo") == ("~ todos[0].done: true -> false", False), "undo")
        check(await server.call("undo", steps="2") ==
              ('- todos[0]: {"id":1,"title":"milk","done":false}\n- todos[1]: {"id":2,"title":"eggs","done":false}\n'
               "~ nextID: 3 -> 1", False), "undo 2")
        out, error = await server.call("run", line="redo 3")
        check(not error and out.startswith("+ todos[0]"), f"run redo 3: {out!r}")
        out, error = await server.call("run", line="skip 2")
        check(not error and "- todos[1]" in out, f"run skip 2: {out!r}")
        # Errors: what the shell says, isError, and nothing changed.
        before = await server.call("history")
        out, error = await server.call("dispatch", action="toggle id: 9")
        check(error and out.startswith("error: no todo has id 9"), f"a refused action: {out!r} {error}")
        out, error = await server.call("state", path="todos[7]")
        check(error and "past the end" in out, f"a bad path: {out!r}")
        out, error = await server.call("run", line="expect todos.count == 5")
        check(error and "expectation failed" in out, f"a failed expectation: {out!r}")
        check(await server.call("history") == before, "the errors changed nothing")


async def test_bad_calls_are_refused_and_change_nothing():
    async with Server("mcp", "--store", "counter") as server:
        before = await server.call("history")
        for tool, arguments, message in [
            ("dispatch", {}, "tool 'dispatch' needs the argument 'action'"),
            ("dispatch", {"action": "increment", "times": "2"}, "tool 'dispatch' has no argument 'times'"),
            ("fly", {}, "unknown tool 'fly'"),
            ("undo", {"steps": "x"}, "undo takes a positive number of steps, not 'x'"),
            ("run", {"line": "dispatch increment\ndispatch increment"}, "holds a line break"),
            ("run", {"line": '{"complete":"dis"}'}, "expected a command"),
            ("run", {"line": "quit"}, "quit would end the session"),
            ("run", {"line": "! detach"}, "detach would end the session"),
            ("run", {"line": "output /tmp/x.txt"}, "changes how the shell writes its results"),
            ("load", {"store": "nope"}, "unknown store 'nope'"),
            ("save", {"path": "/no/such/folder/x.scenario"}, "cannot"),
        ]:
            out, error = await server.call(tool, **arguments)
            check(error and message in out, f"{tool} {arguments}: {out!r} {error}")
        check(await server.call("history") == before, f"the refusals changed nothing: {await server.call('history')}")
        check(await server.call("state", path="count") == ("0", False), "count still 0")


async def test_load_changes_the_dispatch_description_and_save_replays():
    folder = tempfile.mkdtemp(prefix="fluxsh-mcp-save-")
    async with Server("mcp") as server:
        tools = (await server.session.list_tools()).tools
        check("add(" not in next(tool for tool in tools if tool.name == "dispatch").description,
              "no store loaded: no actions listed")
        check(await server.call("load", store="counter") == ("(nothing printed)", False), "load")
        tools = (await server.session.list_tools()).tools
        check("increment" in next(tool for tool in tools if tool.name == "dispatch").description,
              "the loaded store's actions listed")
        await server.call("dispatch", action="add 5")
        await server.call("load", store="todos", alias="list")
        tools = (await server.session.list_tools()).tools
        description = next(tool for tool in tools if tool.name == "dispatch").description
        check("store 'counter':\n  increment" in description and "store 'list':\n  add(title: String)" in description,
              f"every loaded store's actions, under its alias: {description!r}")
        await server.call("dispatch", action="add title: tea")
        scenario = os.path.join(folder, "agent.scenario")
        out, error = await server.call("save", path=scenario)
        check(not error and "saved" in out and os.path.exists(scenario), f"save: {out!r}")
    replay = subprocess.run([FLUXSH, "test", scenario], capture_output=True, text=True, timeout=60)
    check(replay.returncode == 0, f"the saved scenario replays: {replay.stdout} {replay.stderr}")


async def test_a_read_that_loads_a_store_says_the_tools_changed():
    folder = tempfile.mkdtemp(prefix="fluxsh-mcp-read-")
    commands = os.path.join(folder, "setup.fluxsh")
    with open(commands, "w") as file:
        file.write("load counter\ndispatch add 2\n")
    notified = []
    async with Server("mcp", notified=notified) as server:
        out, error = await server.call("run", line="history")
        check(not error and not notified, f"no notification for history: {notified}")
        out, error = await server.call("run", line=f"read {commands}")
        check(not error and out == "~ count: 0 -> 2", f"read: {out!r} {error}")
        await server.call("history")
        check("ToolListChangedNotification" in notified, f"the tools changed after read: {notified}")
        tools = (await server.session.list_tools()).tools
        check("increment" in next(tool for tool in tools if tool.name == "dispatch").description,
              "the store read loaded is listed")


def test_many_calls_in_a_row():
    """1,000 calls sent at once, as a client that does not wait: each answered once, none lost."""
    server = subprocess.Popen([FLUXSH, "mcp", "--store", "counter"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    count = int(os.environ.get("MCP_CALLS", "1000"))
    requests = [json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "many", "version": "1"}}}),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})]
    requests += [json.dumps({"jsonrpc": "2.0", "id": number, "method": "tools/call",
                             "params": {"name": "dispatch", "arguments": {"action": "increment"}}})
                 for number in range(1, count + 1)]
    # NB: sent once every dispatch is answered: calls sent together run in any order.
    last_request = json.dumps({"jsonrpc": "2.0", "id": count + 1, "method": "tools/call",
                               "params": {"name": "state", "arguments": {"path": "count"}}})
    answers = {}
    start = time.monotonic()

    def read():
        for line in server.stdout:
            message = json.loads(line)
            if "id" in message:
                answers[message["id"]] = message
            if len(answers) == count + 2:
                break

    reader = threading.Thread(target=read)
    reader.start()
    # NB: the initialize answer first: a server answers calls only once it is initialized.
    server.stdin.write((requests[0] + "\n").encode())
    server.stdin.flush()
    while 0 not in answers and reader.is_alive():
        time.sleep(0.01)
    server.stdin.write(("\n".join(requests[1:]) + "\n").encode())
    server.stdin.flush()
    while len(answers) < count + 1 and reader.is_alive():
        time.sleep(0.01)
    server.stdin.write((last_request + "\n").encode())
    server.stdin.flush()
    reader.join(timeout=300)
    elapsed = time.monotonic() - start
    server.stdin.close()
    server.wait(timeout=30)
    errors = [number for number, message in answers.items() if message.get("result", {}).get("isError")]
    check(len(answers) == count + 2 and not errors, f"every call answered once: {len(answers)}, errors {errors[:5]}")
    last = answers.get(count + 1, {}).get("result", {}).get("content", [{}])[0].get("text")
    check(last == str(count), f"the count after {count} calls: {last!r}")
    print(f"  {count} calls at once: {elapsed:.2f} s")


def test_a_client_that_vanishes_ends_the_server():
    server = subprocess.Popen([FLUXSH, "mcp", "--store", "counter"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    server.stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
                       b'"capabilities":{},"clientInfo":{"name":"gone","version":"1"}}}\n')
    server.stdin.flush()
    first = server.stdout.readline()
    check(b'"serverInfo"' in first, f"the server answered: {first!r}")
    server.stdin.close()
    try:
        status = server.wait(timeout=10)
        check(status == 0, f"the server ended with status 0: {status}")
    except subprocess.TimeoutExpired:
        server.kill()
        check(False, "the server went on after its client vanished")
    rest = server.stdout.read()
    check(rest == b"", f"nothing but the protocol on standard output: {rest!r}")


async def test_an_attached_app_is_driven_and_read():
    app = subprocess.Popen([DEMO, "mcpshop", "4096"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=ENV,
                           text=True, bufsize=1)
    try:
        ready = app.stdout.readline().split()
        check(ready and ready[0] == "ready", f"the app: {ready}")
        app.stdin.write("tick 2\n")
        app.stdin.flush()
        app.stdout.readline()
        async with Server("attach", "--mcp", "mcpshop") as server:
            check(await server.call("state", path="count") == ("2", False), "the app's state")
            out, error = await server.call("dispatch", action="tick")
            check(not error and out == "~ count: 2 -> 3", f"a dispatch in the app: {out!r}")
            out, error = await server.call("history")
            check("tick" in out, f"the history: {out!r}")
            out, error = await server.call("run", line="skip 1")
            check(error and "running app's" in out, f"an app's past is not edited: {out!r}")
        app.stdin.write("state\n")
        app.stdin.flush()
        check(app.stdout.readline().startswith("count 3 "), "the app's own count")
        # The app ends the session: the call says so, and the server ends with status 1.
        server = subprocess.Popen([FLUXSH, "attach", "--mcp", "mcpshop"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
        server.stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
                           b'"capabilities":{},"clientInfo":{"name":"x","version":"1"}}}\n')
        server.stdin.flush()
        server.stdout.readline()
        app.stdin.write("stop\n")
        app.stdin.flush()
        app.wait(timeout=20)
        check(server.wait(timeout=20) == 1, "the server ends with status 1 when the app ends the session")
        check("app exited" in server.stderr.read().decode(), "it says why")
    finally:
        if app.poll() is None:
            app.stdin.write("stop\n")
            app.stdin.flush()
            app.wait(timeout=20)


def main():
    tests = [(name, test) for name, test in globals().items() if name.startswith("test_") and FILTER in name]
    passed = 0
    for name, test in tests:
        began = time.monotonic()
        count = len(failures)
        try:
            if asyncio.iscoroutinefunction(test):
                asyncio.run(asyncio.wait_for(test(), timeout=120))
            else:
                test()
        except Exception as error:  # noqa: BLE001
            failures.append(f"{name}: {error!r}")
            print(f"  FAIL: {name}: {error!r}", file=sys.stderr)
        ok = len(failures) == count
        passed += ok
        print(f"mcp_test: {'PASS' if ok else 'FAIL'} {name} ({time.monotonic() - began:.1f} s)")
    print(f"mcp_test: {passed} passed, {len(tests) - passed} failed")
    sys.exit(0 if passed == len(tests) else 1)


main()
