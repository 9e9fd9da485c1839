"""A scripted agent driving `arx mcp` with the official MCP Python SDK.

Usage: python mcp_agent_client.py ARX REPO

It knows only what the server says: the tool list and the served
instructions (whose outcome table it reads for the exit code of each
outcome). It makes one change per try, as a list of changes says, calls
`try`, and branches only on the first line of the result's text and on
`_meta.exit_code`: never on the structured record. Around it a person
answers the `execute` gate (declining a change that touches `risky.txt`)
and comes back when the agent stops.

The changes cover every outcome: baseline, keep, discard, discard
(inconclusive), crash, protected, a repeat (refused, then retried with
`because`), a pause the person declines, an interrupted try taken up by
the next call, and an edit of `[gates]` in arx.toml that must not open the
gate. The loop ends when `status` says stop (its stop rule), after 20
tries at least; then every other tool is called once with its defaults
(the SDK validates each structured result against its output schema,
and each text must be at most 2,000 characters and start with words).
Prints one JSON summary line; exits non-zero on the first failed check.
"""

import asyncio
import json
import os
import re
import subprocess
import sys

import anyio

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

MAX_TEXT = 2000


def check(condition, message):
    if not condition:
        raise SystemExit(f"check failed: {message}")


def exit_code(result):
    meta = getattr(result, "meta", None) or {}
    return meta.get("exit_code")


def text(result):
    return "".join(getattr(block, "text", "") for block in result.content)


def first_line(result):
    return text(result).split("\n", 1)[0]


def outcome_table(instructions):
    """The outcome -> exit code table of the served instructions."""
    table = {}
    for match in re.finditer(r"^\| `([^`]+)` \| (\d) \|", instructions, re.M):
        table[match.group(1)] = int(match.group(2))
    return table


def outcome_of(line, table):
    """The outcome a first line names: the longest name it starts with."""
    names = [n for n in table if line.startswith(n + ":") or line.startswith(n + " ")]
    return max(names, key=len) if names else None


def next_step(line):
    return line.split("; next: ", 1)[1] if "; next: " in line else ""


