//! Engine parameters: every tunable with its default, mirrored by `engine-config/default.toml`
//! (a test keeps them equal). Loaded from TOML with [`Params::from_toml`]; never from globals.
//!
//! Naming glossary for tunables: `*_ms` durations, `*_fraction`/`*_factor` multipliers,
//! `*_min`/`*_max` bounds.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::rule::Rule;

/// A configuration file that cannot be used.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// Not valid TOML or not the expected fields.
    #[error("invalid engine config: {0}")]
    Toml(#[from] toml::de::Error),
    /// A value outside its range.
    #[error("invalid engine config: {0}")]
    Range(String),
}

/// All engine parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// The oldest engine version this file is meant for.
    pub min_version: String,
    /// Time management.
    pub time: TimeParams,
    /// Search.
    pub search: SearchParams,
    /// Search parameters of their own for some rules: under a rule listed here, its entry
    /// replaces `search` ([`Params::search_for`]). In TOML, a table `[rule_search.<rule>]`
    /// (any name of the rule that [`Rule`] parses) holds the keys of `[search]` that differ
    /// under that rule.
    #[serde(skip)]
    pub rule_search: Vec<(Rule, SearchParams)>,
    /// The practice ladder: `INFO strength` picks the last level whose `strength_min` it reaches.
    pub levels: Vec<PracticeLevel>,
}

/// Entries of [`SearchParams::lmp_counts`].
pub const LMP_TABLE_LEN: usize = 10;

/// The largest history value a move reaches in the search (and, with the history malus, the
/// lowest its negative); also the no-cap value of `history_quiet_cap`.
pub const HISTORY_MAX: i32 = 1 << 14;

