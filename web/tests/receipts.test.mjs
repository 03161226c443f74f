// The transparency log as the page checks it, against a real `fairseed-server`:
// a bet's receipt goes from "acknowledged" to "in the log", the log key is
// pinned with its fingerprint, a rotation's two receipts follow; a checkpoint
// pair that is not consistent (signed by a test key the page pinned, since the
// server's key is not ours) raises the red alarm with both notes downloadable;
// the offline verifier checks a receipt with the network off. The signatures,
// Merkle roots and proofs the test makes or checks are computed here with
// node:crypto, independently of crates/tlog.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { newPage, shot, serviceFixture, violations, WEB } from './harness.mjs';

const fx = serviceFixture();
const { skip } = fx;

// ---- RFC 6962 and C2SP signed notes, written from the specs.
const sha256 = (...parts) => createHash('sha256').update(Buffer.concat(parts.map((p) => Buffer.from(p)))).digest();
const leafHash = (entry) => sha256([0], entry);
const nodeHash = (l, r) => sha256([1], l, r);
function root(leaves) {
  if (leaves.length === 0) return sha256([]);
  if (leaves.length === 1) return leaves[0];
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return nodeHash(root(leaves.slice(0, k)), root(leaves.slice(k)));
}
/** RFC 9162 §2.1.3.2: the root an inclusion proof leads to. */
function rootFromInclusion(index, size, leaf, proof) {
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) while (fn % 2 === 0 && fn !== 0) { fn >>= 1; sn >>= 1; }
    } else {
      r = nodeHash(r, p);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return sn === 0 ? r : null;
}

function keyHash(name, pk) {
  return sha256(name, '\n', [1], pk).subarray(0, 4);
}
function vkeyParts(vkey) {
  // The key's base64 may itself hold '+': only the first two separate.
  const [name, hash, ...rest] = vkey.trim().split('+');
  const b64 = rest.join('+');
  const raw = Buffer.from(b64, 'base64');
  assert.equal(raw[0], 1, 'an Ed25519 verifier key');
  return { name, hash, pk: raw.subarray(1) };
}
function publicKey(pk) {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: pk.toString('base64url') }, format: 'jwk' });
}
/** The text of `note` if it carries a valid signature by `vkey`, else null. */
function openNote(note, vkey) {
  const { name, pk } = vkeyParts(vkey);
  const split = note.lastIndexOf('\n\n');
  const text = note.slice(0, split + 1);
  const id = keyHash(name, pk);
  for (const line of note.slice(split + 2).split('\n').filter(Boolean)) {
    const [dash, who, b64] = line.split(' ');
    const sig = Buffer.from(b64, 'base64');
    if (dash === '\u2014' && who === name && sig.subarray(0, 4).equals(id)
      && verify(null, Buffer.from(text), publicKey(pk), sig.subarray(4))) return text;
  }
  return null;
}

/** A test log key and notes signed by it. */
function testKey(name) {
  const { privateKey, publicKey: pub } = generateKeyPairSync('ed25519');
  const pk = Buffer.from(pub.export({ format: 'jwk' }).x, 'base64url');
  const id = keyHash(name, pk);
  return {
    vkey: `${name}+${id.toString('hex')}+${Buffer.concat([Buffer.from([1]), pk]).toString('base64')}`,
    checkpoint(leaves) {
      const text = `${name}\n${leaves.length}\n${root(leaves).toString('base64')}\n`;
      const sig = sign(null, Buffer.from(text), privateKey);
      return `${text}\n\u2014 ${name} ${Buffer.concat([id, sig]).toString('base64')}\n`;
    },
  };
}

