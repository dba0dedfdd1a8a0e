import { ANORMS, NUM_VERTEX_NORMALS } from '../format/normals.js'

/** Yaw steps of Quake II's light table: one row per 22.5° of the model's yaw. */
export const SHADEDOT_QUANT = 16

/**
 * Quake II's `anormtab`: 16 yaw steps × 256 precomputed light factors (`shadedots`).
 *
 * Built here rather than pasted: for yaw step `r` the light comes from 45° above the horizon, turned
 * by −22.5° × r about Z; a normal facing it by `d` gets 1 + d, a normal facing away 1 + 0.3·d,
 * rounded to hundredths. This reproduces id's table entry for entry (0.70 to 1.99); columns 162–255 are 1.
 */
export const ANORMTAB: Float32Array = (() => {
  const table = new Float32Array(SHADEDOT_QUANT * 256).fill(1)
  const c = Math.SQRT1_2
  for (let r = 0; r < SHADEDOT_QUANT; r++) {
    const yaw = (-22.5 * r * Math.PI) / 180
    const lx = c * Math.cos(yaw)
    const ly = c * Math.sin(yaw)
    for (let i = 0; i < NUM_VERTEX_NORMALS; i++) {
      const d = ANORMS[i * 3]! * lx + ANORMS[i * 3 + 1]! * ly + ANORMS[i * 3 + 2]! * c
      const shade = d > 0 ? 1 + d : 1 + 0.3 * d
      table[r * 256 + i] = Math.round(shade * 100) / 100
    }
  }
  return table
})()

/**
 * How far (in yaw steps) `shadeDotsRow` moves the step count away from zero before truncating it. Quake II's
 * yaw is an exact angle; here it is read back from a matrix, which puts a multiple of 22.5° a rounding error to
 * either side of it, and the CPU's `atan2` (double) and a GPU's `atan` (single) round it differently: moved on by
 * 1/10,000 of a step (0.002°), both land on the step the angle names. The shaders use the same.
 */
export const SHADEDOT_NUDGE = 1e-4

/**
 * The light table row for a yaw in degrees: Quake II's `(int)(yaw × 16 / 360) & 15`, the step count moved
 * `SHADEDOT_NUDGE` away from zero first.
 */
export function shadeDotsRow(yawDegrees: number): number {
  const steps = (yawDegrees * SHADEDOT_QUANT) / 360
  return Math.trunc(steps < 0 ? steps - SHADEDOT_NUDGE : steps + SHADEDOT_NUDGE) & (SHADEDOT_QUANT - 1)
}

/** The 256 light factors for a model seen at `yawDegrees` (Quake II: `anormtab[(int)(yaw·16/360) & 15]`). */
export function shadeDots(yawDegrees: number): Float32Array {
  const row = shadeDotsRow(yawDegrees)
  return ANORMTAB.subarray(row * 256, row * 256 + 256)
}