/// Search parameters (see [`crate::search`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchParams {
    /// Attacker moves the VCF step at the horizon looks for (1..=30).
    pub vcf_depth: u32,
    /// Half-width of the aspiration window around the previous score (10..=1000).
    pub aspiration_window: i32,
    /// On a score outside the aspiration window, the failed bound moves past the score by the
    /// window, doubled at each further failure, for up to this many failures before the search
    /// opens that side fully; 0 = fully at the first failure (0..=8).
    #[serde(default)]
    pub aspiration_widenings: u32,
    /// Late-move reductions start at this depth (1..=20).
    pub lmr_min_depth: i32,
    /// ...after this many moves (1..=60)...
    pub lmr_min_moves: usize,
    /// ...and reduce one ply more after this many (1..=200).
    pub lmr_deep_moves: usize,
    /// Moves whose ordering score is below this are quiet (reducible, killers) (0..=10000).
    pub quiet_order_threshold: i32,
    /// Plies past the horizon that defences against an open three are still searched (0..=10).
    pub defence_extension_plies: i32,
    /// Plies past the horizon that defences against a winning shape (two fours, a four and an
    /// open three, two open threes) are still searched (0..=10).
    #[serde(default = "default_shape_extension_plies")]
    pub shape_extension_plies: i32,
    /// Past the horizon, where nothing is to be answered, the side to move may play its fours
    /// (each answered by its block) for up to this many of its moves, keeping the evaluation
    /// when no four raises it (0..=10; 0 = the evaluation and the VCF check alone).
    #[serde(default)]
    pub horizon_four_plies: i32,
    /// Past the horizon (within `defence_extension_plies` of it), where the opponent has a VCF
    /// and the side to move none, the side to move searches the defences (the points of the
    /// opponent's VCF line and its own fours) instead of taking the evaluation (0..=10 plies;
    /// 0 = off).
    #[serde(default)]
    pub horizon_vcf_defence_plies: i32,
    /// Weight of the side to move's potential in the evaluation, in percent (50..=300).
    pub tempo_percent: i32,
    /// Move-count pruning applies up to this depth (0..=64)...
    pub lmp_max_depth: i32,
    /// ...keeping `lmp_base + lmp_factor * depth²` quiet moves (1..=100, 0..=50).
    pub lmp_base: i32,
    /// See `lmp_base`.
    pub lmp_factor: i32,
    /// Move-count pruning by table: when the first entry is non-zero, the quiet moves kept at
    /// depth `d` (1..=`lmp_max_depth`) are `lmp_counts[d - 1]` (the last entry beyond the
    /// table) instead of `lmp_base + lmp_factor * depth²`; all zero = the formula (0..=200 each).
    #[serde(default)]
    pub lmp_counts: [u8; LMP_TABLE_LEN],
    /// Share of that count, in percent, kept at a node whose evaluation is not above the one
    /// two plies before (the side to move is not improving); 100 = the same count (1..=100).
    #[serde(default = "full_percent")]
    pub lmp_not_improving_percent: i32,
    /// Logarithmic late-move reductions: when non-zero, the reduction of the `i`-th move
    /// (from `lmr_min_moves` on, at depths from `lmr_min_depth`) is
    /// `ln(depth) · ln(i) · lmr_log_percent / 100` plies, rounded down and at least one, instead
    /// of one ply (two after `lmr_deep_moves`); 0 = off (0..=300).
    #[serde(default)]
    pub lmr_log_percent: i32,
    /// At the horizon, search our VCF only when the static evaluation is below beta (an
    /// evaluation that reaches beta fails high without it); false = always.
    #[serde(default)]
    pub horizon_vcf_below_beta: bool,
    /// At the horizon, a local VCF: after the first four only the fours near the previous
    /// attacking stone (on its lines, within four cells); false = every four.
    #[serde(default)]
    pub horizon_vcf_local: bool,
    /// At the horizon, the VCF tries at most this many fours at each of its moves, those with
    /// the highest move-ordering score (a winning straight four is always taken); 0 = every
    /// four (0..=16).
    #[serde(default)]
    pub horizon_vcf_width: u32,
    /// The VCT also tries quiet moves that threaten a four-three or double four (answered by
    /// every defence of that shape); false = fours and open threes only.
    #[serde(default)]
    pub vct_shape_threats: bool,
    /// Inside the tree, a node that answers an open three or a winning shape of the opponent
    /// with at most this many defences does not use up depth; 0 = off (0..=32).
    #[serde(default)]
    pub threat_extension_moves: u32,
    /// ...except that, in such a node, a defence that makes a four or an open three of our own
    /// (a counter-threat, which hands the opponent a threat to answer in turn) still uses a ply;
    /// false = every defence is free. Without it, threat and counter-threat can follow each
    /// other at no cost in depth.
    #[serde(default)]
    pub counter_threat_ply: bool,
    /// ...and only at nodes with at most this much depth left, so that a deep search does not
    /// follow every threat sequence for free from near its root; 0 = at any depth (0..=64).
    #[serde(default)]
    pub threat_extension_max_depth: i32,
    /// After such a free reply, the side that made the threat pays the ply back on its quiet
    /// moves: a move that makes no four or open three of its own is searched a ply shallower,
    /// so that only threat sequences go on for free; false = every move after a free reply
    /// keeps the depth, and a threat lets all of the attacker's moves be searched a ply deeper.
    #[serde(default)]
    pub free_reply_payback: bool,
    /// Futility pruning of quiet moves applies up to this depth (0..=10)...
    pub futility_max_depth: i32,
    /// ...when the static evaluation plus this margin per ply of depth cannot reach alpha
    /// (1..=5000).
    pub futility_margin: i32,
    /// Reverse futility pruning: a non-PV node up to this depth where the opponent threatens
    /// nothing (no five, open three or winning shape to make) and whose static evaluation
    /// minus `static_beta_margin` per ply of depth still reaches beta returns that evaluation
    /// without a search; 0 = off (0..=10).
    #[serde(default)]
    pub static_beta_max_depth: i32,
    /// See `static_beta_max_depth` (1..=5000).
    #[serde(default = "default_static_beta_margin")]
    pub static_beta_margin: i32,
    /// Plies of depth the reverse futility margin counts fewer at a node whose evaluation is
    /// above the one two plies before (the side to move is improving); 0 = none (0..=3).
    #[serde(default)]
    pub static_beta_improving_plies: i32,
    /// Razoring: at non-PV nodes up to this depth whose static evaluation plus
    /// `razor_margin` per ply of depth cannot reach alpha, only the horizon's step (VCF,
    /// defences against an open three, the evaluation) is searched; 0 = off (0..=10).
    pub razor_max_depth: i32,
    /// See `razor_max_depth` (1..=10000).
    pub razor_margin: i32,
    /// Attacker moves of the VCT tried at the root before the main search; 0 = off (0..=12).
    pub vct_depth: u32,
    /// Node budget of that VCT (1..=100000000).
    pub vct_root_nodes: u64,
    /// Attacker moves of the VCT tried at the nodes one ply above the horizon (where the side
    /// to move faces no threat); 0 = off (0..=8).
    pub vct_frontier_depth: u32,
    /// Node budget of each frontier VCT (1..=1000000).
    pub vct_frontier_nodes: u64,
    /// Root safety net: after each iteration the best move is checked for an opponent's VCT of
    /// up to this many attacker moves, and a move that loses is dropped from the root and the
    /// iteration searched again; 0 = off (0..=12).
    pub safety_vct_depth: u32,
    /// Node budget of each safety check (1..=10000000)...
    pub safety_vct_nodes: u64,
    /// ...or, when larger, this share in percent of the nodes the search has used so far
    /// (0..=400; 0 = the fixed budget only). A move found safe is checked again once the
    /// budget has grown fourfold, so the best move is re-checked deeper as the search goes on.
    #[serde(default)]
    pub safety_vct_share_percent: u32,
    /// Most root moves the safety net drops in one search (0..=64).
    pub safety_max_drops: u32,
    /// The VCTs (root, safety net, frontier) search best-first by proof numbers with up to
    /// this many attacker moves a line, instead of depth-first to their own depths; 0 = the
    /// depth-first VCT (0..=40).
    #[serde(default)]
    pub vct_proof_number_moves: u32,
    /// Share in percent of the parent node's static evaluation (from our side) mixed into a
    /// node's own: 50 averages the evaluation over the last two plies, which evens out the
    /// advantage the side to move always seems to have; 0 = the node's own only (0..=50). The
    /// evaluation's separate tables for the side to move and the side that waits hold most of
    /// that advantage already: the default is a quarter.
    #[serde(default)]
    pub eval_parent_percent: i32,
    /// When a search under a turn limit ends with time left, the best move is checked once
    /// more for an opponent's VCT with the nodes this share in percent of the time left would
    /// take at the search's speed; a move that loses is dropped and the depth searched again;
    /// 0 = off (0..=200).
    #[serde(default)]
    pub safety_final_percent: u32,
    /// Share in percent of its ordering score that a move keeps when it is far from both of
    /// the last two moves (neither within two cells nor on one of their lines within four):
    /// below 100 such moves are tried later and more often count as quiet (reduced, pruned);
    /// 100 = no change (1..=100).
    #[serde(default = "full_percent")]
    pub far_move_percent: i32,
    /// Where the transposition table holds a score for the node whose bound says it is closer
    /// to the truth than the static evaluation (a lower bound above it, an upper bound below
    /// it, or an exact score), the pruning steps and the horizon read that score instead;
    /// false = the static evaluation only.
    #[serde(default)]
    pub tt_eval_refine: bool,
    /// Internal iterative reduction: a node below the root at this depth or more with no move
    /// from the transposition table is searched a ply shallower; 0 = off (0..=20).
    #[serde(default)]
    pub iir_min_depth: i32,
    /// Plies a late-move reduction of more than one ply grows by at a node whose evaluation is
    /// not above the one two plies before (the side to move is not improving); 0 = none (0..=3).
    #[serde(default)]
    pub lmr_not_improving_plies: i32,
    /// Nodes decided without a move loop (the horizon, reverse futility, a won or lost shape)
    /// are stored in the transposition table as well; false = only searched nodes.
    #[serde(default)]
    pub tt_store_leaves: bool,
    /// Plies of depth the reverse futility margin never counts (the last plies before the
    /// horizon are free: at one ply from it with 1 here, an evaluation that reaches beta is
    /// enough); 0 = every ply counts (0..=3).
    #[serde(default)]
    pub static_beta_free_plies: i32,
    /// On a cutoff, the quiet moves searched before the move that cut lose as much history as
    /// that move gains (depth squared), so that moves which keep failing sink in the ordering;
    /// false = only the move that cut gains.
    #[serde(default)]
    pub history_malus: bool,
    /// Counter moves: the quiet move that last cut off after the opponent's previous move is
    /// tried right after the killers; false = no counter moves.
    #[serde(default)]
    pub counter_move: bool,
    /// The parent's share of a node's evaluation ([`SearchParams::eval_parent_percent`]) mixes
    /// only the potentials; the threat table's value is the node's own, unmixed; false = the
    /// whole evaluation is mixed.
    #[serde(default)]
    pub eval_parent_potentials_only: bool,
    /// Candidate moves are ordered by the values fitted to a stronger engine's moves
    /// (`src/pattern/policy_weights.rs`, `tune policy`) instead of the hand-set attack and
    /// defence weights; which moves count as quiet is still decided by the hand-set weights
    /// (`quiet_order_threshold`); false = the hand-set order.
    #[serde(default = "yes")]
    pub policy_ordering: bool,
    /// With the fitted ordering, a reduced quiet move whose fitted score lies more than this
    /// (hundredths of a unit of log-odds) below the best move's is reduced a ply more; 0 = off.
    #[serde(default)]
    pub policy_reduction_margin: i32,
    /// With the fitted ordering, at non-PV nodes within `lmp_max_depth` of the horizon, quiet
    /// moves whose fitted score lies more than this below the best move's are skipped; 0 = off.
    #[serde(default)]
    pub policy_prune_margin: i32,
    /// A move's history counts in its ordering score divided by this (1..=1000).
    #[serde(default = "default_history_order_divisor")]
    pub history_order_divisor: i32,
    /// Whether a move's history (divided by `history_order_divisor`) also counts towards its
    /// being quiet (reduced, pruned) as the transposition table's move and the killers do;
    /// false = the history only orders.
    #[serde(default = "yes")]
    pub history_quiet: bool,
    /// The most a move's history (after the divisor) counts towards its being quiet
    /// (0..=16384; 16384, the history's own ceiling, = no cap), so that the long searches,
    /// whose history grows large, do not take ever more moves out of the reductions.
    #[serde(default = "default_history_quiet_cap")]
    pub history_quiet_cap: i32,
    /// At the start of each iteration after the first, every history value is scaled to this
    /// percent (0..=100; 100 = kept as it is), so that it does not grow with the search's
    /// length.
    #[serde(default = "full_percent")]
    pub history_aging_percent: i32,
    /// Singular extension from this depth (0 = off, 0..=64): the stored best move of a node
    /// whose stored score is a lower bound at most three plies shallower is searched a ply
    /// deeper when every other move fails below that score less `singular_margin` per ply
    /// of depth at half the depth; when another move reaches it and it is at least beta, the
    /// node fails high without searching on.
    #[serde(default)]
    pub singular_min_depth: i32,
    /// The singular extension's margin per ply of depth (0..=1000).
    #[serde(default = "default_singular_margin")]
    pub singular_margin: i32,
    /// With the fitted ordering, a reduced quiet move is reduced a ply more for each this
    /// much (hundredths of a unit of log-odds) its fitted score lies below the best move's,
    /// up to `policy_lmr_max` plies; 0 = off (0..=10000).
    #[serde(default)]
    pub policy_lmr_step: i32,
    /// The most plies `policy_lmr_step` adds (0..=8).
    #[serde(default)]
    pub policy_lmr_max: i32,
    /// At a non-PV node with two or more plies left and nothing to answer whose evaluation
    /// beats beta by this much a ply of depth, every quiet move after the first is searched a
    /// ply shallower (re-searched in full if it beats alpha); 0 = off (0..=1000).
    #[serde(default)]
    pub fail_high_margin: i32,
    /// A node where no move raised alpha stores its best-scoring move in the transposition
    /// table (`true`); with `false` it keeps the move the table held for the position (or
    /// none): its moves all failed low, and the best-scoring of them is no better a first try
    /// when the position is searched again (a re-search after the root failed low, the next
    /// iteration) than any other.
    #[serde(default)]
    pub fail_low_tt_move: bool,
}

