// Every value this browser knows (the current hash, the hashes and seeds of
// earlier pairs), labelled in the player's words, for Verify's wrong-value hint.
import { t } from './i18n.js';
import { store, pairNumber } from './store.js';

/** Every value the browser knows, labelled, for the wrong-value hint. */
export function knownValues() {
  const known = [];
  const current = store.currentCommitment();
  // Pairs named by the player's own numbering (oldest first), not the service's ids.
  if (current) known.push({ label: 'current', display: t('known.current'), value: current, kind: 'current' });
  for (const [pair, c] of Object.entries(store.seenCommitments())) {
    if (c !== current) known.push({ label: `pair ${pair} hash`, display: t('known.pair_hash', { pair: pairNumber(pair) }), value: c, kind: 'commitment' });
  }
  for (const [pair, p] of Object.entries(store.revealedPairs())) {
    known.push({ label: `pair ${pair} seed`, display: t('known.pair_seed', { pair: pairNumber(pair) }), value: p.server_seed, kind: 'seed' });
  }
  return known;
}
