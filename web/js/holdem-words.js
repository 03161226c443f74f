// Hold'em hand records (`holdem_hand_v1`) in the player's words, for Verify and
// the offline file: each check as a sentence naming the hand and what differs,
// and the hand itself as steps a player follows — the deal, every action, the
// results. The steps come from the core (wasm `holdem_replay`), which deals
// the cards from the record's seed and plays the record's actions under the
// rules; core's English stays under "details".
import { h } from './dom.js';
import { t, tn } from './i18n.js';
import { fmtInt } from './format.js';
import { exactJson } from './json.js';

export const HOLDEM = 'holdem_hand_v1';

/**
 * @typedef {import('./types.js').Wasm} Wasm
 * @typedef {import('./types.js').HandRecord} HandRecord
 * @typedef {import('./types.js').Replay} Replay
 * @typedef {import('./types.js').VerdictCheck} VerdictCheck
 * @typedef {import('./wire-types.js').WireAction} WireAction
 */

/** @type {Record<string, string>} */
const SUITS = { c: '♣', d: '♦', h: '♥', s: '♠' };

/** @param {Wasm} wasm @param {number | string} id */
function cardText(wasm, id) {
  try {
    const name = wasm.card_name('selfpoker', Number(id));
    return `${name[0] === 'T' ? '10' : name[0]}${SUITS[name[1]] || name[1]}`;
  } catch {
    return '?';
  }
}

/** @param {Wasm} wasm @param {(number | string)[] | null | undefined} ids */
const cardsText = (wasm, ids) => (ids || []).map((id) => cardText(wasm, id)).join(' ');
/** @param {HandRecord | null | undefined} record */
const handOf = (record) => (record && record.hand !== undefined && record.hand !== null ? String(record.hand) : '?');
/** @param {HandRecord | null | undefined} record */
const secretOut = (record) => Boolean(record && record.deal && record.deal.session_secret);

/**
 * A seat in words: "seat 2" (with the AI's level when the record says so).
 * @param {HandRecord | null | undefined} record
 * @param {number} seat
 */
function seatText(record, seat) {
  const s = ((record && record.seats) || []).find((x) => x.seat === seat);
  const level = s && s.player && s.player.kind === 'ai' ? s.player.level : null;
  return level !== null && level !== undefined ? t('holdem.seat_ai', { seat, level }) : t('holdem.seat', { seat });
}

/** An action in words: "calls", "raises to 300". @param {WireAction | null | undefined} action */
function actionText(action) {
  if (!action) return '';
  if (action.kind === 'raise_to') return t('table.did_raise', { to: fmtInt(action.to) });
  return t(`table.did_${action.kind}`);
}

const chipsIn = (/** @type {string} */ text) => Number(String(text).replace(/\D/g, ''));

/**
 * The core's English for an action — past ("raised to 1,500", "ran out of
 * time (folded)") or present ("raises to 1,500") — in the player's words.
 * @param {string} text
 * @param {boolean} past
 * @returns {string}
 */
export function coreActionText(text, past) {
  const timed = /^ran out of time \((.+)\)$/.exec(text);
  if (timed) return t('holdem.did_timeout', { did: coreActionText(timed[1], true) });
  const m = /^(fold|check|call|raise)(?:s|ed|d)?(?: to (.+))?$/.exec(text.replace(/^raised/, 'raise').replace(/^raises/, 'raise'));
  if (!m) return text;
  const kind = m[1] === 'raise' ? 'raise' : m[1];
  const key = past ? `holdem.did_${kind}` : `table.did_${kind}`;
  return kind === 'raise' ? t(key, { to: fmtInt(chipsIn(m[2])) }) : t(key);
}

/** A street's name in the player's words. */
const streetText = (/** @type {string} */ street) => t(`table.street_${street}`);

/**
 * The hand replayed by the core, or null when the record cannot be read as a hand.
 * @param {Wasm | null | undefined} wasm
 * @param {HandRecord | null | undefined} record
 * @returns {Replay | null}
 */
export function holdemSteps(wasm, record) {
  if (!record || typeof record !== 'object' || !wasm || !wasm.holdem_replay) return null;
  try {
    // The deal's derivation is a check of its own; the steps need only the seed and the actions.
    return JSON.parse(wasm.holdem_replay(exactJson({ ...record, deal: undefined })));
  } catch {
    return null;
  }
}

