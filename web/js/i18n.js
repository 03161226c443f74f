// Looks strings up in the active language file; `{name}` placeholders are
// filled from `params`. The language comes from the player's choice (kept in
// localStorage) or else the browser's languages; a missing key falls back to
// English, and a key missing there shows itself, so it is easy to spot.
import { en } from '../i18n/en.js';
import { pt } from '../i18n/pt.js';
import { es } from '../i18n/es.js';
import { readValue, writeValue } from './store.js';

const languages = { en, pt, es };
/** The switch's choices, each named in its own language. */
export const LANGUAGES = [['en', 'English'], ['pt', 'Português'], ['es', 'Español']];
/** The locale numbers and dates are written in, per language. */
const LOCALES = { en: 'en-US', pt: 'pt-BR', es: 'es-ES' };
const STORAGE_KEY = 'lang';

function stored() {
  return readValue(STORAGE_KEY, null);
}

/** The player's stored choice, else the first of the browser's languages we speak. */
function initial() {
  const chosen = stored();
  if (chosen in languages) return chosen;
  const wanted = (globalThis.navigator && navigator.languages) || [];
  for (const tag of wanted) {
    const code = String(tag).slice(0, 2).toLowerCase();
    if (code in languages) return code;
  }
  return 'en';
}

let code = initial();
let active = languages[code];

export function language() {
  return code;
}

/** The BCP 47 locale for Intl formatting: the browser's own tag when it is in our language. */
export function locale() {
  const tag = globalThis.navigator && navigator.language;
  return tag && tag.slice(0, 2).toLowerCase() === code ? tag : LOCALES[code];
}

/** Switches language and remembers the choice; the caller re-renders (the page reloads). */
export function setLanguage(next) {
  code = next in languages ? next : 'en';
  active = languages[code];
  // Storage disabled: the choice lasts for this page only.
  writeValue(STORAGE_KEY, code);
  if (globalThis.document) document.documentElement.lang = code;
}

export function t(key, params) {
  const text = active[key] ?? en[key] ?? key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** `key` for a count: `key_one` when `n` is 1 and the language has that form. */
export function tn(key, n, params) {
  const one = `${key}_one`;
  return t(Number(n) === 1 && one in en ? one : key, params);
}

/** Whether a key exists (English is the reference: every key is there). */
export function has(key) {
  return key in en;
}
