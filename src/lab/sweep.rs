//! `fuda sweep`: a value varied over a range, each value laid over the
//! game's files in memory ([`crate::data::source::Source::load_over`]; no
//! file is edited). A value is a card's property (`card.prop`), a rules
//! value (`rules.a.b`, keys of `rules/<game>.yaml`; a list of named items is
//! entered by name, as `rules.turn.phases.buy.…`), or an option
//! (`set.name`, the card ids `--set name=…` takes: no file changes).

use std::fmt;

use serde_norway::Value;

use crate::data::source::Source;

/// One `--vary`: what, and its values.
#[derive(Debug, Clone, PartialEq)]
pub struct Vary {
    /// `card.prop` or `rules.path`, as given.
    pub name: String,
    pub target: Target,
    pub values: Vec<Val>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    Prop {
        card: String,
        prop: String,
    },
    Rules(Vec<String>),
    /// A game option, by name.
    Option(String),
}

/// One value of a [`Vary`]: a number, or an option's card ids.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    Int(i64),
    Ids(Vec<String>),
}

/// As the command line gives it: ids joined by `+`.
impl fmt::Display for Val {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Val::Int(x) => write!(f, "{x}"),
            Val::Ids(ids) => write!(f, "{}", ids.join("+")),
        }
    }
}

/// Parses `moriya.cost=1..6`, `moriya.cost=2,4,8`, `rules.max_turns=20..40/5`
/// or `set.start=hakurei,moriya` (a value of several ids joins them by `+`;
/// an empty one is none).
pub fn parse(arg: &str) -> Result<Vary, String> {
    let usage = || {
        format!(
            "--vary {arg}: expected CARD.PROP=FROM..TO (or =A,B,C, or FROM..TO/STEP), rules.KEY.…=…, or set.OPTION=IDS,IDS+IDS,…"
        )
    };
    let (name, range) = arg.split_once('=').ok_or_else(usage)?;
    let parts: Vec<String> = name.split('.').map(str::to_string).collect();
    if let [first, option] = &parts[..]
        && first == "set"
        && !option.is_empty()
    {
        let values = (range.split(','))
            .map(|v| {
                let ids = v.split('+').map(str::trim).filter(|x| !x.is_empty());
                Val::Ids(ids.map(str::to_string).collect())
            })
            .collect();
        return Ok(Vary {
            name: name.to_string(),
            target: Target::Option(option.clone()),
            values,
        });
    }
    let target = match &parts[..] {
        [first, rest @ ..] if first == "rules" && !rest.is_empty() => Target::Rules(rest.to_vec()),
        [card, prop] if !card.is_empty() && !prop.is_empty() => Target::Prop {
            card: card.clone(),
            prop: prop.clone(),
        },
        _ => return Err(usage()),
    };
    let num = |s: &str| s.trim().parse::<i64>().map_err(|_| usage());
    let values = if let Some((from, to)) = range.split_once("..") {
        let (to, step) = match to.split_once('/') {
            Some((t, s)) => (num(t)?, num(s)?),
            None => (num(to)?, 1),
        };
        let from = num(from)?;
        if step <= 0 || to < from || (to - from) / step > 1000 {
            return Err(format!(
                "--vary {arg}: the range must go up, by a positive step, in at most 1000 values"
            ));
        }
        (0..=(to - from) / step).map(|i| from + i * step).collect()
    } else {
        range.split(',').map(num).collect::<Result<Vec<_>, _>>()?
    };
    let values = values.into_iter().map(Val::Int).collect();
    Ok(Vary {
        name: name.to_string(),
        target,
        values,
    })
}

/// Every combination of the values (the first `--vary` slowest), as
/// (label, values).
pub fn grid(varies: &[Vary]) -> Vec<(String, Vec<Val>)> {
    let mut out: Vec<Vec<Val>> = vec![Vec::new()];
    for v in varies {
        out = (out.into_iter())
            .flat_map(|pre| (v.values.iter()).map(move |x| [pre.clone(), vec![x.clone()]].concat()))
            .collect();
    }
    (out.into_iter())
        .map(|vals| {
            let label = (varies.iter().zip(&vals))
                .map(|(v, x)| format!("{}={x}", v.name))
                .collect::<Vec<_>>()
                .join(", ");
            (label, vals)
        })
        .collect()
}

/// The options to set for one point of the grid, as `--set` takes them
/// (`name=id,id`): given after the command line's, they replace its values.
pub fn sets(varies: &[Vary], values: &[Val]) -> Vec<String> {
    (varies.iter().zip(values))
        .filter_map(|(v, x)| match (&v.target, x) {
            (Target::Option(name), Val::Ids(ids)) => Some(format!("{name}={}", ids.join(","))),
            _ => None,
        })
        .collect()
}

