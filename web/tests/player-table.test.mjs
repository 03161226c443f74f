// The hold'em side of the page in the player's words, played in Portuguese and in Spanish on a desktop
// (1280×800) and on a phone (390×844) against a real `fairseed-server`: the
// keyboard lands on the table's buttons after opening it; the table keys work
// while the coach's checkbox has focus; the coach's advice uses the buttons'
// words, fills in the amount it suggests, and sits with the buttons on a
// phone; after a raise by Enter the keyboard stays in the action bar; the
// felt and the hand list give the same result; the replay calls the player
// "you"; after leaving the felt says so; and the hand's record, checked in
// Verify, reads as sentences and steps, the AIs' decisions checked among
// them — and a wrong seed says what differs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shot, serviceFixture, violations } from './harness.mjs';
import { SIZES, openPage } from './table-play.mjs';

const fx = serviceFixture();
const { skip } = fx;
const HAND_MS = 90_000;

const SAY = {
  pt: {
    locale: 'pt-BR', you: /^Você$/, replayYou: /você (desiste|passa|paga|aumenta)/, seatZero: /Lugar 0\b/, left: 'Você saiu da mesa.',
    won: /^(ganhou|perdeu) ([\d.]+)$|^sem ganho nem perda$/, title: /^Mão de hold'em \d+ · mesa /, sentence: /^Mão \d+: /,
    derivationBad: /^Mão \d+: a semente do registro é 1, mas o segredo da mesa e as sementes dos jogadores dão \d+/, steps: /A mão, passo a passo/,
    aiOk: /^Mão \d+: (as [\d.]+ decisões das IAs|a decisão da IA) .* vendo só o próprio lugar/,
  },
  es: {
    locale: 'es-ES', you: /^Tú$/, replayYou: /tú (te retiras|pasas|igualas|subes)/, seatZero: /Asiento 0\b/, left: 'Dejaste la mesa.',
    won: /^(ganaste|perdiste) ([\d.]+)$|^sin cambios$/, title: /^Mano de hold'em \d+ · mesa /, sentence: /^Mano \d+: /,
    derivationBad: /^Mano \d+: la semilla del registro es 1, pero el secreto de la mesa y las semillas de los jugadores dan \d+/, steps: /La mano, paso a paso/,
    aiOk: /^Mano \d+: (las [\d.]+ decisiones de las IA|la decisión de la IA) .* viendo solo su propio asiento/,
  },
};


const myTurn = (page) => page.isEnabled('#tb-call').catch(() => false);
const inBar = (page) => page.evaluate(() => Boolean(document.activeElement && document.activeElement.closest('#tb-actions')));

/** Both boxes fully inside the viewport at once. */
function bothInView(page, a, b) {
  return page.evaluate(([x, y]) => [x, y].every((sel) => {
    const r = document.querySelector(sel).getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
  }), [a, b]);
}

