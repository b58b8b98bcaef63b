//! Rows as columns, written as Parquet, CSV or JSON lines (by the file's
//! extension) and read back from Parquet or JSON lines. A run writes two
//! tables: the games in `FILE`, the cards in `FILE` with `.cards` before the
//! extension (`runs.parquet`, `runs.cards.parquet`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Map, Value};

use super::rows::{CardRow, GameRow, Rows, SeatRow};

pub enum Col {
    Int(Vec<i64>),
    Text(Vec<String>),
    Bool(Vec<bool>),
}

impl Col {
    fn json(&self, i: usize) -> Value {
        match self {
            Col::Int(v) => v[i].into(),
            Col::Text(v) => v[i].clone().into(),
            Col::Bool(v) => v[i].into(),
        }
    }
    fn len(&self) -> usize {
        match self {
            Col::Int(v) => v.len(),
            Col::Text(v) => v.len(),
            Col::Bool(v) => v.len(),
        }
    }
}

/// Named columns of equal length.
pub struct Table {
    pub cols: Vec<(String, Col)>,
}

impl Table {
    fn rows(&self) -> usize {
        self.cols.first().map_or(0, |(_, c)| c.len())
    }
}

/// Which format a path asks for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Parquet,
    Csv,
    Jsonl,
}

pub fn format_of(path: &Path) -> Result<Format, String> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("parquet") => Ok(Format::Parquet),
        Some("csv") => Ok(Format::Csv),
        Some("jsonl") | Some("json") => Ok(Format::Jsonl),
        _ => Err(format!(
            "{}: name the file .parquet, .csv or .jsonl (the format follows the extension)",
            path.display()
        )),
    }
}

/// `runs.parquet` → `runs.cards.parquet`
pub fn cards_path(path: &Path) -> PathBuf {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    path.with_extension(format!("cards.{ext}"))
}

/// The games' table: a column per field, and per seat `pN_…`.
pub fn games_table(games: &[GameRow]) -> Table {
    let seats = games.iter().map(|g| g.seats.len()).max().unwrap_or(0);
    let int = |f: &dyn Fn(&GameRow) -> i64| Col::Int(games.iter().map(f).collect());
    let text = |f: &dyn Fn(&GameRow) -> String| Col::Text(games.iter().map(f).collect());
    let mut cols = vec![
        ("game".to_string(), int(&|g| g.game as i64)),
        ("seed".to_string(), int(&|g| g.seed as i64)),
        ("variant".to_string(), text(&|g| g.variant.clone())),
        ("rotation".to_string(), int(&|g| g.rotation as i64)),
        ("options".to_string(), text(&|g| g.options.clone())),
        ("players".to_string(), int(&|g| g.seats.len() as i64)),
        ("winner".to_string(), text(&|g| g.winner.clone())),
        ("turns".to_string(), int(&|g| g.turns as i64)),
        ("ended".to_string(), text(&|g| g.ended.clone())),
        ("error".to_string(), text(&|g| g.error.clone())),
    ];
    for s in 0..seats {
        // Borrowed: a seat's row is read once per column, never copied whole.
        let text = |f: &dyn Fn(&SeatRow) -> &str| {
            Col::Text(
                games
                    .iter()
                    .map(|g| g.seats.get(s).map_or("", f).to_string())
                    .collect(),
            )
        };
        let p = s + 1;
        cols.push((format!("p{p}_entrant"), text(&|st| &st.entrant)));
        cols.push((format!("p{p}_agent"), text(&|st| &st.agent)));
        cols.push((format!("p{p}_options"), text(&|st| &st.options)));
        cols.push((
            format!("p{p}_score"),
            int(&|g| g.seats.get(s).map_or(0, |st| st.score)),
        ));
        cols.push((
            format!("p{p}_won"),
            Col::Bool(
                games
                    .iter()
                    .map(|g| g.seats.get(s).is_some_and(|st| st.won))
                    .collect(),
            ),
        ));
    }
    Table { cols }
}

