//! `fuda lsp` end to end, spoken to as an editor does: each step waits for
//! the message it expects (see `lsp_client`); no result depends on how fast
//! the server is.

mod lsp_client;

use lsp_client::{Client, doc_at, file_uri, offset, pos, root};
use std::sync::Arc;

use fuda::data::memo::Memo;
use fuda::data::source::Source;
use fuda::data::unsaved::Unsaved;
use fuda::data::{Data, DataErrors};
use serde_json::{Value, json};

#[test]
fn a_typo_in_an_unsaved_card_is_flagged_fixed_and_cleared() {
    let path = root().join("cards/shrine/basic.yaml");
    let saved = std::fs::read_to_string(&path).unwrap();
    let uri = file_uri(&path);
    let mut c = Client::start(&[]);
    c.open(&uri, &saved);
    assert_eq!(
        c.diagnostics(&uri),
        Vec::<Value>::new(),
        "a shipped card loads clean"
    );

    // The typo, after Japanese text on earlier lines: columns are UTF-16 units.
    let right = "gain(pile(supply, @honoumai))";
    let typo = saved.replacen(right, "gain(pile(supply, @honoumia))", 1);
    assert_ne!(typo, saved);
    c.change(&uri, 2, &typo);
    let diags = c.diagnostics(&uri);
    assert_eq!(diags.len(), 1, "{diags:#?}");
    let d = &diags[0];
    let at = typo.find("honoumia").unwrap();
    assert_eq!(d["range"]["start"], pos(&typo, at));
    assert_eq!(d["range"]["end"], pos(&typo, at + "honoumia".len()));
    let message = d["message"].as_str().unwrap();
    assert!(message.contains("unknown card `honoumia`"), "{message}");
    assert!(message.contains("did you mean `honoumai`?"), "{message}");
    // Nothing was written: the file is as shipped.
    assert_eq!(std::fs::read_to_string(&path).unwrap(), saved);

    let actions = c.ask(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri},
            "range": d["range"],
            "context": {"diagnostics": [d]},
        }),
    );
    let actions = actions.as_array().unwrap();
    assert_eq!(actions.len(), 1, "{actions:#?}");
    assert_eq!(actions[0]["kind"], "quickfix");
    let edits = actions[0]["edit"]["changes"][&uri].as_array().unwrap();
    assert_eq!(edits.len(), 1);
    let (a, b) = (
        offset(&typo, &edits[0]["range"]["start"]),
        offset(&typo, &edits[0]["range"]["end"]),
    );
    let fixed = format!(
        "{}{}{}",
        &typo[..a],
        edits[0]["newText"].as_str().unwrap(),
        &typo[b..]
    );
    assert_eq!(fixed, saved);
    c.change(&uri, 3, &fixed);
    assert_eq!(
        c.diagnostics(&uri),
        Vec::<Value>::new(),
        "the fix clears it"
    );
    c.stop();
}

