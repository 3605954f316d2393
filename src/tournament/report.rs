//! The HTML report: one self-contained file (inline CSS, inline SVG, no scripts, nothing fetched)
//! with the tournament's settings, the results table per engine pair, and every game's final
//! board drawn as an SVG picture.
//!
//! The pictures use renju coordinates (columns `a`… from the left, rows numbered from the
//! bottom), number every stone in move order, ring the last move in red (a foul with a thick
//! dashed ring), draw the winning line as a red bar under the numbers, and mark an illegal
//! answer's point (when it is on the board) with a red cross.

use crate::core::{Color, Pos};
use crate::notation::{column_name, parse_piskvork};

use super::judge::Reason;
use super::records::GameRecord;
use super::standings::Standings;

/// Pixels between grid lines.
const CELL: usize = 26;
/// Pixels around the grid (room for the coordinates).
const MARGIN: usize = 30;

/// What the report shows.
pub struct ReportInput<'a> {
    /// The page title (the tournament's name).
    pub title: &'a str,
    /// Settings as label/value rows.
    pub settings: Vec<(String, String)>,
    /// Engine names by index.
    pub names: &'a [String],
    /// Results per pair.
    pub standings: &'a Standings,
    /// Extra lines under the table (SPRT state, early stop).
    pub notes: Vec<String>,
    /// The games, in schedule order.
    pub records: &'a [GameRecord],
}

