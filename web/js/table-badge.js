// What the live table's "verifiable deal" badge says, by scheme, and the
// check that gives `selfpoker_v2` its meaning once the table's session ends.
//
// A plain `selfpoker` hand proves only that the deck did not change during
// the hand: the commitment was shown before the first card, and the seed
// revealed after it hashes to it. Under `selfpoker_v2` (docs/spec.md §17) the
// seed is also derived from a session secret committed before the player sat
// and from the player's own client seed, so the house could not choose the
// deck; that derivation is checked here, by the core (wasm `verify`, the same
// checks as `fairseed verify`), once the session secret is revealed.
import { h } from './dom.js';
import { t } from './i18n.js';
import { checkHand } from './tables.js';
import { parseExact } from './json.js';
import { exactJson } from './table-history.js';
import { holdemSentence, holdemWarning, withRulesChecks } from './holdem-words.js';

export const V2 = 'selfpoker_v2';

/**
 * @typedef {import('./types.js').Wasm} Wasm
 * @typedef {import('./types.js').HandRecord} HandRecord
 * @typedef {import('./types.js').Replay} Replay
 * @typedef {import('./types.js').SessionView} SessionView
 */

/**
 * One check of a hand in the player's words: the verifier's `name` and
 * `ok`, its own English in `detail` (a tooltip), the sentence in `text`.
 * @typedef {object} CheckLine
 * @property {string} name
 * @property {boolean} ok
 * @property {string} detail
 * @property {string} text
 */

/**
 * The core's verdict on a hand once the session secret is out
 * ([`verifyDerivation`]): the first failed check's name, detail and
 * sentence when not `ok`, and every check in `checks`.
 * @typedef {object} Derivation
 * @property {boolean} ok
 * @property {string} [check]
 * @property {string} [detail]
 * @property {string} [said]
 * @property {CheckLine[]} checks
 * @property {{name: string, text: string}[]} [warnings] the verdict's warnings, each a sentence (neither a pass nor a failure)
 */

/**
 * A hand of the live table as this page holds it (table-history.js): the
 * commitment seen before its cards, what the player was shown, and once it
 * ended its record, seed, replay and problems; once the table's secret is
 * out, its derivation.
 * @typedef {object} HandEntry
 * @property {'selfpoker'} scheme the badge's scheme (the seed hashes to the commitment)
 * @property {string} [dealScheme] how the seed was made: `selfpoker_v2`, `selfpoker_v3`, else plain
 * @property {string | null} commitment
 * @property {string | null} [seed]
 * @property {[number, number] | null} hole
 * @property {number[]} board
 * @property {number | null} seat
 * @property {string[]} problems
 * @property {HandRecord | null} [record]
 * @property {Replay} [replay]
 * @property {string} [secret]
 * @property {Derivation} [derivation]
 * @property {boolean} [alarm] its record names this page's seat as withholding a value this page sent
 * @property {import('./table-evidence.js').EvidenceFindings | null} [evidence] what the items the table signed for this page's seat show against its record
 */

/**
 * Whether a hand's deal scheme derives its seed from the session secret and
 * the client seeds: `selfpoker_v2`, and `selfpoker_v3`, which adds every
 * dealt-in person's per-hand value (docs/spec.md §20).
 * @param {string | undefined} scheme
 */
export function isDerived(scheme) {
  return scheme === V2 || scheme === 'selfpoker_v3';
}

/**
 * The badge of a hand: its state mark, the scheme, what it proves, and why on hover or focus.
 * @param {Wasm} wasm
 * @param {HandEntry} entry
 */
export function dealBadge(wasm, entry) {
  // A failed derivation takes the claim back: the badge turns red with the hand's line.
  const state = entry.derivation && !entry.derivation.ok ? 'bad' : checkHand(wasm, { ...entry, scheme: 'selfpoker' });
  const v2 = isDerived(entry.dealScheme);
  const claim = v2 ? t('table.badge_v2') : t('table.badge_v1');
  const text = { ok: claim, bad: t('tables.badge_bad'), wait: t('tables.badge_wait') }[state];
  const why = v2 ? [t('table.badge_v2_session'), t('table.badge_v2_client'), t('table.badge_v2_derivation')] : [t('table.badge_v1_why')];
  return h('span', { class: `deal-badge ${state}`, tabindex: 0, 'data-state': state, 'data-scheme': entry.dealScheme || 'selfpoker' },
    h('span', { 'aria-hidden': 'true' }, state === 'ok' ? '✓ ' : state === 'bad' ? '✗ ' : '… '),
    t('tables.badge'), ' · ', h('span', { class: 'badge-claim' }, text),
    h('span', { class: 'badge-pop', role: 'tooltip' },
      h('strong', { title: entry.dealScheme || 'selfpoker' }, t('table.badge_scheme')), ' ', claim, '.',
      h('ul', { class: 'badge-why' }, why.map((line) => h('li', {}, line))),
      // The scheme's identifier, for whoever reads the spec, is the tooltip of the claim's line only.
      t('tables.commitment'), ': ', h('code', { class: 'hex' }, entry.commitment)));
}

