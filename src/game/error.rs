//! The referee's typed errors: every rejected setup or action is one [`GameError`], which carries a
//! stable machine code ([`GameError::code`]), a Korean message in the polite style of seed 004 §8.2
//! ([`GameError::message_ko`]) and an English one ([`GameError::message_en`], also its `Display`).
//!
//! The Korean texts of seed 004 are used verbatim where the seed gives them (occupied point, 3-3,
//! 4-4, overline, first move at the centre); the others follow the same `~해요` style.
//!
//! Invariant: an action that returns an error has left the game exactly as it was (the referee
//! validates before it changes anything), so the state hash is unchanged.

use serde::Serialize;
use thiserror::Error;

use crate::core::Color;
use crate::rules::ForbiddenKind;
use crate::rules::opening::{OpeningError, Region};

/// Why the referee rejected a setup or an action.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    /// An option has a value outside its range.
    #[error("invalid value {value} for option {field}: expected {expected}")]
    BadOption {
        /// The option's JSON name (`boardSize`, `timeControl.perMoveSec`, …).
        field: &'static str,
        /// The value given.
        value: String,
        /// What is accepted.
        expected: &'static str,
    },
    /// Both player ids are the same, or one is empty.
    #[error("the two player ids must be different non-empty strings (got {host:?} and {guest:?})")]
    BadPlayers {
        /// The host's id.
        host: String,
        /// The guest's id.
        guest: String,
    },
    /// `previousBlack` names neither player.
    #[error("previousBlack {0:?} is neither of the two players")]
    UnknownPreviousBlack(String),
    /// The game has ended; no action is accepted any more.
    #[error("the game is already over")]
    GameOver,
    /// The action names a player who is not in this game.
    #[error("{0:?} is not a player of this game")]
    UnknownPlayer(String),
    /// A place (or a timeout naming a player) from the player who is not to move.
    #[error("it is not {0}'s turn")]
    NotYourTurn(Color),
    /// `now` is earlier than the time of the last accepted action.
    #[error("now ({now} ms) is earlier than the last accepted action ({last} ms)")]
    TimeWentBackwards {
        /// The action's time.
        now: u64,
        /// The time of the last accepted action.
        last: u64,
    },
    /// A point outside the board.
    #[error("({x},{y}) is off the {size}x{size} board")]
    OffBoard {
        /// Column given.
        x: i64,
        /// Row given.
        y: i64,
        /// Board side.
        size: usize,
    },
    /// The point already holds a stone.
    #[error("({x},{y}) is already occupied")]
    Occupied {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
    },
    /// `firstMoveCenter` is on and the first move is not the centre.
    #[error("the first move must be at the centre ({centre})")]
    FirstMoveNotCentre {
        /// The centre in renju notation (`H8`).
        centre: String,
    },
    /// A forbidden point (forbiddenPolicy = reject).
    #[error("{color} may not play {point}: {}", forbidden_en(*.kind))]
    Forbidden {
        /// The colour that may not play there.
        color: Color,
        /// The forbidden shape.
        kind: ForbiddenKind,
        /// The point in renju notation.
        point: String,
    },
    /// `undo` is `off`.
    #[error("undo is turned off in this game")]
    UndoDisabled,
    /// The player has used all undo requests.
    #[error("no undo requests left ({limit} per player)")]
    UndoExhausted {
        /// Requests allowed per player.
        limit: u32,
    },
    /// An undo request is already waiting for an answer.
    #[error("an undo request is already pending")]
    UndoPending,
    /// The player has no stone of their own to take back.
    #[error("there is no move of yours to take back")]
    NothingToUndo,
    /// respondUndo with no request pending.
    #[error("there is no undo request to answer")]
    NoUndoRequest,
    /// A player answering their own undo request or draw offer.
    #[error("you cannot answer your own request")]
    OwnRequest,
    /// `drawOffer` is false.
    #[error("draw offers are turned off in this game")]
    DrawOffersDisabled,
    /// A draw offer is already waiting for an answer.
    #[error("a draw offer is already pending")]
    DrawPending,
    /// The player offered a draw less than three of their own moves ago.
    #[error("play {moves_left} more move(s) before offering a draw again")]
    DrawTooSoon {
        /// Own moves still needed.
        moves_left: u32,
    },
    /// respondDraw with no offer pending.
    #[error("there is no draw offer to answer")]
    NoDrawOffer,
    /// cancelOffer with nothing of the player's pending.
    #[error("you have no pending undo request or draw offer to cancel")]
    NothingToCancel,
    /// An opening action the opening rule does not allow now (its own code per kind, see
    /// [`GameError::code`]).
    #[error("{0}")]
    Opening(OpeningError),
    /// An undo request during the opening, or one that would take back opening stones.
    #[error("moves of the opening cannot be taken back")]
    UndoInOpening,
    /// A timeout before the deadline (and before the disconnection grace ran out).
    #[error("the time has not run out yet (deadline {deadline} ms, now {now} ms)")]
    NotTimedOut {
        /// When the time runs out.
        deadline: u64,
        /// The action's time.
        now: u64,
    },
}

