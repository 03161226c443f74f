//! `chess_colour_v1`: who plays White, from both players' seeds (docs/spec.md §6).

use crate::seed::{Commitment, ServerSeed};
use crate::stream::{DrawSource, HmacStream};

/// One side of a chess pairing: its connection's committed seed and client seed.
#[derive(Debug, Clone, Copy)]
pub struct ChessSide<'a> {
    /// The connection's server seed.
    pub seed: &'a ServerSeed,
    /// `sha256(seed)`, committed before the seek, challenge or bot game.
    pub commitment: &'a Commitment,
    /// The player's client seed.
    pub client: &'a str,
}

/// Which side plays White.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colour {
    /// The owner of the seek or challenge plays White.
    A,
    /// The other side (or the bot) plays White.
    B,
}

impl Colour {
    /// `"A"` or `"B"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Colour::A => "A",
            Colour::B => "B",
        }
    }
}

/// `w(k) = word(seed_a, m(k)) XOR word(seed_b, m(k))` (seed_a alone against a bot).
struct XorStream {
    a: HmacStream,
    b: Option<HmacStream>,
}

impl DrawSource for XorStream {
    fn next_word(&mut self) -> u64 {
        let a = self.a.next_word();
        match &mut self.b {
            Some(b) => a ^ b.next_word(),
            None => a,
        }
    }
}

/// The colour draw: `white = int(2)` over `w(0), w(1), …`; `b` is `None` for a bot.
pub fn white(a: &ChessSide<'_>, b: Option<&ChessSide<'_>>) -> Colour {
    let commit_b = b.map_or_else(|| "-".to_owned(), |b| b.commitment.to_hex());
    let client_b = b.map_or("", |b| b.client);
    let prefix = format!(
        "cc1:{}:{commit_b}:0={},1={client_b}:",
        a.commitment, a.client
    );
    let mut stream = XorStream {
        a: HmacStream::new(a.seed.key(), prefix.as_bytes()),
        b: b.map(|b| HmacStream::new(b.seed.key(), prefix.as_bytes())),
    };
    if stream.int(2) == 0 {
        Colour::A
    } else {
        Colour::B
    }
}
