import { MD2Error } from '../MD2Error.js'
import type { MD2Header } from './types.js'

/** What the GL-command builder reads from a model: the skin size, the texture coordinates and the triangles. */
export interface GlCommandSource {
  header: Pick<MD2Header, 'skinWidth' | 'skinHeight'>
  /** Texels, s0, t0, s1, t1, ... */
  st: Int16Array
  /** 6 per triangle: 3 xyz indices, then 3 st indices. */
  triangles: Uint16Array
}

/**
 * Scratch space of one strip or fan: its corner (xyz, st) pairs and the triangles it covers.
 * Sized for the longest possible run, `numTris` triangles.
 */
interface Run {
  xyz: Int32Array
  st: Int32Array
  tris: Int32Array
  length: number
  fan: boolean
}

function newRun(numTris: number): Run {
  return { xyz: new Int32Array(numTris + 2), st: new Int32Array(numTris + 2), tris: new Int32Array(numTris), length: 0, fan: false }
}

// Trial marks: a triangle taken by the run being grown is 2 until the trial ends, then 1 once chosen.
const TRIAL = 2
const TAKEN = 1

/**
 * Every directed edge (xyz a → xyz b, in a triangle's own corner order), listing `j × 3 + k` for
 * triangle j whose corner k starts it, by ascending j then k. qdata scans all triangles after `start`
 * for the first with a matching edge; the first listed entry past `start` is that same triangle and
 * corner, found without the quadratic scan.
 */
function indexEdges(triangles: Uint16Array, numTris: number): Map<number, number[]> {
  const edges = new Map<number, number[]>()
  for (let j = 0; j < numTris; j++) {
    for (let k = 0; k < 3; k++) {
      const key = triangles[j * 6 + k]! * 65536 + triangles[j * 6 + (k === 2 ? 0 : k + 1)]!
      const list = edges.get(key)
      if (list) list.push(j * 3 + k)
      else edges.set(key, [j * 3 + k])
    }
  }
  return edges
}

/** The first triangle after `start` with edge (a, aSt) → (b, bSt), as `j × 3 + k`, or −1. */
function nextOnEdge(
  edges: Map<number, number[]>,
  triangles: Uint16Array,
  start: number,
  a: number,
  aSt: number,
  b: number,
  bSt: number,
): number {
  const list = edges.get(a * 65536 + b)
  if (!list) return -1
  for (const entry of list) {
    const j = Math.floor(entry / 3)
    if (j <= start) continue
    const k = entry - j * 3
    if (triangles[j * 6 + 3 + k] === aSt && triangles[j * 6 + 3 + (k === 2 ? 0 : k + 1)] === bSt) return entry
  }
  return -1
}

/**
 * Grows a strip or fan from triangle `start`, corners rotated by `startV` (qdata's StripLength /
 * FanLength). `used` gets trial marks on the triangles it takes, cleared before returning, except on
 * `start` itself, which qdata leaves marked: harmless, since only triangles after `start` are looked at.
 */
function growRun(
  triangles: Uint16Array,
  edges: Map<number, number[]>,
  used: Uint8Array,
  start: number,
  startV: number,
  fan: boolean,
  run: Run,
): number {
  const base = start * 6
  for (let i = 0; i < 3; i++) {
    const corner = (startV + i) % 3
    run.xyz[i] = triangles[base + corner]!
    run.st[i] = triangles[base + 3 + corner]!
  }
  used[start] = TRIAL
  run.tris[0] = start
  let count = 1
  // The open edge (a → b) a following triangle must share, in its own winding order.
  let a = fan ? run.xyz[0]! : run.xyz[2]!
  let aSt = fan ? run.st[0]! : run.st[2]!
  let b = fan ? run.xyz[2]! : run.xyz[1]!
  let bSt = fan ? run.st[2]! : run.st[1]!

  for (;;) {
    // qdata rescans from start + 1 after every append: the earliest triangle on the edge decides,
    // and if it is already taken the run ends there.
    const entry = nextOnEdge(edges, triangles, start, a, aSt, b, bSt)
    if (entry < 0) break
    const j = Math.floor(entry / 3)
    if (used[j] !== 0) break
    const k2 = (entry - j * 3 + 2) % 3
    const nextXyz = triangles[j * 6 + k2]!
    const nextSt = triangles[j * 6 + 3 + k2]!
    if (fan || (count & 1) === 1) {
      b = nextXyz
      bSt = nextSt
    } else {
      a = nextXyz
      aSt = nextSt
    }
    run.xyz[count + 2] = nextXyz
    run.st[count + 2] = nextSt
    run.tris[count] = j
    count++
    used[j] = TRIAL
  }

  // qdata clears every trial mark after `start`; those are exactly this run's other triangles.
  for (let i = 1; i < count; i++) used[run.tris[i]!] = 0
  run.length = count
  run.fan = fan
  return count
}

