//! A format-neutral table: columns with a header and an alignment, and rows
//! of cells as text. The tabular formats (Markdown, CSV, TSV) draw it.

/// How the cells of a column line up, where the format can say so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Align {
    #[default]
    Left,
    Right,
}

/// A column: its header and alignment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    pub header: String,
    pub align: Align,
}

impl Column {
    /// A column of text, aligned left.
    pub fn text(header: impl Into<String>) -> Self {
        Column {
            header: header.into(),
            align: Align::Left,
        }
    }

    /// A column of numbers, aligned right.
    pub fn number(header: impl Into<String>) -> Self {
        Column {
            header: header.into(),
            align: Align::Right,
        }
    }
}

/// Columns and rows; every row has one cell per column.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Table {
    columns: Vec<Column>,
    rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(columns: impl IntoIterator<Item = Column>) -> Self {
        Table {
            columns: columns.into_iter().collect(),
            rows: Vec::new(),
        }
    }

    /// Add a row; a short row is padded with empty cells.
    ///
    /// # Panics
    /// If the row has more cells than the table has columns.
    pub fn push<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) {
        let mut row: Vec<String> = cells.into_iter().map(Into::into).collect();
        assert!(
            row.len() <= self.columns.len(),
            "a row of {} cells in a table of {} columns",
            row.len(),
            self.columns.len()
        );
        row.resize(self.columns.len(), String::new());
        self.rows.push(row);
    }

    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// Keep only the last `n` rows.
    pub fn keep_last(&mut self, n: usize) {
        let drop = self.rows.len().saturating_sub(n);
        self.rows.drain(..drop);
    }

    pub fn rows(&self) -> &[Vec<String>] {
        &self.rows
    }
}
