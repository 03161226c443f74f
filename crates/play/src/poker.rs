//! A `poker_hmac_v1` table: seats, seed sessions, hands and streets, leaving and rotation.