#[test]
fn completion_hover_and_definition_in_a_card() {
    let root = root();
    let path = root.join("cards/shrine/characters/moriya_suwako.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let uri = file_uri(&path);
    let mut c = Client::start(&[]);
    c.open(&uri, &text);
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());

    // After `draw(`: operations, verbs and the game's names; no card ids.
    let call = text.find("draw(").unwrap() + "draw(".len();
    let items = c.ask("textDocument/completion", doc_at(&uri, &text, call));
    let labels: Vec<&str> = (items.as_array().unwrap().iter())
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    for want in ["count", "draw_for", "hand", "coins", "cost"] {
        assert!(labels.contains(&want), "{want} in {labels:?}");
    }
    assert!(!labels.contains(&"omiki"), "{labels:?}");
    let count = (items.as_array().unwrap().iter())
        .find(|i| i["label"] == "count")
        .unwrap();
    assert_eq!(count["detail"], "count(list_or_zone)");

    // After `@`: the card ids, each with its name and text.
    let typed = text.replacen("draw(1)", "draw(1)\n    gain(@", 1);
    c.change(&uri, 2, &typed);
    c.diagnostics(&uri);
    let at = typed.find("(@").unwrap() + 2;
    let items = c.ask("textDocument/completion", doc_at(&uri, &typed, at));
    let items = items.as_array().unwrap();
    let omiki = items.iter().find(|i| i["label"] == "omiki").expect("omiki");
    assert_eq!(omiki["detail"], "御神酒 — 3●");
    assert!(
        items.iter().all(|i| i["kind"] == 18),
        "only cards: {items:#?}"
    );
    c.change(&uri, 3, &text);
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());

    // Hover on a verb: its signature, its doc comment and its code.
    let verb = text.find("draw(1)").unwrap() + 1;
    let hover = c.ask("textDocument/hover", doc_at(&uri, &text, verb));
    let md = hover["contents"]["value"].as_str().unwrap();
    assert!(md.contains("draw(n)"), "{md}");
    assert!(md.contains("verb of shrine"), "{md}");
    assert!(md.contains("draw_for(me, n)"), "{md}");
    // On an operation, in an unsaved line: the doc `fuda doc operations` prints.
    let typed = text.replacen("stay()", "stay()\n    shuffle(deck)", 1);
    c.change(&uri, 4, &typed);
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());
    let op = typed.find("shuffle(").unwrap();
    let hover = c.ask("textDocument/hover", doc_at(&uri, &typed, op));
    let md = hover["contents"]["value"].as_str().unwrap();
    assert!(md.contains("shuffle(zone)"), "{md}");
    assert!(
        md.contains("Shuffles the zone with the game's seeded random number generator."),
        "{md}"
    );

    // Definition of a verb: its line in rules/shrine.yaml.
    let defs = c.ask("textDocument/definition", doc_at(&uri, &text, verb));
    let defs = defs.as_array().unwrap();
    assert_eq!(defs.len(), 1, "{defs:#?}");
    let rules_path = root.join("rules/shrine.yaml");
    let rules = std::fs::read_to_string(&rules_path).unwrap();
    assert_eq!(defs[0]["uri"], file_uri(&rules_path));
    let key = rules.find("\nverbs:").unwrap();
    let key = key + rules[key..].find("\n  draw:\n").unwrap() + 3;
    assert_eq!(defs[0]["range"]["start"], pos(&rules, key));
    c.stop();
}

#[test]
fn a_card_is_found_where_it_is_named_and_a_mod_verb_in_the_mod() {
    let root = root();
    let path = root.join("cards/shrine/basic.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let uri = file_uri(&path);
    let mut c = Client::start(&[]);
    c.open(&uri, &text);
    c.diagnostics(&uri);
    let at = text.find("@honoumai").unwrap() + 1;
    let refs = c.ask(
        "textDocument/references",
        json!({"textDocument": {"uri": uri}, "position": pos(&text, at), "context": {"includeDeclaration": true}}),
    );
    let files: Vec<&str> = (refs.as_array().unwrap().iter())
        .map(|l| l["uri"].as_str().unwrap())
        .collect();
    assert!(files.contains(&uri.as_str()), "{files:?}");
    assert!(
        files.iter().any(|f| f.contains("/rules/shrine.yaml")),
        "{files:?}"
    );
    assert!(
        files.iter().any(|f| f.contains("/tests/scenarios/shrine/")),
        "{files:?}"
    );
    // `@honoumai` → the card's own `id:` line.
    let defs = c.ask("textDocument/definition", doc_at(&uri, &text, at));
    let id = text.find("id: honoumai").unwrap() + 4;
    assert_eq!(defs[0]["range"]["start"], pos(&text, id), "{defs}");
    c.stop();

    // In a mod: its new verb is defined in its own rules.yaml.
    let m = root.join("tests/mods/festival");
    let card = m.join("cards/village_festival.yaml");
    let text = std::fs::read_to_string(&card).unwrap();
    let uri = file_uri(&card);
    let mut c = Client::start(&[]);
    c.open(&uri, &text);
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());
    let at = text
        .find("celebrate")
        .expect("the mod's card calls its verb");
    let defs = c.ask("textDocument/definition", doc_at(&uri, &text, at));
    assert_eq!(defs[0]["uri"], file_uri(&m.join("rules.yaml")), "{defs}");
    // A verb of the built-in game: a read-only copy of its rules file, as shipped.
    let typed = text.replacen("celebrate(2)", "draw(2)", 1);
    c.change(&uri, 2, &typed);
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());
    let at = typed.find("draw(2)").unwrap();
    let defs = c.ask("textDocument/definition", doc_at(&uri, &typed, at));
    let copy = c
        .cache
        .path()
        .canonicalize()
        .unwrap()
        .join(concat!("fuda-", env!("CARGO_PKG_VERSION")))
        .join("built-in/rules/shrine.yaml");
    assert_eq!(defs[0]["uri"], file_uri(&copy), "{defs}");
    let shipped = std::fs::read_to_string(root.join("rules/shrine.yaml")).unwrap();
    assert_eq!(std::fs::read_to_string(&copy).unwrap(), shipped);
    assert!(std::fs::metadata(&copy).unwrap().permissions().readonly());
    c.stop();
}

