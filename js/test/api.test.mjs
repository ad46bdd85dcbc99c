// The package's API contract: names, views, errors (bad bytes, unknown
// clip, a destroyed character), signals and batches, on a .rune made by
// `rune import` from Debian's assimp-testmodels (skipped without them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRune, RuneError } from '../index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const runeBin = join(root, 'build', 'rune');
const bvh = '/usr/share/assimp/models/BVH/01_01.bvh';

async function setup(t) {
  if (!existsSync(runeBin) || !existsSync(bvh)) {
    t.skip('needs build/rune and assimp-testmodels');
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), 'rune-js-'));
  execFileSync(runeBin, ['import', bvh, '-o', dir, '--force', '--quiet']);
  const rune = await loadRune();
  return { rune, bytes: readFileSync(join(dir, '01_01.rune')) };
}

test('names and views', async (t) => {
  const s = await setup(t);
  if (!s) return;
  const lib = s.rune.loadAsset(s.bytes);
  assert.deepEqual(lib.clips, ['01_01']);
  assert.equal(lib.joints.length, 38);
  assert.equal(lib.joints[0], 'Hips');
  assert.equal(lib.joints[1], 'Hips/LHipJoint');
  assert.equal(lib.parents[0], -1);
  assert.deepEqual(lib.graphs, []);
  assert.ok(lib.height > 0);
  const ch = lib.createCharacter({ rootMotion: true });
  const h = ch.play('01_01', { fade: 0 });
  assert.ok(h > 0);
  ch.update(1 / 30);
  const pose = ch.localPose();
  assert.equal(pose.t.length, 3 * 38);
  assert.equal(pose.r.length, 4 * 38);
  assert.equal(pose.s.length, 3 * 38);
  for (let j = 0; j < 38; j++) {
    const r = pose.r.subarray(4 * j, 4 * j + 4);
    assert.ok(Math.abs(Math.hypot(...r) - 1) < 1e-5, 'unit rotations');
  }
  const m = ch.modelPositions();
  assert.equal(m.length, 3 * 38);
  assert.ok(m.every(Number.isFinite));
  // the skinning matrix of the rest pose is the identity: at rest, model = rest
  const rest = lib.createCharacter();
  rest.update(0);
  const skin = rest.skinningMatrices();
  assert.equal(skin.length, 16 * 38);
  for (let j = 0; j < 38; j++)
    for (let e = 0; e < 16; e++) assert.ok(Math.abs(skin[16 * j + e] - (e % 5 === 0 ? 1 : 0)) < 1e-4);
  const d = ch.rootDelta();
  assert.ok(Number.isFinite(d.dx) && Number.isFinite(d.dz) && Number.isFinite(d.yaw));
  assert.equal(ch.curves().length, 0);
  lib.destroy();
});

test('errors throw with rune\'s message', async (t) => {
  const s = await setup(t);
  if (!s) return;
  assert.throws(() => s.rune.loadAsset(new Uint8Array([1, 2, 3])), RuneError);
  const broken = new Uint8Array(s.bytes);
  broken[100] ^= 0xff;
  assert.throws(() => s.rune.loadAsset(broken), /checksum|asset/);
  const lib = s.rune.loadAsset(s.bytes);
  const ch = lib.createCharacter();
  assert.throws(() => ch.play('walk'), /unknown clip "walk"/);
  assert.throws(() => ch.play('01_01', { blend: 'dissolve' }), /unknown blend/);
  assert.throws(() => ch.startGraph('locomotion'), /unknown graph/);
  assert.throws(() => ch.setParam('speed', 1), /no live graph has a parameter "speed"/);
  assert.throws(() => ch.stop(12345), /no live play/);
  assert.throws(() => ch.update(-1), /dt/);
  assert.throws(() => ch.update(NaN), /dt/);
  ch.destroy();
  assert.throws(() => ch.update(1 / 30), /destroyed/);
  assert.throws(() => ch.modelPositions(), /destroyed/);
  lib.destroy();
  assert.throws(() => lib.createCharacter(), /destroyed/);
});

test('signals, stop and inertialization, batches', async (t) => {
  const s = await setup(t);
  if (!s) return;
  const lib = s.rune.loadAsset(s.bytes);
  const a = lib.createCharacter(), b = lib.createCharacter();
  const ha = a.play('01_01', { fade: 0 });
  b.play('01_01', { fade: 0 });
  s.rune.updateAll([a, b], 1 / 30);
  assert.deepEqual(Array.from(a.modelPositions()), Array.from(b.modelPositions()));
  a.stop(ha, { fade: 0.1 });
  let stopped = [];
  for (let i = 0; i < 6 && !stopped.length; i++) {
    a.update(1 / 30);
    stopped = a.signals().filter((e) => e.kind === 'stopped');
  }
  assert.equal(stopped.length, 1);
  assert.equal(stopped[0].handle, ha);
  // an inertialized switch: no jump at the switch frame
  const c = lib.createCharacter();
  c.play('01_01', { fade: 0 });
  for (let i = 0; i < 30; i++) c.update(1 / 30);
  const before = Array.from(c.modelPositions());
  c.play('01_01', { fade: 0.3, time: 10, blend: 'inertialize' });
  c.update(1 / 30);
  const after = c.modelPositions();
  const step = Math.max(...before.map((v, i) => Math.abs(v - after[i])));
  assert.ok(step < 0.05 * lib.height, `step ${step}`);
  lib.destroy();
});

