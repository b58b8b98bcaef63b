
/// Written whole and renamed into place, as editors save.
fn edit(file: &std::path::Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains(from), "{from} not in {}", file.display());
    let tmp = file.with_extension("tmp");
    std::fs::write(&tmp, text.replacen(from, to, 1)).unwrap();
    std::fs::rename(&tmp, file).unwrap();
}

#[test]
fn a_saved_card_replays_the_open_game_and_reports() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(["data", "export"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let addr = fuda::serve::start(Source::Dir(dir.path().to_path_buf()), "127.0.0.1", 0)
        .unwrap()
        .0;
    let t = new_table(addr, "shrine", &["human", "bigmoney"], 3);
    let (id, token) = (t["id"].as_str().unwrap(), t["token"].as_str().unwrap());
    let mut w = ws(addr, id, token, false).unwrap();
    // Seat 1 answers until the bot has bought a card.
    let mut m = next(&mut w);
    for _ in 0..10_000 {
        let bought = m["log"].as_array().unwrap().iter().any(|l| {
            l[1].as_str().is_some_and(|s| s.starts_with("P2 buy "))
        });
        if bought && !m["request"].is_null() {
            break;
        }
        if let Some(r) = m.get("request").filter(|r| !r.is_null()) {
            post(addr, &format!("/api/tables/{id}/answer"), json!({ "token": token, "picks": first(r) }));
        }
        m = next(&mut w);
    }
    let answers = m["table"]["answers"].as_u64().unwrap();
    let basic = dir.path().join("cards/shrine/basic.yaml");
    // A change that alters nothing asked: the same course.
    edit(&basic, "text: \"1●\"", "text: \"1● (edited)\"");
    let same = loop {
        let m = next(&mut w);
        if !m["table"]["divergence"].is_null() {
            break m;
        }
    };
    assert_eq!(same["table"]["divergence"]["same"], true, "{}", same["table"]);
    assert_eq!(same["table"]["divergence"]["decisions"], answers);
    // A renamed card the bot bought: the game diverges where it is offered.
    edit(&basic, "name: 奉納米", "name: 奉納米改");
    let diverged = loop {
        let m = next(&mut w);
        if m["table"]["divergence"]["same"] == false {
            break m;
        }
    };
    let d = &diverged["table"]["divergence"];
    assert_eq!(d["reason"], "different options", "{d}");
    let now = d["now"]["options"].to_string();
    assert!(now.contains("奉納米改"), "{d}");
    assert!(!d["before"]["options"].to_string().contains("奉納米改"));
    // A file that does not load: the error, located, and the game goes on.
    edit(&basic, "tags: [resource]", "tags: [resource");
    let broken = loop {
        let m = next(&mut w);
        if !m["table"]["data_error"].is_null() {
            break m;
        }
    };
    let e = broken["table"]["data_error"].as_str().unwrap();
    assert!(e.contains("basic.yaml"), "{e}");
    assert!(!broken["request"].is_null());
}
