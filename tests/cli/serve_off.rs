//! Built without the `serve` feature, `arx serve` is still a command: it
//! says the live page is not in this build, and how to get it.

use predicates::prelude::*;

use crate::support::Sandbox;

#[test]
fn without_the_serve_feature_arx_serve_says_so_and_how_to_get_it() {
    let sb = Sandbox::new();
    sb.arx()
        .args(["serve", "--port", "0"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("built without the live page").and(
            predicate::str::contains("hint: reinstall with the default features"),
        ));
}
