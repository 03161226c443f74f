// A verdict in the player's words: one sentence per check ("Roll 54.63 —
// matches", "Card 6 of seat 2 should be 7♠, the record says 9♣"). The
// sentences are built from the verdict's structure — the check's name, the
// recomputed outcome and the record's claimed one — and translated templates,
// never from core's English text, which stays under "details".
import { t, has } from './i18n.js';
import { fmtInt, fmtRoll } from './format.js';
import { HOLDEM, holdemSentence, withRulesChecks } from './holdem-words.js';

const SUITS = { c: '♣', d: '♦', h: '♥', s: '♠' };

/** A card's core name ("Ts") as a player writes it ("10♠"); tiles keep their names. */
export function cardText(wasm, deck, id) {
  const name = wasm.card_name(deck, id);
  if (deck === 'mahjong') return name;
  return `${name[0] === 'T' ? '10' : name[0]}${SUITS[name[1]] || name[1]}`;
}

const isIndex = (s) => typeof s === 'number';
/** JSON text that also takes BigInt (exact payouts). */
const jsonText = (v) => JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? x.toString() : x));

/**
 * Where `path` (keys and indices under `outcome`) points, in words, and how to
 * name the values found there: {where: [innermost first], deck}. Follows the
 * layouts of core's describe.rs.
 */
function locate(scheme, record, path) {
  const [key, a, b, c, d] = path;
  const parts = [];
  let deck = null;
  const n = (i) => i + 1;
  const game = record && record.game;
  if (key === 'seat_order') {
    if (isIndex(a)) parts.push(t('where.seat', { seat: a }));
  } else if (scheme.startsWith('match_seed') && key === 'deals') {
    deck = '52';
    if (isIndex(a)) parts.push(t('where.deal', { n: n(a) }));
    if (isIndex(b)) parts.push(t('where.seat', { seat: b }));
    if (isIndex(c)) parts.push(t('where.card', { n: n(c) }));
  } else if (scheme.startsWith('match_seed') && key === 'games') {
    if (isIndex(a)) parts.push(t('where.game', { n: n(a) }));
    if (b === 'opening') {
      if (isIndex(c)) parts.push(t('where.opening', { n: n(c) }));
      if (isIndex(d)) parts.push(t('where.seat_die', { seat: d }));
    } else if (b === 'rolls') {
      if (isIndex(c)) parts.push(t('where.move', { n: n(c) }));
      if (isIndex(d)) parts.push(t('where.die', { n: n(d) }));
    }
  } else if (scheme.startsWith('match_seed') && key === 'hands' && game === 'mahjong') {
    deck = 'mahjong';
    if (isIndex(a)) parts.push(t('where.hand', { n: n(a) }));
    if (isIndex(b)) parts.push(t('where.draw', { n: n(b) }));
  } else if (scheme.startsWith('match_seed') && key === 'hands') {
    deck = 'baloot';
    if (isIndex(a)) parts.push(t('where.hand', { n: n(a) }));
    if (b === 'first' || b === 'second') parts.push(t(`where.${b}`));
    if (b === 'face_up') parts.push(t('where.face_up'));
    if (isIndex(c)) parts.push(t('where.seat', { seat: c }));
    if (isIndex(d)) parts.push(t('where.card', { n: n(d) }));
  } else if (scheme === 'poker_hmac_v1' && key === 'hands') {
    if (isIndex(a)) parts.push(t('where.hand', { n: n(a) }));
    if (b === 'deck' || b === 'board') {
      deck = '52';
      parts.push(isIndex(c) ? t(`where.${b}_card`, { n: b === 'deck' ? c : n(c) }) : t(`where.${b}`));
    } else if (b === 'holes') {
      deck = '52';
      if (c !== undefined) parts.push(t('where.seat', { seat: c }));
      if (isIndex(d)) parts.push(t('where.hole', { n: n(d) }));
    } else if (b) {
      parts.push(t(`where.${b}`));
    }
  } else if (scheme === 'poker_hmac_v1_proof' && key === 'cards') {
    if (isIndex(a)) parts.push(t('where.proven', { n: n(a) }));
    if (b === 'card') deck = '52';
  } else if (scheme === 'selfpoker') {
    deck = 'selfpoker';
    if (key === 'deck') parts.push(isIndex(a) ? t('where.deck_card', { n: a }) : t('where.deck'));
    if (key === 'holes') {
      if (isIndex(a)) parts.push(t('where.player', { n: n(a) }));
      if (isIndex(b)) parts.push(t('where.card', { n: n(b) }));
    }
    if (key === 'board') parts.push(isIndex(a) ? t('where.board_card', { n: n(a) }) : t('where.board'));
  }
  if (!parts.length) parts.push(t(`outcome.${key}`));
  return { where: parts.reverse(), deck };
}

