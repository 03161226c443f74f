//! Per-token rate limit: a token bucket per credential, in memory.
//!
//! Per process: with several processes behind a balancer each enforces its
//! own share, which bounds abuse without a shared counter.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

/// Buckets kept before idle ones are swept.
const SWEEP_AT: usize = 100_000;

/// Token buckets keyed by the credential's hash.
#[derive(Debug)]
pub struct RateLimiter {
    per_second: f64,
    burst: f64,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

impl RateLimiter {
    /// `per_second` requests per second, bursts of twice that; 0 disables.
    pub fn new(per_second: u32) -> Self {
        Self {
            per_second: f64::from(per_second),
            burst: f64::from(per_second) * 2.0,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one request from `key`'s bucket, or says how many seconds to wait.
    pub fn check(&self, key: &str) -> Result<(), u64> {
        if self.per_second <= 0.0 {
            return Ok(());
        }
        let now = Instant::now();
        let Ok(mut buckets) = self.buckets.lock() else {
            return Ok(());
        };
        if buckets.len() >= SWEEP_AT {
            let burst = self.burst;
            let rate = self.per_second;
            buckets.retain(|_, (tokens, at)| {
                *tokens + now.duration_since(*at).as_secs_f64() * rate < burst
            });
        }
        let (tokens, at) = buckets.entry(key.to_owned()).or_insert((self.burst, now));
        *tokens =
            (*tokens + now.duration_since(*at).as_secs_f64() * self.per_second).min(self.burst);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            let wait = (1.0 - *tokens) / self.per_second;
            // Whole seconds, at least one, as Retry-After wants.
            Err(wait.ceil().max(1.0) as u64)
        }
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
}
