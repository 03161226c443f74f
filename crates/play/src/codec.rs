//! Serde for the core's checked newtypes, so a flow's state keeps them typed
//! when the store saves it as JSON: each is written as its text and parsed
//! back through the core's own check (a stored value that no longer parses
//! is an error, never a silently wrong state).

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serializer};

/// A module of `serialize`/`deserialize` for `#[serde(with = …)]` over a
/// type written as `$text(&value)` and read back with `$parse(&str)`.
macro_rules! text_codec {
    ($name:ident, $ty:ty, $text:expr, $parse:expr) => {
        pub(crate) mod $name {
            use super::*;

            pub(crate) fn serialize<S: Serializer>(
                value: &$ty,
                serializer: S,
            ) -> Result<S::Ok, S::Error> {
                let text: String = ($text)(value);
                serializer.serialize_str(&text)
            }

            pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
                deserializer: D,
            ) -> Result<$ty, D::Error> {
                let text = String::deserialize(deserializer)?;
                ($parse)(text.as_str()).map_err(D::Error::custom)
            }
        }
    };
}

text_codec!(
    game,
    fairseed_core::games::Game,
    |g: &fairseed_core::games::Game| g.as_str().to_owned(),
    fairseed_core::games::Game::parse
);
text_codec!(
    ident,
    fairseed_core::Ident,
    |i: &fairseed_core::Ident| i.as_str().to_owned(),
    fairseed_core::Ident::parse
);
text_codec!(
    commitment,
    fairseed_core::Commitment,
    |c: &fairseed_core::Commitment| c.to_hex(),
    fairseed_core::Commitment::parse
);
text_codec!(
    client_seed,
    fairseed_core::ClientSeed,
    |c: &fairseed_core::ClientSeed| c.as_str().to_owned(),
    fairseed_core::ClientSeed::parse
);
text_codec!(
    server_seed,
    fairseed_core::ServerSeed,
    |s: &fairseed_core::ServerSeed| s.reveal().to_owned(),
    fairseed_core::ServerSeed::parse
);

/// The same for a list of client seeds.
pub(crate) mod client_seeds {
    use super::*;
    use fairseed_core::ClientSeed;

    pub(crate) fn serialize<S: Serializer>(
        seeds: &[ClientSeed],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(seeds.iter().map(ClientSeed::as_str))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<ClientSeed>, D::Error> {
        Vec::<String>::deserialize(deserializer)?
            .iter()
            .map(|s| ClientSeed::parse(s).map_err(D::Error::custom))
            .collect()
    }
}

/// The same for a list of client seeds not all given yet.
pub(crate) mod optional_client_seeds {
    use super::*;
    use fairseed_core::ClientSeed;

    pub(crate) fn serialize<S: Serializer>(
        seeds: &[Option<ClientSeed>],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(seeds.iter().map(|s| s.as_ref().map(ClientSeed::as_str)))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<Option<ClientSeed>>, D::Error> {
        Vec::<Option<String>>::deserialize(deserializer)?
            .iter()
            .map(|s| {
                s.as_deref()
                    .map(ClientSeed::parse)
                    .transpose()
                    .map_err(D::Error::custom)
            })
            .collect()
    }
}

/// The same for a client seed that may not be given yet.
pub(crate) mod optional_client_seed {
    use super::*;
    use fairseed_core::ClientSeed;

    pub(crate) fn serialize<S: Serializer>(
        seed: &Option<ClientSeed>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.serialize_some(&seed.as_ref().map(ClientSeed::as_str))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<ClientSeed>, D::Error> {
        Option::<String>::deserialize(deserializer)?
            .map(|s| ClientSeed::parse(&s).map_err(D::Error::custom))
            .transpose()
    }
}

/// The same for client seeds by seat (an object with decimal seat keys).
pub(crate) mod client_seeds_by_seat {
    use std::collections::BTreeMap;

    use super::*;
    use fairseed_core::ClientSeed;

    pub(crate) fn serialize<S: Serializer>(
        seeds: &BTreeMap<u8, ClientSeed>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_map(seeds.iter().map(|(seat, s)| (seat, s.as_str())))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<BTreeMap<u8, ClientSeed>, D::Error> {
        BTreeMap::<u8, String>::deserialize(deserializer)?
            .into_iter()
            .map(|(seat, s)| Ok((seat, ClientSeed::parse(&s).map_err(D::Error::custom)?)))
            .collect()
    }
}
