//! Threat hints (seed 004 `hints`).
