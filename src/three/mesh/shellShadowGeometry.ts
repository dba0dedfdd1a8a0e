import { BufferAttribute, BufferGeometry, DynamicDrawUsage, type Object3D } from 'three'
import { blendPoseInto, type PoseOutputs } from '../../core/animation/blendPoseInto.js'
import type { MD2Pose } from '../../core/animation/pose.js'
import type { MD2ModelData } from '../../core/format/types.js'
import { POWERSUIT_SCALE, shadowVector } from '../../core/lighting/quake2Light.js'
import { getMD2RenderData, setPoseCopyWriter } from './MD2Geometry.js'

/**
 * A power shell's geometry for one instance: its own position buffer (written by `writeMD2Pose`
 * with the body's), the model's shared index, and the all-frames bounds grown by the shell's offset.
 */
export function createMD2ShellGeometry(model: MD2ModelData): BufferGeometry {
  return createCopyGeometry(model, 'shell', POWERSUIT_SCALE)
}

/**
 * A blob shadow's geometry for one instance: its own position buffer (written by `writeMD2Pose`),
 * the shared index; never culled on its own (it is drawn where its model is).
 */
export function createMD2ShadowGeometry(model: MD2ModelData): BufferGeometry {
  return createCopyGeometry(model, 'shadow', 0)
}

function createCopyGeometry(model: MD2ModelData, kind: string, margin: number): BufferGeometry {
  const data = getMD2RenderData(model)
  const geometry = new BufferGeometry()
  geometry.name = `${model.name ?? 'md2'} ${kind}`
  geometry.setIndex(data.index)
  geometry.setAttribute('position', new BufferAttribute(new Float32Array(data.layout.vertexCount * 3), 3).setUsage(DynamicDrawUsage))
  geometry.boundingBox = data.boundingBox.clone().expandByScalar(margin)
  geometry.boundingSphere = data.boundingSphere.clone()
  geometry.boundingSphere.radius += margin
  // writeMD2Pose finds the kernel that fills this geometry here: the body's path does not import it.
  setPoseCopyWriter(geometry, writeWithCopies)
  return geometry
}

/** The body and its copies in one pass, the shell at Quake II's offset. */
function writeWithCopies(model: MD2ModelData, pose: Readonly<MD2Pose>, outputs: PoseOutputs): void {
  outputs.shellOffset = POWERSUIT_SCALE
  blendPoseInto(model, pose, outputs)
}

/**
 * A blob shadow's place for one frame (`WriteMD2PoseOptions.shadow.parameters`): the shade vector for the
 * yaw of `body` (the model's mesh, its world matrix current) and the model origin's height above the floor in
 * model units, the floor being `floor` in world units or else the lowest point of any frame. Returns whether
 * they changed (the shadow must be written again even when the pose did not).
 */
export function placeBlobShadow(parameters: Float64Array, body: Object3D, model: MD2ModelData, floor: number | undefined): boolean {
  const e = body.matrixWorld.elements
  const x = parameters[0]
  const y = parameters[1]
  const height = parameters[2]
  parameters[3] = (Math.atan2(e[8]!, e[10]!) * 180) / Math.PI
  shadowVector(parameters)
  const scaleY = Math.sqrt(e[4]! * e[4]! + e[5]! * e[5]! + e[6]! * e[6]!) || 1
  parameters[2] = floor === undefined ? -getMD2RenderData(model).boundingBox.min.y : (e[13]! - floor) / scaleY
  return x !== parameters[0] || y !== parameters[1] || height !== parameters[2]
}
