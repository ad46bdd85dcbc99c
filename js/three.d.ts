// Types of rune-animation/three (three.js).
import type { Object3D, Skeleton } from 'three';
import type { Character } from './index.js';

export class RuneSkeleton {
  /** options.gltf: the GLTFLoader result the target comes from (binds
   * joints `rune import` named "nodes[i]" to the objects of node i). */
  constructor(character: Character, target: Skeleton | Object3D, options?: { gltf?: unknown });
  readonly character: Character;
  /** The bone each joint drives, in rig order (null: no bone of that name). */
  readonly bones: (Object3D | null)[];
  /** Joint names with a bone, and without one. */
  readonly bound: string[];
  readonly unbound: string[];
  /** Writes the last update's local pose into the bound bones. */
  apply(): void;
}
