// The Dice tab: amount, under/over, a target slider with chance and payout,
// the roll, and the history. The quote shown before a roll comes from core
// (wasm `dice_settle`), so it is exactly what the server will pay.
import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';

function pct(hundredths) {
  return `${(hundredths / 100).toFixed(2)} %`;
}

export function mountDice(root, { wasm, onBalance, onBet, beforeBet }) {
  const state = { condition: 'under', target: 4950, busy: false };
  const amount = h('input', { id: 'd-amount', type: 'number', min: 1, step: 1, value: 100, inputmode: 'numeric' });
  const slider = h('input', { id: 'd-target', type: 'range', min: 1, max: 9800, step: 1, value: state.target, 'aria-describedby': 'd-stats' });
  const targetOut = h('output', { id: 'd-target-out', for: 'd-target' });
  const chanceOut = h('output', { id: 'd-chance' });
  const multOut = h('output', { id: 'd-mult' });
  const winOut = h('output', { id: 'd-win' });
  const error = h('p', { class: 'error-text', id: 'd-error', 'aria-live': 'polite' });
  const result = h('p', { class: 'result', id: 'd-result', 'aria-live': 'polite' }, '\u00a0');
  const historyBody = h('tbody', { id: 'd-history' });
  const rollButton = h('button', { type: 'submit', class: 'primary big', id: 'd-roll' }, t('dice.roll'));

  const condition = (value) => h('label', { class: 'seg' },
    h('input', { type: 'radio', name: 'd-cond', value, checked: value === state.condition, onchange: () => setCondition(value) }),
    h('span', {}, t(`dice.${value}`)));

  function setCondition(value) {
    // Keep the same chance when switching sides: under T ⇔ over 9999 − T.
    const chance = state.condition === 'under' ? state.target : 9999 - state.target;
    state.condition = value;
    slider.min = value === 'under' ? 1 : 199;
    slider.max = value === 'under' ? 9800 : 9998;
    state.target = value === 'under' ? chance : 9999 - chance;
    slider.value = state.target;
    update();
  }

  function update() {
    state.target = Number(slider.value);
    targetOut.textContent = `${state.condition === 'under' ? '<' : '>'} ${(state.target / 100).toFixed(2)}`;
    try {
      const q = JSON.parse(wasm.dice_settle(Number(amount.value), state.condition, state.target, -1));
      chanceOut.textContent = pct(q.chance);
      multOut.textContent = `×${(9900 / q.chance).toFixed(4)}`;
      winOut.textContent = `${q.payout} ${t('app.chips')}`;
      error.textContent = '';
      rollButton.disabled = state.busy;
    } catch (e) {
      error.textContent = e.message || String(e);
      rollButton.disabled = true;
    }
  }

  function historyRow(b) {
    return h('tr', { class: b.win ? 'win' : 'loss' },
      h('td', {}, String(b.nonce)),
      h('td', {}, `${b.amount} ${b.condition === 'under' ? '<' : '>'} ${(b.target / 100).toFixed(2)}`),
      h('td', {}, (b.roll / 100).toFixed(2)),
      h('td', {}, String(b.payout)));
  }

  async function loadHistory() {
    const page = await api.bets({ limit: 20 });
    clear(historyBody, page.bets.length ? page.bets.map(historyRow) : h('tr', {}, h('td', { colspan: 4, class: 'muted' }, t('dice.no_history'))));
  }

  const form = h('form', { class: 'card-panel dice', id: 'dice-form', novalidate: true },
    h('div', { class: 'field' }, h('label', { for: 'd-amount' }, t('dice.amount')),
      h('div', { class: 'amount-row' }, amount,
        h('button', { type: 'button', onclick: () => { amount.value = Math.max(1, Math.floor(Number(amount.value) / 2)); update(); } }, t('dice.half')),
        h('button', { type: 'button', onclick: () => { amount.value = Math.max(1, Math.floor(Number(amount.value) * 2)); update(); } }, t('dice.double')))),
    h('fieldset', { class: 'segmented' }, h('legend', {}, t('dice.condition')), condition('under'), condition('over')),
    h('div', { class: 'field' }, h('label', { for: 'd-target' }, t('dice.target'), ' ', targetOut), slider),
    h('dl', { class: 'stats', id: 'd-stats' },
      h('div', {}, h('dt', {}, t('dice.chance')), h('dd', {}, chanceOut)),
      h('div', {}, h('dt', {}, t('dice.multiplier')), h('dd', {}, multOut)),
      h('div', {}, h('dt', {}, t('dice.on_win')), h('dd', {}, winOut))),
    rollButton, error, result,
    h('p', { class: 'muted small' }, t('dice.edge')));

  slider.addEventListener('input', update);
  amount.addEventListener('input', update);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    if (state.busy) return;
    state.busy = true;
    rollButton.disabled = true;
    rollButton.textContent = t('dice.rolling');
    try {
      await beforeBet?.();
      const bet = await api.bet({ amount: Number(amount.value), condition: state.condition, target: state.target }, crypto.randomUUID());
      result.className = `result ${bet.win ? 'win' : 'loss'}`;
      clear(result, bet.win ? t('dice.result_win', { roll: (bet.roll / 100).toFixed(2), payout: String(bet.payout) }) : t('dice.result_loss', { roll: (bet.roll / 100).toFixed(2) }),
        ' · ', h('span', { class: 'muted', 'data-nonce': bet.nonce }, t('dice.nonce', { nonce: bet.nonce })));
      onBalance(bet.balance);
      historyBody.prepend(historyRow(bet));
      while (historyBody.children.length > 20) historyBody.lastChild.remove();
      historyBody.querySelector('td[colspan]')?.parentElement.remove();
      onBet?.(bet);
    } catch (e) {
      error.textContent = e.message || String(e);
    } finally {
      state.busy = false;
      rollButton.textContent = t('dice.roll');
      update();
    }
  });

  clear(root, form, h('section', { class: 'card-panel' }, h('h3', {}, t('dice.history')),
    h('div', { class: 'table-wrap' }, h('table', { class: 'history' },
      h('thead', {}, h('tr', {}, ['col_nonce', 'col_bet', 'col_roll', 'col_payout'].map((k) => h('th', { scope: 'col' }, t(`dice.${k}`))))),
      historyBody))));
  update();
  return { refresh: loadHistory };
}
