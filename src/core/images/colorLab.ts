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
/** Where CIELAB's f turns from a cube root to a line, and that line's slope times 116. */
export const LAB_EPSILON = 216 / 24389
export const LAB_KAPPA = 24389 / 27

/** CIELAB's f: L* = 116 f(Y/Yn) − 16, a* = 500 (f(X/Xn) − f(Y/Yn)), b* = 200 (f(Y/Yn) − f(Z/Zn)). */
export function labF(t: number): number {
  return t > LAB_EPSILON ? Math.cbrt(t) : (LAB_KAPPA * t + 16) / 116
}

/**
 * X/Xn (`which` 0), Y/Yn (1) or Z/Zn (2) of a linear-light sRGB colour, D65: what `labF` takes. Each grows with
 * each channel.
 */
export function relativeXyz(r: number, g: number, b: number, which: number): number {
  if (which === 0) return (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / XN
  if (which === 1) return 0.2126729 * r + 0.7151522 * g + 0.072175 * b
  return (0.0193339 * r + 0.119192 * g + 0.9503041 * b) / ZN
}

/**
 * CIELAB (D65) of a linear-light RGB colour, written to `out[at..at+2]` as L*, a*, b* (L* 0..100).
 */
export function linearRgbToLab(r: number, g: number, b: number, out: Float64Array, at = 0): void {
  const fx = labF(relativeXyz(r, g, b, 0))
  const fy = labF(relativeXyz(r, g, b, 1))
  const fz = labF(relativeXyz(r, g, b, 2))
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
const COS_30 = Math.cos(30 * DEG)
const COS_6 = Math.cos(6 * DEG)
const SIN_6 = Math.sin(6 * DEG)
const COS_63 = Math.cos(63 * DEG)
const SIN_63 = Math.sin(63 * DEG)

/**
 * CIEDE2000 ΔE00 between two Lab colours (kL = kC = kH = 1), after Sharma, Wu and Dalal (2005), whose test
 * pairs it reproduces.
 */
export function deltaE2000(l1: number, a1: number, b1: number, l2: number, a2: number, b2: number): number {
  // Math.hypot and ** on variables are several times slower than these; a nearest-colour search makes millions of calls.
  const c1 = Math.sqrt(a1 * a1 + b1 * b1)
  const c2 = Math.sqrt(a2 * a2 + b2 * b2)
  const cMean = (c1 + c2) / 2
  const cMean2 = cMean * cMean
  const cMean7 = cMean2 * cMean2 * cMean2 * cMean
  const g = 0.5 * (1 - Math.sqrt(cMean7 / (cMean7 + POW25_7)))
  const a1p = (1 + g) * a1
  const a2p = (1 + g) * a2
  const c1p = Math.sqrt(a1p * a1p + b1 * b1)
  const c2p = Math.sqrt(a2p * a2p + b2 * b2)
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
  // T's four cosines from one cosine and sine of the mean hue (multiple-angle formulas: two calls, not four).
  const ch = Math.cos(hpMean * DEG)
  const sn = Math.sin(hpMean * DEG)
  const cos2h = 2 * ch * ch - 1
  const sin2h = 2 * sn * ch
  const cos3h = ch * (4 * ch * ch - 3)
  const sin3h = sn * (3 - 4 * sn * sn)
  const t =
    1 -
    0.17 * (ch * COS_30 + sn * 0.5) +
    0.24 * cos2h +
    0.32 * (cos3h * COS_6 - sin3h * SIN_6) -
    0.2 * ((2 * cos2h * cos2h - 1) * COS_63 + 2 * sin2h * cos2h * SIN_63)
  const hueOff = (hpMean - 275) / 25
  const dTheta = 30 * Math.exp(-hueOff * hueOff)
  const cpMean2 = cpMean * cpMean
  const cpMean7 = cpMean2 * cpMean2 * cpMean2 * cpMean
  const rc = 2 * Math.sqrt(cpMean7 / (cpMean7 + POW25_7))
  const l50 = (lMean - 50) * (lMean - 50)
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
export const MAX_T = 1.5726
/** |RT| = sin(2Δθ)·RC with Δθ ≤ 30°: at most sin 60° of RC. */
export const SIN_60 = Math.sqrt(3) / 2

/**
 * A lower bound of `deltaE2000` for the same two colours (their chromas `c1`, `c2` = hypot(a, b) given),
 * without its trigonometry: the lightness and chroma terms are exact, the hue difference comes from the dot
 * product (ΔH'² = 2(C'1C'2 − a'1a'2 − b1b2)), and SH and RT are taken at their worst over every mean hue.
 * A nearest-colour search skips a candidate whose bound already passes the best found.
 */
export function deltaE2000Bound(
  l1: number,
  a1: number,
  b1: number,
  c1: number,
  l2: number,
  a2: number,
  b2: number,
  c2: number,
  maxT = MAX_T,
  maxRotation = SIN_60,
): number {
  // Math.hypot is several times slower than this, and the bound runs for most of a palette per colour.
  const cMean = (c1 + c2) / 2
  const cMean2 = cMean * cMean
  const cMean7 = cMean2 * cMean2 * cMean2 * cMean
  const g = 1.5 - 0.5 * Math.sqrt(cMean7 / (cMean7 + POW25_7))
  const a1p = g * a1
  const a2p = g * a2
  const c1p = Math.sqrt(a1p * a1p + b1 * b1)
  const c2p = Math.sqrt(a2p * a2p + b2 * b2)
  const l50 = ((l1 + l2) / 2 - 50) * ((l1 + l2) / 2 - 50)
  const lTerm = (l2 - l1) / (1 + (0.015 * l50) / Math.sqrt(20 + l50))
  const cpMean = (c1p + c2p) / 2
  const x = Math.abs(c2p - c1p) / (1 + 0.045 * cpMean)
  const dH2 = Math.max(0, 2 * (c1p * c2p - a1p * a2p - b1 * b2))
  const yMin = Math.sqrt(dH2) / (1 + 0.015 * cpMean * maxT)
  const cpMean2 = cpMean * cpMean
  const cpMean7 = cpMean2 * cpMean2 * cpMean2 * cpMean
  const k = 2 * Math.sqrt(cpMean7 / (cpMean7 + POW25_7)) * maxRotation
  // x² + y² − k·x·y over y ≥ yMin: least at y = k·x/2 when that is allowed, else at yMin.
  const y = Math.max(yMin, (k * x) / 2)
  const rest = x * x + y * y - k * x * y
  return Math.sqrt(lTerm * lTerm + Math.max(0, rest))
}

/** CIEDE2000's G (the a* stretch of near-neutral colours) is 0.5 (1 − √(C̄⁷ / (C̄⁷ + 25⁷))): 1 + G, falling with C̄. */
function aStretch(cMean: number): number {
  const c2 = cMean * cMean
  const c7 = c2 * c2 * c2 * cMean
  return 1.5 - 0.5 * Math.sqrt(c7 / (c7 + POW25_7))
}

/**
 * A lower bound of `deltaE2000` between any colour of the Lab box (L* in `l1`..`l1Top`, a* in `a1`..`a1Top`,
 * b* in `b1`..`b1Top`) and the colour `l2`, `a2`, `b2` (chroma `c2`): `deltaE2000Bound`'s terms taken by
 * intervals. Each term is bounded on its own (lightness by the nearest L*, chroma by how far apart the chroma
 * ranges are, hue by how far apart the hue ranges are), SL, SC, SH and RT at their worst over the box. A
 * search over a box of colours drops the entries whose bound passes what another entry is known to reach.
 * `limits` receives the largest T and sin 2Δθ over the pair's mean hues, for `deltaE2000Bound` on its colours.
 * A bound past `cutoff` may be returned before the hue term is measured (the limits are then the widest).
 */
export function deltaE2000BoxBound(
  l1: number,
  l1Top: number,
  a1: number,
  a1Top: number,
  b1: number,
  b1Top: number,
  l2: number,
  a2: number,
  b2: number,
  c2: number,
  limits: Float64Array = new Float64Array(2),
  cutoff = Infinity,
): number {
  // Lightness: the nearest L*, over SL at its largest (SL grows with |L̄ − 50|).
  const dL = Math.max(0, l1 - l2, l2 - l1Top)
  const off50 = Math.max(Math.abs((l1 + l2) / 2 - 50), Math.abs((l1Top + l2) / 2 - 50))
  const lTerm = dL / (1 + (0.015 * off50 * off50) / Math.sqrt(20 + off50 * off50))
  // |a*| and |b*| over the box: least 0 when the range holds 0.
  const aNear = a1 > 0 ? a1 : a1Top < 0 ? -a1Top : 0
  const aFar = Math.max(-a1, a1Top)
  const bNear = b1 > 0 ? b1 : b1Top < 0 ? -b1Top : 0
  const bFar = Math.max(-b1, b1Top)
  const c1Low = Math.sqrt(aNear * aNear + bNear * bNear)
  const c1High = Math.sqrt(aFar * aFar + bFar * bFar)
  // 1 + G from both C̄ extremes (it falls as C̄ grows); one G stretches both colours' a*.
  const gLow = aStretch((c1High + c2) / 2)
  const gHigh = aStretch((c1Low + c2) / 2)
  const c1pLow = Math.sqrt(gLow * gLow * aNear * aNear + bNear * bNear)
  const c1pHigh = Math.sqrt(gHigh * gHigh * aFar * aFar + bFar * bFar)
  const c2pLow = Math.sqrt(gLow * gLow * a2 * a2 + b2 * b2)
  const c2pHigh = Math.sqrt(gHigh * gHigh * a2 * a2 + b2 * b2)
  const cpMeanHigh = (c1pHigh + c2pHigh) / 2
  const x = Math.max(0, c1pLow - c2pHigh, c2pLow - c1pHigh) / (1 + 0.045 * cpMeanHigh)
  // Without the hue term (its trigonometry is most of the cost): x² + y² − k·x·y ≥ x² (1 − k²/4), k < √3.
  const hueFree = Math.sqrt(lTerm * lTerm + x * x * 0.25)
  if (hueFree > cutoff) {
    limits[0] = MAX_T
    limits[1] = SIN_60
    return hueFree
  }
  // Hue: ΔH' = 2 √(C'1 C'2) sin(Δh'/2), Δh' at least the gap between the hue arcs of the two colours' a'b planes.
  const gap = hueGap(a1, a1Top, b1, b1Top, a2, b2, gLow, gHigh, limits)
  const yMin = (2 * Math.sqrt(c1pLow * c2pLow) * Math.sin((gap / 2) * DEG)) / (1 + 0.015 * cpMeanHigh * limits[0]!)
  const cpMean2 = cpMeanHigh * cpMeanHigh
  const cpMean7 = cpMean2 * cpMean2 * cpMean2 * cpMeanHigh
  const k = 2 * Math.sqrt(cpMean7 / (cpMean7 + POW25_7)) * limits[1]!
  // x² + y² − k·x·y over x ≥ x and y ≥ yMin (k < 2, so it grows away from 0): least on one of the two edges.
  const yOnX = Math.max(yMin, (k * x) / 2)
  const xOnY = Math.max(x, (k * yMin) / 2)
  const rest = Math.min(x * x + yOnX * yOnX - k * x * yOnX, xOnY * xOnY + yMin * yMin - k * xOnY * yMin)
  return Math.sqrt(lTerm * lTerm + Math.max(0, rest))
}

/**
 * The least hue angle (degrees, 0..180) between any (g·a, b) of the box and (g·a2, b2), g in `gLow`..`gHigh`:
 * 0 when either holds a neutral (the hue is then undefined, and CIEDE2000 takes no hue difference).
 */
function hueGap(
  a1: number,
  a1Top: number,
  b1: number,
  b1Top: number,
  a2: number,
  b2: number,
  gLow: number,
  gHigh: number,
  limits: Float64Array,
): number {
  limits[0] = MAX_T
  limits[1] = SIN_60
  // The box stretched by every g lies in this rectangle of the a'b plane.
  const left = a1 < 0 ? gHigh * a1 : gLow * a1
  const right = a1Top < 0 ? gLow * a1Top : gHigh * a1Top
  if ((left <= 0 && right >= 0 && b1 <= 0 && b1Top >= 0) || (a2 === 0 && b2 === 0)) return 0
  // Hues relative to the box's middle (a rectangle clear of the origin spans less than 180° around it).
  const mid = Math.atan2(b1 + b1Top, left + right)
  const cos = Math.cos(mid)
  const sin = Math.sin(mid)
  const t1 = turn(left, b1, cos, sin)
  const t2 = turn(right, b1, cos, sin)
  const t3 = turn(left, b1Top, cos, sin)
  const t4 = turn(right, b1Top, cos, sin)
  const boxLow = Math.min(t1, t2, t3, t4)
  const boxHigh = Math.max(t1, t2, t3, t4)
  const e1 = turn(gLow * a2, b2, cos, sin)
  const e2 = turn(gHigh * a2, b2, cos, sin)
  // The entry's arc (less than 180° too) from `from`, counter-clockwise, against the box's, either way round.
  let width = e2 - e1
  if (width > 180) width -= 360
  else if (width <= -180) width += 360
  const from = width >= 0 ? e1 : e2
  width = Math.abs(width)
  let gap = 180
  let nearest = 0
  for (let shift = -360; shift <= 360; shift += 360) {
    const low = from + shift
    const apart = Math.max(0, low - boxHigh, boxLow - (low + width))
    if (apart < gap) {
      gap = apart
      nearest = low
    }
  }
  // Every pair less than half a turn apart (a margin for rounding): the mean hue, halfway along the shorter
  // way, runs over the arc between the lows' and the highs' means, and T and the rotation are bounded there.
  if (Math.max(nearest + width - boxLow, boxHigh - nearest) < 179) {
    const midDegrees = Math.atan2(sin, cos) / DEG
    const meanLow = midDegrees + (boxLow + nearest) / 2 - 1e-6
    const meanHigh = midDegrees + (boxHigh + nearest + width) / 2 + 1e-6
    limits[0] = maxTOver(meanLow, meanHigh)
    limits[1] = maxRotationOver(meanLow, meanHigh)
  }
  return gap
}

/** T's largest value over each whole degree of mean hue: its ends' larger plus its slope (≤ 2.41/rad) over half a degree. */
const T_BY_DEGREE: Float64Array = (() => {
  const table = new Float64Array(360)
  const at = (h: number): number =>
    1 -
    0.17 * Math.cos((h - 30) * DEG) +
    0.24 * Math.cos(2 * h * DEG) +
    0.32 * Math.cos((3 * h + 6) * DEG) -
    0.2 * Math.cos((4 * h - 63) * DEG)
  for (let d = 0; d < 360; d++) table[d] = Math.max(at(d), at(d + 1)) + 2.41 * 0.5 * DEG + 1e-9
  return table
})()

/** The largest T over mean hues `low`..`high` (degrees, any turn; less than a full turn apart). */
function maxTOver(low: number, high: number): number {
  let most = 0
  for (let d = Math.floor(low); d < high; d++) most = Math.max(most, T_BY_DEGREE[((d % 360) + 360) % 360]!)
  return Math.min(most, MAX_T)
}

/**
 * The largest sin 2Δθ, Δθ = 30° exp(−((h̄ − 275°) / 25°)²), over mean hues `low`..`high`: CIEDE2000 takes h̄ in
 * 0..360, so the arc is cut at 0°; Δθ peaks at 275°, and sin 2Δθ grows with Δθ (≤ 30°).
 */
function maxRotationOver(low: number, high: number): number {
  const turns = Math.floor(low / 360) * 360
  const from = low - turns
  const to = high - turns
  // At most two pieces: from..min(to, 360), and 0..to − 360 when the arc passes 0°.
  let closest = Math.abs(Math.min(Math.max(275, from), Math.min(to, 360)) - 275)
  if (to > 360) closest = Math.min(closest, Math.abs(Math.min(275, to - 360) - 275))
  const off = closest / 25
  return Math.min(SIN_60, Math.sin(2 * 30 * Math.exp(-off * off) * DEG) + 1e-9)
}

/** The angle (degrees, −180..180) of (a, b) from the direction (cos, sin). */
function turn(a: number, b: number, cos: number, sin: number): number {
  return Math.atan2(b * cos - a * sin, a * cos + b * sin) / DEG
}

function hueDegrees(b: number, a: number): number {
  const h = Math.atan2(b, a) / DEG
  return h < 0 ? h + 360 : h
}
