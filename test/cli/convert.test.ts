/**
 * `react-three-md2 convert` in plain Node (no DOM, no shims): .md2 → .glb/.gltf with every keyframe,
 * the animations and the skin, and back to .md2 within one quantization step.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { decode as decodePng } from 'fast-png'
import type { Mesh } from 'three'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dropImages } from '../../src/cli/readInputs'
import { decodeFrame } from '../../src/core/format/decodeFrame'
import { parseMD2 } from '../../src/core/format/parseMD2'
import type { MD2ModelData } from '../../src/core/format/types'
import { packGLB, readGLB } from '../../src/core/gltf/glb'
import { decodePCX } from '../../src/core/images/pcx'
import { createMD2Geometry, writeMD2Frame } from '../../src/three/mesh/MD2Geometry'
import { ASSETS_DIR } from '../support/assets'
import { runOnDisk } from '../support/cli'

const OGRO = join(ASSETS_DIR, 'quake2/ogro/tris.MD2')
const BIN = resolve(import.meta.dirname, '../../bin/react-three-md2.mjs')
const BUILT = existsSync(resolve(import.meta.dirname, '../../dist/cli/main.js'))
let dir: string

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'md2-convert-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const run = runOnDisk

/** A .glb's geometry and clips through three's GLTFLoader, in Node (images left out: they need a browser). */
async function loadGeometry(glb: Uint8Array) {
  const { json, bin } = readGLB(glb)
  dropImages(json)
  const gltf = await new GLTFLoader().parseAsync(packGLB(json, bin).slice().buffer, '')
  let mesh: Mesh | undefined
  gltf.scene.traverse((object) => {
    if ((object as Mesh).isMesh) mesh = object as Mesh
  })
  return { mesh: mesh!, animations: gltf.animations }
}

/** Largest distance from each vertex of `a`'s frame to the nearest of `b`'s, per axis (both ways). */
function farthestNearest(a: Float32Array, b: Float32Array): number {
  const one = (from: Float32Array, to: Float32Array) => {
    let worst = 0
    for (let i = 0; i < from.length; i += 3) {
      let best = Infinity
      for (let j = 0; j < to.length; j += 3) {
        const d = Math.max(Math.abs(from[i]! - to[j]!), Math.abs(from[i + 1]! - to[j + 1]!), Math.abs(from[i + 2]! - to[j + 2]!))
        if (d < best) best = d
      }
      worst = Math.max(worst, best)
    }
    return worst
  }
  return Math.max(one(a, b), one(b, a))
}