/** `record` with the revealed session secret in its deal. @param {HandRecord} record @param {string} secret @returns {HandRecord} */
function withSecret(record, secret) {
  return { ...record, deal: { ...record.deal, session_secret: secret } };
}

/**
 * The core's verdict on a `selfpoker_v2` hand record once the session secret
 * is known: `{ok: true}` when every check passes (derivation included), else
 * the first failed check's name and detail; and in `checks` every check the
 * verifier made, each as the player's sentence (core's text in `detail`).
 * With the record of the hand before it at the table (`previous`), the two
 * are verified together, so the verifier also holds this hand's stacks to
 * how that one ended (`carried`, docs/spec.md §19.3).
 * @param {Wasm} wasm
 * @param {HandRecord} record
 * @param {string} secret
 * @param {HandRecord | null} [previous]
 * @returns {Derivation}
 */
export function verifyDerivation(wasm, record, secret, previous = null) {
  /** @type {import('./types.js').Verdict} */
  let verdict;
  const whole = withSecret(record, secret);
  try {
    verdict = previous && previous.deal
      ? parseExact(wasm.verify(exactJson([withSecret(previous, secret), whole]))).verdicts[1]
      : parseExact(wasm.verify(exactJson(whole))).verdicts[0];
  } catch (e) {
    return { ok: false, check: 'record', detail: e instanceof Error ? e.message : String(e), checks: [] };
  }
  const warnings = (verdict.warnings || []).map((w) => ({ name: w.name, text: holdemWarning(whole, w) }));
  const checks = withRulesChecks(wasm, whole, verdict.checks).map((c) => {
    const said = holdemSentence(wasm, whole, c);
    return { name: c.name, ok: Boolean(c.ok), detail: String(c.detail || ''), text: said ? said.text : t(c.ok ? 'check.other_ok' : 'check.other_bad', { name: c.name }) };
  });
  const failed = checks.find((c) => !c.ok);
  // What failed, in the player's words (core's own text stays in the line's tooltip).
  if (failed) return { ok: false, check: failed.name, detail: failed.detail, said: failed.text, checks, warnings };
  if (!verdict.valid) return { ok: false, check: 'record', detail: verdict.error || '', checks, warnings };
  if (!checks.some((c) => c.name === 'derivation' && c.ok)) return { ok: false, check: 'derivation', detail: t('table.derivation_missing'), checks, warnings };
  return { ok: true, checks, warnings };
}

/** Every check the verifier made of a hand, one sentence each (nothing before the table's secret is out). @param {HandEntry} entry */
export function checksList(entry) {
  const checks = entry.derivation && entry.derivation.checks;
  if (!checks || !checks.length) return null;
  return h('ul', { class: 'tb-checks small' }, checks.map((c) => h('li', { 'data-check': c.name, 'data-ok': String(c.ok), class: c.ok ? 'ok-text' : 'error-text', title: c.detail || null },
    h('span', { 'aria-hidden': 'true' }, c.ok ? '✓ ' : '✗ '), c.text)));
}

/**
 * The verdict's warnings on a hand, one sentence each, apart from its checks:
 * neither a pass nor a failure.
 * @param {HandEntry} entry
 */
export function warningsList(entry) {
  const warnings = entry.derivation && entry.derivation.warnings;
  if (!warnings || !warnings.length) return null;
  return h('ul', { class: 'tb-warnings warn-list small' }, warnings.map(({ name, text }) => h('li', { class: 'warn-text', 'data-warning': name },
    h('span', { 'aria-hidden': 'true' }, '⚠ '), h('span', { class: 'sr-only' }, `${t('verify.warning')} `), text)));
}

/** A hand's derivation line: pending until the secret is out, then checked or the named failure. @param {HandEntry} entry */
export function derivationLine(entry) {
  if (!isDerived(entry.dealScheme)) return null;
  const d = entry.derivation;
  if (!d) return h('span', { class: 'tb-derivation small muted', 'data-state': 'wait' }, t('table.derivation_wait'));
  if (d.ok) return h('span', { class: 'tb-derivation small ok-text', 'data-state': 'ok' }, '✓ ', t('table.derivation_ok'));
  return h('span', { class: 'tb-derivation small error-text', 'data-state': 'bad', 'data-check': d.check, title: `${d.check}: ${d.detail}` },
    '✗ ', t('table.derivation_bad', { what: d.said || t('table.derivation_other') }));
}

/** The table header's session line: the commitment from the start, and the reveal once the table closed. @param {SessionView | null | undefined} session */
export function sessionLine(session) {
  if (!session || !session.commit) return null;
  return h('p', { class: 'small tb-session', id: 'tb-session' },
    h('span', { class: 'muted' }, t('table.session_commit'), ' '),
    h('code', { class: 'hex', id: 'tb-session-commit' }, session.commit),
    session.secret ? h('span', { class: 'muted', id: 'tb-session-revealed' }, ' · ', t('table.session_revealed')) : null);
}
