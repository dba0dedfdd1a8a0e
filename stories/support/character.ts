/**
 * A high-poly humanoid built with three.js as Mixamo's characters are laid out: an armature scaled 0.01
 * (centimetres), a Mixamo-named skeleton (hips, spine, neck, head, arms, forearms, legs), two skinned
 * meshes (body and head, as Mixamo's characters come in several) with weights blended across the joints,
 * uvs in four atlas cells of the rig's texture, and three clips. `detail` sets the vertex count (1 gives
 * about 30,000): well past MD2's 2,048, the simplifier's work. Exported with the rig's `exportRig` (Node
 * and browser alike): the simplify tests, the convert bench and the Rigged character page use it.
 */
import {
  AnimationClip,
  Bone,
  BufferGeometry,
  CylinderGeometry,
  Float32BufferAttribute,
  Group,
  MeshStandardMaterial,
  Quaternion,
  QuaternionKeyframeTrack,
  Skeleton,
  SkinnedMesh,
  SphereGeometry,
  Uint16BufferAttribute,
  Vector3,
  VectorKeyframeTrack,
} from 'three'
import { mergeGeometries } from 'three/examples/jsm/utils/BufferGeometryUtils.js'

/** Mixamo's generic name for the one clip of each download. */
export const MIXAMO_CLIP = 'Armature|mixamo.com|Layer0'

const BONES = [
  ['mixamorigHips', '', [0, 95, 0]],
  ['mixamorigSpine', 'mixamorigHips', [0, 25, 0]],
  ['mixamorigNeck', 'mixamorigSpine', [0, 37, 0]],
  ['mixamorigHead', 'mixamorigNeck', [0, 8, 0]],
  ['mixamorigLeftArm', 'mixamorigSpine', [18, 28, 0]],
  ['mixamorigLeftForeArm', 'mixamorigLeftArm', [28, 0, 0]],
  ['mixamorigRightArm', 'mixamorigSpine', [-18, 28, 0]],
  ['mixamorigRightForeArm', 'mixamorigRightArm', [-28, 0, 0]],
  ['mixamorigLeftUpLeg', 'mixamorigHips', [10, -5, 0]],
  ['mixamorigLeftLeg', 'mixamorigLeftUpLeg', [0, -45, 0]],
  ['mixamorigRightUpLeg', 'mixamorigHips', [-10, -5, 0]],
  ['mixamorigRightLeg', 'mixamorigRightUpLeg', [0, -45, 0]],
] as const
type BoneName = (typeof BONES)[number][0]
const boneIndex = (name: BoneName) => BONES.findIndex(([bone]) => bone === name)

/**
 * A limb or trunk segment: its geometry in armature space, weighted from bone `a` to bone `b` across
 * `joint` (a coordinate along `axis`) over `width` centimetres; its uvs moved into an atlas cell.
 */
function segment(
  geometry: BufferGeometry,
  a: BoneName,
  b: BoneName,
  axis: 'x' | 'y',
  joint: number,
  width: number,
  cell: [number, number],
): BufferGeometry {
  const position = geometry.getAttribute('position')
  const uv = geometry.getAttribute('uv')
  const skinIndex: number[] = []
  const skinWeight: number[] = []
  for (let i = 0; i < position.count; i++) {
    const along = axis === 'x' ? Math.abs(position.getX(i)) : position.getY(i)
    const toward = axis === 'x' ? along - joint : joint - along
    const w = Math.min(1, Math.max(0, 0.5 + toward / width))
    skinIndex.push(boneIndex(a), boneIndex(b), 0, 0)
    skinWeight.push(1 - w, w, 0, 0)
    uv.setXY(i, cell[0] + uv.getX(i) * 0.5, cell[1] + uv.getY(i) * 0.5)
  }
  geometry.setAttribute('skinIndex', new Uint16BufferAttribute(skinIndex, 4))
  geometry.setAttribute('skinWeight', new Float32BufferAttribute(skinWeight, 4))
  return geometry
}

/** Where a segment bends: `segment`'s axis, joint, width and atlas cell. */
type Joint = [axis: 'x' | 'y', joint: number, width: number, cell: [number, number]]

export interface CharacterOptions {
  /** Scales every part's segment counts: 1 gives about 30,000 vertices, 0.3 about 3,000. */
  detail?: number
  /** Without the meshes: the skeleton alone, as Mixamo's "without skin" animation downloads. */
  skin?: boolean
  /** Bone names with this prefix instead of `mixamorig` (a skeleton that does not match). */
  prefix?: string
}

