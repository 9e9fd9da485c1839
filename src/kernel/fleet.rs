//! The fleet's rules, pure: its settings (`[fleet]`), a machine's name,
//! the one order of a journal merged from every machine's records (the
//! same on every machine, each record after the keep it was measured
//! against), and the card each machine publishes (its class, when it was
//! last seen, what it is trying, a keep it holds until the remote answers).

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::journal::{dedupe, RunRecord};
use super::ratchet_record::TryStatus;

/// `[fleet]` as written; the host fills what is left out.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// The git remote's name (`git remote`), as this clone knows it.
    pub remote: String,
    /// The best's branch on the remote (default: the current branch).
    pub branch: Option<String>,
    /// This machine's name (default: the host name).
    pub machine: Option<String>,
    /// This machine's hardware class (default: its GPU or CPU model).
    pub class: Option<String>,
    /// How many classes must find a keep better before it is the fleet's.
    pub confirm_classes: Option<u32>,
    /// How long a claim on an idea holds without being renewed, in
    /// seconds (`lease = "15m"`; default [`DEFAULT_LEASE_SECS`]).
    pub lease_secs: u64,
    /// Keeps that lost the race confirmed together, at most this many in
    /// one batch (`batch = N`, 2 to [`BATCH_MAX`]; `None`: off).
    pub batch: Option<u32>,
}

/// The most keeps one batch holds.
pub const BATCH_MAX: u64 = 16;

/// The confidence a keep that lost the race must win at to wait in the
/// merge queue. A keep that waits is not measured again on its own: the
/// batch's confirmation is carried by its members together, so a null
/// change that won its own test at 0.95 would ride on the others' real
/// gains. At 0.99 the simulation's batched fleet keeps fewer false keeps
/// per true keep than one machine, at 16 and at 100 machines.
pub const QUEUE_CONFIDENCE: f64 = 0.99;

/// The confidence a keep must win at to wait in the queue, for an
/// objective decided at `objective`: the queue's, or the objective's when
/// that is stricter.
pub fn queue_confidence(objective: f64) -> f64 {
    QUEUE_CONFIDENCE.max(objective)
}

/// A claim's lease when `[fleet]` names none: 15 minutes.
pub const DEFAULT_LEASE_SECS: u64 = 15 * 60;

/// Read `[fleet]` (as JSON); errors name the key.
pub fn settings(table: &Value) -> Result<Settings, String> {
    let Some(t) = table.as_object() else {
        return Err("[fleet] must be a table".into());
    };
    for key in t.keys() {
        if ![
            "remote",
            "branch",
            "machine",
            "class",
            "confirm_classes",
            "lease",
            "batch",
        ]
        .contains(&key.as_str())
        {
            return Err(format!(
                "[fleet] has an unknown key {key:?} (known: remote, branch, machine, class, confirm_classes, lease, batch)"
            ));
        }
    }
    let text = |key: &str| -> Result<Option<String>, String> {
        match t.get(key) {
            None => Ok(None),
            Some(Value::String(s)) if !s.trim().is_empty() => Ok(Some(s.trim().to_string())),
            Some(other) => Err(format!("fleet.{key} = {other} is not a non-empty string")),
        }
    };
    let remote = text("remote")?.ok_or("[fleet] needs remote = \"NAME\" (a git remote)")?;
    let confirm_classes = match t.get("confirm_classes") {
        None => None,
        Some(v) => match v.as_u64().filter(|n| (1..=64).contains(n)) {
            Some(n) => Some(n as u32),
            None => {
                return Err(format!(
                    "fleet.confirm_classes = {v} is not a whole number from 1 to 64"
                ))
            }
        },
    };
    let batch = match t.get("batch") {
        None | Some(Value::Bool(false)) => None,
        Some(v) => match v.as_u64().filter(|n| (2..=BATCH_MAX).contains(n)) {
            Some(n) => Some(n as u32),
            None => {
                return Err(format!(
                    "fleet.batch = {v} is not a whole number from 2 to {BATCH_MAX} (or false)"
                ))
            }
        },
    };
    let machine = text("machine")?;
    if let Some(m) = &machine {
        check_machine(m)?;
    }
    Ok(Settings {
        remote,
        branch: text("branch")?,
        machine,
        class: text("class")?.map(|c| class_name(&c)),
        confirm_classes,
        lease_secs: match text("lease")? {
            None => DEFAULT_LEASE_SECS,
            Some(l) => lease_secs(&l)?,
        },
        batch,
    })
}

