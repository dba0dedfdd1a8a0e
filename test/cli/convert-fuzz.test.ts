/**
 * `convert` on mutated .glb and .gltf files (issue #43): fields of the glTF set to wrong values, bytes of the
 * binary chunk flipped, files cut short, URIs pointed anywhere. Every run ends with exit 0, a coded refusal
 * (exit 1: an MD2Error code or a worded file error) or a usage error (exit 2); never an internal error, a
 * stack trace, a hang or a file written on a refusal. About 20 s. Deterministic (`FUZZ_SEED`, `FUZZ_RUNS` as
 * test/core/fuzz); a case that hangs ends the run, named by a watchdog thread.
 *
 * Then hostile URIs, names and outputs (issue #51): URIs of every kind (schemes, `..`, absolute, percent-encoded,
 * backslashes) in buffers and images of .gltf and .glb files, main input or animation input; skin names
 * stored in an .md2; OUT named as an input, a link to one, a side file that is one, or not in ASCII. No run
 * may make a request (a listener on 127.0.0.1 counts them), read a file outside its folder, or change an
 * input; every refusal names a file of the case.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readGLB, packGLB } from '../../src/core/gltf/glb'
import { buildRig, exportRig } from '../../stories/support/rig'
import { fileHashes, runOnDisk as run, runRecorded } from '../support/cli'
import { describeCase, FuzzWatchdog, FUZZ_RUN_FACTOR, fuzzSeed } from '../support/fuzz'
import { expectLinkUntouched, plantLink } from '../support/plantedLinks'

const SEED = fuzzSeed(0x6d6434)
/** No convert of these small files comes near it: past it, something loops. */
const CASE_LIMIT_MS = 20_000

let dir: string
let glb: Uint8Array
let json: Record<string, unknown>
let bin: Uint8Array

let server: Server
let requests = 0
let port = 0

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'md2-fuzz-'))
  const { scene, clips } = buildRig()
  glb = await exportRig(scene, clips)
  ;({ json, bin } = readGLB(glb))
  // Answers with the rig's buffer: a URI fetched would make the conversion succeed.
  server = createServer((_, response) => {
    requests++
    response.end(Buffer.from(bin))
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  port = (server.address() as AddressInfo).port
})
afterAll(async () => {
  await new Promise((done) => server.close(done))
  rmSync(dir, { recursive: true, force: true })
})

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
            // A refusal is one worded line (an MD2Error's code, or a file or loader message), after any warnings.
            expect(result.stderr.replace(/^[^\n]*: warning: [^\n]+\n/gm, '')).toMatch(
              /^[^\n]*: [A-Z][A-Z_]+: [^\n]+\n$|^[^\n]*: cannot read: [^\n]+\n$|^react-three-md2: /,
            )
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

/** A hostile URI: a scheme, a way out of the folder (`..`, absolute, encoded, backslashed), or one of those joined. */
const hostileURI = fc
  .tuple(
    fc.constantFrom(
      () => `http://127.0.0.1:${port}/`,
      () => `https://127.0.0.1:${port}/`,
      () => `//127.0.0.1:${port}/`,
      () => `HTTP://127.0.0.1:${port}/x/../`,
      () => 'file:///',
      () => 'file:',
      () => 'blob:',
      () => 'ftp://127.0.0.1/',
      () => 'data:text/plain,',
      () => '',
    ),
    fc.array(
      fc.constantFrom('../', '..\\', '%2e%2e/', '%2E%2E%2F', '..%2f', '..%5c', '.%2e/', 'sub/', './', '/', '\\', 'C:\\', 'c:/', '%00'),
      {
        minLength: 0,
        maxLength: 5,
      },
    ),
    fc.constantFrom('secret.bin', 'secret.png', 'etc/passwd', 'rig.bin', ''),
  )
  .map(([scheme, parts, file]) => scheme() + parts.join('') + file)

/** A skin name as an .md2 may store it: a game path leading out of the folder, in either slash, any case, with or without extension. */
const hostileSkinName = fc
  .tuple(
    fc.constantFrom('', '', '', 'file:', 'http://127.0.0.1/'),
    fc.array(fc.constantFrom('../', '..\\', 'sub/', './', '/', '\\', 'C:\\', '%2e%2e/', '../../'), { minLength: 0, maxLength: 4 }),
    fc.constantFrom('secret.png', 'SECRET.PNG', 'secret', '.secret', 'etc/passwd.png', 'a/model/tris.png'),
  )
  .map(([scheme, parts, file]) => scheme + parts.join('') + file)

