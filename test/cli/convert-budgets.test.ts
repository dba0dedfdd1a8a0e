/**
 * convert's budgets (issue #57): inputs that amplify what they cost. Each file a URI names is read once a
 * run however often it is named, the run's reading and allocating is counted against `--max-bytes` and
 * refused past it before the bytes are spent, a deep node hierarchy is checked in one pass and refused
 * before three's recursive loader meets it, an .md2 whose morph targets would take gigabytes is refused
 * from its counts. Speed belongs to benchmarks: these assert behaviour, with bounds only against hangs.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { checkGLTF } from '../../src/cli/checkGLTF'
import { loadGLTF } from '../../src/cli/readInputs'
import { nodeIO, runCli, type CliIO } from '../../src/cli/main'
import { createMD2 } from '../../src/core/format/createMD2'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { writeMD2 } from '../../src/core/format/writeMD2'
import { packGLB, readGLB } from '../../src/core/gltf/glb'
import { glbSize, writeGLB } from '../../src/core/gltf/writeGLB'
import { quantizeToPalette } from '../../src/core/images/encodePCX'
import { deltaE2000, srgb8ToLab } from '../../src/core/images/colorLab'
import { QUAKE2_PALETTE } from '../../src/core/images/quake2Palette'
import { readAsset } from '../support/assets'
import { runRecorded } from '../support/cli'
import { writeGLTF } from '../support/gltfFiles'
import { buildRig, exportRig } from '../../stories/support/rig'

const dir = mkdtempSync(join(tmpdir(), 'md2-budgets-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The Ogro as .glb, skin embedded: a real model with a mesh, morph targets, clips and a texture. */
const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2'), { name: 'ogro.md2' })
const ogroGLB = writeGLB(ogro, { animations: false, skin: { width: 8, height: 8, data: new Uint8Array(256).fill(200) } })

/** How many times the run read each real path. */
const readsOf = (read: string[], path: string) => read.filter((p) => p === realpathSync(path)).length

describe('every file a URI names is read once a run', () => {
  it('100 buffers naming one .bin and 200 images naming the .gltf itself: each read once, the model written', async () => {
    const { gltf } = writeGLTF(ogroGLB, dir, 'many')
    const json = JSON.parse(readFileSync(gltf, 'utf8')) as Record<string, unknown>
    const buffer = (json.buffers as { uri: string; byteLength: number }[])[0]!
    json.buffers = Array.from({ length: 100 }, () => ({ ...buffer }))
    // The views spread over the buffers: each buffer is used, all of them the same file.
    ;(json.bufferViews as { buffer: number }[]).forEach((view, i) => (view.buffer = i % 100))
    json.images = [...(json.images as object[]), ...Array.from({ length: 200 }, () => ({ uri: 'many.gltf' }))]
    json.textures = (json.images as object[]).map((_, i) => ({ source: i }))
    writeFileSync(gltf, JSON.stringify(json))
    const out = join(dir, 'many.md2')
    const run = await runRecorded(['convert', gltf, out, '--force'])
    expect(run.stderr).not.toMatch(/internal error/)
    expect(run.code).toBe(0)
    expect(readsOf(run.read, join(dir, 'many.bin'))).toBe(1)
    expect(readsOf(run.read, gltf)).toBe(1)
    expect(parseMD2(readFileSync(out)).header.numTris).toBe(ogro.header.numTris)
  }, 60_000)

  it('a budget too small for the files named: refused with a coded line naming the sizes, nothing written', async () => {
    const { gltf } = writeGLTF(ogroGLB, dir, 'small')
    const out = join(dir, 'small.md2')
    const run = await runRecorded(['convert', gltf, out, '--max-bytes', '20K'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /OUT_OF_RANGE: budget: .* needs [\d,]+ bytes, which would bring this run to [\d,]+, past its budget of 20,480 bytes \(--max-bytes N allows more\)/,
    )
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
    expect(nodeIO.exists(out)).toBe(false)
    // The same with room: converted.
    expect((await runRecorded(['convert', gltf, out, '--max-bytes', '64M'])).code).toBe(0)
  }, 60_000)

  it('--max-bytes that is not a size is a usage error', async () => {
    const run = await runRecorded(['convert', 'a.gltf', 'b.md2', '--max-bytes', 'lots'])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/--max-bytes lots: not a number of bytes/)
  })

  it('120 images naming one PNG file: the file read once, the model written', async () => {
    const { gltf, png } = writeGLTF(ogroGLB, dir, 'shared')
    const json = JSON.parse(readFileSync(gltf, 'utf8')) as Record<string, unknown>
    json.images = Array.from({ length: 120 }, () => ({ uri: 'shared.png' }))
    json.textures = Array.from({ length: 120 }, (_, i) => ({ source: i }))
    writeFileSync(gltf, JSON.stringify(json))
    const started = performance.now()
    const run = await runRecorded(['convert', gltf, join(dir, 'shared.md2'), '--skin-format', 'tga'])
    expect(run.stderr).not.toMatch(/internal error/)
    expect(run.code).toBe(0)
    expect(readsOf(run.read, join(dir, 'shared.png'))).toBe(1)
    expect(png.length).toBeGreaterThan(0)
    expect(performance.now() - started).toBeLessThan(60_000)
  }, 90_000)
})

