// Draws a hold'em table view (docs/api.md, "Live hold'em table"): the seats
// around the felt with their chips, bets and cards, the board, the pot, whose
// turn it is with the clock, the "AI · level N" badges, how each person came
// (the house's marked so), the verifiable-deal badge, and the action buttons. Cards drawn are only those the view holds:
// the player's own, and others' once shown at showdown; the rest are backs.
import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { card } from './render.js';
import { fmtInt } from './format.js';
import { dealBadge } from './table-badge.js';
import { cameBadge } from './table-invite.js';

/** Seats in the order the desktop layout places them around the felt (you at the bottom). */
const AROUND = ['at-bottom', 'at-left', 'at-top-left', 'at-top', 'at-top-right', 'at-right'];

function back() {
  return h('span', { class: 'card back', 'aria-hidden': 'true' }, '\u00a0');
}

/** An action in the player's words: "calls", "raises to 300". */
export function actionText(action, mine = false) {
  if (!action) return '';
  const verb = mine ? 'table.you_did_' : 'table.did_';
  if (action.kind === 'raise_to') return t(`${verb}raise`, { to: fmtInt(action.to) });
  return t(`${verb}${action.kind}`);
}

/** What seat `seat` ended a hand with, less what it started with (null: not in the record). */
export function netOf(record, seat) {
  const before = ((record && record.seats) || []).find((s) => s.seat === seat);
  const after = ((record && record.results && record.results.stacks) || []).find(([s]) => s === seat);
  return before && after ? Number(after[1]) - Number(before.stack) : null;
}

/** A hand's net result for the player, in the same words on the felt and in the list. */
export function netText(diff) {
  return diff > 0 ? t('table.won', { chips: fmtInt(diff) }) : diff < 0 ? t('table.lost', { chips: fmtInt(-diff) }) : t('table.even');
}

/** A seat as the player knows it: "You" for their own. */
export function seatWho(seat, you) {
  return seat === you ? t('table.you') : t('table.seat', { seat });
}

function seatName(table, seat) {
  if (seat.seat === table.you) return t('table.you');
  if (seat.player && seat.player.kind === 'ai') return t('table.ai_seat', { seat: seat.seat });
  return (seat.player && seat.player.name) || t('table.seat', { seat: seat.seat });
}

function holeCards(wasm, seat, hand) {
  if (seat.hole) return h('span', { class: 'cards' }, seat.hole.map((id) => card(wasm, 'selfpoker', id)));
  if (hand && seat.in_hand && !seat.folded) {
    return h('span', { class: 'cards', role: 'img', 'aria-label': t('table.hidden_cards') }, back(), back());
  }
  return h('span', { class: 'cards empty' });
}

function clock(hand) {
  return h('div', { class: 'clock', 'data-deadline': hand.deadline_ms },
    h('span', { class: 'clock-text' }, ''),
    h('span', { class: 'clock-track', 'aria-hidden': 'true' }, h('span', { class: 'clock-bar' })));
}

function seatBox(wasm, table, seat, place, lastActions) {
  const hand = table.hand;
  if (!seat) return h('div', { class: `seat empty ${place}` }, h('span', { class: 'muted small' }, t('table.empty_seat')));
  const toAct = hand && hand.to_act === seat.seat;
  const level = seat.player && seat.player.kind === 'ai' ? seat.player.level : null;
  const status = seat.folded ? t('table.folded') : seat.sitting_out ? t('table.sitting_out')
    : hand && seat.in_hand && seat.stack === 0 ? t('table.all_in') : lastActions[seat.seat] ? actionText(lastActions[seat.seat]) : '';
  return h('div', {
    class: `seat ${place}${toAct ? ' to-act' : ''}${seat.folded ? ' folded' : ''}${seat.seat === table.you ? ' mine' : ''}${seat.came === 'house' ? ' house' : ''}`,
    'data-seat': seat.seat, 'aria-current': toAct ? 'true' : null,
  },
  h('div', { class: 'seat-head' },
    h('strong', { class: 'seat-name' }, seatName(table, seat)),
    table.button === seat.seat ? h('span', { class: 'dealer', title: t('table.button') }, 'D', h('span', { class: 'sr-only' }, ` ${t('table.button')}`)) : null,
    level !== null ? h('span', { class: 'ai-badge' }, t('table.ai_badge', { level })) : cameBadge(seat)),
  holeCards(wasm, seat, hand),
  h('div', { class: 'seat-chips small' },
    h('span', { class: 'stack' }, t('table.stack', { chips: fmtInt(seat.stack) })),
    seat.street_bet ? h('span', { class: 'bet' }, t('table.bet', { chips: fmtInt(seat.street_bet) })) : null),
  h('div', { class: 'seat-status small' }, status),
  toAct ? clock(hand) : null);
}

