// Builds web/fairseed-verifier.html: the Verify tab, its modules, the
// stylesheet, the wasm-bindgen glue and the wasm itself (base64) in one file
// that works from file:// with the network off. A Content-Security-Policy of
// default-src 'none' makes "no request" a property of the file, not a promise.
//
// The bundler is deliberately tiny: it understands exactly the module forms
// this project writes (one-line `import … from '…'`, `export function|class|
// const`, and wasm-bindgen's `export { a, b as default }`) and fails loudly on
// anything else, so the output is deterministic and reviewable.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(web, 'js/offline.js');

const IMPORT = /^import\s+(.+?)\s+from\s+'([^']+)';\s*$/;
const EXPORT_DECL = /^export\s+((?:async\s+)?function\*?|class|const|let)\s+([A-Za-z_$][\w$]*)/;
const EXPORT_LIST = /^export\s*\{([^}]*)\};?\s*$/;

function transform(file) {
  const id = relative(web, file);
  const lines = readFileSync(file, 'utf8').split('\n');
  const deps = [];
  const exported = [];
  const out = lines.map((line) => {
    let m = IMPORT.exec(line);
    if (m) {
      const dep = resolve(dirname(file), m[2]);
      deps.push(dep);
      const key = JSON.stringify(relative(web, dep));
      const what = m[1].trim();
      if (what.startsWith('* as ')) return `const ${what.slice(5)} = __m[${key}];`;
      if (what.startsWith('{')) return `const ${what.replace(/\s+as\s+/g, ': ')} = __m[${key}];`;
      return `const ${what} = __m[${key}].default;`;
    }
    if (/^\s*import[\s{*]/.test(line) && !/^\s*import\.meta/.test(line)) throw new Error(`${id}: unsupported import: ${line}`);
    m = EXPORT_DECL.exec(line);
    if (m) {
      exported.push([m[2], m[2]]);
      return line.replace(/^export\s+/, '');
    }
    m = EXPORT_LIST.exec(line);
    if (m) {
      for (const part of m[1].split(',').map((s) => s.trim()).filter(Boolean)) {
        const [local, as] = part.split(/\s+as\s+/);
        exported.push([as || local, local]);
      }
      return '';
    }
    if (/^\s*export\s/.test(line)) throw new Error(`${id}: unsupported export: ${line}`);
    return line;
  });
  const names = exported.map(([as, local]) => `${JSON.stringify(as)}: ${local}`).join(', ');
  const code = `__m[${JSON.stringify(id)}] = (function () {\n${out.join('\n')}\nreturn { ${names} };\n})();\n`;
  return { id, deps, code };
}

// Depth-first, dependencies before dependants, each module once.
const order = [];
const seen = new Set();
function visit(file) {
  if (seen.has(file)) return;
  seen.add(file);
  const mod = transform(file);
  mod.deps.forEach(visit);
  order.push(mod);
}
visit(entry);

const wasmBytes = readFileSync(join(web, 'pkg/fairseed_wasm_bg.wasm'));
const css = readFileSync(join(web, 'style.css'), 'utf8');
const bundle = `const __m = {};\n${order.map((m) => `// ---- ${m.id}\n${m.code}`).join('')}`;
const safe = (s) => s.replace(/<\/(script|style)/gi, '<\\/$1');

const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; style-src 'unsafe-inline'; img-src data:">
<title>fairseed verifier</title>
<style>
${safe(css)}</style>
</head>
<body>
<header class="top">
  <div class="brand"><h1>fairseed verifier</h1><p id="tagline" class="muted small"></p></div>
  <div class="top-right"><div id="lang-switch"></div></div>
</header>
<main>
  <p id="notice" class="notice" role="alert" hidden></p>
  <section id="panel-verify" role="region" aria-label="verify"></section>
</main>
<script>globalThis.FAIRSEED_WASM_BASE64 = "${wasmBytes.toString('base64')}";</script>
<script type="module">
${safe(bundle)}</script>
</body>
</html>
`;
// The output: web/fairseed-verifier.html, or the path given (the glossary test builds a copy elsewhere).
writeFileSync(process.argv[2] ? resolve(process.argv[2]) : join(web, 'fairseed-verifier.html'), html);
console.log(`fairseed-verifier.html: ${order.length} modules, wasm ${wasmBytes.length} bytes, ${html.length} bytes total`);
