// A second person at a table, for the paths one player and five AIs cannot
// reach on purpose (a bust by rule, not by luck): its own browser page and
// account, speaking the table's socket by hand (docs/api.md, "Live hold'em
// table"). It sits in `seat`, takes its part in every round, tops up when
// out of chips, and on its turn raises as far as it may, else calls or
// checks — so a player who folds to it loses their blind each hand, and
// their last chips in a blind they cannot fold.
// A stranger sits only at a public table (docs/spec.md §19.4): the tests that
// start it open theirs with `public: true`.

/** Starts the opponent at `tableId`; close its page's context to stop it. */
export async function startOpponent(browser, base, tableId, seat = 1) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/healthz`);
  await page.evaluate(async ({ tableId, seat }) => {
    const made = await fetch('/v1/players', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    const { token } = await made.json();
    const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    const ws = new WebSocket(`ws://${location.host}/v1/holdem/tables/${encodeURIComponent(tableId)}/ws`);
    const done = new Set();
    const values = new Map();
    let n = 0;
    /** Sends `message` once per `key`. */
    const once = (key, message) => {
      if (done.has(key)) return;
      done.add(key);
      ws.send(JSON.stringify({ ...message, id: `opponent-${++n}` }));
    };
    ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', token }));
    let last = null;
    let lastSeq = 0;
    // Asked to leave: as soon as no hand is being played and no round is open (tried on every state
    // and now, once per state: a refusal on a stale state is tried again on the next); dealt into a
    // hand, it sits out first, so that with an AI still seated the table stops dealing to it.
    const tryLeave = () => {
      if (!globalThis.opponentLeaving || !last || last.you === null) return;
      if (!last.hand && !last.round) once(`leave:${lastSeq}`, { type: 'leave' });
      else if (last.hand && !last.round && !last.seats[seat].sitting_out) once(`sit_out:${last.hand.number}`, { type: 'sit_out' });
    };
    globalThis.opponentTryLeave = tryLeave;
    ws.onmessage = async (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === 'round' && msg.notice.kind === 'opened') values.delete(msg.notice.hand);
      if (msg.type !== 'state') return;
      const table = msg.table;
      last = table;
      lastSeq = msg.seq;
      tryLeave();
      if (table.you === null) {
        if (table.seats[seat] === null) once('sit', { type: 'sit', seat, client_seed: 'opponent' });
        return;
      }
      const round = table.round;
      // Out of chips between hands: a top-up, as a person would.
      if (table.seats[seat].stack === 0 && !table.hand && !round) once(`top_up:${msg.seq}`, { type: 'top_up' });
      if (round && round.seats.includes(seat)) {
        if (!values.has(round.hand)) values.set(round.hand, hex(crypto.getRandomValues(new Uint8Array(32))));
        const value = values.get(round.hand);
        if (round.phase === 'commit' && !round.commits[seat]) {
          const digest = hex(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value))));
          once(`commit:${round.hand}:${value}`, { type: 'hand_commit', hand: round.hand, commit: digest });
        }
        if (round.phase === 'reveal' && round.commits[seat]) once(`reveal:${round.hand}:${value}`, { type: 'hand_reveal', hand: round.hand, value });
      }
      const hand = table.hand;
      if (hand && hand.to_act === seat && hand.legal) {
        const { to_call: toCall, raise } = hand.legal;
        const action = raise ? { kind: 'raise_to', to: raise[1] } : { kind: toCall ? 'call' : 'check' };
        once(`act:${hand.number}:${hand.actions.length}`, { type: 'act', action });
      }
    };
  }, { tableId, seat });
  return {
    /** Leaves the table once no hand or round is under way (so the table closes with its last person). */
    leave: () => page.evaluate(() => { globalThis.opponentLeaving = true; globalThis.opponentTryLeave(); }),
    close: () => context.close(),
  };
}
