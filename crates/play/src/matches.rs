//! A table-game match (`match_seed_v2`/`v1`): commitment, draws in sequence, finish and reveal.
