// The example page's script (index.html): loads the .rune and the glTF,
// describes a locomotion graph on the asset's clips (idle, walk and run
// when it has clips of those names, else its first clip at three
// speeds), binds the character to the glTF's skeleton and renders it;
// #status says "running: N frames" or the error that stopped it.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { loadRune } from 'rune-animation';
import { RuneSkeleton } from 'rune-animation/three';

const status = document.getElementById('status');
const fail = (e) => {
  status.textContent = `error: ${e?.message ?? e}`;
  console.error(e);
};
window.addEventListener('error', (e) => fail(e.error ?? e.message));
window.addEventListener('unhandledrejection', (e) => fail(e.reason));

const query = new URLSearchParams(location.search);
const runeUrl = query.get('rune') ?? '../../out/Xbot.rune';
const modelUrl = query.get('model') ?? '../../out/Xbot.glb';

async function main() {
  const rune = await loadRune();
  const bytes = new Uint8Array(await (await fetch(runeUrl)).arrayBuffer());
  const lib = rune.loadAsset(bytes);
  const pick = (name, i) => lib.clips.find((c) => c.toLowerCase().includes(name)) ?? lib.clips[Math.min(i, lib.clips.length - 1)];
  const named = ['idle', 'walk', 'run'].every((n) => lib.clips.some((c) => c.toLowerCase().includes(n)));
  const clip = (name, i) => (named ? pick(name, i) : lib.clips[0]);
  lib.addGraph({
    id: 'locomotion',
    params: [{ name: 'speed', type: 'float' }],
    layers: [{
      name: 'base',
      states: [
        { name: 'idle', motion: clip('idle', 0), speed: named ? 1 : 0.25 },
        { name: 'walk', motion: clip('walk', 1), speed: 1 },
        { name: 'run', motion: clip('run', 2), speed: named ? 1 : 2 },
      ],
      transitions: [
        { from: 'idle', to: 'walk', duration: 0.25, conditions: [{ param: 'speed', op: '>', value: 0.2 }] },
        { from: 'walk', to: 'idle', duration: 0.25, conditions: [{ param: 'speed', op: '<=', value: 0.2 }] },
        { from: 'walk', to: 'run', duration: 0.25, blend: 'inertialize', conditions: [{ param: 'speed', op: '>', value: 0.6 }] },
        { from: 'run', to: 'walk', duration: 0.25, blend: 'inertialize', conditions: [{ param: 'speed', op: '<=', value: 0.6 }] },
      ],
    }],
  });
  const gltf = await new GLTFLoader().loadAsync(modelUrl);
  const ch = lib.createCharacter();
  ch.startGraph('locomotion');
  const rig = new RuneSkeleton(ch, gltf.scene, { gltf });
  if (!rig.bound.length) throw new Error(`no bone of ${modelUrl} has a joint's name`);

  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xf3f3f5);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x8d8d8d, 3));
  const sun = new THREE.DirectionalLight(0xffffff, 2);
  sun.position.set(3, 10, 10);
  scene.add(sun, gltf.scene);
  const box = new THREE.Box3().setFromObject(gltf.scene);
  const size = box.getSize(new THREE.Vector3()).length() || 1, center = box.getCenter(new THREE.Vector3());
  const camera = new THREE.PerspectiveCamera(40, innerWidth / innerHeight, size / 100, size * 100);
  camera.position.copy(center).add(new THREE.Vector3(0.3, 0.15, 1.5).multiplyScalar(size));
  camera.lookAt(center);
  const renderer = new THREE.WebGLRenderer({ antialias: true });
  renderer.setSize(innerWidth, innerHeight);
  document.body.appendChild(renderer.domElement);

  const slider = document.getElementById('speed'), label = document.getElementById('state');
  const show = () => {
    const v = Number(slider.value);
    ch.setParam('speed', v);
    label.textContent = v > 0.6 ? 'run' : v > 0.2 ? 'walk' : 'idle';
  };
  slider.addEventListener('input', show);
  if (query.has('speed')) slider.value = query.get('speed');
  show();
  let frames = 0, last = performance.now();
  renderer.setAnimationLoop((now) => {
    // a frame's timestamp may precede the clock read at start: never a negative step
    ch.update(Math.min(0.1, Math.max(0, (now - last) / 1000)));
    last = now;
    rig.apply();
    renderer.render(scene, camera);
    status.textContent = `running: ${++frames} frames, ${rig.bound.length} bones`;
  });
}

main().catch(fail);
