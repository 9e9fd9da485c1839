//! Candidate findings from free text (notes, logs, a transcript): greetings,
//! acknowledgements and bare commands skipped, timestamps and log prefixes
//! stripped, lines split into claims, each claim's kind guessed from its
//! wording, duplicates within the text dropped.

use super::index::Index;
use super::text::words;
use super::{Kind, DEDUP_SIMILARITY, MAX_CONTENT_CHARS};

/// A claim found in the text.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Claim {
    pub kind: Kind,
    pub content: String,
    /// 1-based line it came from.
    pub line: usize,
}

/// Fewest words a claim needs.
pub const MIN_WORDS: usize = 3;

const GREETINGS: &[&str] = &[
    "hi",
    "hello",
    "hey",
    "thanks",
    "thank you",
    "thx",
    "ok",
    "okay",
    "sure",
    "yes",
    "no",
    "yep",
    "nope",
    "got it",
    "sounds good",
    "great",
    "cool",
    "nice",
    "perfect",
    "good morning",
    "good night",
    "bye",
    "cheers",
    "will do",
    "done",
    "awesome",
    "understood",
    "right",
    "of course",
    "no problem",
    "you're welcome",
    "great thanks",
    "ok thanks",
    "okay thanks",
    "let me check",
    "let me look",
    "one moment",
    "hold on",
];

const COMMANDS: &[&str] = &[
    "git",
    "cargo",
    "python",
    "python3",
    "pip",
    "uv",
    "ls",
    "cd",
    "cat",
    "rm",
    "cp",
    "mv",
    "mkdir",
    "arx",
    "make",
    "npm",
    "npx",
    "node",
    "bash",
    "sh",
    "sudo",
    "echo",
    "grep",
    "sed",
    "awk",
    "curl",
    "wget",
    "docker",
    "kubectl",
    "pytest",
    "torchrun",
    "export",
    "source",
    "tail",
    "head",
    "less",
    "vim",
    "nano",
    "find",
    "chmod",
    "ssh",
    "scp",
    "rsync",
    "tar",
    "conda",
    "nvidia-smi",
];

const SPEAKERS: &[&str] = &[
    "user",
    "assistant",
    "human",
    "ai",
    "agent",
    "system",
    "me",
    "bot",
    "note",
    "notes",
    "log",
];

const LEVELS: &[&str] = &[
    "trace", "debug", "info", "notice", "warn", "warning", "error", "err", "fatal", "critical",
];

/// The claims of `text`, in order, duplicates (similarity at least
/// [`DEDUP_SIMILARITY`]) dropped.
pub fn extract(text: &str) -> Vec<Claim> {
    let mut claims = Vec::new();
    let mut in_code = false;
    for (n, raw) in text.lines().enumerate() {
        let t = raw.trim();
        if t.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let line = strip_prefixes(t);
        if line.is_empty() || is_bare_command(t) || is_bare_command(&line) {
            continue;
        }
        for sentence in split_claims(&line) {
            let s = sentence
                .trim()
                .trim_start_matches(['-', '*', '•', '>'])
                .trim();
            if s.is_empty() || is_small_talk(s) || is_bare_command(s) {
                continue;
            }
            if words(s).len() < MIN_WORDS || s.chars().count() > MAX_CONTENT_CHARS {
                continue;
            }
            let (kind, content) = kind_of(s);
            if words(&content).len() < MIN_WORDS {
                continue;
            }
            claims.push(Claim {
                kind,
                content,
                line: n + 1,
            });
        }
    }
    dedupe(claims)
}

fn dedupe(claims: Vec<Claim>) -> Vec<Claim> {
    let ix = Index::build(claims.iter().map(|c| c.content.as_str()));
    let mut keep = vec![true; claims.len()];
    let mut scratch = vec![0.0f32; ix.len()];
    let mut hits = Vec::new();
    for d in 0..claims.len() {
        if !keep[d] {
            continue;
        }
        ix.neighbours(d, DEDUP_SIMILARITY, &mut scratch, &mut hits);
        for &(e, _) in &hits {
            if ix.negation(d, e) == 0.0 {
                keep[e] = false;
            }
        }
    }
    claims
        .into_iter()
        .zip(keep)
        .filter_map(|(c, k)| k.then_some(c))
        .collect()
}