for (const lang of ['pt', 'es']) {
  for (const size of SIZES) {
    const name = `${lang}-${size.width}`;
    test(`table in ${lang} at ${size.width}×${size.height}: focus, keys, coach, results, replay, leaving, Verify`, { skip, timeout: 4 * HAND_MS }, async () => {
      const say = SAY[lang];
      const page = await openPage(fx, lang, size);
      // Finding 3: the coach switched on leaves focus on its checkbox.
      await page.click('#tb-coach-on');
      assert.equal(await page.evaluate(() => document.activeElement.id), 'tb-coach-on');
      await page.click('#tb-open');
      await page.waitForSelector('#tb-table .seat.mine[data-seat="0"]');
      // Finding 8: once seated the keyboard is at the table's actions, not at the top of the page.
      await page.waitForFunction(() => document.activeElement && document.activeElement.closest('#tb-actions'), null, { timeout: 10_000 });

      let keyTried = false;
      let enterTried = false;
      let coachChecked = false;
      const deadline = Date.now() + 2 * HAND_MS;
      while (!(await page.$('#tb-hands li[data-hand="1"]'))) {
        assert.ok(Date.now() < deadline, `${name}: hand 1 did not end`);
        if (!(await myTurn(page))) { await page.waitForTimeout(150); continue; }
        await page.waitForSelector('#tb-suggest');
        if (!coachChecked) {
          coachChecked = true;
          // Finding 5: the advice is worded as one of the buttons.
          const advice = (await page.textContent('#tb-suggest strong')).trim();
          const buttons = await page.$$eval('#tb-actions button', (bs) => bs.map((b) => b.textContent.trim()));
          const kind = await page.getAttribute('#tb-suggest', 'data-kind');
          if (kind === 'raise_to') {
            // The coach puts its amount into the field; the raise button then says exactly the advice.
            await page.click('#tb-coach-use');
            assert.equal((await page.textContent('#tb-raise')).trim(), advice, `${name}: raise button after "use"`);
            assert.equal(await page.evaluate(() => document.activeElement.id), 'tb-raise');
          } else {
            assert.ok(buttons.includes(advice), `${name}: advice "${advice}" is not a button: ${JSON.stringify(buttons)}`);
          }
          assert.doesNotMatch(await page.textContent('#tb-coach'), /Pot odds|[Ee]quidad|[Ee]quidade/);
          // On a phone the advice sits in the action bar, in sight with the buttons.
          if (size.width < 600) {
            await page.$eval('#tb-call', (b) => b.scrollIntoView({ block: 'end' }));
            assert.ok(await page.isVisible('#tb-coach-line'), `${name}: coach line visible`);
            assert.ok(await bothInView(page, '#tb-coach-line', '#tb-call'), `${name}: coach and buttons together`);
          }
          await shot(page, `player-${name}-coach`, { fullPage: false });
          assert.deepEqual(await violations(page), []);
        }
        if (!keyTried) {
          // Finding 3: the table keys work while the checkbox has focus.
          keyTried = true;
          await page.focus('#tb-coach-on');
          await page.keyboard.press('c');
          await page.waitForFunction(() => document.querySelector('#tb-call').disabled, null, { timeout: 10_000 });
          // The checkbox was not toggled by the key.
          assert.equal(await page.isChecked('#tb-coach-on'), true);
          continue;
        }
        if (!enterTried && await page.isEnabled('#tb-amount')) {
          // Finding 8: a raise by Enter in the amount field keeps the keyboard in the action bar.
          enterTried = true;
          await page.focus('#tb-amount');
          await page.keyboard.press('Enter');
          await page.waitForFunction(() => document.querySelector('#tb-call').disabled, null, { timeout: 10_000 });
          assert.ok(await inBar(page), `${name}: focus left the action bar after a raise by Enter`);
          continue;
        }
        await page.keyboard.press('c');
        await page.waitForFunction(() => document.querySelector('#tb-call').disabled, null, { timeout: 10_000 }).catch(() => {});
        // Whenever it is not the player's turn, the keyboard is still in the bar (never back at the top).
        assert.notEqual(await page.evaluate(() => document.activeElement.tagName), 'BODY', `${name}: focus fell to the page`);
      }
      assert.ok(keyTried, `${name}: the player had a turn`);

      // Finding 6: the felt and the hand list agree on the player's result for the hand just ended.
      const agree = await page.waitForFunction(() => {
        const net = document.querySelector('#tb-net');
        const item = document.querySelector('#tb-hands li[data-hand="1"] .hand-result');
        return net && item ? { net: net.textContent, item: item.textContent } : null;
      }, null, { timeout: 5_000, polling: 'raf' }).then((h) => h.jsonValue()).catch(() => null);
      assert.ok(agree, `${name}: the felt showed no result for hand 1 between hands`);
      const item = agree.item.trim();
      assert.match(item, say.won);
      assert.ok(agree.net.endsWith(item), `${name}: felt "${agree.net}" vs list "${item}"`);
      await shot(page, `player-${name}-hand-end`, { fullPage: false });

      // Finding 10: the replay calls the player "you", never "seat 0".
      await page.click('#tb-hands li[data-hand="1"] [data-replay]');
      await page.waitForSelector('#tb-replay .replay-step');
      const seen = [];
      for (;;) {
        seen.push(await page.textContent('#tb-replay'));
        if (await page.isDisabled('#tb-next')) break;
        await page.click('#tb-next');
      }
      const all = seen.join('\n');
      assert.doesNotMatch(all, say.seatZero);
      assert.match(all, say.replayYou);
      assert.ok(await page.$$eval('#tb-replay .replay-seat', (s) => s.some((x) => /^(Você|Tú)$/.test(x.textContent))));

      // Finding 6: after leaving, the felt says so (not "next hand soon").
      await page.click('#tb-leave');
      await page.waitForFunction((text) => document.querySelector('#tb-status').textContent === text, say.left, { timeout: HAND_MS });
      await page.waitForFunction((text) => document.querySelector('#tb-felt-state')?.textContent === text, say.left, { timeout: 10_000 });
      await shot(page, `player-${name}-left`, { fullPage: false });

      // Finding 2: the hand's record in Verify, once the table closed and revealed its secret.
      const table = await page.evaluate(() => JSON.parse(localStorage.getItem('fairseed.table')));
      const record = await page.evaluate(async (id) => {
        const token = JSON.parse(localStorage.getItem('fairseed.token'));
        for (let i = 0; i < 40; i++) {
          const text = await (await fetch(`/v1/holdem/tables/${id}/hands`, { headers: { Authorization: `Bearer ${token}` } })).text();
          // The record's text as the service wrote it, 63-bit seed included.
          const hands = JSON.parse(text, (k, v, ctx) => (typeof v === 'number' && !Number.isSafeInteger(v) ? JSON.rawJSON(ctx.source) : v)).hands;
          const first = hands.find((r) => r.hand === 1);
          if (first && first.deal && first.deal.session_secret) return JSON.stringify(first);
          await new Promise((r) => setTimeout(r, 500));
        }
        return null;
      }, table);
      assert.ok(record, `${name}: the table's secret was revealed`);
      await page.click('#tab-verify');
      await page.fill('#v-records', record);
      await page.click('#v-records-go');
      await page.waitForSelector('#records-detail .verdict.valid');
      const card = await page.$eval('#records-detail .verdict', (e) => ({
        title: e.querySelector('.verdict-title').textContent,
        sentences: [...e.querySelectorAll('.sentences li span:not(.mark)')].map((s) => s.textContent),
        steps: e.querySelectorAll('.holdem-steps > li').length,
        text: e.innerText,
      }));
      assert.match(card.title, say.title);
      assert.ok(card.sentences.length >= 4, `${name}: ${JSON.stringify(card.sentences)}`);
      for (const s of card.sentences) assert.match(s, say.sentence);
      // The AIs' decisions were replayed from their own seats (docs/spec.md §18.2).
      assert.ok(card.sentences.some((s) => say.aiOk.test(s)), `${name}: no AI check among ${JSON.stringify(card.sentences)}`);
      assert.doesNotMatch(card.text, /scheme\.|session_secret|derivation|\{"|NÃO confere|NO coincide/);
      assert.match(card.text, say.steps);
      assert.ok(card.steps >= 3, `${name}: deal, actions, results as steps`);
      await shot(page, `player-${name}-verify-holdem`);
      assert.deepEqual(await violations(page), []);
      // A wrong seed: which hand, and what differs.
      await page.fill('#v-records', record.replace(/"seed":\d+/, '"seed":1'));
      await page.click('#v-records-go');
      await page.waitForSelector('#records-detail .verdict.invalid');
      const bad = await page.$$eval('#records-detail .sentences li.bad span:not(.mark)', (s) => s.map((x) => x.textContent));
      assert.match(bad[0] || '', say.derivationBad);
      await shot(page, `player-${name}-verify-holdem-bad`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
}