/// The default of a percentage that changes nothing at 100.
fn full_percent() -> i32 {
    100
}

/// The default of a switch that is on unless a file turns it off.
fn yes() -> bool {
    true
}

/// The default divisor of the history in the ordering score.
fn default_history_order_divisor() -> i32 {
    8
}

fn default_history_quiet_cap() -> i32 {
    HISTORY_MAX
}

/// The default plies past the horizon of the defences against a winning shape.
fn default_shape_extension_plies() -> i32 {
    2
}

/// The default margin per ply of depth of the singular extension's test.
fn default_singular_margin() -> i32 {
    4
}

/// The default margin per ply of reverse futility pruning.
fn default_static_beta_margin() -> i32 {
    60
}

impl SearchParams {
    /// How many quiet moves move-count pruning keeps at `depth`, by the table when it is set
    /// (depths below one take its first entry) and by `lmp_base + lmp_factor * depth²`
    /// otherwise (for any depth, as the square of a negative one is positive); where the side to
    /// move is not improving, `lmp_not_improving_percent` of that (rounded down).
    pub fn lmp_limit(&self, depth: i32, improving: bool) -> usize {
        let count = if self.lmp_counts[0] == 0 {
            (self.lmp_base + self.lmp_factor * depth * depth) as usize
        } else {
            let set = self.lmp_counts.iter().take_while(|&&v| v > 0).count();
            self.lmp_counts[(depth.max(1) as usize).min(set) - 1] as usize
        };
        if improving {
            count
        } else {
            count * self.lmp_not_improving_percent as usize / 100
        }
    }

