// The player page over https and its table over wss, in headless Chromium
// (playwright-core from web/node_modules): scripts/ops/browser_tls.sh starts
// the service with a test certificate and passes BASE and SPKI (the
// certificate's public key hash, which Chromium then trusts for this run
// only, through --ignore-certificate-errors-spki-list).
import { chromium } from '../../web/node_modules/playwright-core/index.mjs';

const { BASE, SPKI } = process.env;
const HAND_MS = 60_000;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', `--ignore-certificate-errors-spki-list=${SPKI}`],
});
try {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const sockets = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await page.goto(`${BASE}/#table`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: HAND_MS });
  if (await page.evaluate(() => location.protocol) !== 'https:') throw new Error('not served over https');
  console.log('ok - the page loads over https');
  await page.click('#tb-open');
  await page.waitForSelector('#tb-session-commit', { timeout: HAND_MS });
  await page.waitForSelector('#tb-table .felt[data-hand="1"]', { timeout: HAND_MS });
  if (!sockets.some((u) => u.startsWith('wss://'))) throw new Error(`no wss WebSocket: ${sockets}`);
  console.log('ok - a table opened and hand 1 was dealt over wss');
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
} finally {
  await browser.close();
}
