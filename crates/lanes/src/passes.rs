//! Running a `W`-lane kernel over a batch: what every backend's dispatch shares.

/// Runs `kernel` on the lanes `i < n` of `states`/`blocks` in passes of `W`
/// lanes; the lanes of the last pass at or above `n` are hashed too.
#[inline]
pub(crate) fn in_passes<const W: usize, S, B>(
    states: &mut [S],
    blocks: &[B],
    n: usize,
    mut kernel: impl FnMut(&mut [S; W], &[B; W]),
) {
    for (states, blocks) in states
        .chunks_exact_mut(W)
        .zip(blocks.chunks_exact(W))
        .take(n.div_ceil(W))
    {
        // `chunks_exact(W)` gives `W` lanes at a time.
        kernel(
            states.try_into().unwrap_or_else(|_| unreachable!()),
            blocks.try_into().unwrap_or_else(|_| unreachable!()),
        );
    }
}
