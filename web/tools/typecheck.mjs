// Checks the page's JavaScript against its JSDoc types: `tsc --noEmit` with
// web/jsconfig.json (checkJs on, no build step; the page ships as written).
// web/pkg/fairseed_wasm.js is wasm-bindgen's generated glue, not ours: its
// own findings are listed but do not fail the check; the page's calls into it
// are checked against web/types/pkg/fairseed_wasm.d.ts.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(web, 'node_modules/typescript/bin/tsc');
const run = spawnSync(process.execPath, [tsc, '--checkJs', '--noEmit', '-p', join(web, 'jsconfig.json')], { cwd: web, encoding: 'utf8' });
const lines = `${run.stdout}${run.stderr}`.split('\n').filter((l) => /error TS\d+/.test(l));
const generated = lines.filter((l) => l.startsWith('pkg/'));
const ours = lines.filter((l) => !l.startsWith('pkg/'));
if (generated.length) console.log(`typecheck: ${generated.length} finding(s) in the generated wasm glue (web/pkg), not ours`);
if (ours.length || (run.status !== 0 && !lines.length)) {
  console.error(ours.join('\n') || `${run.stdout}${run.stderr}`);
  console.error(`typecheck: ${ours.length} type error(s) in the page's JavaScript`);
  process.exit(1);
}
console.log('typecheck: the page\'s JavaScript matches its JSDoc types');
