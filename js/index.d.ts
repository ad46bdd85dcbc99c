// Types of rune-animation (index.js).

export class RuneError extends Error {}

export interface LoadOptions {
  /** Where the .wasm is (default: dist/rune_wasm.wasm beside index.js). */
  wasmUrl?: string | URL;
  /** The .wasm's bytes, when the caller has them. */
  wasmBinary?: ArrayBuffer | Uint8Array;
}

/** Instantiates the WebAssembly module. */
export function loadRune(options?: LoadOptions): Promise<Rune>;

export interface Rune {
  /** A library from a .rune file's bytes; throws RuneError on a bad file. */
  loadAsset(bytes: Uint8Array | ArrayBuffer): Library;
  /** Updates every character by dt seconds in one call. */
  updateAll(characters: Character[], dt: number): void;
}

export interface Library {
  /** Joint ids in rig order, as `rune eval` prints them ("Parent/Part"). */
  readonly joints: string[];
  /** Each joint's own name. */
  readonly parts: string[];
  /** Each joint's parent index, -1 for a root. */
  readonly parents: number[];
  readonly clips: string[];
  readonly graphs: string[];
  readonly curves: string[];
  /** The rig's height at rest, in rig units. */
  readonly height: number;
  clipLength(id: string): number;
  /** Adds a graph described as the scenario format describes one
   * (docs/scenario.md, "Graphs"); states play clips by id. Returns its index. */
  addGraph(desc: GraphDesc): number;
  createCharacter(options?: { rootMotion?: boolean }): Character;
  /** Frees the library and every character made from it. */
  destroy(): void;
}

export type Blend = 'crossfade' | 'inertialize';

export interface GraphDesc {
  id: string;
  params?: { name: string; type?: 'float' | 'int' | 'bool' | 'trigger'; value?: number | boolean }[];
  layers: {
    name?: string;
    blend?: 'override' | 'additive';
    weight?: number;
    /** the state it starts in (default: the first) */
    initial?: string;
    states: { name: string; motion: string; speed?: number; sync?: string }[];
    transitions?: {
      /** a state name, or "any" */
      from: string;
      to: string;
      duration?: number;
      blend?: Blend;
      exit_time?: number;
      interruptible?: boolean;
      /** all must hold; a trigger needs no op */
      conditions?: { param: string; op?: '>' | '>=' | '<' | '<=' | '==' | '!='; value?: number | boolean }[];
    }[];
  }[];
}

export interface PlayOptions {
  /** Seconds to reach the weight (default 0.1), or the inertialization's blend time. */
  fade?: number;
  /** Start time in the clip, seconds (default 0). */
  time?: number;
  weight?: number;
  speed?: number;
  blend?: Blend;
}

export interface LocalPose {
  /** 3 floats a joint: translation. */
  t: Float32Array;
  /** 4 floats a joint: rotation quaternion x, y, z, w. */
  r: Float32Array;
  /** 3 floats a joint: scale. */
  s: Float32Array;
}

export interface Signal {
  kind: 'marker' | 'loop' | 'stopped';
  /** The handle of the play that raised it. */
  handle: number;
  name: string;
  value: string;
  time: number;
}

/** Views (Float32Array) are zero-copy into the module's memory and valid
 * until the character's next update. */
export interface Character {
  readonly joints: number;
  play(clip: string, options?: PlayOptions): number;
  stop(handle: number, options?: { fade?: number; blend?: Blend }): void;
  startGraph(graph: string, options?: { fade?: number; weight?: number }): number;
  setParam(name: string, value: number | boolean): void;
  trigger(name: string): void;
  update(dt: number): void;
  /** Local transforms: each joint's model matrix relative to its parent's (a root's in model space). */
  localPose(): LocalPose;
  /** 3 floats a joint, model space. */
  modelPositions(): Float32Array;
  /** 16 floats a joint, column-major: model matrix times the inverse rest model matrix. */
  skinningMatrices(): Float32Array;
  rootDelta(): { dx: number; dz: number; yaw: number };
  curves(): Float32Array;
  signals(): Signal[];
  destroy(): void;
}