/// Strip leading timestamps, bracketed tags, log levels, speaker labels and
/// list markers, repeatedly.
pub fn strip_prefixes(line: &str) -> String {
    let mut s = line.trim().to_string();
    loop {
        let before = s.clone();
        s = s
            .trim_start_matches(['-', '*', '•', '>', '#', '|'])
            .trim_start()
            .to_string();
        // [anything short] or (anything short) at the start.
        for (open, close) in [('[', ']'), ('(', ')'), ('<', '>')] {
            if s.starts_with(open) {
                if let Some(end) = s.find(close) {
                    if end <= 40 {
                        s = s[end + close.len_utf8()..].trim_start().to_string();
                    }
                }
            }
        }
        s = strip_timestamp(&s);
        // "INFO:", "INFO ", "user:", "1." list numbers.
        if let Some((head, rest)) = s.split_once(|c: char| c == ':' || c.is_whitespace()) {
            let h = head.trim_end_matches([':', ']', '|']).to_lowercase();
            let colon = s[head.len()..].starts_with(':');
            if LEVELS.contains(&h.as_str()) || (colon && SPEAKERS.contains(&h.as_str())) {
                s = rest.trim_start_matches(':').trim_start().to_string();
            } else if !h.is_empty()
                && h.trim_end_matches(['.', ')'])
                    .chars()
                    .all(|c| c.is_ascii_digit())
                && (h.ends_with('.') || h.ends_with(')'))
            {
                s = rest.trim_start().to_string();
            }
        }
        if s == before {
            return s;
        }
    }
}

