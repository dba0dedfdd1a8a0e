import type { InstancedInterleavedBuffer, InstancedMesh } from 'three'
import type { CrowdClock } from '../../core/animation/CrowdClock.js'
import type { MD2ModelData } from '../../core/format/types.js'
import type { CrowdInstances } from './gpu/CrowdInstances.js'
import type { CrowdLink } from './CrowdLink.js'
import type { CrowdRenderer } from './gpu/CrowdRenderer.js'
import type { InstanceRowWriter } from './gpu/instanceRows.js'
import type { MD2CrowdBase } from './MD2CrowdBase.js'
import type { CrowdLooks } from './CrowdLooks.js'

/** A crowd's parts that following, the looks and the posed rows read and change. */
export interface CrowdParts {
  /** The crowd: its world matrix, instance matrices and `count`. */
  mesh: InstancedMesh
  model: MD2ModelData
  instances: CrowdInstances
  clock: CrowdClock
  renderer: CrowdRenderer
  /** Its rows (`attachInstanceData`), and what writes them stored. */
  data: InstancedInterleavedBuffer
  rows: InstanceRowWriter
  /** Lit as Quake II lit it (`lighting: "quake2"`): each row, stored or posed, carries its instance's shadelight. */
  quake2: boolean
  /** Its shells, shadows and Quake II light (`MD2Crowd`'s; none in a crowd made without the looks' code). */
  looks: CrowdLooks | undefined
  /** Its place in a chain of followers, made by `followCrowd` the first time it follows or leads. */
  link: CrowdLink | undefined
}

/**
 * Whether a crowd is drawn from its instances' poses, written every frame, for a reason of its own rather than
 * its leader's: it blends its poses in a compute pass, its poses are the CPU's (`pose`: asked, or a renderer
 * drawing in software), or it holds more instances than WebGPURenderer's WebGL2
 * backend draws (`drawLimit`: the first ones in view are drawn, so slots cannot be instances). Quake II light,
 * shells and shadows are no reason: each layer's stored rows are copies of the crowd's, written when an instance
 * is told something (`CrowdLayer.storeRow`; a follower's when its leader's instance is, as it wears that
 * instance's looks too), and the shader does the rest.
 */
export function posedOnItsOwn({ renderer }: CrowdParts): boolean {
  return renderer.decode === 'compute' || renderer.posesOnCpu || renderer.drawLimit < renderer.capacity
}

/**
 * Each crowd's parts, where `followCrowd` finds them: the follower chain lives in its own module, so
 * that a crowd that never follows or leads does not ship it.
 */
export const crowdParts = new WeakMap<MD2CrowdBase, CrowdParts>()
