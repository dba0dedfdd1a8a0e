/**
 * Fuzzing bakeMD2 (issue 43): an exported rig's .glb damaged at random (its binary data: positions,
 * indices, joints, weights, key times and values; its JSON: counts, offsets, node names), loaded by three's
 * GLTFLoader and baked, with and without `simplify`; and random option values. Whatever the loader
 * accepts, bakeMD2 either writes a model that reads back with finite frames or throws an `MD2Error`: never
 * another error, NaN in a frame, or a hang. Deterministic (`FUZZ_SEED`, `FUZZ_RUNS` as test/core/fuzz).
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isMD2Error } from '../../src/core/MD2Error'
import { decodeFrame } from '../../src/core/format/decodeFrame'
import { ENGINE_LIMITS } from '../../src/core/format/spec'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { writeMD2 } from '../../src/core/format/writeMD2'
import { packGLB, readGLB } from '../../src/core/gltf/glb'
import { bakeMD2, type BakeMD2Options } from '../../src/three/convert/bakeMD2'
import { loadSimplifier } from '../../src/three/convert/loadSimplifier'
import { buildCharacter } from '../../stories/support/character'
import { buildRig, exportRig } from '../../stories/support/rig'
import { fuzzSeed, FUZZ_RUN_FACTOR } from '../support/fuzz'
import { loadGLB } from '../support/skinnedReference'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { dropImages } from '../../src/cli/readInputs'

const SEED = fuzzSeed(0x6d6432)
const RUNS = FUZZ_RUN_FACTOR
/** No bake of these small files comes near it: past it, something loops. */
const CALL_LIMIT_MS = 3000
const LOADER_LIMIT_MS = 3000

let rig: Uint8Array
let dense: Uint8Array
const outcomes: Record<string, number> = {}
let slowest = 0

/**
 * A damaged file can make several of GLTFLoader's steps fail, of which it awaits one: the others reject
 * unhandled. Those (thrown inside GLTFLoader.js) are the loader's, not bakeMD2's door, and are counted
 * here; any other unhandled rejection still reaches the test runner.
 */
let restoreRejections = () => {}
beforeAll(() => {
  const runner = process.listeners('unhandledRejection')
  process.removeAllListeners('unhandledRejection')
  const listener = (reason: unknown, promise: Promise<unknown>) => {
    if (reason instanceof Error && /GLTFLoader\.js/.test(reason.stack ?? '')) outcomes.loaderStray = (outcomes.loaderStray ?? 0) + 1
    else for (const handle of runner) handle(reason, promise)
  }
  process.on('unhandledRejection', listener)
  restoreRejections = () => {
    process.off('unhandledRejection', listener)
    for (const handle of runner) process.on('unhandledRejection', handle)
  }
})
afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, 100))
  restoreRejections()
})

beforeAll(async () => {
  const small = buildRig()
  rig = await exportRig(small.scene, small.clips)
  const character = buildCharacter({ detail: 0.2 })
  dense = await exportRig(character.scene, character.clips)
  await loadSimplifier()
})

/** Bakes and checks the outcome: a model that reads back with finite frames within MD2's limits, or an MD2Error. */
function bakeChecked(scene: Parameters<typeof bakeMD2>[0], clips: Parameters<typeof bakeMD2>[1], options: unknown): void {
  const started = performance.now()
  try {
    const { model } = bakeMD2(scene, clips, options as BakeMD2Options)
    const read = parseMD2(writeMD2(model))
    expect(read.header.numVertices).toBeLessThanOrEqual(ENGINE_LIMITS.vertices)
    expect(read.header.numTris).toBeLessThanOrEqual(ENGINE_LIMITS.triangles)
    for (let f = 0; f < read.header.numFrames; f++) expect(decodeFrame(read, f).every(Number.isFinite)).toBe(true)
    outcomes.baked = (outcomes.baked ?? 0) + 1
  } catch (error) {
    if (!isMD2Error(error)) throw error
    outcomes[error.code] = (outcomes[error.code] ?? 0) + 1
  }
  const ms = performance.now() - started
  slowest = Math.max(slowest, ms)
  expect(ms).toBeLessThan(CALL_LIMIT_MS)
}

/** Through three's GLTFLoader as `loadGLB` does, its textures left out. */
async function loaded(glb: Uint8Array) {
  const { json, bin } = readGLB(glb)
  dropImages(json)
  const loader = new GLTFLoader()
  let timer: ReturnType<typeof setTimeout> | undefined
  // Some damage (a node among its own children) leaves the loader waiting for ever: not bakeMD2's door either.
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('stalled')), LOADER_LIMIT_MS)
  })
  try {
    return await Promise.race([loader.parseAsync(packGLB(json, bin).slice().buffer, ''), stalled])
  } catch {
    // The loader's own refusal: not bakeMD2's door.
    outcomes.loader = (outcomes.loader ?? 0) + 1
    return undefined
  } finally {
    clearTimeout(timer)
  }
}

