//! Names of cards and tiles, for reports (docs/spec.md §4).

const RANKS52: &[u8; 13] = b"23456789TJQKA";
const RANKS32: &[u8; 8] = b"789TJQKA";
const SUITS: &[u8; 4] = b"cdhs";

/// A 52-card id in the §2 layout (`rank = id mod 13`, `suit = id div 13`): `51` is `As`.
pub fn card52(id: u64) -> String {
    named(id, 52, |id| {
        pair(RANKS52[(id % 13) as usize], SUITS[(id / 13) as usize])
    })
}

/// A baloot id (`rank = id mod 8` → `789TJQKA`, `suit = id div 8`).
pub fn baloot(id: u64) -> String {
    named(id, 32, |id| {
        pair(RANKS32[(id % 8) as usize], SUITS[(id / 8) as usize])
    })
}

/// A selfpoker id (`rank = id div 4`, `suit = id mod 4`): not the §2 layout.
pub fn selfpoker(id: u64) -> String {
    named(id, 52, |id| {
        pair(RANKS52[(id / 4) as usize], SUITS[(id % 4) as usize])
    })
}

/// A mahjong tile id: `0..135` by kind (`id div 4`), `136..143` flowers then seasons.
pub fn mahjong(id: u64) -> String {
    const HONOURS: [&str; 7] = [
        "East wind",
        "South wind",
        "West wind",
        "North wind",
        "White dragon",
        "Green dragon",
        "Red dragon",
    ];
    named(id, 144, |id| {
        if id >= 136 {
            let k = id - 136;
            return if k < 4 {
                format!("Flower {}", k + 1)
            } else {
                format!("Season {}", k - 3)
            };
        }
        let kind = id / 4;
        match kind {
            0..=8 => format!("{} Characters", kind + 1),
            9..=17 => format!("{} Dots", kind - 8),
            18..=26 => format!("{} Bamboo", kind - 17),
            // kind is 27..=33 here.
            _ => HONOURS[(kind - 27) as usize].to_owned(),
        }
    })
}

fn pair(rank: u8, suit: u8) -> String {
    let mut s = String::with_capacity(2);
    s.push(char::from(rank));
    s.push(char::from(suit));
    s
}

/// `name(id)` for ids below `count`, else the id itself with a question mark.
fn named(id: u64, count: u64, name: impl Fn(u64) -> String) -> String {
    if id < count {
        name(id)
    } else {
        format!("?{id}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(card52(51), "As");
        assert_eq!(card52(0), "2c");
        assert_eq!(card52(21), "Td");
        assert_eq!(baloot(31), "As");
        assert_eq!(baloot(0), "7c");
        assert_eq!(selfpoker(51), "As");
        assert_eq!(selfpoker(1), "2d");
        assert_eq!(mahjong(0), "1 Characters");
        assert_eq!(mahjong(135), "Red dragon");
        assert_eq!(mahjong(136), "Flower 1");
        assert_eq!(mahjong(143), "Season 4");
        assert_eq!(card52(52), "?52");
    }
}
