// The Verify tab, also the whole of the offline verifier: a dice form, and a
// box that takes any record, array of records or JSON Lines of any scheme. The
// verdicts come from the core compiled to wasm — the same code as the server's
// and `fairseed verify --json` —; the page says what they mean in the player's
// words, with core's own texts behind "details".
import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { parseExact } from './json.js';
import { hintFor } from './hint.js';
import { verdictCard } from './verdict.js';
import { betNumber, fmtRoll, nonceOf, parseRoll } from './format.js';
import { coreErrorText } from './errors.js';
import { mountRecords } from './records.js';
import { receiptForm } from './receipts.js';

/** The public values of a dice bet a link may carry (never anything secret before its reveal). */
export const DICE_FIELDS = ['server_seed', 'commitment', 'client_seed', 'nonce', 'roll'];

function field(id, label, attrs, help) {
  return h('div', { class: 'field' }, h('label', { for: id }, label),
    h('input', { id, name: id, autocomplete: 'off', spellcheck: 'false', 'aria-describedby': help ? `${id}-help` : undefined, ...attrs }),
    help ? h('p', { class: 'muted small field-help', id: `${id}-help` }, help) : null);
}

/** A link to this page's Verify tab with a bet's public values filled in. */
export function verifyLink(values, base = location.href) {
  const query = new URLSearchParams();
  for (const k of DICE_FIELDS) if (values[k] !== undefined && values[k] !== null && values[k] !== '') query.set(k, String(values[k]));
  const url = new URL(base);
  url.hash = `verify?${query}`;
  return url.toString();
}

/** Verifies `text` in this thread and returns the cards (small inputs: one record, a tables deal). */
export function verdictCards(wasm, text, record = null, hints = []) {
  const result = parseExact(wasm.verify(text));
  return result.verdicts.map((v, i) => verdictCard(wasm, v, result.reports[i], record, i === 0 ? hints : []));
}

/** Shows the verdicts of `text` in `out` (used by Tables for a dealt hand). */
export function showVerdicts(wasm, text, out) {
  let record = null;
  try { record = parseExact(text); } catch { /* the verdict says why */ }
  clear(out, verdictCards(wasm, text, record));
}

