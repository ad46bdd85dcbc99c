// Microseconds per character update, three.js r187's AnimationMixer against
// rune-animation, the same work in the same run: CMU 01_01 (38 joints, from
// Debian's assimp-testmodels), three plays of its clip at different times
// and weights cross-fading in and out, each frame's bone transforms
// written (three.js: the mixer into the bones; rune: update, then the
// local pose read). rune plays the clip with its exact keys, as three.js
// does (rune_us), and compressed (rune_compressed_us). One character, then
// a crowd of 1,000 a frame (ms a frame).
//   node js/bench/three-vs-rune.mjs [--json]
// Needs build/rune (./setup.sh) and three.js (./setup.sh --dev).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadRune } from '../index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bvh = '/usr/share/assimp/models/BVH/01_01.bvh';
const threeDir = join(root, 'tests', 'reference', 'node_modules', 'three');
const json = process.argv.includes('--json');
for (const need of [join(root, 'build', 'rune'), bvh, threeDir])
  if (!existsSync(need)) {
    console.error(`three-vs-rune: ${need} is missing (./setup.sh --dev)`);
    process.exit(2);
  }

const THREE = await import(pathToFileURL(join(threeDir, 'build', 'three.module.js')));
const { BVHLoader } = await import(pathToFileURL(join(threeDir, 'examples', 'jsm', 'loaders', 'BVHLoader.js')));
const rune = await loadRune();
function imported(args) {
  const dir = mkdtempSync(join(tmpdir(), 'rune-bench-'));
  execFileSync(join(root, 'build', 'rune'), ['import', bvh, '-o', dir, '--force', '--quiet', ...args]);
  return rune.loadAsset(readFileSync(join(dir, '01_01.rune')));
}
const exact = imported(['--lossless']), packed = imported([]);
let lib = exact;
const parsed = new BVHLoader().parse(readFileSync(bvh, 'utf8'));
const DT = 1 / 60, STARTS = [0, 5, 11], WEIGHTS = [1, 0.5, 0.25];

function threeCharacter() {
  const bones = parsed.skeleton.bones[0].clone(true);
  const mixer = new THREE.AnimationMixer(bones);
  // three actions of one clip on one root: each its own copy of the clip
  const actions = [];
  STARTS.forEach((t, i) => {
    const a = mixer.clipAction(parsed.clip.clone());
    a.time = t;
    a.setEffectiveWeight(WEIGHTS[i]);
    a.play();
    actions.push(a);
  });
  return { mixer, actions, frame: 0 };
}

function threeStep(c) {
  // every second, the lightest play fades out and back in
  if (++c.frame % 60 === 0) c.actions[2].fadeOut(0.25);
  if (c.frame % 60 === 30) c.actions[2].reset().setEffectiveWeight(WEIGHTS[2]).fadeIn(0.25);
  c.mixer.update(DT);
}

function runeCharacter() {
  const ch = lib.createCharacter();
  const handles = STARTS.map((t, i) => ch.play('01_01', { time: t, weight: WEIGHTS[i], fade: 0 }));
  return { ch, handles, frame: 0 };
}

function runeStep(c) {
  if (++c.frame % 60 === 0) c.ch.stop(c.handles[2], { fade: 0.25 });
  if (c.frame % 60 === 30) c.handles[2] = c.ch.play('01_01', { time: STARTS[2], weight: WEIGHTS[2], fade: 0.25 });
  c.ch.update(DT);
  c.ch.localPose();
}

function timeUs(count, make, step, frames) {
  const chars = Array.from({ length: count }, make);
  for (let f = 0; f < 30; f++) chars.forEach(step); // warm-up
  const samples = [];
  for (let round = 0; round < 5; round++) {
    const start = process.hrtime.bigint();
    for (let f = 0; f < frames; f++) chars.forEach(step);
    samples.push(Number(process.hrtime.bigint() - start) / 1e3 / (frames * count));
  }
  samples.sort((a, b) => a - b);
  return samples[2];
}

// alternated: three, rune (exact), rune (compressed), twice; each side's better median
const one = [], crowd = [];
const runeOn = (l, count, frames) => {
  lib = l;
  return timeUs(count, runeCharacter, runeStep, frames);
};
for (let k = 0; k < 2; k++) {
  one.push([timeUs(1, threeCharacter, threeStep, 300), runeOn(exact, 1, 300), runeOn(packed, 1, 300)]);
  crowd.push([timeUs(1000, threeCharacter, threeStep, 3), runeOn(exact, 1000, 3), runeOn(packed, 1000, 3)]);
}
const pick = (rows, i) => Math.min(...rows.map((r) => r[i]));
// us per character in a crowd of 1,000 = ms a frame
const out = {
  three_us: pick(one, 0),
  rune_us: pick(one, 1),
  rune_compressed_us: pick(one, 2),
  crowd_three_ms: pick(crowd, 0),
  crowd_rune_ms: pick(crowd, 1),
  crowd_rune_compressed_ms: pick(crowd, 2),
  joints: lib.joints.length,
  three: THREE.REVISION,
};
out.ratio = out.three_us / out.rune_us;
if (json) console.log(JSON.stringify(out));
else
  console.log(
    `CMU 01_01 (${out.joints} joints), 3 plays cross-fading, us per character update: three.js r${out.three} ` +
      `${out.three_us.toFixed(2)}, rune-animation ${out.rune_us.toFixed(2)} (three.js ${out.ratio.toFixed(1)}x slower), ` +
      `compressed ${out.rune_compressed_us.toFixed(2)}; 1,000 characters: ${out.crowd_three_ms.toFixed(2)} vs ` +
      `${out.crowd_rune_ms.toFixed(2)} ms a frame (compressed ${out.crowd_rune_compressed_ms.toFixed(2)})`,
  );