/** A glTF JSON with `count` nodes, each the child of the one before. */
function chain(count: number): Record<string, unknown> {
  const nodes = Array.from({ length: count }, (_, i) => (i + 1 < count ? { children: [i + 1] } : {}))
  return { asset: { version: '2.0' }, nodes, scenes: [{ nodes: [0] }] }
}

describe("what the bake merges is charged from the JSON, before three's loader runs", () => {
  /** The Ogro's mesh drawn by `instances` nodes: a small file whose bake would merge each instance apart. */
  const instanced = (name: string, instances: number) => {
    const { gltf } = writeGLTF(ogroGLB, dir, name)
    const json = JSON.parse(readFileSync(gltf, 'utf8')) as Record<string, unknown>
    json.nodes = Array.from({ length: instances }, (_, i) => ({ mesh: 0, translation: [i * 50, 0, 0] }))
    json.scenes = [{ nodes: Array.from({ length: instances }, (_, i) => i) }]
    delete json.animations
    writeFileSync(gltf, JSON.stringify(json))
    return gltf
  }

  it('one mesh drawn 400 times: refused naming the merge, nothing written; drawn twice, baked in the same budget', async () => {
    const many = await runRecorded(['convert', instanced('instanced-many', 400), join(dir, 'instanced-many.md2'), '--max-bytes', '16M'])
    expect(many.code).toBe(1)
    expect(many.stderr).toMatch(/OUT_OF_RANGE: budget: merging the meshes drawn \(each instance of a mesh apart\) needs [\d,]+ bytes/)
    expect(existsSync(join(dir, 'instanced-many.md2'))).toBe(false)
    const two = await runRecorded(['convert', instanced('instanced-two', 2), join(dir, 'instanced-two.md2'), '--max-bytes', '16M'])
    expect(two.stderr).not.toMatch(/budget/)
    expect(two.code).toBe(0)
    expect(parseMD2(readFileSync(join(dir, 'instanced-two.md2'))).header.numTris).toBe(2 * ogro.header.numTris)
  }, 60_000)

  it("2,000 meshes each reading its own view of one file: refused before three's loader copies each view", async () => {
    const { gltf } = writeGLTF(ogroGLB, dir, 'views')
    type Json = {
      accessors: { bufferView: number }[]
      bufferViews: object[]
      meshes: { primitives: { attributes: Record<string, number> }[] }[]
    }
    const json = JSON.parse(readFileSync(gltf, 'utf8')) as Json & Record<string, unknown>
    const position = json.meshes[0]!.primitives[0]!.attributes.POSITION!
    for (let i = 0; i < 2000; i++) {
      json.bufferViews.push({ ...json.bufferViews[json.accessors[position]!.bufferView]! })
      json.accessors.push({ ...json.accessors[position]!, bufferView: json.bufferViews.length - 1 })
      json.meshes.push({ primitives: [{ attributes: { POSITION: json.accessors.length - 1 } }] })
    }
    json.nodes = json.meshes.map((_, mesh) => ({ mesh }))
    json.scenes = [{ nodes: json.meshes.map((_, i) => i) }]
    delete json.animations
    writeFileSync(gltf, JSON.stringify(json))
    const run = await runRecorded(['convert', gltf, join(dir, 'views.md2'), '--max-bytes', '8M'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/OUT_OF_RANGE: budget: three's loader copying the buffer views needs [\d,]+ bytes/)
    expect(existsSync(join(dir, 'views.md2'))).toBe(false)
  }, 60_000)
})

describe('an image several textures use is decoded once', () => {
  it('120 materials, each its own texture of one image: one decode, every texture its pixels', async () => {
    const { json, bin } = readGLB(ogroGLB)
    const primitive = (json.meshes as { primitives: object[] }[])[0]!.primitives[0]!
    ;(json.meshes as { primitives: object[] }[])[0]!.primitives = Array.from({ length: 120 }, (_, i) => ({ ...primitive, material: i }))
    json.materials = Array.from({ length: 120 }, (_, i) => ({ pbrMetallicRoughness: { baseColorTexture: { index: i } } }))
    json.textures = Array.from({ length: 120 }, () => ({ source: 0, sampler: 0 }))
    let decodes = 0
    const gltf = await loadGLTF('shared.glb', { json, bin }, (image) => (decodes++, image))
    expect(decodes).toBe(1)
    const maps = new Set<unknown>()
    gltf.scene.traverse((object) => {
      type Material = { map?: { image?: { data?: unknown } } }
      const materials = (object as { material?: Material | Material[] }).material
      for (const material of Array.isArray(materials) ? materials : materials ? [materials] : []) maps.add(material.map?.image?.data)
    })
    // Every texture holds the one decoded image's pixels.
    expect(maps.size).toBe(1)
    expect([...maps][0]).toBeInstanceOf(Uint8Array)
  }, 60_000)
})

describe('the node hierarchy is checked in one pass, without recursion', () => {
  it('a chain of 50,000 nodes: refused as too deep, at once', () => {
    const started = performance.now()
    expect(() => checkGLTF(chain(50_000), 0, 'chain.glb')).toThrow(/nodes\[\d+\] is 1001 nodes below its root, past 1000/)
    expect(performance.now() - started).toBeLessThan(5_000)
  })

  it('a chain of 1,000 passes; a cycle at the end of a long chain is still found', () => {
    expect(() => checkGLTF(chain(1000), 0, 'chain.glb')).not.toThrow()
    const looped = chain(900)
    ;(looped.nodes as { children?: number[] }[])[899]!.children = [450]
    // 450 is then under two parents: the first check names it.
    expect(() => checkGLTF(looped, 0, 'loop.glb')).toThrow(/already under node/)
    const ring = { asset: { version: '2.0' }, nodes: Array.from({ length: 20_000 }, (_, i) => ({ children: [(i + 1) % 20_000] })) }
    const started = performance.now()
    expect(() => checkGLTF(ring, 0, 'ring.glb')).toThrow(/is its own ancestor/)
    expect(performance.now() - started).toBeLessThan(5_000)
  })

  it('a .glb of 50,000 chained nodes given to convert: one coded line, no stack overflow', async () => {
    const { json, bin } = readGLB(ogroGLB)
    const nodes = json.nodes as Record<string, unknown>[]
    const deep = chain(50_000).nodes as Record<string, unknown>[]
    deep[deep.length - 1] = { ...nodes[0]! }
    json.nodes = deep
    json.scenes = [{ nodes: [0] }]
    const path = join(dir, 'deep.glb')
    writeFileSync(path, packGLB(json, bin))
    const run = await runRecorded(['convert', path, join(dir, 'deep.md2')])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/deep\.glb: OUT_OF_RANGE: gltf: nodes\[\d+\] is 1001 nodes below its root/)
    expect(run.stderr).not.toMatch(/call stack|internal error/)
  }, 60_000)
})

/**
 * An .md2 of `frames` keyframes of 160 vertices and 20,000 triangles whose corners each have texture
 * coordinates of their own: about 1 MB of MD2, 60,000 drawn vertices, so a morph target of 1.4 MB a frame.
 */
function bigFrameMD2(frames: number): Uint8Array {
  const vertices = 160
  const random = (seed: number) => () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32
  const next = random(7)
  const positions = Array.from({ length: frames }, (_, f) => Float32Array.from({ length: vertices * 3 }, (_, i) => ((i * 7 + f) % 61) - 30))
  const triangles = Uint16Array.from({ length: 20_000 * 3 }, (_, i) => (i * 37 + Math.floor(i / 3)) % vertices)
  const uvs = Float32Array.from({ length: 20_000 * 6 }, () => next())
  return writeMD2(createMD2({ frames: positions, triangles, uvs, uvLayout: 'corner', skinWidth: 4096, skinHeight: 4096, name: 'big.md2' }))
}

describe('.md2 → .glb: the output measured from the model before it is written', () => {
  it('glbSize is the size writeGLB writes (the JSON and skin at the most)', () => {
    const skin = { width: 64, height: 64, data: new Uint8Array(64 * 64 * 4).fill(90) }
    const size = glbSize(ogro, { skin })
    const written = writeGLB(ogro, { skin })
    const { bin } = readGLB(written)
    // The skin's PNG is counted at the most; without it the binary chunk is exact.
    expect(glbSize(ogro).binBytes).toBe(readGLB(writeGLB(ogro)).bin.length)
    expect(size.binBytes).toBeGreaterThanOrEqual(bin.length)
    expect(size.totalBytes).toBeGreaterThanOrEqual(written.length)
    expect(size.totalBytes).toBeLessThan(written.length + 64 * 64 * 4 + 200 * ogro.header.numFrames + 8192)
  })

  it('morph targets past the budget: refused from the counts, before they are allocated', async () => {
    const path = join(dir, 'big.md2')
    writeFileSync(path, bigFrameMD2(200))
    const before = process.memoryUsage()
    const run = await runRecorded(['convert', path, join(dir, 'big.glb'), '--max-bytes', '100M'])
    const after = process.memoryUsage()
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /big\.md2: OUT_OF_RANGE: budget: .*big\.glb: a \.glb of [\d,]+ bytes \(200 keyframes × [\d,]+ vertices as morph targets\) needs [\d,]+ bytes/,
    )
    expect(run.stderr).not.toMatch(/internal error/)
    expect(nodeIO.exists(join(dir, 'big.glb'))).toBe(false)
    // 200 keyframes of 1.4 MB would be 280 MB of targets: nothing near it was allocated.
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(100 * 2 ** 20)
  }, 60_000)

  it('as .gltf, text past what a JavaScript string holds is refused whatever the budget', async () => {
    const path = join(dir, 'huge.md2')
    writeFileSync(path, bigFrameMD2(300))
    const run = await runRecorded(['convert', path, join(dir, 'huge.gltf'), '--max-bytes', '100G'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /OUT_OF_RANGE: budget: .*characters of \.gltf text, past the 512 Mi a JavaScript string holds \(write \.glb\)/,
    )
  }, 60_000)
})

describe('progress lines', () => {
  const run = async (progress: boolean | undefined) => {
    let stderr = ''
    const io: CliIO = {
      ...nodeIO,
      stdout: () => {},
      stderr: (text) => void (stderr += text),
      ...(progress === undefined ? {} : { progress }),
    }
    const path = join(dir, 'frames.md2')
    writeFileSync(path, readAsset('quake2/ogro/tris.MD2'))
    const code = await runCli(['convert', path, join(dir, `frames-${String(progress)}.glb`)], io)
    return { code, stderr }
  }

  it('long work says so on a terminal, and adds nothing when stderr is piped', async () => {
    expect(ogro.header.numFrames).toBeGreaterThan(50)
    const terminal = await run(true)
    expect(terminal.code).toBe(0)
    expect(terminal.stderr).toMatch(`frames.md2: writing ${ogro.header.numFrames} keyframes…`)
    for (const piped of [await run(false), await run(undefined)]) {
      expect(piped.code).toBe(0)
      expect(piped.stderr).not.toMatch(/keyframes…/)
    }
  }, 60_000)

  it('a large PCX skin says that its colours are being mapped, on a terminal only', async () => {
    const rig = join(dir, 'progress-rig.glb')
    const { scene, clips } = buildRig()
    writeFileSync(rig, await exportRig(scene, clips))
    const convert = async (progress: boolean) => {
      let stderr = ''
      const io: CliIO = { ...nodeIO, stdout: () => {}, stderr: (text) => void (stderr += text), progress }
      const args = ['convert', rig, join(dir, `progress-${progress}.md2`), '--skin-size', '512x512', '--no-engine-limits', '--force']
      return { code: await runCli(args, io), stderr }
    }
    const terminal = await convert(true)
    expect(terminal.code, terminal.stderr).toBe(0)
    expect(terminal.stderr).toMatch("mapping a 512 × 512 skin to Quake II's palette…")
    const piped = await convert(false)
    expect(piped.code).toBe(0)
    expect(piped.stderr).not.toMatch(/palette…/)
  }, 120_000)
})

describe('palette mapping', () => {
  it('the bound that skips entries never skips the CIEDE2000-nearest one', () => {
    const lab = new Float64Array(768)
    for (let p = 0; p < 256; p++) srgb8ToLab(QUAKE2_PALETTE[p * 3]!, QUAKE2_PALETTE[p * 3 + 1]!, QUAKE2_PALETTE[p * 3 + 2]!, lab, p * 3)
    const count = 3000
    const data = new Uint8Array(count * 4)
    let seed = 11
    for (let i = 0; i < data.length; i++) data[i] = (i & 3) === 3 ? 255 : (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24
    const chosen = quantizeToPalette({ width: count, height: 1, data })
    const source = new Float64Array(3)
    for (let i = 0; i < count; i++) {
      srgb8ToLab(data[i * 4]!, data[i * 4 + 1]!, data[i * 4 + 2]!, source)
      let best = -1
      let bestDistance = Infinity
      for (let p = 0; p < 255; p++) {
        const d = deltaE2000(source[0]!, source[1]!, source[2]!, lab[p * 3]!, lab[p * 3 + 1]!, lab[p * 3 + 2]!)
        if (d < bestDistance) [best, bestDistance] = [p, d]
      }
      expect(chosen[i], `colour ${i}`).toBe(best)
    }
  })
})