/** The character's scene and clips (Walk 1 s, Wave 0.8 s, Idle 0.6 s). */
export function buildCharacter(options: CharacterOptions = {}): { scene: Group; clips: AnimationClip[] } {
  const detail = options.detail ?? 1
  const n = (count: number) => Math.max(3, Math.round(count * detail))
  const rename = (name: string) => (options.prefix === undefined ? name : name.replace(/^mixamorig/, options.prefix))
  const scene = new Group()
  scene.name = 'Scene'
  const armature = new Group()
  armature.name = 'Armature'
  armature.scale.setScalar(0.01)
  scene.add(armature)
  const bones = new Map<string, Bone>()
  for (const [name, parent, at] of BONES) {
    const bone = new Bone()
    bone.name = rename(name)
    bone.position.fromArray(at)
    ;(parent ? bones.get(parent)! : armature).add(bone)
    bones.set(name, bone)
  }
  armature.updateMatrixWorld(true)

  if (options.skin !== false) {
    const cylinder = (radius: number, length: number, radial: number, rings: number) =>
      new CylinderGeometry(radius, radius * 0.8, length, radial, rings)
    // A left (1) or right (−1) limb, weighted from its upper bone to its lower one across the elbow or knee.
    const limb = (side: 1 | -1, [upper, lower]: [string, string], geometry: BufferGeometry, joint: Joint) => {
      const bone = (name: string) => `mixamorig${side > 0 ? 'Left' : 'Right'}${name}` as BoneName
      return segment(geometry, bone(upper), bone(lower), ...joint)
    }
    const arm = (side: 1 | -1) => {
      const geometry = cylinder(5, 56, n(48), n(64))
        .rotateZ((side * Math.PI) / 2)
        .translate(side * 46, 148, 0)
      return limb(side, ['Arm', 'ForeArm'], geometry, ['x', 46, 10, [0, 0.5]])
    }
    const leg = (side: 1 | -1) =>
      limb(side, ['UpLeg', 'Leg'], cylinder(7, 88, n(48), n(80)).translate(side * 10, 46, 0), ['y', 45, 12, [0.5, 0.5]])
    const torso = segment(
      new CylinderGeometry(18, 15, 62, n(96), n(60)).translate(0, 124, 0),
      'mixamorigHips',
      'mixamorigSpine',
      'y',
      118,
      24,
      [0, 0],
    )
    const material = new MeshStandardMaterial({ name: 'skin' })
    const skeleton = new Skeleton(BONES.map(([name]) => bones.get(name)!))
    const body = new SkinnedMesh(mergeGeometries([torso, arm(1), arm(-1), leg(1), leg(-1)])!, material)
    body.name = 'Body'
    const head = new SkinnedMesh(
      segment(new SphereGeometry(12, n(96), n(64)).translate(0, 172, 0), 'mixamorigNeck', 'mixamorigHead', 'y', 162, 6, [0.5, 0]),
      material,
    )
    head.name = 'Head'
    for (const mesh of [body, head]) {
      armature.add(mesh)
      mesh.bind(skeleton)
    }
  }

  const turn = (axis: Vector3, degrees: number) => new Quaternion().setFromAxisAngle(axis, (degrees * Math.PI) / 180).toArray()
  const X = new Vector3(1, 0, 0)
  const Y = new Vector3(0, 1, 0)
  const Z = new Vector3(0, 0, 1)
  const swing = (bone: BoneName, axis: Vector3, times: number[], degrees: number[]) =>
    new QuaternionKeyframeTrack(
      `${rename(bone)}.quaternion`,
      times,
      degrees.flatMap((d) => turn(axis, d)),
    )
  const clips = [
    new AnimationClip('Walk', 1, [
      swing('mixamorigLeftUpLeg', X, [0, 0.5, 1], [-25, 25, -25]),
      swing('mixamorigRightUpLeg', X, [0, 0.5, 1], [25, -25, 25]),
      swing('mixamorigLeftLeg', X, [0, 0.25, 0.5, 1], [0, 30, 0, 0]),
      swing('mixamorigRightLeg', X, [0, 0.5, 0.75, 1], [0, 0, 30, 0]),
      swing('mixamorigLeftArm', Y, [0, 0.5, 1], [20, -20, 20]),
      swing('mixamorigRightArm', Y, [0, 0.5, 1], [20, -20, 20]),
      new VectorKeyframeTrack(
        `${rename('mixamorigHips')}.position`,
        [0, 0.25, 0.5, 0.75, 1],
        [0, 95, 0, 0, 98, 0, 0, 95, 0, 0, 98, 0, 0, 95, 0],
      ),
    ]),
    new AnimationClip('Wave', 0.8, [
      swing('mixamorigRightArm', Z, [0, 0.4, 0.8], [0, -70, 0]),
      swing('mixamorigRightForeArm', Z, [0, 0.2, 0.4, 0.6, 0.8], [0, -40, 0, -40, 0]),
      swing('mixamorigHead', Y, [0, 0.8], [0, 20]),
    ]),
    new AnimationClip('Idle', 0.6, [
      swing('mixamorigSpine', X, [0, 0.3, 0.6], [0, 6, 0]),
      swing('mixamorigNeck', Z, [0, 0.3, 0.6], [0, 5, 0]),
    ]),
  ]
  return { scene, clips }
}
