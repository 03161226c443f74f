//! Trusted reverse proxies: whose `X-Forwarded-For` names the client.
//!
//! A header any client can send is believed only from a connection whose
//! peer is a configured proxy, and then read from the right: each trusted
//! proxy appends the address it received from, so the rightmost entry that
//! is not itself a trusted proxy is the client. Entries left of it were
//! written by the client and are never used.

use std::fmt;
use std::net::{IpAddr, SocketAddr};

use axum::http::HeaderMap;

/// An address block, `192.0.2.0/24` or `2001:db8::/32`; a bare address is a
/// block of one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    addr: IpAddr,
    prefix: u8,
}

impl Cidr {
    /// Parses `ADDR` or `ADDR/PREFIX`.
    ///
    /// # Errors
    /// Not an address, or a prefix longer than the address.
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        let (addr, prefix) = match text.split_once('/') {
            Some((addr, prefix)) => (addr, Some(prefix)),
            None => (text, None),
        };
        let addr: IpAddr = addr
            .parse()
            .map_err(|_| format!("{text:?}: expected an IP address or CIDR block"))?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => max,
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(|| format!("{text:?}: the prefix must be 0 to {max}"))?,
        };
        Ok(Self {
            addr: canonical(addr),
            prefix,
        })
    }

    /// Whether `ip` is inside the block.
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.addr, canonical(ip)) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

impl fmt::Display for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.addr, self.prefix)
    }
}

/// An IPv4 address written as IPv6 (`::ffff:192.0.2.1`) as the IPv4 one.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        IpAddr::V4(_) => ip,
    }
}

/// The client's address: the peer's, unless the peer is a trusted proxy and
/// `X-Forwarded-For` names someone before it. An unreadable entry stops the
/// walk at the last trusted hop, so a malformed header cannot choose an
/// address.
pub fn client_addr(peer: SocketAddr, headers: &HeaderMap, trusted: &[Cidr]) -> SocketAddr {
    let is_trusted = |ip: IpAddr| trusted.iter().any(|c| c.contains(ip));
    if trusted.is_empty() || !is_trusted(peer.ip()) {
        return peer;
    }
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    let mut client = peer;
    for hop in hops.iter().rev() {
        let Ok(ip) = hop.parse::<IpAddr>() else {
            break;
        };
        client = SocketAddr::new(canonical(ip), 0);
        if !is_trusted(ip) {
            break;
        }
    }
    client
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(values: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append("x-forwarded-for", HeaderValue::from_str(v).expect("ascii"));
        }
        h
    }

    fn addr(text: &str) -> SocketAddr {
        text.parse().expect("socket address")
    }

    #[test]
    fn blocks_parse_and_contain() {
        let net = Cidr::parse("10.1.0.0/16").expect("valid");
        assert!(net.contains("10.1.200.3".parse().expect("ip")));
        assert!(!net.contains("10.2.0.1".parse().expect("ip")));
        assert!(net.contains("::ffff:10.1.0.9".parse().expect("ip")));
        let one = Cidr::parse("2001:db8::1").expect("valid");
        assert!(one.contains("2001:db8::1".parse().expect("ip")));
        assert!(!one.contains("2001:db8::2".parse().expect("ip")));
        assert!(Cidr::parse("0.0.0.0/0")
            .expect("valid")
            .contains("203.0.113.5".parse().expect("ip")));
        assert!(Cidr::parse("10.0.0.0/33").is_err());
        assert!(Cidr::parse("nope").is_err());
        assert!(Cidr::parse("10.0.0.0/x").is_err());
    }

    #[test]
    fn forwarded_for_is_read_only_from_a_trusted_peer() {
        let trusted = [Cidr::parse("127.0.0.1").expect("valid")];
        let h = headers(&["198.51.100.7"]);
        assert_eq!(
            client_addr(addr("127.0.0.1:5000"), &h, &trusted).ip(),
            addr("198.51.100.7:0").ip()
        );
        // The same header from anyone else is the client's own say-so.
        assert_eq!(
            client_addr(addr("203.0.113.1:5000"), &h, &trusted),
            addr("203.0.113.1:5000")
        );
        // No trusted proxies configured: never read.
        assert_eq!(
            client_addr(addr("127.0.0.1:5000"), &h, &[]),
            addr("127.0.0.1:5000")
        );
    }

    #[test]
    fn the_rightmost_untrusted_hop_is_the_client() {
        let trusted = [
            Cidr::parse("127.0.0.1").expect("valid"),
            Cidr::parse("10.0.0.0/8").expect("valid"),
        ];
        // The client forged a first entry; proxies appended the rest.
        let h = headers(&["1.2.3.4, 198.51.100.7", "10.0.0.2"]);
        assert_eq!(
            client_addr(addr("127.0.0.1:1"), &h, &trusted).ip(),
            "198.51.100.7".parse::<IpAddr>().expect("ip")
        );
        // Garbage stops the walk at the last trusted hop.
        let h = headers(&["198.51.100.7, junk, 10.0.0.2"]);
        assert_eq!(
            client_addr(addr("127.0.0.1:1"), &h, &trusted).ip(),
            "10.0.0.2".parse::<IpAddr>().expect("ip")
        );
    }
}
