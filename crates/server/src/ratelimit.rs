//! Rate limits: token buckets in memory, per credential and per address.
//!
//! Per process: with several processes behind a balancer each enforces its
//! own share, which bounds abuse without a shared counter.
//!
//! Three limits: requests per token; account creations per client address;
//! unknown or failed tokens per client address. Unknown tokens are also
//! remembered for a while ([`MissCache`]), so guessing costs no database
//! lookup per guess. An IPv6 client is keyed by its /64, which one host
//! usually holds whole.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Buckets kept before idle ones are swept.
const SWEEP_AT: usize = 100_000;

/// Unknown token hashes remembered at most, and for how long.
const MISSES_MAX: usize = 100_000;
const MISS_TTL: Duration = Duration::from_secs(300);

/// Token buckets keyed by a string (a credential's hash, an address).
#[derive(Debug)]
pub struct RateLimiter {
    buckets: Mutex<Buckets>,
}

/// The rate, the burst and each key's tokens, under one lock so a reload
/// (SIGHUP) changes the rate between two requests, never within one.
#[derive(Debug)]
struct Buckets {
    per_second: f64,
    burst: f64,
    tokens: HashMap<String, (f64, Instant)>,
}

impl RateLimiter {
    /// `per_second` requests per second, bursts of twice that; 0 disables.
    pub fn new(per_second: u32) -> Self {
        Self::with_rate(f64::from(per_second), f64::from(per_second) * 2.0)
    }

    /// `per_minute` per minute, bursts of a quarter minute's worth (at
    /// least 5); 0 disables.
    pub fn per_minute(per_minute: u32) -> Self {
        let rate = f64::from(per_minute) / 60.0;
        Self::with_rate(rate, (f64::from(per_minute) / 4.0).max(5.0))
    }

    fn with_rate(per_second: f64, burst: f64) -> Self {
        Self {
            buckets: Mutex::new(Buckets {
                per_second,
                burst,
                tokens: HashMap::new(),
            }),
        }
    }

    /// Takes `other`'s rate and burst; the buckets' tokens stay (capped to
    /// the new burst at their next refill).
    pub fn set_rate_of(&self, other: &Self) {
        let Ok(theirs) = other.buckets.lock().map(|b| (b.per_second, b.burst)) else {
            return;
        };
        if let Ok(mut mine) = self.buckets.lock() {
            (mine.per_second, mine.burst) = theirs;
        }
    }

    /// Takes one request from `key`'s bucket, or says how many seconds to wait.
    pub fn check(&self, key: &str) -> Result<(), u64> {
        self.take(key, 1.0)
    }

    /// Whether `key`'s bucket holds a request, without taking it.
    pub fn peek(&self, key: &str) -> Result<(), u64> {
        self.take(key, 0.0)
    }

    /// Refills `key`'s bucket, then takes `cost` if a whole request is there.
    fn take(&self, key: &str, cost: f64) -> Result<(), u64> {
        let now = Instant::now();
        let Ok(mut buckets) = self.buckets.lock() else {
            return Ok(());
        };
        let Buckets {
            per_second: rate,
            burst,
            tokens: map,
        } = &mut *buckets;
        let (rate, burst) = (*rate, *burst);
        if rate <= 0.0 {
            return Ok(());
        }
        if map.len() >= SWEEP_AT {
            map.retain(|_, (tokens, at)| {
                *tokens + now.duration_since(*at).as_secs_f64() * rate < burst
            });
        }
        let (tokens, at) = map.entry(key.to_owned()).or_insert((burst, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * rate).min(burst);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= cost;
            Ok(())
        } else {
            let wait = (1.0 - *tokens) / rate;
            // Whole seconds, at least one, as Retry-After wants.
            Err(wait.ceil().max(1.0) as u64)
        }
    }
}

/// The per-address limits, per minute; 0 disables one.
#[derive(Debug, Clone, Copy, Default)]
pub struct AddressLimits {
    /// Accounts one address may create.
    pub signups_per_minute: u32,
    /// Unknown or refused tokens one address may present.
    pub auth_failures_per_minute: u32,
}

/// Buckets for [`AddressLimits`], and the remembered unknown tokens.
#[derive(Debug)]
pub struct AddressLimiter {
    signups: RateLimiter,
    failures: RateLimiter,
    misses: MissCache,
}

impl AddressLimiter {
    pub fn new(limits: AddressLimits) -> Self {
        Self {
            signups: RateLimiter::per_minute(limits.signups_per_minute),
            failures: RateLimiter::per_minute(limits.auth_failures_per_minute),
            misses: MissCache::default(),
        }
    }

    /// Takes the limits of a reloaded configuration.
    pub fn set(&self, limits: AddressLimits) {
        let new = Self::new(limits);
        self.signups.set_rate_of(&new.signups);
        self.failures.set_rate_of(&new.failures);
    }

    /// One account creation from `peer`.
    pub fn signup(&self, peer: Option<SocketAddr>) -> Result<(), u64> {
        peer.map_or(Ok(()), |p| self.signups.check(&address_key(p.ip())))
    }