export function mountVerify(root, { wasm, knownValues = () => [], offlineHref = null }) {
  const diceOut = h('div', { class: 'results', 'aria-live': 'polite', id: 'dice-verify-out' });
  const diceForm = h('form', { class: 'card-panel', id: 'verify-dice', novalidate: true },
    h('h2', {}, t('verify.dice_title')),
    field('v-server-seed', t('verify.server_seed'), { placeholder: t('verify.hex_placeholder') }),
    field('v-commitment', t('verify.commitment'), { placeholder: t('verify.hex_placeholder') }),
    field('v-client-seed', t('verify.client_seed')),
    h('div', { class: 'row2' },
      field('v-nonce', t('verify.nonce'), { inputmode: 'numeric', value: '1' }),
      field('v-roll', t('verify.claimed_roll'), { inputmode: 'decimal', placeholder: fmtRoll(5463) })),
    h('div', { class: 'actions' },
      h('button', { type: 'submit', class: 'primary', id: 'v-dice-go' }, t('verify.go')),
      h('button', { type: 'button', id: 'v-share' }, t('verify.share'))),
    h('p', { class: 'muted small', id: 'v-share-out', 'aria-live': 'polite' }),
    diceOut);
  const input = (id) => diceForm.querySelector(`#${id}`);
  const get = (id) => input(id).value.trim();

  function values() {
    // The bet's number is typed from 1, as a player counts; the record's nonce counts from 0.
    return { server_seed: get('v-server-seed'), commitment: get('v-commitment'), client_seed: get('v-client-seed'), nonce: nonceOf(get('v-nonce')), roll: get('v-roll') };
  }

  function hintsFor(seed, commitment, client) {
    const known = [
      { label: 'commitment', display: t('verify.commitment'), value: commitment, kind: 'field' },
      { label: 'client_seed', display: t('verify.client_seed'), value: client, kind: 'field_other' },
      ...knownValues(),
    ];
    // One hint per mistake: the commitment field is only examined when the
    // seed field gave no hint (two equal fields would otherwise say it twice).
    const seedHint = hintFor(wasm, t('verify.server_seed'), seed, known, 'seed');
    return [seedHint || hintFor(wasm, t('verify.commitment'), commitment,
      [{ label: 'server_seed', display: t('verify.server_seed'), value: seed, kind: 'field' }, ...knownValues()], 'commitment')].filter(Boolean);
  }

  function verifyDice() {
    const v = values();
    const hints = hintsFor(v.server_seed, v.commitment, v.client_seed);
    const record = { scheme: 'dice_v1', commitment: v.commitment, server_seed: v.server_seed, client_seed: v.client_seed, nonce: /^\d+$/.test(v.nonce) ? Number(v.nonce) : v.nonce };
    // The roll is typed as the game shows it (54.63); the record holds hundredths (5463).
    if (v.roll !== '') {
      const roll = parseRoll(v.roll);
      if (roll.error) {
        clear(diceOut, ...hints, h('p', { class: 'error-text', id: 'v-roll-error' },
          roll.suggestion ? t('verify.roll_range_suggest', { typed: v.roll, roll: roll.suggestion }) : t('verify.roll_form')));
        return;
      }
      record.outcome = { roll: roll.hundredths };
    }
    if (!v.server_seed) {
      // A bet of the pair still in play: its seed is secret until the pair is changed.
      // Not an error: say so, and how to reveal it.
      clear(diceOut, h('div', { class: 'pending', id: 'v-not-revealed', role: 'status' },
        h('p', {}, h('strong', {}, t('verify.not_revealed_title'))),
        h('p', {}, t(v.commitment ? 'verify.not_revealed' : 'verify.no_seed')),
        h('p', {}, h('a', { href: '#seeds', id: 'v-go-seeds' }, t('verify.not_revealed_link')))));
      return;
    }
    if (!v.commitment) {
      // Without the hash there is no record to check, only a roll to compute.
      try {
        const roll = wasm.dice_roll(v.server_seed, v.client_seed, Number(v.nonce));
        const claimed = record.outcome && record.outcome.roll;
        clear(diceOut, ...hints, h('p', { class: 'roll-line' }, t('verify.roll_is', { roll: fmtRoll(roll) }),
          claimed === undefined ? '' : ` — ${claimed === roll ? t('verify.roll_claimed_ok') : t('verify.roll_claimed_bad', { claimed: fmtRoll(claimed) })}`));
      } catch (e) {
        clear(diceOut, ...hints, h('p', { class: 'error-text' }, coreErrorText(e.message || String(e))));
      }
      return;
    }
    clear(diceOut, verdictCards(wasm, JSON.stringify(record), record, hints));
  }

  diceForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    verifyDice();
  });
  input('v-share').addEventListener('click', async () => {
    const link = verifyLink(values());
    const out = diceForm.querySelector('#v-share-out');
    clear(out, h('span', {}, t('verify.share_ready'), ' '), h('code', { class: 'hex', id: 'v-share-link' }, link));
    try { await navigator.clipboard.writeText(link); out.append(' ', t('verify.copied')); } catch { /* shown for copying by hand */ }
  });

  /** Fills the dice form (from a bet in history or Revealed, or a shared link) and verifies. */
  function prefill(given) {
    for (const k of DICE_FIELDS) {
      const id = `v-${k.replace('_', '-')}`;
      if (given[k] === undefined || given[k] === null) continue;
      const v = given[k];
      input(id).value = k === 'roll' && typeof v === 'number' ? fmtRoll(v) : k === 'nonce' && /^\d+$/.test(String(v)) ? String(betNumber(v)) : String(v);
    }
    verifyDice();
    diceForm.scrollIntoView({ block: 'start' });
  }

  const records = mountRecords({ wasm, knownValues });
  const offline = offlineHref
    ? h('p', { class: 'offline-link' }, h('a', { href: offlineHref, download: 'fairseed-verifier.html', class: 'button', id: 'v-offline' }, t('verify.offline')), ' ', h('span', { class: 'muted' }, t('verify.offline_help')))
    : null;
  clear(root, diceForm, records.panel, receiptForm(wasm), offline);
  return { prefill };
}
