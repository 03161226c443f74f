// Numbers as the player's locale writes them: chips with thousands
// separators, dice rolls as the game shows them (0.00–99.99), percentages,
// durations and dates. Rolls travel in hundredths (0..9999, the scheme's unit);
// this file is the one place that turns them into what a player reads and back.
import { locale } from './i18n.js';

const cache = new Map();
function nf(options) {
  const key = `${locale()}|${JSON.stringify(options)}`;
  if (!cache.has(key)) cache.set(key, new Intl.NumberFormat(locale(), options));
  return cache.get(key);
}

/**
 * A bet's number in its seed pair as a player counts it, from 1: a dice
 * record's `nonce` counts from 0 (the first bet of a pair is nonce 0).
 * @param {number | string} nonce
 */
export function betNumber(nonce) {
  return Number(nonce) + 1;
}

/**
 * The `nonce` of a bet's number as a player typed it (from 1), as text
 * ("0" gives "-1", which the record refuses as it does any text that is
 * not a whole number, given back as typed).
 * @param {string} typed
 */
export function nonceOf(typed) {
  return /^\d+$/.test(typed) ? String(Number(typed) - 1) : typed;
}

/** A whole number (Number or BigInt, or its decimal text) with thousands separators. */
export function fmtInt(n) {
  if (typeof n === 'string' && /^-?\d+$/.test(n)) return nf({ maximumFractionDigits: 0 }).format(BigInt(n));
  return nf({ maximumFractionDigits: 0 }).format(n);
}

/** A roll in hundredths (5463) as the game shows it ("54.63", "54,63"). */
export function fmtRoll(hundredths) {
  return nf({ minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false }).format(Number(hundredths) / 100);
}

/** A chance in hundredths of a percent (4950) as "49.50 %". */
export function fmtChance(hundredths) {
  return nf({ style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(hundredths) / 10000);
}

/** A multiplier as "×2.0000". */
export function fmtMultiplier(x) {
  return `×${nf({ minimumFractionDigits: 4, maximumFractionDigits: 4 }).format(x)}`;
}

/** A number with `digits` decimals as the locale writes it ("16.1", "16,1"). */
export function fmtDecimal(x, digits) {
  return nf({ minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
}

/** Milliseconds as "1,234 ms" or "2.5 s". */
export function fmtDuration(ms) {
  if (ms < 1000) return `${nf({ maximumFractionDigits: 0 }).format(ms)} ms`;
  return `${nf({ minimumFractionDigits: 1, maximumFractionDigits: 2 }).format(ms / 1000)} s`;
}

/** A date and time in the player's locale. */
export function fmtDate(value) {
  return new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(value));
}

/**
 * A roll as typed by the player, in the unit the page shows: "54.63", "54,63",
 * "7", "0.5". Returns {hundredths} or {error: 'form' | 'range', suggestion?}:
 * a whole number above 99 (the scheme's raw unit, 5463) suggests the roll it
 * stands for (54.63).
 */
export function parseRoll(text) {
  const s = String(text).trim();
  const m = /^(\d{1,5})(?:[.,](\d{1,2}))?$/.exec(s);
  if (!m) return { error: 'form' };
  const whole = Number(m[1]);
  const frac = Number((m[2] || '0').padEnd(2, '0'));
  if (whole > 99) {
    return m[2] === undefined && whole <= 9999 ? { error: 'range', suggestion: fmtRoll(whole) } : { error: 'range' };
  }
  return { hundredths: whole * 100 + frac };
}
