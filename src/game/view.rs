//! What each participant may see (seed 004 §8.3), serializable with serde.
//!
//! - Everyone (players and spectators): options, board, turn, phase, the record, the last move,
//!   the winning line, both clocks and the deadline, pending undo/draw requests and who made them,
//!   undos left, the result.
//! - The player to move, while the game is on: `forbiddenPoints` (their own forbidden points, with
//!   `showForbidden`; an empty list under rules without forbidden points) and `hintThreats` (the
//!   opponent's fours and open threes, with `hints = warn`).
//! - Spectators also get `forbiddenPoints` of the side to move (public information, allowed by
//!   seed 004 §8.3 for commentary) but never `hintThreats`.
//! - Everyone: `opening` — the opening rule, whether it is over, who started it, whether the
//!   colours are swapped, the pending step (who acts, what, the stone's colour, the region, the
//!   number of offers or the most that may be declared), the declared number and the offers.
//!   During the opening there are no `forbiddenPoints` or `hintThreats`.
//! - Never: the seed or RNG state (it predicts auto-moves) and the referee's internal caches.
//!   The view types simply have no such fields; `tests/referee.rs` checks the JSON keys.

use serde::Serialize;

use super::options::GameOptions;
use super::result::GameResult;
use super::state::{ByColor, Game, MoveRecord, Phase, UndoRequest, ser_color, ser_opt_color};
use crate::core::{Color, Pos};
use crate::rules::opening::{Opening, Pending, PendingKind, Region};
use crate::rules::{Threat, threats};

/// Who a view is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Viewer {
    /// The black player.
    Black,
    /// The white player.
    White,
    /// Anyone else.
    Spectator,
}

impl Viewer {
    /// The viewer playing `c`.
    pub const fn player(c: Color) -> Viewer {
        match c {
            Color::Black => Viewer::Black,
            Color::White => Viewer::White,
        }
    }
}

/// A forbidden point: `{"x": 7, "y": 7, "reason": "double-three"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ForbiddenPointView {
    /// Column.
    pub x: usize,
    /// Row.
    pub y: usize,
    /// `double-three`, `double-four` or `overline`.
    pub reason: &'static str,
}

/// The public clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClockView {
    /// `none`, `perMove` or `fischer`.
    pub kind: &'static str,
    /// Fischer banks (ms) as of the start of the current turn; `null` otherwise.
    pub remaining_ms: Option<ByColor<u64>>,
    /// When the current turn began (ms).
    pub turn_started_at: u64,
    /// When the player to move runs out of time (ms); `null` once finished.
    pub deadline: Option<u64>,
    /// Consecutive auto-moves per colour.
    pub auto_move_streak: ByColor<u32>,
}

/// The public undo state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UndoView {
    /// The pending request.
    pub pending: Option<UndoRequest>,
    /// Undos left per colour (`null` = unlimited).
    pub remaining: ByColor<Option<u32>>,
}

/// The public draw-offer state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DrawView {
    /// Who offered the pending draw.
    #[serde(serialize_with = "ser_opt_color")]
    pub pending_by: Option<Color>,
}

/// A region of the board: `{"kind": "anywhere"}`, `{"kind": "within", "distance": 2}` (the
/// central 5×5) or `{"kind": "atLeast", "distance": 3}` (Chebyshev distance from the centre).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RegionView {
    /// `anywhere`, `within` or `atLeast`.
    pub kind: &'static str,
    /// The distance (absent for `anywhere`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<u8>,
}

impl From<Region> for RegionView {
    fn from(r: Region) -> RegionView {
        let (kind, distance) = match r {
            Region::Anywhere => ("anywhere", None),
            Region::Within(d) => ("within", Some(d)),
            Region::AtLeast(d) => ("atLeast", Some(d)),
        };
        RegionView { kind, distance }
    }
}