function joinWhere(parts) {
  const text = parts.join(t('where.of'));
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A value of the outcome as a player reads it. */
function valueText(wasm, scheme, deck, key, v) {
  if (v === null || v === undefined) return '—';
  if (scheme === 'dice_v1' && key === 'roll' && typeof v === 'number') return fmtRoll(v);
  if (typeof v === 'boolean') return v ? t('out.yes') : t('out.no');
  if (deck && typeof v === 'number' && Number.isInteger(v)) {
    try { return cardText(wasm, deck, v); } catch { return String(v); }
  }
  if (typeof v === 'number' || typeof v === 'bigint') return fmtInt(v);
  if (Array.isArray(v)) return v.map((x) => valueText(wasm, scheme, deck, key, x)).join(' ');
  if (typeof v === 'object') return jsonText(v);
  return String(v);
}

/** The first place `found` (the record) differs from `expected` (recomputed), as a sentence. */
function firstDiff(wasm, scheme, record, expected, found, path) {
  if (Array.isArray(expected) && Array.isArray(found)) {
    if (expected.length !== found.length) {
      return t('words.count', { where: joinWhere(locate(scheme, record, path).where), found: found.length, expected: expected.length });
    }
    for (let i = 0; i < expected.length; i++) {
      const d = firstDiff(wasm, scheme, record, expected[i], found[i], [...path, i]);
      if (d) return d;
    }
    return null;
  }
  if (expected && found && typeof expected === 'object' && typeof found === 'object' && !Array.isArray(expected) && !Array.isArray(found)) {
    const keys = [...Object.keys(expected), ...Object.keys(found).filter((k) => !(k in expected))];
    for (const k of keys) {
      const where = () => joinWhere(locate(scheme, record, [...path, k]).where);
      if (!(k in found)) return t('words.missing', { where: where() });
      if (!(k in expected)) return t('words.extra', { where: where() });
      const d = firstDiff(wasm, scheme, record, expected[k], found[k], [...path, k]);
      if (d) return d;
    }
    return null;
  }
  if (jsonText(expected) === jsonText(found)) return null;
  const { where, deck } = locate(scheme, record, path);
  return t('words.differs', {
    where: joinWhere(where),
    expected: valueText(wasm, scheme, deck, path[0], expected),
    found: valueText(wasm, scheme, deck, path[0], found),
  });
}

const COMMITMENTS = new Set(['commitment', 'commit_a', 'commit_b', 'commit']);

/** One check as a sentence: {ok, text}. */
export function checkSentence(wasm, verdict, record, check) {
  const scheme = verdict.scheme || '';
  const name = check.name;
  let m;
  if (scheme === HOLDEM) {
    const said = holdemSentence(wasm, record, check);
    if (said) return said;
  }
  if (COMMITMENTS.has(name)) {
    const who = name === 'commit_b' ? 'b' : name === 'commit_a' ? 'a' : 'one';
    return { ok: check.ok, text: t(`check.commitment_${check.ok ? 'ok' : 'bad'}_${who}`) };
  }
  if (name === 'reveal') return { ok: false, text: t('check.reveal') };
  if ((m = /^hands\[(\d+)\]\.(hand_commitment|deck_root)$/.exec(name))) {
    const hand = record && record.hands && record.hands[Number(m[1])];
    return { ok: check.ok, text: t(`check.${m[2]}_${check.ok ? 'ok' : 'bad'}`, { n: hand ? hand.n : Number(m[1]) + 1 }) };
  }
  if ((m = /^leaves\[(\d+)\]$/.exec(name))) {
    const leaf = record && record.leaves && record.leaves[Number(m[1])];
    const card = leaf ? cardText(wasm, '52', leaf.card) : '?';
    return { ok: check.ok, text: t(`check.leaf_${check.ok ? 'ok' : 'bad'}`, { card, i: leaf ? leaf.i : '?' }) };
  }
  if ((m = /^outcome\.(.+)$/.exec(name))) {
    const key = m[1];
    const expected = verdict.outcome ? verdict.outcome[key] : undefined;
    const found = record && record.outcome ? record.outcome[key] : undefined;
    if (expected === undefined) return { ok: false, text: t('words.not_in_scheme', { key }) };
    if (check.ok) {
      if (scheme === 'dice_v1' && key === 'roll') return { ok: true, text: t('check.roll_ok', { roll: fmtRoll(expected) }) };
      if (scheme === 'dice_v1' && key === 'payout') return { ok: true, text: t('check.payout_ok', { payout: fmtInt(expected) }) };
      if (scheme === 'dice_v1' && key === 'win') return { ok: true, text: t(expected ? 'check.win_ok' : 'check.loss_ok') };
      return { ok: true, text: t('check.outcome_ok', { what: joinWhere([t(`outcome.${key}`)]) }) };
    }
    return { ok: false, text: firstDiff(wasm, scheme, record, expected, found, [key]) || t('words.differs_somewhere', { what: t(`outcome.${key}`) }) };
  }
  return { ok: check.ok, text: t(check.ok ? 'check.other_ok' : 'check.other_bad', { name }) };
}

/** Hold'em checks named as the page words them (`commitment` is the hand's own there). */
const HOLDEM_CHECKS = new Set(['session_secret', 'derivation', 'reveals', 'withheld', 'actions', 'results', 'ai', 'policy']);

/**
 * What a check of `scheme` is about, in the player's words, for its line
 * under "details": never core's field name, and a place in a list counted
 * from 1 as a player counts.
 */
export function checkLabel(scheme, name) {
  let m;
  if (scheme === HOLDEM) {
    if (name === 'commitment') return t('checkname.hand_commit');
    if (HOLDEM_CHECKS.has(name)) return t(`checkname.${name}`);
  }
  if (COMMITMENTS.has(name) || name === 'reveal') return t(`checkname.${name}`);
  if ((m = /^hands\[(\d+)\]\.(hand_commitment|deck_root)$/.exec(name))) return t(`checkname.${m[2]}`, { n: Number(m[1]) + 1 });
  if ((m = /^leaves\[(\d+)\]$/.exec(name))) return t('checkname.leaf', { n: Number(m[1]) + 1 });
  if ((m = /^outcome\.(\w+)$/.exec(name)) && has(`outcome.${m[1]}`)) return joinWhere([t(`outcome.${m[1]}`)]);
  return t('checkname.other');
}

/** Every check of a verdict as sentences: failures first, then what the player was shown (the outcome), then the rest. */
export function sentences(wasm, verdict, record) {
  const checks = verdict.scheme === HOLDEM ? withRulesChecks(wasm, record, verdict.checks) : verdict.checks || [];
  const all = checks.map((c) => ({ ...checkSentence(wasm, verdict, record, c), outcome: c.name.startsWith('outcome.') }));
  const rank = (s) => (s.ok ? 2 : 0) + (s.outcome ? 0 : 1);
  return all.map((s, i) => [s, i]).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1]).map(([s]) => s);
}
