import type { Object3D } from 'three'
import { blendPoseYUpLit, type LitBlendTarget } from '../../core/animation/blendVerticesLit.js'
import type { MD2BlendSource } from '../../core/animation/blendVertices.js'
import type { MD2Pose } from '../../core/animation/pose.js'
import { effectiveShadelight, quake2LightTable, type Quake2LightFlags } from '../../core/lighting/quake2Light.js'
import { SHADEDOT_NUDGE, SHADEDOT_QUANT } from '../../core/lighting/shadeDots.js'

export interface Quake2LightingOptions extends Quake2LightFlags {
  /** The light at the model's feet: one level for all channels, or RGB. */
  shadelight: number | readonly [number, number, number]
}

/**
 * One instance's Quake II light: the colour of each normal index for its current yaw row and
 * shadelight (`table`, read by the kernel), rebuilt only when the row, the light or a glow pulse
 * changes it. Nothing is allocated per frame. Give it to `writeMD2Pose(geometry, pose, { light })`, which
 * writes the pose's light into the geometry's `color` attribute (`createMD2Geometry(model, { colors: true })`)
 * with the lit kernels this brings.
 */
export class Quake2Lighting {
  /** 256 × 3 linear colours by normal index. */
  readonly table = new Float32Array(256 * 3)
  private readonly light = new Float64Array(3)
  private readonly shade = new Float64Array(3)
  private readonly built = new Float64Array(4).fill(Number.NaN)
  private flags: Quake2LightFlags = {}

  set(options: Quake2LightingOptions): void {
    const { shadelight } = options
    for (let c = 0; c < 3; c++) this.light[c] = typeof shadelight === 'number' ? shadelight : shadelight[c]!
    this.flags = options
  }

  /**
   * Brings the table up to date for `object`'s world yaw (its local +Z, the way the model faces, read
   * from its world matrix) at `clock.seconds`. Returns whether it changed. Allocates nothing.
   */
  update(object: Object3D, clock: { readonly seconds: number }): boolean {
    const e = object.matrixWorld.elements
    // shadeDotsRow's row, written out: V8 boxes a fractional number passed to a call it leaves out of line (and,
    // here, the negated constant `steps + (cond ? -NUDGE : NUDGE)` made: 94 bytes a frame for 40 models).
    const yaw = (Math.atan2(e[8]!, e[10]!) * 180) / Math.PI
    const steps = (yaw * SHADEDOT_QUANT) / 360
    const row = Math.trunc(steps < 0 ? steps - SHADEDOT_NUDGE : steps + SHADEDOT_NUDGE) & (SHADEDOT_QUANT - 1)
    const shade = effectiveShadelight(this.light, this.flags, clock, this.shade)
    const built = this.built
    if (built[0] === row && built[1] === shade[0] && built[2] === shade[1] && built[3] === shade[2]) return false
    built[0] = row
    built[1] = shade[0]!
    built[2] = shade[1]!
    built[3] = shade[2]!
    quake2LightTable(row, shade, true, this.table)
    return true
  }

  /** Writes `pose` and its light into `target` (`writeMD2Pose` calls it; its `colors` and `lightTable` are set). */
  writeLit(model: MD2BlendSource, pose: Readonly<MD2Pose>, target: Readonly<LitBlendTarget>): void {
    blendPoseYUpLit(model, pose, target)
  }
}
