// The coach panel: equity, pot odds and a suggested action, computed in this
// browser by the core's coach (wasm `coach`) from the player's own view only —
// their two cards, the board, the public chips — rebuilt here from the table
// view the server sent. It never sees another seat's cards: the table view
// does not hold them. Switched on or off by the player (kept in this browser).
import { h, clear } from './dom.js';
import { t, locale } from './i18n.js';
import { fmtInt, fmtDecimal } from './format.js';
import { readValue, writeValue } from './store.js';

const KEY = 'coach';

function pct(x) {
  return new Intl.NumberFormat(locale(), { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(x);
}

/** The hand's public actions: the table view's own log, else those this page saw as events. */
export function actionsOf(table, log) {
  return (table.hand && table.hand.actions) || log;
}

/**
 * The coach's input, a `SeatView` (crates/holdem/src/ai/view.rs) of the
 * player's seat, from a table view: the seats dealt into the hand with their
 * public chips, the player's own cards, the board, and what a call costs.
 * Null when the player holds no cards in a hand being played.
 */
export function seatViewOf(table, log) {
  const hand = table.hand;
  const me = table.you === null ? null : table.seats[table.you];
  if (!hand || !me || !me.hole || me.folded) return null;
  const dealt = table.seats.filter((s) => s && (s.in_hand || s.folded));
  const highest = Math.max(...dealt.map((s) => s.street_bet));
  const mine = hand.legal && hand.to_act === table.you;
  return {
    seat: table.you,
    hole: me.hole,
    board: hand.board,
    street: hand.street,
    button: table.button ?? 0,
    big_blind: table.config.big_blind,
    seats: dealt.map((s) => ({ seat: s.seat, stack: s.stack, street_bet: s.street_bet, total: s.total, folded: s.folded })),
    actions: actionsOf(table, log),
    to_call: mine ? hand.legal.to_call : Math.min(Math.max(0, highest - me.street_bet), me.stack),
    raise: mine ? hand.legal.raise : null,
  };
}

/**
 * The suggestion in the words of the button that does it ("Call 100", "Bet 250",
 * "Raise to 450"), so the advice and the action bar never disagree.
 */
export function suggestText(action, table, toCall) {
  if (action.kind === 'raise_to') {
    const facing = toCall > 0 || table.seats.some((s) => s && s.street_bet > 0);
    return t(facing ? 'table.raise_to' : 'table.bet_to', { chips: fmtInt(action.to) });
  }
  if (action.kind === 'call') return t('table.call', { chips: fmtInt(toCall) });
  return t(`table.${action.kind}`);
}

/** The reason in the player's words. */
function reasonText(reason) {
  const params = {};
  if ('equity' in reason) params.equity = pct(reason.equity);
  if ('needed' in reason) params.needed = pct(reason.needed);
  if ('fair_share' in reason) params.share = pct(reason.fair_share);
  return t(`coach.reason_${reason.kind}`, params);
}

function methodText(method) {
  return method.kind === 'exact'
    ? t('coach.exact', { cases: fmtInt(method.cases) })
    : t('coach.sampled', { se: pct(method.std_error), samples: fmtInt(method.samples) });
}

/**
 * The coach's panel, and its one-line advice for the action bar.
 * @param {{wasm: any, current: () => {table: any, log: any[]}, onAmount?: (to: number) => void}} options
 * @returns {{element: HTMLElement, update: () => void, line: HTMLElement}}
 */
export function mountCoach({ wasm, current, onAmount = (to) => {} }) {
  const on = readValue(KEY, false) === true;
  const toggle = h('input', { type: 'checkbox', id: 'tb-coach-on', checked: on });
  const out = h('div', { id: 'tb-coach-out', 'aria-live': 'polite' });
  const element = h('section', { class: 'card-panel', id: 'tb-coach', 'aria-labelledby': 'tb-coach-title' },
    h('h2', { id: 'tb-coach-title' }, t('coach.title')),
    h('label', { class: 'check', for: 'tb-coach-on' }, toggle, t('coach.toggle')),
    h('p', { class: 'muted small coach-where' }, t('coach.where')),
    h('p', { class: 'muted small' }, t('coach.help')),
    out);
  // The advice in one line, drawn into the action bar (on a phone it sits there, in sight while acting).
  const line = h('p', { class: 'coach-line small', id: 'tb-coach-line', 'aria-hidden': 'true', hidden: true });
  let lastKey = null;
  let lastAdvice = null;

  function update() {
    if (!toggle.checked) {
      clear(out);
      line.hidden = true;
      lastKey = null;
      return;
    }
    const { table, log } = current();
    const view = table && seatViewOf(table, log);
    if (!view) {
      clear(out, h('p', { class: 'muted' }, t('coach.idle')));
      line.hidden = true;
      lastKey = null;
      return;
    }
    // The same view gets the same answer: compute only when it changes.
    const key = JSON.stringify(view);
    if (key === lastKey) {
      if (lastAdvice) showLine(lastAdvice, table);
      return;
    }
    lastKey = key;
    const started = performance.now();
    let advice;
    try {
      advice = JSON.parse(wasm.coach(key, table.hand.number >>> 0));
    } catch (e) {
      clear(out, h('p', { class: 'error-text' }, t('coach.failed', { error: e.message || String(e) })));
      return;
    }
    const ms = performance.now() - started;
    lastAdvice = advice;
    const mine = Boolean(view.raise) || (table.hand.legal && table.hand.to_act === table.you);
    const use = advice.action.kind === 'raise_to' && mine
      ? h('button', { type: 'button', id: 'tb-coach-use', class: 'link', onclick: () => onAmount(advice.action.to) }, t('coach.use', { chips: fmtInt(advice.action.to) }))
      : null;
    clear(out,
      h('dl', { class: 'kv coach-kv' },
        h('dt', {}, t('coach.equity')), h('dd', { id: 'tb-equity' }, pct(advice.equity), ' ', h('span', { class: 'muted small' }, methodText(advice.method))),
        h('dt', { title: t('coach.pot_odds_tip') }, t('coach.pot_odds')), h('dd', { id: 'tb-odds' }, advice.to_call ? t('coach.odds', { needed: pct(advice.pot_odds), call: fmtInt(advice.to_call), pot: fmtInt(advice.pot) }) : t('coach.free')),
        h('dt', {}, t('coach.suggest')), h('dd', { id: 'tb-suggest', 'data-kind': advice.action.kind }, h('strong', {}, suggestText(advice.action, table, advice.to_call)), use ? [' ', use] : null)),
      h('p', { id: 'tb-reason' }, reasonText(advice.reason)),
      h('p', { class: 'muted small', id: 'tb-coach-ms', 'data-ms': ms.toFixed(2) }, t('coach.took', { ms: fmtDecimal(ms, 1) })));
    showLine(advice, table);
  }

  function showLine(advice, table) {
    line.hidden = false;
    clear(line, h('strong', {}, `${t('coach.title')}: ${suggestText(advice.action, table, advice.to_call)}`), ' · ',
      t('coach.line_equity', { equity: pct(advice.equity) }));
  }

  toggle.addEventListener('change', () => {
    writeValue(KEY, toggle.checked);
    update();
  });
  return { element, update, line };
}