pub fn cards_table(cards: &[CardRow]) -> Table {
    let int = |f: &dyn Fn(&CardRow) -> i64| Col::Int(cards.iter().map(f).collect());
    let text = |f: &dyn Fn(&CardRow) -> String| Col::Text(cards.iter().map(f).collect());
    Table {
        cols: vec![
            ("game".into(), int(&|c| c.game as i64)),
            ("seed".into(), int(&|c| c.seed as i64)),
            ("variant".into(), text(&|c| c.variant.to_string())),
            ("player".into(), int(&|c| c.player as i64)),
            ("entrant".into(), text(&|c| c.entrant.to_string())),
            ("card".into(), text(&|c| c.card.to_string())),
            ("gained".into(), int(&|c| c.gained as i64)),
            ("played".into(), int(&|c| c.played as i64)),
            ("drawn".into(), int(&|c| c.drawn as i64)),
            ("final_deck".into(), int(&|c| c.final_deck as i64)),
            (
                "won".into(),
                Col::Bool(cards.iter().map(|c| c.won).collect()),
            ),
        ],
    }
}

/// Writes the games to `path` and, if any, the cards beside it.
pub fn write_rows(path: &Path, rows: &Rows, with_cards: bool) -> Result<Vec<PathBuf>, String> {
    let mut written = vec![path.to_path_buf()];
    write(path, &games_table(&rows.games))?;
    if with_cards {
        let cp = cards_path(path);
        write(&cp, &cards_table(&rows.cards))?;
        written.push(cp);
    }
    Ok(written)
}

pub fn write(path: &Path, t: &Table) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| fail(&e))?;
    }
    let file = crate::data::confine::create_own(path)?;
    let mut w = std::io::BufWriter::new(file);
    match format_of(path)? {
        Format::Parquet => parquet_write(w, t).map_err(|e| fail(&e)),
        Format::Csv => csv_write(&mut w, t).map_err(|e| fail(&e)),
        Format::Jsonl => jsonl_write(&mut w, t).map_err(|e| fail(&e)),
    }
}

fn csv_write(w: &mut impl std::io::Write, t: &Table) -> std::io::Result<()> {
    let names: Vec<&str> = t.cols.iter().map(|(n, _)| n.as_str()).collect();
    writeln!(w, "{}", names.join(","))?;
    for i in 0..t.rows() {
        let cells: Vec<String> = (t.cols.iter())
            .map(|(_, c)| match c {
                Col::Int(v) => v[i].to_string(),
                Col::Bool(v) => v[i].to_string(),
                Col::Text(v) => quote(&v[i]),
            })
            .collect();
        writeln!(w, "{}", cells.join(","))?;
    }
    w.flush()
}

