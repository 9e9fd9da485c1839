use std::io::{self, Write};

use serde::Serialize;

use super::{Column, Csv, Exporter, Human, Json, Markdown, Ndjson, Table, Tsv};
use crate::output::Report;

fn render<T: ?Sized>(exporter: &dyn Exporter<T>, value: &T) -> String {
    let mut out = Vec::new();
    exporter.export(value, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// A name column and a number column, with one awkward cell per row.
fn table(awkward: &[&str]) -> Table {
    let mut table = Table::new([Column::text("name"), Column::number("ms")]);
    for (i, cell) in awkward.iter().enumerate() {
        table.push([cell.to_string(), format!("{}.5", i + 1)]);
    }
    table
}

#[derive(Serialize)]
struct Point {
    x: i32,
    label: &'static str,
}

impl Report for Point {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "{} at {}", self.label, self.x)
    }
}

#[test]
fn json_is_one_compact_document_and_a_newline() {
    let p = Point {
        x: 1,
        label: "a\u{7f}",
    };
    assert_eq!(render(&Json, &p), "{\"x\":1,\"label\":\"a\u{7f}\"}\n");
}

#[test]
fn ndjson_is_one_document_per_item_and_line() {
    let items = [Point { x: 1, label: "a" }, Point { x: 2, label: "b" }];
    assert_eq!(
        render(&Ndjson, &items[..]),
        "{\"x\":1,\"label\":\"a\"}\n{\"x\":2,\"label\":\"b\"}\n"
    );
    assert_eq!(render(&Ndjson, &items[..0]), "");
}

#[test]
fn human_is_the_report_view() {
    assert_eq!(render(&Human, &Point { x: 3, label: "c" }), "c at 3\n");
}

#[test]
fn markdown_aligns_numbers_right_and_escapes_pipes_breaks_markup_and_controls() {
    let t = table(&[
        "plain",
        "a|b",
        "one\ntwo",
        "x\r\ny\rz",
        "[a](b) *c* <i>&#x202e;",
        "\u{1b}[2J\u{202e}",
    ]);
    assert_eq!(
        render(&Markdown, &t),
        "| name | ms |\n\
         | :--- | ---: |\n\
         | plain | 1.5 |\n\
         | a\\|b | 2.5 |\n\
         | one<br>two | 3.5 |\n\
         | x<br>y<br>z | 4.5 |\n\
         | [a]\\(b) \\*c\\* &lt;i&gt;&amp;#x202e; | 5.5 |\n\
         | \\u{1b}[2J\\u{202e} | 6.5 |\n"
    );
}

#[test]
fn csv_quotes_per_rfc_4180_and_shows_control_characters_by_their_escapes() {
    let t = table(&[
        "plain",
        "a,b",
        "say \"hi\"",
        "one\ntwo",
        "cr\r",
        "'quote'",
        "\u{1b}]0;T\u{7}",
    ]);
    assert_eq!(
        render(&Csv, &t),
        "name,ms\r\n\
         plain,1.5\r\n\
         \"a,b\",2.5\r\n\
         \"say \"\"hi\"\"\",3.5\r\n\
         one\\ntwo,4.5\r\n\
         cr\\r,5.5\r\n\
         'quote',6.5\r\n\
         \\u{1b}]0;T\\u{7},7.5\r\n"
    );
}

#[test]
fn tsv_escapes_tabs_breaks_backslashes_and_control_characters() {
    let t = table(&[
        "plain",
        "a\tb",
        "one\ntwo",
        "x\r\ny",
        "c:\\t",
        "\u{1b}[2J\u{202e}",
    ]);
    assert_eq!(
        render(&Tsv, &t),
        "name\tms\n\
         plain\t1.5\n\
         a\\tb\t2.5\n\
         one\\ntwo\t3.5\n\
         x\\r\\ny\t4.5\n\
         c:\\\\t\t5.5\n\
         \\u{1b}[2J\\u{202e}\t6.5\n"
    );
}

#[test]
fn headers_are_escaped_and_short_rows_padded() {
    let mut t = Table::new([Column::text("a,b"), Column::text("c|d")]);
    t.push(["only"]);
    assert_eq!(render(&Csv, &t), "\"a,b\",c|d\r\nonly,\r\n");
    assert_eq!(
        render(&Markdown, &t),
        "| a,b | c\\|d |\n| :--- | :--- |\n| only |  |\n"
    );
}

#[test]
#[should_panic(expected = "a row of 3 cells in a table of 2 columns")]
fn long_rows_are_refused() {
    table(&[]).push(["a", "b", "c"]);
}
