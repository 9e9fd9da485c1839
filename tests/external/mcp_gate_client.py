"""Drive `arx mcp`'s `execute` gate with the official MCP Python SDK.

Usage: python mcp_gate_client.py ARX REPO MODE

REPO is a scratch repository whose arx.toml leaves the `execute` gate on.
MODE says who answers the gate:
  accept     a client that can be asked, and the person approves
  decline    a client that can be asked, and the person declines
  cancel     a client that can be asked, and the person dismisses the question
  unable     a client without the elicitation capability
  operator   `arx mcp --approve`, a client without the capability
  config     `[mcp] approve = true` in REPO's arx.toml, a client without the capability
Each mode calls `try` (a first baseline) and `run`, and checks that the
experiment ran exactly when the person or the operator approved it, and
that a caller's own `approve` or `no_gates` is refused. Prints one JSON
summary line; exits non-zero on the first failed check.
"""

import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client


def check(condition, message):
    if not condition:
        raise SystemExit(f"check failed: {message}")


def exit_code(result):
    meta = getattr(result, "meta", None) or {}
    return meta.get("exit_code")


def text(result):
    return "".join(getattr(block, "text", "") for block in result.content)


def journal(repo):
    path = os.path.join(repo, ".arx", "journal.jsonl")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


async def main(arx, repo, mode):
    asked = []

    async def answer(context, params):
        asked.append(params.message)
        if mode == "accept":
            return types.ElicitResult(action="accept", content={"approve": True})
        if mode == "decline":
            return types.ElicitResult(action="decline")
        return types.ElicitResult(action="cancel")

    args = ["mcp", "--approve"] if mode == "operator" else ["mcp"]
    params = StdioServerParameters(command=arx, args=args, cwd=repo)
    can_ask = mode in ("accept", "decline", "cancel")
    async with stdio_client(params) as (read, write):
        session_args = {"elicitation_callback": answer} if can_ask else {}
        async with ClientSession(read, write, **session_args) as session:
            await session.initialize()
            listed = await session.list_tools()
            for tool in listed.tools:
                props = tool.input_schema.get("properties", {})
                check("approve" not in props and "no_gates" not in props,
                      f"{tool.name} takes approve or no_gates: {sorted(props)}")
            for tool, smuggled in (("try", {"approve": True}), ("run", {"no_gates": True, "command": ["true"]})):
                refused = await session.call_tool(tool, smuggled)
                check(refused.is_error, f"{tool} took {smuggled}: {text(refused)}")
            check(journal(repo) == [], "nothing ran for a refused call")
            # Arguments are checked before anyone is asked.
            wrong = await session.call_tool("try", {"idea": "i-nope"})
            check(wrong.is_error and "i-nope" in text(wrong), f"a wrong idea: {text(wrong)}")
            check(asked == [], f"nobody was asked for a call that cannot run: {asked}")

            tried = await session.call_tool("try", {"description": "baseline"})
            check(not tried.is_error, f"try failed: {text(tried)}")
            # The objective's own command: `run` runs no other without the person.
            ran = await session.call_tool("run", {
                "metric": "score", "cmp": ">=", "target": 0.1, "shell": True,
                "command": ["echo \"__RESULT__ {\\\"score\\\": $(cat score.txt)}\""],
            })
            check(not ran.is_error, f"run failed: {text(ran)}")
            records = journal(repo)
            approved = mode in ("accept", "operator", "config")
            if approved:
                check(exit_code(tried) == 0, f"try ran: exit {exit_code(tried)}: {text(tried)}")
                check(tried.structured_content["ratchet"]["status"] == "baseline", f"try: {text(tried)}")
                check(exit_code(ran) == 0, f"run ran: exit {exit_code(ran)}: {text(ran)}")
                check(len(records) == 2, f"the baseline and the run journaled: {records}")
                check((records[0].get("ratchet") or {}).get("status") == "baseline", f"{records[0]}")
            else:
                want = {"decline": "paused: declined", "cancel": "paused: cancelled",
                        "unable": "paused: no person to ask"}[mode]
                for name, result in (("try", tried), ("run", ran)):
                    check(exit_code(result) == 1, f"{name} paused: exit {exit_code(result)}: {text(result)}")
                    check(text(result).startswith(want), f"{name} says {want}: {text(result)}")
                    check("next: stop" in text(result), f"{name} says stop: {text(result)}")
                    check(result.structured_content["outcome"] == want, f"{result.structured_content}")
                check(records == [], f"nothing ran: {records}")
            if can_ask:
                check(len(asked) == 2, f"the person was asked once per call: {asked}")
                check("execute" in asked[0], f"the question names the gate: {asked[0]}")
                check("command:" in asked[0], f"the question shows the command: {asked[0]}")
            else:
                check(asked == [], "nobody was asked")
    print(json.dumps({"mode": mode, "asked": len(asked), "records": len(records), "ok": True}))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))