    /// The plies a reduced quiet move is reduced more for its fitted score's gap `gap` below
    /// the best move's (hundredths of a unit of log-odds): one for each `policy_lmr_step`, at
    /// most `policy_lmr_max`; none when `policy_lmr_step` is 0.
    pub fn policy_plies(&self, gap: i32) -> i32 {
        if self.policy_lmr_step == 0 {
            return 0;
        }
        (gap.max(0) / self.policy_lmr_step).min(self.policy_lmr_max)
    }

    /// The late-move reduction of the `index`-th move (0-based, in search order) at `depth`,
    /// before the caller's conditions (quiet move, not forced, `lmr_min_depth`,
    /// `lmr_min_moves`).
    pub fn lmr_plies(&self, depth: i32, index: usize) -> i32 {
        if self.lmr_log_percent == 0 {
            return 1 + (index >= self.lmr_deep_moves) as i32;
        }
        let r =
            (depth.max(1) as f64).ln() * (index.max(1) as f64).ln() * self.lmr_log_percent as f64
                / 100.0;
        (r as i32).max(1)
    }

    /// Checks every field against the range its documentation gives.
    pub fn check(&self) -> Result<(), ConfigError> {
        let s = self;
        let ranges: &[(&str, i64, i64, i64)] = &[
            ("vcf_depth", s.vcf_depth as i64, 1, 30),
            ("horizon_vcf_width", s.horizon_vcf_width as i64, 0, 16),
            (
                "threat_extension_moves",
                s.threat_extension_moves as i64,
                0,
                32,
            ),
            (
                "threat_extension_max_depth",
                s.threat_extension_max_depth as i64,
                0,
                64,
            ),
            ("aspiration_window", s.aspiration_window as i64, 10, 1000),
            ("aspiration_widenings", s.aspiration_widenings as i64, 0, 8),
            ("lmr_min_depth", s.lmr_min_depth as i64, 1, 20),
            ("lmr_min_moves", s.lmr_min_moves as i64, 1, 60),
            ("lmr_deep_moves", s.lmr_deep_moves as i64, 1, 200),
            (
                "quiet_order_threshold",
                s.quiet_order_threshold as i64,
                0,
                10_000,
            ),
            (
                "defence_extension_plies",
                s.defence_extension_plies as i64,
                0,
                10,
            ),
            ("horizon_four_plies", s.horizon_four_plies as i64, 0, 10),
            (
                "horizon_vcf_defence_plies",
                s.horizon_vcf_defence_plies as i64,
                0,
                10,
            ),
            (
                "shape_extension_plies",
                s.shape_extension_plies as i64,
                0,
                10,
            ),
            ("tempo_percent", s.tempo_percent as i64, 50, 300),
            ("lmp_max_depth", s.lmp_max_depth as i64, 0, 64),
            ("lmp_base", s.lmp_base as i64, 1, 100),
            ("lmp_factor", s.lmp_factor as i64, 0, 50),
            (
                "lmp_not_improving_percent",
                s.lmp_not_improving_percent as i64,
                1,
                100,
            ),
            ("lmr_log_percent", s.lmr_log_percent as i64, 0, 300),
            ("futility_max_depth", s.futility_max_depth as i64, 0, 10),
            ("futility_margin", s.futility_margin as i64, 1, 5000),
            (
                "static_beta_max_depth",
                s.static_beta_max_depth as i64,
                0,
                10,
            ),
            ("static_beta_margin", s.static_beta_margin as i64, 1, 5000),
            (
                "static_beta_improving_plies",
                s.static_beta_improving_plies as i64,
                0,
                3,
            ),
            ("razor_max_depth", s.razor_max_depth as i64, 0, 10),
            ("razor_margin", s.razor_margin as i64, 1, 10_000),
            ("vct_depth", s.vct_depth as i64, 0, 12),
            (
                "vct_root_nodes",
                s.vct_root_nodes.min(i64::MAX as u64) as i64,
                1,
                100_000_000,
            ),
            ("vct_frontier_depth", s.vct_frontier_depth as i64, 0, 8),
            ("safety_vct_depth", s.safety_vct_depth as i64, 0, 12),
            (
                "safety_vct_nodes",
                s.safety_vct_nodes.min(i64::MAX as u64) as i64,
                1,
                10_000_000,
            ),
            ("safety_max_drops", s.safety_max_drops as i64, 0, 64),
            (
                "vct_proof_number_moves",
                s.vct_proof_number_moves as i64,
                0,
                40,
            ),
            ("eval_parent_percent", s.eval_parent_percent as i64, 0, 50),
            (
                "safety_final_percent",
                s.safety_final_percent as i64,
                0,
                200,
            ),
            ("far_move_percent", s.far_move_percent as i64, 1, 100),
            ("iir_min_depth", s.iir_min_depth as i64, 0, 20),
            (
                "policy_reduction_margin",
                s.policy_reduction_margin as i64,
                0,
                10_000,
            ),
            (
                "policy_prune_margin",
                s.policy_prune_margin as i64,
                0,
                10_000,
            ),
            (
                "history_order_divisor",
                s.history_order_divisor as i64,
                1,
                1000,
            ),
            (
                "history_aging_percent",
                s.history_aging_percent as i64,
                0,
                100,
            ),
            (
                "history_quiet_cap",
                s.history_quiet_cap as i64,
                0,
                HISTORY_MAX as i64,
            ),
            ("singular_min_depth", s.singular_min_depth as i64, 0, 64),
            ("singular_margin", s.singular_margin as i64, 0, 1000),
            ("policy_lmr_step", s.policy_lmr_step as i64, 0, 10000),
            ("policy_lmr_max", s.policy_lmr_max as i64, 0, 8),
            ("fail_high_margin", s.fail_high_margin as i64, 0, 1000),
            (
                "static_beta_free_plies",
                s.static_beta_free_plies as i64,
                0,
                3,
            ),
            (
                "lmr_not_improving_plies",
                s.lmr_not_improving_plies as i64,
                0,
                3,
            ),
            (
                "safety_vct_share_percent",
                s.safety_vct_share_percent as i64,
                0,
                400,
            ),
            (
                "vct_frontier_nodes",
                s.vct_frontier_nodes.min(i64::MAX as u64) as i64,
                1,
                1_000_000,
            ),
        ];
        if let Some(v) = s.lmp_counts.iter().find(|&&v| v > 200) {
            return Err(ConfigError::Range(format!(
                "search.lmp_counts entry {v} not in 0..=200"
            )));
        }
        for &(name, value, lo, hi) in ranges {
            if !(lo..=hi).contains(&value) {
                return Err(ConfigError::Range(format!(
                    "search.{name} {value} not in {lo}..={hi}"
                )));
            }
        }
        Ok(())
    }
}