function copyRun(from: Run, to: Run): void {
  to.xyz.set(from.xyz.subarray(0, from.length + 2))
  to.st.set(from.st.subarray(0, from.length + 2))
  to.tris.set(from.tris.subarray(0, from.length))
  to.length = from.length
  to.fan = from.fan
}

/**
 * The GL command stream (strips and fans, then a 0 terminator) exactly as Quake II's qdata builds it
 * (`BuildGlCmds`): for each triangle not yet used, in order, grow a fan and then a strip from each of its
 * 3 corners and keep the longest (the earliest on ties); a shared edge must match both xyz and st
 * indices. Each command is `+(n)` for a strip or `-(n)` for a fan, then per vertex s and t as float32
 * bits, `(s + 0.5) / skinWidth` and `(t + 0.5) / skinHeight`, and the xyz index.
 */
export function buildGlCommands(model: GlCommandSource): Int32Array {
  const { triangles, st } = model
  const { skinWidth, skinHeight } = model.header
  if (!(skinWidth > 0) || !(skinHeight > 0)) {
    throw new MD2Error('BAD_ARGUMENT', `skin size ${skinWidth}×${skinHeight} cannot map texture coordinates`, { section: 'glcmds' })
  }
  const numTris = Math.floor(triangles.length / 6)
  const used = new Uint8Array(numTris)
  const edges = indexEdges(triangles, numTris)
  const trial = newRun(numTris)
  const best = newRun(numTris)
  // Worst case: every triangle its own command of 1 + 3 × 3 words, plus the terminator.
  const words = new Int32Array(numTris * 10 + 1)
  const floats = new Float32Array(words.buffer)
  let pos = 0

  for (let i = 0; i < numTris; i++) {
    if (used[i] !== 0) continue
    best.length = 0
    for (const fan of [true, false]) {
      for (let startV = 0; startV < 3; startV++) {
        if (growRun(triangles, edges, used, i, startV, fan, trial) > best.length) copyRun(trial, best)
      }
    }
    for (let j = 0; j < best.length; j++) used[best.tris[j]!] = TAKEN

    const vertexCount = best.length + 2
    words[pos++] = best.fan ? -vertexCount : vertexCount
    for (let j = 0; j < vertexCount; j++) {
      const s = best.st[j]! * 2
      // C: float s = base_st[k].s; s = (s + 0.5) / skinwidth; computed in double, stored as float.
      floats[pos++] = (st[s]! + 0.5) / skinWidth
      floats[pos++] = (st[s + 1]! + 0.5) / skinHeight
      words[pos++] = best.xyz[j]!
    }
  }
  words[pos++] = 0
  return words.slice(0, pos)
}

/** One strip or fan as plain numbers: its kind and the xyz index of each vertex. */
export interface GlCommandTopology {
  mode: 'strip' | 'fan'
  indices: number[]
}

/**
 * The strips and fans of a GL command stream without their s,t: enough to compare two streams'
 * topology. Stops at the terminator; throws on a stream that runs short.
 */
export function glCommandTopology(data: Int32Array): GlCommandTopology[] {
  const commands: GlCommandTopology[] = []
  let pos = 0
  while (pos < data.length) {
    const word = data[pos++]!
    if (word === 0) break
    const count = Math.abs(word)
    if (pos + count * 3 > data.length) {
      throw new MD2Error('TRUNCATED', `command at word ${pos - 1} needs ${count * 3} words, ${data.length - pos} are left`, {
        section: 'glcmds',
      })
    }
    const indices: number[] = []
    for (let k = 0; k < count; k++) indices.push(data[pos + k * 3 + 2]!)
    commands.push({ mode: word > 0 ? 'strip' : 'fan', indices })
    pos += count * 3
  }
  return commands
}