/// The step the opening waits for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingView {
    /// The colour of the player who acts (now).
    #[serde(serialize_with = "ser_color")]
    pub by: Color,
    /// Their id.
    pub player: String,
    /// `place`, `swap`, `swap2Choice`, `declare`, `offer`, `swapOrOffer` or `choose`.
    pub kind: &'static str,
    /// The colour of the stone to place, offer or choose.
    #[serde(
        serialize_with = "ser_opt_color",
        skip_serializing_if = "Option::is_none"
    )]
    pub color: Option<Color>,
    /// Where the stone may go (`place`, and the 5th stone of `swapOrOffer`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<RegionView>,
    /// How many offers (`offer`, `swapOrOffer`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u8>,
    /// The most that may be declared (`declare`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<u8>,
}

impl PendingView {
    /// The view of the opening's pending step `p`; `player` names the player holding a colour.
    pub fn of(o: &Opening, p: Pending, player: impl Fn(Color) -> String) -> PendingView {
        let by = o.color_of(p.by);
        let mut v = PendingView {
            by,
            player: player(by),
            kind: p.kind.name(),
            color: None,
            region: None,
            count: None,
            max: None,
        };
        match p.kind {
            PendingKind::Place { color, region } => {
                v.color = Some(color);
                v.region = Some(region.into());
            }
            PendingKind::Swap => {}
            PendingKind::Swap2Choice { color } | PendingKind::Choose { color } => {
                v.color = Some(color);
            }
            PendingKind::Declare { max } => v.max = Some(max),
            PendingKind::Offer { color, count } => {
                v.color = Some(color);
                v.count = Some(count);
            }
            PendingKind::SwapOrOffer {
                color,
                region,
                count,
            } => {
                v.color = Some(color);
                v.region = Some(region.into());
                v.count = Some(count);
            }
        }
        v
    }
}

/// The public opening state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OpeningView {
    /// The rule (`none`, `swap2`, `soosorv-8`, …).
    pub rule: String,
    /// Whether the opening is over.
    pub finished: bool,
    /// Who started the opening (the first player).
    pub first_player: String,
    /// Whether the players hold exchanged colours now.
    pub swapped: bool,
    /// The pending step (`null` once over).
    pub pending: Option<PendingView>,
    /// The declared number of 5th moves (Soosõrv).
    pub declared: Option<u8>,
    /// The 5th moves on offer.
    pub offers: Vec<Pos>,
}

/// One participant's view of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GameView {
    /// Who it is for.
    pub viewer: Viewer,
    /// The options.
    pub options: GameOptions,
    /// The rules-core rule in force.
    pub rule: &'static str,
    /// Board side.
    pub size: usize,
    /// Player ids by colour.
    pub players: ByColor<String>,
    /// `size·size` cells, index `y·size + x`: 0 empty, 1 black, 2 white.
    pub board: Vec<u8>,
    /// The colour to move.
    #[serde(serialize_with = "ser_color")]
    pub turn: Color,
    /// `playing` or `finished`.
    pub phase: Phase,
    /// The record.
    pub moves: Vec<MoveRecord>,
    /// The last move's point.
    pub last_move: Option<Pos>,
    /// The winning line.
    pub win_line: Option<Vec<Pos>>,
    /// Clocks.
    pub clock: ClockView,
    /// Undo state.
    pub undo: UndoView,
    /// Draw-offer state.
    pub draw: DrawView,
    /// The opening.
    pub opening: OpeningView,
    /// The result.
    pub result: Option<GameResult>,
    /// Forbidden points of the side to move (player to move and spectators only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forbidden_points: Option<Vec<ForbiddenPointView>>,
    /// The opponent's threats (the player to move only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint_threats: Option<Vec<Threat>>,
}

/// The three views after an action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Views {
    /// The black player's.
    pub black: GameView,
    /// The white player's.
    pub white: GameView,
    /// Spectators'.
    pub spectator: GameView,
}

