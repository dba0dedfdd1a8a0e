/**
 * The palette entry nearest to a colour by CIEDE2000, exactly: what `quantizeToPalette` maps each colour
 * to. Colour by colour the search prunes by L* and by `deltaE2000Bound`; where an image has many colours
 * (noise, photos: every pixel may be new) it searches per cell of like sRGB colours instead, among the few
 * entries that `deltaE2000BoxBound` says can be nearest to some colour of that cell.
 */
import {
  LAB_EPSILON,
  LAB_KAPPA,
  MAX_T,
  SIN_60,
  SRGB_TO_LINEAR,
  deltaE2000,
  deltaE2000Bound,
  deltaE2000BoxBound,
  labF,
  relativeXyz,
  srgb8ToLab,
} from './colorLab.js'

export interface PaletteMatcher {
  /** The palette index nearest to the 8-bit sRGB colour, lowest index of equals, never the skipped one. */
  nearest(r: number, g: number, b: number): number
}

interface PaletteLab {
  /** The palette bytes the table was made from (a palette changed in place is measured again). */
  bytes: Uint8Array
  /** L*, a*, b* per entry. */
  lab: Float64Array
  /** C*ab (the chroma, hypot(a*, b*)) per entry, for `deltaE2000Bound`. */
  chroma: Float64Array
  /** Entries by ascending L*, and their L*. */
  byLightness: Uint8Array
  lightness: Float64Array
}

const paletteLabs = new WeakMap<Uint8Array, PaletteLab>()

// ΔE00 ≥ |ΔL*| / SL, and SL = 1 + 0.015 (L̄ − 50)² / √(20 + (L̄ − 50)²) is at most 1.7470 for L̄ in 0..100.
const MAX_SL = 1.7471

/** The bound and the distance round differently: a bound this near the best is measured rather than skipped. */
const BOUND_MARGIN = 1 - 1e-9

/**
 * Colours of a cell searched one by one before its list is made: a list costs about as much as three
 * colours searched whole and then makes each colour of the cell several times cheaper (noise: 1 to 2 µs), so
 * it pays where a cell fills (noise, photos), not for a skin's few thousand colours or thinly spread ones.
 */
const SINGLE_SEARCHES_A_CELL = 2

/** Cells are 8 × 8 × 8 sRGB values (a 32³ grid). */
const CELL_SHIFT = 3
const CELL_SIDE = 1 << CELL_SHIFT
const CELLS = 1 << (3 * (8 - CELL_SHIFT))

function cellOf(r: number, g: number, b: number): number {
  return ((r >> CELL_SHIFT) << (2 * (8 - CELL_SHIFT))) | ((g >> CELL_SHIFT) << (8 - CELL_SHIFT)) | (b >> CELL_SHIFT)
}

/** A cell whose list would be longer is searched colour by colour (bounds the lists to 14 MiB; most hold 5 to 30). */
const MAX_CELL_ENTRIES = 64

/**
 * Nearest by CIEDE2000 in CIELAB (D65). Not weighted RGB: the eye's distances are not RGB's, and the old
 * weighting took a tan for a yellower one. Not ΔE76 (straight Lab distance), which over-counts chroma
 * differences against lightness and hue; CIE94 corrects that but not lightness or the hue weighting;
 * CIEDE2000 does all three. Measured on UFO:AI's true-colour soldier skin (assets/ufoai/soldier-male), the
 * mean ΔE00 to the chosen entries was 8.64 by weighted RGB, 6.14 by ΔE76, 6.09 by CIE94, 6.01 by CIEDE2000
 * (test/core/images/palette-lab.test.ts measures it again); by ΔE76 itself ΔE76's choice scores 8.50 and
 * CIEDE2000's 8.65, weighted RGB 13.2: each scores best by its own measure, and CIEDE2000 is the one fitted to
 * what observers judge (tans and skin tones are low-chroma, where its lightness and chroma weights matter).
 * `skip` (when not null) is never chosen. Each call's caller caches answers; the matcher does not.
 */
