// rune-animation: rune's skeletal animation runtime compiled to WebAssembly.
// loadRune() instantiates the module once; a Library is a loaded .rune
// asset (rig, clips, meshes); a Character plays it. Views returned by a
// character (localPose, modelPositions, skinningMatrices, curves) are
// zero-copy Float32Arrays into the module's memory, valid until the
// character's next update. Errors throw RuneError with rune's message.
import createRuneModule from './dist/rune_wasm.mjs';

export class RuneError extends Error {
  constructor(message) {
    super(message);
    this.name = 'RuneError';
  }
}

const SIGNAL_KINDS = ['marker', 'loop', 'stopped'];
const SIGNAL_BYTES = 20; // rjs_signal: kind, source, name, value, time

async function wasmBytes(options) {
  if (options.wasmBinary) return options.wasmBinary;
  const url = options.wasmUrl ?? new URL('./dist/rune_wasm.wasm', import.meta.url);
  if (typeof process === 'object' && process.versions?.node && String(url).startsWith('file:')) {
    const { readFile } = await import('node:fs/promises');
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new RuneError(`rune: cannot fetch ${url}: ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Instantiates the WebAssembly module. options.wasmUrl (or wasmBinary)
 * overrides where the .wasm comes from. */
export async function loadRune(options = {}) {
  const M = await createRuneModule({ wasmBinary: await wasmBytes(options) });
  return new Rune(M);
}

class Rune {
  constructor(M) {
    this._M = M;
  }

  _string(ptr) {
    return this._M.UTF8ToString(ptr);
  }

  _fail() {
    throw new RuneError(this._string(this._M._rjs_error()));
  }

  _f32(ptr, count) {
    return new Float32Array(this._M.HEAPF32.buffer, ptr, count);
  }

  // Calls a module function with its string arguments copied into the
  // module's memory for the call.
  _call(fn, ...args) {
    const M = this._M, strings = [];
    const cargs = args.map((a) => {
      if (typeof a !== 'string') return a;
      const bytes = M.lengthBytesUTF8(a) + 1, ptr = M._malloc(bytes);
      M.stringToUTF8(a, ptr, bytes);
      strings.push(ptr);
      return ptr;
    });
    try {
      return fn(...cargs);
    } finally {
      strings.forEach((p) => M._free(p));
    }
  }

  /** A library from a .rune file's bytes (Uint8Array or ArrayBuffer). */
  loadAsset(bytes) {
    const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    const M = this._M;
    const ptr = M._malloc(data.length || 1);
    if (!ptr) throw new RuneError('rune: out of memory');
    M.HEAPU8.set(data, ptr);
    const lib = M._rjs_lib_load(ptr, data.length);
    M._free(ptr);
    if (!lib) this._fail();
    return new Library(this, lib);
  }

  /** Updates every character by dt seconds in one call. */
  updateAll(characters, dt) {
    const M = this._M;
    const ptr = M._malloc(4 * characters.length || 4);
    characters.forEach((c, i) => {
      M.HEAPU32[(ptr >> 2) + i] = c._live();
    });
    const ok = M._rjs_update_all(ptr, characters.length, dt);
    M._free(ptr);
    if (!ok) this._fail();
  }
}

class Library {
  constructor(rune, ptr) {
    this._rune = rune;
    this._ptr = ptr;
    const M = rune._M;
    const list = (count, name) => Array.from({ length: count }, (_, i) => rune._string(name(ptr, i)));
    /** Joint ids in rig order, as `rune eval` prints them ("Parent/Part"). */
    this.joints = list(M._rjs_lib_joint_count(ptr), M._rjs_lib_joint_name);
    /** Each joint's own name (its part) and parent index (-1 for a root). */
    this.parts = list(this.joints.length, M._rjs_lib_joint_part);
    this.parents = this.joints.map((_, i) => M._rjs_lib_joint_parent(ptr, i));
    this.clips = list(M._rjs_lib_clip_count(ptr), M._rjs_lib_clip_id);
    this.graphs = list(M._rjs_lib_graph_count(ptr), M._rjs_lib_graph_id);
    this.curves = list(M._rjs_lib_curve_count(ptr), M._rjs_lib_curve_name);
    /** The rig's height at rest (model-space extent, rig units). */
    this.height = M._rjs_lib_rig_height(ptr);
    this._characters = new Set();
  }

  _live() {
    if (!this._ptr) throw new RuneError('rune: the library was destroyed');
    return this._ptr;
  }

  /** A clip's length in seconds. */
  clipLength(id) {
    return this._rune._M._rjs_lib_clip_length(this._live(), this._clip(id));
  }

  _clip(id) {
    const i = this.clips.indexOf(id);
    if (i < 0) throw new RuneError(`rune: unknown clip "${id}" (clips: ${this.clips.join(', ')})`);
    return i;
  }

  /** Adds a graph, described as the scenario format describes one
   * (docs/scenario.md, "Graphs"): {id, params: [{name, type, value}],
   * layers: [{name, blend, weight, initial, states: [{name, motion (a clip
   * id), speed, sync}], transitions: [{from, to, duration, blend,
   * exit_time, interruptible, conditions: [{param, op, value}]}]}]}.
   * Names resolve here; an unknown one throws naming where it is. */
  addGraph(desc) {
    const rune = this._rune, M = rune._M, lib = this._live();
    const where = `graph "${desc?.id}"`;
    if (!desc || typeof desc.id !== 'string' || !desc.id) throw new RuneError('graph: "id" is required');
    if (this.graphs.includes(desc.id)) throw new RuneError(`${where}: a graph of that id exists`);
    const call = (fn, ...args) => rune._call(fn, ...args);
    M._rjs_graph_begin(lib);
    let done = false;
    try {
      const params = new Map();
      (desc.params ?? []).forEach((p, i) => {
        const type = PARAM_TYPES.indexOf(p.type ?? 'float');
        if (type < 0) throw new RuneError(`${where}: params[${i}].type: "${p.type}" (expected ${PARAM_TYPES.join(', ')})`);
        const index = call(M._rjs_graph_param, lib, String(p.name), type, Number(p.value ?? 0));
        if (index < 0) rune._fail();
        params.set(p.name, { index, type: PARAM_TYPES[type] });
      });
      (desc.layers ?? []).forEach((layer, li) => {
        const at = `${where}: layers[${li}]`;
        const states = (layer.states ?? []).map((st) => st.name);
        const state = (name, key) => {
          const i = states.indexOf(name);
          if (i < 0) throw new RuneError(`${at}.${key}: unknown state "${name}" (states: ${states.join(', ')})`);
          return i;
        };
        const initial = layer.initial === undefined ? 0 : state(layer.initial, 'initial');
        call(M._rjs_graph_layer, lib, String(layer.name ?? ''), layer.blend === 'additive' ? 1 : 0,
          Number(layer.weight ?? 1), initial);
        const syncs = [];
        (layer.states ?? []).forEach((st, si) => {
          const clip = this.clips.indexOf(st.motion);
          if (clip < 0) throw new RuneError(`${at}.states[${si}].motion: unknown clip "${st.motion}"`);
          let sync = -1;
          if (st.sync !== undefined) {
            sync = syncs.indexOf(st.sync);
            if (sync < 0) sync = syncs.push(st.sync) - 1;
          }
          if (!call(M._rjs_graph_state, lib, String(st.name), clip, Number(st.speed ?? 1), sync)) rune._fail();
        });
        (layer.transitions ?? []).forEach((tr, ti) => {
          const from = tr.from === 'any' ? -1 : state(tr.from, `transitions[${ti}].from`);
          const to = state(tr.to, `transitions[${ti}].to`);
          const hasExit = tr.exit_time !== undefined;
          call(M._rjs_graph_transition, lib, from, to, Number(tr.duration ?? 0), blendOf(tr.blend), hasExit ? 1 : 0,
            hasExit ? Number(tr.exit_time) : 0, tr.interruptible === false ? 0 : 1);
          (tr.conditions ?? []).forEach((c, ci) => {
            const p = params.get(c.param);
            const here = `${at}.transitions[${ti}].conditions[${ci}]`;
            if (!p) throw new RuneError(`${here}.param: unknown parameter "${c.param}"`);
            const op = p.type === 'trigger' ? OPS.length : c.op === undefined ? OPS.indexOf('==') : OPS.indexOf(c.op);
            if (op < 0) throw new RuneError(`${here}.op: "${c.op}" (expected ${OPS.join(' ')})`);
            const value = c.value === undefined ? 1 : Number(c.value);
            call(M._rjs_graph_condition, lib, p.index, op, value);
          });
        });
      });
      const index = call(M._rjs_graph_end, lib, desc.id);
      done = true;
      if (index < 0) throw new RuneError(`${where}: ${rune._string(M._rjs_error())}`);
      this.graphs.push(desc.id);
      return index;
    } finally {
      if (!done) M._rjs_graph_begin(lib); // drops what was described
    }
  }

  /** A character of this library: the rest pose, nothing playing.
   * rootMotion: extract and remove root motion at the asset's root joint. */
  createCharacter({ rootMotion = false } = {}) {
    const ptr = this._rune._M._rjs_char_create(this._live(), rootMotion ? 1 : 0);
    if (!ptr) this._rune._fail();
    const ch = new Character(this, ptr);
    this._characters.add(ch);
    return ch;
  }

  /** Frees the library and every character made from it. */
  destroy() {
    if (!this._ptr) return;
    for (const ch of this._characters) ch.destroy();
    this._rune._M._rjs_lib_destroy(this._ptr);
    this._ptr = 0;
  }
}

const BLENDS = { crossfade: 0, inertialize: 1 };
const PARAM_TYPES = ['float', 'int', 'bool', 'trigger'];
const OPS = ['>', '>=', '<', '<=', '==', '!=']; // rune_cond_op order; a trigger's test follows them

function blendOf(blend) {
  if (blend === undefined) return 0;
  if (!(blend in BLENDS)) throw new RuneError(`rune: unknown blend "${blend}" (expected "crossfade" or "inertialize")`);
  return BLENDS[blend];
}

class Character {
  constructor(lib, ptr) {
    this._lib = lib;
    this._ptr = ptr;
    this.joints = lib.joints.length;
  }

  _live() {
    if (!this._ptr) throw new RuneError('rune: the character was destroyed');
    return this._ptr;
  }

  get _M() {
    return this._lib._rune._M;
  }

  /** Plays a clip; returns its handle. fade (0.1 s), time (0), weight (1),
   * speed (1), blend ("crossfade" or "inertialize"). */
  play(id, { fade = 0.1, time = 0, weight = 1, speed = 1, blend } = {}) {
    const h = this._M._rjs_char_play(this._live(), this._lib._clip(id), fade, time, weight, speed, blendOf(blend));
    if (!h) this._lib._rune._fail();
    return h;
  }

  /** Fades a play out over fade seconds (0.1), or inertializes its stop. */
  stop(handle, { fade = 0.1, blend } = {}) {
    if (!this._M._rjs_char_stop(this._live(), handle, fade, blendOf(blend)))
      throw new RuneError(`rune: no live play with handle ${handle}`);
  }

  /** Starts a graph of the library; returns its handle. */
  startGraph(id, { fade = 0, weight = 1 } = {}) {
    const g = this._lib.graphs.indexOf(id);
    if (g < 0) throw new RuneError(`rune: unknown graph "${id}" (graphs: ${this._lib.graphs.join(', ') || 'none'})`);
    const h = this._M._rjs_char_start_graph(this._live(), g, fade, weight);
    if (!h) this._lib._rune._fail();
    return h;
  }

  _param(name, value, trigger) {
    const rune = this._lib._rune;
    if (!rune._call(this._M._rjs_char_set_param, this._live(), name, value, trigger ? 1 : 0)) rune._fail();
  }

  /** Sets a parameter of the character's graphs by name. */
  setParam(name, value) {
    this._param(name, Number(value), false);
  }

  /** Sets a trigger of the character's graphs by name. */
  trigger(name) {
    this._param(name, 0, true);
  }

  /** Advances every play by dt seconds and poses the character. */
  update(dt) {
    if (!this._M._rjs_char_update(this._live(), dt)) this._lib._rune._fail();
  }

  /** The local transforms bones take: {t, r, s}, 3, 4 (x, y, z, w) and
   * 3 floats a joint, each joint's model matrix relative to its parent's
   * (a root's in model space). The same arrays each call while the
   * module's memory stays put (it moves only when it grows). */
  localPose() {
    const M = this._M, p = this._live(), n = this.joints, rune = this._lib._rune;
    if (!M._rjs_char_local(p)) rune._fail();
    if (!this._pose || this._pose.t.buffer !== M.HEAPF32.buffer)
      this._pose = {
        t: rune._f32(M._rjs_char_local_t(p), 3 * n),
        r: rune._f32(M._rjs_char_local_r(p), 4 * n),
        s: rune._f32(M._rjs_char_local_s(p), 3 * n),
      };
    return this._pose;
  }

  /** Model-space joint positions, 3 floats a joint. */
  modelPositions() {
    const ptr = this._M._rjs_char_positions(this._live());
    if (!ptr) this._lib._rune._fail();
    return this._lib._rune._f32(ptr, 3 * this.joints);
  }

  /** Per joint, its model matrix times the inverse of its rest model
   * matrix (column-major, 16 floats a joint): the skinning matrix of a
   * mesh bound at the rig's rest pose. */
  skinningMatrices() {
    const ptr = this._M._rjs_char_skinning(this._live());
    if (!ptr) this._lib._rune._fail();
    return this._lib._rune._f32(ptr, 16 * this.joints);
  }

  /** The root travel of the last update: {dx, dz, yaw}. */
  rootDelta() {
    const v = this._lib._rune._f32(this._M._rjs_char_root(this._live()), 3);
    return { dx: v[0], dz: v[1], yaw: v[2] };
  }

  /** The composed float curves, in library.curves order. */
  curves() {
    const M = this._M, p = this._live();
    const n = M._rjs_char_curve_count(p);
    return n ? this._lib._rune._f32(M._rjs_char_curve_values(p), n) : new Float32Array(0);
  }

  /** The signals of the last update: {kind, handle, name, value, time}. */
  signals() {
    const M = this._M, p = this._live(), rune = this._lib._rune;
    const n = M._rjs_char_signal_count(p), base = M._rjs_char_signals(p);
    const out = [];
    for (let i = 0; i < n; i++) {
      const at = base + i * SIGNAL_BYTES;
      out.push({
        kind: SIGNAL_KINDS[M.HEAP32[at >> 2]] ?? String(M.HEAP32[at >> 2]),
        handle: M.HEAPU32[(at + 4) >> 2],
        name: rune._string(M.HEAPU32[(at + 8) >> 2]),
        value: rune._string(M.HEAPU32[(at + 12) >> 2]),
        time: M.HEAPF32[(at + 16) >> 2],
      });
    }
    return out;
  }

  /** Frees the character; calls on it throw from then on. */
  destroy() {
    if (!this._ptr) return;
    this._M._rjs_char_destroy(this._ptr);
    this._lib._characters.delete(this);
    this._ptr = 0;
  }
}
