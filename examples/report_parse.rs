//! The report's reader of journal lines (a walk over the text, serde for
//! anything else) beside serde alone, on the same journal, in one run: each
//! side parses every line on one thread, sides alternating, and the median
//! of the repetitions is reported with their ratio. Both sides must read
//! every line the same, or it fails.
//!
//! ```sh
//! cargo run --release --example report_journal -- 200000 /tmp/j.jsonl
//! cargo run --release --example report_parse -- /tmp/j.jsonl [REPS]
//! ```

use std::time::{Duration, Instant};

use arx::kernel::report::{parse_line, parse_line_by_serde, Point};

fn time<'a>(lines: &[&'a [u8]], read: fn(&'a [u8]) -> Option<Point<'a>>) -> (Duration, usize) {
    let start = Instant::now();
    let read_lines = lines.iter().filter_map(|l| read(l)).count();
    (start.elapsed(), read_lines)
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).map_or("journal.jsonl", String::as_str);
    let reps: usize = args.get(2).map_or(Ok(3), |s| s.parse())?;
    let bytes = std::fs::read(path)?;
    let lines: Vec<&[u8]> = bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    for (i, l) in lines.iter().enumerate() {
        anyhow::ensure!(
            parse_line(l) == parse_line_by_serde(l),
            "line {} is read otherwise by the two",
            i + 1
        );
    }
    let (mut walk, mut serde) = (Vec::new(), Vec::new());
    for _ in 0..reps {
        let (t, n) = time(&lines, parse_line);
        walk.push(t);
        let (u, m) = time(&lines, parse_line_by_serde);
        serde.push(u);
        anyhow::ensure!(n == m, "{n} against {m} lines read");
    }
    let (w, s) = (median(walk), median(serde));
    let mb = bytes.len() as f64 / 1e6;
    println!(
        "{} lines, {mb:.0} MB, median of {reps}, one thread",
        lines.len()
    );
    println!(
        "walk and serde   {:>8.3} s  {:>6.0} MB/s",
        w.as_secs_f64(),
        mb / w.as_secs_f64()
    );
    println!(
        "serde alone      {:>8.3} s  {:>6.0} MB/s",
        s.as_secs_f64(),
        mb / s.as_secs_f64()
    );
    println!(
        "serde alone / walk: {:.2}",
        s.as_secs_f64() / w.as_secs_f64()
    );
    Ok(())
}
