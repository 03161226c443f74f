// The Dice tab: amount, under/over, a target slider with chance and payout,
// the roll, and the history. The quote shown before a roll comes from core
// (wasm `dice_settle`), so it is exactly what the server will pay; while the
// amount is not a whole number of chips there is no quote, only what to fix.
import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { store, pairNumber, isCurrentPair } from './store.js';
import { errorText, coreErrorText } from './errors.js';
import { betNumber, fmtChance, fmtInt, fmtMultiplier, fmtRoll } from './format.js';

/** The public values of a bet for Verify: the seed only once its pair is revealed. */
export function proofOf(bet) {
  const revealed = store.revealedPairs()[bet.pair_id];
  return {
    server_seed: revealed ? revealed.server_seed : '',
    commitment: revealed ? revealed.commitment : store.seenCommitments()[bet.pair_id] || '',
    client_seed: revealed ? revealed.client_seed : store.chosenSeeds()[bet.pair_id] || '',
    nonce: bet.nonce,
    roll: bet.roll,
  };
}

/**
 * The Dice tab in `root`.
 * @param {HTMLElement} root
 * @param {{wasm: any, onBalance: (balance: unknown) => void, onBet?: (bet: any) => void, beforeBet?: () => Promise<void>,
 *   onProof?: (values: Record<string, unknown>) => void, badges?: (receipts: any) => Node | Node[] | null}} options
 * @returns {{refresh: () => Promise<void>}}
 */
