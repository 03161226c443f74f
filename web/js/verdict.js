// One verdict as a card: a badge, the checks as sentences in the player's
// words, the outcome laid out (cards, dice, tiles), and — behind "details" —
// the scheme id, core's check names and texts, and the readable report.
import { h } from './dom.js';
import { t } from './i18n.js';
import { renderOutcome } from './render.js';
import { sentences, checkSentence, checkLabel } from './words.js';
import { coreErrorText } from './errors.js';
import { fmtInt } from './format.js';
import { HOLDEM, holdemTitle, holdemWarning } from './holdem-words.js';

export function statusOf(verdict) {
  return verdict.error ? 'error' : verdict.valid ? 'valid' : 'invalid';
}

/** The scheme's name as a player knows it. */
export function schemeName(scheme) {
  return scheme ? t(`scheme.${scheme}`) : t('scheme.unknown');
}

/**
 * @param verdict core's verdict object; @param report core's readable report
 * @param record the record as read (for the claimed outcome), or null
 * @param hints elements to show under the badge
 */
export function verdictCard(wasm, verdict, report, record, hints = []) {
  const status = statusOf(verdict);
  const lines = verdict.error ? [] : sentences(wasm, verdict, record);
  // A warning (a seat withheld its value): neither a pass nor a failure, said as such.
  const warnings = verdict.error ? [] : (verdict.warnings || []).map((w) => ({ name: w.name, text: holdemWarning(record, w) }));
  // Each check named in the player's words (core's identifier only in `data-check`) with what
  // it means; core's own English sentences only behind a second, labelled "details".
  const checks = h('ul', { class: 'checks' }, (verdict.checks || []).map((c) =>
    h('li', { class: c.ok ? 'ok' : 'bad', 'data-check': c.name }, h('span', { class: 'mark', 'aria-hidden': 'true' }, c.ok ? '✓' : '✗'),
      h('span', { class: 'sr-only' }, `${t(c.ok ? 'verify.check_ok' : 'verify.check_bad')} `), h('strong', { class: 'check-name' }, checkLabel(verdict.scheme, c.name)), ' ',
      h('span', { class: 'detail' }, checkSentence(wasm, verdict, record, c).text))),
    warnings.map((w) => h('li', { class: 'warn', 'data-warning': w.name }, h('span', { class: 'mark', 'aria-hidden': 'true' }, '⚠'),
      h('span', { class: 'sr-only' }, `${t('verify.warning')} `), h('strong', { class: 'check-name' }, t('checkname.warning')), ' ',
      h('span', { class: 'detail' }, w.text))));
  return h('article', { class: `verdict ${status}`, tabindex: -1, 'data-index': verdict.index, 'data-valid': String(verdict.valid) },
    h('p', { class: 'verdict-head' }, h('span', { class: `badge ${status}` }, t(`verify.${status}`)), ' ',
      h('span', { class: 'verdict-title' }, verdict.scheme === HOLDEM && record ? holdemTitle(record) : t('verify.record', { n: fmtInt(Number(verdict.index) + 1), scheme: schemeName(verdict.scheme) }))),
    verdict.error ? h('p', { class: 'error-text' }, coreErrorText(verdict.error)) : null,
    ...hints,
    lines.length || warnings.length ? h('ul', { class: 'sentences' }, lines.map((s) => h('li', { class: s.ok ? 'ok' : 'bad' },
      h('span', { class: 'mark', 'aria-hidden': 'true' }, s.ok ? '✓' : '✗'), h('span', {}, s.text))),
    warnings.map((w) => h('li', { class: 'warn', 'data-warning': w.name },
      h('span', { class: 'mark', 'aria-hidden': 'true' }, '⚠'), h('span', { class: 'sr-only' }, `${t('verify.warning')} `), h('span', {}, w.text)))) : null,
    h('div', { class: 'outcome' }, renderOutcome(wasm, verdict.scheme, verdict.outcome, record)),
    h('details', { class: 'more' }, h('summary', {}, t('verify.details')),
      h('p', { class: 'small scheme-id' }, h('span', { class: 'muted' }, t('verify.scheme_id'), ' '), h('code', {}, verdict.scheme || '—')),
      verdict.checks && verdict.checks.length ? [h('p', { class: 'small muted' }, t('verify.checks')), checks] : null,
      report || verdict.error ? h('details', { class: 'more raw' }, h('summary', {}, t('verify.report')),
        verdict.error ? h('p', { class: 'small' }, h('code', { class: 'raw-error' }, verdict.error)) : null,
        report ? h('pre', { class: 'report', lang: 'en' }, report) : null) : null));
}
