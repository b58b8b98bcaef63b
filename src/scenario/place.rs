//! Placing a scenario's cards: each zone's list (or pile counts), with
//! tags and attachments written on the entries.

use super::err_at;
use crate::data::{Data, DataError, Sources};
use crate::engine::Game;
use crate::lang::names::find;
use crate::suggest::{did_you_mean, suggest};
use crate::value::{PlayerId, ZoneRef};

/// An attachment written on an entry, resolved once every zone is placed:
/// `^N` (card N of the same list), `^zone.N` (of that zone of the same
/// player, or a shared zone), `^p2.zone.N` (another player's zone).
pub(super) struct Attach {
    card: u32,
    owner: Option<PlayerId>,
    zone: Option<String>,
    n: usize,
    spec: String,
    from: usize,
    list: (Option<PlayerId>, u16),
}

/// The cards placed in each listed zone, top first (by owner and zone).
pub(super) type Placed = Vec<((Option<PlayerId>, u16), Vec<Option<u32>>)>;

/// Attaches each card to its host, once every zone is placed.
pub(super) fn attach_all(
    game: &mut Game,
    data: &Data,
    sources: &Sources,
    fid: u32,
    placed: &Placed,
    attach: Vec<Attach>,
    errors: &mut Vec<DataError>,
) {
    for a in attach {
        let key = match &a.zone {
            None => Some(a.list),
            Some(z) => find(&data.names.zones, z).map(|zi| {
                let shared = data.zones[zi as usize].shared;
                (if shared { None } else { a.owner }, zi)
            }),
        };
        let list = key.and_then(|k| placed.iter().find(|(pk, _)| *pk == k));
        let host =
            list.and_then(|(_, l)| a.n.checked_sub(1).and_then(|i| l.get(i).copied().flatten()));
        match host {
            Some(h) => game.st.set_host(a.card, Some(h)),
            None => {
                let names = data.names.zones.iter().map(|s| s.as_str());
                let help = match &a.zone {
                    Some(z) if key.is_none() => did_you_mean(suggest(z, names)),
                    _ => None,
                };
                let msg = match &a.zone {
                    Some(z) => format!(
                        "`^{}`: no card {} listed in `{z}` to attach to (a host is listed in the scenario's `zones:`)",
                        a.spec, a.n
                    ),
                    None => format!("`^{}`: no card {} in this list to attach to", a.spec, a.n),
                };
                errors.push(err_at(sources, fid, &a.spec, a.from, msg, help));
            }
        }
    }
}

