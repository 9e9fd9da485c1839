//! Where and how an experiment runs: its slot (`[objective] slots`,
//! `slot_env`) and its launcher (`[objective] launcher`, `--launcher`).
//! Values in, values out: the settings read from the config, the command
//! line a run is started with, the job name it carries.

use serde_json::Value;

/// How experiments of a repository are placed: at most `slots.len()` run
/// at once, each with its slot's value in `slot_env`, each started through
/// `launcher` (empty: directly).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Placement {
    /// The value of each slot (`slots = 4` is `["0", "1", "2", "3"]`).
    /// Empty: no limit.
    pub slots: Vec<String>,
    /// The variable that carries the running experiment's slot value.
    pub slot_env: Option<String>,
    /// Program and arguments the experiment's command is appended to.
    pub launcher: Vec<String>,
}

/// A placement and the state directory holding the slot locks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub placement: Placement,
    pub state: std::path::PathBuf,
}

impl Placement {
    /// Nothing to do: no slots and no launcher.
    pub fn is_plain(&self) -> bool {
        self.slots.is_empty() && self.launcher.is_empty()
    }

    /// Is the launcher Slurm's `srun` (its program's file name)?
    pub fn is_srun(&self) -> bool {
        self.launcher
            .first()
            .and_then(|p| p.rsplit('/').next())
            .is_some_and(|name| name == "srun")
    }
}

/// `slots = N` (N ≥ 1; the values are `0` … `N-1`) or a non-empty list of
/// distinct strings (or integers). `Err` says what is wrong.
pub fn parse_slots(value: &Value) -> Result<Vec<String>, String> {
    match value {
        Value::Number(n) => match n.as_u64() {
            Some(0) => Err("slots = 0 lets no experiment run".into()),
            Some(n) if n <= 4096 => Ok((0..n).map(|i| i.to_string()).collect()),
            _ => Err(format!("slots = {n} is not a count from 1 to 4096")),
        },
        Value::Array(items) => {
            if items.is_empty() {
                return Err("slots = [] lets no experiment run".into());
            }
            let mut values = Vec::with_capacity(items.len());
            for item in items {
                let v = match item {
                    Value::String(s) if !s.is_empty() => s.clone(),
                    Value::Number(n) if n.is_u64() => n.to_string(),
                    other => return Err(format!("slot value {other} is not a non-empty string")),
                };
                if values.contains(&v) {
                    return Err(format!("slot value {v:?} is listed twice"));
                }
                values.push(v);
            }
            Ok(values)
        }
        other => Err(format!(
            "slots = {other} is neither a count nor a list of slot values"
        )),
    }
}

/// `launcher = ["srun", "--gres=gpu:1", "--"]`: a non-empty list of
/// strings, whose program is not empty and which does not name the job
/// itself (arx names each job after its run).
pub fn parse_launcher(value: &Value) -> Result<Vec<String>, String> {
    let Value::Array(items) = value else {
        return Err(format!(
            "launcher = {value} is not a list (program and arguments)"
        ));
    };
    let argv: Vec<String> = items
        .iter()
        .map(|v| match v {
            Value::String(s) => Ok(s.clone()),
            other => Err(format!("launcher argument {other} is not a string")),
        })
        .collect::<Result<_, _>>()?;
    check_launcher(argv)
}

/// `--launcher 'srun --gres=gpu:1 --'`: split at whitespace.
pub fn split_launcher(text: &str) -> Result<Vec<String>, String> {
    check_launcher(text.split_whitespace().map(str::to_string).collect())
}

fn check_launcher(argv: Vec<String>) -> Result<Vec<String>, String> {
    match argv.first() {
        None => return Err("the launcher is empty".into()),
        Some(p) if p.trim().is_empty() => return Err("the launcher's program is empty".into()),
        Some(_) => {}
    }
    if let Some(a) = argv[1..].iter().take_while(|a| *a != "--").find(|a| {
        a.as_str() == "-J" || a.starts_with("--job-name") || (a.starts_with("-J") && a.len() > 2)
    }) {
        return Err(format!(
            "the launcher names the job ({a}): arx names each job arx-<run id>"
        ));
    }
    Ok(argv)
}