/**
 * Where the replayed results first differ from the record's, in words (null: found none).
 * @param {Wasm} wasm
 * @param {HandRecord | null | undefined} record
 * @param {Replay | null} replay
 */
function resultDifference(wasm, record, replay) {
  const last = replay && replay.steps && replay.steps[replay.steps.length - 1];
  const results = record && record.results;
  if (!last || !results) return null;
  const board = results.board || [];
  if (JSON.stringify(board.map(Number)) !== JSON.stringify((last.board || []).map(Number))) {
    return t('holdem.diff_board', { expected: cardsText(wasm, last.board), found: cardsText(wasm, board) || '—' });
  }
  for (const [seat, chips] of results.stacks || []) {
    const replayed = (last.seats || []).find((s) => s.seat === seat);
    if (replayed && Number(replayed.stack) !== Number(chips)) {
      return t('holdem.diff_stack', { seat: seatText(record, seat), expected: fmtInt(replayed.stack), found: fmtInt(chips) });
    }
  }
  return null;
}

/**
 * One check of a hand record as a sentence, {ok, text}; null for a check this file does not know.
 * @param {Wasm} wasm
 * @param {HandRecord | null | undefined} record
 * @param {VerdictCheck} check
 * @returns {{ok: boolean, text: string} | null}
 */