/// Reads a host written after `^`: `N`, `zone.N` or `pK.zone.N`.
fn host_spec(
    spec: &str,
    owner: Option<PlayerId>,
) -> Option<(Option<PlayerId>, Option<String>, usize)> {
    let parts: Vec<&str> = spec.split('.').collect();
    let n = parts.last()?.parse::<usize>().ok()?;
    match parts.len() {
        1 => Some((owner, None, n)),
        2 => Some((owner, Some(parts[0].to_string()), n)),
        3 => {
            let p: u8 = parts[0].strip_prefix('p')?.parse().ok()?;
            Some((Some(p.checked_sub(1)?), Some(parts[1].to_string()), n))
        }
        _ => None,
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn place(
    game: &mut Game,
    data: &Data,
    sources: &Sources,
    fid: u32,
    from: usize,
    zname: &str,
    owner: Option<PlayerId>,
    val: &serde_norway::Value,
    placed: &mut Placed,
    attaches: &mut Vec<Attach>,
    errors: &mut Vec<DataError>,
) {
    let Some(z) = find(&data.names.zones, zname) else {
        let help = did_you_mean(suggest(zname, data.names.zones.iter().map(|s| s.as_str())));
        errors.push(err_at(
            sources,
            fid,
            zname,
            from,
            format!("unknown zone \"{zname}\""),
            help,
        ));
        return;
    };
    let shared = data.zones[z as usize].shared;
    if shared != owner.is_none() {
        let msg = if shared {
            format!("`{zname}` is shared: put it at the top level of `zones:`")
        } else {
            format!("`{zname}` belongs to a player: put it under `p1:`…")
        };
        errors.push(err_at(sources, fid, zname, from, msg, None));
        return;
    }
    let zr = ZoneRef {
        zone: z,
        owner: owner.unwrap_or(0),
    };
    let inst = game.st.inst(zr);
    game.st.touch();
    game.st.zones[inst].clear();
    let mut items: Vec<(String, i64)> = Vec::new();
    match val {
        serde_norway::Value::Sequence(s) => {
            for v in s.iter().rev() {
                items.push((v.as_str().unwrap_or("").to_string(), 1));
            }
        }
        serde_norway::Value::Mapping(m) => {
            for (k, v) in m {
                items.push((
                    k.as_str().unwrap_or("").to_string(),
                    v.as_i64().unwrap_or(1),
                ));
            }
        }
        serde_norway::Value::Null => {}
        _ => errors.push(err_at(
            sources,
            fid,
            zname,
            from,
            format!("`{zname}` takes a list of card ids (or id: count)"),
            None,
        )),
    }
    // A list entry may carry tags and an attachment: `amulet_shot+activated`,
    // `lucky_charm^1` (attached to the first card of the same list),
    // `gem^play.1` (to the first card listed in this player's `play`).
    let written = items.len();
    let mut made: Vec<Option<u32>> = vec![None; written];
    for (k, (spec, n)) in items.into_iter().enumerate() {
        let mut parts = spec.split('+');
        let head = parts.next().unwrap_or("");
        let (id, host) = match head.split_once('^') {
            Some((id, h)) => match host_spec(h, owner) {
                Some(host) => (id.to_string(), Some((host, h.to_string()))),
                None => {
                    errors.push(err_at(
                        sources,
                        fid,
                        h,
                        from,
                        format!("`^{h}`: attach to `^N` (card N of this list), `^zone.N` or `^p2.zone.N`"),
                        None,
                    ));
                    (id.to_string(), None)
                }
            },
            None => (head.to_string(), None),
        };
        let mut marks = 0u64;
        for tag in parts {
            match find(&data.names.tags, tag) {
                Some(t) => marks |= crate::value::bit(t),
                None => {
                    let help =
                        did_you_mean(suggest(tag, data.names.tags.iter().map(|s| s.as_str())));
                    errors.push(err_at(
                        sources,
                        fid,
                        tag,
                        from,
                        format!("unknown tag \"{tag}\""),
                        help,
                    ));
                }
            }
        }
        if n > 100_000 || game.st.objs.len() + n.max(0) as usize > crate::engine::MAX_OBJECTS {
            errors.push(err_at(
                sources,
                fid,
                &id,
                from,
                format!("{n} cards of `{id}` are too many (at most 100000 per entry)"),
                None,
            ));
            continue;
        }
        match data.names.def(&id) {
            Some(d) => {
                if n <= 0 && game.st.layouts[z as usize].piles {
                    // `id: 0` lays out an empty pile.
                    game.st.zones[inst].push_empty_pile(d);
                }
                for _ in 0..n.max(0) {
                    let c = game.st.new_obj(data, d, zr);
                    game.st.objs[c as usize].tags |= marks;
                    game.st.tags_seen |= marks;
                    // Entries were reversed (bottom first); k counts from the bottom.
                    made[written - 1 - k] = Some(c);
                    if let Some(((howner, hzone, hn), hspec)) = &host {
                        attaches.push(Attach {
                            card: c,
                            owner: *howner,
                            zone: hzone.clone(),
                            n: *hn,
                            spec: hspec.clone(),
                            from,
                            list: (owner, z),
                        });
                    }
                }
            }
            None => {
                let help = did_you_mean(suggest(&id, data.names.defs.iter().map(|s| s.as_str())));
                errors.push(err_at(
                    sources,
                    fid,
                    &id,
                    from,
                    format!("unknown card \"{id}\""),
                    help,
                ));
            }
        }
    }
    placed.push(((owner, z), made));
}