/** A case: where the URI goes, which input it is in, and how OUT is named. */
const hostileCase = fc.record({
  // Now and then no hostile URI: the outputs are then what is tried.
  uri: fc.oneof({ arbitrary: hostileURI, weight: 3 }, { arbitrary: fc.constant(null), weight: 2 }),
  where: fc.constantFrom('buffer', 'image'),
  gltf: fc.boolean(),
  animationInput: fc.boolean(),
  out: fc.constantFrom(
    'out.md2',
    'modèle.md2',
    'name with spaces.md2',
    'buffer.md2',
    'link.md2',
    'sub/../out.md2',
    'out.anm-buffer',
    'out.pcx-buffer',
  ),
  force: fc.boolean(),
  // A link planted where an output may go (issue #57), to a victim outside the folder: dangling, or a file there.
  plant: fc.option(
    fc.record({ name: fc.constantFrom('out.md2', 'out.pcx', 'out.tga', 'out.anm', 'name with spaces.md2'), dangling: fc.boolean() }),
    { freq: 2 },
  ),
})

/** The rig as a .gltf (buffer in buffer.bin, image in rig.png) or a .glb, with the URI put where asked. */
function hostileInput(folder: string, uri: string | null, where: 'buffer' | 'image', gltf: boolean, bufferFile: string): string {
  const copy = structuredClone(json)
  const image = (copy.images as { uri?: string; bufferView?: number; mimeType?: string }[])[0]!
  const buffer = (copy.buffers as { uri?: string }[])[0]!
  if (gltf) {
    const view = (copy.bufferViews as { byteOffset: number; byteLength: number }[])[image.bufferView!]!
    writeFileSync(join(folder, 'rig.png'), bin.subarray(view.byteOffset, view.byteOffset + view.byteLength))
    writeFileSync(join(folder, bufferFile), bin)
    buffer.uri = bufferFile
    delete image.bufferView
    delete image.mimeType
    image.uri = 'rig.png'
  }
  if (uri === null) {
    // The file as it was.
  } else if (where === 'buffer') buffer.uri = uri
  else {
    delete image.bufferView
    delete image.mimeType
    image.uri = uri
  }
  const name = gltf ? 'bad.gltf' : 'bad.glb'
  writeFileSync(join(folder, name), gltf ? new TextEncoder().encode(JSON.stringify(copy)) : packGLB(copy, bin))
  return join(folder, name)
}

