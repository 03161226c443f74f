// Errors in the player's language, from a code and parameters. The server
// answers {code, message, field}; core's messages are read back into their
// kind and fields by core itself (wasm `error_code`). The original English
// text of a verdict's error stays available under "details".
import { t, has } from './i18n.js';

/** A record field or request field in the player's words, when we have them. */
export function fieldName(field) {
  if (!field) return '';
  const base = String(field).replace(/\[\d+\]/g, '[]');
  return has(`field.${base}`) ? t(`field.${base}`) : has(`field.${base.split('.').pop()}`) ? t(`field.${base.split('.').pop()}`) : field;
}

let readCode = null;

/** Lets core (wasm `error_code`) read its messages back into a code and fields. */
export function useCoreCodes(wasm) {
  readCode = (message) => JSON.parse(wasm.error_code(message));
}

/**
 * {code, params} of one of core's error messages: core's own inverse of its
 * messages (`Error::from_message`) gives the kind and its fields; the
 * template key and the field in the player's words are chosen here.
 */
export function coreErrorCode(message) {
  const text = String(message || '');
  const c = readCode ? readCode(text) : { code: 'other' };
  switch (c.code) {
    case 'missing':
    case 'invalid':
      return { code: c.code, params: { field: fieldName(c.field) } };
    case 'unknown_scheme':
      return { code: c.code, params: { scheme: c.scheme } };
    case 'wall_exhausted':
      return { code: 'wall_empty', params: {} };
    case 'syntax':
      // Core's syntax errors all speak of JSON; any other text is no core message.
      if (c.line) return { code: 'syntax_line', params: { line: c.line } };
      return { code: /JSON/.test(text) ? 'syntax' : 'other', params: {} };
    default:
      return { code: 'other', params: {} };
  }
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