/// One rung of the practice ladder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PracticeLevel {
    /// The lowest `strength` (0..=100) that selects this level.
    pub strength_min: u8,
    /// Search depth; 0 = the one-ply practice player.
    pub max_depth: u32,
    /// Node limit; 0 = none.
    pub max_nodes: u64,
    /// Root moves scoring within this of the best are chosen among at random (seeded); 0 = off.
    pub random_margin: i32,
    /// How many root moves (by ordering) are considered for the random choice.
    pub random_candidates: usize,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            vcf_depth: 12,
            aspiration_window: 60,
            aspiration_widenings: 3,
            lmr_min_depth: 3,
            lmr_min_moves: 3,
            lmr_deep_moves: 6,
            quiet_order_threshold: 1000,
            defence_extension_plies: 2,
            shape_extension_plies: default_shape_extension_plies(),
            horizon_four_plies: 0,
            horizon_vcf_defence_plies: 0,
            tempo_percent: crate::pattern::weights::TEMPO_PERCENT,
            lmp_max_depth: 4,
            lmp_base: 4,
            lmp_factor: 2,
            lmp_counts: [0; LMP_TABLE_LEN],
            lmp_not_improving_percent: 100,
            lmr_log_percent: 0,
            horizon_vcf_below_beta: true,
            horizon_vcf_local: true,
            horizon_vcf_width: 0,
            vct_shape_threats: false,
            threat_extension_moves: 4,
            counter_threat_ply: false,
            threat_extension_max_depth: 0,
            free_reply_payback: false,
            futility_max_depth: 0,
            futility_margin: 80,
            static_beta_max_depth: 5,
            static_beta_margin: default_static_beta_margin(),
            static_beta_improving_plies: 1,
            razor_max_depth: 0,
            razor_margin: 200,
            vct_depth: 5,
            vct_root_nodes: 8_000,
            vct_frontier_depth: 0,
            vct_frontier_nodes: 200,
            safety_vct_depth: 8,
            safety_vct_nodes: 4_000,
            safety_max_drops: 8,
            vct_proof_number_moves: 0,
            safety_vct_share_percent: 50,
            eval_parent_percent: 25,
            safety_final_percent: 100,
            far_move_percent: 100,
            tt_eval_refine: false,
            iir_min_depth: 0,
            lmr_not_improving_plies: 0,
            tt_store_leaves: false,
            static_beta_free_plies: 0,
            history_malus: false,
            counter_move: false,
            policy_ordering: true,
            policy_reduction_margin: 0,
            policy_prune_margin: 0,
            history_order_divisor: 8,
            history_quiet: true,
            history_quiet_cap: default_history_quiet_cap(),
            history_aging_percent: 100,
            eval_parent_potentials_only: false,
            singular_min_depth: 0,
            singular_margin: default_singular_margin(),
            policy_lmr_step: 0,
            policy_lmr_max: 0,
            fail_high_margin: 0,
            fail_low_tt_move: false,
        }
    }
}