/// The job name of run `run_id`: `arx-<run id>`.
pub fn job_name(run_id: &str) -> String {
    format!("arx-{run_id}")
}

/// The command line that starts `command` (with `shell`, one shell command
/// line run by `/bin/sh -c`) through the launcher. With `srun`, the job's
/// name `--job-name=arx-<run id>` follows the program at once, before the
/// launcher's own arguments. Without a launcher: `None` (run as given).
pub fn launch_argv(
    placement: &Placement,
    run_id: &str,
    command: &[String],
    shell: bool,
) -> Option<Vec<String>> {
    let (program, args) = placement.launcher.split_first()?;
    let mut argv = vec![program.clone()];
    if placement.is_srun() {
        argv.push(format!("--job-name={}", job_name(run_id)));
    }
    argv.extend(args.iter().cloned());
    if shell {
        argv.extend(["/bin/sh".to_string(), "-c".to_string(), command.join(" ")]);
    } else {
        argv.extend(command.iter().cloned());
    }
    Some(argv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn slots_are_a_count_or_distinct_values() {
        assert_eq!(parse_slots(&json!(3)).unwrap(), s(&["0", "1", "2"]));
        assert_eq!(parse_slots(&json!(["2", 5])).unwrap(), s(&["2", "5"]));
        assert!(parse_slots(&json!(0)).unwrap_err().contains("slots = 0"));
        assert!(parse_slots(&json!([])).is_err());
        assert!(parse_slots(&json!(-1)).is_err());
        assert!(parse_slots(&json!(1.5)).is_err());
        assert!(parse_slots(&json!("4")).is_err());
        assert!(parse_slots(&json!(["1", "1"]))
            .unwrap_err()
            .contains("twice"));
        assert!(parse_slots(&json!([""])).is_err());
    }

    #[test]
    fn a_launcher_is_a_list_that_does_not_name_the_job() {
        assert_eq!(
            parse_launcher(&json!(["srun", "-n1", "--"])).unwrap(),
            s(&["srun", "-n1", "--"])
        );
        assert!(parse_launcher(&json!("srun -n1"))
            .unwrap_err()
            .contains("not a list"));
        assert!(parse_launcher(&json!([])).is_err());
        assert!(parse_launcher(&json!([""])).is_err());
        assert!(parse_launcher(&json!(["srun", 1])).is_err());
        for named in ["--job-name=x", "-J", "-Jx", "--job-name"] {
            assert!(parse_launcher(&json!(["srun", named])).is_err(), "{named}");
        }
        // After `--` an argument is the experiment's, not the launcher's.
        assert!(parse_launcher(&json!(["env", "--", "-J"])).is_ok());
        assert_eq!(split_launcher(" srun  -n1 ").unwrap(), s(&["srun", "-n1"]));
        assert!(split_launcher("  ").is_err());
    }

    #[test]
    fn srun_gets_the_job_name_right_after_its_program() {
        let p = Placement {
            launcher: s(&["/usr/bin/srun", "--time=1", "--"]),
            ..Placement::default()
        };
        assert_eq!(
            launch_argv(&p, "r1", &s(&["python", "t.py"]), false).unwrap(),
            s(&[
                "/usr/bin/srun",
                "--job-name=arx-r1",
                "--time=1",
                "--",
                "python",
                "t.py"
            ])
        );
        assert_eq!(
            launch_argv(&p, "r1", &s(&["echo a", "&& b"]), true).unwrap()[4..],
            s(&["/bin/sh", "-c", "echo a && b"])
        );
        let other = Placement {
            launcher: s(&["nice", "-n5"]),
            ..Placement::default()
        };
        assert_eq!(
            launch_argv(&other, "r1", &s(&["x"]), false).unwrap(),
            s(&["nice", "-n5", "x"])
        );
        assert!(!other.is_srun());
        assert_eq!(
            launch_argv(&Placement::default(), "r1", &s(&["x"]), false),
            None
        );
    }
}