export function paletteMatcher(palette: Uint8Array, skip: number | null): PaletteMatcher {
  let table = paletteLabs.get(palette)
  if (!table || !sameBytes(table.bytes, palette)) {
    table = measurePalette(palette)
    paletteLabs.set(palette, table)
  }
  const single = singleSearch(table, skip)
  const searched = new Uint8Array(CELLS)
  let cells: CellSearch | undefined
  return {
    nearest(r, g, b) {
      const cell = cellOf(r, g, b)
      if (searched[cell]! < SINGLE_SEARCHES_A_CELL) {
        searched[cell] = searched[cell]! + 1
        return single(r, g, b)
      }
      cells ??= cellSearch(table, skip, single)
      return cells.nearest(r, g, b)
    },
  }
}

type Search = (r: number, g: number, b: number) => number

/** The entry nearest to L*, a*, b* by ΔE76 (straight Lab distance, a few flops an entry), lowest of equals, never `skip`. */
function nearestByDeltaE76(lab: Float64Array, l: number, a: number, b: number, skip: number | null): number {
  let nearest = -1
  let nearestDistance = Infinity
  for (let p = 0; p < 256; p++) {
    if (p === skip) continue
    const dl = lab[p * 3]! - l
    const da = lab[p * 3 + 1]! - a
    const db = lab[p * 3 + 2]! - b
    const distance = dl * dl + da * da + db * db
    if (distance < nearestDistance) {
      nearestDistance = distance
      nearest = p
    }
  }
  return nearest
}

/**
 * One colour against the whole palette: from the ΔE76-nearest entry, only entries whose L* could still beat
 * the best (ΔE00 ≥ |ΔL*| / SL), by L* outward, and of those only the ones `deltaE2000Bound` does not rule out.
 */
function singleSearch({ lab, chroma, byLightness, lightness }: PaletteLab, skip: number | null): Search {
  const source = new Float64Array(3)
  return (r, g, b) => {
    srgb8ToLab(r, g, b, source)
    const l = source[0]!
    const a = source[1]!
    const bb = source[2]!
    const c = Math.sqrt(a * a + bb * bb)
    const guess = nearestByDeltaE76(lab, l, a, bb, skip)
    let best = guess
    let bestDistance = deltaE2000(l, a, bb, lab[guess * 3]!, lab[guess * 3 + 1]!, lab[guess * 3 + 2]!)
    // The first entry at or above this lightness.
    let low = 0
    let high = 256
    while (low < high) {
      const mid = (low + high) >> 1
      if (lightness[mid]! < l) low = mid + 1
      else high = mid
    }
    for (let up = true, k = low; ; k += up ? 1 : -1) {
      if (up && (k >= 256 || (lightness[k]! - l) / MAX_SL > bestDistance)) {
        up = false
        k = low
        continue
      }
      if (!up && (k < 0 || (l - lightness[k]!) / MAX_SL > bestDistance)) break
      const p = byLightness[k]!
      if (p === skip || p === guess) continue
      // The bound skips most entries without CIEDE2000's trigonometry (ten times faster on noise).
      if (deltaE2000Bound(l, a, bb, c, lab[p * 3]!, lab[p * 3 + 1]!, lab[p * 3 + 2]!, chroma[p]!) * BOUND_MARGIN > bestDistance) continue
      const distance = deltaE2000(l, a, bb, lab[p * 3]!, lab[p * 3 + 1]!, lab[p * 3 + 2]!)
      if (distance < bestDistance || (distance === bestDistance && p < best)) {
        bestDistance = distance
        best = p
      }
    }
    return best
  }
}

interface CellSearch {
  nearest: Search
}

/**
 * By cells of 8 × 8 × 8 sRGB values, each cell's list made when a colour first falls in it. The cell's Lab
 * box holds every colour of the cell (see `labBox`); its `reach` is a little past the farthest corner from the
 * entry ΔE76-nearest its middle, and its list holds that entry and every other `deltaE2000BoxBound` puts within
 * `reach`, by ascending bound, with the T and rotation limits of the pair (which tighten `deltaE2000Bound` a
 * lot: the rotation term is 0 away from blues). A colour measures the list's ΔE76-nearest first, then walks
 * the list until a box bound passes its best. A best past `reach` (possible: the corners are not the whole
 * cell) means an entry off the list could be nearer: that colour is searched whole. Exact either way.
 */
