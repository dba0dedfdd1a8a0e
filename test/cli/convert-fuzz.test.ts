/**
 * `convert` on mutated .glb and .gltf files (issue #43): fields of the glTF set to wrong values, bytes of the
 * binary chunk flipped, files cut short, URIs pointed anywhere. Every run ends with exit 0, a coded refusal
 * (exit 1: an MD2Error code or a worded file error) or a usage error (exit 2); never an internal error, a
 * stack trace, a hang or a file written on a refusal. About 20 s. Deterministic (`FUZZ_SEED`, `FUZZ_RUNS` as
 * test/core/fuzz); a case that hangs ends the run, named by a watchdog thread.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readGLB, packGLB } from '../../src/core/gltf/glb'
import { buildRig, exportRig } from '../../stories/support/rig'
import { runOnDisk as run } from '../support/cli'
import { describeCase, FuzzWatchdog, FUZZ_RUN_FACTOR, fuzzSeed } from '../support/fuzz'

const SEED = fuzzSeed(0x6d6434)
/** No convert of these small files comes near it: past it, something loops. */
const CASE_LIMIT_MS = 20_000

let dir: string
let glb: Uint8Array
let json: Record<string, unknown>
let bin: Uint8Array

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'md2-fuzz-'))
  const { scene, clips } = buildRig()
  glb = await exportRig(scene, clips)
  ;({ json, bin } = readGLB(glb))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Every path to a number, string or array in the glTF's JSON, as keys. */
function fieldPaths(value: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (at.length > 0) out.push(at)
  if (Array.isArray(value)) value.forEach((item, i) => fieldPaths(item, [...at, i], out))
  else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) fieldPaths(item, [...at, key], out)
  return out
}

function setAt(root: Record<string, unknown>, path: readonly (string | number)[], value: unknown): void {
  let node = root as Record<string | number, unknown>
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>
  if (value === undefined) Reflect.deleteProperty(node, path[path.length - 1]!)
  else node[path[path.length - 1]!] = value
}

const wrongValue = fc.oneof(
  fc.integer({ min: -3, max: 70_000 }),
  fc.constantFrom(0, 1, 2, 3, 5121, 5123, 5125, 5126, 2 ** 31, 2 ** 32 + 1, Number.MAX_SAFE_INTEGER, -1, 1e308),
  fc.double(),
  fc.constantFrom('VEC3', 'MAT4', 'SCALAR', 'translation', 'weights', 'image/png', 'STEP', 'CUBICSPLINE', ''),
  fc.constantFrom(null, true, [], {}, [0, 0, 0], [1e30, -1e30, 0]),
  fc.constantFrom(
    '../secret.bin',
    '/etc/passwd',
    'file:///etc/passwd',
    'data:application/octet-stream;base64,AAAA',
    'data:,x',
    'missing.bin',
  ),
  fc.constant(undefined),
)

/** A mutation: up to three fields set wrong, bytes of the binary chunk flipped, now and then the file cut. */
const mutation = fc.record({
  fields: fc.array(fc.tuple(fc.nat(), wrongValue), { maxLength: 3 }),
  flips: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { maxLength: 4 }),
  // Per mille of the file kept, now and then.
  cut: fc.oneof({ arbitrary: fc.constant(null), weight: 9 }, { arbitrary: fc.integer({ min: 1, max: 999 }), weight: 1 }),
  gltf: fc.boolean(),
  fps: fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, { arbitrary: fc.constantFrom('5', '20'), weight: 1 }),
})

describe('convert survives mutated glTF files', () => {
  it('every run a result or a coded, worded refusal; nothing written on a refusal', { timeout: 60_000 }, async () => {
    const paths = fieldPaths(json)
    let run_ = 0
    const counts = { ok: 0, refused: 0, usage: 0 }
    const reasons = new Map<string, number>()
    const started = performance.now()
    const watchdog = new FuzzWatchdog(CASE_LIMIT_MS)
    await fc
      .assert(
        fc.asyncProperty(mutation, async ({ fields, flips, cut, gltf, fps }) => {
          watchdog.start(`FUZZ_SEED=${SEED}, run ${run_}: ${describeCase({ fields, flips, cut, gltf, fps })}`)
          const folder = join(dir, `run${run_++}`)
          rmSync(folder, { recursive: true, force: true })
          const copy = structuredClone(json)
          for (const [pick, value] of fields) {
            const path = paths[pick % paths.length]!
            try {
              setAt(copy, path, value)
            } catch {
              // The path's parent was replaced by an earlier mutation.
            }
          }
          const data = bin.slice()
          for (const [at, xor] of flips) data[at % data.length]! ^= xor
          let bytes: Uint8Array
          let name: string
          if (gltf) {
            const buffers = Array.isArray(copy.buffers) ? (copy.buffers as { uri?: unknown }[]) : []
            if (buffers[0] && typeof buffers[0] === 'object' && buffers[0].uri === undefined) buffers[0].uri = 'rig.bin'
            bytes = new TextEncoder().encode(JSON.stringify(copy))
            name = 'rig.gltf'
          } else {
            bytes = packGLB(copy, data)
            name = 'rig.glb'
          }
          if (cut !== null) bytes = bytes.subarray(0, Math.floor((bytes.length * cut) / 1000))
          mkdirSync(folder)
          writeFileSync(join(folder, name), bytes)
          if (gltf) writeFileSync(join(folder, 'rig.bin'), data)
          const before = readdirSync(folder).sort()
          const result = await run(['convert', join(folder, name), join(folder, 'out.md2'), ...(fps ? ['--fps', fps] : [])])
          expect(result.stderr).not.toMatch(/internal error/)
          expect([0, 1, 2]).toContain(result.code)
          if (result.code === 0) {
            counts.ok++
            expect(result.stdout).toMatch(/^wrote /)
          } else {
            const reason = result.stderr.replace(/^[^:]*: /, '').slice(0, 40)
            reasons.set(reason, (reasons.get(reason) ?? 0) + 1)
            if (result.code === 1) counts.refused++
            else counts.usage++
            expect(result.stdout).toBe('')
            // A refusal is one worded line (an MD2Error's code, or a file or loader message).
            expect(result.stderr).toMatch(/^[^\n]*: [A-Z][A-Z_]+: [^\n]+\n$|^[^\n]*: cannot read: [^\n]+\n$|^react-three-md2: /)
            expect(readdirSync(folder).sort()).toEqual(before)
          }
          rmSync(folder, { recursive: true, force: true })
          watchdog.finish()
        }),
        { seed: SEED, numRuns: Math.round(600 * FUZZ_RUN_FACTOR), interruptAfterTimeLimit: 18_000 * FUZZ_RUN_FACTOR },
      )
      .finally(() => watchdog.close())
    console.log('most frequent refusals:', [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(`convert fuzz: ${run_} runs in ${((performance.now() - started) / 1000).toFixed(1)} s:`, counts)
  })
})