/// A lease's length as written (`90s`, `15m`, `1h`): from 10 seconds to a
/// day.
pub fn lease_secs(text: &str) -> Result<u64, String> {
    let d: jiff::SignedDuration = text
        .parse()
        .map_err(|e: jiff::Error| format!("fleet.lease = {text:?} is not a duration: {e}"))?;
    let secs = d.as_secs();
    if !(10..=86_400).contains(&secs) {
        return Err(format!(
            "fleet.lease = {text:?} must be from 10s to 24h (such as \"15m\")"
        ));
    }
    Ok(secs as u64)
}

/// A claim on an idea: which machine tries it, until when (RFC 3339)
/// unless it renews the lease.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Lease {
    pub idea: String,
    pub machine: String,
    pub expires: String,
    /// The lane of that machine that holds it (none: its main working
    /// tree): a machine's lanes hold their claims apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lane: Option<String>,
}

/// Who holds a lease, as messages name it: the machine, or `machine/lane`.
pub fn holder(lease: &Lease) -> String {
    match &lease.lane {
        Some(lane) => format!("{}/{lane}", lease.machine),
        None => lease.machine.clone(),
    }
}

/// `now` plus `secs`, as RFC 3339 UTC (`None`: `now` is not a time).
pub fn lease_until(now: &str, secs: u64) -> Option<String> {
    let t: jiff::Timestamp = now.parse().ok()?;
    let until = t
        .checked_add(jiff::SignedDuration::from_secs(secs as i64))
        .ok()?;
    Some(until.round(jiff::Unit::Second).ok()?.to_string())
}

/// A lease is expired once `now` reaches its expiry; a lease whose expiry
/// cannot be read is expired (nobody could renew it in time).
pub fn expired(lease: &Lease, now: &str) -> bool {
    match (
        lease.expires.parse::<jiff::Timestamp>(),
        now.parse::<jiff::Timestamp>(),
    ) {
        (Ok(until), Ok(now)) => now >= until,
        (Err(_), _) => true,
        (_, Err(_)) => false,
    }
}

/// What a machine may do with an idea's claim as it stands on the remote.
#[derive(Debug, Clone, PartialEq)]
pub enum Claim {
    /// No claim: create it (a push that expects the ref absent).
    Create,
    /// This machine's own claim: renew its lease (a push that expects it).
    Renew,
    /// Another machine's lease expired: take it over (a push that expects
    /// the expired claim, so that only one machine takes it over).
    TakeOver { from: String },
    /// Another machine holds it until its lease expires.
    Held { by: String, until: String },
}

/// Which claim wins: absent or expired, the asker's; live, its holder's.
pub fn claim(held: Option<&Lease>, machine: &str, now: &str) -> Claim {
    claim_in_lane(held, (machine, None), now)
}

/// [`claim`] by the lane `lane` of `machine` (`None`: its main working
/// tree): a claim is its own only when both are the same.
pub fn claim_in_lane(
    held: Option<&Lease>,
    (machine, lane): (&str, Option<&str>),
    now: &str,
) -> Claim {
    match held {
        None => Claim::Create,
        Some(l) if l.machine == machine && l.lane.as_deref() == lane => Claim::Renew,
        Some(l) if expired(l, now) => Claim::TakeOver { from: holder(l) },
        Some(l) => Claim::Held {
            by: holder(l),
            until: l.expires.clone(),
        },
    }
}

/// An idea's id made a ref's last part: as it is when a ref can hold it,
/// else `x-` and its bytes in hex.
pub fn claim_name(idea: &str) -> String {
    if check_machine(idea).is_ok() && !idea.starts_with("x-") && idea != "records" {
        idea.to_string()
    } else {
        let hex: String = idea.bytes().map(|b| format!("{b:02x}")).collect();
        format!("x-{hex}")
    }
}

