//! The Pente referee's typed errors: a stable code, a Korean message (the `~해요` style of the
//! omok referee) and an English one. The codes shared with the omok referee mean the same.
//!
//! Invariant: an action that returns an error has changed nothing, so the state hash stays.

use thiserror::Error;

use crate::game::ErrorInfo;
use crate::game::error::{opening_code, opening_ko};
use crate::pente::options::OptionError;
use crate::pente::position::Illegal;
use crate::rules::opening::OpeningError;

/// Why the Pente referee rejected a setup or an action.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PenteError {
    /// An option out of range or an impossible combination.
    #[error(transparent)]
    BadOption(#[from] OptionError),
    /// The player list does not fit the `players` option, or ids repeat or are empty.
    #[error("players must be {expected} different non-empty ids")]
    BadPlayers {
        /// How many are needed.
        expected: u8,
    },
    /// The game has ended.
    #[error("the game is already over")]
    GameOver,
    /// The id is not a player of this game.
    #[error("{0:?} is not a player of this game")]
    UnknownPlayer(String),
    /// Not this player's turn.
    #[error("it is not {0}'s turn")]
    NotYourTurn(String),
    /// `now` before the last accepted action.
    #[error("now ({now} ms) is earlier than the last accepted action ({last} ms)")]
    TimeWentBackwards {
        /// The action's time.
        now: u64,
        /// The last accepted action's time.
        last: u64,
    },
    /// The rules refuse the move.
    #[error("illegal move at ({x},{y}): {reason}")]
    Illegal {
        /// Column given.
        x: i64,
        /// Row given.
        y: i64,
        /// Why.
        reason: Illegal,
    },
    /// An opening action (swap, putTwo, …) when there is no opening phase, or it is over.
    #[error("the opening is over (or this game has none)")]
    NoOpening,
    /// The opening rules refuse the action (Swap, Swap2).
    #[error(transparent)]
    Opening(OpeningError),
    /// Undo is off in this game, or the game has more than two sides.
    #[error("undo is not available in this game")]
    UndoDisabled,
    /// The player has used every undo.
    #[error("no undos left (limit {limit})")]
    UndoExhausted {
        /// The limit per player.
        limit: u32,
    },
    /// An undo request is already pending.
    #[error("an undo request is already pending")]
    UndoPending,
    /// The requester has no move on the board to take back.
    #[error("you have no move to take back")]
    NothingToUndo,
    /// respondUndo with no request pending.
    #[error("there is no undo request to answer")]
    NoUndoRequest,
    /// Undo during the opening, or one that would take back an opening stone.
    #[error("opening stones cannot be taken back")]
    UndoInOpening,
    /// Draw offers are off, or the game has more than two sides.
    #[error("draw offers are turned off in this game")]
    DrawOffersDisabled,
    /// A draw offer is already pending.
    #[error("a draw offer is already pending")]
    DrawPending,
    /// Nothing to answer.
    #[error("there is no draw offer to answer")]
    NoDrawOffer,
    /// Answering one's own offer.
    #[error("you cannot answer your own request")]
    OwnRequest,
    /// Nothing of the player's pending.
    #[error("you have no pending undo request or draw offer to cancel")]
    NothingToCancel,
    /// A timeout before the deadline.
    #[error("the time has not run out yet (deadline {deadline} ms, now {now} ms)")]
    NotTimedOut {
        /// When the time runs out.
        deadline: u64,
        /// The action's time.
        now: u64,
    },
}