/// The English description of a forbidden shape.
fn forbidden_en(kind: ForbiddenKind) -> &'static str {
    match kind {
        ForbiddenKind::DoubleThree => "a 3-3 point (double three is forbidden)",
        ForbiddenKind::DoubleFour => "a 4-4 point (double four is forbidden)",
        ForbiddenKind::Overline => "it makes six or more in a row (overline is forbidden)",
    }
}

/// The Korean name of a colour (`흑`, `백`).
pub(crate) const fn color_ko(c: Color) -> &'static str {
    match c {
        Color::Black => "흑",
        Color::White => "백",
    }
}

/// The English name of a colour, capitalised (`Black`, `White`).
pub(crate) const fn color_en(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// The Korean name of an opening step or action.
fn opening_step_ko(name: &str) -> &'static str {
    match name {
        "place" => "돌 놓기",
        "swap" => "흑백 바꾸기 선택",
        "swap2Choice" => "스왑2 선택(바꾸기, 4수 놓기, 두 수 더 놓기)",
        "putTwo" => "두 수 더 놓기",
        "declare" => "5수 개수 선언",
        "offer" => "5수 후보 제시",
        "swapOrOffer" => "바꾸기 선택 또는 5수 후보 제시",
        "choose" => "5수 후보 고르기",
        _ => "다른 동작",
    }
}

/// The Korean text of a region.
fn region_ko(region: Region) -> String {
    match region {
        Region::Anywhere => "판 어디든".into(),
        Region::Within(0) => "가운데(천원)".into(),
        Region::Within(r) => {
            let side = 2 * u32::from(r) + 1;
            format!("가운데 {side}×{side} 안")
        }
        Region::AtLeast(r) => format!("가운데에서 {r}칸 이상 떨어진 곳"),
    }
}

/// The stable code of an opening error (shared with the Pente referee).
pub(crate) const fn opening_code(e: &OpeningError) -> &'static str {
    match e {
        OpeningError::WrongAction { .. } | OpeningError::Swap2KeepIsAPlace => "wrongOpeningAction",
        OpeningError::OutsideRegion { .. } => "outsideRegion",
        OpeningError::BadDeclare { .. } => "badDeclare",
        OpeningError::BadOfferCount { .. } => "badOfferCount",
        OpeningError::SymmetricOffers { .. } => "symmetricOffers",
        OpeningError::NotOffered(_) => "notOffered",
        OpeningError::Finished => "openingOver",
        OpeningError::NotYourTurn { .. } => "notYourTurn",
        OpeningError::OffBoard { .. } => "offBoard",
        OpeningError::Occupied { .. } => "occupied",
        OpeningError::UnknownRule(_)
        | OpeningError::BadSoosorvN(_)
        | OpeningError::BadSwapStones(_)
        | OpeningError::BoardTooSmall { .. } => "badOption",
    }
}