test('graphs described in JavaScript', async (t) => {
  const s = await setup(t);
  if (!s) return;
  const lib = s.rune.loadAsset(s.bytes);
  lib.addGraph({ id: 'one', layers: [{ name: 'base', states: [{ name: 'a', motion: '01_01' }] }] });
  lib.addGraph({
    id: 'locomotion',
    params: [{ name: 'speed', type: 'float' }, { name: 'jump', type: 'trigger' }],
    layers: [{
      name: 'base',
      initial: 'idle',
      states: [{ name: 'idle', motion: '01_01', speed: 0.5 }, { name: 'walk', motion: '01_01', speed: 1 },
        { name: 'run', motion: '01_01', speed: 2 }],
      transitions: [
        { from: 'idle', to: 'walk', duration: 0.2, conditions: [{ param: 'speed', op: '>', value: 0.3 }] },
        { from: 'walk', to: 'run', duration: 0.2, blend: 'inertialize', conditions: [{ param: 'speed', op: '>', value: 0.7 }] },
        { from: 'any', to: 'idle', duration: 0.1, conditions: [{ param: 'jump' }] },
      ],
    }],
  });
  assert.deepEqual(lib.graphs, ['one', 'locomotion']);
  // the same motion two ways: a one-state graph and a play of its clip
  // (the graph composes its layer onto an empty pose: the same to float rounding)
  const viaGraph = lib.createCharacter(), viaPlay = lib.createCharacter();
  viaGraph.startGraph('one');
  viaPlay.play('01_01', { fade: 0 });
  for (let f = 0; f < 40; f++) {
    viaGraph.update(1 / 30);
    viaPlay.update(1 / 30);
    const a = viaGraph.modelPositions(), b = viaPlay.modelPositions();
    a.forEach((v, i) => assert.ok(Math.abs(v - b[i]) <= 1e-6 * lib.height, `frame ${f}: ${v} vs ${b[i]}`));
  }
  // a parameter takes the graph through its states: the pose leaves the idle one's
  const idle = lib.createCharacter(), moving = lib.createCharacter();
  idle.startGraph('locomotion');
  moving.startGraph('locomotion');
  moving.setParam('speed', 1);
  let apart = 0;
  for (let f = 0; f < 60; f++) {
    idle.update(1 / 30);
    moving.update(1 / 30);
    const a = idle.modelPositions(), b = moving.modelPositions();
    apart = Math.max(apart, ...Array.from(a, (v, i) => Math.abs(v - b[i])));
    assert.ok(Array.from(b).every(Number.isFinite));
  }
  assert.ok(apart > 0.01 * lib.height);
  moving.trigger('jump');
  moving.update(1 / 30);
  assert.throws(() => moving.setParam('height', 1), /no live graph has a parameter "height"/);
  assert.throws(() => lib.addGraph({ id: 'bad', layers: [{ states: [{ name: 'a', motion: 'nope' }] }] }),
    /layers\[0\]\.states\[0\]\.motion: unknown clip "nope"/);
  assert.throws(() => lib.addGraph({ id: 'bad', layers: [{ states: [{ name: 'a', motion: '01_01' }],
    transitions: [{ from: 'a', to: 'b' }] }] }), /transitions\[0\]\.to: unknown state "b"/);
  assert.throws(() => lib.addGraph({ id: 'one' }), /exists/);
  assert.deepEqual(lib.graphs, ['one', 'locomotion']);
  lib.destroy();
});

// The same pose two ways: the local transforms localPose gives, composed
// down the hierarchy, are the model positions modelPositions gives.
function composedPositions(lib, pose) {
  const world = [];
  const mul = (a, b) => [ // quaternion product a b
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1], a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3], a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]];
  const turn = (q, v) => { // q v q^-1
    const p = mul(mul(q, [v[0], v[1], v[2], 0]), [-q[0], -q[1], -q[2], q[3]]);
    return [p[0], p[1], p[2]];
  };
  lib.parents.forEach((parent, j) => {
    const t = Array.from(pose.t.subarray(3 * j, 3 * j + 3)), r = Array.from(pose.r.subarray(4 * j, 4 * j + 4));
    const s = Array.from(pose.s.subarray(3 * j, 3 * j + 3));
    if (parent < 0) return (world[j] = { t, r, s });
    const P = world[parent];
    const scaled = [t[0] * P.s[0], t[1] * P.s[1], t[2] * P.s[2]], moved = turn(P.r, scaled);
    world[j] = { t: moved.map((v, i) => v + P.t[i]), r: mul(P.r, r), s: s.map((v, i) => v * P.s[i]) };
  });
  return world.map((w) => w.t);
}

test('localPose composes to modelPositions', async (t) => {
  const s = await setup(t);
  if (!s) return;
  const lib = s.rune.loadAsset(s.bytes);
  const ch = lib.createCharacter({ rootMotion: true });
  ch.play('01_01', { fade: 0 });
  for (let f = 0; f < 90; f++) {
    ch.update(1 / 30);
    const want = ch.modelPositions(), got = composedPositions(lib, ch.localPose());
    got.forEach((p, j) => p.forEach((v, c) => assert.ok(Math.abs(v - want[3 * j + c]) <= 1e-5 * lib.height,
      `frame ${f} ${lib.joints[j]}: ${v} vs ${want[3 * j + c]}`)));
  }
  lib.destroy();
});
