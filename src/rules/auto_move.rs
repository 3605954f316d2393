//! Auto-move (SPEC §5.1).
