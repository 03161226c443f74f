//! The order a sequencing step takes waiting entries in, from its two
//! sources: the queue (commitments and reveals) and the logged dice bets,
//! each its own outcome entry. Each source gives ids in its own sequence;
//! a queued entry's `bets_before`, the last bet id given when it was
//! queued, places it among the bets. An entry that depends on another (a
//! bet on a pair after the pair's commitment, a reveal after the pair's
//! bets) was written after the other committed, so it comes after it:
//! in its own source by id, across sources by `bets_before`.

use super::logged::{EntryAt, HashBytes};

/// One value per source of entries.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct PerSource<T> {
    /// The queue of commitments and reveals.
    pub(crate) queue: T,
    /// The logged dice bets.
    pub(crate) bets: T,
}

/// A queued entry waiting: its id, leaf hash and `bets_before`.
pub(crate) type Queued = (i64, HashBytes, i64);

/// What waits for a leaf, read in one snapshot: each source in id order,
/// up to the limit asked of each.
#[derive(Debug, Default)]
pub(crate) struct Waiting {
    pub(crate) queue: Vec<Queued>,
    /// Logged bets: id and outcome entry's leaf hash.
    pub(crate) bets: Vec<(i64, HashBytes)>,
}

/// The first `limit` entries of `waiting` (each source read up to `limit`)
/// in commit order, and for each source the id through which every entry
/// of it that waited is among them (`i64::MAX` when all of it is).
///
/// Where a source was cut short at `limit`, an entry not read may belong
/// among the later ones; but the first `limit` are all read and in place: a
/// source cut short gave `limit` entries up to its cut.
pub(crate) fn commit_order(
    waiting: Waiting,
    limit: usize,
) -> (Vec<(EntryAt, HashBytes)>, PerSource<i64>) {
    let read = PerSource {
        queue: waiting.queue.len(),
        bets: waiting.bets.len(),
    };
    let mut out = Vec::with_capacity(read.queue + read.bets);
    let mut bets = waiting.bets.into_iter().peekable();
    for (id, hash, before) in waiting.queue {
        while let Some((bet, hash)) = bets.next_if(|&(bet, _)| bet <= before) {
            out.push((EntryAt::Bet(bet), hash));
        }
        out.push((EntryAt::Queue(id), hash));
    }
    out.extend(bets.map(|(bet, hash)| (EntryAt::Bet(bet), hash)));
    out.truncate(limit);
    let through = |read: usize, source: fn(&EntryAt) -> Option<i64>| {
        let kept: Vec<i64> = out.iter().filter_map(|(at, _)| source(at)).collect();
        if read < limit && kept.len() == read {
            i64::MAX
        } else {
            kept.last().copied().unwrap_or(i64::MIN)
        }
    };
    let through = PerSource {
        queue: through(read.queue, |at| match at {
            EntryAt::Queue(id) => Some(*id),
            EntryAt::Bet(_) => None,
        }),
        bets: through(read.bets, |at| match at {
            EntryAt::Bet(id) => Some(*id),
            EntryAt::Queue(_) => None,
        }),
    };
    (out, through)
}

#[cfg(test)]
mod tests {
    use super::*;
    use EntryAt::{Bet, Queue};

    fn queued(id: i64, bets_before: i64) -> Queued {
        (id, [0; 32], bets_before)
    }

    fn order(queue: Vec<Queued>, bet_ids: &[i64], limit: usize) -> (Vec<EntryAt>, PerSource<i64>) {
        let bets = bet_ids.iter().map(|&id| (id, [1; 32])).collect();
        let (out, through) = commit_order(Waiting { queue, bets }, limit);
        (out.into_iter().map(|(at, _)| at).collect(), through)
    }

    fn all() -> PerSource<i64> {
        PerSource {
            queue: i64::MAX,
            bets: i64::MAX,
        }
    }

    #[test]
    fn a_queued_entry_follows_the_bets_before_it() {
        assert_eq!(
            order(vec![queued(1, 0), queued(2, 2)], &[1, 2, 3], 10),
            (vec![Queue(1), Bet(1), Bet(2), Queue(2), Bet(3)], all())
        );
        assert_eq!(order(vec![], &[], 10), (vec![], all()));
    }

    #[test]
    fn stops_before_an_entry_whose_earlier_bets_were_not_all_read() {
        // Bets 3 and 4 exist past the two read, and precede entry 1.
        assert_eq!(
            order(vec![queued(1, 4)], &[1, 2], 2),
            (
                vec![Bet(1), Bet(2)],
                PerSource {
                    queue: i64::MIN,
                    bets: 2
                }
            )
        );
        assert_eq!(
            order(vec![queued(1, 1), queued(2, 4)], &[1, 2], 2).0,
            vec![Bet(1), Queue(1)]
        );
    }

    #[test]
    fn keeps_later_bets_back_while_the_queue_may_hold_more() {
        // A queued entry 3 not read may precede bet 2.
        assert_eq!(
            order(vec![queued(1, 0), queued(2, 0)], &[2], 2),
            (
                vec![Queue(1), Queue(2)],
                PerSource {
                    queue: 2,
                    bets: i64::MIN
                }
            )
        );
        assert_eq!(
            order(vec![queued(1, 0)], &[2, 3], 2),
            (
                vec![Queue(1), Bet(2)],
                PerSource {
                    queue: i64::MAX,
                    bets: 2
                }
            )
        );
    }

    /// A source read whole and kept whole is taken through any id, even
    /// when the other filled the step.
    #[test]
    fn a_source_read_whole_is_taken_through_any_id() {
        let (out, through) = order(vec![queued(7, 0)], &[1, 2, 3, 4], 4);
        assert_eq!(out, vec![Queue(7), Bet(1), Bet(2), Bet(3)]);
        assert_eq!(
            through,
            PerSource {
                queue: i64::MAX,
                bets: 3
            }
        );
    }
}