/// A CSV cell (RFC 4180): quoted when it holds a comma, quote or line break.
fn quote(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn jsonl_write(w: &mut impl std::io::Write, t: &Table) -> std::io::Result<()> {
    for i in 0..t.rows() {
        let m: Map<String, Value> = t.cols.iter().map(|(n, c)| (n.clone(), c.json(i))).collect();
        writeln!(w, "{}", Value::Object(m))?;
    }
    w.flush()
}

fn parquet_write(w: impl std::io::Write + Send, t: &Table) -> parquet::errors::Result<()> {
    use parquet::data_type::{BoolType, ByteArray, ByteArrayType, Int64Type};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    let fields: Vec<String> = (t.cols.iter())
        .map(|(n, c)| match c {
            Col::Int(_) => format!("REQUIRED INT64 {n};"),
            Col::Text(_) => format!("REQUIRED BYTE_ARRAY {n} (UTF8);"),
            Col::Bool(_) => format!("REQUIRED BOOLEAN {n};"),
        })
        .collect();
    let schema = parquet::schema::parser::parse_message_type(&format!(
        "message rows {{ {} }}",
        fields.join(" ")
    ))?;
    let props = Arc::new(WriterProperties::builder().build());
    let mut writer = SerializedFileWriter::new(w, Arc::new(schema), props)?;
    let mut group = writer.next_row_group()?;
    let mut cols = t.cols.iter();
    while let Some(mut cw) = group.next_column()? {
        let Some((_, c)) = cols.next() else { break };
        match c {
            Col::Int(v) => {
                cw.typed::<Int64Type>().write_batch(v, None, None)?;
            }
            Col::Bool(v) => {
                cw.typed::<BoolType>().write_batch(v, None, None)?;
            }
            Col::Text(v) => {
                let b: Vec<ByteArray> = v.iter().map(|s| ByteArray::from(s.as_str())).collect();
                cw.typed::<ByteArrayType>().write_batch(&b, None, None)?;
            }
        }
        cw.close()?;
    }
    group.close()?;
    writer.close()?;
    Ok(())
}

/// Reads a table written by [`write`] (Parquet or JSON lines) as one map
/// per row.
pub fn read(path: &Path) -> Result<Vec<Map<String, Value>>, String> {
    let fail = |e: &dyn std::fmt::Display| format!("cannot read {}: {e}", path.display());
    match format_of(path)? {
        Format::Jsonl => {
            let text = std::fs::read_to_string(path).map_err(|e| fail(&e))?;
            (text.lines().filter(|l| !l.trim().is_empty()))
                .enumerate()
                .map(|(i, l)| match serde_json::from_str(l) {
                    Ok(Value::Object(m)) => Ok(m),
                    Ok(_) => Err(format!(
                        "{}:{}: a row is a JSON object",
                        path.display(),
                        i + 1
                    )),
                    Err(e) => Err(format!("{}:{}: {e}", path.display(), i + 1)),
                })
                .collect()
        }
        Format::Parquet => {
            use parquet::file::reader::{FileReader, SerializedFileReader};
            use parquet::record::Field;
            let file = std::fs::File::open(path).map_err(|e| fail(&e))?;
            let reader = SerializedFileReader::new(file).map_err(|e| fail(&e))?;
            let iter = reader.get_row_iter(None).map_err(|e| fail(&e))?;
            let mut out = Vec::new();
            for row in iter {
                let row = row.map_err(|e| fail(&e))?;
                let m: Map<String, Value> = (row.get_column_iter())
                    .map(|(n, f)| {
                        let v = match f {
                            Field::Long(x) => Value::from(*x),
                            Field::Int(x) => Value::from(*x),
                            Field::Bool(b) => Value::from(*b),
                            Field::Str(s) => Value::from(s.clone()),
                            other => Value::from(other.to_string()),
                        };
                        (n.clone(), v)
                    })
                    .collect();
                out.push(m);
            }
            Ok(out)
        }
        Format::Csv => Err(format!(
            "{}: the report reads .parquet or .jsonl files (CSV is written for spreadsheets)",
            path.display()
        )),
    }
}

fn int(m: &Map<String, Value>, k: &str) -> i64 {
    m.get(k).and_then(Value::as_i64).unwrap_or(0)
}
fn text(m: &Map<String, Value>, k: &str) -> String {
    m.get(k).and_then(Value::as_str).unwrap_or("").to_string()
}
fn flag(m: &Map<String, Value>, k: &str) -> bool {
    m.get(k).and_then(Value::as_bool).unwrap_or(false)
}

/// A game's row from its columns (a line of JSON, a Parquet row).
pub fn game_row(m: &Map<String, Value>) -> GameRow {
    GameRow {
        game: int(m, "game") as u64,
        seed: int(m, "seed") as u64,
        variant: text(m, "variant"),
        rotation: int(m, "rotation") as u32,
        options: text(m, "options"),
        seats: (1..=int(m, "players"))
            .map(|p| SeatRow {
                entrant: text(m, &format!("p{p}_entrant")),
                agent: text(m, &format!("p{p}_agent")),
                options: text(m, &format!("p{p}_options")),
                score: int(m, &format!("p{p}_score")),
                won: flag(m, &format!("p{p}_won")),
            })
            .collect(),
        winner: text(m, "winner"),
        turns: int(m, "turns") as u32,
        ended: text(m, "ended"),
        error: text(m, "error"),
    }
}

/// A card's row from its columns.
pub fn card_row(m: &Map<String, Value>) -> CardRow {
    CardRow {
        game: int(m, "game") as u64,
        seed: int(m, "seed") as u64,
        variant: text(m, "variant").into(),
        player: int(m, "player") as u32,
        entrant: text(m, "entrant").into(),
        card: text(m, "card").into(),
        gained: int(m, "gained") as u32,
        played: int(m, "played") as u32,
        drawn: int(m, "drawn") as u32,
        final_deck: int(m, "final_deck") as u32,
        won: flag(m, "won"),
    }
}

/// The rows of a run written by [`write_rows`]: the games, and the cards if
/// their file is there.
pub fn read_rows(path: &Path) -> Result<Rows, String> {
    let games = read(path)?.iter().map(game_row).collect();
    let cp = cards_path(path);
    let cards = if cp.exists() {
        read(&cp)?.iter().map(card_row).collect()
    } else {
        Vec::new()
    };
    Ok(Rows { games, cards })
}