/// The files to lay over the game for one point of the grid: each changed
/// file once, with every change to it (none for an option).
pub fn overlay(
    src: &Source,
    game: &str,
    varies: &[Vary],
    values: &[Val],
) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut files: Vec<(String, Value)> = Vec::new();
    for (v, x) in varies.iter().zip(values) {
        let (path, x) = match (&v.target, x) {
            (Target::Prop { card, .. }, Val::Int(x)) => (card_file(src, game, card)?, *x),
            (Target::Rules(_), Val::Int(x)) => (format!("rules/{game}.yaml"), *x),
            _ => continue,
        };
        if !files.iter().any(|(p, _)| *p == path) {
            let bytes = src.read(&path)?;
            let doc: Value =
                serde_norway::from_slice(&bytes).map_err(|e| format!("{path}: {e}"))?;
            files.push((path.clone(), doc));
        }
        let doc = &mut files
            .iter_mut()
            .find(|(p, _)| *p == path)
            .expect("just added")
            .1;
        match &v.target {
            Target::Prop { card, prop } => {
                let item =
                    card_item(doc, card).ok_or_else(|| format!("{path}: no card `{card}`"))?;
                let Value::Mapping(m) = item else {
                    return Err(format!("{path}: card `{card}` is not a mapping"));
                };
                let props = m
                    .entry("props".into())
                    .or_insert_with(|| Value::Mapping(Default::default()));
                let Value::Mapping(p) = props else {
                    return Err(format!("{path}: `props` of `{card}` is not a mapping"));
                };
                p.insert(prop.as_str().into(), x.into());
            }
            Target::Rules(keys) => {
                let slot = rules_slot(doc, keys)
                    .ok_or_else(|| format!("--vary {}: {path} has no such value", v.name))?;
                *slot = x.into();
            }
            Target::Option(_) => {}
        }
    }
    (files.into_iter())
        .map(|(p, doc)| {
            let text = serde_norway::to_string(&doc).map_err(|e| format!("{p}: {e}"))?;
            Ok((p, text.into_bytes()))
        })
        .collect()
}

/// The card file that defines `card`.
fn card_file(src: &Source, game: &str, card: &str) -> Result<String, String> {
    for path in src.yaml_under(&format!("cards/{game}")) {
        let Ok(bytes) = src.read(&path) else { continue };
        let Ok(mut doc) = serde_norway::from_slice::<Value>(&bytes) else {
            continue;
        };
        if card_item(&mut doc, card).is_some() {
            return Ok(path);
        }
    }
    Err(format!("no card `{card}` in cards/{game}/"))
}

fn card_item<'a>(doc: &'a mut Value, card: &str) -> Option<&'a mut Value> {
    let is = |v: &Value| v.get("id").and_then(Value::as_str) == Some(card);
    match doc {
        Value::Sequence(items) => items.iter_mut().find(|v| is(v)),
        v if is(v) => Some(v),
        _ => None,
    }
}

/// The value at `keys` in a rules document: mapping keys, or the `name:` of
/// an item of a list.
fn rules_slot<'a>(doc: &'a mut Value, keys: &[String]) -> Option<&'a mut Value> {
    let mut at = doc;
    for k in keys {
        at = match at {
            Value::Mapping(m) => m.get_mut(k.as_str())?,
            Value::Sequence(items) => items
                .iter_mut()
                .find(|v| v.get("name").and_then(Value::as_str) == Some(k))?,
            _ => return None,
        };
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_lists_and_grids() {
        let ints = |v: Vary| v.values.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let v = parse("moriya.cost=1..3").unwrap();
        assert_eq!(ints(v.clone()), ["1", "2", "3"]);
        assert_eq!(
            v.target,
            Target::Prop {
                card: "moriya".into(),
                prop: "cost".into()
            }
        );
        assert_eq!(
            ints(parse("rules.max_turns=10..30/10").unwrap()),
            ["10", "20", "30"]
        );
        assert_eq!(parse("a.b=4,2").unwrap().values, [Val::Int(4), Val::Int(2)]);
        // An option: its values are id lists (`+` joins, empty is none).
        let o = parse("set.modules=,ofuda,ofuda+amaneki").unwrap();
        assert_eq!(o.target, Target::Option("modules".into()));
        assert_eq!(ints(o.clone()), ["", "ofuda", "ofuda+amaneki"]);
        assert_eq!(
            sets(std::slice::from_ref(&o), &o.values[2..]),
            ["modules=ofuda,amaneki"]
        );
        assert!(parse("a=1").is_err() && parse("a.b=3..1").is_err() && parse("a.b=x").is_err());
        let g = grid(&[parse("a.b=1..2").unwrap(), parse("set.c=x,y+z").unwrap()]);
        let labels: Vec<&str> = g.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(
            labels,
            [
                "a.b=1, set.c=x",
                "a.b=1, set.c=y+z",
                "a.b=2, set.c=x",
                "a.b=2, set.c=y+z"
            ]
        );
    }
}
