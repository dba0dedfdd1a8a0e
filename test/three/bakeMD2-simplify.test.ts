/**
 * bakeMD2's `simplify` on a high-poly character built here with three.js (a Mixamo-style skeleton, two
 * skinned meshes, a texture, three clips), exported with GLTFExporter and loaded back with GLTFLoader:
 * the mesh reduced to MD2's limits by meshoptimizer, every frame still three's skinning of the vertices
 * kept, the shape kept; and the same character as Mixamo's one-clip downloads baked into one model.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { thrown } from '../support/errors'
import { ENGINE_LIMITS } from '../../src/core/format/spec'
import { decodeFrame } from '../../src/core/format/decodeFrame'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { writeMD2 } from '../../src/core/format/writeMD2'
import type { MD2ModelData } from '../../src/core/format/types'
import { bakeMD2 } from '../../src/three/convert/bakeMD2'
import { loadSimplifier } from '../../src/three/convert/loadSimplifier'
import { MIXAMO_CLIP, buildCharacter } from '../../stories/support/character'
import { RIG_TEXTURE, exportRig } from '../../stories/support/rig'
import { halfStep, loadGLB, threePose } from '../support/skinnedReference'

/** Frame f's vertices, one per MD2 vertex in its order, in three.js axes (MD2 x, y, z are three's Z, X, Y). */
function vertices(model: MD2ModelData, f: number): Float32Array {
  const md2 = decodeFrame(model, f)
  const out = new Float32Array(md2.length)
  for (let i = 0; i < md2.length; i += 3) out.set([md2[i + 1]!, md2[i + 2]!, md2[i]!], i)
  return out
}

const within = (a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number, tolerance: readonly number[]) =>
  Math.abs(a[i]! - b[j]!) <= tolerance[0]! &&
  Math.abs(a[i + 1]! - b[j + 1]!) <= tolerance[1]! &&
  Math.abs(a[i + 2]! - b[j + 2]!) <= tolerance[2]!

const SCALE = 40
const DETAIL = 0.35
let glb: Uint8Array
let sourceVertices = 0

beforeAll(async () => {
  const { scene, clips } = buildCharacter({ detail: DETAIL })
  scene.traverse((object) => {
    const mesh = object as { isMesh?: boolean; geometry?: { getAttribute(name: string): { count: number } } }
    if (mesh.isMesh) sourceVertices += mesh.geometry!.getAttribute('position').count
  })
  glb = await exportRig(scene, clips)
})