/** A test witness: its cosigner key (type 0x04) and C2SP tlog-cosignature lines, from the spec. */
function testWitness(name) {
  const { privateKey, publicKey: pub } = generateKeyPairSync('ed25519');
  const typed = Buffer.concat([Buffer.from([4]), Buffer.from(pub.export({ format: 'jwk' }).x, 'base64url')]);
  const id = sha256(name, '\n', typed).subarray(0, 4);
  return {
    vkey: `${name}+${id.toString('hex')}+${typed.toString('base64')}`,
    cosign(note, time = 1700000000) {
      const text = note.slice(0, note.lastIndexOf('\n\n') + 1);
      const stamp = Buffer.alloc(8);
      stamp.writeBigUInt64BE(BigInt(time));
      const sig = sign(null, Buffer.from(`cosignature/v1\ntime ${time}\n${text}`), privateKey);
      return `${note}\u2014 ${name} ${Buffer.concat([id, stamp, sig]).toString('base64')}\n`;
    },
  };
}

async function open(page, path = '/') {
  await page.goto(`${fx.service.base}${path}`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
}

/** Records every state each log badge passes through, in order. */
async function recordBadgeStates(page) {
  await page.evaluate(() => {
    globalThis.badgeStates = {};
    new MutationObserver((changes) => {
      for (const c of changes) {
        const badges = c.target.matches?.('.log-badge') ? [c.target] : [...(c.target.querySelectorAll?.('.log-badge') || [])];
        for (const b of badges) {
          const seen = (globalThis.badgeStates[b.dataset.entry] ||= []);
          if (seen.at(-1) !== b.dataset.state) seen.push(b.dataset.state);
        }
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
  });
}

let sequencedReceipt = null;
let serverKey = null;

test('a bet and a rotation: acknowledged, then in the log; the key pinned with its fingerprint', { skip }, async () => {
  const page = await newPage(fx.browser, { width: 1280, height: 900 });
  await open(page);
  await page.waitForSelector('#log-status[data-state="ok"]', { state: 'attached', timeout: 15000 });
  serverKey = (await (await fetch(`${fx.service.base}/log/key`)).text()).trim();
  assert.equal(await page.textContent('#log-key'), serverKey);
  const fingerprint = createHash('sha256').update(serverKey).digest('hex').match(/.{4}/g).join(' ');
  assert.equal(await page.textContent('#log-fingerprint'), fingerprint);
  assert.equal(await page.evaluate(() => localStorage.getItem('fairseed.log_key')), serverKey);

  await recordBadgeStates(page);
  await page.click('#d-roll');
  await page.waitForSelector('#d-result .log-badge');
  await page.waitForSelector('#d-result .log-badge[data-state="in"]', { timeout: 30000 });
  const entry = await page.getAttribute('#d-result .log-badge', 'data-entry');
  const states = await page.evaluate((e) => globalThis.badgeStates[e], entry);
  assert.deepEqual(states.filter((s) => s !== 'checking'), ['ack', 'in'], `states: ${states}`);
  assert.equal(await page.textContent('#d-result .log-badge summary'), 'bet · in the log');
  await page.click('#d-result .log-badge summary');
  await shot(page, 'receipts-bet-in-log', { fullPage: false });
  assert.deepEqual(await violations(page), [], 'dice with an open badge');

  // The same receipt, checked here from the spec: the signature, the inclusion proof, the checkpoint's key.
  const full = await (await fetch(`${fx.service.base}/log/receipts/${entry}`)).json();
  const text = openNote(full.checkpoint, serverKey);
  assert.ok(text, 'the checkpoint is signed by the log key');
  const [, size, rootB64] = text.split('\n');
  const leaf = leafHash(Buffer.from(full.entry, 'base64'));
  assert.equal(leaf.toString('hex'), entry);
  const proof = full.inclusion_proof.map((p) => Buffer.from(p, 'base64'));
  assert.equal(rootFromInclusion(full.leaf_index, Number(size), leaf, proof)?.toString('base64'), rootB64);
  // The receipt signs the root of its batch; the entry is in that batch.
  const receiptText = openNote(full.signature, serverKey);
  assert.ok(receiptText, 'the receipt is signed by the log key');
  const [header, , batchSize, batchRoot] = receiptText.split('\n');
  assert.equal(header, 'fairseed receipts v1');
  const batchProof = full.batch_proof.map((p) => Buffer.from(p, 'base64'));
  assert.equal(rootFromInclusion(full.batch_index, Number(batchSize), leaf, batchProof)?.toString('base64'), batchRoot,
    'the entry is in the signed batch');
  sequencedReceipt = full;
  // The page kept a checkpoint at least as large as the one the receipt's proof leads to.
  const kept = await page.evaluate(() => localStorage.getItem('fairseed.log_checkpoint'));
  assert.ok(Number(openNote(kept, serverKey).split('\n')[1]) >= Number(size));

  // A rotation carries two receipts (the reveal and the new hash); both reach the log.
  await page.click('#tab-seeds');
  await page.click('#s-rotate');
  await page.waitForSelector('#s-reveal .reveal.ok');
  await page.waitForFunction(() => {
    const b = [...document.querySelectorAll('#s-reveal .log-badge')];
    return b.length === 2 && b.every((x) => x.dataset.state === 'in');
  }, null, { timeout: 30000 });
  assert.deepEqual(await page.$$eval('#s-reveal .log-badge summary', (s) => s.map((x) => x.textContent).sort()), ['hash · in the log', 'reveal · in the log']);
  // The new current hash shows the receipt of its own entry, checked too.
  await page.waitForSelector('#s-commitment-receipt .log-badge[data-state="in"]', { timeout: 30000 });
  const current = await page.getAttribute('#s-commitment-receipt .log-badge', 'data-entry');
  const rotated = await page.$$eval('#s-reveal .log-badge', (b) => b.map((x) => x.dataset.entry));
  assert.ok(rotated.includes(current), 'the current hash\'s receipt is of the entry the rotation committed');
  assert.match(await page.textContent('#log-kept'), /^\d+ entries, signed by the key$/);
  await shot(page, 'receipts-seeds-panel');
  assert.deepEqual(await violations(page), [], 'seeds with the log panel');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the Table tab checks the receipts of the session\'s commitment and of each hand\'s commit', { skip, timeout: 90_000 }, async () => {
  const page = await newPage(fx.browser, { width: 1280, height: 900 });
  await open(page, '/#table');
  await page.click('#tb-open');
  await page.waitForSelector('#tb-deal .deal-badge');
  await page.waitForFunction(() => {
    const b = [...document.querySelectorAll('#tb-receipts .log-badge')];
    return b.length >= 2 && b.every((x) => x.dataset.state === 'in');
  }, null, { timeout: 45_000 });
  // Read at one moment: the badges are replaced when a new hand starts.
  const seen = await page.evaluate(() => ({
    hashes: [...document.querySelectorAll('#tb-receipts .log-badge')].map((x) => x.dataset.entry),
    session: document.querySelector('#tb-session-commit')?.textContent,
    hand: document.querySelector('#tb-deal .badge-pop code')?.textContent,
  }));
  assert.match(seen.session, /^[0-9a-f]{64}$/);
  assert.match(seen.hand, /^[0-9a-f]{64}$/);
  const entries = await page.evaluate(async (list) => Promise.all(list.map(async (hash) => (await (await fetch(`/log/receipts/${hash}`)).json()).entry)), seen.hashes);
  const texts = entries.map((e) => Buffer.from(e, 'base64').toString('latin1'));
  assert.ok(texts.length >= 2, 'the session\'s and the hand\'s (and, between hands, the last hand\'s seed)');
  assert.ok(texts.some((x) => x.includes(seen.session)), 'a badge is of the session commitment\'s entry');
  assert.ok(texts.some((x) => x.includes(seen.hand)), 'a badge is of the hand commit\'s entry');
  await shot(page, 'receipts-table');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('checkpoints that are not consistent raise the alarm, with both notes to download', { skip }, async () => {
  const key = testKey('test.example/log');
  const entries = (tag, n) => Array.from({ length: n }, (_, i) => leafHash(`${tag} ${i}`));
  const honest = entries('honest', 9);
  const forked = [...honest.slice(0, 4), ...entries('forked', 7)];
  let served = { leaves: honest.slice(0, 5) };
  const tileRequests = [];
  const page = await newPage(fx.browser, { width: 1280, height: 900 });
  // The test key stands in for the log's: the page pins it on first sight.
  await page.route('**/log/**', (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/log/key') return route.fulfill({ contentType: 'text/plain', body: `${key.vkey}\n` });
    if (path === '/log/checkpoint') return route.fulfill({ contentType: 'text/plain', body: key.checkpoint(served.leaves) });
    const m = /^\/log\/tile\/0\/000\.p\/(\d+)$/.exec(path);
    if (m && Number(m[1]) <= served.leaves.length) {
      tileRequests.push(path);
      return route.fulfill({ contentType: 'application/octet-stream', body: Buffer.concat(served.leaves.slice(0, Number(m[1]))) });
    }
    return route.fulfill({ status: 404, contentType: 'application/json', body: '{"code":"not_found","message":"no such tile"}' });
  });
  await open(page);
  await page.waitForSelector('#log-status[data-state="ok"]', { state: 'attached' });
  assert.equal(await page.evaluate(() => localStorage.getItem('fairseed.log_key')), key.vkey);
  const first = key.checkpoint(served.leaves);
  assert.equal(await page.evaluate(() => localStorage.getItem('fairseed.log_checkpoint')), first);

  // A larger checkpoint that extends it: consistent, read from the tile, kept.
  served = { leaves: honest };
  await open(page);
  await page.waitForSelector('#log-status[data-state="ok"]', { state: 'attached' });
  assert.deepEqual(tileRequests, ['/log/tile/0/000.p/9']);
  const second = key.checkpoint(honest);
  assert.equal(await page.evaluate(() => localStorage.getItem('fairseed.log_checkpoint')), second);
  assert.equal(await page.isHidden('#log-alarm'), true);

  // A fork: eleven entries whose first nine are not the nine kept.
  served = { leaves: forked };
  await open(page);
  await page.waitForSelector('#log-alarm:not([hidden])');
  await page.waitForSelector('#log-status[data-state="alarm"]', { state: 'attached' });
  assert.match(await page.textContent('#log-alarm h2'), /two histories/);
  assert.match(await page.textContent('#log-alarm'), /Kept: 9 entries; seen: 11 entries/);
  // The evidence: both signed notes, byte for byte, each still opening with the key.
  for (const [id, want] of [['#log-evidence-kept', second], ['#log-evidence-seen', key.checkpoint(forked)]]) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(id)]);
    const got = readFileSync(await download.path(), 'utf8');
    assert.equal(got, want, id);
    assert.ok(openNote(got, key.vkey), `${id} is a signed note of the key`);
  }
  // The kept checkpoint is not replaced by the one that contradicts it.
  assert.equal(await page.evaluate(() => localStorage.getItem('fairseed.log_checkpoint')), second);
  await shot(page, 'receipts-alarm', { fullPage: false });
  assert.deepEqual(await violations(page), [], 'the alarm');

  // Same size, another root: a fork without any tile.
  served = { leaves: [...honest.slice(0, 8), leafHash('other')] };
  await open(page);
  await page.waitForSelector('#log-alarm:not([hidden])');
  assert.match(await page.textContent('#log-alarm'), /two roots for tree size 9/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('witnesses required: N valid cosignatures from listed keys, else the requirement shows unmet', { skip }, async () => {
  const key = testKey('test.example/log');
  const [a, b] = [testWitness('witness.example/a'), testWitness('witness.example/b')];
  const leaves = Array.from({ length: 5 }, (_, i) => leafHash(`entry ${i}`));
  const cosigned = a.cosign(key.checkpoint(leaves));
  const page = await newPage(fx.browser, { width: 1280, height: 900 });
  await page.route('**/log/**', (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === '/log/key') return route.fulfill({ contentType: 'text/plain', body: `${key.vkey}\n` });
    if (url.pathname === '/log/checkpoint') return route.fulfill({ contentType: 'text/plain', body: cosigned });
    if (url.pathname === '/log/checkpoint/cosigned' && Number(url.searchParams.get('min')) <= 1) {
      return route.fulfill({ contentType: 'text/plain', body: cosigned });
    }
    return route.fulfill({ status: 404, contentType: 'application/json', body: '{"code":"not_found","message":"cosigned checkpoint not found"}' });
  });
  await open(page);
  await page.waitForSelector('#log-status[data-state="ok"]', { state: 'attached' });
  assert.equal(await page.textContent('#log-witnesses'), 'none required');

  const require = async (keys, min) => {
    // The log panel and its settings are on the Seeds tab.
    await page.click('#tab-seeds');
    await page.evaluate(() => { document.querySelector('#log-witness-settings').open = true; });
    await page.fill('#log-witness-keys', keys.join('\n'));
    await page.fill('#log-witness-min', String(min));
    await page.click('#log-witness-save');
    await page.waitForFunction((n) => JSON.parse(localStorage.getItem('fairseed.log_witnesses') || '{}').min === n, min);
    await open(page);
    await page.waitForSelector('#log-status:not([data-state="checking"])', { state: 'attached' });
    return { state: await page.getAttribute('#log-status', 'data-state'), met: await page.getAttribute('#log-witnesses', 'data-met'), text: await page.textContent('#log-witnesses') };
  };
  // The right key, N = 1: accepted.
  assert.deepEqual(await require([a.vkey], 1), { state: 'ok', met: 'true', text: '1 of 1 required cosignatures, on the checkpoint of 5 entries' });
  await page.click('#tab-seeds');
  await page.evaluate(() => { document.querySelector('#log-witness-settings').open = true; });
  await page.locator('#log-witness-save').scrollIntoViewIfNeeded();
  await shot(page, 'receipts-witnesses-met', { fullPage: false });
  assert.deepEqual(await violations(page), [], 'the witness settings');
  // Another witness's key: the line by `a` does not count.
  assert.deepEqual(await require([b.vkey], 1), { state: 'unwitnessed', met: 'false', text: 'Requirement not met: 0 valid cosignatures of 1 required' });
  // Both keys, N = 2: one cosignature is not enough, and none cosigned by two is served.
  assert.deepEqual(await require([a.vkey, b.vkey], 2), { state: 'unwitnessed', met: 'false', text: 'Requirement not met: 1 valid cosignatures of 2 required' });
  // A line that does not verify counts for nothing: a's line moved onto another checkpoint.
  const forged = key.checkpoint(leaves.slice(0, 4)) + cosigned.slice(cosigned.lastIndexOf('\u2014 witness.example/a'));
  assert.equal(await page.evaluate(async ([note, vkey]) => {
    const w = await import('/js/witnesses.js');
    return w.countCosignatures(note, [await w.cosignerKey(vkey)]);
  }, [forged, a.vkey]), 0);
  await page.click('#tab-seeds');
  await page.locator('#log-witnesses').scrollIntoViewIfNeeded();
  await shot(page, 'receipts-witnesses-unmet', { fullPage: false });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the offline verifier checks a receipt with the network off', { skip }, async () => {
  assert.ok(sequencedReceipt, 'the first test kept a sequenced receipt');
  const page = await newPage(fx.browser, { width: 390, height: 844 });
  const requests = [];
  page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url()); });
  await page.goto(pathToFileURL(join(WEB, 'fairseed-verifier.html')).href);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  const check = async (receipt, key, checkpoint = '') => {
    await page.fill('#r-receipt', typeof receipt === 'string' ? receipt : JSON.stringify(receipt));
    await page.fill('#r-key', key);
    await page.fill('#r-checkpoint', checkpoint);
    await page.click('#r-go');
    await page.waitForSelector('#r-verdict');
    return { ok: await page.getAttribute('#r-verdict', 'data-ok'), failed: await page.getAttribute('#r-verdict', 'data-failed'), text: await page.textContent('#r-verdict') };
  };
  const good = await check(sequencedReceipt, serverKey, sequencedReceipt.checkpoint);
  assert.equal(good.ok, 'true', good.text);
  assert.match(good.text, new RegExp(`entry ${sequencedReceipt.leaf_index} of the tree`));
  await shot(page, 'receipts-offline-ok');
  // The downloaded form, {key, receipt}, with the key field left empty.
  assert.equal((await check({ key: serverKey, receipt: sequencedReceipt }, '')).ok, 'true');
  // A flipped bit in the proof, in the entry; another checkpoint; another key.
  const proof = [...sequencedReceipt.inclusion_proof];
  if (proof.length) {
    const h = Buffer.from(proof[0], 'base64');
    h[0] ^= 1;
    proof[0] = h.toString('base64');
    assert.equal((await check({ ...sequencedReceipt, inclusion_proof: proof }, serverKey)).failed, 'inclusion');
  }
  const entry = Buffer.from(sequencedReceipt.entry, 'base64');
  entry[entry.length - 1] ^= 1;
  assert.equal((await check({ ...sequencedReceipt, entry: entry.toString('base64') }, serverKey)).failed, 'entry');
  assert.equal((await check(sequencedReceipt, testKey('other.example/log').vkey)).failed, 'signature');
  const bad = await check(sequencedReceipt, serverKey, sequencedReceipt.checkpoint.replace(/\n\d+\n/, '\n1\n'));
  assert.equal(bad.failed, 'checkpoint');
  await shot(page, 'receipts-offline-failed');
  // Witnesses listed: their cosignatures on the receipt's checkpoint are counted against N.
  const witnessed = async (receipt, keys, min = '') => {
    await page.fill('#r-witnesses', keys.join('\n'));
    await page.fill('#r-min', String(min));
    await check(receipt, serverKey);
    return { ok: await page.getAttribute('#r-witnessed', 'data-ok'), text: await page.textContent('#r-witnessed') };
  };
  const one = testWitness('witness.example/one');
  const two = testWitness('witness.example/two');
  const cosigned = { ...sequencedReceipt, checkpoint: one.cosign(sequencedReceipt.checkpoint) };
  let w = await witnessed(cosigned, [one.vkey]);
  assert.equal(w.ok, 'true', w.text);
  assert.match(w.text, /^1 of the 1 listed witnesses cosigned/);
  await shot(page, 'receipts-offline-witnessed');
  w = await witnessed(cosigned, [one.vkey, two.vkey]);
  assert.equal(w.ok, 'false', 'every listed witness is required by default');
  assert.match(w.text, /^1 of the 2 listed/);
  assert.equal((await witnessed(cosigned, [one.vkey, two.vkey], 1)).ok, 'true');
  assert.equal((await witnessed(sequencedReceipt, [one.vkey])).ok, 'false', 'no cosignature');
  // A cosignature of another checkpoint, moved onto this one, counts for nothing.
  const other = one.cosign(sequencedReceipt.checkpoint.replace(/\n\d+\n/, '\n1\n'));
  const moved = `${sequencedReceipt.checkpoint}${other.slice(other.lastIndexOf('\u2014 witness.example/one'))}`;
  assert.match((await witnessed({ ...sequencedReceipt, checkpoint: moved }, [one.vkey])).text, /^0 of the 1/);
  assert.equal((await witnessed(cosigned, ['not a key'])).ok, 'false');
  await page.fill('#r-witnesses', '');
  await page.fill('#r-min', '');
  assert.deepEqual(await violations(page), [], 'offline receipt form');
  assert.deepEqual(requests, [], 'no request leaves the offline verifier');
  assert.deepEqual(page.errors, []);
  await page.close();
});
