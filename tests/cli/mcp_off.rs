//! Built without the `mcp` feature, `arx mcp` is still a command: it says
//! the server is not in this build, and how to get it.

use predicates::prelude::*;

use crate::support::Sandbox;

#[test]
fn without_the_mcp_feature_arx_mcp_says_so_and_how_to_get_it() {
    let sb = Sandbox::new();
    sb.arx()
        .arg("mcp")
        .write_stdin("")
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            predicate::str::contains("built without the MCP server").and(predicate::str::contains(
                "hint: reinstall with the default features",
            )),
        );
}