/// Escapes text for HTML element content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;padding:.25em .6em;\
text-align:right}th{background:#eee}td.l,th.l{text-align:left}\
.games{display:flex;flex-wrap:wrap;gap:1.2em}.game{border:1px solid #ccc;padding:.5em;\
border-radius:6px}.game h3{font-size:1em;margin:.2em 0}.game p{margin:.2em 0;font-size:.9em;\
max-width:420px}";

/// The whole HTML page.
pub fn to_html(input: &ReportInput<'_>) -> String {
    let mut h = String::new();
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
    h.push_str(&format!(
        "<title>{}</title><style>{STYLE}</style></head><body>\n",
        escape(input.title)
    ));
    h.push_str(&format!("<h1>{}</h1>\n<table>", escape(input.title)));
    for (k, v) in &input.settings {
        h.push_str(&format!(
            "<tr><th class=\"l\">{}</th><td class=\"l\">{}</td></tr>",
            escape(k),
            escape(v)
        ));
    }
    h.push_str("</table>\n<h2>Results</h2>\n");
    h.push_str(&results_table(input.names, input.standings));
    for note in &input.notes {
        h.push_str(&format!("<p>{}</p>\n", escape(note)));
    }
    h.push_str("<h2>Games</h2>\n<div class=\"games\">\n");
    for r in input.records {
        h.push_str(&game_card(r));
    }
    h.push_str("</div>\n</body></html>\n");
    h
}

fn results_table(names: &[String], standings: &Standings) -> String {
    let mut h = String::from(
        "<table><tr><th class=\"l\">engine</th><th class=\"l\">vs</th><th>games</th><th>+W</th>\
         <th>-L</th><th>=D</th><th>score</th><th>Elo</th><th>±95%</th>\
         <th class=\"l\">losses of the first</th><th class=\"l\">losses of the second</th></tr>\n",
    );
    for p in &standings.pairs {
        let w = p.wld;
        let score = w
            .score()
            .map_or("-".into(), |s| format!("{:.1}%", s * 100.0));
        let (elo, margin) = w.elo().map_or(("-".into(), "-".into()), |e| e.columns());
        let (elo, margin) = (escape(&elo), escape(&margin));
        h.push_str(&format!(
            "<tr><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{score}</td><td>{elo}</td><td>{margin}</td><td class=\"l\">{}</td>\
             <td class=\"l\">{}</td></tr>\n",
            escape(&names[p.pair.0]),
            escape(&names[p.pair.1]),
            w.games(),
            w.wins,
            w.losses,
            w.draws,
            escape(&p.losses_text(0)),
            escape(&p.losses_text(1)),
        ));
    }
    h.push_str("</table>\n");
    h
}

fn game_card(r: &GameRecord) -> String {
    let outcome = match r.winner {
        Some(c) => format!("{} ({}) wins: {}", escape(r.name(c)), c.name(), r.reason),
        None => format!("draw: {}", r.reason),
    };
    let detail = if r.detail.is_empty() {
        String::new()
    } else {
        format!("<p>{}</p>", escape(&r.detail))
    };
    format!(
        "<div class=\"game\" id=\"game-{n}\"><h3>Game {n}: {b} (black) vs {w} (white)</h3>\
         <p>{res} — {outcome}, {stones} stones (opening: {open})</p>{detail}\n{svg}</div>\n",
        n = r.index + 1,
        b = escape(&r.black),
        w = escape(&r.white),
        res = r.result_text(),
        stones = r.moves.len(),
        open = r.opening_stones,
        svg = board_svg(r),
    )
}

fn xy(p: Pos) -> (usize, usize) {
    (MARGIN + p.x() * CELL, MARGIN + p.y() * CELL)
}

/// The star points of a board side (none below 9).
fn star_points(n: usize) -> Vec<(usize, usize)> {
    if n < 9 {
        return Vec::new();
    }
    let d = if n >= 13 { 3 } else { 2 };
    let (a, b, c) = (d, n / 2, n - 1 - d);
    let mut v = vec![(a, a), (a, c), (c, a), (c, c)];
    if n % 2 == 1 {
        v.push((b, b));
    }
    v
}

/// The final board of a game as an SVG picture.
pub fn board_svg(r: &GameRecord) -> String {
    let n = r.size;
    let side = 2 * MARGIN + (n - 1) * CELL;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{side}\" height=\"{side}\" \
         viewBox=\"0 0 {side} {side}\" font-family=\"sans-serif\">\
         <rect width=\"{side}\" height=\"{side}\" fill=\"#e2bd6b\"/>"
    );
    let (lo, hi) = (MARGIN, MARGIN + (n - 1) * CELL);
    for i in 0..n {
        let t = MARGIN + i * CELL;
        s.push_str(&format!(
            "<line x1=\"{lo}\" y1=\"{t}\" x2=\"{hi}\" y2=\"{t}\" stroke=\"#333\" stroke-width=\"1\"/>\
             <line x1=\"{t}\" y1=\"{lo}\" x2=\"{t}\" y2=\"{hi}\" stroke=\"#333\" stroke-width=\"1\"/>"
        ));
        s.push_str(&format!(
            "<text x=\"{t}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{}</text>\
             <text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{}</text>",
            hi + 20,
            column_name(i),
            MARGIN / 2 - 2,
            t + 4,
            n - i
        ));
    }
    for (x, y) in star_points(n) {
        s.push_str(&format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"#333\"/>",
            MARGIN + x * CELL,
            MARGIN + y * CELL
        ));
    }
    let last = r.moves.len().saturating_sub(1);
    let mut numbers = String::new();
    for (k, m) in r.moves.iter().enumerate() {
        let (cx, cy) = xy(m.pos);
        let (fill, ink) = if k % 2 == 0 {
            ("#111", "#fff")
        } else {
            ("#fafafa", "#111")
        };
        let font = if k + 1 >= 100 { 9 } else { 11 };
        s.push_str(&format!(
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"{fill}\" stroke=\"#111\" stroke-width=\"1\"/>",
            CELL * 45 / 100
        ));
        numbers.push_str(&format!(
            "<text x=\"{cx}\" y=\"{}\" font-size=\"{font}\" text-anchor=\"middle\" fill=\"{ink}\">{}</text>",
            cy + 4,
            k + 1
        ));
    }
    if let Some((a, b)) = line_ends(&r.win_line) {
        let ((x1, y1), (x2, y2)) = (xy(a), xy(b));
        s.push_str(&format!(
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"#e02020\" \
             stroke-width=\"6\" stroke-linecap=\"round\" opacity=\"0.55\"/>"
        ));
    }
    s.push_str(&numbers);
    if let Some(m) = r
        .moves
        .get(last)
        .filter(|_| r.moves.len() > r.opening_stones)
    {
        // The last move: a red ring; a foul's ring is thicker and dashed.
        let (cx, cy) = xy(m.pos);
        let style = if r.reason == Reason::Foul {
            "stroke-width=\"3\" stroke-dasharray=\"4 2\""
        } else {
            "stroke-width=\"2\""
        };
        s.push_str(&format!(
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"none\" stroke=\"#e02020\" {style}/>",
            CELL / 2
        ));
    }
    if let Some(p) = r
        .bad_answer
        .as_deref()
        .and_then(|a| parse_piskvork(a, n, n).ok())
    {
        let (cx, cy) = xy(p);
        let d = CELL / 3;
        s.push_str(&format!(
            "<path d=\"M{} {} L{} {} M{} {} L{} {}\" stroke=\"#e02020\" stroke-width=\"3\"/>",
            cx - d,
            cy - d,
            cx + d,
            cy + d,
            cx - d,
            cy + d,
            cx + d,
            cy - d
        ));
    }
    s.push_str("</svg>");
    s
}

