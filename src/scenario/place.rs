//! Placing a scenario's cards: each zone's list (or pile counts), with
//! tags and attachments written on the entries.

use super::err_at;
use crate::data::{Data, DataError, Sources};
use crate::engine::Game;
use crate::lang::names::find;
use crate::suggest::{did_you_mean, suggest};
use crate::value::{PlayerId, ZoneRef};

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
    // `lucky_charm^1` (attached to the first card of the same list).
    let written = items.len();
    let mut made: Vec<Option<u32>> = vec![None; written];
    let mut attach: Vec<(u32, usize)> = Vec::new();
    for (k, (spec, n)) in items.into_iter().enumerate() {
        let mut parts = spec.split('+');
        let head = parts.next().unwrap_or("");
        let (id, host) = match head.split_once('^') {
            Some((id, h)) => (id.to_string(), h.parse::<usize>().ok()),
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
                    if let Some(h) = host {
                        attach.push((c, h));
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
    for (c, h) in attach {
        match h
            .checked_sub(1)
            .and_then(|i| made.get(i).copied().flatten())
        {
            Some(host) => game.st.set_host(c, Some(host)),
            None => errors.push(err_at(
                sources,
                fid,
                zname,
                from,
                format!("`^{h}`: no card {h} in `{zname}` to attach to"),
                None,
            )),
        }
    }
}
