// The three.js adapter with three.js r187 (tests/reference, installed by
// ./setup.sh --dev): a glTF character loaded by GLTFLoader, its bones driven
// by RuneSkeleton from the .rune `rune import` made of the same file; each
// bone's world position equals the character's model position (1e-5 of
// the rig's height) at every frame, and the clip turns the bones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadRune } from '../index.js';
import { RuneSkeleton } from '../three.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const runeBin = join(root, 'build', 'rune');
const threeDir = join(root, 'tests', 'reference', 'node_modules', 'three');
const gltfFile = '/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf';

test('RuneSkeleton drives a GLTFLoader skeleton to rune\'s model positions', async (t) => {
  if (!existsSync(runeBin) || !existsSync(gltfFile) || !existsSync(threeDir))
    return t.skip('needs build/rune, assimp-testmodels and three.js (./setup.sh --dev)');
  const THREE = await import(pathToFileURL(join(threeDir, 'build', 'three.module.js')));
  const { GLTFLoader } = await import(pathToFileURL(join(threeDir, 'examples', 'jsm', 'loaders', 'GLTFLoader.js')));
  globalThis.ProgressEvent ??= class ProgressEvent extends Event {};
  const gltf = await new Promise((ok, fail) => new GLTFLoader().parse(readFileSync(gltfFile, 'utf8'), '', ok, fail));

  const dir = mkdtempSync(join(tmpdir(), 'rune-js-'));
  execFileSync(runeBin, ['import', gltfFile, '-o', dir, '--force', '--quiet']);
  const rune = await loadRune();
  const lib = rune.loadAsset(readFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith('.rune')))));
  const ch = lib.createCharacter();
  ch.play(lib.clips[0], { fade: 0 });
  const rig = new RuneSkeleton(ch, gltf.scene, { gltf });
  assert.ok(rig.bound.length >= 2, `bound: ${rig.bound}, unbound: ${rig.unbound}`);

  const world = new THREE.Vector3(), turn = new THREE.Quaternion();
  const tol = 1e-5 * lib.height;
  let moved = 0;
  const first = [];
  for (let f = 0; f < 30; f++) {
    ch.update(1 / 30);
    rig.apply();
    gltf.scene.updateMatrixWorld(true);
    const m = ch.modelPositions();
    rig.bones.forEach((bone, j) => {
      if (!bone) return;
      bone.getWorldPosition(world);
      const d = Math.hypot(world.x - m[3 * j], world.y - m[3 * j + 1], world.z - m[3 * j + 2]);
      assert.ok(d <= tol, `frame ${f} ${lib.joints[j]}: ${d} from rune's model position`);
      bone.getWorldQuaternion(turn);
      if (f === 0) first[j] = turn.clone();
      else moved = Math.max(moved, turn.angleTo(first[j]));
    });
  }
  assert.ok(moved > 0.1, `the clip turns the bones (${moved} rad)`);
  lib.destroy();
});