/// The default practice ladder.
pub fn default_levels() -> Vec<PracticeLevel> {
    let level =
        |strength_min, max_depth, max_nodes, random_margin, random_candidates| PracticeLevel {
            strength_min,
            max_depth,
            max_nodes,
            random_margin,
            random_candidates,
        };
    vec![
        level(0, 0, 0, 0, 0),
        level(10, 2, 1_000, 30, 4),
        level(30, 3, 4_000, 20, 4),
        level(50, 4, 12_000, 10, 4),
        level(70, 5, 30_000, 0, 0),
        level(90, 0, 0, 0, 0),
    ]
}

impl Params {
    /// The search parameters under `rule`: its entry of [`Params::rule_search`], else
    /// [`Params::search`].
    pub fn search_for(&self, rule: Rule) -> SearchParams {
        self.rule_search
            .iter()
            .find(|&&(r, _)| r == rule)
            .map_or(self.search, |&(_, s)| s)
    }

    /// The practice level for a strength (the full-strength level has `max_depth` and
    /// `max_nodes` 0 and is the last one).
    pub fn level(&self, strength: u8) -> Option<&PracticeLevel> {
        self.levels
            .iter()
            .rev()
            .find(|l| strength >= l.strength_min)
    }

    /// Whether `strength` selects the last (full-strength) level.
    pub fn is_full_strength(&self, strength: u8) -> bool {
        self.levels
            .last()
            .is_none_or(|l| strength >= l.strength_min)
    }
}

/// Time management parameters (see [`crate::time`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeParams {
    /// Milliseconds kept back from every limit.
    pub reserve_ms: u64,
    /// The reserve never exceeds this fraction of the limit.
    pub reserve_fraction: f64,
    /// Fraction of the maximum aimed at under a turn limit.
    pub optimum_factor: f64,
    /// Fewest moves the match time is spread over.
    pub moves_to_go_min: u64,
    /// Most moves the match time is spread over.
    pub moves_to_go_max: u64,
    /// A move may use up to this many shares of the match time.
    pub match_share_cap_factor: u64,
    /// Thinking time per move without any limit.
    pub unlimited_move_ms: u64,
    /// A new iteration starts only while less than this fraction of the optimum has passed.
    pub iteration_start_fraction: f64,
    /// ...and only if this share of its expected cost (the last iteration's times its growth)
    /// fits before the maximum; 0 starts it whenever there is time left.
    pub iteration_useful_share: f64,
}

