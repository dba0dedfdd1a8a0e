import { ANORMTAB } from './shadeDots.js'

export { shadeDotsRow } from './shadeDots.js'

/**
 * Quake II's model lighting (ref_gl's R_DrawAliasModel and GL_DrawAliasFrameLerp): a vertex's colour
 * is `shadedots[n] × shadelight` per channel, clamped to [0, 1], where `shadedots` is the row of the
 * 16 × 256 light table for the entity's yaw and `n` the vertex's normal index in the frame being
 * blended towards.
 */
export interface Quake2LightFlags {
  /** RF_MINLIGHT: a shadelight whose channels are all ≤ 0.1 is raised to 0.1. */
  minlight?: boolean
  /** RF_FULLBRIGHT: shadelight 1. */
  fullbright?: boolean
  /** RF_GLOW: adds 0.1 × sin(7 t) per channel, never below 0.8 of the unpulsed value. */
  glow?: boolean
}

/** RF_GLOW: the pulse added to each channel is `GLOW_AMPLITUDE × sin(GLOW_RATE × seconds)`, never below `GLOW_FLOOR` × the channel. */
export const GLOW_AMPLITUDE = 0.1
export const GLOW_RATE = 7
export const GLOW_FLOOR = 0.8

/**
 * The shadelight the engine draws with: `light` (RGB at the model's feet) after the entity flags, at
 * `clock.seconds` (for the glow), written into `out`. (The time goes by reference: the per-frame path
 * passes no fractional number by value, which V8 boxes.)
 */
export function effectiveShadelight(
  light: ArrayLike<number>,
  flags: Quake2LightFlags,
  clock: { readonly seconds: number },
  out: Float64Array,
): Float64Array {
  const seconds = clock.seconds
  for (let c = 0; c < 3; c++) out[c] = flags.fullbright ? 1 : light[c]!
  if (flags.minlight && out[0]! <= 0.1 && out[1]! <= 0.1 && out[2]! <= 0.1) out[0] = out[1] = out[2] = 0.1
  if (flags.glow) {
    const pulse = GLOW_AMPLITUDE * Math.sin(seconds * GLOW_RATE)
    for (let c = 0; c < 3; c++) {
      const least = out[c]! * GLOW_FLOOR
      out[c] = Math.max(out[c]! + pulse, least)
    }
  }
  return out
}

/**
 * The colour of every normal index for one yaw row and shadelight, 3 floats per index (256 × 3), as
 * the per-frame kernel reads them: `min(1, shadedots[n] × shadelight[c])`, turned to linear light
 * when `linear` (three.js multiplies a texture decoded from sRGB by linear vertex colours; Quake II
 * multiplied the stored texel by the colour, which in linear terms is the colour decoded the same way).
 */
export function quake2LightTable(row: number, shadelight: ArrayLike<number>, linear: boolean, out: Float32Array): Float32Array {
  const base = row * 256
  for (let n = 0; n < 256; n++) {
    const dot = ANORMTAB[base + n]!
    for (let c = 0; c < 3; c++) {
      const value = Math.min(1, Math.max(0, dot * shadelight[c]!))
      // sRGB decoding, written out: this runs per frame for a glowing model, and a call would box the number.
      out[n * 3 + c] = !linear ? value : value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4
    }
  }
  return out
}

/** Quake II's power-up shells: the `RF_SHELL_*` flags, or an RGB colour. */
export type ShellKind = 'red' | 'green' | 'blue' | 'double' | 'half'
export type ShellSpec = ShellKind | readonly [number, number, number]

/** How far a shell stands off the model along its normals, in model units (`POWERSUIT_SCALE`). */
export const POWERSUIT_SCALE = 4

/** A shell's opacity (the client draws it `RF_TRANSLUCENT` at alpha 0.30). */
export const SHELL_ALPHA = 0.3

/**
 * The shell's colour for a set of shells, as R_DrawAliasModel sets the shadelight: half-damage
 * (0.56, 0.59, 0.45), then double-damage (0.9, 0.7, 0), then red, green and blue each set their channel
 * to 1 (quad damage is blue, invulnerability red, both magenta). An RGB entry is taken as given, last.
 */
export function shellColor(shells: ShellSpec | readonly ShellSpec[]): [number, number, number] {
  const list: readonly ShellSpec[] =
    typeof shells === 'string' || (shells.length === 3 && typeof shells[0] === 'number')
      ? [shells as ShellSpec]
      : (shells as readonly ShellSpec[])
  const color: [number, number, number] = [0, 0, 0]
  const has = (kind: ShellKind) => list.includes(kind)
  if (has('half')) color.splice(0, 3, 0.56, 0.59, 0.45)
  if (has('double')) {
    color[0] = 0.9
    color[1] = 0.7
  }
  if (has('red')) color[0] = 1
  if (has('green')) color[1] = 1
  if (has('blue')) color[2] = 1
  for (const entry of list) if (typeof entry !== 'string') color.splice(0, 3, entry[0], entry[1], entry[2])
  return color
}

/**
 * The shade vector of GL_DrawAliasShadow for the yaw in degrees held in `out[3]`:
 * normalize(cos(−yaw), sin(−yaw), 1), its x and y written into `out[0]`, `out[1]` (Quake axes, model
 * space). The yaw goes by reference, as the per-frame path needs.
 */
export function shadowVector(out: Float64Array): Float64Array {
  const angle = (out[3]! / 180) * Math.PI
  out[0] = Math.cos(-angle) / Math.SQRT2
  out[1] = Math.sin(-angle) / Math.SQRT2
  return out
}