/// A machine's name is part of a ref name: letters, digits, `.`, `_`, `-`,
/// up to 64, starting with a letter or digit.
pub fn check_machine(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && !name.ends_with('.')
        && !name.ends_with(".lock")
        && !name.contains("..");
    if ok {
        Ok(())
    } else {
        Err(format!(
            "invalid machine name {name:?}: use up to 64 letters, digits, '.', '_' or '-'"
        ))
    }
}

/// A host's name made a machine's name: what a ref cannot hold becomes
/// `-`.
pub fn machine_from_host(host: &str) -> String {
    let mut name: String = host
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .take(64)
        .collect();
    name = name.trim_matches('-').to_string();
    if name.is_empty() {
        "machine".into()
    } else {
        name
    }
}

/// A hardware class as people read it: one line, spaces collapsed.
pub fn class_name(raw: &str) -> String {
    raw.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The class `nvidia-smi --query-gpu=name` names (its first GPU), else
/// the CPU model of `/proc/cpuinfo`'s text, else `unknown`.
pub fn class_of(gpus: Option<&str>, cpuinfo: Option<&str>) -> String {
    if let Some(first) = gpus.and_then(|t| t.lines().map(str::trim).find(|l| !l.is_empty())) {
        return class_name(first);
    }
    let model = cpuinfo.and_then(|t| {
        t.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            matches!(k.trim(), "model name" | "Model" | "cpu model")
                .then(|| v.trim())
                .filter(|v| !v.is_empty())
        })
    });
    model.map_or_else(|| "unknown".into(), class_name)
}

/// What a machine publishes of itself with its records.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Card {
    pub machine: String,
    pub class: String,
    /// When it last synced (RFC 3339).
    pub seen: String,
    /// What its running try tests (a description or an idea), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trying: Option<String>,
    /// A keep made while the remote did not answer, not yet pushed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<String>,
    /// What each of its working trees tries (its main working tree and
    /// each lane), by lane: one machine runs several tries at once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tries: Vec<Trying>,
}

/// A try running in one working tree of a machine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trying {
    /// Its lane (`None`: the machine's main working tree).
    pub lane: Option<String>,
    /// What it tests (a description or an idea).
    pub trying: String,
    /// Since when (its sync, RFC 3339).
    pub since: String,
}

/// A machine's tries after a sync of the working tree `lane` (`None`: the
/// main one), which tries `trying` (`None`: nothing now): its entry
/// replaced, the other working trees' entries (from the card the remote
/// holds) kept, by lane.
pub fn tries_now(
    before: &[Trying],
    lane: Option<&str>,
    trying: Option<&str>,
    now: &str,
) -> Vec<Trying> {
    let mut out: Vec<Trying> = before
        .iter()
        .filter(|t| t.lane.as_deref() != lane)
        .cloned()
        .collect();
    if let Some(what) = trying {
        out.push(Trying {
            lane: lane.map(str::to_string),
            trying: what.to_string(),
            since: now.to_string(),
        });
    }
    out.sort_by(|a, b| a.lane.cmp(&b.lane));
    out
}

/// Every machine's records merged into one journal: one record per run
/// id, by start time then run id (as `arx journal merge` orders them),
/// except that a try measured against a keep comes after that keep (a
/// keep replayed onto another machine's keep may have started before
/// it). The same records give the same journal on every machine.
pub fn merged(records: Vec<RunRecord>) -> Vec<RunRecord> {
    let sorted = dedupe(records);
    let keeps: HashSet<String> = sorted.iter().filter_map(keep_commit).collect();
    // The last baseline of each commit: a keep from that commit comes
    // after it (a machine that measured the best as its baseline while
    // another kept must not put the older best back).
    let mut baselines: HashMap<String, String> = HashMap::new();
    for r in &sorted {
        if let Some(i) = r
            .ratchet
            .as_ref()
            .filter(|i| i.status == TryStatus::Baseline)
        {
            baselines.insert(i.kept.clone(), r.run_id.clone());
        }
    }
    let mut order = Order {
        keeps,
        baselines,
        placed: HashSet::new(),
        waiting: HashMap::new(),
        out: Vec::with_capacity(sorted.len()),
    };
    for r in sorted {
        order.place(r);
    }
    // Nothing waits for what is never placed; what a cycle could leave
    // goes last, in the order it came.
    let rest: Vec<RunRecord> = order.waiting.into_values().flatten().collect();
    order.out.extend(dedupe(rest));
    order.out
}

