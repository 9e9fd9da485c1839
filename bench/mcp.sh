#!/usr/bin/env bash
# The cost of an `arx mcp` tool call beside the direct command, measured with
# the official MCP Python client. See BENCHMARKS.md, "arx mcp".
#   bench/mcp.sh [CALLS]      (default 50 calls per tool)
# Uses $ARX_BIN (default: a `--profile dist` build) and $ARX_TEST_PYTHON (default:
# python3), which must be able to `import mcp` (pip install mcp).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${ARX_BIN:-}" ]; then
  cargo build --profile dist --quiet
  ARX_BIN=target/dist/arx
fi
python="${ARX_TEST_PYTHON:-python3}"
if ! "$python" -c "import mcp" 2>/dev/null; then
  echo "bench/mcp.sh: $python cannot import mcp (pip install mcp, or set ARX_TEST_PYTHON)" >&2
  exit 2
fi
exec "$python" bench/mcp_overhead.py "$ARX_BIN" "${1:-50}"
