// The Tables tab and its "verifiable deal" badge. For each poker or selfpoker
// hand, this browser stores the commitment it saw before the first card and the
// seed revealed after the hand, and checks them automatically: a selfpoker
// commit is sha256("selfpoker:" + seed), a poker hand commitment is
// sha256(hand_value). The relation comes from the core (wasm `classify`).
// Poker tables the player sits at are watched by poker.js, which also checks
// the proofs and the session record against what was stored.
import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { store } from './store.js';
import { api } from './api.js';
import { card } from './render.js';
import { showVerdicts } from './verify.js';
import { POKER, pollPoker } from './poker.js';
import { schemeName } from './verdict.js';
import { errorText } from './errors.js';
import { fmtDate } from './format.js';

/** How often the poker watch asks for new hands and records. */
const POLL_MS = 4000;

const NEXT_STAGE = { committed: 'preflop', preflop: 'flop', flop: 'turn', turn: 'river', river: 'hand_end' };

export function checkHand(wasm, hand) {
  if (hand.problems && hand.problems.length) return 'bad';
  if (!hand.seed) return 'wait';
  const c = JSON.parse(wasm.classify(String(hand.seed), JSON.stringify([{ label: 'commitment', value: hand.commitment }])));
  const want = hand.scheme === 'selfpoker' ? 'selfpoker_seed_of' : 'seed_of';
  return c.relations.some((r) => r.relation === want) ? 'ok' : 'bad';
}

export function badge(wasm, hand) {
  const state = checkHand(wasm, hand);
  const waiting = hand.proven ? t('tables.badge_proven') : t('tables.badge_wait');
  const text = { ok: t('tables.badge_ok'), bad: t('tables.badge_bad'), wait: waiting }[state];
  return h('span', { class: `deal-badge ${state}`, tabindex: 0, title: `${t('tables.commitment')}: ${hand.commitment}`, 'data-state': state },
    h('span', { 'aria-hidden': 'true' }, state === 'ok' ? '✓ ' : state === 'bad' ? '✗ ' : '… '),
    t('tables.badge'), ' · ', text,
    h('span', { class: 'badge-pop', role: 'tooltip' }, t('tables.commitment'), ': ', h('code', { class: 'hex' }, hand.commitment)));
}

/** What a watched poker hand adds: the player's cards, each check, each problem. */
function pokerDetails(wasm, hand) {
  if (hand.scheme !== POKER || !hand.table) return null;
  const steps = [
    [t('poker.step_seen', { street: t(`poker.street${hand.seen_street || 0}`) }), true],
    [t('poker.step_proof'), hand.proven],
    [t('poker.step_session'), hand.session_checked && !(hand.problems || []).length],
  ];
  return h('div', { class: 'poker-hand' },
    hand.hole ? h('div', { class: 'out-row' }, h('span', { class: 'out-label' }, t('tables.your_cards')),
      h('span', { class: 'cards' }, hand.hole.map((id) => card(wasm, '52', id)))) : null,
    h('ul', { class: 'poker-steps small' }, steps.map(([text, done]) => h('li', { 'data-done': String(Boolean(done)) }, done ? '✓ ' : '· ', text))),
    (hand.problems || []).length ? h('ul', { class: 'error-text small poker-problems' }, hand.problems.map((p) => h('li', {}, p))) : null);
}

