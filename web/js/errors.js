// Errors in the player's language, from a code and parameters. The server
// answers {code, message, field}; core's errors have one of a few stable
// forms (`field: missing`, `field: reason`, `scheme: unknown scheme '…'`,
// `line N: invalid JSON: …`), which are read back into a code and its field
// here. The original English text stays available under "details".
import { t, has } from './i18n.js';

/** A record field or request field in the player's words, when we have them. */
export function fieldName(field) {
  if (!field) return '';
  const base = String(field).replace(/\[\d+\]/g, '[]');
  return has(`field.${base}`) ? t(`field.${base}`) : has(`field.${base.split('.').pop()}`) ? t(`field.${base.split('.').pop()}`) : field;
}

/** {code, field, params} of one of core's error messages. */
export function coreErrorCode(message) {
  const text = String(message || '');
  let m = /^line (\d+): invalid JSON/.exec(text);
  if (m) return { code: 'syntax_line', params: { line: m[1] } };
  if (/^invalid JSON|^expected a JSON array|EOF while parsing|expected value at/.test(text)) return { code: 'syntax', params: {} };
  m = /^scheme: unknown scheme '(.*)', expected/.exec(text);
  if (m) return { code: 'unknown_scheme', params: { scheme: m[1] } };
  m = /^mahjong wall is empty/.exec(text);
  if (m) return { code: 'wall_empty', params: {} };
  m = /^([\w.[\]]+): missing$/.exec(text);
  if (m) return { code: 'missing', params: { field: fieldName(m[1]) } };
  m = /^([\w.[\]]+): (.*)$/s.exec(text);
  if (m) return { code: 'invalid', params: { field: fieldName(m[1]) } };
  return { code: 'other', params: {} };
}

/** One of core's error messages in the player's language. */
export function coreErrorText(message) {
  const { code, params } = coreErrorCode(message);
  return t(`error.core.${code}`, params);
}

/** An error from the service (ApiError) or anything thrown, in the player's language. */
export function errorText(e) {
  if (e && e.status !== undefined) {
    const key = `error.api.${e.code}`;
    if (e.code === 'invalid_field') return t(key, { field: fieldName(e.field) });
    if (e.code && has(key)) return t(key);
    return t('error.api.other', { status: e.status });
  }
  // fetch() rejects with a TypeError when the service cannot be reached at all.
  if (e instanceof TypeError && /fetch|network|load failed/i.test(e.message)) return t('error.network');
  return coreErrorText(e && e.message ? e.message : String(e));
}

