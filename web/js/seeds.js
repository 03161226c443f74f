// The Seeds tab: the current pair's hash (remembered by this browser before any
// bet), the client seed — proposed at random here, or the player's own —, the
// next nonce, and "change seed pair", which reveals the old seed and checks it
// against the hash this browser saw, in the browser.
import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { store } from './store.js';
import { errorText } from './errors.js';
import { betNumber, fmtInt } from './format.js';
import { accountPanel } from './account.js';

/** 16 random bytes from the browser's CSPRNG, as 32 hex characters. */
export function randomClientSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function mountSeeds(root, { wasm, onRotate, badges, logPanel }) {
  let pair = null;
  const commitment = h('code', { class: 'hex', id: 's-commitment' }, '…');
  // The receipt of the current hash's log entry, checked like a bet's.
  const pairReceipt = h('div', { id: 's-commitment-receipt' });
  const nonce = h('output', { id: 's-nonce' }, '…');
  const clientInput = h('input', { id: 's-client', maxlength: 64, autocomplete: 'off', spellcheck: 'false' });
  const remember = h('input', { type: 'checkbox', id: 's-remember', checked: Boolean(store.ownClientSeed()) });
  const message = h('p', { id: 's-message', 'aria-live': 'polite', class: 'muted' }, '\u00a0');
  const revealOut = h('div', { id: 's-reveal', 'aria-live': 'polite' });
  const rotateError = h('p', { class: 'error-text', id: 's-rotate-error', role: 'alert' });

  function show(p) {
    pair = p;
    store.rememberCommitment(p.pair_id, p.commitment);
    store.setCurrentCommitment(p.commitment);
    commitment.textContent = p.commitment;
    clear(pairReceipt, badges?.(p.receipts));
    nonce.textContent = fmtInt(betNumber(p.next_nonce));
    clientInput.value = p.client_seed;
  }

  async function setClientSeed(seed) {
    try {
      // The commitment sent is the one this page showed: the server refuses a
      // client seed chosen against any other hash.
      show(await api.setClientSeed(seed, pair.commitment));
      store.rememberChosenSeed(pair.pair_id, seed);
      message.textContent = t('seeds.saved');
      message.className = 'ok-text';
    } catch (e) {
      message.textContent = errorText(e);
      message.className = 'error-text';
    }
  }

  /**
   * Before a pair's first bet, makes sure its client seed was chosen by this
   * browser — the player's own, or a random one from crypto.getRandomValues —
   * and not the random default the server filled in: a server that picked both
   * seeds could pick the rolls.
   */
  async function ensureBrowserSeed() {
    if (!pair) show(await api.seeds());
    if (pair.next_nonce !== 0 || store.chosenSeeds()[pair.pair_id] === pair.client_seed) return;
    await setClientSeed(store.ownClientSeed() || randomClientSeed());
  }

  async function refresh() {
    show(await api.seeds());
    await ensureBrowserSeed();
  }

  async function rotate() {
    const seen = store.seenCommitments()[pair.pair_id] || pair.commitment;
    const answer = await api.rotate();
    const revealed = answer.revealed;
    store.rememberReveal(revealed);
    const ok = wasm.sha256_hex(revealed.server_seed) === seen;
    clear(revealOut, h('div', { class: `reveal ${ok ? 'ok' : 'bad'}` },
      h('p', {}, t('seeds.rotated', { check: ok ? t('seeds.matches') : t('seeds.does_not_match') })),
      h('p', {}, h('span', { class: 'muted' }, t('revealed.seed'), ': '), h('code', { class: 'hex', id: 's-revealed-seed' }, revealed.server_seed)),
      h('p', {}, h('span', { class: 'muted' }, t('revealed.hash_seen'), ': '), h('code', { class: 'hex' }, seen)),
      badges?.(answer.receipts)));
    show(answer.seed_pair);
    await ensureBrowserSeed();
    onRotate?.(revealed);
  }

  clear(root,
    h('section', { class: 'card-panel' },
      h('h2', {}, t('seeds.current')), h('p', {}, commitment), pairReceipt,
      h('p', {}, h('span', { class: 'muted' }, t('seeds.next_nonce'), ': '), nonce)),
    h('form', { class: 'card-panel', id: 's-client-form', novalidate: true, onsubmit: (ev) => {
      ev.preventDefault();
      const seed = clientInput.value;
      store.setOwnClientSeed(remember.checked ? seed : null);
      setClientSeed(seed);
    } },
      h('h2', {}, h('label', { for: 's-client' }, t('seeds.client'))),
      h('p', { class: 'muted small' }, t('seeds.client_help')),
      clientInput,
      h('label', { class: 'check' }, remember, ' ', t('seeds.remember')),
      h('div', { class: 'actions' },
        h('button', { type: 'button', id: 's-random', onclick: () => { clientInput.value = randomClientSeed(); clientInput.focus(); } }, t('seeds.random')),
        h('button', { type: 'submit', class: 'primary', id: 's-save' }, t('seeds.save'))),
      message),
    h('section', { class: 'card-panel' },
      h('button', { type: 'button', class: 'primary', id: 's-rotate', onclick: () => rotate().catch((e) => { rotateError.textContent = errorText(e); }) }, t('seeds.rotate')),
      h('p', { class: 'muted small' }, t('seeds.rotate_help')),
      rotateError,
      revealOut),
    logPanel,
    accountPanel());
  return { refresh, ensureBrowserSeed, current: () => pair };
}
