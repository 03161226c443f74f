// Turns a verdict's outcome into something a player can read: cards with suit
// symbols, dice faces, tiles by name, seat order, colours, Merkle-proven cards.
// Names come from the core (wasm `card_name`); this file only lays them out.
import { h } from './dom.js';
import { t } from './i18n.js';
import { fmtInt, fmtRoll } from './format.js';
import { HOLDEM, holdemOutcome } from './holdem-words.js';

const SUITS = { c: '♣', d: '♦', h: '♥', s: '♠' };
const DIE_FACES = ['⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];

export function card(wasm, deck, id) {
  const name = wasm.card_name(deck, id);
  if (deck === 'mahjong') return h('span', { class: 'tile', title: `#${id}` }, name);
  const rank = name[0] === 'T' ? '10' : name[0];
  const suit = name[1];
  const red = suit === 'd' || suit === 'h';
  return h('span', { class: `card${red ? ' red' : ''}`, title: `${name} (#${id})`, 'data-card': name },
    rank, h('span', { class: 'suit', 'aria-hidden': 'true' }, SUITS[suit] || '?'),
    h('span', { class: 'sr-only' }, ` ${name}`));
}

function cards(wasm, deck, ids) {
  return h('span', { class: 'cards' }, (ids || []).map((id) => card(wasm, deck, id)));
}

function die(n) {
  return h('span', { class: 'die', title: String(n) }, DIE_FACES[n - 1] || '?', h('span', { class: 'sr-only' }, String(n)));
}

function row(label, ...value) {
  return h('div', { class: 'out-row' }, h('span', { class: 'out-label' }, label), h('span', { class: 'out-value' }, ...value));
}

function seatOrder(order) {
  return row(t('out.seat_order'), h('ol', { class: 'seats', start: 0 },
    order.map((player, seat) => h('li', {}, `${t('out.seat', { seat })}: ${t('out.player', { player })}`))));
}

function matchOutcome(wasm, o) {
  const parts = [];
  if (Array.isArray(o.seat_order)) parts.push(seatOrder(o.seat_order));
  (o.games || []).forEach((g, i) => {
    parts.push(h('h3', {}, t('out.game', { n: i + 1 })));
    parts.push(row(t('out.opening'), (g.opening || []).map((p) => h('span', { class: 'pair' }, die(p[0]), die(p[1])))));
    parts.push(row(t('out.rolls'), h('span', { class: 'rolls' }, (g.rolls || []).map((p) => h('span', { class: 'pair' }, die(p[0]), die(p[1]))))));
  });
  (o.deals || []).forEach((deal, i) => {
    parts.push(h('h3', {}, t('out.deal', { n: i + 1 })));
    deal.forEach((hand, seat) => parts.push(row(t('out.seat', { seat }), cards(wasm, '52', hand))));
  });
  (o.hands || []).forEach((hand, i) => {
    parts.push(h('h3', {}, t('out.hand', { n: i + 1 })));
    if (Array.isArray(hand)) {
      parts.push(row(t('out.draws'), h('span', { class: 'tiles' }, hand.map((id) => card(wasm, 'mahjong', id)))));
      return;
    }
    (hand.first || []).forEach((ids, seat) => parts.push(row(t('out.seat', { seat }), cards(wasm, 'baloot', ids))));
    parts.push(row(t('out.face_up'), card(wasm, 'baloot', hand.face_up)));
    if (hand.second) {
      parts.push(h('h4', {}, t('out.second')));
      hand.second.forEach((ids, seat) => parts.push(row(t('out.seat', { seat }), cards(wasm, 'baloot', ids))));
    } else {
      parts.push(row(t('out.second'), t('out.no_buyer')));
    }
  });
  return parts;
}

function pokerOutcome(wasm, o) {
  return (o.hands || []).flatMap((hand) => [
    h('h3', {}, t('out.hand', { n: hand.n })),
    row(t('out.hand_value'), h('code', { class: 'hex' }, hand.hand_value)),
    row(t('out.deck_root'), h('code', { class: 'hex' }, hand.deck_root)),
    ...Object.entries(hand.holes || {}).map(([seat, ids]) => row(t('out.seat', { seat }), cards(wasm, '52', ids))),
    row(t('out.board'), cards(wasm, '52', hand.board)),
    row(t('out.deck'), cards(wasm, '52', hand.deck)),
  ]);
}

function proofOutcome(wasm, o, record) {
  const leaves = new Map(((record && record.leaves) || []).map((l) => [l.i, l]));
  return [row(t('out.proven'), h('ul', { class: 'proofs' }, (o.cards || []).map((c) => {
    const leaf = leaves.get(c.i);
    return h('li', {}, card(wasm, '52', c.card), ` ${t('out.position', { i: c.i })} ✓`,
      leaf ? h('details', {}, h('summary', {}, t('out.merkle_path')),
        h('ol', { class: 'path' }, (leaf.path || []).map((p) => h('li', {}, h('code', { class: 'hex' }, p))))) : null);
  })))];
}

export function renderOutcome(wasm, scheme, outcome, record) {
  // A hand is told as steps even when a check failed: the player sees what the record claims.
  if (scheme === HOLDEM) return holdemOutcome(wasm, record);
  if (!outcome) return [];
  switch (scheme) {
    case 'match_seed_v2':
    case 'match_seed_v1':
      return matchOutcome(wasm, outcome);
    case 'chess_colour_v1':
      return [row(t('out.white'), t('out.white_is', { side: outcome.white }))];
    case 'poker_hmac_v1':
      return pokerOutcome(wasm, outcome);
    case 'poker_hmac_v1_proof':
      return proofOutcome(wasm, outcome, record);
    case 'dice_v1':
      return [
        row(t('out.roll'), h('strong', { class: 'roll' }, fmtRoll(outcome.roll))),
        'win' in outcome ? row(t('out.win'), outcome.win ? t('out.yes') : t('out.no')) : null,
        'payout' in outcome ? row(t('out.payout_chips'), `${fmtInt(outcome.payout)} ${t('app.chips')}`) : null,
      ];
    case HOLDEM:
      return holdemOutcome(wasm, record);
    case 'selfpoker':
      return [
        ...(outcome.holes || []).map((ids, seat) => row(t('out.seat', { seat }), cards(wasm, 'selfpoker', ids))),
        row(t('out.board'), cards(wasm, 'selfpoker', outcome.board)),
        row(t('out.deck'), cards(wasm, 'selfpoker', outcome.deck)),
      ];
    default:
      return [h('pre', {}, JSON.stringify(outcome, null, 1))];
  }
}