const SPECIAL = [Number.NaN, Number.POSITIVE_INFINITY, -1e38, 1e38, 0, -0, 65535, 1e-45, 3.5, -1]

describe('bakeMD2 fuzzed', () => {
  it('damaged binary data: an MD2Error or a usable model', async () => {
    const { json, bin } = readGLB(rig)
    const floats = Math.floor(bin.length / 4)
    const edit = fc.oneof(
      fc.record({ kind: fc.constant('byte' as const), at: fc.nat(bin.length - 1), value: fc.nat(255) }),
      fc.record({ kind: fc.constant('float' as const), at: fc.nat(floats - 1), value: fc.constantFrom(...SPECIAL) }),
      fc.record({ kind: fc.constant('short' as const), at: fc.nat(floats * 2 - 1), value: fc.constantFrom(3, 40, 255, 65535) }),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 12 }), fc.boolean(), async (edits, simplify) => {
        const damaged = bin.slice()
        const view = new DataView(damaged.buffer)
        for (const { kind, at, value } of edits) {
          if (kind === 'byte') damaged[at] = value
          else if (kind === 'float') view.setFloat32(at * 4, value, true)
          else view.setUint16(at * 2, value, true)
        }
        const gltf = await loaded(packGLB(json, damaged))
        if (gltf) bakeChecked(gltf.scene, gltf.animations, simplify ? { simplify: 100 } : {})
      }),
      { seed: SEED, numRuns: Math.round(180 * RUNS) },
    )
  })

  it('damaged JSON: counts, offsets, names and targets', async () => {
    const { json, bin } = readGLB(rig)
    const text = JSON.stringify(json)
    // Every number and every node, mesh or clip name in the JSON is a place to damage.
    const places = [...text.matchAll(/(?<![-\d.e])-?\d+(\.\d+)?(e[-+]?\d+)?|(?<="name":)"[^"]*"/g)].map(
      (m) => [m.index, m[0].length] as const,
    )
    const replacement = fc.constantFrom('0', '1', '7', '-1', '4096', '1e9', '0.5', '"hips"', '"spine"', '"nowhere"', 'null')
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.nat(places.length - 1), replacement), { minLength: 1, maxLength: 4 }), async (edits) => {
        let damaged = text
        for (const [p, value] of [...edits].sort((a, b) => places[b[0]]![0] - places[a[0]]![0])) {
          const [at, length] = places[p]!
          damaged = damaged.slice(0, at) + value + damaged.slice(at + length)
        }
        let parsed: Record<string, unknown>
        try {
          parsed = JSON.parse(damaged) as Record<string, unknown>
        } catch {
          return
        }
        const gltf = await loaded(packGLB(parsed, bin))
        if (gltf) bakeChecked(gltf.scene, gltf.animations, {})
      }),
      { seed: SEED + 1, numRuns: Math.round(180 * RUNS) },
    )
  })

  it('a high-poly character damaged, simplified', async () => {
    const { json, bin } = readGLB(dense)
    const floats = Math.floor(bin.length / 4)
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(floats - 1), fc.constantFrom(...SPECIAL)), { minLength: 1, maxLength: 6 }),
        async (edits) => {
          const damaged = bin.slice()
          const view = new DataView(damaged.buffer)
          for (const [at, value] of edits) view.setFloat32(at * 4, value, true)
          const gltf = await loaded(packGLB(json, damaged))
          if (gltf) bakeChecked(gltf.scene, gltf.animations, { simplify: true, fps: 5 })
        },
      ),
      { seed: SEED + 2, numRuns: Math.round(20 * RUNS) },
    )
  })

  it('random option values', async () => {
    const gltf = await loadGLB(rig)
    const names = ['fps', 'clips', 'meshes', 'scale', 'skinWidth', 'skinHeight', 'skins', 'name', 'onWarning', 'simplify']
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...names), fc.anything({ maxDepth: 1 }), { maxKeys: 3 }), (options) => {
        bakeChecked(gltf.scene, gltf.animations, options)
      }),
      { seed: SEED + 3, numRuns: Math.round(120 * RUNS) },
    )
    console.log(`bakeMD2 fuzz outcomes ${JSON.stringify(outcomes)}, slowest call ${slowest.toFixed(0)} ms`)
  })
})