export function mountDice(root, { wasm, onBalance, onBet, beforeBet, onProof, badges }) {
  const state = { condition: 'under', target: 4950, busy: false };
  const amount = h('input', { id: 'd-amount', type: 'number', min: 1, step: 1, value: 100, inputmode: 'numeric', 'aria-describedby': 'd-amount-error' });
  const slider = h('input', { id: 'd-target', type: 'range', min: 1, max: 9800, step: 1, value: state.target, 'aria-describedby': 'd-stats' });
  const targetOut = h('output', { id: 'd-target-out', for: 'd-target' });
  const chanceOut = h('output', { id: 'd-chance' });
  const multOut = h('output', { id: 'd-mult' });
  const winOut = h('output', { id: 'd-win' });
  // What is wrong with the inputs (under the amount), and what went wrong with the last roll (under the button).
  const inputError = h('p', { class: 'error-text', id: 'd-amount-error', 'aria-live': 'polite' });
  const error = h('p', { class: 'error-text', id: 'd-error', role: 'alert' });
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

  /** The amount typed, when it is a whole number of chips (1.5, 0, −5 and "" are not). */
  function amountValue() {
    const text = amount.value.trim();
    return /^\d+$/.test(text) && Number(text) >= 1 ? Number(text) : null;
  }

  function update() {
    state.target = Number(slider.value);
    targetOut.textContent = `${state.condition === 'under' ? '<' : '>'} ${fmtRoll(state.target)}`;
    const value = amountValue();
    let quote = null;
    let why = t('dice.amount_invalid');
    if (value !== null) {
      try {
        quote = JSON.parse(wasm.dice_settle(value, state.condition, state.target, -1));
      } catch (e) {
        // A whole number core still refuses (above the largest bet): core's reason, in words.
        why = coreErrorText(e.message || String(e));
      }
    }
    if (!quote) {
      // No quote for an amount that cannot be bet: nothing stale stays on screen.
      chanceOut.textContent = '—';
      multOut.textContent = '—';
      winOut.textContent = '—';
      inputError.textContent = why;
      amount.setAttribute('aria-invalid', 'true');
      rollButton.disabled = true;
      return;
    }
    chanceOut.textContent = fmtChance(quote.chance);
    multOut.textContent = fmtMultiplier(9900 / quote.chance);
    winOut.textContent = `${fmtInt(quote.payout)} ${t('app.chips')}`;
    inputError.textContent = '';
    amount.removeAttribute('aria-invalid');
    rollButton.disabled = state.busy;
  }

  /** A bet's pair in the player's words: "current pair" or "pair 2" (numbered oldest first, as in Revealed). */
  function pairName(pairId) {
    const n = pairNumber(pairId);
    return isCurrentPair(pairId) ? t('dice.pair_current', { n }) : t('dice.pair_n', { n });
  }

  function historyRow(b) {
    const won = Boolean(b.win);
    const net = Number(b.payout) - Number(b.amount);
    return h('tr', { class: won ? 'win' : 'loss', 'data-nonce': b.nonce, 'data-pair': b.pair_id },
      h('td', {}, fmtInt(betNumber(b.nonce))),
      h('td', { class: 'bet-cell' }, h('span', { class: 'nowrap' }, fmtInt(b.amount)), ' ', h('span', { class: 'nowrap' }, `${b.condition === 'under' ? '<' : '>'} ${fmtRoll(b.target)}`)),
      h('td', {}, fmtRoll(b.roll)),
      h('td', { class: `outcome-cell ${won ? 'ok-text' : 'loss-text'}`, 'data-win': String(won) },
        h('span', { 'aria-hidden': 'true' }, won ? '✓ ' : '✗ '),
        h('span', { class: 'sr-only' }, `${t(won ? 'dice.won_sr' : 'dice.lost_sr')} `),
        won ? `+${fmtInt(net)}` : `−${fmtInt(b.amount)}`),
      h('td', {}, h('button', { type: 'button', class: 'link proof', 'aria-label': t('dice.proof_label', { nonce: fmtInt(betNumber(b.nonce)), pair: pairNumber(b.pair_id) }), onclick: () => onProof?.(proofOf(b)) }, t('dice.proof'))));
  }

  /** A row that names the seed pair of the bets under it. */
  function pairRow(pairId) {
    return h('tr', { class: 'pair-row', 'data-pair-head': pairId }, h('th', { colspan: 5, scope: 'colgroup' }, pairName(pairId)));
  }

  /** Bets newest first, with a pair row wherever the pair changes. */
  function drawHistory(bets) {
    const rows = [];
    let pair = null;
    for (const b of bets) {
      if (b.pair_id !== pair) rows.push(pairRow(b.pair_id));
      pair = b.pair_id;
      rows.push(historyRow(b));
    }
    clear(historyBody, rows.length ? rows : h('tr', {}, h('td', { colspan: 5, class: 'muted' }, t('dice.no_history'))));
  }

  let shownBets = [];
  async function loadHistory() {
    const page = await api.bets({ limit: 20 });
    shownBets = page.bets;
    drawHistory(shownBets);
  }

  const form = h('form', { class: 'card-panel dice', id: 'dice-form', novalidate: true },
    h('div', { class: 'field' }, h('label', { for: 'd-amount' }, t('dice.amount')),
      h('div', { class: 'amount-row' }, amount,
        h('button', { type: 'button', 'aria-label': `${t('dice.half')} (${t('dice.half_label')})`, onclick: () => { amount.value = Math.max(1, Math.floor((amountValue() || 2) / 2)); update(); } }, t('dice.half')),
        h('button', { type: 'button', 'aria-label': `${t('dice.double')} (${t('dice.double_label')})`, onclick: () => { amount.value = Math.max(1, Math.floor((amountValue() || 1) * 2)); update(); } }, t('dice.double'))),
      inputError),
    h('fieldset', { class: 'segmented' }, h('legend', {}, t('dice.condition')), condition('under'), condition('over')),
    h('div', { class: 'field' }, h('label', { for: 'd-target' }, t('dice.target'), ' ', targetOut), slider),
    h('dl', { class: 'stats', id: 'd-stats' },
      h('div', {}, h('dt', {}, t('dice.chance')), h('dd', {}, chanceOut)),
      h('div', {}, h('dt', {}, t('dice.multiplier')), h('dd', {}, multOut)),
      h('div', {}, h('dt', {}, t('dice.on_win')), h('dd', {}, winOut))),
    rollButton, error, result,
    h('p', { class: 'muted small' }, t('dice.edge')));

  slider.addEventListener('input', update);
  amount.addEventListener('input', () => { error.textContent = ''; update(); });
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const value = amountValue();
    if (state.busy || value === null) return;
    // Where the player rolled from (the button, or Enter in the amount): the keyboard comes back there.
    const from = document.activeElement && form.contains(document.activeElement) ? document.activeElement : rollButton;
    state.busy = true;
    rollButton.disabled = true;
    rollButton.textContent = t('dice.rolling');
    error.textContent = '';
    try {
      await beforeBet?.();
      const bet = await api.bet({ amount: value, condition: state.condition, target: state.target }, crypto.randomUUID());
      result.className = `result ${bet.win ? 'win' : 'loss'}`;
      clear(result, bet.win ? t('dice.result_win', { roll: fmtRoll(bet.roll), payout: fmtInt(bet.payout) }) : t('dice.result_loss', { roll: fmtRoll(bet.roll) }),
        ' · ', h('span', { class: 'muted', 'data-nonce': bet.nonce }, t('dice.nonce', { nonce: fmtInt(betNumber(bet.nonce)) })),
        badges?.(bet.receipts));
      onBalance(bet.balance);
      shownBets = [bet, ...shownBets].slice(0, 20);
      drawHistory(shownBets);
      onBet?.(bet);
    } catch (e) {
      // Stays until the player changes something or rolls again.
      error.textContent = errorText(e);
    } finally {
      state.busy = false;
      rollButton.textContent = t('dice.roll');
      update();
      // The button was disabled while rolling, which drops focus to the top of the page.
      if (!document.activeElement || document.activeElement === document.body || document.activeElement === from) {
        (from.disabled ? rollButton : from).focus({ preventScroll: true });
      }
    }
  });

  clear(root, form, h('section', { class: 'card-panel' }, h('h2', {}, t('dice.history')),
    h('div', { class: 'table-wrap' }, h('table', { class: 'history' },
      h('thead', {}, h('tr', {}, ['col_nonce', 'col_bet', 'col_roll', 'col_payout', 'col_proof'].map((k) => h('th', { scope: 'col', title: k === 'col_nonce' ? t('dice.col_nonce_tip') : null }, t(`dice.${k}`))))),
      historyBody))));
  update();
  return { refresh: loadHistory };
}