/// The commit a keep's record made the best (`None`: not a keep, or a
/// keep that changed nothing).
pub fn keep_commit(r: &RunRecord) -> Option<String> {
    let i = r.ratchet.as_ref()?;
    (i.status == TryStatus::Keep)
        .then(|| i.commit.clone())
        .flatten()
        .filter(|c| *c != i.kept)
}

struct Order {
    keeps: HashSet<String>,
    baselines: HashMap<String, String>,
    /// What is placed: `c:COMMIT` for a keep, `b:RUN` for a baseline.
    placed: HashSet<String>,
    waiting: HashMap<String, Vec<RunRecord>>,
    out: Vec<RunRecord>,
}

impl Order {
    /// What `r` must come after and is not placed yet.
    fn unmet(&self, r: &RunRecord) -> Option<String> {
        let i = r.ratchet.as_ref()?;
        let own = keep_commit(r);
        let keep = format!("c:{}", i.kept);
        if self.keeps.contains(&i.kept)
            && !self.placed.contains(&keep)
            && own.as_ref() != Some(&i.kept)
        {
            return Some(keep);
        }
        if own.is_some() {
            if let Some(run) = self.baselines.get(&i.kept).filter(|run| **run != r.run_id) {
                let token = format!("b:{run}");
                if !self.placed.contains(&token) {
                    return Some(token);
                }
            }
        }
        None
    }