function cellSearch({ lab, chroma }: PaletteLab, skip: number | null, single: Search): CellSearch {
  const start = new Int32Array(CELLS).fill(-1)
  const count = new Uint8Array(CELLS)
  const reach = new Float64Array(CELLS)
  // The lists, as cells are met: entry, box bound (rounded down) and T and rotation limits (rounded up, in 255ths).
  let entries = new Uint8Array(1 << 16)
  let bounds = new Float32Array(1 << 16)
  let tLimits = new Uint8Array(1 << 16)
  let rotationLimits = new Uint8Array(1 << 16)
  let used = 0
  const source = new Float64Array(3)
  const box = new Float64Array(6)
  const limits = new Float64Array(2)
  const candidates = new Int32Array(256)
  const candidateBounds = new Float64Array(256)
  const candidateLimits = new Uint16Array(256)

  function makeList(cell: number, r0: number, g0: number, b0: number): void {
    // The entry the reach is measured from: any entry keeps the list exact; a near one keeps it short.
    srgb8ToLab(r0 + CELL_SIDE / 2, g0 + CELL_SIDE / 2, b0 + CELL_SIDE / 2, source)
    const middle = nearestByDeltaE76(lab, source[0]!, source[1]!, source[2]!, skip)
    const ml = lab[middle * 3]!
    const ma = lab[middle * 3 + 1]!
    const mb = lab[middle * 3 + 2]!
    let far = 0
    for (let corner = 0; corner < 8; corner++) {
      const r = corner & 1 ? r0 + CELL_SIDE - 1 : r0
      const g = corner & 2 ? g0 + CELL_SIDE - 1 : g0
      const b = corner & 4 ? b0 + CELL_SIDE - 1 : b0
      srgb8ToLab(r, g, b, source)
      far = Math.max(far, deltaE2000(source[0]!, source[1]!, source[2]!, ml, ma, mb))
    }
    // A little past the corners' farthest: a colour past `reach` searches the whole palette, rare and exact.
    const cellReach = far * 1.05 + 0.5
    labBox(r0, g0, b0, box)
    let n = 0
    for (let p = 0; p < 256; p++) {
      if (p === skip) continue
      // ΔE00 ≥ |ΔL*| / SL rules most entries out before the box bound.
      const l2 = lab[p * 3]!
      if (p !== middle && Math.max(box[0]! - l2, l2 - box[1]!) / MAX_SL > cellReach) continue
      const bound =
        deltaE2000BoxBound(
          box[0]!,
          box[1]!,
          box[2]!,
          box[3]!,
          box[4]!,
          box[5]!,
          l2,
          lab[p * 3 + 1]!,
          lab[p * 3 + 2]!,
          chroma[p]!,
          limits,
          p === middle ? Infinity : cellReach,
        ) * BOUND_MARGIN
      if (p !== middle && bound > cellReach) continue
      const packed =
        (Math.min(255, Math.ceil((limits[0]! / MAX_T) * 255 + 1e-6)) << 8) | Math.min(255, Math.ceil((limits[1]! / SIN_60) * 255 + 1e-6))
      // By ascending bound (lists are short), the middle's entry first.
      const key = p === middle ? -1 : bound
      let at = n++
      while (at > 0 && candidateBounds[at - 1]! > key) {
        candidateBounds[at] = candidateBounds[at - 1]!
        candidates[at] = candidates[at - 1]!
        candidateLimits[at] = candidateLimits[at - 1]!
        at--
      }
      candidateBounds[at] = key
      candidates[at] = p
      candidateLimits[at] = packed
      if (n > MAX_CELL_ENTRIES) break
    }
    if (n > MAX_CELL_ENTRIES) {
      start[cell] = -2
      return
    }
    if (used + n > entries.length) {
      const grown = Math.max(used + n, Math.min(CELLS * MAX_CELL_ENTRIES, entries.length * 2))
      entries = grow(entries, new Uint8Array(grown))
      bounds = grow(bounds, new Float32Array(grown))
      tLimits = grow(tLimits, new Uint8Array(grown))
      rotationLimits = grow(rotationLimits, new Uint8Array(grown))
    }
    start[cell] = used
    for (let i = 0; i < n; i++) {
      entries[used] = candidates[i]!
      // Float32 rounds to nearest: taken a little lower so that it stays a lower bound.
      bounds[used] = Math.max(0, candidateBounds[i]! * (1 - 1e-6))
      tLimits[used] = candidateLimits[i]! >> 8
      rotationLimits[used++] = candidateLimits[i]! & 255
    }
    count[cell] = n
    reach[cell] = cellReach
  }

  return {
    nearest(r, g, b) {
      const cell = cellOf(r, g, b)
      if (start[cell] === -1) {
        const mask = 256 - CELL_SIDE
        makeList(cell, r & mask, g & mask, b & mask)
      }
      const first = start[cell]!
      if (first < 0) return single(r, g, b)
      srgb8ToLab(r, g, b, source)
      const l = source[0]!
      const a = source[1]!
      const bb = source[2]!
      const c = Math.sqrt(a * a + bb * bb)
      const end = first + count[cell]!
      // The list's ΔE76-nearest (a few flops an entry) is most often the nearest: measured first, its
      // distance ends the walk by box bound early and lets the colour's own bound skip most of the rest.
      let best = -1
      let guessDistance = Infinity
      for (let i = first; i < end; i++) {
        const p = entries[i]!
        const dl = lab[p * 3]! - l
        const da = lab[p * 3 + 1]! - a
        const db = lab[p * 3 + 2]! - bb
        const distance = dl * dl + da * da + db * db
        if (distance < guessDistance || (distance === guessDistance && p < best)) {
          guessDistance = distance
          best = p
        }
      }
      const guess = best
      let bestDistance = deltaE2000(l, a, bb, lab[best * 3]!, lab[best * 3 + 1]!, lab[best * 3 + 2]!)
      // The middle's entry first (its box bound is not in the order), then by ascending box bound.
      for (let i = first; i < end && (i === first || bounds[i]! <= bestDistance); i++) {
        const p = entries[i]!
        if (p === guess) continue
        const bound = deltaE2000Bound(
          l,
          a,
          bb,
          c,
          lab[p * 3]!,
          lab[p * 3 + 1]!,
          lab[p * 3 + 2]!,
          chroma[p]!,
          T_LIMIT[tLimits[i]!]!,
          ROTATION_LIMIT[rotationLimits[i]!]!,
        )
        if (bound * BOUND_MARGIN > bestDistance) continue
        const distance = deltaE2000(l, a, bb, lab[p * 3]!, lab[p * 3 + 1]!, lab[p * 3 + 2]!)
        if (distance < bestDistance || (distance === bestDistance && p < best)) {
          bestDistance = distance
          best = p
        }
      }
      // Past the reach, entries left off the list could be nearer.
      return bestDistance > reach[cell]! ? single(r, g, b) : best
    },
  }
}

