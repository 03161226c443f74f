//! Serde for the core's checked text types (`Ident`, `ClientSeed`,
//! `Commitment`): written as their text, read back through their parser, so a
//! stored state that does not parse is an error naming the value's kind.

use std::collections::BTreeMap;

use fairseed_core::{ClientSeed, Commitment, Ident};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serializer};

/// A core type kept as text.
pub(crate) trait Text: Sized {
    fn to_text(&self) -> String;
    fn from_text(text: &str) -> Result<Self, fairseed_core::Error>;
}

impl Text for Ident {
    fn to_text(&self) -> String {
        self.as_str().to_owned()
    }
    fn from_text(text: &str) -> Result<Self, fairseed_core::Error> {
        Ident::parse_field(text, "ident")
    }
}

impl Text for ClientSeed {
    fn to_text(&self) -> String {
        self.as_str().to_owned()
    }
    fn from_text(text: &str) -> Result<Self, fairseed_core::Error> {
        ClientSeed::parse(text)
    }
}

impl Text for Commitment {
    fn to_text(&self) -> String {
        self.to_hex()
    }
    fn from_text(text: &str) -> Result<Self, fairseed_core::Error> {
        Commitment::parse_field(text, "commitment")
    }
}

pub(crate) fn serialize<T: Text, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&value.to_text())
}

pub(crate) fn deserialize<'de, T: Text, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    let text = String::deserialize(d)?;
    T::from_text(&text).map_err(D::Error::custom)
}

/// `Option<T>` as text or null.
pub(crate) mod opt {
    use super::*;

    pub(crate) fn serialize<T: Text, S: Serializer>(
        value: &Option<T>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => s.serialize_some(&v.to_text()),
            None => s.serialize_none(),
        }
    }

    pub(crate) fn deserialize<'de, T: Text, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<T>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|text| T::from_text(&text).map_err(D::Error::custom))
            .transpose()
    }
}

/// `BTreeMap<u8, T>` as an object of texts (seat keys in decimal).
pub(crate) mod seats {
    use super::*;

    pub(crate) fn serialize<T: Text, S: Serializer>(
        value: &BTreeMap<u8, T>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_map(value.iter().map(|(k, v)| (k, v.to_text())))
    }

    pub(crate) fn deserialize<'de, T: Text, D: Deserializer<'de>>(
        d: D,
    ) -> Result<BTreeMap<u8, T>, D::Error> {
        BTreeMap::<u8, String>::deserialize(d)?
            .into_iter()
            .map(|(k, v)| Ok((k, T::from_text(&v).map_err(D::Error::custom)?)))
            .collect()
    }
}