export function holdemSentence(wasm, record, check) {
  const n = handOf(record);
  const { ok } = check;
  const detail = String(check.detail || '');
  let m;
  switch (check.name) {
    case 'session_secret':
      if (ok) return { ok, text: t('holdem.secret_ok', { n }) };
      return { ok, text: t(secretOut(record) ? 'holdem.secret_bad' : 'holdem.secret_wait', { n }) };
    case 'derivation':
      if (ok) {
        const seeds = Object.keys((record && record.deal && record.deal.client_seeds) || {}).length;
        return { ok, text: tn('holdem.derivation_ok', seeds, { n, count: fmtInt(seeds) }) };
      }
      if ((m = /is (\d+), the record says (\d+)/.exec(detail))) return { ok, text: t('holdem.derivation_bad', { n, expected: m[1], found: m[2] }) };
      return { ok, text: t('holdem.derivation_seats', { n }) };
    case 'commitment':
      return { ok, text: t(ok ? 'holdem.commit_ok' : 'holdem.commit_bad', { n }) };
    case 'actions':
      if (ok) return { ok, text: t('holdem.actions_ok', { n, count: fmtInt(((record && record.actions) || []).length) }) };
      if ((m = /with seat (\d+) to act/.exec(detail))) return { ok, text: t('holdem.actions_short', { n, seat: seatText(record, Number(m[1])) }) };
      if ((m = /action (\d+) \(seat (\d+)\)/.exec(detail))) return { ok, text: t('holdem.actions_after', { n, k: m[1], seat: seatText(record, Number(m[2])) }) };
      return { ok, text: t('holdem.actions_bad', { n }) };
    case 'results': {
      if (ok) return { ok, text: t('holdem.results_ok', { n }) };
      const what = resultDifference(wasm, record, holdemSteps(wasm, record));
      return { ok, text: what ? t('holdem.results_bad_what', { n, what }) : t('holdem.results_bad', { n }) };
    }
    case 'ai':
      if (ok) {
        const count = (m = /^(\d+) AI decision/.exec(detail)) ? Number(m[1]) : 0;
        return { ok, text: tn('holdem.ai_ok', count, { n, count: fmtInt(count) }) };
      }
      if ((m = /seat (\d+) is an AI that names no engine/.exec(detail))) return { ok, text: t('holdem.ai_unnamed', { n, seat: seatText(record, Number(m[1])) }) };
      // Which hand, street and seat; what the record says it did, and what an AI of that level decides from its own seat.
      if ((m = /, (preflop|flop|turn|river): seat (\d+) \(AI level (\d+), [^)]*\) (.+); from its own seat it (.+)$/.exec(detail))) {
        return { ok, text: t('holdem.ai_bad_what', { n, street: streetText(m[1]), seat: seatText(record, Number(m[2])), level: m[3], did: coreActionText(m[4], true), decides: coreActionText(m[5], false) }) };
      }
      if ((m = /seat (\d+) \(AI level/.exec(detail))) return { ok, text: t('holdem.ai_bad', { n, seat: seatText(record, Number(m[1])) }) };
      return { ok, text: t('holdem.ai_bad_any', { n }) };
    case 'reveals':
      return { ok, text: t(ok ? 'holdem.reveals_ok' : 'holdem.reveals_bad', { n }) };
    case 'withheld': {
      if (!ok) return { ok, text: t('holdem.withheld_bad', { n }) };
      const seats = ((record && record.deal && record.deal.withheld) || []).map((seat) => seatText(record, seat));
      return { ok, text: seats.length ? t('holdem.withheld_some', { n, seats: seats.join(', ') }) : t('holdem.withheld_none', { n }) };
    }
    case 'policy':
      // A public table says so in the passing check too (docs/spec.md §19.4).
      if (ok) return { ok, text: t(/a public table: anyone, the house included, may sit here$/.test(detail) ? 'holdem.policy_ok_public' : 'holdem.policy_ok', { n }) };
      if ((m = /seat (\d+) plays as AI level (\d+); the table's policy, committed at open, seats level (\d+) there/.exec(detail))) {
        return { ok, text: t('holdem.policy_level', { n, seat: seatText(record, Number(m[1])), found: m[2], expected: m[3] }) };
      }
      if ((m = /seat (\d+) sat down without an invitation/.exec(detail))) return { ok, text: t('holdem.policy_stranger', { n, seat: seatText(record, Number(m[1])) }) };
      if ((m = /seat (\d+) sat down with ([\d,. ]+) chips; .* seats every player with ([\d,. ]+)$/.exec(detail))) {
        return { ok, text: t('holdem.policy_sat_down', { n, seat: seatText(record, Number(m[1])), found: fmtInt(chipsIn(m[2])), expected: fmtInt(chipsIn(m[3])) }) };
      }
      if ((m = /seat (\d+) was topped up/.exec(detail))) return { ok, text: t('holdem.policy_top_up', { n, seat: seatText(record, Number(m[1])) }) };
      return { ok, text: t('holdem.policy_bad', { n }) };
    case 'carried':
      // Two hands in a row of one table: no chip came or went between them but by a top-up the record names.
      if (ok) return { ok, text: (m = /dealt into hand (\d+) too/.exec(detail)) ? t('holdem.carried_ok', { n, prev: m[1] }) : t('holdem.carried_ok_any', { n }) };
      if ((m = /seat (\d+) starts with ([\d,. ]+) chips; it ended hand (\d+) with ([\d,. ]+) and the record names (no top-up|a top-up of ([\d,. ]+))/.exec(detail))) {
        const topUp = m[6] ? t('holdem.carried_top_up', { chips: fmtInt(chipsIn(m[6])) }) : t('holdem.carried_no_top_up');
        return { ok, text: t('holdem.carried_bad_what', { n, seat: seatText(record, Number(m[1])), found: fmtInt(chipsIn(m[2])), prev: m[3], ended: fmtInt(chipsIn(m[4])), top_up: topUp }) };
      }
      return { ok, text: t('holdem.carried_bad', { n }) };
    default:
      return null;
  }
}

/**
 * A verdict's warning on a hand record in the player's words: what happened
 * and why it is worth knowing, neither a pass nor a failure.
 * @param {HandRecord | null | undefined} record
 * @param {import('./types.js').VerdictWarning} warning
 * @returns {string}
 */
export function holdemWarning(record, warning) {
  const n = handOf(record);
  const m = /seat (\d+)/.exec(String(warning.detail || ''));
  if (warning.name === 'house') {
    // The house's player sat in the hand (docs/spec.md §19.4): at a public table, or with the opener's invitation.
    const open = Boolean(record && record.policy && record.policy.public);
    const seat = m ? seatText(record, Number(m[1])) : t('holdem.seat_any');
    return t(open ? 'holdem.warn_house_public' : 'holdem.warn_house_invited', { n, seat });
  }
  if (warning.name !== 'withheld') return t('holdem.warn_other', { n });
  return m ? t('holdem.warn_withheld', { n, seat: seatText(record, Number(m[1])) }) : t('holdem.warn_withheld_any', { n });
}

/**
 * How many hands each seat withheld its value in, per table session, over
 * `records` (a seat's warnings counted as `fairseed verify` counts them):
 * one sentence per session and seat, in session and seat order; none when
 * no session has more than one.
 * @param {(HandRecord | null | undefined)[]} records
 * @returns {string[]}
 */
export function withheldCounts(records) {
  /** @type {Map<string, {table: string, seat: number, count: number, record: HandRecord}>} */
  const counts = new Map();
  /** @type {Map<string, number>} session → withheld values in it */
  const sessions = new Map();
  for (const record of records) {
    const deal = record && record.deal;
    if (!record || !deal || deal.scheme !== 'selfpoker_v3') continue;
    const session = `${deal.table_id} ${deal.session_commit}`;
    for (const seat of deal.withheld || []) {
      const key = `${session} ${String(seat).padStart(3, '0')}`;
      const had = counts.get(key);
      if (had) had.count += 1;
      else counts.set(key, { table: String(deal.table_id), seat, count: 1, record });
      sessions.set(session, (sessions.get(session) || 0) + 1);
    }
  }
  return [...counts.entries()]
    .filter(([key]) => (sessions.get(key.slice(0, key.lastIndexOf(' '))) || 0) > 1)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([, c]) => tn('holdem.warn_count', c.count, { table: c.table, seat: seatText(c.record, c.seat), count: fmtInt(c.count) }));
}

