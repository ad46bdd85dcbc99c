// The example page in headless Chromium: js/examples/index.html served
// over HTTP with a skinned glTF from Debian's assimp-testmodels and the
// .rune `rune import` makes of it; the page must run its locomotion graph
// (its #status says "running: N frames"), report no error, and draw (the
// screenshot is not a blank page). Skips without chromium, build/rune,
// the test models or three.js (./setup.sh --dev).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, statSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));
const runeBin = join(root, 'build', 'rune');
const gltf = '/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf';
const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
  '.json': 'application/json', '.gltf': 'model/gltf+json', '.rune': 'application/octet-stream' };

// the repository at /, the test's files at /assets/
function serve(assets) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = path.startsWith('/assets/') ? join(assets, normalize(path.slice(8))) : join(root, normalize(path));
    if (!file.startsWith(root) && !file.startsWith(assets)) return res.writeHead(403).end();
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

test('the example page runs the locomotion graph in Chromium', async (t) => {
  const three = join(root, 'tests', 'reference', 'node_modules', 'three');
  if (!chromium || !existsSync(runeBin) || !existsSync(gltf) || !existsSync(three))
    return t.skip('needs chromium, build/rune, assimp-testmodels and three.js (./setup.sh --dev)');
  const assets = mkdtempSync(join(tmpdir(), 'rune-page-'));
  execFileSync(runeBin, ['import', gltf, '-o', assets, '--force', '--quiet']);
  copyFileSync(gltf, join(assets, 'simple_skin.gltf'));
  const server = await serve(assets);
  const url = `http://127.0.0.1:${server.address().port}/js/examples/index.html?rune=/assets/simple_skin.rune` +
    '&model=/assets/simple_skin.gltf&speed=0.8';
  const shot = join(assets, 'page.png');
  const flags = (budget) => ['--headless', '--no-sandbox', '--use-gl=swiftshader', '--enable-unsafe-swiftshader',
    `--virtual-time-budget=${budget}`, '--window-size=800,600'];
  try {
    const run = promisify(execFile);
    // virtual time runs ahead while the page waits on its fetches: a busy
    // machine may end the budget before the page has loaded, so a page
    // still loading is asked again with a longer budget (an error is final)
    let status = '(no #status)', budget = 5000;
    for (let attempt = 0; attempt < 5; attempt++, budget *= 2) {
      const { stdout } = await run(chromium, [...flags(budget), '--dump-dom', url], { timeout: 120000, maxBuffer: 1 << 24 });
      status = /<div id="status">([^<]*)</.exec(stdout)?.[1] ?? '(no #status)';
      if (status !== 'loading') break;
    }
    assert.match(status, /^running: \d+ frames, 2 bones$/, `the page says: ${status}`);
    await run(chromium, [...flags(budget), `--screenshot=${shot}`, url], { timeout: 120000 });
    assert.ok(statSync(shot).size > 4000, 'the screenshot shows a drawing, not a blank page');
  } finally {
    server.close();
  }
});
