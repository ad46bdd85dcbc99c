// rune-animation/three: drives a three.js skeleton with a rune character.
// RuneSkeleton binds the library's joints to bones by name (a THREE.Skeleton,
// or any Object3D holding bones, such as a loaded glTF's scene); apply()
// writes the character's local transforms into the bones after each
// ch.update(dt), so SkinnedMeshes render rune's pose. Joints without a
// bone are skipped (bound / unbound say which). A root joint's transform is
// in rune's model space, which is the target's (the glTF scene's): its bone
// takes it through whatever lies between (an armature's rotation and
// scale). `rune import` names a glTF
// node without a name "nodes[i]": given the GLTFLoader result (gltf), such
// joints bind to the object loaded from node i.
const sanitize = (name) => name.replace(/\s/g, '_').replace(/[\[\].:\/]/g, '');

export class RuneSkeleton {
  /** character: from library.createCharacter(); target: THREE.Skeleton or
   * Object3D; options.gltf: the GLTFLoader result the target comes from. */
  constructor(character, target, { gltf } = {}) {
    this.character = character;
    const lib = character._lib;
    const bones = new Map();
    const add = (o) => {
      if (o && o.name && !bones.has(o.name)) bones.set(o.name, o);
    };
    if (target.isSkeleton) target.bones.forEach(add);
    else target.traverse((o) => (o.isBone || o.type === 'Object3D' || o.isObject3D) && add(o));
    const byNode = new Map();
    if (gltf?.parser?.associations)
      for (const [object, where] of gltf.parser.associations)
        if (object.isObject3D && where?.nodes !== undefined) byNode.set(where.nodes, object);
    const unnamed = (part) => {
      const m = /^nodes\[(\d+)\]$/.exec(part);
      return m ? byNode.get(Number(m[1])) : undefined;
    };
    /** bone per joint index (null where none has the joint's name) */
    this.bones = lib.parts.map((part) => bones.get(part) ?? bones.get(sanitize(part)) ?? unnamed(part) ?? null);
    this.bound = lib.parts.filter((_, j) => this.bones[j]);
    this.target = target.isSkeleton ? null : target;
    /** joints whose bone hangs below objects rune's rig does not have */
    this.roots = this.bones.map((bone, j) => bone && lib.parents[j] < 0 && bone.parent && bone.parent !== this.target);
    this.unbound = lib.parts.filter((_, j) => !this.bones[j]);
  }

  /** Writes the last update's local pose into the bound bones. */
  apply() {
    const { t, r, s } = this.character.localPose();
    this.bones.forEach((bone, j) => {
      if (!bone) return;
      bone.position.fromArray(t, 3 * j);
      bone.quaternion.fromArray(r, 4 * j);
      bone.scale.fromArray(s, 3 * j);
      if (this.roots[j]) this._root(bone);
    });
  }

  // A root joint's bone: from the model space (the target's) into its
  // parent's, through the objects in between.
  _root(bone) {
    const M4 = bone.matrix.constructor;
    this._m ??= { want: new M4(), between: new M4(), inverse: new M4() };
    const { want, between, inverse } = this._m;
    want.compose(bone.position, bone.quaternion, bone.scale);
    bone.parent.updateWorldMatrix(true, false);
    between.copy(bone.parent.matrixWorld);
    if (this.target) {
      this.target.updateWorldMatrix(true, false);
      between.premultiply(inverse.copy(this.target.matrixWorld).invert());
    }
    want.premultiply(inverse.copy(between).invert());
    want.decompose(bone.position, bone.quaternion, bone.scale);
  }
}
