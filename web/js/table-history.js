// Finished hands of the live table: each hand's "verifiable deal" badge, the
// checks behind it, and a step-by-step replay of its record.
//
// The commitment is stored when the hand's first state arrives, before any of
// its cards is drawn. At `hand_end` the seed is revealed and this browser
// checks: the commitment seen before is the one the record carries;
// sha256("selfpoker:" + seed) is that commitment (the badge, tables.js); the
// deck rebuilt from the seed in the core (wasm `holdem_replay`) deals exactly
// the cards the player was shown; and the record replays under the rules to
// its own results, chip for chip; under selfpoker_v2, the client seed this
// browser chose is the one the seed was derived with. Any failure is named
// on the badge. Once the table's session ends and its secret is revealed,
// each `selfpoker_v2` hand held here is verified whole in the core, the
// seed's derivation included (table-badge.js), and the hand says so. The
// items the table signed for this page's seat in a hand are held to its
// record (table-evidence.js): an alarm is said on the hand, and the hand
// offers them as an evidence file.
import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { exactJson as exactText } from './json.js';
import { store } from './store.js';
import { card } from './render.js';
import { fmtInt } from './format.js';
import { dealBadge, derivationLine, verifyDerivation, checksList, warningsList, V2 } from './table-badge.js';
import { withheldCounts } from './holdem-words.js';
import { dealtHow } from './table-dealt.js';
import { actionText, netOf, netText, seatWho } from './table-render.js';
import { alarmWords, fileName } from './table-evidence.js';

/**
 * @typedef {import('./types.js').Wasm} Wasm
 * @typedef {import('./types.js').HandRecord} HandRecord
 * @typedef {import('./types.js').Replay} Replay
 * @typedef {import('./types.js').ReplayStep} ReplayStep
 * @typedef {import('./table-badge.js').HandEntry} HandEntry
 * @typedef {ReturnType<typeof import('./table-evidence.js').createEvidence>} EvidenceBook
 */

/**
 * How a hand's seed was made, as `hand_end` reveals it.
 * @typedef {object} HandFairplay
 * @property {string} [scheme]
 * @property {string} commit
 * @property {string | number} seed
 * @property {Record<string, string>} [client_seeds] seat → client seed
 * @property {string | null} [session_secret]
 */

/**
 * A `hand_end` message (wire-types.js's, with its record and fairplay read as a hand's).
 * @typedef {object} HandEnd
 * @property {number} number
 * @property {HandFairplay} fairplay
 * @property {HandRecord} record
 */

const same = (/** @type {unknown} */ a, /** @type {unknown} */ b) => JSON.stringify(a) === JSON.stringify(b);

/** JSON text of a record parsed with exact integers: a 63-bit seed is written back digit for digit. */
export const exactJson = exactText;

/** @param {Wasm} wasm @param {number[] | null | undefined} ids */
function cards(wasm, ids) {
  return h('span', { class: 'cards' }, (ids || []).map((id) => card(wasm, 'selfpoker', id)));
}

/**
 * What replaying a record in the core says, or its error as a failed replay.
 * The core's replay refuses a `selfpoker_v2` hand whose session secret is not
 * out yet; the hand itself (commitment, deck, rules, results) is replayed
 * without its deal then, and the derivation is checked once the secret is
 * revealed (table-badge.js).
 * @param {Wasm} wasm
 * @param {HandRecord} record
 * @returns {Replay}
 */
export function replayOf(wasm, record) {
  const hand = record.deal && !record.deal.session_secret ? { ...record, deal: undefined } : record;
  try {
    return JSON.parse(wasm.holdem_replay(exactJson(hand)));
  } catch (e) {
    return { valid: false, error: e instanceof Error ? e.message : String(e), steps: [], deal: null };
  }
}

/**
 * The problems of a finished hand, in the player's words (none: verified).
 * @param {Wasm} wasm
 * @param {HandEntry} entry
 * @param {HandFairplay} fairplay
 * @param {HandRecord} record
 * @param {Replay} replay
 * @param {string} clientSeed
 * @returns {string[]}
 */
