// The fairseed HTTP API (docs/api.md), as the player's page uses it. Integers
// that JavaScript cannot hold exactly (payouts, balances) are kept as BigInt:
// the JSON reviver reads them from their source text.
import { store } from './store.js';
import { parseExact } from './json.js';

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.status = status;
    this.code = body && body.code;
    this.field = body && body.field;
  }
}

/**
 * One call to the service; resolves with the JSON answer (`raw`: the Response), throws ApiError.
 * @param {string} method
 * @param {string} path
 * @param {{body?: unknown, headers?: Record<string, string>, auth?: boolean, raw?: boolean}} [options]
 */
async function call(method, path, { body, headers, auth = true, raw = false } = {}) {
  const h = { ...(headers || {}) };
  if (body !== undefined) h['Content-Type'] = 'application/json';
  if (auth) {
    const token = await ensureToken();
    h.Authorization = `Bearer ${token}`;
  }
  const res = await fetch(path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) {
    let err = null;
    try { err = JSON.parse(text); } catch { /* not JSON: keep the status */ }
    if (res.status === 401 && auth) store.setToken(null);
    throw new ApiError(res.status, err);
  }
  return raw ? text : text ? parseExact(text) : null;
}

let tokenPromise = null;
let lastAccount = null;

/** The player's token, creating an anonymous account on first use. */
export function ensureToken() {
  const token = store.token();
  if (token) return Promise.resolve(token);
  tokenPromise ??= call('POST', '/v1/players', { body: {}, auth: false }).then((acc) => {
    lastAccount = acc;
    store.setToken(acc.token);
    tokenPromise = null;
    return acc.token;
  });
  return tokenPromise;
}

export function newAccountInfo() {
  return lastAccount;
}

export const api = {
  me: () => call('GET', '/v1/me'),
  seeds: () => call('GET', '/v1/seeds'),
  setClientSeed: (clientSeed, commitment) =>
    call('PUT', '/v1/seeds/client', { body: { client_seed: clientSeed, commitment } }),
  rotate: () => call('POST', '/v1/seeds/rotate', { body: {} }),
  revealed: (before) => call('GET', `/v1/seeds/revealed?limit=100${before ? `&before=${before}` : ''}`),
  bet: (bet, key) => call('POST', '/v1/dice/bets', { body: bet, headers: { 'Idempotency-Key': key } }),
  bets: (query) => call('GET', `/v1/dice/bets?${new URLSearchParams(query)}`),
  selfpokerNew: (players) => call('POST', '/v1/selfpoker/hands', { body: { players } }),
  selfpokerNext: (id) => call('POST', `/v1/selfpoker/hands/${encodeURIComponent(id)}/next`, { body: {} }),
  records: (before, limit = 100) => call('GET', `/v1/records?limit=${limit}${before ? `&before=${before}` : ''}`),
  pokerHands: () => call('GET', '/v1/poker/hands'),
  pokerHand: (table, n) => call('GET', `/v1/poker/tables/${encodeURIComponent(table)}/hands/${encodeURIComponent(n)}`),
  /** @type {(body: import('./wire-types.js').ApiNewHoldemTable, key: string) => Promise<import('./wire-types.js').ApiHoldemTableCreated>} */
  holdemTable: (body, key) => call('POST', '/v1/holdem/tables', { body, headers: { 'Idempotency-Key': key } }),
  holdemHands: (id) => call('GET', `/v1/holdem/tables/${encodeURIComponent(id)}/hands`),
  token: ensureToken,
};
