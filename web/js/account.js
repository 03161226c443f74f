// The anonymous account beyond this browser: a recovery code to back it up
// and restore it elsewhere, an operator's login link (`/#login=<token>`), and
// "Download my records" — the JSON Lines export that `fairseed verify` and the
// offline verifier accept. The token is the account: the recovery code is the
// token written in groups, so it can be copied and typed back.
import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { store } from './store.js';
import { ApiError } from './api.js';
import { errorText } from './errors.js';

const PREFIX = 'FS1';

/** The token (64 hex characters) as a recovery code: FS1-xxxxxxxx-… in eight groups. */
export function recoveryCode(token) {
  return [PREFIX, ...token.match(/.{1,8}/g)].join('-');
}

/** The token a recovery code stands for, or null if it is not one. Case, spaces and dashes do not matter. */
export function tokenOfCode(code) {
  const hex = String(code).trim().toLowerCase().replace(/^fs1/, '').replace(/[\s-]/g, '');
  return /^[0-9a-f]{64}$/.test(hex) ? hex : null;
}

/**
 * Takes an operator's login link: stores the token of `#login=<token>` and
 * removes it from the address bar (and from history) before anything else
 * runs. Returns whether a token was taken.
 */
export function takeLoginLink() {
  const m = /^#login=([^&]+)/.exec(location.hash);
  if (!m) return false;
  const token = decodeURIComponent(m[1]).trim();
  history.replaceState(null, '', location.pathname + location.search);
  if (!token) return false;
  store.switchToken(token);
  return true;
}

/** Checks a token against the service (GET /v1/me) without making it this browser's. */
async function accountOf(token) {
  const res = await fetch('/v1/me', { headers: { Authorization: `Bearer ${token}` } });
  const text = await res.text();
  if (!res.ok) {
    let body = null;
    try { body = JSON.parse(text); } catch { /* not JSON */ }
    throw new ApiError(res.status, body);
  }
  return JSON.parse(text);
}

/** Saves the player's records export as a file. */
async function downloadRecords(status) {
  const token = store.token();
  if (!token) {
    status.textContent = t('account.no_records');
    return;
  }
  status.textContent = t('account.downloading');
  try {
    const res = await fetch('/v1/records/export', { headers: { Authorization: `Bearer ${token}` } });
    if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => null));
    const blob = await res.blob();
    const link = h('a', { href: URL.createObjectURL(blob), download: 'fairseed-records.jsonl', hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    status.textContent = t('account.downloaded');
  } catch (e) {
    status.textContent = errorText(e);
  }
}

export function accountPanel() {
  const codeOut = h('div', { id: 'a-code-out', 'aria-live': 'polite' });
  const message = h('p', { id: 'a-message', role: 'status' });
  const restoreInput = h('input', { id: 'a-restore', autocomplete: 'off', spellcheck: 'false', placeholder: 'FS1-…' });
  const downloadStatus = h('p', { id: 'a-download-status', class: 'muted small', 'aria-live': 'polite' });

  function showCode() {
    showCodeOf(store.token());
  }

  function showCodeOf(token) {
    if (!token) {
      clear(codeOut, h('p', { class: 'muted' }, t('account.no_account')));
      return;
    }
    const code = recoveryCode(token);
    const copied = h('span', { class: 'muted small', 'aria-live': 'polite' });
    clear(codeOut,
      h('p', {}, h('code', { class: 'hex recovery', id: 'a-code' }, code)),
      h('div', { class: 'actions' }, h('button', { type: 'button', id: 'a-copy', onclick: async () => {
        try { await navigator.clipboard.writeText(code); copied.textContent = t('account.copied'); } catch { copied.textContent = t('account.copy_by_hand'); }
      } }, t('account.copy')), copied),
      h('p', { class: 'muted small' }, t('account.code_warning')));
  }

  async function restore(ev) {
    ev.preventDefault();
    const token = tokenOfCode(restoreInput.value);
    if (!token) {
      message.className = 'error-text';
      message.textContent = t('account.bad_code');
      return;
    }
    try {
      await accountOf(token);
      store.switchToken(token);
      message.className = 'ok-text';
      message.textContent = t('account.restored');
      setTimeout(() => location.reload(), 600);
    } catch (e) {
      message.className = 'error-text';
      message.textContent = e.status === 401 ? t('account.unknown_code') : errorText(e);
    }
  }

  // An account this browser used before a login link or a restore is kept, never dropped silently.
  const previous = store.previousTokens();
  const previousOut = previous.length
    ? h('div', { id: 'a-previous' }, h('p', { class: 'muted small' }, t('account.previous', { n: previous.length })),
      h('div', { class: 'actions' }, previous.map((token, i) => h('button', { type: 'button', class: 'previous-code',
        onclick: () => showCodeOf(token) }, t('account.show_previous', { n: i + 1 })))))
    : null;
  return h('section', { class: 'card-panel', id: 'account' },
    h('h2', {}, t('account.title')),
    h('p', { class: 'muted small' }, t('account.help')),
    h('div', { class: 'actions' },
      h('button', { type: 'button', id: 'a-show', onclick: showCode }, t('account.show_code')),
      h('button', { type: 'button', id: 'a-download', onclick: () => downloadRecords(downloadStatus) }, t('account.download'))),
    downloadStatus,
    previousOut,
    codeOut,
    h('form', { id: 'a-restore-form', novalidate: true, onsubmit: restore },
      h('div', { class: 'field' }, h('label', { for: 'a-restore' }, t('account.restore_label')), restoreInput),
      h('button', { type: 'submit' }, t('account.restore'))),
    message);
}