export function checkEnd(wasm, entry, fairplay, record, replay, clientSeed) {
  const problems = [];
  // selfpoker_v2: the seed derives from the seated humans' client seeds, this browser's among them.
  // (Only for a hand this seat was dealt into: a seat dealt out of it gave no seed to it.)
  const dealtIn = (record.seats || []).some((s) => s.seat === entry.seat);
  if (fairplay.client_seeds && entry.seat !== null && dealtIn && fairplay.client_seeds[String(entry.seat)] !== clientSeed) problems.push(t('table.check_client_seed'));
  if (fairplay.commit !== entry.commitment || record.commit !== entry.commitment) problems.push(t('table.check_commit'));
  if (wasm.sha256_hex(`selfpoker:${fairplay.seed}`) !== entry.commitment) problems.push(t('table.check_hash'));
  if (String(record.seed) !== String(fairplay.seed)) problems.push(t('table.check_seed'));
  // The core's own English stays out of the player's words (the replay's line carries it as a tooltip).
  if (!replay.valid) problems.push(t('table.check_replay'));
  const deal = replay.deal;
  if (!deal) {
    problems.push(t('table.check_deck'));
  } else {
    const mine = deal.holes.find(([seat]) => seat === entry.seat);
    if (entry.hole && (!mine || !same(mine[1], entry.hole))) problems.push(t('table.check_hole'));
    if (!same(deal.board.slice(0, entry.board.length), entry.board)) problems.push(t('table.check_board'));
  }
  return problems;
}

/**
 * What a hand's kept evidence shows, on the hand: each alarm in the
 * player's words, or that it could not be held to the record.
 * @param {number} n @param {HandEntry} e
 */
function evidenceLines(n, e) {
  const found = e.evidence;
  if (!found) return null;
  if (found.error) return h('p', { class: 'error-text small', 'data-alarm': 'evidence', title: found.error }, t('table.evidence_unchecked', { n }));
  return found.alarms.map((a) => h('p', { class: 'error-text tb-alarm', 'data-alarm': a.kind }, h('span', { 'aria-hidden': 'true' }, '⚠ '), alarmWords(n, a)));
}