#[test]
fn a_scenarios_decisions_complete_with_what_a_decision_can_show() {
    let path = root().join("tests/scenarios/shrine/bigmoney_buy_order.yaml");
    let saved = std::fs::read_to_string(&path).unwrap();
    let uri = file_uri(&path);
    let mut c = Client::start(&[]);
    // A scenario has no diagnostics of its own (`fuda test` runs it); the
    // server answers in order, so each answer sees the change before it.
    c.open(&uri, &saved);
    let labels = |c: &mut Client, text: &str, at: usize| -> Vec<String> {
        let items = c.ask("textDocument/completion", doc_at(&uri, text, at));
        (items.as_array().unwrap().iter())
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };
    // A new answer: the game's moves (each label once), cards and words.
    let typed = saved.replacen("  - buy omiki\n", "  - buy omiki\n  - b\n", 1);
    c.change(&uri, 2, &typed);
    let at = typed.find("  - b\n").unwrap() + "  - b".len();
    let got = labels(&mut c, &typed, at);
    assert_eq!(got.iter().filter(|l| *l == "buy").count(), 1, "{got:?}");
    assert!(!got.iter().any(|l| l == "count"), "no operations: {got:?}");
    // After a move's label: the cards and players it may name.
    let typed = saved.replacen("  - buy omiki\n", "  - buy omiki\n  - buy om\n", 1);
    c.change(&uri, 3, &typed);
    let at = typed.find("  - buy om\n").unwrap() + "  - buy om".len();
    let got = labels(&mut c, &typed, at);
    assert!(got.contains(&"omiki".to_string()), "{got:?}");
    assert!(got.iter().all(|l| l.starts_with("om")), "{got:?}");
    // In `expect:`, conditions again: operations, not answers.
    let at = saved.find("pile_count").unwrap() + 2;
    let got = labels(&mut c, &saved, at);
    assert!(got.contains(&"pile_count".to_string()), "{got:?}");
    c.stop();
}