describe('simplify', () => {
  it('is refused until the simplifier is loaded; without it, a refusal names every limit passed', async () => {
    const gltf = await loadGLB(glb)
    expect(thrown(() => bakeMD2(gltf.scene, gltf.animations, { simplify: true }))).toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/simplify needs meshoptimizer.s simplifier: await loadSimplifier\(\) before baking/),
    })
    const refused = thrown(() => bakeMD2(gltf.scene, gltf.animations, { fps: 400 }))
    expect(refused.code).toBe('UNWRITABLE')
    expect(refused.message).toMatch(
      /^triangles, vertices, frames: 6460 triangles, 2364 past MD2's 4096; \d+ vertices, \d+ past MD2's 2048; 963 frames, 451 past MD2's 512 \(Quake II's limits\): simplify the mesh \(bakeMD2's simplify option, convert's --simplify\), or bake fewer meshes; a rate of 212 fps fits them/,
    )
    await loadSimplifier()
  })

  it('fits a high-poly character in MD2’s limits, every frame three’s skinning of the vertices kept', async () => {
    await loadSimplifier()
    expect(sourceVertices).toBeGreaterThan((3 * ENGINE_LIMITS.vertices) / 2)
    const gltf = await loadGLB(glb)
    const reference = await loadGLB(glb)
    // The texture's size given (Node's loader leaves images out; the CLI decodes them), the source's uvs kept (no skin baked).
    const baked = bakeMD2(gltf.scene, gltf.animations, { simplify: true, scale: SCALE, skinWidth: 64, skinHeight: 32, bakeSkin: false })
    const model = parseMD2(writeMD2(baked.model))
    const { numVertices, numTris, numFrames } = model.header
    console.log(`simplified ${sourceVertices} vertices → ${numVertices}, ${baked.simplified!.triangles.join(' → ')} triangles`)
    expect(numVertices).toBeLessThanOrEqual(ENGINE_LIMITS.vertices)
    expect(numTris).toBeLessThanOrEqual(ENGINE_LIMITS.triangles)
    // Not cut further than it had to be.
    expect(numTris).toBeGreaterThan(3000)
    expect(baked.simplified).toEqual({ triangles: [6460, numTris], vertices: [expect.any(Number), numVertices] })
    expect(numFrames).toBe(11 + 9 + 7)
    expect(model.animations.map(({ name, start, end }) => [name, start, end])).toEqual([
      ['Walk', 0, 10],
      ['Wave', 11, 19],
      ['Idle', 20, 26],
    ])
    expect(model.warnings).toEqual([])

    // Each MD2 vertex follows one source vertex through every frame: the candidates (source vertices
    // within half a quantum of it at the first frame) narrowed frame by frame must never run out.
    let candidates: number[][] | undefined
    let moved = 0
    let rest: Float32Array | undefined
    for (const { clip: name, start, end } of baked.clips) {
      const clip = reference.animations.find((c) => c.name === name)!
      for (let f = start; f <= end; f++) {
        const want = threePose(reference.scene, clip, (f - start) / 10).map((v) => v * SCALE)
        rest ??= want
        for (let i = 0; i < want.length; i++) moved = Math.max(moved, Math.abs(want[i]! - rest[i]!))
        const drawn = vertices(model, f)
        const tolerance = halfStep(model, f)
        if (!candidates) {
          candidates = []
          for (let i = 0; i < drawn.length; i += 3) {
            const near: number[] = []
            for (let j = 0; j < want.length; j += 3) if (within(drawn, i, want, j, tolerance)) near.push(j)
            candidates.push(near)
          }
          expect(candidates.length).toBe(numVertices)
        } else {
          candidates = candidates.map((near, v) => near.filter((j) => within(drawn, v * 3, want, j, tolerance)))
        }
        const lost = candidates.findIndex((near) => near.length === 0)
        expect(lost, `${name} frame ${f - start}: vertex ${lost} follows no source vertex`).toBe(-1)
      }
    }
    expect(moved).toBeGreaterThan(10)

    // The shape kept: every source vertex (first frame) within 3% of the model's height of a kept one.
    const first = threePose(reference.scene, reference.animations[0], 0).map((v) => v * SCALE)
    const kept = vertices(model, 0)
    let height = 0
    for (let i = 1; i < first.length; i += 3) height = Math.max(height, first[i]!)
    let worst = 0
    for (let i = 0; i < first.length; i += 3) {
      let best = Infinity
      for (let j = 0; j < kept.length && best > worst; j += 3)
        best = Math.min(best, Math.hypot(first[i]! - kept[j]!, first[i + 1]! - kept[j + 1]!, first[i + 2]! - kept[j + 2]!))
      worst = Math.max(worst, best)
    }
    console.log(`farthest source vertex from a kept one: ${((worst / height) * 100).toFixed(2)}% of the height`)
    expect(worst / height).toBeLessThan(0.03)

    // Textured: st on the skin's size, reaching all four atlas cells (the parts' uvs carried).
    expect([model.header.skinWidth, model.header.skinHeight]).toEqual([RIG_TEXTURE.width, RIG_TEXTURE.height])
    const cells = new Set<string>()
    for (let i = 0; i < model.st.length; i += 2)
      cells.add(`${model.st[i]! < RIG_TEXTURE.width / 2 ? 0 : 1}${model.st[i + 1]! < RIG_TEXTURE.height / 2 ? 0 : 1}`)
    expect(cells.size).toBe(4)
  })

  it('takes a triangle count; leaves a model that fits as it is', async () => {
    await loadSimplifier()
    const gltf = await loadGLB(glb)
    const few = bakeMD2(gltf.scene, gltf.animations, { simplify: 1200, clips: ['Wave'] })
    expect(few.model.header.numTris).toBeLessThanOrEqual(1200)
    expect(few.model.header.numTris).toBeGreaterThan(1000)
    expect(few.simplified!.triangles).toEqual([6460, few.model.header.numTris])

    const tiny = buildCharacter({ detail: 0.1 })
    const small = await loadGLB(await exportRig(tiny.scene, tiny.clips))
    const plain = bakeMD2(small.scene, small.animations)
    const asked = bakeMD2(small.scene, small.animations, { simplify: true })
    expect(asked.simplified).toBeUndefined()
    expect(Buffer.compare(writeMD2(asked.model), writeMD2(plain.model))).toBe(0)
    // A count above what the model has: nothing to do either.
    expect(bakeMD2(small.scene, small.animations, { simplify: 4000 }).simplified).toBeUndefined()
  })
})

