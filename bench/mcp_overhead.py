"""What a tool call of `arx mcp` costs beside running the command directly.

Usage: python bench/mcp_overhead.py ARX [CALLS]

In one run, on one scratch git repository (an [objective] in arx.toml and a
few journaled tries): the time to start `arx mcp` and initialize a session
with the official MCP Python client, then CALLS calls of the `status` and
`deadend_check` tools through that session, and the same commands run
directly as `arx status --json` / `arx deadend check --json` processes.
Prints medians and the ratio; needs the `mcp` package (PyPI).
"""

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ARX_TOML = """[objective]
metric = "score"
direction = "max"
command = "echo \\"__RESULT__ {\\\\\\"score\\\\\\": $(cat score.txt)}\\""
baseline_repeat = 2

[gates]
execute = false
"""


def sh(args, cwd):
    subprocess.run(args, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def scratch(arx, repo):
    sh(["git", "init", "-q", "-b", "main"], repo)
    sh(["git", "config", "user.email", "bench@example.com"], repo)
    sh(["git", "config", "user.name", "bench"], repo)
    with open(os.path.join(repo, "score.txt"), "w") as f:
        f.write("0.5\n")
    with open(os.path.join(repo, "arx.toml"), "w") as f:
        f.write(ARX_TOML)
    sh([arx, "init"], repo)
    sh(["git", "add", "-A"], repo)
    sh(["git", "commit", "-q", "-m", "start"], repo)
    for i, score in enumerate(["0.5", "0.6", "0.55", "0.7"]):
        with open(os.path.join(repo, "score.txt"), "w") as f:
            f.write(score + "\n")
        subprocess.run([arx, "try", "-m", f"change {i}"], cwd=repo,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sh([arx, "deadend", "add", "bm25 alone", "--reason", "r", "--no-gates"], repo)


def direct(arx, repo, args, calls):
    times = []
    for _ in range(calls):
        t = time.perf_counter()
        subprocess.run([arx, *args, "--json"], cwd=repo, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return times


async def over_mcp(arx, repo, calls):
    params = StdioServerParameters(command=arx, args=["mcp"], cwd=repo)
    quiet = open(os.devnull, "w")  # the server's log lines
    t = time.perf_counter()
    async with stdio_client(params, errlog=quiet) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            start = time.perf_counter() - t
            out = {}
            for tool, arguments in [("status", {}), ("deadend_check", {"statement": "bm25 alone"})]:
                times = []
                for _ in range(calls):
                    t = time.perf_counter()
                    result = await session.call_tool(tool, arguments)
                    times.append(time.perf_counter() - t)
                    assert not result.is_error, result
                out[tool] = times
    return start, out


def ms(values):
    return statistics.median(values) * 1000


def main():
    arx = os.path.abspath(sys.argv[1])
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    with tempfile.TemporaryDirectory() as repo:
        scratch(arx, repo)
        direct(arx, repo, ["status"], 3)  # warm-up
        start, mcp = asyncio.run(over_mcp(arx, repo, calls))
        rows = [
            ("status", direct(arx, repo, ["status"], calls), mcp["status"]),
            ("deadend_check", direct(arx, repo, ["deadend", "check", "bm25 alone"], calls), mcp["deadend_check"]),
        ]
    print(f"session start (spawn arx mcp + initialize): {start * 1000:.1f} ms")
    print(f"{calls} calls each, median per call")
    print("| tool | direct `arx ... --json` (ms) | over MCP (ms) | MCP / direct |")
    print("|---|---:|---:|---:|")
    for name, d, m in rows:
        print(f"| `{name}` | {ms(d):.2f} | {ms(m):.2f} | {ms(m) / ms(d):.2f} |")


if __name__ == "__main__":
    main()