impl Default for TimeParams {
    fn default() -> Self {
        TimeParams {
            reserve_ms: 40,
            reserve_fraction: 0.15,
            optimum_factor: 1.0,
            moves_to_go_min: 12,
            moves_to_go_max: 40,
            match_share_cap_factor: 3,
            unlimited_move_ms: 10_000,
            iteration_start_fraction: 0.9,
            iteration_useful_share: 0.0,
        }
    }
}

impl Default for Params {
    fn default() -> Self {
        Params {
            min_version: "0.1.0".to_string(),
            time: TimeParams::default(),
            search: SearchParams::default(),
            rule_search: Vec::new(),
            levels: default_levels(),
        }
    }
}

impl Params {
    /// Parameters from TOML text, with range checks.
    pub fn from_toml(text: &str) -> Result<Params, ConfigError> {
        let mut table: toml::Table = toml::from_str(text)?;
        let by_rule = match table.remove("rule_search") {
            None => toml::Table::new(),
            Some(toml::Value::Table(t)) => t,
            Some(_) => return Err(ConfigError::Range("rule_search must be a table".into())),
        };
        let mut p: Params = table.try_into()?;
        for (name, changes) in by_rule {
            let rule: Rule = name
                .parse()
                .map_err(|_| ConfigError::Range(format!("rule_search.{name}: no such rule")))?;
            let toml::Value::Table(changes) = changes else {
                return Err(ConfigError::Range(format!(
                    "rule_search.{name} must be a table"
                )));
            };
            let in_table =
                |e: &dyn std::fmt::Display| ConfigError::Range(format!("rule_search.{name}: {e}"));
            let mut merged = toml::Table::try_from(p.search).map_err(|e| in_table(&e))?;
            merged.extend(changes);
            let search: SearchParams = merged.try_into().map_err(|e| in_table(&e))?;
            search.check().map_err(|e| match e {
                ConfigError::Range(m) => in_table(&m),
                other => other,
            })?;
            if p.rule_search.iter().any(|&(r, _)| r == rule) {
                return Err(ConfigError::Range(format!(
                    "rule_search.{name}: the rule has a table already"
                )));
            }
            p.rule_search.push((rule, search));
        }
        let t = &p.time;
        if !(0.0..=0.9).contains(&t.reserve_fraction) {
            return Err(ConfigError::Range(format!(
                "time.reserve_fraction {} not in 0..=0.9",
                t.reserve_fraction
            )));
        }
        if !(0.05..=1.0).contains(&t.optimum_factor) {
            return Err(ConfigError::Range(format!(
                "time.optimum_factor {} not in 0.05..=1",
                t.optimum_factor
            )));
        }
        if t.moves_to_go_min == 0 || t.moves_to_go_min > t.moves_to_go_max {
            return Err(ConfigError::Range(
                "time.moves_to_go_min must be 1..=moves_to_go_max".into(),
            ));
        }
        if !(0.05..=1.0).contains(&t.iteration_start_fraction) {
            return Err(ConfigError::Range(format!(
                "time.iteration_start_fraction {} not in 0.05..=1",
                t.iteration_start_fraction
            )));
        }
        if !(0.0..=1.0).contains(&t.iteration_useful_share) {
            return Err(ConfigError::Range(format!(
                "time.iteration_useful_share {} not in 0..=1",
                t.iteration_useful_share
            )));
        }
        if t.match_share_cap_factor == 0 {
            return Err(ConfigError::Range(
                "time.match_share_cap_factor must be at least 1".into(),
            ));
        }
        p.search.check()?;
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_toml_mirrors_the_defaults() {
        let text = include_str!("../engine-config/default.toml");
        assert_eq!(Params::from_toml(text).unwrap(), Params::default());
    }

    /// The default configuration with `extra` appended.
    fn with(extra: &str) -> Result<Params, ConfigError> {
        let text = include_str!("../engine-config/default.toml");
        Params::from_toml(&format!("{text}\n{extra}"))
    }

    #[test]
    fn a_rule_table_changes_only_its_keys_under_its_rule() {
        let p = with("[rule_search.renju]\nvcf_depth = 7\nlmr_min_moves = 5\n").unwrap();
        let renju = p.search_for(Rule::Renju);
        assert_eq!(renju.vcf_depth, 7);
        assert_eq!(renju.lmr_min_moves, 5);
        let base = Params::default();
        assert_eq!(
            SearchParams {
                vcf_depth: base.search.vcf_depth,
                lmr_min_moves: base.search.lmr_min_moves,
                ..renju
            },
            base.search_for(Rule::Renju)
        );
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Korean, Rule::Caro] {
            assert_eq!(p.search_for(rule), base.search_for(rule));
        }
        // Aliases name the same rule.
        let p = with("[rule_search.free]\nvcf_depth = 9\n").unwrap();
        assert_eq!(p.search_for(Rule::Freestyle).vcf_depth, 9);
        assert_eq!(p.search_for(Rule::Renju), base.search_for(Rule::Renju));
    }

