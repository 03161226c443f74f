// What the glossary tests share: the glossary's technical patterns, every
// word of a language's file, the text a player sees on the page now, and the
// problems in it (a word not of the language's file, a technical term).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEB } from './harness.mjs';
import { pt } from '../i18n/pt.js';
import { es } from '../i18n/es.js';
import { en } from '../i18n/en.js';

/** The glossary's "Kept technical" patterns. */
export function technicalPatterns() {
  const text = readFileSync(join(WEB, 'i18n/glossary.md'), 'utf8');
  const section = text.split(/^## Kept technical$/m)[1];
  assert.ok(section, 'glossary.md has a "Kept technical" section');
  const patterns = [];
  for (const line of section.split('\n')) {
    const m = /^\| `((?:[^`])+)` \|/.exec(line);
    if (m) patterns.push(new RegExp(m[1].replace(/\\\|/g, '|'), 'i'));
  }
  assert.ok(patterns.length >= 10, `patterns read: ${patterns.length}`);
  return patterns;
}

/**
 * Strings a language may share with English: symbols, and the poker words
 * players use in every language (the glossary says so).
 */
export const SAME_AS_EN = new Set(['dice.half', 'dice.double', 'dice.chance', 'out.no', 'stage.flop', 'stage.turn', 'stage.river',
  'table.street_flop', 'table.street_turn', 'table.street_river']);

/** Every word (letters only) of a language file's strings, lower case; a string left in English counts for nothing. */
export function wordsOf(lang) {
  const words = new Set();
  for (const [key, value] of Object.entries(lang)) {
    if (value === en[key] && !SAME_AS_EN.has(key)) continue;
    for (const w of value.toLowerCase().match(/\p{L}+/gu) || []) words.add(w);
  }
  return words;
}

/** Words that are names, not language: the product, the languages in the switch, card ranks. */
const NAMES = new Set(['fairseed', 'english', 'português', 'español', 'a', 'k', 'q', 'j', 'd']);

/** The text a player sees now: text nodes rendered on screen, outside code, inputs and cards. */
export function visibleTexts(page) {
  return page.evaluate(() => {
    const out = [];
    const skipIn = 'code, pre, textarea, script, style, .card, .tile, .hex, .die, option, [aria-hidden="true"]';
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const text = n.textContent.replace(/\s+/g, ' ').trim();
      const el = n.parentElement;
      if (!text || !el || el.closest(skipIn)) continue;
      if (!el.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true })) continue;
      out.push(text);
    }
    out.push(document.title);
    for (const el of document.querySelectorAll('[aria-label]')) if (el.checkVisibility()) out.push(el.getAttribute('aria-label'));
    for (const el of document.querySelectorAll('input[placeholder]:not([placeholder^="{"])')) if (el.checkVisibility()) out.push(el.getAttribute('placeholder'));
    return out;
  });
}

/** Problems in `texts` for language `lang`: words not from its file, technical terms. */
export function problems(texts, lang, patterns, where) {
  const words = wordsOf(lang);
  const out = [];
  for (const text of texts) {
    for (const p of patterns) if (p.test(text)) out.push(`${where}: technical term ${p} in "${text}"`);
    for (const token of text.split(/\s+/)) {
      // A token with a digit is data (an id, an amount, a card); the rest must be the language's words.
      if (/\d/.test(token)) continue;
      for (const w of token.toLowerCase().match(/\p{L}+/gu) || []) {
        if (!words.has(w) && !NAMES.has(w)) out.push(`${where}: "${w}" (in "${text}") is not a ${lang === pt ? 'Portuguese' : 'Spanish'} word of the page`);
      }
    }
  }
  return [...new Set(out)];
}

export const LANGS = { pt: { file: pt, locale: 'pt-BR' }, es: { file: es, locale: 'es-ES' } };

export async function look(page, lang, patterns, where, found) {
  const texts = await visibleTexts(page);
  // Something was read: an empty page would pass for the wrong reason.
  assert.ok(texts.join(' ').length > 200, `${where}: only ${JSON.stringify(texts)}`);
  found.push(...problems(texts, LANGS[lang].file, patterns, where));
  for (const name of await rawFieldNames(page)) found.push(`${where}: the field name "${name}" on a verdict, not in words`);
}


/**
 * Core's identifiers on the verdict cards shown, outside the scheme's id and
 * the verifier's own English report: each check's name (`commitment`,
 * `outcome.roll`, `hands[0].deck_root`) and anything shaped like one. A
 * player reads every field in words, so none may be there.
 */
export function rawFieldNames(page) {
  return page.$$eval('.verdict', (cards) => cards.flatMap((card) => {
    const names = [...card.querySelectorAll('[data-check], [data-warning]')].map((e) => e.dataset.check || e.dataset.warning);
    const shown = card.cloneNode(true);
    for (const e of shown.querySelectorAll('details.raw, .scheme-id')) e.remove();
    const text = shown.textContent;
    const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const found = names.filter((n) => new RegExp(`(^|[^\\p{L}_.\\[])${esc(n)}($|[^\\p{L}_\\]])`, 'u').test(text));
    const shaped = text.match(/\b\w+\[\d+\]|\boutcome\.\w+|\b[a-z]+_[a-z_]+\b/g) || [];
    return [...new Set([...found, ...shaped])];
  }));
}
