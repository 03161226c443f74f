// Who may sit at a table, in the player's words (docs/spec.md §19.4): a
// private table (every table, unless its opener made it public) seats only
// its opener and the people they invite, with the link the opener shares
// (`#table=<id>&invite=<code>`); a public table seats anyone, the house
// included, and says so in every view. Each seated person shows how they
// came — opened the table, invited, at a public table — and a player the
// operator created carries the house's badge, however it came.
//
// Pure functions of the table view and of what the page itself knows (the
// invitation it sent), and the line the Table tab draws from them.
import { h } from './dom.js';
import { t, has } from './i18n.js';

/**
 * @typedef {import('./types.js').TableView} TableView
 * @typedef {import('./types.js').SeatView} SeatView
 * @typedef {{table: string, invite: string | null}} Invite the table a link opens, and its invitation if it carries one
 */

/** The longest table id or invitation a link may carry (a longer one is no link of this page's). */
const MAX_PART = 128;

/**
 * The table and invitation a link opens (`#table=<id>&invite=<code>`, the
 * invitation optional), or null when the address is no table link.
 * @param {string} hash the address's hash, with or without its `#`
 * @returns {Invite | null}
 */
export function inviteOf(hash) {
  const query = String(hash || '').replace(/^#/, '');
  if (!query.startsWith('table=')) return null;
  const params = new URLSearchParams(query);
  const table = (params.get('table') || '').trim();
  const invite = (params.get('invite') || '').trim();
  if (!table || table.length > MAX_PART || invite.length > MAX_PART) return null;
  return { table, invite: invite || null };
}

/**
 * The link that opens `tableId` on this page (`base`, the page's address),
 * with the invitation a private table needs.
 * @param {string} base
 * @param {string} tableId
 * @param {string | null | undefined} invitation
 */
export function inviteLink(base, tableId, invitation) {
  const url = new URL(base);
  const query = new URLSearchParams({ table: tableId });
  if (invitation) query.set('invite', invitation);
  url.hash = query.toString();
  return url.toString();
}

/** The seat a person joining takes: the first empty one, or null when every seat is taken. @param {TableView} table */
export function freeSeat(table) {
  const i = table.seats.findIndex((s) => s === null);
  return i < 0 ? null : i;
}

/**
 * A refusal to seat the player, in their words: for a refused invitation,
 * what was wrong with it — none was given (the page knows whether it sent
 * one), or it is not this table's.
 * @param {string} code the error's code
 * @param {boolean} sent whether the page sent an invitation
 */
export function refusalText(code, sent) {
  if (code === 'invitation_refused') return t(sent ? 'table.invite_wrong' : 'table.invite_missing');
  return has(`table.error.${code}`) ? t(`table.error.${code}`) : t('table.error.other');
}

/** How the person at `seat` came to the table, in words (null for an AI, or a seat that does not say). @param {SeatView} seat */
export function cameText(seat) {
  const came = seat.came;
  return came && has(`table.came_${came}`) ? t(`table.came_${came}`) : null;
}

/**
 * The seat's badge of how its person came: the house's, marked so (a player
 * the operator created), else opened the table, invited, or came to a
 * public table.
 * @param {SeatView} seat
 */
export function cameBadge(seat) {
  const text = cameText(seat);
  if (!text) return null;
  const house = seat.came === 'house';
  return h('span', { class: house ? 'came-badge house-badge' : 'came-badge', 'data-came': seat.came, title: house ? t('table.came_house_title') : null },
    house ? h('span', { 'aria-hidden': 'true' }, '⚠ ') : null, text);
}

/**
 * The table's seating in words — private or public — and, where the viewer
 * can share it, the link that seats others: the invitation's link for the
 * opener of a private table (only they receive it), the table's link at a
 * public one. `copy` copies a link and says whether it did.
 * @param {TableView} table
 * @param {{base: string, copy: (text: string) => Promise<boolean>}} with
 */
export function seatingBox(table, { base, copy }) {
  const open = Boolean(table.public);
  const words = h('p', { class: open ? 'small tb-seating public' : 'small tb-seating', id: 'tb-seating', 'data-public': String(open) },
    h('strong', {}, t(open ? 'table.seating_public_title' : 'table.seating_private_title')), ' ',
    t(open ? 'table.seating_public' : table.invitation ? 'table.seating_private_yours' : 'table.seating_private'));
  const link = open ? inviteLink(base, table.table_id, null) : table.invitation ? inviteLink(base, table.table_id, table.invitation) : null;
  if (!link) return h('div', { id: 'tb-seating-box' }, words);
  const field = h('input', { id: 'tb-invite-link', type: 'text', readonly: true, value: link, class: 'tb-invite-link', 'aria-describedby': 'tb-invite-help' });
  field.addEventListener('focus', () => field.select());
  const said = h('span', { id: 'tb-invite-copied', class: 'small muted', role: 'status' });
  const button = h('button', { type: 'button', id: 'tb-invite-copy', onclick: async () => {
    said.textContent = (await copy(link)) ? t('table.invite_copied') : t('table.invite_copy_failed');
  } }, t('table.invite_copy'));
  const full = freeSeat(table) === null;
  return h('div', { id: 'tb-seating-box' }, words,
    h('div', { class: 'tb-invite' },
      h('label', { for: 'tb-invite-link', class: 'small' }, t(open ? 'table.invite_public_label' : 'table.invite_label')),
      h('div', { class: 'tb-invite-row' }, field, button, said),
      h('p', { class: 'small muted', id: 'tb-invite-help' }, t(open ? 'table.invite_public_help' : 'table.invite_help'),
        full ? ` ${t('table.invite_full')}` : '')));
}

/** Copies `text` to the clipboard; false when the browser would not. @param {string} text */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