    fn place(&mut self, r: RunRecord) {
        if let Some(token) = self.unmet(&r) {
            self.waiting.entry(token).or_default().push(r);
            return;
        }
        let token = match r.ratchet.as_ref() {
            Some(i) if i.status == TryStatus::Baseline => Some(format!("b:{}", r.run_id)),
            _ => keep_commit(&r).map(|c| format!("c:{c}")),
        };
        self.out.push(r);
        if let Some(t) = token {
            self.placed.insert(t.clone());
            for w in self.waiting.remove(&t).unwrap_or_default() {
                self.place(w);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_keep_waits_in_the_queue_only_when_it_wins_at_0_99_or_stricter() {
        // At the default objective (0.95) a keep that lost the race must
        // also win at 0.99 to wait; a stricter objective's own holds.
        assert_eq!(queue_confidence(0.95), 0.99);
        assert_eq!(queue_confidence(0.85), 0.99);
        assert_eq!(queue_confidence(0.995), 0.995);
    }

    #[test]
    fn each_working_tree_of_a_machine_has_its_own_try_on_the_card() {
        let t = |lane: Option<&str>, what: &str| Trying {
            lane: lane.map(str::to_string),
            trying: what.into(),
            since: "t".into(),
        };
        let one = tries_now(&[], Some("b"), Some("wider"), "t");
        assert_eq!(one, [t(Some("b"), "wider")]);
        // Another lane's sync keeps lane b's try; the main tree's too.
        let two = tries_now(&one, Some("a"), Some("deeper"), "t");
        assert_eq!(two, [t(Some("a"), "deeper"), t(Some("b"), "wider")]);
        let three = tries_now(&two, None, Some("lr"), "t");
        assert_eq!(three.len(), 3);
        assert_eq!(three[0], t(None, "lr"));
        // A lane's next try replaces its entry; its end removes it.
        let next = tries_now(&three, Some("b"), Some("narrower"), "t");
        assert_eq!(next[2], t(Some("b"), "narrower"));
        let done = tries_now(&next, Some("b"), None, "t");
        assert_eq!(done, [t(None, "lr"), t(Some("a"), "deeper")]);
    }

    fn lease(machine: &str, expires: &str) -> Lease {
        Lease {
            idea: "i1".into(),
            machine: machine.into(),
            expires: expires.into(),
            lane: None,
        }
    }

    #[test]
    fn a_lease_expires_at_its_time() {
        let l = lease("a", "2026-01-01T00:15:00Z");
        assert!(!expired(&l, "2026-01-01T00:14:59Z"));
        assert!(expired(&l, "2026-01-01T00:15:00Z"));
        assert!(expired(&l, "2026-01-01T01:15:00+01:00"));
        assert!(!expired(&l, "2026-01-01T01:00:00+01:00"));
        assert!(expired(&lease("a", "not a time"), "2026-01-01T00:00:00Z"));
        assert_eq!(
            lease_until("2026-01-01T00:00:00Z", 900).as_deref(),
            Some("2026-01-01T00:15:00Z")
        );
        assert_eq!(lease_until("yesterday", 900), None);
    }

    #[test]
    fn a_live_claim_wins_an_expired_one_is_taken_over() {
        let now = "2026-01-01T00:10:00Z";
        assert_eq!(claim(None, "a", now), Claim::Create);
        let live = lease("b", "2026-01-01T00:15:00Z");
        assert_eq!(claim(Some(&live), "b", now), Claim::Renew);
        assert_eq!(
            claim(Some(&live), "a", now),
            Claim::Held {
                by: "b".into(),
                until: "2026-01-01T00:15:00Z".into()
            }
        );
        let dead = lease("b", "2026-01-01T00:05:00Z");
        assert_eq!(
            claim(Some(&dead), "a", now),
            Claim::TakeOver { from: "b".into() }
        );
        // Its own expired lease a machine renews.
        assert_eq!(claim(Some(&dead), "b", now), Claim::Renew);
    }

    #[test]
    fn a_lanes_claim_is_its_own_not_its_machines() {
        let now = "2026-01-01T00:10:00Z";
        let live = Lease {
            lane: Some("l1".into()),
            ..lease("b", "2026-01-01T00:15:00Z")
        };
        assert_eq!(
            claim_in_lane(Some(&live), ("b", Some("l1")), now),
            Claim::Renew
        );
        let held = Claim::Held {
            by: "b/l1".into(),
            until: "2026-01-01T00:15:00Z".into(),
        };
        assert_eq!(claim_in_lane(Some(&live), ("b", Some("l2")), now), held);
        assert_eq!(claim(Some(&live), "b", now), held);
        let mine = lease("b", "2026-01-01T00:15:00Z");
        assert!(matches!(
            claim_in_lane(Some(&mine), ("b", Some("l1")), now),
            Claim::Held { .. }
        ));
        let dead = Lease {
            expires: "2026-01-01T00:05:00Z".into(),
            ..live
        };
        assert_eq!(
            claim_in_lane(Some(&dead), ("b", Some("l2")), now),
            Claim::TakeOver {
                from: "b/l1".into()
            }
        );
    }

    #[test]
    fn lease_settings_and_claim_names() {
        let s = settings(&serde_json::json!({"remote": "origin"})).unwrap();
        assert_eq!(s.lease_secs, DEFAULT_LEASE_SECS);
        let s = settings(&serde_json::json!({"remote": "origin", "lease": "2m"})).unwrap();
        assert_eq!(s.lease_secs, 120);
        assert!(settings(&serde_json::json!({"remote": "o", "lease": "1s"})).is_err());
        assert!(settings(&serde_json::json!({"remote": "o", "lease": "soon"})).is_err());
        assert_eq!(claim_name("i-12"), "i-12");
        assert_eq!(claim_name("a b"), "x-612062");
        assert_eq!(claim_name("x-1"), "x-782d31");
    }
    use crate::kernel::ratchet_record::RatchetInfo;

    #[test]
    fn a_baseline_measured_while_another_machine_kept_does_not_put_the_old_best_back() {
        let a = rec("a", "2026-01-01T00:00:00Z", TryStatus::Baseline, "c0", None);
        let k = rec(
            "k",
            "2026-01-01T00:01:00Z",
            TryStatus::Keep,
            "c0",
            Some("k1"),
        );
        // b's baseline of c0 started after k (it had not seen k yet).
        let b = rec("b", "2026-01-01T00:02:00Z", TryStatus::Baseline, "c0", None);
        let d = rec("d", "2026-01-01T00:03:00Z", TryStatus::Discard, "k1", None);
        let one = merged(vec![d.clone(), b.clone(), k.clone(), a.clone()]);
        let ids: Vec<&str> = one.iter().map(|r| r.run_id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "k", "d"]);
        assert_eq!(one, merged(vec![a, k, b, d]));
    }

    fn rec(
        id: &str,
        started: &str,
        status: TryStatus,
        kept: &str,
        commit: Option<&str>,
    ) -> RunRecord {
        let mut r: RunRecord = serde_json::from_value(serde_json::json!({
            "run_id": id, "started_at": started, "ended_at": started, "duration_ms": 0,
            "command": ["x"], "cwd": "/", "metrics": {}, "exit_code": 0, "timed_out": false,
            "failure_class": "none"
        }))
        .unwrap();
        let mut i = RatchetInfo::new(
            "s".into(),
            status,
            "m".into(),
            crate::kernel::stats::Direction::Max,
            "mean".into(),
            kept.into(),
        );
        i.commit = commit.map(str::to_string);
        r.ratchet = Some(i);
        r
    }

    #[test]
    fn a_keep_that_started_first_but_was_replayed_comes_after_the_keep_it_replaced() {
        let a = rec("a", "2026-01-01T00:00:00Z", TryStatus::Baseline, "c0", None);
        // b started first, lost the race, was replayed onto c's keep.
        let b = rec(
            "b",
            "2026-01-01T00:01:00Z",
            TryStatus::Keep,
            "k1",
            Some("k2"),
        );
        let c = rec(
            "c",
            "2026-01-01T00:02:00Z",
            TryStatus::Keep,
            "c0",
            Some("k1"),
        );
        let d = rec("d", "2026-01-01T00:01:30Z", TryStatus::Discard, "k2", None);
        let one = merged(vec![d.clone(), c.clone(), b.clone(), a.clone()]);
        let two = merged(vec![a, b, c, d]);
        let ids: Vec<&str> = one.iter().map(|r| r.run_id.as_str()).collect();
        assert_eq!(ids, ["a", "c", "b", "d"]);
        assert_eq!(one, two);
    }

    #[test]
    fn settings_name_the_key_that_is_wrong() {
        let ok =
            settings(&serde_json::json!({"remote": "origin", "class": " A100   80GB "})).unwrap();
        assert_eq!(ok.remote, "origin");
        assert_eq!(ok.class.as_deref(), Some("A100 80GB"));
        assert!(settings(&serde_json::json!({}))
            .unwrap_err()
            .contains("remote"));
        assert!(settings(&serde_json::json!({"remote": "o", "machin": "x"}))
            .unwrap_err()
            .contains("machin"));
        assert!(
            settings(&serde_json::json!({"remote": "o", "machine": "a/b"}))
                .unwrap_err()
                .contains("a/b")
        );
        assert!(
            settings(&serde_json::json!({"remote": "o", "confirm_classes": 0}))
                .unwrap_err()
                .contains("confirm_classes")
        );
        assert_eq!(ok.batch, None);
        let batched = settings(&serde_json::json!({"remote": "o", "batch": 4})).unwrap();
        assert_eq!(batched.batch, Some(4));
        for bad in [
            serde_json::json!(1),
            serde_json::json!(17),
            serde_json::json!("4"),
        ] {
            assert!(settings(&serde_json::json!({"remote": "o", "batch": bad}))
                .unwrap_err()
                .contains("fleet.batch"));
        }
    }

    #[test]
    fn the_class_is_the_first_gpu_else_the_cpu_model() {
        assert_eq!(
            class_of(Some("NVIDIA H100 80GB HBM3\nNVIDIA H100 80GB HBM3\n"), None),
            "NVIDIA H100 80GB HBM3"
        );
        let cpu = "processor\t: 0\nmodel name\t: AMD EPYC  7763 64-Core Processor\n";
        assert_eq!(
            class_of(Some("  \n"), Some(cpu)),
            "AMD EPYC 7763 64-Core Processor"
        );
        assert_eq!(class_of(None, None), "unknown");
        assert_eq!(machine_from_host("box.example.org"), "box-example-org");
    }
}
