// The player's own seat controls under the felt, one set per seat state
// (table-seat.js): playing — sit out from the next hand; sat out — sit in;
// timed out, or sat out by a round this page's part missed — why, and sit in; out of chips — top up (and sit in); leaving —
// what happens and when, and stay. Each state has one main control
// (`data-main`), where the keyboard goes when the state changes.
import { h } from './dom.js';
import { t } from './i18n.js';
import { fmtInt } from './format.js';
import { inHand, mySeat, roundOpen } from './table-seat.js';

/** @typedef {import('./types.js').TableView} TableView */

/**
 * @param {string} now the seat state, or `left`
 * @param {{table: TableView, asked: string[], sitOut: () => void, comeBack: () => void, stay: () => void}} with
 */
export function seatControls(now, { table, asked, sitOut, comeBack, stay }) {
  const mine = mySeat(table);
  const waiting = asked.length > 0;
  /** @param {string} key @param {Record<string, string>} [params] */
  const line = (key, params) => h('p', { id: 'tb-seat-state', class: 'small', 'data-state': now }, t(key, params));
  /** @param {string} id @param {string} label @param {() => void} onclick */
  const button = (id, label, onclick, main = true) => h('button', {
    type: 'button', id, class: main ? 'primary' : '', 'data-main': main ? '' : null, disabled: waiting, onclick,
  }, label);
  const pending = waiting ? h('p', { class: 'small muted', id: 'tb-seat-pending' }, t('table.seat_pending')) : null;
  switch (now) {
    case 'playing':
      // Sitting out from the next hand, asked during this one: said, and can be taken back.
      if (mine && mine.sitting_out) return h('div', { class: 'tb-seat-row' }, line('table.state_sitting_out_next'), button('tb-sit-in', t('table.sit_in'), comeBack, false), pending);
      return h('div', { class: 'tb-seat-row' }, button('tb-sit-out', t('table.sit_out'), sitOut, false), pending);
    case 'sat_out':
      return h('div', { class: 'tb-seat-row' }, line('table.state_sat_out'), button('tb-sit-in', t('table.sit_in'), comeBack), pending);
    case 'timed_out':
      return h('div', { class: 'tb-seat-row' }, line('table.state_timed_out'), button('tb-sit-in', t('table.sit_in'), comeBack), pending);
    case 'missed_round':
      return h('div', { class: 'tb-seat-row' }, line('table.state_missed_round'), button('tb-sit-in', t('table.sit_in'), comeBack), pending);
    case 'busted': {
      const chips = fmtInt(table.config.starting_stack);
      return h('div', { class: 'tb-seat-row' }, line('table.state_busted'),
        button('tb-top-up', t(mine && mine.sitting_out ? 'table.top_up_sit_in' : 'table.top_up', { chips }), comeBack), pending);
    }
    case 'leaving': {
      // On the player's turn the fold goes out at once: the same words before and after it.
      const folds = inHand(table) && mine && (mine.folded || table.hand?.to_act === table.you);
      const key = folds ? 'table.leaving_fold' : inHand(table) ? 'table.leaving_hand' : roundOpen(table) ? 'table.leaving_round' : 'table.leaving_now';
      return h('div', { class: 'tb-seat-row' }, line(key), button('tb-stay', t('table.stay'), stay));
    }
    default:
      return null;
  }
}
