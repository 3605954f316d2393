//! Slow reference checker.