/// Strip a leading date and/or time: `2026-01-31`, `2026-01-31T12:00:00Z`,
/// `2026/01/31 12:00:00,123`, `12:00`, `12:00:00.5`.
fn strip_timestamp(s: &str) -> String {
    let b = s.as_bytes();
    let digits = |from: usize, n: usize| {
        b.len() >= from + n && b[from..from + n].iter().all(u8::is_ascii_digit)
    };
    let mut i = 0;
    if digits(0, 4)
        && b.len() > 4
        && (b[4] == b'-' || b[4] == b'/')
        && digits(5, 2)
        && b.get(7) == Some(&b[4])
        && digits(8, 2)
    {
        i = 10;
        if b.get(i).is_some_and(|&c| c == b'T' || c == b' ')
            && digits(i + 1, 2)
            && b.get(i + 3) == Some(&b':')
        {
            i += 1;
        }
    }
    if digits(i, 2) && b.get(i + 2) == Some(&b':') && digits(i + 3, 2) {
        i += 5;
        if b.get(i) == Some(&b':') && digits(i + 1, 2) {
            i += 3;
        }
        if b.get(i).is_some_and(|&c| c == b'.' || c == b',') {
            i += 1;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        if b.get(i) == Some(&b'Z') {
            i += 1;
        } else if b.get(i).is_some_and(|&c| c == b'+' || c == b'-') && digits(i + 1, 2) {
            i += 3;
            if b.get(i) == Some(&b':') {
                i += 1;
            }
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
    }
    if i == 0 {
        return s.to_string();
    }
    s[i..]
        .trim_start_matches([' ', '\t', ',', '|', '-', ':', ']'])
        .trim_start()
        .to_string()
}

/// How an agent narrates its own next step ("Let me check the logs."):
/// not a claim about the experiment.
const NARRATION: &[&str] = &[
    "let me",
    "i'll",
    "i will",
    "i'm going to",
    "i am going to",
    "now i'll",
    "now let me",
    "next i'll",
    "first i'll",
    "i'm now",
    "i am now",
];

fn is_small_talk(s: &str) -> bool {
    let norm = words(s).join(" ");
    if NARRATION.iter().any(|n| norm.starts_with(&format!("{n} "))) {
        return true;
    }
    norm.is_empty()
        || GREETINGS.contains(&norm.as_str())
        || GREETINGS.iter().any(|g| {
            norm.strip_prefix(g)
                .is_some_and(|rest| rest.is_empty() || GREETINGS.contains(&rest.trim()))
        })
}

/// A shell command on its own: `$ cmd`, a known program with arguments, or a
/// line that is only inline code.
fn is_bare_command(s: &str) -> bool {
    let t = s.trim();
    if t.starts_with("$ ")
        || t.starts_with("% ")
        || t.starts_with("# ")
            && t.len() > 2
            && t[2..]
                .split_whitespace()
                .next()
                .is_some_and(|w| COMMANDS.contains(&w))
    {
        return true;
    }
    if t.starts_with('`') && t.ends_with('`') && t.len() > 1 && !t[1..t.len() - 1].contains('`') {
        return true;
    }
    let first = t.split_whitespace().next().unwrap_or("");
    if COMMANDS.contains(&first) {
        // Prose starting with the name ("make sure ...", "find that ...")
        // reads on; a command has flags, paths or no more words.
        let rest: Vec<&str> = t.split_whitespace().skip(1).collect();
        return rest.is_empty()
            || rest.iter().any(|w| {
                w.starts_with('-')
                    || w.contains('/')
                    || w.contains('=')
                    || w.contains('.') && !w.ends_with('.')
            });
    }
    false
}

/// Split a line into claims: at sentence ends (`. `, `! `, `? `, `; `).
fn split_claims(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = line.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        cur.push(c);
        let next = chars.get(i + 1).copied();
        let end = matches!(c, '.' | '!' | '?' | ';') && next.is_none_or(char::is_whitespace);
        if end {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

/// The kind a claim's wording suggests, and the claim with a kind label
/// (`TODO:`, `Decision:`) removed.
pub fn kind_of(s: &str) -> (Kind, String) {
    let t = s.trim().trim_end_matches(';').trim();
    let lower = t.to_lowercase();
    for (label, kind) in [
        ("todo", Kind::Todo),
        ("fixme", Kind::Todo),
        ("next step", Kind::Todo),
        ("next", Kind::Todo),
        ("decision", Kind::Decision),
        ("decided", Kind::Decision),
        ("insight", Kind::Insight),
        ("learned", Kind::Insight),
        ("lesson", Kind::Insight),
        ("hypothesis", Kind::Hypothesis),
        ("idea", Kind::Hypothesis),
        ("question", Kind::Question),
        ("takeaway", Kind::Takeaway),
        ("finding", Kind::Takeaway),
        ("result", Kind::Takeaway),
        ("conclusion", Kind::Takeaway),
    ] {
        if let Some(rest) = lower.strip_prefix(label) {
            if let Some(r) = rest.strip_prefix(':') {
                let cut = t.len() - r.len();
                return (kind, t[cut..].trim().to_string());
            }
        }
    }
    let w = words(&lower);
    let has = |xs: &[&str]| w.iter().any(|x| xs.contains(&x.as_str()));
    let kind = if t.ends_with('?') {
        Kind::Question
    } else if lower.starts_with("we should")
        || lower.starts_with("need to")
        || lower.starts_with("should ")
        || lower.starts_with("try ")
        || has(&["todo"])
    {
        Kind::Todo
    } else if lower.starts_with("we decided")
        || lower.starts_with("we will")
        || lower.starts_with("going with")
        || has(&["decided", "chose"])
    {
        Kind::Decision
    } else if has(&[
        "maybe",
        "might",
        "perhaps",
        "hypothesis",
        "suspect",
        "probably",
    ]) || lower.starts_with("if ")
    {
        Kind::Hypothesis
    } else if has(&[
        "because", "turns", "realized", "learned", "insight", "explains",
    ]) {
        Kind::Insight
    } else {
        Kind::Takeaway
    };
    (kind, t.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcript_noise_is_skipped_and_claims_kept() {
        let text = "\
2026-01-31T12:00:00Z INFO: doubling the LR made val_bpb worse.
[12:01:02] user: thanks!
assistant: Got it
$ python train.py --lr 2e-3
git commit -am wip
```
for i in range(3): print(i)
```
- Batch size 64 improves accuracy. Warmup matters because the loss spikes early.
TODO: try a cosine schedule with restarts
Should we tune dropout on the eval split?
2026-01-31 12:03:04,567 | WARNING | doubling the LR made val_bpb worse
";
        let claims = extract(text);
        let contents: Vec<(&str, Kind)> = claims
            .iter()
            .map(|c| (c.content.as_str(), c.kind))
            .collect();
        assert_eq!(
            contents,
            vec![
                ("doubling the LR made val_bpb worse.", Kind::Takeaway),
                ("Batch size 64 improves accuracy.", Kind::Takeaway),
                (
                    "Warmup matters because the loss spikes early.",
                    Kind::Insight
                ),
                ("try a cosine schedule with restarts", Kind::Todo),
                ("Should we tune dropout on the eval split?", Kind::Question),
            ]
        );
        assert_eq!(claims[0].line, 1);
    }

    #[test]
    fn an_agent_narrating_its_next_step_is_not_a_claim() {
        let claims = extract("assistant: Let me check the training logs.\nI'll run the eval again now.\nThe eval loss plateaus after step 2000.");
        let contents: Vec<&str> = claims.iter().map(|c| c.content.as_str()).collect();
        assert_eq!(contents, ["The eval loss plateaus after step 2000."]);
    }

    #[test]
    fn timestamps_and_prefixes_are_stripped() {
        assert_eq!(
            strip_prefixes("2026-01-31 12:00:00,123 - ERROR - the eval leaks"),
            "the eval leaks"
        );
        assert_eq!(
            strip_prefixes("[worker-3] 12:00 note: the eval leaks"),
            "the eval leaks"
        );
        assert_eq!(strip_prefixes("3. the eval leaks"), "the eval leaks");
        assert_eq!(strip_prefixes("the eval: leaks"), "the eval: leaks");
    }

    #[test]
    fn prose_starting_with_a_program_name_is_kept() {
        assert!(!is_bare_command("make sure the eval seed is fixed"));
        assert!(is_bare_command("make -j4"));
        assert!(is_bare_command("`arx try -m x`"));
    }
}
