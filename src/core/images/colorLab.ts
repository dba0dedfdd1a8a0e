/**
 * sRGB ↔ linear light ↔ CIE XYZ (D65) ↔ CIELAB, and CIEDE2000 colour difference: what `encodePCX` uses to
 * pick the palette colour the eye sees as nearest. Pure arithmetic, no allocation per call.
 */

/** Linear-light value (0..1) of each 8-bit sRGB channel value (IEC 61966-2-1 transfer curve). */
export const SRGB_TO_LINEAR: Float64Array = (() => {
  const table = new Float64Array(256)
  for (let i = 0; i < 256; i++) {
    const c = i / 255
    table[i] = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return table
})()

/** The 8-bit sRGB value nearest to a linear-light value (clamped to 0..1). */
export function linearToSrgb8(value: number): number {
  const c = value <= 0 ? 0 : value >= 1 ? 1 : value
  const s = c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055
  return Math.round(s * 255)
}

// D65 reference white (CIE 1931 2°), Y = 1.
const XN = 0.95047
const ZN = 1.08883
const EPSILON = 216 / 24389
const KAPPA = 24389 / 27

function labF(t: number): number {
  return t > EPSILON ? Math.cbrt(t) : (KAPPA * t + 16) / 116
}

/**
 * CIELAB (D65) of a linear-light RGB colour, written to `out[at..at+2]` as L*, a*, b* (L* 0..100).
 */
export function linearRgbToLab(r: number, g: number, b: number, out: Float64Array, at = 0): void {
  // sRGB primaries → XYZ (D65).
  const x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b
  const y = 0.2126729 * r + 0.7151522 * g + 0.072175 * b
  const z = 0.0193339 * r + 0.119192 * g + 0.9503041 * b
  const fx = labF(x / XN)
  const fy = labF(y)
  const fz = labF(z / ZN)
  out[at] = 116 * fy - 16
  out[at + 1] = 500 * (fx - fy)
  out[at + 2] = 200 * (fy - fz)
}

/** CIELAB (D65) of an 8-bit sRGB colour, written to `out[at..at+2]`. */
export function srgb8ToLab(r: number, g: number, b: number, out: Float64Array, at = 0): void {
  linearRgbToLab(SRGB_TO_LINEAR[r]!, SRGB_TO_LINEAR[g]!, SRGB_TO_LINEAR[b]!, out, at)
}

/** CIE 1976 ΔE*ab: the straight distance in Lab. */
export function deltaE76(l1: number, a1: number, b1: number, l2: number, a2: number, b2: number): number {
  return Math.hypot(l1 - l2, a1 - a2, b1 - b2)
}

const DEG = Math.PI / 180
const POW25_7 = 25 ** 7

/**
 * CIEDE2000 ΔE00 between two Lab colours (kL = kC = kH = 1), after Sharma, Wu and Dalal (2005), whose test
 * pairs it reproduces.
 */
export function deltaE2000(l1: number, a1: number, b1: number, l2: number, a2: number, b2: number): number {
  const c1 = Math.hypot(a1, b1)
  const c2 = Math.hypot(a2, b2)
  const cMean7 = ((c1 + c2) / 2) ** 7
  const g = 0.5 * (1 - Math.sqrt(cMean7 / (cMean7 + POW25_7)))
  const a1p = (1 + g) * a1
  const a2p = (1 + g) * a2
  const c1p = Math.hypot(a1p, b1)
  const c2p = Math.hypot(a2p, b2)
  const h1p = c1p === 0 ? 0 : hueDegrees(b1, a1p)
  const h2p = c2p === 0 ? 0 : hueDegrees(b2, a2p)
  const dLp = l2 - l1
  const dCp = c2p - c1p
  let dhp = 0
  if (c1p * c2p !== 0) {
    dhp = h2p - h1p
    if (dhp > 180) dhp -= 360
    else if (dhp < -180) dhp += 360
  }
  const dHp = 2 * Math.sqrt(c1p * c2p) * Math.sin((dhp / 2) * DEG)
  const lMean = (l1 + l2) / 2
  const cpMean = (c1p + c2p) / 2
  let hpMean = h1p + h2p
  if (c1p * c2p !== 0) {
    if (Math.abs(h1p - h2p) <= 180) hpMean /= 2
    else hpMean = hpMean < 360 ? (hpMean + 360) / 2 : (hpMean - 360) / 2
  }
  const t =
    1 -
    0.17 * Math.cos((hpMean - 30) * DEG) +
    0.24 * Math.cos(2 * hpMean * DEG) +
    0.32 * Math.cos((3 * hpMean + 6) * DEG) -
    0.2 * Math.cos((4 * hpMean - 63) * DEG)
  const dTheta = 30 * Math.exp(-(((hpMean - 275) / 25) ** 2))
  const cpMean7 = cpMean ** 7
  const rc = 2 * Math.sqrt(cpMean7 / (cpMean7 + POW25_7))
  const l50 = (lMean - 50) ** 2
  const sl = 1 + (0.015 * l50) / Math.sqrt(20 + l50)
  const sc = 1 + 0.045 * cpMean
  const sh = 1 + 0.015 * cpMean * t
  const rt = -Math.sin(2 * dTheta * DEG) * rc
  const lTerm = dLp / sl
  const cTerm = dCp / sc
  const hTerm = dHp / sh
  return Math.sqrt(lTerm * lTerm + cTerm * cTerm + hTerm * hTerm + rt * cTerm * hTerm)
}

/** CIEDE2000's T over every mean hue is at most 1.5725 (sampled every 0.0001°); rounded up. */
const MAX_T = 1.5726
/** |RT| = sin(2Δθ)·RC with Δθ ≤ 30°: at most sin 60° of RC. */
const SIN_60 = Math.sqrt(3) / 2

/**
 * A lower bound of `deltaE2000` for the same two colours (their chromas `c1`, `c2` = hypot(a, b) given),
 * without its trigonometry: the lightness and chroma terms are exact, the hue difference comes from the dot
 * product (ΔH'² = 2(C'1C'2 − a'1a'2 − b1b2)), and SH and RT are taken at their worst over every mean hue.
 * A nearest-colour search skips a candidate whose bound already passes the best found.
 */
export function deltaE2000Bound(l1: number, a1: number, b1: number, c1: number, l2: number, a2: number, b2: number, c2: number): number {
  // Math.hypot is several times slower than this, and the bound runs for most of a palette per colour.
  const cMean = (c1 + c2) / 2
  const cMean2 = cMean * cMean
  const cMean7 = cMean2 * cMean2 * cMean2 * cMean
  const g = 1.5 - 0.5 * Math.sqrt(cMean7 / (cMean7 + POW25_7))
  const a1p = g * a1
  const a2p = g * a2
  const c1p = Math.sqrt(a1p * a1p + b1 * b1)
  const c2p = Math.sqrt(a2p * a2p + b2 * b2)
  const l50 = ((l1 + l2) / 2 - 50) ** 2
  const lTerm = (l2 - l1) / (1 + (0.015 * l50) / Math.sqrt(20 + l50))
  const cpMean = (c1p + c2p) / 2
  const x = Math.abs(c2p - c1p) / (1 + 0.045 * cpMean)
  const dH2 = Math.max(0, 2 * (c1p * c2p - a1p * a2p - b1 * b2))
  const yMin = Math.sqrt(dH2) / (1 + 0.015 * cpMean * MAX_T)
  const cpMean2 = cpMean * cpMean
  const cpMean7 = cpMean2 * cpMean2 * cpMean2 * cpMean
  const k = 2 * Math.sqrt(cpMean7 / (cpMean7 + POW25_7)) * SIN_60
  // x² + y² − k·x·y over y ≥ yMin: least at y = k·x/2 when that is allowed, else at yMin.
  const y = Math.max(yMin, (k * x) / 2)
  const rest = x * x + y * y - k * x * y
  return Math.sqrt(lTerm * lTerm + Math.max(0, rest))
}

function hueDegrees(b: number, a: number): number {
  const h = Math.atan2(b, a) / DEG
  return h < 0 ? h + 360 : h
}