#[test]
fn a_verbs_parameters_complete_hover_and_lead_to_params_in_its_body() {
    let path = root().join("rules/shrine.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let uri = file_uri(&path);
    let mut c = Client::start(&[]);
    c.open(&uri, &text);
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());
    let verb = text.find("\n  draw_for:\n").expect("shrine's draw_for");
    let body = verb + text[verb..].find("deck(p)").unwrap();

    // Completion inside `draw_for`'s code: its parameters come first, told
    // as parameters; not in another verb's code.
    let at = body + "deck(".len();
    let items = c.ask("textDocument/completion", doc_at(&uri, &text, at));
    let items = items.as_array().unwrap();
    let labels: Vec<&str> = items.iter().map(|i| i["label"].as_str().unwrap()).collect();
    assert_eq!(labels[..2], ["p", "n"], "{labels:?}");
    assert_eq!(items[0]["detail"], "parameter of verb draw_for(p, n)");
    assert_eq!(items[0]["kind"], 6, "a variable");
    let refill = text.find("\n  refill:\n").unwrap();
    let other = refill + text[refill..].find("count(deck)").unwrap() + "count(".len();
    let items = c.ask("textDocument/completion", doc_at(&uri, &text, other));
    assert!(
        (items.as_array().unwrap().iter())
            .all(|i| !i["detail"].as_str().unwrap_or("").starts_with("parameter")),
        "{items:#?}"
    );

    // Hover on a parameter: which verb's, and what its code uses it as.
    let p = body + "deck(".len();
    let hover = c.ask("textDocument/hover", doc_at(&uri, &text, p));
    let md = hover["contents"]["value"].as_str().unwrap();
    assert!(md.contains("draw_for(p, n)"), "{md}");
    assert!(
        md.contains("parameter `p` of verb `draw_for`: its code uses it as a player"),
        "{md}"
    );
    let n = verb + text[verb..].find("repeat n").unwrap() + "repeat ".len();
    let hover = c.ask("textDocument/hover", doc_at(&uri, &text, n));
    let md = hover["contents"]["value"].as_str().unwrap();
    assert!(md.contains("its code uses it as a number"), "{md}");

    // Definition: the name in the verb's `params:`.
    let defs = c.ask("textDocument/definition", doc_at(&uri, &text, p));
    let defs = defs.as_array().unwrap();
    assert_eq!(defs.len(), 1, "{defs:#?}");
    let params = verb + text[verb..].find("params: [p, n]").unwrap() + "params: [".len();
    assert_eq!(defs[0]["range"]["start"], pos(&text, params));
    c.stop();
}

/// What a load says, to compare: its errors where they point, or its verbs.
fn said(r: Result<Data, DataErrors>) -> String {
    match r {
        Ok(d) => format!("{:?}", d.verbs),
        Err(e) => (e.errors.iter())
            .map(|e| format!("{} {:?} {:?}\n", e.message, e.span, e.help))
            .collect(),
    }
}

/// The server loads a game again on each edit through a memo of compiled
/// card text: edits that move code within its file, or change what it
/// refers to, load through a warm memo exactly as they load from scratch.
#[test]
fn a_load_through_the_memo_says_what_a_fresh_load_says() {
    let root = root();
    let src = Source::Dir(root.to_path_buf());
    let card = root.join("cards/hyakki/characters.yaml");
    let rules = root.join("rules/hyakki.yaml");
    let saved = std::fs::read_to_string(&card).unwrap();
    let saved_rules = std::fs::read_to_string(&rules).unwrap();
    let last_call = saved.rfind("move(").unwrap();
    let typo = format!("{}mvoe({}", &saved[..last_call], &saved[last_call + 5..]);
    let shifted = format!("\n\n\n{typo}");
    let with_verb = saved_rules.replacen(
        "verbs:\n",
        "verbs:\n  mvoe: {params: [a, b, c], do: \"\"}\n",
        1,
    );
    let edits = [
        (saved.clone(), saved_rules.clone()),
        (typo.clone(), saved_rules.clone()),
        // The typo's card unchanged, but lower in its file.
        (shifted.clone(), saved_rules.clone()),
        // The same cards, other names: the verb `mvoe` now exists.
        (shifted, with_verb),
        (saved, saved_rules),
    ];
    let mut memo = Memo::keeping();
    let mut errors = 0;
    for (cards_text, rules_text) in edits {
        let mut unsaved = Unsaved::default();
        unsaved.set(card.display().to_string(), Arc::new(cards_text));
        unsaved.set(rules.display().to_string(), Arc::new(rules_text));
        let fresh = said(src.load_unsaved("hyakki", &unsaved));
        let again = said(src.load_again("hyakki", &unsaved, &mut memo));
        assert_eq!(again, fresh);
        errors += fresh.contains("mvoe") as usize;
    }
    assert_eq!(errors, 2, "the typo is reported twice, then is a verb");
}
