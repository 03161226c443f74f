// The player's clock as evidence (docs/spec.md §20.7): what the table signs
// for this page's own seat — each turn's deadline, its acceptance of the
// seat's commit and reveal — kept in this browser, per table and hand, with
// the table's evidence key. An item is kept only if the table's key signed
// it (wasm `holdem_evidence_item`). When a hand ends, its items are held to
// its record by the core's own check (wasm `holdem_evidence_check`, the
// check `fairseed verify --evidence` runs); each hand's items can be taken
// away as an evidence file for that check.
//
// Kept: the last HANDS_KEPT hands of each of the last TABLES_KEPT tables
// (some five items a hand, about 1.5 kB: a table's evidence stays under
// 300 kB). Older hands and tables are forgotten.
import { readValue, writeValue, removeValue } from './store.js';
import { exactJson } from './json.js';
import { t, locale } from './i18n.js';
import { fmtInt } from './format.js';

/**
 * @typedef {import('./types.js').Wasm} Wasm
 * @typedef {import('./types.js').HandRecord} HandRecord
 */

/**
 * A signed item as the table sent it (`type` `turn` or `ack`, its fields, `sig`).
 * @typedef {Record<string, unknown>} EvidenceItem
 */

/**
 * One table's kept evidence.
 * @typedef {object} TableEvidence
 * @property {string} key the table's evidence key, 64 hex
 * @property {Record<string, EvidenceItem[]>} hands hand number → its items, in the order received
 */

/**
 * An alarm's facts, as the core's check gives them (`fairseed_holdem::evidence::Alarm` as JSON).
 * @typedef {object} AlarmFacts
 * @property {'early_timeout' | 'withheld_acknowledged' | 'not_its_turn'} kind
 * @property {number} seat
 * @property {number} [action] the record's timed-out action
 * @property {number} [at] when the record says the clock ran out, Unix ms
 * @property {number} [deadline_ms] the latest deadline the table signed for that turn
 * @property {number} server_ms when the table signed
 * @property {string} [value_hash] the commit whose reveal the table accepted
 * @property {number} [actions] the turn's action index the table signed
 * @property {number} [acted] the seat the record has act then
 */

/**
 * What holding a hand's kept items to its record found.
 * @typedef {object} EvidenceFindings
 * @property {number} checked the items held to the record
 * @property {AlarmFacts[]} alarms what they show wrong
 * @property {string | null} error why they could not be held to it (the core's English), if so
 */

/** The scheme of an evidence file (docs/spec.md §20.7). */
export const SCHEME = 'holdem_evidence_v1';
/** Hands kept per table: the last this many by number. */
export const HANDS_KEPT = 200;
/** Tables kept: the last this many the page played at. */
export const TABLES_KEPT = 5;
/** Items held back while the table's key is not known yet, at most. */
const WAITING_MAX = 50;
/** How far the clocks of a table's processes may differ, in ms (`SKEW_MS`, docs/spec.md §20.7). */
export const SKEW_MS = 1000;

const INDEX = 'table_evidence';
const tableKey = (/** @type {string} */ id) => `table_evidence.${id}`;

/** A Unix time in ms as the time of day to the millisecond, in the player's locale. @param {number} ms */
export function clockTime(ms) {
  return new Intl.DateTimeFormat(locale(), {
    hour: '2-digit', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 3, hour12: false,
  }).format(new Date(ms));
}

/**
 * An alarm of hand `n` in the player's words, with its numbers.
 * @param {number} n
 * @param {AlarmFacts} a
 */
export function alarmWords(n, a) {
  const signed = clockTime(a.server_ms);
  if (a.kind === 'early_timeout') {
    const at = Number(a.at);
    const deadline = Number(a.deadline_ms);
    return t('table.alarm_early_timeout', {
      n, seat: a.seat, action: a.action ?? '', at: clockTime(at), deadline: clockTime(deadline),
      early: fmtInt(deadline - at), signed, skew: fmtInt(SKEW_MS),
    });
  }
  if (a.kind === 'withheld_acknowledged') return t('table.alarm_withheld_signed', { n, seat: a.seat, signed });
  return t('table.alarm_not_its_turn', { n, seat: a.seat, actions: a.actions ?? '', acted: a.acted ?? '', signed });
}

