// Where three.js r187 puts a file's joints: world positions of every
// node (glTF: GLTFLoader; BVH: BVHLoader's skeleton) while an
// AnimationMixer plays the named animation, at the given times. The check
// of `rune export` (tests/export_check.py) compares them with rune's.
//   usage: node three_joints.mjs FILE.glb|.gltf|.bvh CLIP T1,T2,... > joints.json
// (npm install in this folder: package.json pins three 0.187.0)
import fs from 'node:fs';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { BVHLoader } from 'three/examples/jsm/loaders/BVHLoader.js';

globalThis.ProgressEvent ??= class ProgressEvent extends Event {
  constructor(type, init = {}) { super(type); Object.assign(this, init); }
};

const [file, clipName, timesArg] = process.argv.slice(2);
const times = timesArg.split(',').map(Number);
let root, clip;
if (file.toLowerCase().endsWith('.bvh')) {
  const bvh = new BVHLoader().parse(fs.readFileSync(file, 'utf8'));
  root = new THREE.Group();
  root.add(bvh.skeleton.bones[0]);
  clip = bvh.clip;
} else {
  const bytes = fs.readFileSync(file);
  const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const gltf = await new Promise((ok, fail) => new GLTFLoader().parse(data, '', ok, fail));
  root = gltf.scene;
  clip = gltf.animations.find(a => a.name === clipName) || gltf.animations[0];
}
const mixer = new THREE.AnimationMixer(root);
if (clip) mixer.clipAction(clip).play();
const out = { times, joints: {} };
const v = new THREE.Vector3();
for (const t of times) {
  mixer.setTime(t);
  root.updateMatrixWorld(true);
  root.traverse(o => {
    if (o.isMesh || o === root) return;
    v.setFromMatrixPosition(o.matrixWorld);
    (out.joints[o.name] ??= []).push([v.x, v.y, v.z]);
  });
}
process.stdout.write(JSON.stringify(out) + '\n');