/** The T and rotation limits from their 255ths (rounded up when packed, so never below the limit). */
const T_LIMIT = Float64Array.from({ length: 256 }, (_, code) => (code === 255 ? MAX_T : (code / 255) * MAX_T))
const ROTATION_LIMIT = Float64Array.from({ length: 256 }, (_, code) => (code === 255 ? SIN_60 : (code / 255) * SIN_60))

function grow<T extends Uint8Array | Float32Array>(from: T, to: T): T {
  to.set(from)
  return to
}

/**
 * The Lab box of the cell from sRGB (r0, g0, b0), written as L*, L* top, a*, a* top, b*, b* top. X, Y, Z grow
 * with each linear channel, so f(Y) and L* span their values at the low and high corners. a* = 500 (f(X) −
 * f(Y)) and b* = 200 (f(Y) − f(Z)) are bounded tighter than by those spans: f is concave, so over the cell it
 * lies between its chord and its tangent at the middle, both linear in the linear channels, and a difference of
 * linear functions is least and most at corners. Widened a hair for rounding.
 */
function labBox(r0: number, g0: number, b0: number, out: Float64Array): void {
  const rs = [SRGB_TO_LINEAR[r0]!, SRGB_TO_LINEAR[r0 + CELL_SIDE - 1]!]
  const gs = [SRGB_TO_LINEAR[g0]!, SRGB_TO_LINEAR[g0 + CELL_SIDE - 1]!]
  const bs = [SRGB_TO_LINEAR[b0]!, SRGB_TO_LINEAR[b0 + CELL_SIDE - 1]!]
  const x = spanLines(relativeXyz(rs[0]!, gs[0]!, bs[0]!, 0), relativeXyz(rs[1]!, gs[1]!, bs[1]!, 0))
  const y = spanLines(relativeXyz(rs[0]!, gs[0]!, bs[0]!, 1), relativeXyz(rs[1]!, gs[1]!, bs[1]!, 1))
  const z = spanLines(relativeXyz(rs[0]!, gs[0]!, bs[0]!, 2), relativeXyz(rs[1]!, gs[1]!, bs[1]!, 2))
  let aLow = Infinity
  let aHigh = -Infinity
  let bLow = Infinity
  let bHigh = -Infinity
  for (let corner = 0; corner < 8; corner++) {
    const r = rs[corner & 1]!
    const g = gs[(corner >> 1) & 1]!
    const b = bs[corner >> 2]!
    const tx = relativeXyz(r, g, b, 0)
    const ty = relativeXyz(r, g, b, 1)
    const tz = relativeXyz(r, g, b, 2)
    // Chord (below f) and tangent (above f) of each.
    const xBelow = x[0]! + x[1]! * tx
    const xAbove = x[2]! + x[3]! * tx
    const yBelow = y[0]! + y[1]! * ty
    const yAbove = y[2]! + y[3]! * ty
    const zBelow = z[0]! + z[1]! * tz
    const zAbove = z[2]! + z[3]! * tz
    aLow = Math.min(aLow, xBelow - yAbove)
    aHigh = Math.max(aHigh, xAbove - yBelow)
    bLow = Math.min(bLow, yBelow - zAbove)
    bHigh = Math.max(bHigh, yAbove - zBelow)
  }
  const slack = 1e-9
  out[0] = 116 * labF(y[4]!) - 16 - slack
  out[1] = 116 * labF(y[5]!) - 16 + slack
  out[2] = 500 * aLow - slack
  out[3] = 500 * aHigh + slack
  out[4] = 200 * bLow - slack
  out[5] = 200 * bHigh + slack
}

