// Where three.js r187 puts a skinned character's vertices: the reference
// rune's skinning is checked against (tests/skin_check.py). Loads a glTF
// with GLTFLoader (buffers read from disk, images left out), plays its
// first animation with an AnimationMixer at the given times, and for each
// mesh takes Mesh.getVertexPosition (morphs, then skinning) times the
// mesh's world matrix, every N-th vertex.
//   usage: node three_skin.mjs FILE.gltf|.glb EVERY T1,T2,... > reference.json
// (npm install three@0.187.0 beside it; the output is committed.)
import fs from 'node:fs';
import path from 'node:path';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

// what FileLoader reports progress with, in a browser
globalThis.ProgressEvent ??= class ProgressEvent extends Event {
  constructor(type, init = {}) { super(type); Object.assign(this, init); }
};

const [file, everyArg, timesArg] = process.argv.slice(2);
const every = Number(everyArg), times = timesArg.split(',').map(Number);

// The glTF as JSON with its buffers inline and no images: Node has no
// image decoder, and positions do not depend on textures.
function document(file) {
  const bytes = fs.readFileSync(file);
  let json, bin = null;
  if (bytes.readUInt32LE(0) === 0x46546c67) { // GLB
    const jsonLength = bytes.readUInt32LE(12);
    json = JSON.parse(bytes.subarray(20, 20 + jsonLength).toString('utf8'));
    const at = 20 + jsonLength;
    if (at < bytes.length) bin = bytes.subarray(at + 8, at + 8 + bytes.readUInt32LE(at));
  } else {
    json = JSON.parse(bytes.toString('utf8'));
  }
  for (const b of json.buffers || []) {
    const data = b.uri === undefined ? bin
      : b.uri.startsWith('data:') ? Buffer.from(b.uri.split(',')[1], 'base64')
      : fs.readFileSync(path.join(path.dirname(file), decodeURIComponent(b.uri)));
    b.uri = 'data:application/octet-stream;base64,' + data.toString('base64');
  }
  delete json.images; delete json.textures; delete json.samplers;
  const untextured = o => {
    if (o && typeof o === 'object')
      for (const k of Object.keys(o)) if (k.endsWith('Texture')) delete o[k]; else untextured(o[k]);
  };
  untextured(json.materials);
  if (json.extensionsUsed) json.extensionsUsed = json.extensionsUsed.filter(e => e !== 'KHR_texture_transform');
  return JSON.stringify(json);
}

const gltf = await new Promise((ok, fail) => new GLTFLoader().parse(document(file), '', ok, fail));
const scene = gltf.scene;
const mixer = new THREE.AnimationMixer(scene);
if (gltf.animations.length) mixer.clipAction(gltf.animations[0]).play();
const meshes = [];
scene.traverse(o => { if (o.isMesh) meshes.push(o); });
const out = { file: path.basename(file), every, times, meshes: meshes.map(m => ({ name: m.name, vertex_count: m.geometry.attributes.position.count, frames: [] })) };
const v = new THREE.Vector3();
for (const t of times) {
  mixer.setTime(t);
  scene.updateMatrixWorld(true);
  meshes.forEach((m, i) => {
    const frame = [];
    for (let k = 0; k < m.geometry.attributes.position.count; k += every) {
      m.getVertexPosition(k, v);
      v.applyMatrix4(m.matrixWorld);
      frame.push([+v.x.toPrecision(9), +v.y.toPrecision(9), +v.z.toPrecision(9)]);
    }
    out.meshes[i].frames.push(frame);
  });
}
process.stdout.write(JSON.stringify(out) + '\n');
