//! A YAML file's text to values: under the limits ([`super::yaml`]), each
//! duplicate key an error, the reader's error located and explained. It
//! needs no loader state, so a library's card files are read on all cores,
//! their cards and errors gathered back in the files' order.

use std::sync::OnceLock;

use rayon::prelude::*;
use serde::de::DeserializeOwned;

use super::diag::{DataError, Sources};
use super::schema::RawCard;
use super::yamltext;
use crate::suggest::{did_you_mean, suggest};

/// The value of YAML file `file`, or its errors.
pub(crate) fn parse<T: DeserializeOwned>(
    sources: &Sources,
    file: u32,
) -> Result<T, Vec<DataError>> {
    let text = sources.text(file);
    if let Some((at, why)) = super::yaml::over_limits(text) {
        return Err(vec![sources.error(
            file,
            at as u32,
            at as u32 + 1,
            why,
            None,
        )]);
    }
    let dups = yamltext::check(sources, file);
    if !dups.is_empty() {
        return Err(dups);
    }
    serde_norway::from_str::<T>(text).map_err(|e| vec![error(sources, file, &e)])
}

/// The cards of a card file: a list of cards, or one.
pub(crate) fn cards(sources: &Sources, file: u32) -> Result<Vec<RawCard>, Vec<DataError>> {
    let is_list = (sources.text(file).lines())
        .map(str::trim_start)
        .find(|l| !l.is_empty() && !l.starts_with('#') && *l != "---")
        .is_some_and(|l| l.starts_with('-'));
    if is_list {
        parse(sources, file)
    } else {
        parse::<RawCard>(sources, file).map(|c| vec![c])
    }
}

/// Card files at least this many are read in parallel: fewer are not worth
/// waking the threads.
const PARALLEL_FROM: usize = 64;

/// [`cards`] of each file, in order.
pub(crate) fn cards_of_all(
    sources: &Sources,
    files: &[u32],
) -> Vec<Result<Vec<RawCard>, Vec<DataError>>> {
    match (files.len() >= PARALLEL_FROM).then(pool).flatten() {
        Some(pool) => pool.install(|| files.par_iter().map(|f| cards(sources, *f)).collect()),
        None => files.iter().map(|f| cards(sources, *f)).collect(),
    }
}

/// The threads that read card files (with the stack every fuda thread has),
/// started on first use; `None` if they cannot be.
fn pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        (rayon::ThreadPoolBuilder::new())
            .stack_size(crate::limits::STACK_SIZE)
            .build()
            .ok()
    })
    .as_ref()
}

/// The reader's error at its place, a tab in the indentation said so, an
/// unknown field with the known ones.
pub(crate) fn error(sources: &Sources, file: u32, e: &serde_norway::Error) -> DataError {
    let text = sources.text(file);
    let raw = e.to_string();
    let message = raw.split(" at line ").next().unwrap_or(&raw).to_string();
    let off = e.location().map(|l| l.index()).unwrap_or(0);
    if let Some((m, h, at)) = yamltext::explain_tab(text, off) {
        return sources.error(file, at as u32, at as u32 + 1, m, Some(h));
    }
    let mut help = None;
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let field = rest.split('`').next().unwrap_or("");
        let expected: Vec<&str> = rest
            .split("expected ")
            .nth(1)
            .unwrap_or("")
            .split('`')
            .skip(1)
            .step_by(2)
            .collect();
        help = did_you_mean(suggest(field, expected.iter().copied()))
            .or_else(|| Some(format!("known fields: {}", expected.join(", "))));
    }
    let end = text[off..]
        .find(['\n', ':'])
        .map(|i| off + i)
        .unwrap_or(off);
    sources.error(file, off as u32, end.max(off) as u32, message, help)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(r: &[Result<Vec<RawCard>, Vec<DataError>>]) -> Vec<String> {
        (r.iter())
            .map(|r| match r {
                Ok(cards) => cards
                    .iter()
                    .map(|c| c.id.clone())
                    .collect::<Vec<_>>()
                    .join(","),
                Err(es) => (es.iter())
                    .map(|e| format!("{} {} {:?}", e.src.name, e.message, e.span))
                    .collect::<Vec<_>>()
                    .join(";"),
            })
            .collect()
    }

    #[test]
    fn card_files_read_in_parallel_come_back_in_order() {
        let mut sources = Sources::default();
        let files: Vec<u32> = (0..3 * PARALLEL_FROM)
            .map(|i| {
                let text = match i % 3 {
                    0 => format!("- id: c{i}\n  name: C\n- id: d{i}\n  name: D\n"),
                    1 => format!("id: c{i}\nname: C\nname: D\n"),
                    _ => format!("- id: c{i}\n  nmae: C\n"),
                };
                sources.add(format!("f{i}.yaml"), text)
            })
            .collect();
        let par = cards_of_all(&sources, &files);
        let seq: Vec<_> = files.iter().map(|f| cards(&sources, *f)).collect();
        assert_eq!(show(&par), show(&seq));
        let shown = show(&par);
        assert_eq!(shown[0], "c0,d0");
        assert!(shown[1].starts_with("f1.yaml key `name` is given twice"));
        assert!(shown[2].starts_with("f2.yaml .[0]: unknown field `nmae`"));
    }
}
