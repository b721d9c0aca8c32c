"""`skillgraph mcp` driven by a real MCP client: the Python SDK's stdio client (`mcp` on PyPI)
with the standard `initialize` handshake.

Usage: python .ci/test_mcp.py path/to/skillgraph   (run from the repository's root)

Each test starts the server as an agent host would, lists and calls its tools, and holds the
answers to what the command line says (`check --format json`, `check --diff`). A client that
goes away mid-call is a raw pipe closed under a running call, timed to the process's end.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp import MCPError as McpError

BINARY = Path(sys.argv[1]).resolve()
REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "examples" / "demo"
BOUND = 1_000_000


async def session_for(args, cwd, call, roots=None):
    """Runs `call(session)` against `skillgraph mcp ARGS` started in `cwd`; `roots`, when given,
    are the folders the client offers as its MCP roots."""
    params = StdioServerParameters(command=str(BINARY), args=["mcp", *args], cwd=str(cwd))
    kwargs = {}
    if roots is not None:

        async def list_roots(_context):
            return types.ListRootsResult(
                roots=[types.Root(uri=Path(r).resolve().as_uri()) for r in roots]
            )

        kwargs["list_roots_callback"] = list_roots
    async with stdio_client(params, errlog=sys.stderr) as (read, write):
        async with ClientSession(read, write, **kwargs) as session:
            init = await session.initialize()
            assert init.server_info.name == "skillgraph", init
            return await call(session)


def run(args, cwd, call, roots=None):
    return anyio.run(session_for, args, cwd, call, roots)


def text_of(result):
    assert not result.is_error, result
    return [block.text for block in result.content]


async def tool_error(session, name, arguments):
    """The message of a call that must fail as a tool error (`isError`, what the specification
    asks for arguments a tool cannot use: the model reads it and corrects the call)."""
    result = await session.call_tool(name, arguments)
    assert result.is_error, (name, arguments, result)
    return result.content[0].text


def demo_answers(*calls):
    """Makes each `(tool, arguments)` call, in order, in one session on the demo; the text
    blocks of each answer."""

    async def call(session):
        return [await session.call_tool(name, arguments) for name, arguments in calls]

    return [text_of(result) for result in run([str(DEMO)], DEMO, call)]


def cli(*args, cwd):
    return subprocess.run([str(BINARY), *args], cwd=cwd, capture_output=True, text=True)


def test_lists_the_four_tools_with_input_schemas():
    async def call(session):
        return (await session.list_tools()).tools

    tools = {tool.name: tool for tool in run([str(DEMO)], DEMO, call)}
    assert set(tools) == {"check", "explain", "graph", "fixes"}, tools.keys()
    for tool in tools.values():
        schema = tool.input_schema
        assert schema["type"] == "object" and schema["properties"], (tool.name, schema)
        assert tool.description, tool.name
    assert set(tools["explain"].input_schema["properties"]) >= {"agent", "skill", "paths"}
    assert tools["graph"].input_schema["properties"]["format"]


def test_check_is_the_clis_json():
    ((answer,),) = demo_answers(("check", {"paths": ["build-conventions", "agent-skills"]}))
    expected = cli("check", "--format", "json", "build-conventions", "agent-skills", cwd=DEMO)
    assert expected.returncode == 1, expected.stderr
    assert json.loads(answer) == json.loads(expected.stdout)
    assert json.loads(answer)["summary"]["errors"] > 0


def test_check_with_no_paths_checks_every_root():
    ((answer,),) = demo_answers(("check", {}))
    expected = cli("check", "--format", "json", ".", cwd=DEMO)
    assert json.loads(answer) == json.loads(expected.stdout)


def test_explain_an_agent_and_a_skill_as_the_hover_says_them():
    (agent,), (skill,) = demo_answers(
        ("explain", {"agent": "engineer"}), ("explain", {"skill": "chain-test"})
    )
    assert "**agent `engineer`**" in agent and "Ordering rules" in agent, agent
    assert "topologies/estate.yaml" in agent, agent
    assert "chain entry `test-unit`" in skill and "1 of 5" in skill, skill


def test_explain_without_a_subject_or_of_an_unknown_agent_is_a_tool_error():
    async def call(session):
        return [
            await tool_error(session, "explain", arguments)
            for arguments in ({}, {"agent": "a", "skill": "b"}, {"agent": "no-such-agent"})
        ]

    errors = run([str(DEMO)], DEMO, call)
    assert len(errors) == 3, errors
    assert "give one of `agent`" in errors[0]
    assert "no agent `no-such-agent`" in errors[2] and "engineer" in errors[2], errors[2]


def test_graph_in_mermaid_and_json_is_the_clis():
    (mermaid,), (as_json,) = demo_answers(
        ("graph", {"agent": "engineer"}), ("graph", {"format": "json"})
    )
    assert mermaid == cli("graph", "--agent", "engineer", ".", cwd=DEMO).stdout
    assert json.loads(as_json) == json.loads(cli("graph", "--format", "json", ".", cwd=DEMO).stdout)


def test_fixes_is_the_clis_diff_and_writes_nothing():
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "demo"
        shutil.copytree(DEMO, copy)
        before = {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()}

        async def call(session):
            return await session.call_tool("fixes", {})

        diff, summary = text_of(run([str(copy)], copy, call))
        expected = cli("check", "--diff", ".", cwd=copy)
        assert diff == expected.stdout, (diff, expected.stdout)
        assert "safe fixes in" in summary and "nothing was written" in summary, summary
        assert before == {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()}


def test_the_rules_are_resources():
    async def call(session):
        listed = (await session.list_resources()).resources
        read = await session.read_resource("skillgraph://rules/agent.unknown-skill")
        try:
            await session.read_resource("skillgraph://rules/no.such-code")
            missing = None
        except McpError as error:
            missing = error.error.message
        return listed, read, missing

    listed, read, missing = run([str(DEMO)], DEMO, call)
    uris = {str(r.uri) for r in listed}
    assert "skillgraph://rules/agent.unknown-skill" in uris and len(uris) > 50, len(uris)
    text = read.contents[0].text
    assert text.startswith("## `agent.unknown-skill`") and "*error*" in text, text
    rules_md = (REPO / "docs" / "rules.md").read_text()
    assert text.strip() in rules_md, "the resource is docs/rules.md's section"
    assert missing and "skillgraph://rules/<code>" in missing, missing


def test_paths_escaping_the_roots_are_refused():
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "root"
        shutil.copytree(DEMO, root)
        outside = Path(tmp) / "outside"
        (outside / "skills" / "secret").mkdir(parents=True)
        (outside / "skills" / "secret" / "SKILL.md").write_text("---\nname: secret\n---\n")
        os.symlink(outside, root / "link-out")

        async def call(session):
            errors = {}
            for path in ["/etc", "../..", "../outside", "link-out", "link-out/skills"]:
                errors[path] = await tool_error(session, "check", {"paths": [path]})
            # A walk of the root does not follow the link out either.
            whole = await session.call_tool("check", {})
            return errors, whole

        errors, whole = run([str(root)], root, call)
        for path in ["/etc", "../..", "../outside"]:
            assert errors[path] and "outside the roots" in errors[path], (path, errors[path])
        for path in ["link-out", "link-out/skills"]:
            assert errors[path] and "symbolic link" in errors[path], (path, errors[path])
        (whole,) = text_of(whole)
        read = {d["path"] for d in json.loads(whole)["diagnostics"]}
        assert read and not any("secret" in p or "link-out" in p for p in read), read


def test_bad_arguments_are_tool_errors_and_the_server_lives_on():
    async def call(session):
        errors = [
            await tool_error(session, name, arguments)
            for name, arguments in [
                ("check", {"paths": "not-a-list"}),
                ("check", {"paths": [1, 2]}),
                ("check", {"path": ["typo"]}),
                ("graph", {"format": "svg"}),
                ("graph", {"agent": "no-such-agent"}),
                ("explain", {"agent": 42}),
                ("fixes", {"paths": [""]}),
            ]
        ]
        try:
            await session.call_tool("no-such-tool", {})
            unknown = None
        except McpError as error:
            unknown = error.error.code
        alive = await session.list_tools()
        return errors, unknown, alive

    errors, unknown, alive = run([str(DEMO)], DEMO, call)
    expected = ["expected a sequence", "expected a string", "unknown field `path`", "unknown variant `svg`",
                "no-such-agent", "expected a string", "not a path"]
    for want, message in zip(expected, errors):
        assert want in message, (want, message)
    assert unknown == -32602, unknown
    assert len(alive.tools) == 4


def test_roots_come_from_the_client_else_the_working_directory():
    with tempfile.TemporaryDirectory() as tmp:
        async def call(session):
            return await session.call_tool("check", {})

        # No arguments: the client's roots (here the demo's skills), not the working directory.
        (answer,) = text_of(run([], tmp, call, roots=[DEMO / "agent-skills"]))
        paths = {d["path"] for d in json.loads(answer)["diagnostics"]}
        assert paths and all("agent-skills" in p for p in paths), paths
        # Neither arguments nor client roots: the working directory.
        (answer,) = text_of(run([], DEMO, call))
        assert json.loads(answer) == json.loads(cli("check", "--format", "json", ".", cwd=DEMO).stdout)


def many_broken_skills(folder, count):
    """`count` SKILL.md files, each with a few problems: a report far over the bound."""
    for i in range(count):
        skill = folder / "skills" / f"skill-{i:05}"
        skill.mkdir(parents=True)
        (skill / "SKILL.md").write_text(f"---\nname: Skill_{i}\nx-unknown: {i}\n---\nbody\n")


def test_an_oversized_report_is_bounded_with_a_summary_and_a_count():
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        many_broken_skills(root, 4000)

        async def call(session):
            return await session.call_tool("check", {})

        (answer,) = text_of(run([str(root)], root, call))
        full = json.loads(cli("check", "--format", "json", ".", cwd=root).stdout)
        assert len(answer.encode()) <= BOUND, len(answer.encode())
        document = json.loads(answer)
        truncated = document["truncated"]
        assert truncated["diagnostics_total"] == len(full["diagnostics"]) > truncated["diagnostics_shown"] > 0
        assert document["summary"] == full["summary"], (document["summary"], full["summary"])
        assert document["diagnostics"] == full["diagnostics"][: truncated["diagnostics_shown"]]
        print(f"    full report {len(json.dumps(full)) / 1e6:.1f} MB; MCP result {len(answer) / 1e6:.2f} MB, "
              f"{truncated['diagnostics_shown']} of {truncated['diagnostics_total']} diagnostics")


def frame(message):
    return (json.dumps(message) + "\n").encode()


def test_a_client_that_goes_away_mid_call_ends_the_server_within_3_s():
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        many_broken_skills(root, 6000)
        process = subprocess.Popen(
            [str(BINARY), "mcp", str(root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        process.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}))
        process.stdin.flush()
        assert b'"id":1' in process.stdout.readline()
        process.stdin.write(frame({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        # Several calls in flight, then the client is gone.
        for i in range(2, 6):
            name = "fixes" if i % 2 else "check"
            process.stdin.write(frame({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                                       "params": {"name": name, "arguments": {}}}))
        process.stdin.flush()
        time.sleep(0.3)
        assert process.poll() is None, "the calls were still running when the client left"
        process.stdin.close()
        started = time.monotonic()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            raise AssertionError("still running 10 s after its client went away")
        took = time.monotonic() - started
        print(f"    ended {took:.2f} s after its client went away, calls in flight")
        assert took < 3, took


def main():
    tests = [(name, f) for name, f in globals().items() if name.startswith("test_")]
    failed = []
    for name, test in tests:
        started = time.monotonic()
        try:
            test()
            print(f"ok   {name} ({time.monotonic() - started:.1f} s)")
        except Exception:
            failed.append(name)
            print(f"FAIL {name}")
            traceback.print_exc()
    print(f"{len(tests) - len(failed)} passed, {len(failed)} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