/** Frame f of a model as drawn, for comparing two bakes. */
const frames = (model: MD2ModelData) => Array.from({ length: model.header.numFrames }, (_, f) => vertices(model, f))

describe('Mixamo-style downloads: one clip per file, baked onto the first file’s character', () => {
  it('bakes one animation per file, each frame as the same clip baked from one file', async () => {
    await loadSimplifier()
    const files: Record<string, Uint8Array> = {}
    for (const [file, clipName, skin] of [
      ['idle', 'Idle', true],
      ['walk', 'Walk', false],
      ['wave', 'Wave', true],
    ] as const) {
      const { scene, clips } = buildCharacter({ detail: DETAIL, skin })
      const clip = clips.find((c) => c.name === clipName)!
      clip.name = MIXAMO_CLIP
      files[file] = await exportRig(scene, [clip])
    }
    const loaded = await Promise.all(Object.values(files).map((bytes) => loadGLB(bytes)))
    // Every download names its one clip alike; the file's name tells them apart.
    expect(loaded.map((gltf) => gltf.animations.map((clip) => clip.name))).toEqual([[MIXAMO_CLIP], [MIXAMO_CLIP], [MIXAMO_CLIP]])
    expect(loaded[1]!.scene.getObjectByProperty('isMesh', true)).toBeUndefined()
    const named = Object.keys(files).map((file, i) => {
      const clip = loaded[i]!.animations[0]!.clone()
      clip.name = file
      return clip
    })
    const body = loaded[0]!.scene
    const together = bakeMD2(body, named, { simplify: true })
    expect(together.clips.map(({ animation, start, end }) => [animation, end - start + 1])).toEqual([
      ['idle', 7],
      ['walk', 11],
      ['wave', 9],
    ])
    expect(together.model.warnings).toEqual([])

    // The same clips from the one multi-clip file, in the same order: the same frames.
    const whole = await loadGLB(glb)
    const order = ['Idle', 'Walk', 'Wave'].map((name) => whole.animations.find((clip) => clip.name === name)!)
    const reference = bakeMD2(whole.scene, order, { simplify: true })
    expect(frames(together.model)).toEqual(frames(reference.model))

    // One clip alone: no warning, and read back it is one animation.
    const alone = bakeMD2(body, [named[1]!], { simplify: true })
    expect(alone.model.warnings).toEqual([])
    expect(parseMD2(writeMD2(alone.model)).animations.map((a) => a.name)).toEqual(['walk'])
  })

  it('refuses a download whose skeleton is not the character’s, naming the bones missing', async () => {
    const { scene, clips } = buildCharacter({ detail: 0.1, skin: false, prefix: 'Bip01_' })
    const other = await loadGLB(await exportRig(scene, [clips[0]!]))
    const body = await loadGLB(glb)
    const error = thrown(() => bakeMD2(body.scene, [...body.animations, ...other.animations]))
    expect(error.code).toBe('BAD_ARGUMENT')
    expect(error.message).toMatch(
      /^clips: clip "Walk" animates 7 nodes the scene does not have: "Bip01_LeftUpLeg", "Bip01_RightUpLeg", "Bip01_LeftLeg", "Bip01_RightLeg", "Bip01_LeftArm", "Bip01_RightArm", "Bip01_Hips" \(its skeleton's bone names are not the scene's\)$/,
    )
  })
})
