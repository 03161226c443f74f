// "How this hand was dealt": the per-hand chain of a `selfpoker_v3` hand
// (docs/spec.md §17, §20) told with the hand's own values, under each hand
// of the table's list — the table's hash shown before anyone sat, the
// player's seed, the hash of the fresh value this browser sent before the
// hand and the value shown once every hash was in, the seed they give, and
// the table's secret once it closed. What the verifier checks of this chain
// is the list of sentences beside it.
import { h } from './dom.js';
import { t } from './i18n.js';

const hex = (/** @type {string} */ text) => h('code', { class: 'hex' }, String(text));

/**
 * A hand record's deal (docs/spec.md §17.5), the fields told here.
 * @typedef {object} HandDeal
 * @property {string} [session_commit]
 * @property {string | null} [session_secret]
 * @property {Record<string, string>} [client_seeds] seat → client seed
 * @property {Record<string, string>} [hand_commits] seat → the hash of its per-hand value
 * @property {Record<string, string>} [hand_values] seat → its per-hand value
 */

/**
 * The explanation for `record` as seat `you` played it, with the table's
 * `secret` once revealed (null: the record has no deal).
 * @param {{hand: number, seed: string | number, deal?: HandDeal} | null} record
 * @param {number} you
 * @param {string | null} [secret]
 */
export function dealtHow(record, you, secret = null) {
  const deal = record && record.deal;
  if (!deal) return null;
  const at = String(you);
  const commit = deal.hand_commits && deal.hand_commits[at];
  const value = deal.hand_values && deal.hand_values[at];
  const seed = deal.client_seeds && deal.client_seeds[at];
  const revealed = secret || deal.session_secret || null;
  /** @param {string} text @param {string} [code] */
  const step = (text, code) => h('li', {}, text, code ? [' ', hex(code)] : null);
  return h('details', { class: 'tb-dealt small', 'data-hand': record.hand },
    h('summary', {}, t('table.dealt_title')),
    h('ol', {},
      deal.session_commit ? step(t('table.dealt_session'), deal.session_commit) : null,
      seed !== undefined ? step(t('table.dealt_client'), seed) : null,
      commit ? step(t('table.dealt_commit'), commit) : null,
      value ? step(t('table.dealt_value'), value) : null,
      step(t('table.dealt_seed', { seed: String(record.seed) })),
      revealed ? step(t('table.dealt_secret'), revealed) : step(t('table.dealt_secret_wait'))));
}
