"""Drive `arx mcp` with the official MCP Python SDK (PyPI `mcp`).

Usage: python mcp_client.py ARX REPO

Initializes a session with `ARX mcp` started in REPO (a scratch git
repository with an [objective] in arx.toml), lists the tools, calls `status`,
`try` (baseline, then a better candidate), `log` and a call that must fail,
and checks the results. Prints one JSON summary line; exits non-zero with
a message on the first failed check.
"""

import asyncio
import json
import sys

import anyio

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

EXPECTED_TOOLS = {
    "try", "best", "status", "log", "measure", "run", "next", "deadend_check", "finding_rank",
    "report",
}


def check(condition, message):
    if not condition:
        raise SystemExit(f"check failed: {message}")


def exit_code(result):
    meta = getattr(result, "meta", None) or {}
    return meta.get("exit_code")


def text(result):
    return "".join(getattr(block, "text", "") for block in result.content)


async def main(arx, repo):
    params = StdioServerParameters(command=arx, args=["mcp"], cwd=repo)
    progress = []

    async def on_progress(value, total, message):
        progress.append((value, message))

    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            check(init.server_info.name == "arx", f"server name {init.server_info.name!r}")

            listed = await session.list_tools()
            tools = {tool.name: tool for tool in listed.tools}
            check(EXPECTED_TOOLS <= set(tools), f"tools listed: {sorted(tools)}")
            try_props = tools["try"].input_schema.get("properties", {})
            for key in ("description", "command", "repeat", "dry_run"):
                check(key in try_props, f"try's schema lacks {key}: {sorted(try_props)}")
            check("limit" in tools["log"].input_schema.get("properties", {}), "log takes limit")

            status = await session.call_tool("status", {})
            check(not status.is_error, f"status failed: {text(status)}")
            check(exit_code(status) == 1, f"status exit code {exit_code(status)} (want 1: go on)")
            check(status.structured_content["stop"] is False, f"status: {status.structured_content}")
            check(text(status).startswith("go on: no baseline yet; next: call try"), f"status text: {text(status)}")

            baseline = await session.call_tool(
                "try", {"description": "baseline"}, progress_callback=on_progress
            )
            check(not baseline.is_error, f"baseline try failed: {text(baseline)}")
            check(exit_code(baseline) == 0, f"baseline exit code {exit_code(baseline)}")
            ratchet = baseline.structured_content["ratchet"]
            check(ratchet["status"] == "baseline", f"baseline: {ratchet}")

            with open(f"{repo}/score.txt", "w") as f:
                f.write("0.9\n")
            better = await session.call_tool(
                "try", {"description": "a higher score"}, progress_callback=on_progress
            )
            check(not better.is_error, f"try failed: {text(better)}")
            ratchet = better.structured_content["ratchet"]
            check(ratchet["status"] == "keep", f"try: {ratchet}")
            check(exit_code(better) == 0, f"keep exit code {exit_code(better)}")
            check(better.structured_content["metrics"]["score"] == 0.9, "the candidate's score")

            with open(f"{repo}/score.txt", "w") as f:
                f.write("0.1\n")
            worse = await session.call_tool("try", {"description": "a lower score"})
            check(not worse.is_error, f"try failed: {text(worse)}")
            check(worse.structured_content["ratchet"]["status"] == "discard", f"worse: {worse.structured_content['ratchet']}")
            check(exit_code(worse) == 1, f"a discard is a result with exit code 1, got {exit_code(worse)}")

            best = await session.call_tool("best", {})
            check(best.structured_content["value"] == 0.9, f"best: {best.structured_content}")

            ranked = await session.call_tool("finding_rank", {"context": "a higher score"})
            check(not ranked.is_error, f"finding_rank failed: {text(ranked)}")
            check(exit_code(ranked) in (0, 1), f"finding_rank exit code {exit_code(ranked)}")
            check(isinstance(ranked.structured_content.get("findings"), list), f"finding_rank: {ranked.structured_content}")

            report = await session.call_tool("report", {"last": 5})
            check(not report.is_error, f"report failed: {text(report)}")
            check(report.structured_content["markdown"] == text(report), "report's text")
            check("a higher score" in text(report), f"the report lists the keep: {text(report)}")

            log = await session.call_tool("log", {"limit": 2})
            runs = log.structured_content["runs"]
            check(len(runs) == 2, f"log last 2: {len(runs)} runs")

            usage = await session.call_tool("try", {"description": "x", "direction": "sideways"})
            check(usage.is_error and "sideways" in text(usage), f"a bad direction: {text(usage)}")

            bad = await session.call_tool("try", {"description": "x", "rule": "bogus"})
            check(bad.is_error, "a bad rule is a tool error")
            check("arx: error:" in text(bad), f"error text: {text(bad)}")
            check(bad.structured_content.get("hint"), f"the error carries its hint: {bad.structured_content}")

            wrong = await session.call_tool("log", {"lmit": 3})
            check(wrong.is_error and "lmit" in text(wrong), f"unknown argument: {text(wrong)}")

            still = await session.call_tool("status", {})
            check(not still.is_error, "the server still answers after errors")

            # A call the client cancels ends its experiment: the try is
            # journaled as interrupted and the server goes on.
            with open(f"{repo}/score.txt", "w") as f:
                f.write("0.95\n")
            with anyio.move_on_after(2):
                await session.call_tool(
                    "try", {"description": "slow", "command": "sleep 30; cat score.txt"}
                )
            last = await session.call_tool("log", {"limit": 1})
            record = last.structured_content["runs"][0]
            check(text(last).startswith("log: 1 runs; the last: interrupted"), f"{text(last)}")
            check(record.get("interrupted") is True, f"the cancelled try: {record}")

    check(progress, "progress notifications during try")
    print(json.dumps({"tools": sorted(tools), "progress": len(progress), "ok": True}))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
