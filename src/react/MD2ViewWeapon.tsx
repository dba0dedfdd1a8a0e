import { useFrame, useThree } from '@react-three/fiber'
import { forwardRef, useImperativeHandle, useRef } from 'react'
import { Matrix4, type Group, type Material, type Mesh, type Object3D } from 'three'
import { warnOnce } from '../core/warnOnce.js'
import { squeezeDepth } from '../three/materials/depthHack.js'
import { WEBGPU_IMPORT } from '../three/materials/webgpuMaterials.js'
import { MD2Model, type MD2ModelProps } from './MD2Model.js'

export interface MD2ViewWeaponProps extends Omit<MD2ModelProps, 'castShadow' | 'receiveShadow'> {
  /**
   * The player's hand (Quake II's `hand`): `"right"` (default), `"left"` mirrors the view across its
   * vertical axis (and so flips the triangles' winding, which three.js follows for a negative scale),
   * `"center"` hides the gun, as ref_gl does for `hand 2`.
   */
  hand?: 'right' | 'left' | 'center'
}

/**
 * The weapon in the player's hand (`RF_WEAPONMODEL | RF_DEPTHHACK`): an `<MD2Model>` that follows the
 * camera every frame, drawn with its depth squeezed into the nearest 30% of the depth range so it
 * never clips into walls. Takes `<MD2Model>`'s props (animation, controller, skin, lighting…); its
 * origin is the eye, as Quake II's `v_*.md2` view models are made. The ref is the group that follows
 * the camera. Works on both of three.js's renderers.
 */
export const MD2ViewWeapon = forwardRef<Group, MD2ViewWeaponProps>(function MD2ViewWeapon({ hand = 'right', ...props }, ref) {
  const camera = useThree((state) => state.camera)
  const onWebGPU = useThree((state) => (state.gl as { isWebGPURenderer?: boolean }).isWebGPURenderer === true)
  const follower = useRef<Group>(null)
  useImperativeHandle(ref, () => follower.current!, [])
  useFrame(() => {
    const group = follower.current
    if (!group) return
    camera.updateMatrixWorld()
    // The group's matrix, in its parent's space, that makes its matrixWorld the camera's: three before r166
    // overwrites a matrixWorld set directly (a parent's update forces its children's, matrixWorldAutoUpdate or not).
    const parent = group.parent
    if (parent) {
      parent.updateWorldMatrix(true, false)
      group.matrix.copy(parent.matrixWorld).invert().multiply(camera.matrixWorld)
    } else group.matrix.copy(camera.matrixWorld)
    // Quake's view models point along +X, which this library turns to +Z; the camera looks down −Z.
    group.matrix.multiply(hand === 'left' ? FACE_VIEW_LEFT : FACE_VIEW)
    // Now, for what reads the matrices before the draw.
    group.updateMatrixWorld(true)
    // New materials get the depth hack.
    group.traverse(onWebGPU ? patchMeshForWebGPU : patchMesh)
  })
  return (
    <group ref={follower} matrixAutoUpdate={false} visible={hand !== 'center'}>
      <MD2Model {...props} />
    </group>
  )
})

const FACE_VIEW = new Matrix4().makeRotationY(Math.PI)
/** Left-handed: the view mirrored across its vertical axis. */
const FACE_VIEW_LEFT = new Matrix4().makeScale(-1, 1, 1).multiply(FACE_VIEW)

function patchMesh(object: Object3D): void {
  if ((object as Mesh).isMesh) patch((object as Mesh).material, false)
}

function patchMeshForWebGPU(object: Object3D): void {
  if ((object as Mesh).isMesh) patch((object as Mesh).material, true)
}

const patched = new WeakSet<Material>()
/** Adds the depth hack to a material once (its shader is compiled with it from then on). */
function patch(material: Material | Material[], onWebGPU: boolean): void {
  for (const one of Array.isArray(material) ? material : [material]) {
    if (patched.has(one)) continue
    patched.add(one)
    if (!squeezeDepth(one) && onWebGPU)
      warnOnce(
        'view-weapon-webgpu',
        `<MD2ViewWeapon> on WebGPURenderer squeezes its depth (RF_DEPTHHACK) with three/tsl, which is not loaded: drawn without it, so it can clip into walls. Add \`${WEBGPU_IMPORT}\` once`,
      )
  }
}
