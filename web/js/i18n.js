// Looks strings up in the active language file; `{name}` placeholders are
// filled from `params`. A missing key shows itself, so it is easy to spot.
import { en } from '../i18n/en.js';

const languages = { en };
let active = en;

export function setLanguage(code) {
  active = languages[code] || en;
}

export function t(key, params) {
  const text = active[key] ?? en[key] ?? key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}