/// The Korean message of an opening error (shared with the Pente referee).
pub(crate) fn opening_ko(e: &OpeningError) -> String {
    match e {
        OpeningError::UnknownRule(r) => format!("{r}은(는) 알 수 없는 오프닝 규칙이에요"),
        OpeningError::BadSoosorvN(n) => format!("수소르브 N은 1부터 10까지여야 해요({n})"),
        OpeningError::BadSwapStones(n) => {
            format!("스왑에서 먼저 놓는 돌은 1개부터 6개까지여야 해요({n})")
        }
        OpeningError::BoardTooSmall { min, .. } => {
            format!("이 오프닝 규칙은 {min}×{min} 이상의 판이 필요해요")
        }
        OpeningError::Finished => "오프닝이 이미 끝났어요".into(),
        OpeningError::NotYourTurn { .. } => "지금은 상대 차례예요".into(),
        OpeningError::WrongAction { expected, got } => format!(
            "지금은 {}을(를) 할 차례예요({}은(는) 할 수 없어요)",
            opening_step_ko(expected),
            opening_step_ko(got)
        ),
        OpeningError::Swap2KeepIsAPlace => {
            "스왑2에서는 바꾸기, 4수 놓기, 두 수 더 놓기 중 하나를 골라야 해요".into()
        }
        OpeningError::OffBoard { .. } => "판 밖의 자리예요".into(),
        OpeningError::Occupied { .. } => "이미 돌이 있는 자리예요".into(),
        OpeningError::OutsideRegion { region, .. } => {
            format!("이 돌은 {}에 둬야 해요", region_ko(*region))
        }
        OpeningError::BadDeclare { max, got } => {
            format!("5수 후보는 1개부터 {max}개까지 선언할 수 있어요({got}개는 안 돼요)")
        }
        OpeningError::BadOfferCount { expected, got } => {
            format!("5수 후보를 정확히 {expected}개 제시해야 해요({got}개를 냈어요)")
        }
        OpeningError::SymmetricOffers { .. } => {
            "서로 대칭인 5수 후보는 함께 제시할 수 없어요".into()
        }
        OpeningError::NotOffered(_) => "제시된 5수 후보 중에서 골라야 해요".into(),
    }
}

impl GameError {
    /// A stable camelCase code for programs (`occupied`, `forbidden`, `notYourTurn`, …).
    pub const fn code(&self) -> &'static str {
        match self {
            GameError::BadOption { .. } => "badOption",
            GameError::BadPlayers { .. } => "badPlayers",
            GameError::UnknownPreviousBlack(_) => "unknownPreviousBlack",
            GameError::GameOver => "gameOver",
            GameError::UnknownPlayer(_) => "unknownPlayer",
            GameError::NotYourTurn(_) => "notYourTurn",
            GameError::TimeWentBackwards { .. } => "timeWentBackwards",
            GameError::OffBoard { .. } => "offBoard",
            GameError::Occupied { .. } => "occupied",
            GameError::FirstMoveNotCentre { .. } => "firstMoveNotCentre",
            GameError::Forbidden { .. } => "forbidden",
            GameError::UndoDisabled => "undoDisabled",
            GameError::UndoExhausted { .. } => "undoExhausted",
            GameError::UndoPending => "undoPending",
            GameError::NothingToUndo => "nothingToUndo",
            GameError::NoUndoRequest => "noUndoRequest",
            GameError::OwnRequest => "ownRequest",
            GameError::DrawOffersDisabled => "drawOffersDisabled",
            GameError::DrawPending => "drawPending",
            GameError::DrawTooSoon { .. } => "drawTooSoon",
            GameError::NoDrawOffer => "noDrawOffer",
            GameError::NothingToCancel => "nothingToCancel",
            GameError::NotTimedOut { .. } => "notTimedOut",
            GameError::UndoInOpening => "undoInOpening",
            GameError::Opening(e) => opening_code(e),
        }
    }

    /// The message for Korean players (seed 004 §8.2 style).
    pub fn message_ko(&self) -> String {
        match self {
            GameError::BadOption { field, value, .. } => {
                format!("옵션 {field}의 값 {value}은(는) 쓸 수 없어요")
            }
            GameError::BadPlayers { .. } => {
                "두 플레이어의 아이디는 서로 다르고 비어 있지 않아야 해요".into()
            }
            GameError::UnknownPreviousBlack(p) => {
                format!("이전 대국의 흑({p})이 이 게임의 플레이어가 아니에요")
            }
            GameError::GameOver => "이미 끝난 게임이에요".into(),
            GameError::UnknownPlayer(p) => format!("{p}은(는) 이 게임의 플레이어가 아니에요"),
            GameError::NotYourTurn(_) => "지금은 상대 차례예요".into(),
            GameError::TimeWentBackwards { .. } => "시각이 직전 액션보다 이전이에요".into(),
            GameError::OffBoard { .. } => "판 밖의 자리예요".into(),
            GameError::Occupied { .. } => "이미 돌이 있는 자리예요".into(),
            GameError::FirstMoveNotCentre { .. } => "첫 수는 가운데에 둬야 해요".into(),
            GameError::Forbidden { color, kind, .. } => {
                let c = color_ko(*color);
                match kind {
                    ForbiddenKind::DoubleThree => {
                        format!("{c}은 3-3 자리에 둘 수 없어요(쌍삼 금지)")
                    }
                    ForbiddenKind::DoubleFour => format!("{c}은 4-4 자리에 둘 수 없어요"),
                    ForbiddenKind::Overline => format!("{c}은 6목 이상을 만들 수 없어요"),
                }
            }
            GameError::UndoDisabled => "이 게임에서는 무르기를 할 수 없어요".into(),
            GameError::UndoExhausted { .. } => "무르기 횟수를 모두 썼어요".into(),
            GameError::UndoPending => "이미 대기 중인 무르기 요청이 있어요".into(),
            GameError::NothingToUndo => "무를 수 있는 내 수가 없어요".into(),
            GameError::NoUndoRequest => "응답할 무르기 요청이 없어요".into(),
            GameError::OwnRequest => "내 요청에는 내가 응답할 수 없어요".into(),
            GameError::DrawOffersDisabled => "이 게임에서는 무승부를 제안할 수 없어요".into(),
            GameError::DrawPending => "이미 대기 중인 무승부 제안이 있어요".into(),
            GameError::DrawTooSoon { moves_left } => {
                format!("무승부를 다시 제안하려면 {moves_left}수를 더 둬야 해요")
            }
            GameError::NoDrawOffer => "응답할 무승부 제안이 없어요".into(),
            GameError::NothingToCancel => "취소할 요청이 없어요".into(),
            GameError::NotTimedOut { .. } => "아직 시간이 남아 있어요".into(),
            GameError::UndoInOpening => "오프닝 수는 무를 수 없어요".into(),
            GameError::Opening(e) => opening_ko(e),
        }
    }

    /// The message in English (the same text as `Display`).
    pub fn message_en(&self) -> String {
        self.to_string()
    }

    /// The error as it is sent to clients: code and both messages.
    pub fn info(&self) -> ErrorInfo {
        ErrorInfo {
            code: self.code().to_string(),
            message_ko: self.message_ko(),
            message_en: self.message_en(),
        }
    }
}