/**
 * f over low..high as two lines, each an offset and slope: the chord (f is at or above it there) and the
 * tangent at the middle (f is at or below it everywhere: f is concave, its slope falling and continuous at
 * ε); then low and high.
 */
function spanLines(low: number, high: number): number[] {
  const fLow = labF(low)
  const fHigh = labF(high)
  const chordSlope = high > low ? (fHigh - fLow) / (high - low) : 0
  const middle = (low + high) / 2
  const tangentSlope = middle > LAB_EPSILON ? 1 / (3 * Math.cbrt(middle * middle)) : LAB_KAPPA / 116
  return [fLow - chordSlope * low, chordSlope, labF(middle) - tangentSlope * middle, tangentSlope, low, high]
}

function measurePalette(palette: Uint8Array): PaletteLab {
  const lab = new Float64Array(768)
  for (let p = 0; p < 256; p++) srgb8ToLab(palette[p * 3]!, palette[p * 3 + 1]!, palette[p * 3 + 2]!, lab, p * 3)
  const chroma = Float64Array.from({ length: 256 }, (_, p) => Math.hypot(lab[p * 3 + 1]!, lab[p * 3 + 2]!))
  const order = Array.from({ length: 256 }, (_, p) => p).sort((p, q) => lab[p * 3]! - lab[q * 3]! || p - q)
  return {
    bytes: palette.slice(),
    lab,
    chroma,
    byLightness: Uint8Array.from(order),
    lightness: Float64Array.from(order, (p) => lab[p * 3]!),
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return a.length === b.length
}
