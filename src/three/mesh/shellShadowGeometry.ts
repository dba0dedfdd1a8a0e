import { BufferAttribute, BufferGeometry, DynamicDrawUsage } from 'three'
import { blendPoseInto, type PoseOutputs } from '../../core/animation/blendPoseInto.js'
import type { MD2Pose } from '../../core/animation/pose.js'
import type { MD2ModelData } from '../../core/format/types.js'
import { POWERSUIT_SCALE } from '../../core/lighting/quake2Light.js'
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