/// An error as JSON: `{"code": …, "message_ko": …, "message_en": …}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrorInfo {
    /// The machine code ([`GameError::code`], or a session code such as `malformedAction`).
    pub code: String,
    /// The Korean message.
    pub message_ko: String,
    /// The English message.
    pub message_en: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_messages_are_verbatim() {
        assert_eq!(
            GameError::Occupied { x: 1, y: 1 }.message_ko(),
            "이미 돌이 있는 자리예요"
        );
        let f = |kind| GameError::Forbidden {
            color: Color::Black,
            kind,
            point: "H8".into(),
        };
        assert_eq!(
            f(ForbiddenKind::DoubleThree).message_ko(),
            "흑은 3-3 자리에 둘 수 없어요(쌍삼 금지)"
        );
        assert_eq!(
            f(ForbiddenKind::DoubleFour).message_ko(),
            "흑은 4-4 자리에 둘 수 없어요"
        );
        assert_eq!(
            f(ForbiddenKind::Overline).message_ko(),
            "흑은 6목 이상을 만들 수 없어요"
        );
        assert_eq!(
            GameError::FirstMoveNotCentre {
                centre: "H8".into()
            }
            .message_ko(),
            "첫 수는 가운데에 둬야 해요"
        );
        assert_eq!(
            f(ForbiddenKind::DoubleThree).message_en(),
            "black may not play H8: a 3-3 point (double three is forbidden)"
        );
    }

    #[test]
    fn info_has_code_and_both_messages() {
        let v = serde_json::to_value(GameError::NotYourTurn(Color::White).info()).unwrap();
        assert_eq!(v["code"], "notYourTurn");
        assert_eq!(v["message_ko"], "지금은 상대 차례예요");
        assert_eq!(v["message_en"], "it is not white's turn");
    }
}
