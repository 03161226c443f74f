// The Table tab: a live hold'em table against five AIs of mixed levels
// (docs/api.md, "Live hold'em table"). The page creates the table, opens its
// WebSocket, says hello with the player's token, sits in seat 0 with a client
// seed drawn here (crypto.getRandomValues), and from then on draws every
// `state` the server sends. The player acts with the buttons or the keys
// F (fold), C (check or call) and R (raise to the amount shown), also from
// the amount field, where Enter raises too.
//
// Nothing about other seats' cards is known here before the server shows
// them: the page draws only what the table view holds. The coach works from
// the player's own view (table-coach.js), and each finished hand is checked
// and can be replayed step by step (table-history.js). The session
// commitment is in the header from the start; when the player leaves as the
// last person the table closes, its secret is revealed, and every hand held
// here is verified again with the seed's derivation (table-badge.js).
//
// Before each hand the table runs a round (docs/spec.md §20): the page draws
// a fresh per-hand value, sends only its sha256, and reveals the value once
// every seat's commit is in, with no click, so no seat has the last word on
// the deck.
//
// A table is private unless its opener makes it public when opening it
// (docs/spec.md §19.4): the opener sees the invitation's link to share, and a
// page opened with that link (`#table=<id>&invite=<code>`) sits at the table's
// first free seat with the invitation (table-invite.js).
//
// What the table signs for the player's own seat — each turn's deadline, its
// acceptance of the seat's commit and reveal — is kept in this browser
// (table-evidence.js) and held to each hand's record when the hand ends: a
// record that contradicts it raises the alarm on the felt and on the hand.
import { h, clear } from './dom.js';
import { t, has } from './i18n.js';
import { api, ensureToken } from './api.js';
import { errorText } from './errors.js';
import { parseExact } from './json.js';
import { renderTable, actionBar } from './table-render.js';
import { mountCoach, actionsOf } from './table-coach.js';
import { mountHistory } from './table-history.js';
import { sessionLine } from './table-badge.js';
import { readValue, writeValue } from './store.js';
import { createRoundBook } from './table-round.js';
import { seatState, leaveStep, comeBack, roundOpen, inHand, mySeat } from './table-seat.js';
import { seatControls } from './table-controls.js';
import { seatingBox, copyText, freeSeat, refusalText } from './table-invite.js';
import { createEvidence, alarmWords } from './table-evidence.js';

/**
 * @typedef {import('./types.js').TableView} TableView
 * @typedef {import('./types.js').RoundView} RoundView
 * @typedef {import('./types.js').LoggedAction} LoggedAction
 * @typedef {import('./types.js').Wasm} Wasm
 * @typedef {import('./wire-types.js').WireAction} WireAction
 * @typedef {import('./wire-types.js').ServerAckMessage} ServerAckMessage
 * @typedef {import('./table-seat.js').OutReason} OutReason
 * @typedef {'sit_out' | 'sit_in' | 'top_up'} SeatChange
 */

/**
 * What the Table tab holds besides the table's own view.
 * @typedef {object} TableState
 * @property {TableView | null} table the last view the table sent
 * @property {WebSocket | null} ws
 * @property {number | null} seq the last message of the table's log seen
 * @property {LoggedAction[]} log the hand's actions so far (for the coach and the felt)
 * @property {Record<number, string>} commits hand → its commitment, seen before its cards
 * @property {Map<string, {resolve: (ack: ServerAckMessage) => void, reject: (e: Error) => void}>} pending commands sent, by id
 * @property {string | null} tableId
 * @property {ReturnType<typeof setInterval> | null} timer
 * @property {{amount?: number}} remembered the amount the player set for this hand
 * @property {boolean} leaving asked to leave, not yet gone
 * @property {boolean} left
 * @property {string | true | null} revealed the session secret once out (true: the records carry it)
 * @property {OutReason} outReason why the table sat the player out, when the page saw it
 * @property {SeatChange[]} want seat changes asked for and not yet taken
 * @property {boolean} asking one of them is on its way
 * @property {string | null} seatShown the seat state drawn last
 * @property {string | null} leaveSent the leaving step sent, once each
 * @property {boolean} focusSeat the keyboard goes to the seat's controls on the next draw
 * @property {string | null} turnShown the turn whose cards were scrolled into sight
 * @property {string | null} [lastControl] the action bar's control the player used last
 * @property {boolean} [focusNext] the keyboard goes to the table once seated
 * @property {boolean} [refused] the table refused the connection itself
 * @property {{table: string, invite: string | null} | null} [joining] the table a link opened, and its invitation: the page sits at its first free seat
 * @property {boolean} [sitAsked] a `sit` is on its way
 * @property {boolean} [sitRefused] the table refused the seat: not asked again
 * @property {string | null} [seatingShown] what the seating line was drawn from
 */

