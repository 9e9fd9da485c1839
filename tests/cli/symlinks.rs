//! State files are never written through a symbolic link: a cloned
//! repository can bring `.arx/journal.jsonl` (or `.arx/` itself, or
//! `.gitattributes`) as a link to a file of the user's.

use predicates::str::contains;

use crate::support::Sandbox;

const GATES_OFF: &str = "[gates]\nexecute = false\nkg_write = false\n";

/// A sandbox with `outside/victim` (a file no command may change) and the
/// gates off.
fn sandbox() -> Sandbox {
    let sb = Sandbox::new();
    sb.write("outside/victim", "precious\nno newline at the end");
    sb.write("arx.toml", GATES_OFF);
    std::fs::create_dir_all(sb.path().join(".arx")).unwrap();
    sb
}

fn victim(sb: &Sandbox) -> String {
    sb.read("outside/victim")
}

fn link(sb: &Sandbox, target: &str, at: &str) {
    std::os::unix::fs::symlink(sb.path().join(target), sb.path().join(at)).unwrap();
}

const RUN: [&str; 10] = [
    "run", "--metric", "a", "--cmp", ">=", "--target", "0", "--", "sh", "-c",
];

#[test]
fn every_state_registry_refuses_a_symlink() {
    let cases: [(&str, Vec<&str>); 4] = [
        (
            ".arx/journal.jsonl",
            RUN.iter()
                .copied()
                .chain(["echo '__RESULT__ {\"a\": 1}'"])
                .collect(),
        ),
        (".arx/journal.jsonl", vec!["journal", "merge"]),
        (
            ".arx/dead-ends.jsonl",
            vec!["deadend", "add", "an approach", "--reason", "r"],
        ),
        (
            ".arx/knowhow.jsonl",
            vec!["knowhow", "add", "topic", "--content", "text"],
        ),
    ];
    for (file, args) in cases {
        let sb = sandbox();
        link(&sb, "outside/victim", file);
        sb.arx()
            .args(&args)
            .assert()
            .code(2)
            .stderr(contains(file))
            .stderr(contains("symbolic link"));
        assert_eq!(victim(&sb), "precious\nno newline at the end", "{args:?}");
    }
}

#[test]
fn a_symlinked_state_directory_is_refused() {
    let sb = sandbox();
    std::fs::remove_dir(sb.path().join(".arx")).unwrap();
    link(&sb, "outside", ".arx");
    let args: Vec<&str> = RUN
        .iter()
        .copied()
        .chain(["echo '__RESULT__ {\"a\": 1}'"])
        .collect();
    sb.arx()
        .args(&args)
        .assert()
        .code(2)
        .stderr(contains("symbolic link"));
    let mut names: Vec<_> = std::fs::read_dir(sb.path().join("outside"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["victim"]);
}

#[test]
fn init_refuses_a_symlinked_gitattributes() {
    let sb = sandbox();
    sb.git_init(".");
    link(&sb, "outside/victim", ".gitattributes");
    sb.arx()
        .arg("init")
        .assert()
        .code(2)
        .stderr(contains(".gitattributes"))
        .stderr(contains("symbolic link"));
    assert_eq!(victim(&sb), "precious\nno newline at the end");
}

#[test]
fn init_refuses_a_symlinked_state_gitignore() {
    let sb = Sandbox::new();
    sb.git_init(".");
    let outside = sb.write("outside.txt", "mine\n");
    std::fs::create_dir_all(sb.path().join(".arx")).unwrap();
    std::os::unix::fs::symlink(&outside, sb.path().join(".arx/.gitignore")).unwrap();
    sb.arx()
        .arg("init")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("symbolic link"));
    assert_eq!(sb.read("outside.txt"), "mine\n");
}
