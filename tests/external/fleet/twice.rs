//! An idea another machine claims, tries and releases between this
//! machine's take-in of the fleet and its own claim is not given again:
//! `arx next` on machine a claims idea X while, inside the remote's
//! `pre-receive` hook of that very push (so before a's claim lands), machine
//! b claims X, tries it, pushes its records and releases its claim. a's
//! create-if-absent claim then lands (the ref is absent again), and a must
//! see b's try of X and draw another idea.

use std::path::Path;

use libtest_mimic::{Failed, Trial};

use super::{backlog, next_in, records, remote_claims, sync, try_in, Fleet};
use crate::needs::{arx, trial};

pub fn trials() -> Vec<Trial> {
    vec![trial(
        "fleet_an_idea_tried_between_take_in_and_claim_is_not_given",
        super::git_daemon,
        |_| tried_before_the_claim_lands(),
    )]
}

/// The remote's `pre-receive` hook: on the first push that creates a claim
/// (once: the marker file, holding the idea), machine `b` tries that idea
/// to the end before the push goes on. Git's variables of the hook are
/// cleared, so that b's commands work in b's clone.
fn hook(b: &Path, marker: &Path, log: &Path) -> String {
    format!(
        r#"#!/bin/sh
while read old new ref; do
  case "$ref" in
    refs/arx/fleet/claims/*)
      if [ "$old" = 0000000000000000000000000000000000000000 ] && [ ! -e '{marker}' ]; then
        idea="${{ref#refs/arx/fleet/claims/}}"
        printf '%s' "$idea" > '{marker}'
        cd '{b}' || exit 1
        echo $(( $(cat a.txt) + 1 )) > a.txt
        env -i PATH="$PATH" HOME="$HOME" NO_COLOR=1 '{arx}' --json try --idea "$idea" -m "b tries $idea" >> '{log}' 2>&1
        echo "exit $?" >> '{log}'
      fi
      ;;
  esac
done
exit 0
"#,
        marker = marker.display(),
        b = b.display(),
        arx = arx().display(),
        log = log.display(),
    )
}

fn tried_before_the_claim_lands() -> Result<(), Failed> {
    let f = Fleet::new();
    let a = f.machine("a", "cpu-x");
    let b = f.machine("b", "cpu-x");
    let ids = backlog(&[&a, &b]);
    let (code, r) = try_in(&a, "baseline");
    assert_eq!(code, 0, "{r}");
    sync(&a);
    sync(&b);
    let marker = f.tmp.path().join("hook-fired");
    let log = f.tmp.path().join("hook.log");
    let hook_path = f.tmp.path().join("served/remote.git/hooks/pre-receive");
    std::fs::write(&hook_path, hook(&b, &marker, &log)).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&hook_path, std::fs::Permissions::from_mode(0o755)).unwrap();

    let given = next_in(&a, None);
    let tried_by_b = std::fs::read_to_string(&marker).expect("the hook never fired");
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(said.ends_with("exit 0\n"), "b's try in the hook: {said}");
    assert!(ids.contains(&tried_by_b), "{tried_by_b} of {ids:?}");
    sync(&b);
    let b_tried = records(&b)
        .iter()
        .any(|r| r["ratchet"]["idea"].as_str() == Some(tried_by_b.as_str()));
    assert!(b_tried, "b's try of {tried_by_b} is not in its journal");
    assert_ne!(
        given.as_deref(),
        Some(tried_by_b.as_str()),
        "a was given {tried_by_b}, which b had tried"
    );
    let claims = remote_claims(&f);
    assert!(
        !claims.iter().any(|(idea, _)| *idea == tried_by_b),
        "a claim on the tried idea {tried_by_b} is left: {claims:?}"
    );
    let given = given.expect("another open idea for a");
    assert!(
        claims.contains(&(given.clone(), "a".to_string())),
        "a's pick {given} is not claimed: {claims:?}"
    );
    Ok(())
}