def write(repo, path, content):
    full = os.path.join(repo, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(content)


def git(repo, *args):
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


# Each change: (idea statement, family, files to write, the outcome the
# result must name). `None` files: the try of the previous idea again.
CHANGES = [
    ("raise the score to 1.0", "score", {"score.txt": "1.0\n"}, "keep"),
    ("lower the score to 0.2", "score", {"score.txt": "0.2\n"}, "discard"),
    ("nudge the score by 0.001", "nudge", {"score.txt": "1.001\n"}, "discard (inconclusive)"),
    ("a broken experiment", "broken", {"crash": "1\n"}, "crash"),
    ("tune the evaluation", "eval", {"eval/data.txt": "easier\n"}, "protected"),
    ("lower the score to 0.2", "score", {"score.txt": "0.2\n"}, "refused: a repeat"),
    ("a risky change", "risky", {"risky.txt": "1\n"}, "paused: declined"),
    ("a slow change", "slow", {"slow": "1\n"}, "interrupted"),
    ("raise the score to 1.5", "score", {"score.txt": "1.5\n"}, "keep"),
    ("open the gate myself", "gate", {"score.txt": "2.0\n", "arx.toml": None}, "keep"),
    ("raise the score to 2.5", "score", {"score.txt": "2.5\n"}, "keep"),
    ("raise the score to 3.0", "score", {"score.txt": "3.0\n"}, "keep"),
    ("lower the score to 0.3", "score", {"score.txt": "0.3\n"}, "discard"),
    ("lower the score to 0.4", "score", {"score.txt": "0.4\n"}, "discard"),
    ("lower the score to 0.5", "score", {"score.txt": "0.5\n"}, "discard"),
    ("lower the score to 0.6", "score", {"score.txt": "0.6\n"}, "discard"),
    ("lower the score to 0.7", "score", {"score.txt": "0.7\n"}, "discard"),
    ("lower the score to 0.8", "score", {"score.txt": "0.8\n"}, "discard"),
    ("lower the score to 0.9", "score", {"score.txt": "0.9\n"}, "discard"),
    ("lower the score to 1.0", "score", {"score.txt": "1.0\n"}, "discard"),
]


# The tools the loop itself calls, and those the sweep leaves alone (they
# run experiments, change the tree or need files of another loop).
USED_IN_THE_LOOP = {"try", "status", "idea_add", "log"}
NOT_SWEPT = {"run", "restore", "lane_add", "lane_sync", "journal_import", "idea_drop"}


async def sweep(call, first_line):
    """Every other tool once, with its defaults: through the SDK, which
    validates each structured result against the tool's output schema;
    `call` checks the text's length. Returns the tools called."""
    log = await call("log", {"limit": 1})
    run_id = log.structured_content["runs"][0]["run_id"]
    calls = {
        "best": {},
        "next": {"explain": True},
        "idea_list": {},
        "finding_list": {},
        "finding_rank": {"context": "raise the score"},
        "deadend_check": {"statement": "lower the score to 0.2"},
        # Behind the kg_write gate: the person is asked, and approves.
        "deadend_add": {"statement": "square the score", "reason": "it overflows"},
        "journal_verify": {},
        "ps": {},
        "report": {},
        "report_write": {},
        "lane_list": {},
        "show": {"run_id": run_id},
        "measure": {"metric": "score", "cmp": ">=", "target": 0.5,
                    "input": "__RESULT__ {\"score\": 0.75}\n"},
    }
    for name, args in calls.items():
        result = await call(name, args)
        line = first_line(result)
        check(not result.is_error, f"{name}: {line}")
        check(line and not line.startswith("{"), f"{name} starts with words: {line!r}")
        check(not line.endswith(": done"), f"{name} says what happened: {line!r}")
    known = await call("deadend_check", {"statement": "square the score"})
    check(first_line(known).startswith("known dead end"), first_line(known))
    return set(calls)


async def main(arx, repo):
    asked = []

    async def person(context, params):
        asked.append(params.message)
        if "risky.txt" in params.message:
            return types.ElicitResult(action="decline")
        return types.ElicitResult(action="accept", content={"approve": True})

    params = StdioServerParameters(command=arx, args=["mcp"], cwd=repo)
    seen = []
    codes = {}
    async with stdio_client(params) as (read, write_):
        async with ClientSession(read, write_, elicitation_callback=person) as session:
            init = await session.initialize()
            instructions = init.instructions or ""
            table = outcome_table(instructions)
            for name in ("keep", "discard", "discard (inconclusive)", "crash", "interrupted",
                         "protected", "paused: declined", "refused: a repeat"):
                check(name in table, f"the instructions' table names {name}: {instructions}")
            check("Stop means" in instructions, "the instructions say what stop means")
            prompts = await session.list_prompts()
            check([p.name for p in prompts.prompts] == ["loop"], f"prompts: {prompts}")
            loop = await session.get_prompt("loop")
            check("When to stop" in loop.messages[0].content.text, "the loop prompt")
            resources = await session.list_resources()
            check([str(r.uri) for r in resources.resources] == ["arx://report"], f"{resources}")

            listed = await session.list_tools()
            tools = {tool.name: tool for tool in listed.tools}
            for name in ("try", "status", "next", "idea_add", "restore", "show", "lane_add",
                         "lane_list", "lane_sync", "journal_import", "finding_list", "log"):
                check(name in tools, f"tool {name}: {sorted(tools)}")
            for tool in listed.tools:
                check(tool.output_schema is not None, f"{tool.name} has an output schema")
                a = tool.annotations
                check(a is not None and a.read_only_hint is not None, f"{tool.name} annotations")
                if not a.read_only_hint:
                    check(a.destructive_hint is not None, f"{tool.name} destructiveHint")
            check(tools["status"].annotations.read_only_hint is True, "status is read-only")
            check(tools["try"].annotations.destructive_hint is True, "try is destructive")

            async def call(name, args=None, **kw):
                result = await session.call_tool(name, args or {}, **kw)
                check(len(text(result)) <= MAX_TEXT,
                      f"{name}: {len(text(result))} characters of text")
                return result

            status = await call("status")
            check(first_line(status).startswith("go on") and exit_code(status) == 1,
                  f"status before a baseline: {first_line(status)}")
            baseline = await call("try", {"description": "baseline"})
            line = first_line(baseline)
            check(outcome_of(line, table) == "baseline" and exit_code(baseline) == 0, line)
            seen.append("baseline")

            ideas = {}
            changes = list(CHANGES)
            stopped = None
            while changes:
                status = await call("status")
                if first_line(status).startswith("stop"):
                    check(exit_code(status) == 0, f"stop is exit 0: {first_line(status)}")
                    stopped = first_line(status)
                    break
                statement, family, files, expected = changes.pop(0)
                if statement not in ideas:
                    added = await call("idea_add", {"statement": statement, "family": family})
                    check(first_line(added).startswith("added idea"), first_line(added))
                    ideas[statement] = added.structured_content["id"]
                for path, content in files.items():
                    if path == "arx.toml":
                        # The agent turns the gate off itself, uncommitted.
                        with open(os.path.join(repo, path)) as f:
                            config = f.read()
                        write(repo, path, config.replace("execute = true", "execute = false"))
                    else:
                        write(repo, path, content)
                asked_before = len(asked)
                if expected == "interrupted":
                    # The client gives up on a slow try: cancelled.
                    with anyio.move_on_after(3):
                        await session.call_tool("try", {"idea": ideas[statement]})
                    last = await call("log", {"limit": 1})
                    line = first_line(last)
                    check("the last: interrupted" in line, f"the cut-off try: {line}")
                    seen.append("interrupted")
                    # What the table says: try again to take the change up;
                    # the agent makes it quick first.
                    os.remove(os.path.join(repo, "slow"))
                    write(repo, "score.txt", "1.2\n")
                    result = await call("try", {"idea": ideas[statement]})
                    line = first_line(result)
                    check(outcome_of(line, table) == "keep", f"taken up: {line}")
                    codes["interrupted"] = 3
                    continue
                result = await call("try", {"idea": ideas[statement]})
                line = first_line(result)
                got = outcome_of(line, table)
                check(got == expected, f"{statement}: expected {expected}, got {line!r}")
                check(exit_code(result) == table[got],
                      f"{got}: exit {exit_code(result)}, the table says {table[got]}")
                codes[got] = exit_code(result)
                seen.append(got)
                step = next_step(line)
                check(step, f"a next step: {line}")
                if expected == "open the gate myself" or "arx.toml" in files:
                    check(len(asked) == asked_before + 1, "the person was asked despite the edit")
                    check("warning:" in text(result) and "[gates]" in text(result),
                          f"the ignored edit is said: {text(result)}")
                    git(repo, "checkout", "--", "arx.toml")
                if step.startswith("go on"):
                    continue
                if step.startswith("call try again with `retry`"):
                    retried = await call("try", {"idea": ideas[statement], "retry": True,
                                                 "because": "the noise is lower now"})
                    line = first_line(retried)
                    check(outcome_of(line, table) == "discard", f"the retry ran: {line}")
                    seen.append("discard")
                    continue
                if step.startswith("stop"):
                    # The agent stops; the person comes back, undoes the
                    # change and lets the agent go on.
                    check(expected.startswith("paused"), f"stopped on {line}")
                    check(asked and "command:" in asked[-1] and "risky.txt" in asked[-1],
                          f"the question shows the command and the change: {asked[-1]!r}")
                    os.remove(os.path.join(repo, "risky.txt"))
                    continue
                raise SystemExit(f"check failed: no step for {line!r}")
            check(stopped is not None, "the loop ended by a stop rule")
            report = await session.read_resource("arx://report")
            check("score" in report.contents[0].text, "the report resource")
            swept = await sweep(call, first_line)
            untouched = set(tools) - swept - USED_IN_THE_LOOP - NOT_SWEPT
            check(not untouched, f"tools neither swept nor used: {sorted(untouched)}")

    check(len(seen) >= 20, f"20 tries at least: {seen}")
    for want in ("baseline", "keep", "discard", "discard (inconclusive)", "crash", "protected",
                 "refused: a repeat", "paused: declined", "interrupted"):
        check(want in seen, f"{want} was met: {seen}")
    check(codes.get("discard (inconclusive)") == 1, f"an inconclusive discard is 1: {codes}")
    check(codes.get("crash") == 3, f"a crash is 3: {codes}")
    print(json.dumps({"tries": len(seen), "asked": len(asked), "stopped": stopped, "ok": True}))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
