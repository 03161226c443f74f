// Checks the page's JavaScript against its JSDoc types: `tsc --noEmit` with
// web/jsconfig.json (checkJs on, no build step; the page ships as written),
// then with web/jsconfig.strict.json (`strict` on) for the modules listed
// there — the table (its tab, round, seat, deal, hand list and badge
// modules, the hand records in words) and the message types —
// whose errors alone fail that pass (what they import is checked by the first).
// The socket and HTTP message types (js/wire-types.js) must be what
// tools/wire-types.mjs makes from the service's schemas.
// web/pkg/fairseed_wasm.js is wasm-bindgen's generated glue, not ours: its
// own findings are listed but do not fail the check; the page's calls into it
// are checked against web/types/pkg/fairseed_wasm.d.ts.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(web, 'node_modules/typescript/bin/tsc');
const run = spawnSync(process.execPath, [tsc, '--checkJs', '--noEmit', '-p', join(web, 'jsconfig.json')], { cwd: web, encoding: 'utf8' });
const lines = `${run.stdout}${run.stderr}`.split('\n').filter((l) => /error TS\d+/.test(l));
const current = spawnSync(process.execPath, [join(web, 'tools/wire-types.mjs'), '--check'], { cwd: web, encoding: 'utf8' });
if (current.status !== 0) {
  console.error(current.stderr || current.stdout);
  process.exit(1);
}
const strictFiles = JSON.parse(readFileSync(join(web, 'jsconfig.strict.json'), 'utf8')).include.filter((f) => f.endsWith('.js'));
const strictRun = spawnSync(process.execPath, [tsc, '--checkJs', '--noEmit', '-p', join(web, 'jsconfig.strict.json')], { cwd: web, encoding: 'utf8' });
const strictLines = `${strictRun.stdout}${strictRun.stderr}`.split('\n').filter((l) => /error TS\d+/.test(l) && strictFiles.some((f) => l.startsWith(`${f}(`)));
if (strictLines.length) {
  console.error(strictLines.join('\n'));
  console.error(`typecheck: ${strictLines.length} error(s) under strict in ${strictFiles.join(', ')}`);
  process.exit(1);
}
const generated = lines.filter((l) => l.startsWith('pkg/'));
const ours = lines.filter((l) => !l.startsWith('pkg/'));
if (generated.length) console.log(`typecheck: ${generated.length} finding(s) in the generated wasm glue (web/pkg), not ours`);
if (ours.length || (run.status !== 0 && !lines.length)) {
  console.error(ours.join('\n') || `${run.stdout}${run.stderr}`);
  console.error(`typecheck: ${ours.length} type error(s) in the page's JavaScript`);
  process.exit(1);
}
console.log(`typecheck: the page's JavaScript matches its JSDoc types (strict: ${strictFiles.length} modules)`);
