//! Drives `pbrain-omok referee` as a process with scripted JSON-lines sessions: one output line
//! per input line, clear errors that leave the state alone, the final result line, and the same
//! output as the in-process [`omok::game::session::run_lines`].

mod common;

use serde_json::Value;

/// Runs the referee on `input` and returns its stdout lines.
fn referee(input: &str) -> Vec<String> {
    let out = common::run_binary(&["referee"], input);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

fn json(line: &str) -> Value {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"))
}

/// The README's example session: korean rules, alice black, a rejected point, an unknown field,
/// an undo, and a five along row 8.
const SESSION: &str = r#"{"options":{"ruleSet":"korean","colorAssignment":"hostBlack","timeControl":{"kind":"perMove","perMoveSec":30}},"seed":42,"players":{"host":"alice","guest":"bob"},"now":0}
{"type":"place","player":"alice","x":7,"y":7,"now":1000}
{"type":"place","player":"bob","x":7,"y":7,"now":2000}
{"type":"place","player":"bob","x":7,"y":8,"now":2500,"colour":"white"}
{"type":"place","player":"bob","x":0,"y":0,"now":3000}

{"type":"requestUndo","player":"bob","now":3500}
{"type":"respondUndo","player":"alice","accept":true,"now":4000}
{"type":"place","player":"bob","x":0,"y":14,"now":5000}
{"type":"place","player":"alice","x":8,"y":7,"now":6000}
{"type":"place","player":"bob","x":14,"y":0,"now":7000}
{"type":"place","player":"alice","x":9,"y":7,"now":8000}
{"type":"place","player":"bob","x":14,"y":14,"now":9000}
{"type":"place","player":"alice","x":10,"y":7,"now":10000}
{"type":"place","player":"bob","x":0,"y":7,"now":11000}
{"type":"place","player":"alice","x":11,"y":7,"now":12000}
{"type":"resign","player":"bob","now":13000}
"#;

#[test]
fn scripted_session() {
    let out = referee(SESSION);
    let lines: Vec<Value> = out.iter().map(|l| json(l)).collect();
    let inputs = SESSION.lines().filter(|l| !l.trim().is_empty()).count();
    assert_eq!(
        lines.len(),
        inputs + 1,
        "one line per input line plus the final line"
    );

    assert_eq!(lines[0]["ok"], true);
    assert_eq!(lines[0]["events"][0]["type"], "gameStarted");
    assert_eq!(lines[0]["deadline"], 30_000);
    assert_eq!(lines[1]["events"][0]["type"], "stonePlaced");
    assert!(lines[1]["views"]["white"]["hintThreats"].is_array());
    assert!(lines[1]["views"]["spectator"].get("hintThreats").is_none());

    let occupied = &lines[2];
    assert_eq!(occupied["ok"], false);
    assert_eq!(occupied["error"]["code"], "occupied");
    assert_eq!(occupied["error"]["message_ko"], "이미 돌이 있는 자리예요");
    assert_eq!(
        occupied["hash"], lines[1]["hash"],
        "a rejected action changes nothing"
    );
    assert_eq!(lines[3]["error"]["code"], "malformedAction");
    assert!(
        lines[3]["error"]["message_en"]
            .as_str()
            .unwrap()
            .contains("unknown field `colour`")
    );
    assert_eq!(lines[3]["hash"], lines[1]["hash"]);

    assert_eq!(lines[5]["events"][0]["type"], "undoRequested");
    assert_eq!(lines[6]["events"][0]["type"], "undoAccepted");
    assert_eq!(
        lines[6]["views"]["black"]["moves"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    let win = &lines[14];
    assert_eq!(win["phase"], "finished");
    assert_eq!(win["deadline"], Value::Null);
    assert_eq!(win["events"][1]["type"], "win");
    assert_eq!(lines[15]["error"]["code"], "gameOver");

    let fin = lines.last().unwrap();
    assert_eq!(fin["final"], true);
    assert_eq!(fin["result"]["winner"], "black");
    assert_eq!(fin["result"]["reason"], "five");
    assert_eq!(fin["result"]["summaryKo"], "흑 승 (H8~L8 오목, 9수)");
    assert_eq!(fin["result"]["ranking"][0]["playerId"], "alice");
    assert_eq!(fin["moveCount"], 9);
    assert_eq!(fin["hash"], win["hash"]);

    // The process gives exactly what the in-process session gives.
    assert_eq!(out, omok::game::session::run_lines(SESSION.lines()));
}

#[test]
fn replaying_a_session_gives_the_same_output_and_hash() {
    // Random colours and auto-moves: both come from the seed.
    let session = r#"{"options":{"ruleSet":"renju"},"seed":"9007199254740993","players":{"host":"h","guest":"g"}}
{"type":"timeout","now":30000}
{"type":"timeout","now":60000}
{"type":"timeout","now":90000}
{"type":"timeout","now":120000}
"#;
    let first = referee(session);
    assert_eq!(first, referee(session));
    let moves = json(first.last().unwrap())["moveCount"].clone();
    assert_eq!(moves, 4);
    let other = referee(&session.replace("9007199254740993", "9007199254740994"));
    assert_ne!(
        json(first.last().unwrap())["hash"],
        json(other.last().unwrap())["hash"]
    );
}

#[test]
fn bad_setups_and_empty_input() {
    let out = referee(
        "{\"seed\":1}\n{\"seed\":1,\"players\":{\"host\":\"a\",\"guest\":\"a\"}}\n\
         {\"seed\":1,\"players\":{\"host\":\"a\",\"guest\":\"b\"},\"options\":{\"boardSize\":99}}\n",
    );
    let codes: Vec<Value> = out
        .iter()
        .map(|l| json(l)["error"]["code"].clone())
        .collect();
    assert_eq!(
        codes,
        ["malformedSetup", "badPlayers", "badOption", "noGame"]
    );
    let fin = json(&referee("")[0]);
    assert_eq!(fin["final"], true);
    assert_eq!(fin["hash"], Value::Null);
}
