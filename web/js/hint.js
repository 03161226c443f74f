// The wrong-value hint: when a pasted value is a hash where a seed belongs (or
// the current pair's hash instead of the old pair's revealed seed), say what it
// is and where it goes. The relations come from the core via wasm `classify`.
import { h } from './dom.js';
import { t } from './i18n.js';

/**
 * @param wasm the loaded module
 * @param field how the page names the field the value was pasted into
 * @param value the pasted value
 * @param known [{label, value, kind}] with kind 'commitment' | 'current' | 'seed' | 'field'
 * @param expects 'seed' or 'commitment': what the field should hold
 * @returns an element, or null when there is nothing to say
 */
/**
 * Whether a value's relation to a known one means it is in the wrong field.
 * A seed field holding the seed behind a known hash, or a hash field holding
 * the hash of a known seed, is exactly right and says nothing.
 */
function isWrong(relation, kind, expects) {
  if (kind === 'field_self') return false;
  if (expects === 'seed') {
    if (relation === 'equals') return kind !== 'seed';
    return relation === 'commitment_of' || relation === 'selfpoker_commit_of';
  }
  if (relation === 'equals') return kind === 'seed';
  return relation === 'seed_of' || relation === 'selfpoker_seed_of';
}

export function hintFor(wasm, field, value, known, expects) {
  if (!value || !value.trim()) return null;
  const result = JSON.parse(wasm.classify(value, JSON.stringify(known.map(({ label, value: v }) => ({ label, value: v })))));
  const byLabel = new Map(known.map((k) => [k.label, k]));
  const lines = [];
  for (const rel of result.relations) {
    const k = byLabel.get(rel.label) || {};
    if (!isWrong(rel.relation, k.kind, expects)) continue;
    lines.push(t(`hint.${rel.relation}`, { field, label: k.display || rel.label }));
    if (expects === 'seed') {
      lines.push(t(k.kind === 'current' ? 'hint.goes_current' : 'hint.goes_commitment'));
    } else if (rel.relation.includes('seed_of') || k.kind === 'seed') {
      lines.push(t('hint.goes_seed'));
    }
  }
  if (result.shape === 'hex64_upper' && expects === 'seed') lines.push(t('hint.uppercase', { field }));
  if (!lines.length) return null;
  return h('div', { class: 'hint', role: 'note' }, h('strong', {}, t('hint.title')), ...[...new Set(lines)].map((l) => h('p', {}, l)));
}
