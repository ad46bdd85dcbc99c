// The package against the native build: the same .rune asset and the
// same plays give the model positions `rune eval --model --simd scalar`
// prints, within 1e-5 of the rig's height, every frame; on CMU 01_01 (compressed, from
// Debian's assimp-testmodels) and a skinned glTF character's clips.
// Skips (with a reason) when build/rune or the test models are missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRune } from '../index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const runeBin = join(root, 'build', 'rune');
const models = '/usr/share/assimp/models';

function imported(source, args = []) {
  const dir = mkdtempSync(join(tmpdir(), 'rune-js-'));
  execFileSync(runeBin, ['import', source, '-o', dir, '--force', '--quiet', ...args]);
  const file = readdirSync(dir).find((f) => f.endsWith('.rune'));
  return join(dir, file);
}

// the native scalar kernels: the wasm build compiles the same scalar
// source (wasm SIMD has no fused multiply-add)
function evalModel(asset, clip) {
  const out = execFileSync(runeBin, ['eval', asset, '--clip', clip, '--model', '--simd', 'scalar'], {
    maxBuffer: 1 << 30,
  });
  return JSON.parse(out).frames;
}

async function parity(t, source, maxClips, { args = [], tolerance = 1e-5 } = {}) {
  if (!existsSync(runeBin)) return t.skip('no build/rune (./setup.sh builds it)');
  if (!existsSync(source)) return t.skip(`no ${source} (assimp-testmodels)`);
  const asset = imported(source, args);
  const rune = await loadRune();
  const lib = rune.loadAsset(readFileSync(asset));
  const tol = tolerance * lib.height;
  let checked = 0;
  for (const clip of lib.clips.slice(0, maxClips)) {
    const frames = evalModel(asset, clip);
    const ch = lib.createCharacter({ rootMotion: true }); // rune eval plays an asset with root motion
    ch.play(clip, { fade: 0 });
    let worst = 0;
    for (const f of frames) {
      ch.update(1 / 30);
      const m = ch.modelPositions();
      lib.joints.forEach((id, j) => {
        const want = f.pose[id].m;
        for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(m[3 * j + c] - want[c]));
      });
      checked++;
    }
    assert.ok(worst <= tol, `${source} ${clip}: largest difference ${worst} > ${tol} (${tolerance} of the rig height)`);
    ch.destroy();
  }
  assert.ok(checked > 0);
  lib.destroy();
}

test('CMU 01_01 (exact keys) equals rune eval --model', (t) =>
  parity(t, `${models}/BVH/01_01.bvh`, 1, { args: ['--lossless'] }));
test('CMU 01_01 (compressed) equals rune eval --model', (t) =>
  parity(t, `${models}/BVH/01_01.bvh`, 1, { tolerance: 2e-5 }));
test('a skinned glTF character equals rune eval --model', (t) =>
  parity(t, `${models}/glTF2/simple_skin/simple_skin.gltf`, 4));
