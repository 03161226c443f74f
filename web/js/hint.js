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
export function hintFor(wasm, field, value, known, expects) {
  if (!value || !value.trim()) return null;
  const result = JSON.parse(wasm.classify(value, JSON.stringify(known.map(({ label, value: v }) => ({ label, value: v })))));
  const byLabel = new Map(known.map((k) => [k.label, k]));
  const lines = [];
  for (const rel of result.relations) {
    const k = byLabel.get(rel.label) || {};
    if (rel.relation === 'equals' && k.kind === 'seed' && expects === 'seed') continue;
    if (rel.relation.includes('seed_of') && expects === 'seed' && k.kind === 'field') continue;
    if (rel.relation === 'commitment_of' && expects === 'commitment') continue;
    if (rel.relation === 'equals' && k.kind === 'field_self') continue;
    lines.push(t(`hint.${rel.relation}`, { field, label: k.display || rel.label }));
    if (expects === 'seed' && (rel.relation === 'equals' || rel.relation.endsWith('commit_of') || rel.relation === 'commitment_of')) {
      lines.push(t(k.kind === 'current' ? 'hint.goes_current' : 'hint.goes_commitment'));
    } else if (expects === 'commitment' && rel.relation.includes('seed_of')) {
      lines.push(t('hint.goes_seed'));
    }
  }
  if (result.shape === 'hex64_upper' && expects === 'seed') lines.push(t('hint.uppercase', { field }));
  if (!lines.length) return null;
  return h('div', { class: 'hint', role: 'note' }, h('strong', {}, t('hint.title')), ...[...new Set(lines)].map((l) => h('p', {}, l)));
}
