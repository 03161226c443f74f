//! A `selfpoker` hand: a 63-bit seed committed per hand, revealed at its end.