impl Game {
    /// The view of one participant.
    pub fn view(&self, viewer: Viewer) -> GameView {
        let to_move = Viewer::player(self.turn);
        let forbidden = (viewer == to_move || viewer == Viewer::Spectator)
            .then(|| self.forbidden_view())
            .flatten();
        let hints = (viewer == to_move).then(|| self.hints_view()).flatten();
        self.view_with(viewer, forbidden, hints)
    }

    /// The views of both players and of spectators (computing the forbidden points and hints
    /// once).
    pub fn views(&self) -> Views {
        let forbidden = self.forbidden_view();
        let hints = self.hints_view();
        let (black_extra, white_extra) = match self.turn {
            Color::Black => ((forbidden.clone(), hints), (None, None)),
            Color::White => ((None, None), (forbidden.clone(), hints)),
        };
        Views {
            black: self.view_with(Viewer::Black, black_extra.0, black_extra.1),
            white: self.view_with(Viewer::White, white_extra.0, white_extra.1),
            spectator: self.view_with(Viewer::Spectator, forbidden, None),
        }
    }

    fn opening_view(&self) -> OpeningView {
        let o = &self.opening;
        let pending = o
            .pending()
            .map(|p| PendingView::of(o, p, |by| self.players.get(by).clone()));
        let first = o.color_of(crate::rules::opening::Side::First);
        OpeningView {
            rule: o.rule().to_string(),
            finished: o.is_finished(),
            first_player: self.players.get(first).clone(),
            swapped: o.swapped(),
            pending,
            declared: o.declared(),
            offers: o.offers().to_vec(),
        }
    }

    fn forbidden_view(&self) -> Option<Vec<ForbiddenPointView>> {
        if self.result.is_some() || self.in_opening() || !self.options.show_forbidden {
            return None;
        }
        let mut board = self.board.clone();
        Some(
            self.checker()
                .all(&mut board, self.turn)
                .into_iter()
                .map(|(p, kind)| ForbiddenPointView {
                    x: p.x(),
                    y: p.y(),
                    reason: kind.name(),
                })
                .collect(),
        )
    }

    fn hints_view(&self) -> Option<Vec<Threat>> {
        if self.result.is_some()
            || self.in_opening()
            || self.options.hints == super::options::Hints::Off
        {
            return None;
        }
        let mut board = self.board.clone();
        Some(threats(&mut board, self.turn.opponent()))
    }

    fn view_with(
        &self,
        viewer: Viewer,
        forbidden_points: Option<Vec<ForbiddenPointView>>,
        hint_threats: Option<Vec<Threat>>,
    ) -> GameView {
        let cells = self
            .board
            .positions()
            .map(|p| match self.board.get(p) {
                None => 0,
                Some(Color::Black) => 1,
                Some(Color::White) => 2,
            })
            .collect();
        GameView {
            viewer,
            options: self.options.clone(),
            rule: self.rule.name(),
            size: self.board.width(),
            players: self.players.clone(),
            board: cells,
            turn: self.turn,
            phase: self.phase,
            moves: self.moves.clone(),
            last_move: self.moves.last().map(|m| m.pt),
            win_line: self.result.as_ref().and_then(|r| r.win_line.clone()),
            clock: ClockView {
                kind: self.options.time_control.kind_name(),
                remaining_ms: self
                    .remaining_ms(Color::Black)
                    .map(|_| self.clock.remaining_ms),
                turn_started_at: self.clock.turn_started_at,
                deadline: self.deadline(),
                auto_move_streak: self.clock.auto_move_streak,
            },
            undo: UndoView {
                pending: self.undo.pending,
                remaining: self.undo.used.map(|c, _| self.undo_remaining(c)),
            },
            draw: DrawView {
                pending_by: self.draw.pending_by,
            },
            opening: self.opening_view(),
            result: self.result.clone(),
            forbidden_points,
            hint_threats,
        }
    }
}