describe('hostile URIs, names and outputs', () => {
  it('no request, no read outside the folder, no input changed; every refusal names a file of the case', { timeout: 60_000 }, async () => {
    let run_ = 0
    const counts = { ok: 0, refused: 0, usage: 0 }
    /** Cases refused for a link planted where an output goes. */
    let linksRefused = 0
    const reasons = new Map<string, number>()
    const watchdog = new FuzzWatchdog(CASE_LIMIT_MS)
    await fc
      .assert(
        fc.asyncProperty(hostileCase, async (hostile) => {
          watchdog.start(`FUZZ_SEED=${SEED}, hostile run ${run_}: ${describeCase(hostile)}`)
          const root = join(dir, `hostile${run_++}`)
          rmSync(root, { recursive: true, force: true })
          const folder = join(root, 'model')
          mkdirSync(folder, { recursive: true })
          // Outside the folder: the real buffer and image under the names a URI may lead to.
          writeFileSync(join(root, 'secret.bin'), bin)
          writeFileSync(join(root, 'rig.bin'), bin)
          writeFileSync(join(folder, 'rig.glb'), glb)
          // OUT as one of the inputs: the .gltf's buffer, a link to an input, a side file that is the buffer.
          const side = /^out\.(anm|pcx)-buffer$/.exec(hostile.out)?.[1]
          const bufferFile = hostile.out === 'buffer.md2' ? 'buffer.md2' : side ? `out.${side}` : 'buffer.bin'
          const bad = hostileInput(folder, hostile.uri, hostile.where, hostile.gltf, bufferFile)
          const outName = side ? 'out.md2' : hostile.out
          if (outName === 'link.md2') symlinkSync(join(folder, 'rig.glb'), join(folder, 'link.md2'))
          const inputs = hostile.animationInput ? [join(folder, 'rig.glb'), bad] : [bad]
          const options = [...(hostile.force ? ['--force'] : []), ...(side === 'anm' ? ['--fps', '20'] : [])]
          const victim = join(root, 'victim', 'planted')
          if (hostile.plant && !hostile.plant.dangling) {
            mkdirSync(join(root, 'victim'))
            writeFileSync(victim, 'the victim')
          }
          const before = fileHashes(root)
          // Planted after the hashes are taken: a dangling link has none.
          const link = hostile.plant && !existsSync(join(folder, hostile.plant.name)) ? join(folder, hostile.plant.name) : undefined
          if (link) plantLink(link, victim)
          const { code, stdout, stderr, read } = await runRecorded(['convert', ...inputs, join(folder, outName), ...options])
          const label = `${describeCase(hostile)}: ${stderr}`
          if (link) {
            // Never written through, nor replaced: refused where the run would write it, left alone elsewhere.
            expectLinkUntouched(link, victim, hostile.plant!.dangling ? undefined : 'the victim', label)
            if (hostile.plant!.name === outName) expect(code, label).not.toBe(0)
            if (stderr.startsWith(`${link}: UNSAFE_PATH: output: ${link} is a link`)) linksRefused++
            rmSync(link)
          }
          expect(requests, label).toBe(0)
          expect(stderr, label).not.toMatch(/internal error/)
          expect(
            read.filter((path) => !path.startsWith(`${folder}/`)),
            label,
          ).toEqual([])
          const after = fileHashes(root)
          for (const [path, hash] of before) if (!path.endsWith('link.md2')) expect(after.get(path), `${label} ${path}`).toBe(hash)
          if (code === 0) {
            counts.ok++
            expect(stdout).toMatch(/^wrote /)
          } else {
            if (code === 1) counts.refused++
            else counts.usage++
            const reason =
              /: (UNSAFE_PATH: uri: URI|cannot write: it is|cannot name|[A-Z_]+|cannot read|already there)/.exec(stderr)?.[1] ??
              stderr.slice(0, 30)
            reasons.set(reason, (reasons.get(reason) ?? 0) + 1)
            expect(stdout).toBe('')
            // One line naming a file of the case (or the usage's own prefix), then nothing new left behind.
            expect(stderr, label).toMatch(
              new RegExp(`^(${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/[^\n]*: [^\n]+\n|react-three-md2: )`),
            )
            expect([...after.keys()].sort(), label).toEqual([...before.keys()].sort())
          }
          rmSync(root, { recursive: true, force: true })
          watchdog.finish()
        }),
        { seed: SEED, numRuns: Math.round(150 * FUZZ_RUN_FACTOR), interruptAfterTimeLimit: 20_000 * FUZZ_RUN_FACTOR },
      )
      .finally(() => watchdog.close())
    console.log(
      `hostile URIs and outputs: ${run_} runs, ${requests} requests, ${linksRefused} refused for a planted link:`,
      counts,
      [...reasons].sort((a, b) => b[1] - a[1]),
    )
    expect(counts.ok).toBeGreaterThan(0)
    expect(counts.refused).toBeGreaterThan(run_ / 2)
    expect(linksRefused).toBeGreaterThan(0)
  })

  it('skin names stored in an .md2: nothing outside the model’s folder read or embedded', { timeout: 60_000 }, async () => {
    const base = join(dir, 'skins')
    mkdirSync(base, { recursive: true })
    writeFileSync(join(base, 'rig.glb'), glb)
    const made = await run(['convert', join(base, 'rig.glb'), join(base, 'rig.md2'), '--skin-format', 'png'])
    expect(made.code).toBe(0)
    const md2 = new Uint8Array(readFileSync(join(base, 'rig.md2')))
    const png = readFileSync(join(base, 'rig.png'))
    const skinsAt = new DataView(md2.buffer).getInt32(44, true)
    let run_ = 0
    let embedded = 0
    await fc.assert(
      fc.asyncProperty(hostileSkinName, async (name) => {
        const root = join(dir, `skin${run_++}`)
        const folder = join(root, 'a', 'model')
        mkdirSync(folder, { recursive: true })
        // The skin under every name a way out may reach: were one read, it would be embedded.
        for (const at of [root, join(root, 'a'), join(root, 'etc')]) {
          mkdirSync(at, { recursive: true })
          for (const file of ['secret.png', 'passwd.png', 'tris.png']) writeFileSync(join(at, file), png)
        }
        const bytes = md2.slice()
        const stored = new TextEncoder().encode(name).subarray(0, 63)
        bytes.fill(0, skinsAt, skinsAt + 64)
        bytes.set(stored, skinsAt)
        writeFileSync(join(folder, 'tris.md2'), bytes)
        const before = fileHashes(root)
        const { code, read } = await runRecorded(['convert', join(folder, 'tris.md2'), join(folder, 'tris.glb')])
        expect(code, name).toBe(0)
        expect(read, name).toEqual([join(folder, 'tris.md2')])
        expect(readGLB(readFileSync(join(folder, 'tris.glb'))).json.images, name).toBeUndefined()
        const after = fileHashes(root)
        for (const [path, hash] of before) expect(after.get(path), path).toBe(hash)
        if (after.size !== before.size + 1) embedded++
        rmSync(root, { recursive: true, force: true })
      }),
      { seed: SEED, numRuns: Math.round(60 * FUZZ_RUN_FACTOR), interruptAfterTimeLimit: 15_000 * FUZZ_RUN_FACTOR },
    )
    expect(embedded).toBe(0)
    expect(requests).toBe(0)
  })
})
