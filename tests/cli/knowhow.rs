use crate::support::{json, Sandbox};

#[test]
fn add_and_list_knowhow() {
    let sb = Sandbox::new();
    sb.arx()
        .args([
            "knowhow",
            "add",
            "--approve",
            "hybrid retrieval",
            "--content",
            "RRF k=60 works",
            "--iteration",
            "2",
        ])
        .args(["--now", "2026-11-21T10:00:00Z"])
        .assert()
        .code(0);
    sb.arx()
        .args([
            "knowhow",
            "add",
            "--approve",
            "hybrid retrieval",
            "--content",
            "RRF k=60 works",
        ])
        .assert()
        .code(0);
    sb.arx()
        .args([
            "knowhow",
            "add",
            "--approve",
            "hybrid retrieval",
            "--content",
            "dense alone is worse",
        ])
        .assert()
        .code(0);
    let out = sb
        .arx()
        .args(["knowhow", "list", "--json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v = json(&out);
    let items = v.as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0]["statement"], "hybrid retrieval");
    assert_eq!(items[0]["content"], "RRF k=60 works");
    assert_eq!(items[0]["iteration"], 2);
    assert_eq!(items[0]["created_at"], "2026-11-21T10:00:00Z");
}
