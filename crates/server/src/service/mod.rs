//! Operations that handlers and background tasks share: a handler parses,
//! calls one of these, and renders; a background task calls them too, never
//! a handler.

pub mod poker;