/** The evidence file's name for hand `n` of table `id`. @param {string} id @param {number} n */
export const fileName = (id, n) => `evidence-${id.replace(/[^A-Za-z0-9_-]/g, '_')}-hand-${n}.json`;

/**
 * @param {Wasm} wasm
 */
export function createEvidence(wasm) {
  /** @type {string | null} */
  let table = null;
  /** @type {TableEvidence | null} */
  let kept = null;
  /** @type {EvidenceItem[]} items received before the table's key was known */
  let waiting = [];

  /** @param {string} id @returns {TableEvidence | null} */
  function read(id) {
    const v = readValue(tableKey(id), null);
    return v && typeof v.key === 'string' && v.hands && typeof v.hands === 'object' ? v : null;
  }

  function save() {
    if (table === null || kept === null) return;
    const numbers = Object.keys(kept.hands).map(Number).sort((a, b) => a - b);
    for (const n of numbers.slice(0, Math.max(0, numbers.length - HANDS_KEPT))) delete kept.hands[n];
    writeValue(tableKey(table), kept);
    /** @type {string[]} */
    const tables = readValue(INDEX, []).filter((/** @type {unknown} */ x) => typeof x === 'string' && x !== table);
    tables.push(/** @type {string} */ (table));
    for (const old of tables.splice(0, Math.max(0, tables.length - TABLES_KEPT))) removeValue(tableKey(old));
    writeValue(INDEX, tables);
  }

  /** @param {EvidenceItem} item @returns {boolean} whether it was kept */
  function keep(item) {
    if (!kept || !item || typeof item !== 'object') return false;
    try {
      wasm.holdem_evidence_item(kept.key, JSON.stringify(item));
    } catch {
      // Not the table's key's signature (or not an item): it shows nothing, and is not kept.
      return false;
    }
    if (item.table !== table || typeof item.hand !== 'number') return false;
    const items = (kept.hands[String(item.hand)] ??= []);
    const text = JSON.stringify(item);
    if (!items.some((x) => JSON.stringify(x) === text)) items.push(item);
    save();
    return true;
  }

  return {
    /** The page is now at table `id`: what it kept of it before (a reload) is read back. @param {string} id */
    table(id) {
      if (id === table) return;
      table = id;
      kept = read(id);
      waiting = [];
    },
    /**
     * The table's evidence key, as its view or a record names it: the items
     * waiting for it are checked and kept.
     * @param {string | null | undefined} key
     */
    key(key) {
      if (table === null || typeof key !== 'string' || !/^[0-9a-f]{64}$/.test(key)) return;
      // Items signed with another key would not verify against the table's: a new start.
      if (!kept || kept.key !== key) kept = { key, hands: {} };
      const held = waiting;
      waiting = [];
      for (const item of held) keep(item);
    },
    /**
     * An `evidence` message's item: kept if the table's key signed it.
     * @param {EvidenceItem} item
     * @returns {boolean} kept (false also while the key is not known: it waits)
     */
    item(item) {
      if (table === null) return false;
      if (!kept) {
        if (waiting.length < WAITING_MAX) waiting.push(item);
        return false;
      }
      return keep(item);
    },
    /** The items kept for hand `n` of the table. @param {number} n @returns {EvidenceItem[]} */
    items(n) {
      return (kept && kept.hands[String(n)]) || [];
    },
    /**
     * Hand `n`'s evidence file (docs/spec.md §20.7), or null with nothing kept.
     * @param {number} n
     */
    file(n) {
      const items = this.items(n);
      return kept && items.length ? JSON.stringify({ scheme: SCHEME, key: kept.key, items }) : null;
    },
    /**
     * Holds the items kept for the record's hand to the record and the
     * record's evidence key (else the table's): null when nothing is kept for it.
     * @param {HandRecord} record
     * @returns {EvidenceFindings | null}
     */
    check(record) {
      const file = this.file(record.hand);
      const key = record.evidence_key || (kept && kept.key);
      if (!file || !key) return null;
      try {
        /** @type {{checked: number, found: AlarmFacts[]}} */
        const found = JSON.parse(wasm.holdem_evidence_check(exactJson(record), file, key));
        return { checked: found.checked, alarms: found.found || [], error: null };
      } catch (e) {
        return { checked: 0, alarms: [], error: e instanceof Error ? e.message : String(e) };
      }
    },
    /** The table whose evidence is held. */
    current: () => table,
  };
}
