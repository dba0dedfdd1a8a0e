import {
  ACESFilmicToneMapping,
  CineonToneMapping,
  LinearToneMapping,
  Matrix3,
  NoToneMapping,
  ReinhardToneMapping,
  type ToneMapping,
} from 'three'
import {
  acesFilmicToneMapping,
  cineonToneMapping,
  If,
  linearToneMapping,
  mat3,
  reinhardToneMapping,
  select,
  sRGBTransferEOTF,
  sRGBTransferOETF,
  toneMappingExposure,
  vec3,
} from 'three/tsl'
import type { Node } from 'three/webgpu'

/**
 * The tone curves whose inverse is worked out here, numbered as the `curve` uniform names them (from 1).
 * Any other (AgX, Neutral, custom) is taken as none: the blend then happens before the curve.
 */
const CURVES: readonly ToneMapping[] = [NoToneMapping, LinearToneMapping, ReinhardToneMapping, CineonToneMapping, ACESFilmicToneMapping]

/** `toneMapping`'s number among the curves inverted here (1…5), or 1 (none) for one that is not. */
export function curveNumber(toneMapping: ToneMapping): number {
  return Math.max(0, CURVES.indexOf(toneMapping)) + 1
}

// ACES Filmic as three's acesFilmicToneMapping computes it: exposure / 0.6, a matrix, the RRT+ODT fit per
// channel, a second matrix, a clamp. Its matrices as it writes them (`mat3(…)` takes them row by row).
const ACES_IN = new Matrix3(0.59719, 0.35458, 0.04823, 0.076, 0.90834, 0.01566, 0.0284, 0.13383, 0.83777)
const ACES_OUT = new Matrix3(1.60475, -0.53108, -0.07367, -0.10208, 1.10813, -0.00605, -0.00327, -0.07276, 1.07602)
let acesInverses: { in: Node<'mat3'>; out: Node<'mat3'> } | undefined
/** The inverses of ACES's matrices as nodes, made on first use: importing this module calls no TSL (an older three lacks it). */
const acesInverse = () =>
  (acesInverses ??= { in: mat3(ACES_IN.clone().invert()) as Node<'mat3'>, out: mat3(ACES_OUT.clone().invert()) as Node<'mat3'> })

/**
 * What the canvas holds for a linear value `x` under tone curve number `curve`: the curve (as three's output
 * pass applies it, with the renderer's exposure), clamped to 0…1 and, where `encoded`, sRGB-encoded, as
 * `WebGLRenderer` writes it from each fragment shader.
 */
export function display(x: Node<'vec3'>, curve: Node<'int'>, encoded: Node<'bool'>): Node<'vec3'> {
  const mapped = vec3(x).toVar()
  // Block bodies: a branch that returns its node would be built as a return statement.
  If(curve.equal(2), () => {
    mapped.assign(linearToneMapping(x, toneMappingExposure))
  })
    .ElseIf(curve.equal(3), () => {
      mapped.assign(reinhardToneMapping(x, toneMappingExposure))
    })
    .ElseIf(curve.equal(4), () => {
      mapped.assign(cineonToneMapping(x, toneMappingExposure))
    })
    .ElseIf(curve.equal(5), () => {
      mapped.assign(acesFilmicToneMapping(x, toneMappingExposure))
    })
  const shown = mapped.clamp()
  return select(encoded, sRGBTransferOETF(shown) as Node<'vec3'>, shown)
}

/**
 * A linear value the canvas holds as `shown` (0…1): `display`'s inverse, exact for every value the curve
 * reaches (with ACES, a colour beyond the gamut its matrices leave comes out near it instead).
 */
export function fromDisplay(shown: Node<'vec3'>, curve: Node<'int'>, encoded: Node<'bool'>): Node<'vec3'> {
  const y = select(encoded, sRGBTransferEOTF(shown) as Node<'vec3'>, shown).toVar()
  const x = vec3(y).toVar()
  const exposure = toneMappingExposure as unknown as Node<'float'>
  If(curve.equal(2), () => {
    x.assign(y.div(exposure))
  })
    .ElseIf(curve.equal(3), () => {
      // y = t / (1 + t), t = x·exposure.
      const capped = y.min(0.9999)
      x.assign(capped.div(capped.oneMinus()).div(exposure))
    })
    .ElseIf(curve.equal(4), () => {
      // y = (t(6.2t + 0.5) / (t(6.2t + 1.7) + 0.06))^2.2, t = max(x·exposure − 0.004, 0): a quadratic in t.
      const r = y.pow(1 / 2.2).min(0.9999)
      const a = r.oneMinus().mul(6.2)
      const b = r.mul(-1.7).add(0.5)
      const t = b
        .negate()
        .add(b.mul(b).add(a.mul(r).mul(0.24)).sqrt())
        .div(a.mul(2))
      x.assign(t.add(0.004).div(exposure))
    })
    .ElseIf(curve.equal(5), () => {
      // w = (v² + 0.0245786 v − 0.000090537) / (0.983729 v² + 0.432951 v + 0.238081): its root v ≥ 0.
      const w = acesInverse().out.mul(y).clamp(-0.00038, 1) as Node<'vec3'>
      const a = w.mul(-0.983729).add(1)
      const b = w.mul(-0.432951).add(0.0245786)
      const c = w.mul(-0.238081).sub(0.000090537)
      const v = b
        .negate()
        .add(b.mul(b).sub(a.mul(c).mul(4)).max(0).sqrt())
        .div(a.mul(2))
      x.assign((acesInverse().in.mul(v) as Node<'vec3'>).mul(0.6).div(exposure))
    })
  return x
}