export function mountTables(root, { wasm }) {
  const list = h('div', { id: 't-list' });

  function render() {
    const hands = store.hands();
    clear(list, hands.length ? h('ul', { class: 'hands' }, hands.map((hand) => h('li', { 'data-hand': hand.id },
      h('span', { class: 'hand-label' }, `${schemeName(hand.scheme)} · ${hand.label}`), ' ', badge(wasm, hand),
      hand.seen_at ? h('div', { class: 'muted small' }, t('tables.seen_at', { date: fmtDate(hand.seen_at) })) : null,
      pokerDetails(wasm, hand),
      hand.seed ? h('div', { class: 'muted small' }, hand.scheme === POKER ? t('poker.hand_value') : t('tables.seed'), ': ', h('code', {}, String(hand.seed))) : null,
      h('button', { type: 'button', class: 'link', onclick: () => { store.saveHands(store.hands().filter((x) => x.id !== hand.id)); render(); } }, t('tables.forget')))))
      : h('p', { class: 'muted' }, t('tables.empty')));
  }

  /** A commitment shown before a hand (from the table's state messages). */
  function seen({ scheme, label, commitment }) {
    const hands = store.hands();
    const id = `${scheme}:${label}`;
    if (!hands.some((x) => x.id === id)) hands.push({ id, scheme, label, commitment, seed: null, seen_at: Date.now() });
    store.saveHands(hands);
    render();
  }

  /** The seed revealed after the hand (selfpoker `hand_end`, or a poker hand value). */
  function revealed({ scheme, label, seed }) {
    const hands = store.hands();
    const hand = hands.find((x) => x.id === `${scheme}:${label}`);
    if (hand) hand.seed = String(seed);
    store.saveHands(hands);
    render();
    return hand ? checkHand(wasm, hand) : 'unknown';
  }

  // A live selfpoker hand: the badge learns the commitment from the first
  // state message and the seed from hand_end, then the deal is verified here.
  const playOut = h('div', { id: 't-play', 'aria-live': 'polite' });
  const players = h('select', { id: 't-players' }, [2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => h('option', { value: n, selected: n === 4 }, String(n))));
  let handState = null;
  const cards = (ids) => h('span', { class: 'cards' }, (ids || []).map((id) => card(wasm, 'selfpoker', id)));
  function showHand(msg) {
    handState = msg;
    const label = msg.hand_id;
    if (msg.stage === 'committed') seen({ scheme: 'selfpoker', label, commitment: msg.commit });
    if (msg.type === 'hand_end') revealed({ scheme: 'selfpoker', label, seed: String(msg.seed) });
    const hand = store.hands().find((x) => x.id === `selfpoker:${label}`);
    const next = NEXT_STAGE[msg.stage];
    const verdicts = h('div', { class: 'results' });
    clear(playOut,
      h('p', {}, t('tables.stage', { stage: t(`stage.${msg.stage}`) }), ' ', hand ? badge(wasm, hand) : null),
      msg.hole ? h('div', { class: 'out-row' }, h('span', { class: 'out-label' }, t('tables.your_cards')), cards(msg.hole)) : null,
      h('div', { class: 'out-row' }, h('span', { class: 'out-label' }, t('tables.board')), cards(msg.board)),
      next ? h('button', { type: 'button', class: 'primary', id: 't-next', onclick: () => step(msg.hand_id) }, t('tables.next', { stage: t(`stage.${next}`) })) : null,
      msg.type === 'hand_end' ? [h('h3', {}, t('tables.deal_check')), verdicts] : null);
    if (msg.type === 'hand_end') {
      const record = { scheme: 'selfpoker', commit: hand ? hand.commitment : msg.commit, seed: String(msg.seed), players: msg.players,
        outcome: { holes: msg.holes, board: msg.board } };
      showVerdicts(wasm, JSON.stringify(record), verdicts);
    }
  }
  async function step(id) {
    try { showHand(await api.selfpokerNext(id)); } catch (e) { clear(playOut, h('p', { class: 'error-text' }, errorText(e))); }
  }
  const play = h('section', { class: 'card-panel', id: 't-table' },
    h('h2', {}, t('tables.play_title')), h('p', { class: 'muted small' }, t('tables.play_help')),
    h('div', { class: 'actions' },
      h('label', { class: 'inline' }, t('tables.players'), ' ', players),
      h('button', { type: 'button', class: 'primary', id: 't-deal', onclick: async () => {
        try { showHand(await api.selfpokerNew(Number(players.value))); } catch (e) { clear(playOut, h('p', { class: 'error-text' }, errorText(e))); }
      } }, t('tables.deal'))),
    playOut);

  const scheme = h('select', { id: 't-scheme' }, h('option', { value: 'selfpoker' }, schemeName('selfpoker')), h('option', { value: 'poker_hmac_v1' }, schemeName('poker_hmac_v1')));
  const label = h('input', { id: 't-label', autocomplete: 'off' });
  const commitment = h('input', { id: 't-commitment', autocomplete: 'off', spellcheck: 'false' });
  const seed = h('input', { id: 't-seed', autocomplete: 'off', spellcheck: 'false' });
  const form = h('form', { class: 'card-panel', id: 't-form', novalidate: true, onsubmit: (ev) => {
    ev.preventDefault();
    const name = label.value.trim() || new Date().toISOString();
    seen({ scheme: scheme.value, label: name, commitment: commitment.value.trim() });
    if (seed.value.trim()) revealed({ scheme: scheme.value, label: name, seed: seed.value.trim() });
  } },
    h('h2', {}, t('tables.add')),
    h('div', { class: 'field' }, h('label', { for: 't-scheme' }, t('tables.kind')), scheme),
    h('div', { class: 'field' }, h('label', { for: 't-label' }, t('tables.hand')), label),
    h('div', { class: 'field' }, h('label', { for: 't-commitment' }, t('tables.commitment')), commitment),
    h('div', { class: 'field' }, h('label', { for: 't-seed' }, t('tables.seed')), seed),
    h('button', { type: 'submit', class: 'primary' }, t('tables.save')));

  clear(root, play, h('section', { class: 'card-panel' }, h('h2', {}, t('tables.title')), h('p', { class: 'muted small' }, t('tables.help')), list), form);
  render();
  // Poker tables the player sits at are watched while the page is open: each
  // new hand's commitments are stored before its cards, and the proofs and
  // session records are checked as they arrive.
  let polling = null;
  function poll() {
    polling ??= pollPoker(wasm).then((changed) => { if (changed) render(); }).finally(() => { polling = null; });
    return polling;
  }
  setInterval(() => { if (document.visibilityState === 'visible') poll().catch(() => {}); }, POLL_MS);
  poll().catch(() => {});

  // The table client (or a test) reports hands through this hook.
  globalThis.fairseedTables = { seen, revealed, poll };
  return { seen, revealed, poll, refresh: render, current: () => handState };
}