impl PenteError {
    /// A stable camelCase code.
    pub const fn code(&self) -> &'static str {
        match self {
            PenteError::BadOption(_) => "badOption",
            PenteError::BadPlayers { .. } => "badPlayers",
            PenteError::GameOver => "gameOver",
            PenteError::UnknownPlayer(_) => "unknownPlayer",
            PenteError::NotYourTurn(_) => "notYourTurn",
            PenteError::TimeWentBackwards { .. } => "timeWentBackwards",
            PenteError::Illegal { reason, .. } => match reason {
                Illegal::GameOver => "gameOver",
                Illegal::OffBoard { .. } => "offBoard",
                Illegal::Occupied => "occupied",
                Illegal::Suicide => "suicideForbidden",
                Illegal::Overline => "overlineForbidden",
                Illegal::MustBreakLine => "mustBreakLine",
                Illegal::NotCentre => "firstMoveNotCentre",
                Illegal::TooClose { .. } => "tooCloseToCentre",
            },
            PenteError::NoOpening => "openingOver",
            PenteError::Opening(e) => opening_code(e),
            PenteError::UndoDisabled => "undoDisabled",
            PenteError::UndoExhausted { .. } => "undoExhausted",
            PenteError::UndoPending => "undoPending",
            PenteError::NothingToUndo => "nothingToUndo",
            PenteError::NoUndoRequest => "noUndoRequest",
            PenteError::UndoInOpening => "undoInOpening",
            PenteError::DrawOffersDisabled => "drawOffersDisabled",
            PenteError::DrawPending => "drawPending",
            PenteError::NoDrawOffer => "noDrawOffer",
            PenteError::OwnRequest => "ownRequest",
            PenteError::NothingToCancel => "nothingToCancel",
            PenteError::NotTimedOut { .. } => "notTimedOut",
        }
    }

    /// The Korean message.
    pub fn message_ko(&self) -> String {
        match self {
            PenteError::BadOption(e) => {
                format!("옵션 {}의 값 {}은(는) 쓸 수 없어요", e.field, e.value)
            }
            PenteError::BadPlayers { expected } => {
                format!("서로 다른 플레이어 {expected}명이 필요해요")
            }
            PenteError::GameOver => "이미 끝난 게임이에요".into(),
            PenteError::UnknownPlayer(_) => "이 게임의 플레이어가 아니에요".into(),
            PenteError::NotYourTurn(_) => "상대의 차례예요".into(),
            PenteError::TimeWentBackwards { .. } => "시간이 거꾸로 갈 수 없어요".into(),
            PenteError::Illegal { reason, .. } => match reason {
                Illegal::GameOver => "이미 끝난 게임이에요".into(),
                Illegal::OffBoard { .. } => "바둑판 밖이에요".into(),
                Illegal::Occupied => "이미 돌이 있는 자리예요".into(),
                Illegal::Suicide => "자충수가 되는 자리라 둘 수 없어요".into(),
                Illegal::Overline => "장목이 되는 자리라 둘 수 없어요".into(),
                Illegal::MustBreakLine => "연장전에서는 완성된 줄을 모두 깨야 해요".into(),
                Illegal::NotCentre => "첫 수는 천원에 두어야 해요".into(),
                Illegal::TooClose { min } => {
                    format!("선공의 두 번째 수는 천원에서 {min}칸 이상 떨어져야 해요")
                }
            },
            PenteError::NoOpening => "오프닝이 이미 끝났어요".into(),
            PenteError::Opening(e) => opening_ko(e),
            PenteError::UndoDisabled => "이 게임에서는 무르기를 할 수 없어요".into(),
            PenteError::UndoExhausted { .. } => "무르기 횟수를 모두 썼어요".into(),
            PenteError::UndoPending => "이미 대기 중인 무르기 요청이 있어요".into(),
            PenteError::NothingToUndo => "무를 수 있는 내 수가 없어요".into(),
            PenteError::NoUndoRequest => "응답할 무르기 요청이 없어요".into(),
            PenteError::UndoInOpening => "오프닝 수는 무를 수 없어요".into(),
            PenteError::DrawOffersDisabled => "이 게임에서는 무승부를 제안할 수 없어요".into(),
            PenteError::DrawPending => "이미 대기 중인 무승부 제안이 있어요".into(),
            PenteError::NoDrawOffer => "응답할 무승부 제안이 없어요".into(),
            PenteError::OwnRequest => "내 요청에는 내가 응답할 수 없어요".into(),
            PenteError::NothingToCancel => "취소할 요청이 없어요".into(),
            PenteError::NotTimedOut { .. } => "아직 시간이 남아 있어요".into(),
        }
    }

    /// The English message.
    pub fn message_en(&self) -> String {
        self.to_string()
    }

    /// Code and both messages.
    pub fn info(&self) -> ErrorInfo {
        ErrorInfo {
            code: self.code().into(),
            message_ko: self.message_ko(),
            message_en: self.message_en(),
        }
    }
}