describe('convert .md2 → .glb in plain Node', () => {
  it.skipIf(!BUILT)('the built command writes a .glb that GLTFLoader reads with every frame, the animations and the skin', async () => {
    const out = join(dir, 'ogro.glb')
    const stdout = execFileSync(process.execPath, [BIN, 'convert', OGRO, out], { encoding: 'utf8', stdio: 'pipe' })
    expect(stdout).toMatch(/wrote .*ogro\.glb: \d+ bytes, 199 keyframes as morph targets, 36 animations, skin 256×256 from .*igdosh\.pcx/)
    const glb = new Uint8Array(readFileSync(out))
    const model = parseMD2(new Uint8Array(readFileSync(OGRO)), { name: 'tris.MD2' })

    const { mesh, animations } = await loadGeometry(glb)
    const targets = mesh.geometry.morphAttributes.position!
    expect(targets).toHaveLength(model.header.numFrames)
    expect(Object.keys(mesh.morphTargetDictionary!)).toEqual(model.frameNames)
    // Base + offset = each keyframe as <MD2Model> draws it, vertex for vertex.
    const reference = createMD2Geometry(model)
    const base = mesh.geometry.getAttribute('position')
    let worst = 0
    for (let frame = 0; frame < model.header.numFrames; frame += 9) {
      writeMD2Frame(reference, model, frame, frame, 0)
      const want = reference.getAttribute('position').array
      expect(base.count).toBe(want.length / 3)
      for (let i = 0; i < base.count; i++)
        for (let k = 0; k < 3; k++)
          worst = Math.max(worst, Math.abs(base.getComponent(i, k) + targets[frame]!.getComponent(i, k) - want[i * 3 + k]!))
    }
    expect(worst).toBeLessThan(1e-4)
    expect(animations.map((clip) => clip.name)).toEqual(model.animations.map((a) => a.name))
    const run = animations.find((clip) => clip.name === 'run')!
    expect(run.duration).toBeCloseTo(6 / 10, 5)

    // The skin is embedded as PNG, pixel for pixel the PCX, top row first.
    const { json, bin } = readGLB(glb)
    const image = (json.images as { bufferView: number; mimeType: string }[])[0]!
    expect(image.mimeType).toBe('image/png')
    const view = (json.bufferViews as { byteOffset: number; byteLength: number }[])[image.bufferView]!
    const png = decodePng(bin.subarray(view.byteOffset, view.byteOffset + view.byteLength))
    const pcx = decodePCX(new Uint8Array(readFileSync(join(ASSETS_DIR, 'quake2/ogro/igdosh.pcx'))))
    expect([png.width, png.height, png.channels]).toEqual([pcx.width, pcx.height, 4])
    expect(Buffer.compare(Buffer.from(png.data as Uint8Array), Buffer.from(pcx.data))).toBe(0)
  })

  it('--skin embeds another skin; a model whose skin is nowhere is written without one, with a note', async () => {
    const out = join(dir, 'ctf.glb')
    const skinned = await run(['convert', OGRO, out, '--skin', join(ASSETS_DIR, 'quake2/ogro/ctf_b.pcx')])
    expect(skinned.code).toBe(0)
    expect(skinned.stdout).toMatch(/skin 256×256 from .*ctf_b\.pcx/)
    const lone = join(dir, 'lone.md2')
    writeFileSync(lone, readFileSync(OGRO))
    const bare = await run(['convert', lone, join(dir, 'lone.glb')])
    expect(bare.code).toBe(0)
    expect(bare.stdout).toMatch(/no skin/)
    expect(bare.stderr).toMatch(/no skin found \(looked for .*igdosh\.pcx/)
    expect(readGLB(new Uint8Array(readFileSync(join(dir, 'lone.glb')))).json.images).toBeUndefined()
  })
})

describe('convert back to .md2', () => {
  it('.md2 → .glb → .md2 keeps every frame within one quantization step, its names and animations', async () => {
    const glb = join(dir, 'trip.glb')
    const back = join(dir, 'trip.md2')
    expect((await run(['convert', OGRO, glb])).code).toBe(0)
    const result = await run(['convert', glb, back])
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(
      /199 frames, \d+ vertices, 670 triangles, 36 animations, no skin written \(texture coordinates in 256×256 texels\)/,
    )
    const original = parseMD2(new Uint8Array(readFileSync(OGRO)))
    const copy = parseMD2(new Uint8Array(readFileSync(back)))
    expectSameFrames(original, copy)
  })

  it('.md2 → .gltf (buffer embedded) → .md2 too', async () => {
    const gltf = join(dir, 'weapon.gltf')
    const weapon = join(ASSETS_DIR, 'quake2/ogro/w_railgun.MD2')
    expect((await run(['convert', weapon, gltf])).code).toBe(0)
    expect(JSON.parse(readFileSync(gltf, 'utf8')).buffers[0].uri).toMatch(/^data:application\/octet-stream;base64,/)
    expect((await run(['convert', gltf, join(dir, 'weapon.md2')])).code).toBe(0)
    expectSameFrames(parseMD2(new Uint8Array(readFileSync(weapon))), parseMD2(new Uint8Array(readFileSync(join(dir, 'weapon.md2')))))
  })

  it('.obj → .md2: one frame, its triangles, the skin size asked for', async () => {
    const obj = join(dir, 'box.obj')
    const corners = [-1, 1].flatMap((x) => [-1, 1].flatMap((y) => [-1, 1].map((z) => `v ${x * 8} ${y * 8 + 8} ${z * 8}`)))
    const faces = ['1 2 4 3', '5 7 8 6', '1 5 6 2', '3 4 8 7', '1 3 7 5', '2 6 8 4'].map((f) => {
      const [a, b, c, d] = f.split(' ')
      return `f ${a}/1 ${b}/2 ${c}/3\nf ${a}/1 ${c}/3 ${d}/4`
    })
    writeFileSync(obj, [...corners, 'vt 0 0', 'vt 1 0', 'vt 1 1', 'vt 0 1', ...faces].join('\n'))
    const result = await run(['convert', obj, join(dir, 'box.md2'), '--skin-size', '64x32'])
    expect(result.code).toBe(0)
    const box = parseMD2(new Uint8Array(readFileSync(join(dir, 'box.md2'))))
    expect([box.header.numFrames, box.header.numTris, box.header.skinWidth, box.header.skinHeight]).toEqual([1, 12, 64, 32])
    // Y-up 16 units tall → Quake's Z from 0 to 16.
    const z = decodeFrame(box, 0).filter((_, i) => i % 3 === 2)
    expect([Math.min(...z), Math.max(...z)]).toEqual([0, 16])
  })

  it('refuses what it cannot read with one line and exit 1', async () => {
    writeFileSync(join(dir, 'broken.glb'), 'glTF but not really')
    const broken = await run(['convert', join(dir, 'broken.glb'), join(dir, 'x.md2')])
    expect(broken.code).toBe(1)
    expect(broken.stderr).toMatch(/broken\.glb: (BAD_VERSION|TRUNCATED|BAD_MAGIC): glb/)
    expect(broken.stderr.trim().split('\n')).toHaveLength(1)
    const missing = await run(['convert', join(dir, 'nothing.md2'), join(dir, 'x.glb')])
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringMatching(/nothing\.md2: cannot read: no such file/) })
    const skin = await run(['convert', OGRO, join(dir, 'x.glb'), '--skin', join(dir, 'broken.glb')])
    expect(skin).toMatchObject({ code: 1, stderr: expect.stringMatching(/--skin takes a \.pcx, \.tga or \.png image/) })
  })

  it('prints its own help', async () => {
    const help = await run(['convert', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/Usage: react-three-md2 convert IN \[ANIMATION\.\.\.\] OUT/)
  })
})

/** Same frame count, names and animations; every vertex of every frame within one quantization step of the original. */
function expectSameFrames(original: MD2ModelData, copy: MD2ModelData): void {
  expect(copy.header.numFrames).toBe(original.header.numFrames)
  expect(copy.header.numTris).toBe(original.header.numTris)
  expect(copy.frameNames).toEqual(original.frameNames)
  expect(copy.animations.map(({ name, start, end }) => [name, start, end])).toEqual(
    original.animations.map(({ name, start, end }) => [name, start, end]),
  )
  for (let f = 0; f < original.header.numFrames; f++) {
    const step = Math.max(original.frameTransforms[f * 6]!, original.frameTransforms[f * 6 + 1]!, original.frameTransforms[f * 6 + 2]!)
    expect(farthestNearest(decodeFrame(original, f), decodeFrame(copy, f)), `frame ${f}`).toBeLessThanOrEqual(step)
  }
}