/** The felt's middle: hand number, street, board, pot and the deal badge. */
function middle(wasm, table, deal, left) {
  const hand = table.hand;
  const board = hand ? hand.board : (table.last_hand && table.last_hand.board) || (deal && deal.board) || [];
  const slots = [...board.map((id) => card(wasm, 'selfpoker', id))];
  // The player's own result of the hand just ended, the same number the hand list shows.
  const net = !hand && table.last_hand && deal && deal.record && deal.record.hand === table.last_hand.number && table.you !== null ? netOf(deal.record, table.you) : null;
  while (slots.length < 5) slots.push(h('span', { class: 'card slot', 'aria-hidden': 'true' }, '\u00a0'));
  return h('div', { class: 'felt-middle' },
    h('div', { class: 'small muted', id: 'tb-felt-state' }, hand ? `${t('table.hand_n', { n: hand.number })} · ${t(`table.street_${hand.street}`)}` : left ? t('table.left') : t('table.between_hands')),
    h('div', { class: 'board cards', role: 'group', 'aria-label': t('table.board') }, slots),
    hand || !table.last_hand
      ? h('div', { class: 'pot' }, t('table.pot', { chips: fmtInt(hand ? hand.pot : 0) }))
      : h('ul', { class: 'pot-won' }, table.last_hand.pots.flatMap((p) => p.winners).map(([seat, chips]) =>
        h('li', {}, seat === table.you ? t('table.you_won', { chips: fmtInt(chips) }) : t('table.seat_won', { seat, chips: fmtInt(chips) })))
        .concat(net === null ? [] : [h('li', { class: 'net', id: 'tb-net' }, `${t('table.you')}: ${netText(net)}`)])),
    // A hand dealt and over within one change (both all in from the blinds) showed no commitment before its end.
    deal ? h('div', { id: 'tb-deal' }, deal.commitment ? dealBadge(wasm, deal) : h('span', { class: 'muted small' }, t('table.not_seen'))) : null);
}

/**
 * Draws `table` into `root`. `deal` is the verifiable-deal entry of the hand
 * shown (its commitment, and once revealed its seed and any problem);
 * `lastActions` the latest action of each seat in this hand.
 */
export function renderTable(root, wasm, table, { deal, lastActions = {}, left = false }) {
  const n = table.seats.length;
  const you = table.you ?? 0;
  // Seats from the player's own, clockwise, onto the places around the felt.
  const places = n <= 2 ? ['at-bottom', 'at-top'] : n === 3 ? ['at-bottom', 'at-top-left', 'at-top-right'] : AROUND;
  const seats = table.seats.map((seat, i) => {
    const k = (i - you + n) % n;
    return seatBox(wasm, table, seat, places[Math.min(k, places.length - 1)], lastActions);
  });
  clear(root, h('div', { class: `felt seats-${n}`, 'data-hand': table.hand ? table.hand.number : null }, middle(wasm, table, deal, left), seats));
}

/**
 * The action buttons: fold, check or call, raise to an amount within
 * `legal.raise`. Always drawn (disabled off turn) so nothing jumps.
 */
export function actionBar(table, act, remembered) {
  const hand = table.hand;
  const legal = hand && hand.to_act === table.you ? hand.legal : null;
  const range = legal && legal.raise;
  const toCall = legal ? legal.to_call : 0;
  const amount = h('input', {
    id: 'tb-amount', type: 'number', inputmode: 'numeric', min: range ? range[0] : 0, max: range ? range[1] : 0, step: 1,
    value: range ? Math.min(range[1], Math.max(range[0], remembered.amount ?? range[0])) : '', disabled: !range,
  });
  const slider = h('input', {
    id: 'tb-slider', type: 'range', min: range ? range[0] : 0, max: range ? range[1] : 1, step: 1,
    value: range ? amount.value : 0, disabled: !range, 'aria-label': t('table.amount_slider'),
  });
  // Facing a bet (the blinds count): a raise; else the street's first bet.
  const facing = toCall > 0 || table.seats.some((s) => s && s.street_bet > 0);
  amount.setAttribute('aria-label', t(facing ? 'table.amount' : 'table.amount_bet'));
  const label = (chips) => t(facing ? 'table.raise_to' : 'table.bet_to', { chips: fmtInt(chips) });
  const valid = () => {
    const v = Number(amount.value);
    return range && Number.isInteger(v) && v >= range[0] && v <= range[1];
  };
  const raise = h('button', { type: 'button', id: 'tb-raise', 'aria-keyshortcuts': 'R', disabled: !range,
    onclick: () => { if (valid()) act({ kind: 'raise_to', to: Number(amount.value) }); } },
  range ? label(Number(amount.value)) : t('table.raise'));
  const sync = (from, to) => {
    to.value = from.value;
    remembered.amount = Number(from.value);
    raise.disabled = !valid();
    if (range) raise.textContent = label(Number(from.value) || 0);
  };
  amount.addEventListener('input', () => sync(amount, slider));
  slider.addEventListener('input', () => sync(slider, amount));
  return h('div', { class: 'tb-bar', 'data-my-turn': String(Boolean(legal)) },
    h('p', { class: 'turn small', id: 'tb-turn' }, legal ? t('table.your_turn') : hand && hand.to_act !== null ? t('table.waiting', { seat: hand.to_act }) : '\u00a0'),
    h('div', { class: 'tb-buttons' },
      h('button', { type: 'button', id: 'tb-fold', 'aria-keyshortcuts': 'F', disabled: !legal, onclick: () => act({ kind: 'fold' }) }, t('table.fold')),
      h('button', { type: 'button', id: 'tb-call', class: 'primary', 'aria-keyshortcuts': 'C', disabled: !legal,
        onclick: () => act({ kind: toCall ? 'call' : 'check' }) }, toCall ? t('table.call', { chips: fmtInt(toCall) }) : t('table.check'))),
    h('div', { class: 'tb-raise' }, amount, slider, raise));
}