    #[test]
    fn bad_rule_tables_are_errors() {
        for (extra, needle) in [
            ("[rule_search.gomoku9]\nvcf_depth = 7\n", "no such rule"),
            (
                "[rule_search.renju]\nvcf_dept = 7\n",
                "rule_search.renju: unknown field",
            ),
            (
                "[rule_search.renju]\nvcf_depth = 0\n",
                "rule_search.renju: ",
            ),
            (
                "[rule_search.renju]\n[rule_search.free]\n[rule_search.gomoku]\n",
                "already",
            ),
            ("[rule_search]\nrenju = 3\n", "must be a table"),
        ] {
            let err = with(extra).unwrap_err().to_string();
            assert!(err.contains(needle), "{extra:?}: {err}");
        }
        let text = include_str!("../engine-config/default.toml");
        let err = Params::from_toml(&format!("rule_search = 3\n{text}")).unwrap_err();
        assert!(err.to_string().contains("must be a table"), "{err}");
    }

    #[test]
    fn move_counts_and_reductions_follow_the_formula_or_the_table() {
        let mut s = SearchParams::default();
        // The formula, for every depth the search passes (the square of a negative depth too).
        for d in -3..=6 {
            assert_eq!(
                s.lmp_limit(d, true),
                (s.lmp_base + s.lmp_factor * d * d) as usize
            );
        }
        assert_eq!((s.lmr_plies(4, 3), s.lmr_plies(4, 6)), (1, 2));
        // The table: depths below one take the first entry, depths past its last non-zero
        // entry take that entry.
        s.lmp_counts = [3, 9, 14, 0, 0, 0, 0, 0, 0, 0];
        let limits: Vec<usize> = (-1..=5).map(|d| s.lmp_limit(d, true)).collect();
        assert_eq!(limits, [3, 3, 3, 9, 14, 14, 14]);
        // Not improving: the share of the count, rounded down; 100 keeps it.
        assert_eq!((s.lmp_limit(2, false), s.lmp_limit(3, false)), (9, 14));
        s.lmp_not_improving_percent = 50;
        let halves: Vec<usize> = (1..=3).map(|d| s.lmp_limit(d, false)).collect();
        assert_eq!(halves, [1, 4, 7]);
        assert_eq!(s.lmp_limit(3, true), 14);
        // ln(8) * ln(20) * 0.5 = 3.11 plies; small products still reduce one ply.
        s.lmr_log_percent = 50;
        assert_eq!(s.lmr_plies(8, 20), 3);
        assert_eq!(s.lmr_plies(3, 3), 1);
        assert_eq!(s.lmr_plies(1, 40), 1);
        s.lmp_counts[0] = 201;
        assert!(s.check().is_err());
        s.lmp_counts[0] = 3;
        s.lmr_log_percent = 301;
        assert!(s.check().is_err());
    }

    #[test]
    fn policy_reductions_grow_with_the_gap_up_to_their_cap() {
        let mut s = SearchParams::default();
        assert_eq!(s.policy_plies(5000), 0, "off by default");
        s.policy_lmr_step = 200;
        s.policy_lmr_max = 3;
        let plies: Vec<i32> = [0, 199, 200, 399, 400, 650, 5000, -30]
            .iter()
            .map(|&g| s.policy_plies(g))
            .collect();
        assert_eq!(plies, [0, 0, 1, 1, 2, 3, 3, 0]);
        s.policy_lmr_max = 0;
        assert_eq!(s.policy_plies(5000), 0, "a cap of 0 adds nothing");
    }

    #[test]
    fn the_far_move_share_is_a_percentage_that_defaults_to_no_change() {
        // A config written before the key existed changes nothing.
        let text =
            include_str!("../engine-config/default.toml").replace("far_move_percent = 100\n", "");
        assert_eq!(
            Params::from_toml(&text).unwrap().search.far_move_percent,
            100
        );
        let mut s = SearchParams::default();
        for (value, ok) in [(0, false), (1, true), (50, true), (100, true), (101, false)] {
            s.far_move_percent = value;
            assert_eq!(s.check().is_ok(), ok, "far_move_percent = {value}");
        }
    }

    #[test]
    fn bad_configs_are_errors() {
        assert!(Params::from_toml("min_version = 1").is_err());
        let text = include_str!("../engine-config/default.toml").replace(
            &format!(
                "reserve_fraction = {}",
                Params::default().time.reserve_fraction
            ),
            "reserve_fraction = 2.0",
        );
        assert!(matches!(
            Params::from_toml(&text),
            Err(ConfigError::Range(_))
        ));
        let text =
            include_str!("../engine-config/default.toml").replace("[time]", "bogus = 1\n[time]");
        assert!(Params::from_toml(&text).is_err());
        let text = include_str!("../engine-config/default.toml").replace(
            &format!("tempo_percent = {}", Params::default().search.tempo_percent),
            "tempo_percent = 5",
        );
        let err = Params::from_toml(&text).unwrap_err().to_string();
        assert!(err.contains("search.tempo_percent 5"), "{err}");
        // A history divisor of 0 would divide by zero in the search.
        let text = include_str!("../engine-config/default.toml")
            .replace("history_order_divisor = 8", "history_order_divisor = 0");
        let err = Params::from_toml(&text).unwrap_err().to_string();
        assert!(err.contains("search.history_order_divisor 0"), "{err}");
    }
}