    /// One unknown or refused token from `peer`.
    pub fn failure(&self, peer: Option<SocketAddr>) -> Result<(), u64> {
        peer.map_or(Ok(()), |p| self.failures.check(&address_key(p.ip())))
    }

    /// Whether `peer` may still present an unknown token: checked before a
    /// lookup, so once its failures are spent a guess reaches no database.
    pub fn may_fail(&self, peer: Option<SocketAddr>) -> Result<(), u64> {
        peer.map_or(Ok(()), |p| self.failures.peek(&address_key(p.ip())))
    }

    /// The unknown-token memory.
    pub fn misses(&self) -> &MissCache {
        &self.misses
    }
}

/// The bucket key of an address: IPv4 whole, IPv6 by its /64.
pub(crate) fn address_key(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    }
}

/// Token hashes recently found to belong to nobody.
#[derive(Debug, Default)]
pub struct MissCache {
    seen: Mutex<HashMap<String, Instant>>,
}

impl MissCache {
    /// Whether `hash` was looked up in vain within the last few minutes.
    pub fn contains(&self, hash: &str) -> bool {
        self.seen
            .lock()
            .ok()
            .and_then(|seen| seen.get(hash).copied())
            .is_some_and(|at| at.elapsed() < MISS_TTL)
    }

    /// Remembers a hash that matched no player.
    pub fn insert(&self, hash: String) {
        let Ok(mut seen) = self.seen.lock() else {
            return;
        };
        if seen.len() >= MISSES_MAX {
            seen.retain(|_, at| at.elapsed() < MISS_TTL);
            if seen.len() >= MISSES_MAX {
                seen.clear();
            }
        }
        seen.insert(hash, Instant::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allows_a_burst_then_refuses() {
        let limiter = RateLimiter::new(5);
        for _ in 0..10 {
            assert!(limiter.check("a").is_ok());
        }
        assert_eq!(limiter.check("a"), Err(1));
        assert!(limiter.check("b").is_ok(), "buckets are per key");
        let off = RateLimiter::new(0);
        assert!((0..1000).all(|_| off.check("a").is_ok()));
    }

    #[test]
    fn a_new_rate_applies_to_the_next_request() {
        let limiter = RateLimiter::new(1);
        assert!(limiter.check("a").is_ok());
        assert!(limiter.check("a").is_ok());
        assert_eq!(limiter.check("a"), Err(1), "a burst of two");
        limiter.set_rate_of(&RateLimiter::new(0));
        assert!(
            (0..100).all(|_| limiter.check("a").is_ok()),
            "0 turns it off"
        );
        limiter.set_rate_of(&RateLimiter::new(1));
        assert!(
            limiter.check("b").is_ok(),
            "limited again, a new key's burst"
        );
    }

    #[test]
    fn per_minute_waits_are_in_seconds_until_the_next_unit() {
        let limiter = RateLimiter::per_minute(60);
        let allowed = (0..100).take_while(|_| limiter.check("a").is_ok()).count();
        assert_eq!(allowed, 15, "a quarter minute's burst");
        assert_eq!(limiter.check("a"), Err(1), "one a second");
        let slow = RateLimiter::per_minute(6);
        assert_eq!((0..10).filter(|_| slow.check("a").is_ok()).count(), 5);
        assert_eq!(slow.check("a"), Err(10));
    }

    #[test]
    fn addresses_share_a_bucket_per_ipv4_host_and_ipv6_64() {
        let peer = |s: &str| Some(s.parse::<SocketAddr>().expect("addr"));
        let limiter = AddressLimiter::new(AddressLimits {
            signups_per_minute: 6,
            auth_failures_per_minute: 0,
        });
        for port in 0..5 {
            assert!(limiter.signup(peer(&format!("10.0.0.1:{port}"))).is_ok());
        }
        assert!(limiter.signup(peer("10.0.0.1:9")).is_err(), "ports share");
        assert!(limiter.signup(peer("10.0.0.2:9")).is_ok());
        for i in 0..5 {
            assert!(limiter.signup(peer(&format!("[2001:db8::{i}]:1"))).is_ok());
        }
        assert!(
            limiter.signup(peer("[2001:db8::ffff]:1")).is_err(),
            "one /64"
        );
        assert!(limiter.signup(peer("[2001:db8:0:1::1]:1")).is_ok());
        assert!(limiter.signup(None).is_ok(), "no address: in-process use");
        assert!((0..100).all(|_| limiter.failure(peer("10.0.0.1:1")).is_ok()));
    }

    #[test]
    fn peeking_takes_nothing() {
        let limiter = RateLimiter::new(1);
        assert!((0..100).all(|_| limiter.peek("a").is_ok()));
        assert!(limiter.check("a").is_ok() && limiter.check("a").is_ok());
        assert_eq!(limiter.peek("a"), Err(1));
    }

    #[test]
    fn misses_are_remembered() {
        let misses = MissCache::default();
        assert!(!misses.contains("h"));
        misses.insert("h".into());
        assert!(misses.contains("h"));
        assert!(!misses.contains("g"));
    }
}
