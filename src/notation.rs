//! Notation.
