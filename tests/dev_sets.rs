//! The forbidden-point dev sets in `tests/data/` (positions with their exact forbidden points and
//! reasons, each agreed by two independent checkers): every position must match exactly, through
//! the same JSON-lines interface that `pbrain-omok forbid` uses.

use omok::Rule;
use omok::batch::{ForbiddenPoint, forbid_line};
use omok::rules::ForbidOptions;
use serde_json::Value;

fn check(file: &str, rule: Rule, expected: impl Fn(&Value) -> &Value) -> usize {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut count = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).unwrap();
        let got: Value =
            serde_json::from_str(&forbid_line(line, rule, ForbidOptions::default())).unwrap();
        let got: Vec<ForbiddenPoint> = serde_json::from_value(got["forbidden"].clone())
            .unwrap_or_else(|_| panic!("{}: {got}", case["id"]));
        let want: Vec<ForbiddenPoint> = serde_json::from_value(expected(&case).clone()).unwrap();
        let mut want_sorted = want.clone();
        want_sorted.sort_by_key(|p| (p.y, p.x));
        assert_eq!(
            got, want_sorted,
            "{rule} {} ({} to move)",
            case["id"], case["to_move"]
        );
        count += 1;
    }
    count
}

#[test]
fn renju_dev_set() {
    assert_eq!(
        check("renju-forbid-dev.jsonl", Rule::Renju, |c| &c["forbidden"]),
        1000
    );
}

#[test]
fn korean_dev_set() {
    assert_eq!(
        check("korean-dev.jsonl", Rule::Korean, |c| &c["forbidden"]),
        500
    );
}

#[test]
fn casual_dev_sets() {
    for rule in [Rule::Casual, Rule::Casual44, Rule::Casual3344] {
        assert_eq!(
            check("casual-dev.jsonl", rule, |c| &c["forbidden"][rule.name()]),
            500
        );
    }
}