/** The AI levels the page asks for: two rocks, two calculators, one reader. */
export const AI_LEVELS = [1, 2, 3, 1, 2];

/**
 * What the page asks for when opening a table: the AIs, fewer by the seats
 * the opener keeps free for people, and whether anyone may sit (public).
 * @param {number} free seats kept free for people (0 to 4)
 * @param {boolean} open a public table
 * @returns {import('./wire-types.js').ApiNewHoldemTable}
 */
export function newTableAsk(free, open) {
  const keep = Math.max(1, AI_LEVELS.length - Math.max(0, Math.min(4, free)));
  /** @type {import('./wire-types.js').ApiNewHoldemTable} */
  const ask = { ais: AI_LEVELS.slice(0, keep), scheme: 'selfpoker_v3' };
  if (open) ask.public = true;
  return ask;
}

const TABLE_KEY = 'table';
/** Refusals of a seat that pass: the page asks again on the table's next view. */
const SIT_LATER = new Set(['seat_taken', 'round_open', 'rate_limited']);
const SEED_KEY = 'table_seeds';

/** A printable client seed of 32 hex digits from the browser's CSPRNG. */
export function newClientSeed() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

const remembered = readValue;
const remember = writeValue;

/** A per-hand value: 32 bytes from the browser's CSPRNG as 64 lowercase hex digits. */
export function newHandValue() {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** sha256 of `text`'s bytes, as lowercase hex: a per-hand value's commit. @param {string} text */
export async function sha256Hex(text) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The client seed this browser chose for a table (chosen once, kept). @param {string} tableId @returns {string} */
function clientSeedFor(tableId) {
  const seeds = remembered(SEED_KEY, {});
  seeds[tableId] ??= newClientSeed();
  remember(SEED_KEY, seeds);
  return seeds[tableId];
}

/** A table's refusal in the player's words, by its code (never the server's English text). @param {string} code */
export function tableError(code) {
  return has(`table.error.${code}`) ? t(`table.error.${code}`) : t('table.error.other');
}

/** A refusal of one of the page's commands: its words, and its code for the page to act on. */
class TableRefusal extends Error {
  /** @param {string} code */
  constructor(code) {
    super(tableError(code));
    this.code = code;
  }
}

/** The house's part in a table, in the player's words (docs/spec.md §20.1): what it cannot do, and what it still can. */
function trustHelp() {
  /** @param {string[]} keys */
  const list = (keys) => h('ul', {}, keys.map((k) => h('li', {}, t(k))));
  return h('details', { class: 'tb-trust small', id: 'tb-trust' },
    h('summary', {}, t('table.trust_title')),
    h('p', {}, h('strong', {}, t('table.trust_cannot'))),
    list(['table.trust_cannot_deck', 'table.trust_cannot_policy', 'table.trust_cannot_seat', 'table.trust_cannot_close']),
    h('p', {}, h('strong', {}, t('table.trust_can'))),
    list(['table.trust_can_cards', 'table.trust_can_public', 'table.trust_can_invitation', 'table.trust_can_withhold']));
}

/** @param {string} path */
function wsUrl(path) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${path}`;
}

/**
 * @param {HTMLElement} root
 * @param {{wasm: Wasm, badges?: (receipts: unknown[]) => Node | null}} with
 */
export function mountTable(root, { wasm, badges }) {
  const status = h('p', { id: 'tb-status', class: 'muted small', role: 'status' });
  const error = h('p', { id: 'tb-error', class: 'error-text', role: 'alert' });
  // A record that contradicts what this page did (its own value, sent and acknowledged, recorded as withheld)
  // or what the table signed for its seat (table-evidence.js).
  const alarm = h('p', { id: 'tb-alarm', class: 'error-text tb-alarm', role: 'alert', hidden: true });
  const felt = h('div', { id: 'tb-table', class: 'poker-table', role: 'group', 'aria-label': t('table.seats_label') });
  const seatBox = h('div', { id: 'tb-seat', class: 'tb-seat' });
  const bar = h('div', { id: 'tb-actions', class: 'tb-actions', tabindex: -1, role: 'group', 'aria-label': t('table.actions_label') });
  const start = h('button', { type: 'button', class: 'primary', id: 'tb-open', onclick: () => openNew() }, t('table.open'));
  // How the next table opens: seats kept free for people, and private (the default) or public.
  const freeSeats = h('select', { id: 'tb-free-seats' }, [0, 1, 2, 3, 4].map((n) => h('option', { value: n }, String(n))));
  const makePublic = h('input', { type: 'checkbox', id: 'tb-public' });
  const options = h('div', { class: 'tb-open-options small', id: 'tb-open-options' },
    h('label', { for: 'tb-free-seats' }, t('table.free_seats'), ' ', freeSeats),
    h('label', { for: 'tb-public' }, makePublic, ' ', t('table.make_public')));
  const seating = h('div', { id: 'tb-seating-area' });
  // The table would not seat the person a link brought, and why: next to who may sit.
  const refused = h('p', { id: 'tb-refused', class: 'error-text', role: 'alert', hidden: true });
  const leave = h('button', { type: 'button', id: 'tb-leave', hidden: true, onclick: () => leaveTable() }, t('table.leave'));
  const session = h('div', { id: 'tb-session-box' });
  // The receipts of the log entries the table shows (the session's commitment,
  // the hand's commit), checked into the log like a bet's; a state carries
  // them when what they cover changes.
  const logged = h('div', { id: 'tb-receipts' });
  /** @type {TableState} */
  const state = {
    table: null, ws: null, seq: null, log: [], commits: {}, pending: new Map(), tableId: null, timer: null, remembered: {},
    leaving: false, left: false, revealed: null,
    // What the page knows beyond the view: the clock sat the player out; the seat changes asked for and not yet taken.
    outReason: null, want: [], asking: false, seatShown: null, leaveSent: null, focusSeat: false, turnShown: null,
  };
  // The per-hand values of the table's rounds: one per round, never carried to another table or round.
  const rounds = createRoundBook(newHandValue);
  const coach = mountCoach({
    wasm,
    current: () => state,
    // "Use this amount": the coach's raise goes into the amount, and the keyboard to the raise button.
    onAmount: (to) => {
      state.remembered.amount = to;
      state.lastControl = 'tb-raise';
      draw();
      bar.querySelector('#tb-raise')?.focus();
    },
  });
  // What the table signs for this page's seat, per table and hand.
  const evidence = createEvidence(wasm);
  const history = mountHistory({ wasm, evidence });

  const panel = h('section', { class: 'card-panel tb-main', id: 'tb-panel' },
    h('div', { class: 'tb-head' }, h('h2', {}, t('table.title')), leave, start),
    options,
    session, logged, seating, refused,
    h('p', { class: 'muted small tb-help' }, t('table.help')),
    trustHelp(),
    status, alarm, felt, seatBox, bar, error,
    h('p', { class: 'muted small', id: 'tb-keys' }, t('table.keys')));
  clear(root, panel, coach.element, history.element);

  /**
   * Sends a command; resolves with the ack, rejects with the error message.
   * @param {import('./wire-types.js').ClientMessage} message
   */
  function send(message) {
    const id = crypto.randomUUID();
    return new Promise((resolve, reject) => {
      if (!state.ws || state.ws.readyState !== WebSocket.OPEN) {
        reject(new Error(t('table.not_connected')));
        return;
      }
      state.pending.set(id, { resolve, reject });
      state.ws.send(JSON.stringify({ ...message, id }));
    });
  }

  /** @param {WireAction} action */
  async function act(action) {
    error.textContent = '';
    try {
      await send({ type: 'act', action });
    } catch (e) {
      error.textContent = e instanceof Error ? e.message : String(e);
    }
  }

  /**
   * Asks for the seat changes in `state.want`, one at a time, each once the
   * table takes it (no round open; chips only between the player's hands).
   */
  function pursue() {
    const table = state.table;
    const next = state.want[0];
    if (!table || !next || state.asking || !mySeat(table) || roundOpen(table)) return;
    if (next === 'top_up' && inHand(table)) return;
    state.asking = true;
    send({ type: next })
      .then(() => {
        state.want.shift();
        if (next === 'sit_in') state.outReason = null;
      })
      .catch((e) => { state.want = []; error.textContent = e.message; })
      .finally(() => { state.asking = false; pursue(); });
  }

  /** The player asks for seat changes (sit out, sit in, top up): done as soon as the table takes them. */
  /** @param {SeatChange[]} steps */
  function ask(steps) {
    error.textContent = '';
    state.want = steps;
    state.focusSeat = true;
    pursue();
    draw();
  }

  function draw() {
    const table = state.table;
    if (!table) {
      clear(felt);
      clear(bar);
      return;
    }
    const street = table.hand && table.hand.street;
    /** @type {Record<number, WireAction>} */
    const lastActions = {};
    for (const a of actionsOf(table, state.log)) if (a.street === street) lastActions[a.seat] = a.action;
    renderTable(felt, wasm, table, { deal: history.current(), lastActions, left: state.left && table.you === null });
    const active = document.activeElement;
    const inBar = Boolean(active && (active === bar || bar.contains(active)));
    if (active && inBar && active !== bar && active.id) state.lastControl = active.id;
    // Focus was lost (a control the player used turned disabled, or nothing had it): it goes back to the bar.
    const lost = inBar || !active || active === document.body || (state.focusNext && felt.contains(active)) || active === felt;
    // The action bar is the seated player's; a watcher or someone who left has none.
    bar.hidden = table.you === null;
    clear(bar, actionBar(table, act, state.remembered), coach.line);
    tick();
    // A redraw keeps the keyboard where the player acts next: the control they last used
    // when it can be used again, else the main button on their turn, else the bar itself
    // (the keys F, C and R work from there, and Tab goes on into the buttons).
    if (lost || state.focusNext) {
      const usable = (/** @type {string | null | undefined} */ id) => {
        const el = id ? /** @type {HTMLButtonElement | null} */ (bar.querySelector(`#${id}`)) : null;
        return el && !el.disabled ? el : null;
      };
      const target = usable(state.lastControl) || usable('tb-call') || (inBar || state.focusNext ? bar : null);
      if (target) {
        target.focus({ preventScroll: !state.focusNext });
        if (table.you !== null) state.focusNext = false;
      }
    }
    // Last: a seat state that changed takes the keyboard to its own main control.
    drawSeat(table);
    showMyCards(table);
    coach.update();
  }

  /**
   * The seat's own controls for its state (table-controls.js); when the
   * state changes, the keyboard goes to the control the player uses next.
   */
  /** @param {TableView} table */
  function drawSeat(table) {
    const now = state.left && table.you === null ? 'left' : seatState(table, state);
    const had = document.activeElement && seatBox.contains(document.activeElement) ? document.activeElement.id : null;
    clear(seatBox, seatControls(now, {
      table, asked: state.want,
      sitOut: () => ask(['sit_out']),
      comeBack: () => ask(comeBack(table)),
      stay: () => stay(),
    }));
    // Out of the hand (sat out, timed out, a missed round, out of chips), the action bar has nothing to act on:
    // on a phone it stops sitting over the screen's bottom, where it would cover the seat's own button.
    bar.classList.toggle('idle', now === 'sat_out' || now === 'timed_out' || now === 'missed_round' || now === 'busted');
    const changed = now !== state.seatShown;
    const first = state.seatShown === null;
    state.seatShown = now;
    const again = had && seatBox.querySelector(`#${had}`);
    if (again && !again.disabled && !changed) {
      again.focus();
    } else if ((changed && !first) || state.focusSeat || had) {
      // The control the player uses next: the seat's main button, else (playing) the action bar.
      const main = /** @type {HTMLElement | null} */ (seatBox.querySelector('[data-main]'));
      if (main && !main.hasAttribute('disabled')) main.focus();
      else (bar.querySelector('#tb-call:not([disabled])') || bar).focus({ preventScroll: true });
    }
    state.focusSeat = false;
  }

  /**
   * At the player's turn, their own cards are in sight: on a phone the action
   * bar sits over the bottom of the screen, so the page scrolls the seat
   * above it (once per turn).
   */
  /** @param {TableView} table */
  function showMyCards(table) {
    const hand = table.hand;
    const turn = hand && hand.legal && hand.to_act === table.you ? `${hand.number}:${hand.actions.length}` : null;
    if (!turn || turn === state.turnShown) return;
    state.turnShown = turn;
    const mine = felt.querySelector('.seat.mine');
    if (!mine || getComputedStyle(bar).position !== 'sticky') return;
    const over = mine.getBoundingClientRect().bottom - bar.getBoundingClientRect().top;
    if (over > 0) window.scrollBy({ top: over + 8 });
  }

  /** The clock: the seat to act's time left, redrawn every quarter second. */
  function tick() {
    const clock = felt.querySelector('[data-deadline]');
    if (!clock) return;
    const left = Math.max(0, Number(clock.dataset.deadline) - Date.now());
    const total = state.table?.config?.action_ms || 30000;
    clock.querySelector('.clock-text').textContent = t('table.clock', { s: Math.ceil(left / 1000) });
    const bar = clock.querySelector('.clock-bar');
    if (bar) bar.style.width = `${Math.min(100, (100 * left) / total)}%`;
  }

  /**
   * A view of the table at `tableId` after its log's message `seq`.
   * @param {TableView} table @param {number} seq @param {string} tableId
   */
  function onState(table, seq, tableId) {
    const hand = table.hand;
    if (hand && !(hand.number in state.commits)) {
      // The commitment, stored before any card of the hand is drawn here.
      state.commits[hand.number] = hand.commit;
      state.log = [];
      state.remembered = {};
      history.seen(tableId, hand.number, hand.commit, hand.scheme);
    }
    state.table = table;
    evidence.key(table.session && table.session.evidence_key);
    const mine = mySeat(table);
    if (hand && mine && table.you !== null) history.saw(hand.number, table.you, mine.hole, hand.board);
    clear(session, sessionLine(table.session));
    if (table.session && table.session.secret && state.revealed !== table.session.secret) {
      state.revealed = table.session.secret;
      closed(table.session.secret);
    }
    if (state.leaving) followLeave(table);
    else pursue();
    leave.hidden = table.you === null;
    start.hidden = table.you !== null;
    options.hidden = table.you !== null;
    drawSeating(table);
    if (state.joining && state.joining.table === tableId) join(table, tableId, state.joining.invite);
    else if (table.you === null && table.seats[0] === null && !state.left && !table.closed) {
      send({ type: 'sit', seat: 0, client_seed: clientSeedFor(tableId) }).catch((e) => { error.textContent = e.message; });
    }
    playRound(table.round, table.you, seq);
    panel.classList.toggle('seated', table.you !== null);
    const watching = state.sitRefused ? t('table.watching_only') : state.joining && freeSeat(table) === null ? t('table.invite_no_seat') : t('table.watching');
    status.textContent = state.left && table.you === null ? t('table.left') : table.you === null ? watching : hand ? t('table.hand_n', { n: hand.number }) : t('table.between_hands');
    draw();
  }

  /**
   * A page a link opened sits at the table's first free seat, with the
   * link's invitation; a refusal is said in the player's words, naming what
   * was wrong, and not asked again.
   * @param {TableView} table @param {string} tableId @param {string | null} invite
   */
  function join(table, tableId, invite) {
    if (table.you !== null || state.left || table.closed || state.sitAsked || state.sitRefused) return;
    const seat = freeSeat(table);
    // Every seat taken: the page watches, and the status says why.
    if (seat === null) return;
    state.sitAsked = true;
    /** @type {import('./wire-types.js').ClientSitMessage} */
    const sit = { type: 'sit', seat, client_seed: clientSeedFor(tableId) };
    if (invite) sit.invitation = invite;
    send(sit)
      .then(() => { error.textContent = ''; state.focusNext = true; })
      .catch((e) => {
        const code = e instanceof TableRefusal ? e.code : null;
        // Refused for now (the seat went to someone else, a round is open): tried again on the next view.
        if (code !== null && SIT_LATER.has(code)) return;
        if (code === null) {
          error.textContent = e.message;
          return;
        }
        state.sitRefused = true;
        refused.hidden = false;
        refused.textContent = refusalText(code, Boolean(invite));
        status.textContent = t('table.watching_only');
      })
      .finally(() => { state.sitAsked = false; });
  }

  /**
   * The table's seating in words and, where the viewer may share it, its
   * link; drawn again only when what it says changes (the link stays
   * selected, "copied" stays said).
   * @param {TableView} table
   */
  function drawSeating(table) {
    const key = `${table.table_id}|${Boolean(table.public)}|${table.invitation || ''}|${freeSeat(table) === null}`;
    if (key === state.seatingShown) return;
    state.seatingShown = key;
    clear(seating, seatingBox(table, { base: location.href, copy: copyText }));
  }

  /**
   * The page's part of a hand's round (table-round.js): commit once to a
   * value drawn for this round, then reveal it once the round takes values;
   * the value never leaves the page before its reveal.
   */
  /** @param {RoundView | null | undefined} round @param {number | null} you @param {number} seq */
  function playRound(round, you, seq) {
    // Committed before a reload, the value gone with the old page: the table will deal without this seat.
    if (rounds.lost(round, you)) error.textContent = t('table.round_lost');
    const step = rounds.due(round, you, seq);
    if (!step) return;
    const sent = step.type === 'hand_commit'
      ? sha256Hex(step.value).then((commit) => send({ type: 'hand_commit', hand: step.hand, commit }))
      : send({ type: 'hand_reveal', hand: step.hand, value: step.value });
    sent.then(() => rounds.confirmed(step), (e) => { rounds.failed(step); error.textContent = e.message; });
  }

  /** @param {import('./wire-types.js').ServerMessage} msg */
  function onMessage(msg) {
    // Messages come only on a table's connection, so after `connect` named the table.
    const tableId = state.tableId;
    if (tableId === null) return;
    if ('seq' in msg && typeof msg.seq === 'number') state.seq = msg.seq;
    switch (msg.type) {
      case 'state':
        if (msg.receipts) clear(logged, badges?.(msg.receipts));
        onState(/** @type {TableView} */ (msg.table), msg.seq, tableId);
        break;
      case 'round': {
        const notice = /** @type {{kind: string, hand: number, seat?: number}} */ (msg.notice);
        rounds.notice(notice, msg.seq);
        // The player's commit or value did not reach the table in time: it sat them out, and the page says why.
        if ((notice.kind === 'not_committed' || notice.kind === 'withheld') && state.table && notice.seat === state.table.you) state.outReason = 'round';
        break;
      }
      case 'event':
        if (msg.event && msg.event.event === 'acted') {
          const acted = /** @type {LoggedAction} */ (msg.event);
          state.log.push({ seat: acted.seat, street: acted.street, action: acted.action });
          // The clock acted for the player: the table sits them out, and the page says why.
          if (acted.timed_out && state.table && acted.seat === state.table.you) state.outReason = 'clock';
        }
        break;
      case 'hand_end': {
        const record = /** @type {import('./types.js').HandRecord} */ (msg.record);
        const found = history.ended(tableId, {
          number: msg.number,
          fairplay: /** @type {import('./table-history.js').HandFairplay} */ (msg.fairplay),
          record,
        }, clientSeedFor(tableId));
        /** @type {[string, string][]} each alarm's kind and words */
        const alarms = [];
        // The record says this seat withheld its value, yet the table acknowledged it: the page knows otherwise.
        const you = state.table ? state.table.you : null;
        if (you !== null && record.deal && (record.deal.withheld || []).includes(you) && rounds.revealedTo(msg.number)) {
          alarms.push(['withheld', t('table.alarm_withheld', { n: msg.number })]);
          history.alarm(msg.number);
        }
        // The record contradicts what the table signed for this seat (a timeout before the deadline it gave, …).
        for (const a of found ? found.alarms : []) alarms.push([a.kind, alarmWords(msg.number, a)]);
        if (alarms.length) {
          alarm.hidden = false;
          clear(alarm, alarms.map(([kind, words], i) => [i ? h('br', {}) : null,
            h('span', { 'data-alarm': kind }, h('span', { 'aria-hidden': 'true' }, '⚠ '), words)]));
        }
        draw();
        break;
      }
      case 'evidence':
        // Kept only if the table's evidence key signed it (table-evidence.js).
        evidence.item(msg.item);
        break;
      case 'error':
        if (!msg.id) {
          // The table refused the connection itself (unknown table, bad token): say so, do not retry.
          error.textContent = tableError(msg.code);
          state.refused = true;
          break;
        }
      // falls through: the answer to one of this page's commands
      case 'ack': {
        const waiting = msg.id ? state.pending.get(msg.id) : undefined;
        if (msg.id) state.pending.delete(msg.id);
        if (!waiting) break;
        if (msg.type === 'ack') waiting.resolve(msg);
        else waiting.reject(new TableRefusal(msg.code));
        break;
      }
      default:
        break;
    }
  }

  /** @param {string} tableId */
  async function connect(tableId) {
    state.ws?.close();
    state.refused = false;
    state.tableId = tableId;
    rounds.table(tableId);
    evidence.table(tableId);
    remember(TABLE_KEY, tableId);
    const token = await ensureToken();
    const ws = new WebSocket(wsUrl(`/v1/holdem/tables/${encodeURIComponent(tableId)}/ws`));
    state.ws = ws;
    status.textContent = t('table.connecting');
    let opened = false;
    ws.addEventListener('open', () => {
      opened = true;
      ws.send(JSON.stringify({ type: 'hello', token, after: state.seq }));
    });
    ws.addEventListener('message', (ev) => {
      try {
        onMessage(parseExact(ev.data));
      } catch (e) {
        error.textContent = errorText(e);
      }
    });
    ws.addEventListener('close', () => {
      if (state.ws !== ws) return;
      if (!opened || state.refused) {
        // The table is gone (the service restarted): forget it, offer a new one.
        state.ws = null;
        state.table = null;
        remember(TABLE_KEY, null);
        status.textContent = t('table.gone');
        draw();
        return;
      }
      status.textContent = t('table.disconnected');
      for (const { reject } of state.pending.values()) reject(new Error(t('table.not_connected')));
      state.pending.clear();
      // Reconnect after a pause, resuming after the last message seen.
      setTimeout(() => { if (state.ws === ws) connect(tableId).catch((e) => { error.textContent = errorText(e); }); }, 2000);
    });
    history.load(tableId).catch(() => {});
  }

  /**
   * The player asked to leave: the page says at once what happens — on their
   * turn the hand is folded now; dealt in, they leave when the hand ends;
   * else now — and does it as the table allows (table-seat.js).
   */
  function leaveTable() {
    error.textContent = '';
    const table = state.table;
    if (!table || !mySeat(table)) return;
    state.leaving = true;
    state.want = [];
    state.focusSeat = true;
    followLeave(table);
    draw();
  }

  /** One step towards leaving, each sent once. */
  /** @param {TableView} table */
  function followLeave(table) {
    const step = leaveStep(table);
    const key = `${step}:${table.hand ? table.hand.number : ''}`;
    if (step === 'wait' || state.leaveSent === key) return;
    if (step === 'leave') {
      leaveNow();
      return;
    }
    state.leaveSent = key;
    const sent = step === 'fold' ? send({ type: 'act', action: { kind: 'fold' } }) : send({ type: 'sit_out' });
    sent.catch(() => { state.leaveSent = null; });
  }

  /** "Stay": the player takes the leave back (and sits in again if leaving had sat them out). */
  function stay() {
    state.leaving = false;
    state.leaveSent = null;
    const mine = state.table && mySeat(state.table);
    ask(mine && mine.sitting_out ? ['sit_in'] : []);
  }

  function leaveNow() {
    if (state.left) return;
    // Left from now on (the page must not take the seat again), still "leaving" until the table says so.
    state.left = true;
    send({ type: 'leave' })
      .then(() => {
        state.leaving = false;
        status.textContent = t('table.left');
        start.hidden = false;
        leave.hidden = true;
        const had = document.activeElement;
        draw();
        // What the player does next is open another table: the keyboard goes there unless it is elsewhere on purpose.
        if (!had || had === document.body || panel.contains(had) || !document.contains(had)) start.focus();
        return awaitSecret();
      })
      // Refused for now (a round opened meanwhile): still leaving, tried again on the next state.
      .catch(() => { state.left = false; draw(); });
  }

  /**
   * The table closes when its last person leaves: ask for its hands until
   * their records carry the session secret (the state may say so first).
   */
  async function awaitSecret() {
    const tableId = state.tableId;
    // Only while the page is still at that table (another one opened meanwhile: its own hands only).
    for (let i = 0; tableId !== null && state.tableId === tableId && i < 30 && !state.revealed; i++) {
      if (await history.load(tableId).catch(() => false)) {
        state.revealed ??= true;
        draw();
        return;
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  /** The session secret is out: verify every hand held here, with the service's records of them. */
  /** @param {string} secret */
  function closed(secret) {
    history.reveal(secret);
    if (state.tableId !== null) history.load(state.tableId).then(draw, () => {});
  }

  async function openNew() {
    error.textContent = '';
    start.disabled = true;
    try {
      const made = await api.holdemTable(newTableAsk(Number(freeSeats.value), makePublic.checked), crypto.randomUUID());
      forget(made.table_id);
      await connect(made.table_id);
    } catch (e) {
      error.textContent = errorText(e);
    } finally {
      start.disabled = false;
    }
  }

  /**
   * Nothing of the last table carries over to `tableId`: its view, its
   * hands, its receipts, a link's seat.
   * @param {string} tableId
   */
  function forget(tableId) {
    state.seq = null;
    state.table = null;
    state.log = [];
    state.remembered = {};
    state.commits = {};
    state.left = false;
    state.leaving = false;
    state.leaveSent = null;
    state.outReason = null;
    state.want = [];
    state.seatShown = null;
    state.revealed = null;
    state.lastControl = null;
    // Once seated, the keyboard goes to the table's buttons, not back to the top of the page.
    state.focusNext = true;
    clear(session);
    clear(logged);
    clear(alarm);
    alarm.hidden = true;
    clear(seating);
    state.seatingShown = null;
    state.joining = null;
    state.sitAsked = false;
    state.sitRefused = false;
    refused.hidden = true;
    refused.textContent = '';
    history.reset(tableId);
    draw();
  }

  /**
   * A link opened the page at a table (`#table=<id>&invite=<code>`): watch
   * it, and sit at its first free seat with the invitation.
   * @param {{table: string, invite: string | null}} link
   */
  async function openLink(link) {
    error.textContent = '';
    if (state.tableId === link.table && state.table && state.table.you !== null) return;
    forget(link.table);
    state.joining = link;
    await connect(link.table);
  }

  /** F, C and R act when it is the player's turn and no text field has the keys. */
  document.addEventListener('keydown', (ev) => {
    if (root.hidden || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const on = /** @type {HTMLElement} */ (ev.target);
    // Only a field that takes typed text keeps the letters; a checkbox, a button or a slider does not.
    const typing = ev.target instanceof HTMLElement && (ev.target.isContentEditable
      || ev.target.matches('textarea, select, input:not([type=range]):not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit]):not([type=reset]):not([type=file]):not([type=color])'));
    const key = ev.key.toLowerCase();
    // The amount takes digits only: there Enter raises, and F, C and R are the table's keys as anywhere.
    const inAmount = on.id === 'tb-amount';
    if (typing && !(inAmount && ['enter', 'f', 'c', 'r'].includes(key))) return;
    const button = { f: '#tb-fold', c: '#tb-call', r: '#tb-raise', enter: inAmount ? '#tb-raise' : null }[key];
    const target = button && bar.querySelector(button);
    if (target && !target.disabled) {
      ev.preventDefault();
      // After a raise by Enter the keyboard stays in the amount, where F, C and R work on the next turn.
      state.lastControl = inAmount ? 'tb-amount' : target.id;
      target.click();
    } else if (target && state.table && state.table.you !== null) {
      // The key is right, the moment is not: say why nothing happened.
      error.textContent = t('table.keys_wait');
    }
  });

  state.timer = setInterval(tick, 250);
  return {
    /**
     * Opens the table a link names, with its invitation; else reconnects to
     * the table this browser last opened, if any.
     * @param {{table: string, invite: string | null} | null} [link]
     */
    show(link = null) {
      if (link) return openLink(link);
      const last = remembered(TABLE_KEY, null);
      if (!state.ws && last) return connect(last);
      return Promise.resolve();
    },
    state: () => state,
  };
}
