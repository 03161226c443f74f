//! An ordered parallel map: jobs are read on one thread, worked on by several,
//! and handed back to the caller in the order they were read.
//!
//! At most `window` jobs are between the reader and the caller at any time (read
//! but not yet consumed), so memory stays bounded however long the input is, and
//! a slow job holds back at most `window` finished ones.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;

use anyhow::anyhow;

/// Runs `work` over `jobs` on `workers` threads and feeds the results to `consume`
/// in job order.
///
/// An `Err` from `jobs` (a read error) reaches `consume`'s caller in its place in
/// the order, after every job read before it has been consumed. A panic in the
/// reader or in `work` becomes an error in the same way, so no job is ever lost
/// silently. If `consume` fails
/// the error is returned at once; the reader and workers stop on their own when
/// they next find their channels closed (they are not joined, so a reader blocked
/// on a pipe that never closes cannot hang the process).
pub fn ordered_map<J, R, I, W, C>(
    workers: usize,
    jobs: I,
    work: W,
    mut consume: C,
) -> anyhow::Result<()>
where
    J: Send + 'static,
    R: Send + 'static,
    I: Iterator<Item = anyhow::Result<J>> + Send + 'static,
    W: Fn(J) -> R + Send + Sync + 'static,
    C: FnMut(R) -> anyhow::Result<()>,
{
    let workers = workers.max(1);
    let window = workers * 4;

    // Tokens bound the jobs in flight: the reader takes one per job, the caller
    // returns it once that job's result has been consumed in order.
    let (token_tx, token_rx) = mpsc::sync_channel::<()>(window);
    for _ in 0..window {
        // The channel has room for exactly `window` tokens and nobody has taken any.
        token_tx
            .send(())
            .expect("token channel has room for the initial window");
    }
    // Holds at most `window` jobs because of the tokens, so sends never block.
    let (job_tx, job_rx) = mpsc::sync_channel::<(u64, anyhow::Result<J>)>(window);
    let (result_tx, result_rx) = mpsc::channel::<(u64, anyhow::Result<R>)>();

    thread::spawn(move || {
        let mut seq = 0u64;
        let mut jobs = jobs;
        let read = catch_unwind(AssertUnwindSafe(|| loop {
            let Some(job) = jobs.next() else { return };
            if token_rx.recv().is_err() {
                return;
            }
            let last = job.is_err();
            if job_tx.send((seq, job)).is_err() || last {
                return;
            }
            seq += 1;
        }));
        if read.is_err() {
            // The receiver may be gone too; then nobody is waiting for this.
            let _ = job_tx.send((
                seq,
                Err(anyhow!("internal error: reading the input panicked")),
            ));
        }
    });

    let job_rx = Arc::new(Mutex::new(job_rx));
    let work = Arc::new(work);
    for _ in 0..workers {
        let job_rx = Arc::clone(&job_rx);
        let result_tx = result_tx.clone();
        let work = Arc::clone(&work);
        thread::spawn(move || loop {
            // A poisoned lock means another worker panicked; stop taking jobs.
            let next = match job_rx.lock() {
                Ok(rx) => rx.recv(),
                Err(_) => return,
            };
            let Ok((seq, job)) = next else { return };
            let result = job.and_then(|job| {
                catch_unwind(AssertUnwindSafe(|| work(job))).map_err(|_| {
                    anyhow!("internal error: panicked while checking part {seq} of the input")
                })
            });
            if result_tx.send((seq, result)).is_err() {
                return;
            }
        });
    }
    drop(result_tx);

    let mut pending = BTreeMap::new();
    let mut next = 0u64;
    for (seq, result) in result_rx {
        pending.insert(seq, result);
        while let Some(result) = pending.remove(&next) {
            next += 1;
            consume(result?)?;
            // Fails only once the reader has finished; then no token is needed.
            let _ = token_tx.send(());
        }
    }
    // Every job read was sent, every job sent was answered (panics included), and
    // the reader stops only after a job it sent last; so nothing can be left here.
    debug_assert!(pending.is_empty(), "results left after the last in order");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_input_order() {
        let jobs = (0..1000u64).map(anyhow::Ok);
        let mut seen = Vec::new();
        ordered_map(
            3,
            jobs,
            |n| {
                // Uneven work so that workers finish out of order.
                if n % 7 == 0 {
                    thread::sleep(std::time::Duration::from_micros(200));
                }
                n * 2
            },
            |r| {
                seen.push(r);
                Ok(())
            },
        )
        .expect("no job fails");
        assert_eq!(seen, (0..1000u64).map(|n| n * 2).collect::<Vec<_>>());
    }

    #[test]
    fn a_read_error_arrives_after_the_jobs_before_it() {
        let jobs = (0..10u64).map(|n| {
            if n == 5 {
                Err(anyhow!("read {n}"))
            } else {
                Ok(n)
            }
        });
        let mut seen = Vec::new();
        let err = ordered_map(
            2,
            jobs,
            |n| n,
            |r| {
                seen.push(r);
                Ok(())
            },
        )
        .expect_err("job 5 fails");
        assert_eq!(err.to_string(), "read 5");
        assert_eq!(seen, vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn a_consumer_error_stops_early() {
        let jobs = (0..u64::MAX).map(anyhow::Ok);
        let mut seen = 0;
        let err = ordered_map(
            2,
            jobs,
            |n| n,
            |r| {
                seen += 1;
                if r == 100 {
                    Err(anyhow!("stop at {r}"))
                } else {
                    Ok(())
                }
            },
        )
        .expect_err("consumer stops at 100");
        assert_eq!((err.to_string(), seen), ("stop at 100".to_owned(), 101));
    }

    #[test]
    fn a_panicking_job_is_an_error_not_a_gap() {
        let jobs = (0..50u64).map(anyhow::Ok);
        let mut seen = Vec::new();
        let err = ordered_map(
            2,
            jobs,
            |n| {
                assert!(n != 20, "job 20 panics on purpose");
                n
            },
            |r| {
                seen.push(r);
                Ok(())
            },
        )
        .expect_err("job 20 panics");
        assert!(err.to_string().contains("panicked"), "{err}");
        assert_eq!(seen, (0..20).collect::<Vec<_>>());
    }
}