/// The two points of a line farthest apart.
fn line_ends(line: &[Pos]) -> Option<(Pos, Pos)> {
    let dist = |a: Pos, b: Pos| a.x().abs_diff(b.x()).max(a.y().abs_diff(b.y()));
    let mut best: Option<(Pos, Pos)> = None;
    for &a in line {
        for &b in line {
            if best.is_none_or(|(x, y)| dist(a, b) > dist(x, y)) {
                best = Some((a, b));
            }
        }
    }
    best.filter(|(a, b)| a != b)
}

/// Counts stones of a colour in a record (used by tests and summaries).
pub fn stone_count(r: &GameRecord, color: Color) -> usize {
    let first = usize::from(color == Color::White);
    r.moves.iter().skip(first).step_by(2).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::records::tests::sample;

    #[test]
    fn page_is_self_contained_and_escaped() {
        let r = sample();
        let names = vec!["a<b".to_string(), "omok 30".to_string()];
        let mut st = Standings::new(&[(0, 1)]);
        st.add(&r);
        let page = to_html(&ReportInput {
            title: "T & T",
            settings: vec![("rule".into(), "freestyle".into())],
            names: &names,
            standings: &st,
            notes: vec!["SPRT: continue".into()],
            records: std::slice::from_ref(&r),
        });
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.contains("<title>T &amp; T</title>"));
        assert!(page.contains("a&lt;b"));
        assert!(page.contains("x]y"));
        assert!(!page.contains("<script") && !page.contains("src=") && !page.contains("href="));
        assert_eq!(page.matches("<svg").count(), 1);
    }

    #[test]
    fn board_picture_numbers_stones_and_draws_the_line() {
        let r = sample();
        let svg = board_svg(&r);
        assert_eq!(svg.matches("<circle").count(), 9 + 5 + 1); // stones, star points, last ring
        assert!(svg.contains(">9</text>"));
        // The winning line runs from g8 (6,7) to k8 (10,7).
        let (x1, x2, y) = (MARGIN + 6 * CELL, MARGIN + 10 * CELL, MARGIN + 7 * CELL);
        let bar = format!("x1=\"{x1}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y}\" stroke=\"#e02020\"");
        let bar_rev = format!("x1=\"{x2}\" y1=\"{y}\" x2=\"{x1}\" y2=\"{y}\" stroke=\"#e02020\"");
        assert!(svg.contains(&bar) || svg.contains(&bar_rev), "{svg}");
        assert!(svg.contains(">h</text>") && svg.contains(">15</text>"));
        let mut illegal = r;
        illegal.reason = Reason::Illegal;
        illegal.win_line.clear();
        illegal.bad_answer = Some("7,7".into());
        assert!(board_svg(&illegal).contains("<path"));
        assert_eq!(stone_count(&illegal, Color::Black), 5);
    }
}