/**
 * A hand's checks as the verifier made them, and when it stopped at an AI's
 * decision before replaying the rest, the rules and results checks made here
 * from the record's own actions (so no line is missing from the list).
 * @param {Wasm} wasm
 * @param {HandRecord} record
 * @param {VerdictCheck[] | null | undefined} checks
 * @returns {VerdictCheck[]}
 */
export function withRulesChecks(wasm, record, checks) {
  const all = checks || [];
  const ai = all.find((c) => c.name === 'ai');
  if (!ai || ai.ok || all.some((c) => c.name === 'actions')) return all;
  const replay = holdemSteps(wasm, record);
  const last = replay && replay.steps && replay.steps[replay.steps.length - 1];
  const played = Boolean(replay && last && (last.won || []).length);
  const extra = [{ name: 'actions', ok: played, detail: played ? '' : (replay && replay.error) || '' }];
  if (replay && played) extra.push({ name: 'results', ok: Boolean(replay.valid), detail: replay.error || '' });
  return [...all, ...extra];
}

/** The card's title: "Hold'em hand 3 · table t-…". @param {HandRecord | null | undefined} record */
export function holdemTitle(record) {
  const table = record && record.deal && record.deal.table_id;
  return table ? t('holdem.title_table', { n: handOf(record), table }) : t('holdem.title', { n: handOf(record) });
}

/**
 * The hand as steps: the deal, each action, the results.
 * @param {Wasm} wasm
 * @param {HandRecord} record
 */
export function holdemOutcome(wasm, record) {
  const replay = holdemSteps(wasm, record);
  if (!replay || !replay.steps || !replay.steps.length) return [];
  const first = replay.steps[0];
  const steps = [
    h('li', {}, h('strong', {}, t('holdem.step_deal')), ' ',
      h('ul', { class: 'holdem-seats' }, (first.seats || []).map((s) => h('li', {}, `${seatText(record, s.seat)}: ${cardsText(wasm, s.hole)} · ${t('table.stack', { chips: fmtInt(s.stack) })}${s.street_bet ? ` · ${t('table.bet', { chips: fmtInt(s.street_bet) })}` : ''}`)))),
  ];
  for (const s of replay.steps.slice(1)) {
    if (!s.action) continue;
    steps.push(h('li', {}, t('holdem.step_action', { seat: seatText(record, s.action.seat), action: actionText(s.action.action) }),
      s.board && s.board.length ? h('span', { class: 'muted' }, ` · ${t('holdem.step_board', { cards: cardsText(wasm, s.board) })}`) : null));
  }
  const last = replay.steps[replay.steps.length - 1];
  const won = (last.won || []).map(([seat, chips]) => t('holdem.took', { seat: seatText(record, seat), chips: fmtInt(chips) }));
  // The steps follow the record's actions; where they end otherwise than the record's results, say so here too.
  const differs = resultDifference(wasm, record, replay);
  steps.push(h('li', {}, h('strong', {}, t('holdem.step_results')), ' ',
    t('holdem.step_board', { cards: cardsText(wasm, last.board) || '—' }), won.length ? ` · ${won.join(' · ')}` : '',
    h('ul', { class: 'holdem-seats' }, (last.seats || []).map((s) => h('li', {}, t('holdem.final_stack', { seat: seatText(record, s.seat), chips: fmtInt(s.stack) })))),
    differs ? h('p', { class: 'error-text holdem-differs' }, t('holdem.steps_differ', { what: differs })) : null));
  return [h('h3', {}, t('holdem.steps_title')), h('ol', { class: 'holdem-steps' }, steps)];
}