/** @param {{wasm: Wasm, evidence?: EvidenceBook}} with */
export function mountHistory({ wasm, evidence }) {
  /** @type {Map<number, HandEntry>} hand number → what this page holds of it */
  const entries = new Map();
  const list = h('ol', { id: 'tb-hands', class: 'hands', reversed: true });
  const replayBox = h('div', { id: 'tb-replay' });
  // Per seat, how many hands of this table's session it withheld its value in, once the verifier says so of several.
  const counts = h('div', { id: 'tb-withheld-counts' });
  const element = h('section', { class: 'card-panel', id: 'tb-history', 'aria-labelledby': 'tb-history-title' },
    h('h2', { id: 'tb-history-title' }, t('table.history')),
    h('p', { class: 'muted small' }, t('table.history_help')),
    counts, list, replayBox);
  /** @type {string | null} */
  let tableId = null;
  /** @type {number | null} the number of the hand the felt's badge is about */
  let shown = null;
  let mySeat = 0; // the page sits in seat 0; a state saying otherwise updates it
  /** @type {number | null} the hand whose replay is open */
  let replaying = null;

  /** @param {number} n */
  function label(n) {
    return `${t('table.title')} ${tableId} #${n}`;
  }

  /** Hand `n`'s evidence file, saved by the browser as a download. @param {number} n */
  function downloadEvidence(n) {
    const text = evidence && evidence.file(n);
    if (!text || tableId === null) return;
    const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    const link = h('a', { href: url, download: fileName(tableId, n), hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  /** The hand's "download evidence", when items are kept for it. @param {number} n */
  function evidenceButton(n) {
    const count = evidence ? evidence.items(n).length : 0;
    return count ? h('button', { type: 'button', class: 'link', 'data-evidence': n, title: t('table.evidence_title', { count }), onclick: () => downloadEvidence(n) }, t('table.evidence_download')) : null;
  }

  /** @param {HandRecord} record @param {number} seat */
  function resultText(record, seat) {
    const diff = netOf(record, seat);
    return diff === null ? '' : netText(diff);
  }

  function render() {
    const had = replayBox.contains(document.activeElement) ? /** @type {HTMLElement} */ (document.activeElement) : null;
    /** @type {[number, HandEntry, HandRecord][]} */
    const done = [];
    for (const [n, e] of entries) if (e.record) done.push([n, e, e.record]);
    done.sort((a, b) => b[0] - a[0]);
    clear(list, done.length ? done.map(([n, e, record]) => h('li', { 'data-hand': n },
      h('span', { class: 'hand-label' }, t('table.hand_n', { n })), ' ',
      e.commitment ? dealBadge(wasm, e) : h('span', { class: 'muted small' }, t('table.not_seen')), ' ',
      derivationLine(e), ' ',
      h('span', { class: 'small hand-result' }, resultText(record, e.seat ?? mySeat)), ' ',
      h('button', { type: 'button', class: 'link', 'data-replay': n, onclick: () => openReplay(n) }, t('table.replay')), ' ',
      evidenceButton(n),
      e.problems.length ? h('ul', { class: 'error-text small poker-problems' }, e.problems.map((p) => h('li', {}, p))) : null,
      e.alarm ? h('p', { class: 'error-text tb-alarm', 'data-alarm': 'withheld' }, h('span', { 'aria-hidden': 'true' }, '⚠ '), t('table.alarm_withheld', { n })) : null,
      evidenceLines(n, e),
      checksList(e),
      warningsList(e),
      dealtHow(record, e.seat ?? mySeat, e.secret)))
      : h('li', { class: 'muted' }, t('table.no_hands')));
    const warned = done.filter(([, e]) => e.derivation && e.derivation.warnings && e.derivation.warnings.length).map(([, , record]) => record);
    const lines = withheldCounts(warned);
    clear(counts, lines.length ? h('div', { class: 'warn-box small' }, h('p', { class: 'warn-text' }, h('strong', {}, t('table.withheld_counts'))),
      h('ul', { class: 'warn-list' }, lines.map((line) => h('li', { class: 'warn-text' }, line)))) : null);
    // The replay open stays under its hand when the list is drawn again.
    if (replaying !== null) list.querySelector(`li[data-hand="${replaying}"]`)?.append(replayBox);
    had?.focus({ preventScroll: true });
  }

  /** The player's seat in a hand: the one this page saw, else the page's usual seat. */
  const e_seat = (/** @type {HandRecord} */ record) => { const e = entries.get(record.hand); return e && e.seat !== null && e.seat !== undefined ? e.seat : mySeat; };

  /** @param {HandRecord} record @param {ReplayStep[]} steps @param {number} k */
  function stepView(record, steps, k) {
    const s = steps[k];
    const you = e_seat(record);
    const who = !s.action ? t('table.step_blinds') : s.action.seat === you
      ? t('table.step_you', { action: actionText(s.action.action, true) })
      : t('table.step_action', { seat: s.action.seat, action: actionText(s.action.action) });
    return h('div', { class: 'replay-step', 'data-step': k },
      h('p', { class: 'step-title' }, h('strong', {}, t('table.step', { k: k + 1, n: steps.length })), ' · ', who),
      h('div', { class: 'out-row' }, h('span', { class: 'out-label' }, t('table.board')), cards(wasm, s.board)),
      h('div', { class: 'out-row' }, h('span', { class: 'out-label' }, t('table.pot_label')), fmtInt(s.pot)),
      (s.won || []).length ? h('ul', { class: 'replay-won' }, s.won.map(([seat, chips]) => h('li', {}, seat === you ? t('table.you_won', { chips: fmtInt(chips) }) : t('table.seat_won', { seat, chips: fmtInt(chips) })))) : null,
      h('ul', { class: 'replay-seats' }, s.seats.map((p) => h('li', { class: p.folded ? 'folded' : '' },
        h('span', { class: 'replay-seat' }, seatWho(p.seat, you)), ' ', cards(wasm, p.hole), ' ',
        h('span', { class: 'small' }, t('table.stack', { chips: fmtInt(p.stack) })),
        p.street_bet ? h('span', { class: 'small' }, ` · ${t('table.bet', { chips: fmtInt(p.street_bet) })}`) : null,
        p.folded ? h('span', { class: 'small muted' }, ` · ${t('table.folded')}`) : null))));
  }

  /** @param {number} n */
  function openReplay(n) {
    const e = entries.get(n);
    const record = e && e.record;
    if (!e || !record) return;
    const replay = e.replay || replayOf(wasm, record);
    e.replay = replay;
    const steps = replay.steps || [];
    const shown = (record.results && record.results.shown) || [];
    let k = 0;
    const body = h('div', {});
    const prev = h('button', { type: 'button', id: 'tb-prev', onclick: () => go(k - 1) }, t('table.prev'));
    const next = h('button', { type: 'button', id: 'tb-next', onclick: () => go(k + 1) }, t('table.next'));
    const go = (/** @type {number} */ to) => {
      k = Math.max(0, Math.min(steps.length - 1, to));
      prev.disabled = k === 0;
      next.disabled = k === steps.length - 1;
      clear(body, steps.length ? stepView(record, steps, k) : null);
    };
    clear(replayBox,
      h('h3', { id: 'tb-replay-title' }, t('table.replay_title', { n })),
      h('p', { class: replay.valid ? 'ok-text small' : 'error-text small', title: replay.valid ? null : replay.error || null }, replay.valid ? t('table.replay_ok') : t('table.check_replay')),
      h('div', { class: 'actions' }, prev, next),
      body,
      shown.length
        ? [h('h4', {}, t('table.showdown')), h('ul', { class: 'replay-seats' }, shown.map(([seat, ids]) => h('li', {}, h('span', { class: 'replay-seat' }, seatWho(seat, e.seat ?? mySeat)), ' ', cards(wasm, ids))))]
        : null);
    go(0);
    // Under the hand it replays, in sight (on a phone the list is long).
    replaying = n;
    list.querySelector(`li[data-hand="${n}"]`)?.append(replayBox);
    const title = replayBox.querySelector('#tb-replay-title');
    title.setAttribute('tabindex', '-1');
    title.focus({ preventScroll: true });
    title.scrollIntoView({ block: 'start' });
  }

  return {
    element,
    /** Another table: none of the last table's hands is listed or shown on the felt. @param {string} id */
    reset(id) {
      entries.clear();
      tableId = id;
      shown = null;
      replaying = null;
      clear(replayBox);
      element.append(replayBox);
      render();
    },
    /**
     * A hand's commitment, seen before its cards.
     * @param {string} id @param {number} n @param {string} commitment @param {string} [dealScheme]
     */
    seen(id, n, commitment, dealScheme = V2) {
      tableId = id;
      shown = n;
      entries.set(n, { scheme: 'selfpoker', dealScheme, commitment, seed: null, hole: null, board: [], seat: null, problems: [], record: null });
      globalThis.fairseedTables?.seen({ scheme: 'selfpoker', label: label(n), commitment });
    },
    /**
     * What the player was shown of hand `n` (kept to compare with the deck after the hand).
     * @param {number} n @param {number} seat @param {[number, number] | null} hole @param {number[]} board
     */
    saw(n, seat, hole, board) {
      const e = entries.get(n);
      if (!e) return;
      e.seat = seat;
      mySeat = seat;
      if (hole) e.hole = hole;
      if (board && board.length >= e.board.length) e.board = board;
    },
    /**
     * The hand is over: check the reveal and the record, hold the evidence
     * kept for it to the record, and list it. Returns what the evidence shows.
     * @param {string} id @param {HandEnd} msg @param {string} clientSeed
     * @returns {import('./table-evidence.js').EvidenceFindings | null}
     */
    ended(id, msg, clientSeed) {
      tableId = id;
      const n = msg.number;
      const e = entries.get(n) || { scheme: 'selfpoker', commitment: null, hole: null, board: [], seat: null, problems: [] };
      entries.set(n, e);
      e.record = msg.record;
      e.seed = String(msg.fairplay.seed);
      e.dealScheme = msg.fairplay.scheme;
      if (msg.fairplay.session_secret && msg.record.deal) {
        e.secret = msg.fairplay.session_secret;
        e.derivation = verifyDerivation(wasm, msg.record, e.secret, entries.get(n - 1)?.record);
      }
      e.replay = replayOf(wasm, msg.record);
      e.evidence = evidence ? evidence.check(msg.record) : null;
      if (e.commitment) {
        e.problems = checkEnd(wasm, e, msg.fairplay, msg.record, e.replay, clientSeed);
        globalThis.fairseedTables?.revealed({ scheme: 'selfpoker', label: label(n), seed: e.seed });
        if (e.problems.length) {
          const hands = store.hands();
          const stored = hands.find((/** @type {{id: string}} */ x) => x.id === `selfpoker:${label(n)}`);
          if (stored) stored.problems = e.problems;
          store.saveHands(hands);
        }
      }
      shown = n;
      render();
      return e.evidence;
    },
    /**
     * Finished hands the service kept (after a reload): listed for replay, checked by the rules.
     * @param {string} id
     */
    async load(id) {
      tableId = id;
      /** @type {{hands: HandRecord[]}} */
      const { hands } = await api.holdemHands(id);
      // Another table opened while these were on their way: they are not its hands.
      if (tableId !== id) return false;
      for (const record of hands) {
        if (entries.get(record.hand)?.record) continue;
        const e = entries.get(record.hand) || { scheme: 'selfpoker', commitment: null, seed: null, hole: null, board: [], seat: null, problems: [] };
        e.record = record;
        e.seed = String(record.seed);
        e.dealScheme = record.deal ? record.deal.scheme : 'selfpoker';
        // What this browser kept of the hand before a reload, held to the record too.
        e.evidence = evidence && evidence.current() === id ? evidence.check(record) : null;
        entries.set(record.hand, e);
      }
      const secret = hands.map((r) => r.deal && r.deal.session_secret).find(Boolean);
      if (secret) this.reveal(secret, hands);
      render();
      return Boolean(secret);
    },
    /**
     * The session secret is out (the table closed): every `selfpoker_v2` hand
     * held here is verified whole in the core, derivation included, with the
     * secret the service's record of that hand carries (`records`), else `secret`.
     * @param {string} secret
     * @param {HandRecord[]} [records]
     */
    reveal(secret, records = []) {
      /** @type {Map<number, string>} */
      const revealed = new Map();
      for (const r of records) if (r.deal && r.deal.session_secret) revealed.set(r.hand, r.deal.session_secret);
      for (const [n, e] of entries) {
        if (!e.record || !e.record.deal) continue;
        e.secret = revealed.get(n) || secret;
        e.derivation = verifyDerivation(wasm, e.record, e.secret, entries.get(n - 1)?.record);
      }
      render();
    },
    /**
     * Hand `n`'s record names this page's own seat as having withheld its
     * value though this page sent it and the table confirmed it: said on
     * the hand, in the player's words.
     * @param {number} n
     */
    alarm(n) {
      const e = entries.get(n);
      if (!e) return;
      e.alarm = true;
      render();
    },
    /** The badge entry of the hand the felt shows (being played, or the last one). */
    current: () => (shown !== null ? entries.get(shown) || null : null),
    render,
  };
}
