/**
 * bakeMD2 on a rig built and exported here with three.js (GLTFExporter), loaded back with GLTFLoader: one
 * animation per clip at the rate asked, every frame as the library draws it on three's own skinned pose at
 * that time, within the MD2's quantization; MD2's limits refused before anything is written.
 */
import {
  AnimationClip,
  BufferGeometry,
  DataTexture,
  Float32BufferAttribute,
  Group,
  Mesh,
  MeshBasicMaterial,
  NumberKeyframeTrack,
  type Object3D,
} from 'three'
import { beforeAll, describe, expect, it } from 'vitest'
import { thrown } from '../support/errors'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { writeMD2 } from '../../src/core/format/writeMD2'
import { bakeMD2 } from '../../src/three/convert/bakeMD2'
import { buildRig, exportRig } from '../../stories/support/rig'
import { drawnFrame, halfStep, loadGLB, threePose, worstNearest } from '../support/skinnedReference'

let glb: Uint8Array

beforeAll(async () => {
  const { scene, clips } = buildRig()
  glb = await exportRig(scene, clips)
})

describe('bakeMD2 on an exported rig', () => {
  it.each([10, 15])('bakes one animation per clip at %i fps, every frame on three’s skinned pose', async (fps) => {
    const gltf = await loadGLB(glb)
    const reference = await loadGLB(glb)
    const { model: baked, clips } = bakeMD2(gltf.scene, gltf.animations, { fps, scale: 40 })
    // Read back from the file: what an engine or <MD2Model> gets.
    const model = parseMD2(writeMD2(baked))
    const durations = { Walk: 1, Wave: 0.6, 'Idle Breath': 0.35 }
    const counts = Object.values(durations).map((d) => Math.floor(d * fps + 1e-3) + 1)
    expect(model.header.numFrames).toBe(counts.reduce((a, b) => a + b))
    expect(model.animations.map(({ name, start, end }) => [name, end - start + 1])).toEqual([
      ['Walk', counts[0]],
      ['Wave', counts[1]],
      ['Idle_Breath', counts[2]],
    ])
    expect(baked.animations.every((animation) => animation.fps === fps)).toBe(true)
    expect(clips.map((clip) => clip.clip)).toEqual(Object.keys(durations))
    expect(model.frameNames.slice(0, 2)).toEqual(fps === 10 ? ['Walk01', 'Walk02'] : ['Walk01', 'Walk02'])

    let worst = 0
    let moved = 0
    clips.forEach(({ clip: name, start, end }) => {
      const clip = reference.animations.find((c) => c.name === name)!
      const rest = threePose(reference.scene, clip, 0)
      for (let f = start; f <= end; f++) {
        const want = threePose(reference.scene, clip, (f - start) / fps).map((v) => v * 40)
        const error = worstNearest(drawnFrame(model, f), want, halfStep(model, f))
        expect(error, `${name} frame ${f - start}`).toBeLessThanOrEqual(1)
        worst = Math.max(worst, error)
        for (let i = 0; i < rest.length; i++) moved = Math.max(moved, Math.abs(rest[i]! * 40 - want[i]!))
      }
    })
    // The clips do move the rig (by far more than a quantum), so matching them is no accident.
    expect(moved).toBeGreaterThan(5)
    expect(worst).toBeGreaterThan(0)
  })

  it('places the rig as the armature scale and rotation put it, and the club on its bone', async () => {
    const gltf = await loadGLB(glb)
    const { model } = bakeMD2(gltf.scene, gltf.animations, { clips: ['Wave'] })
    const frame = drawnFrame(parseMD2(writeMD2(model)), 0)
    const ys = frame.filter((_, i) => i % 3 === 1)
    // 160 units of body at 0.01, and the club reaching above it.
    expect(Math.min(...ys)).toBeCloseTo(0, 2)
    expect(Math.max(...ys)).toBeGreaterThan(1.6)
    expect(model.header.numTris).toBe(8 * 8 * 2 + 16 + 12)
  })

  it('--meshes and clips select; names fit 15 bytes, collisions and trailing digits are kept apart', () => {
    const scene = new Group()
    const mesh = new Mesh(new BufferGeometry().setAttribute('position', new Float32BufferAttribute([0, 0, 0, 1, 0, 0, 0, 1, 0], 3)))
    mesh.geometry.setAttribute('uv', new Float32BufferAttribute([0, 0, 1, 0, 0, 1], 2))
    mesh.name = 'tri'
    mesh.morphTargetInfluences = [0]
    mesh.geometry.morphAttributes.position = [new Float32BufferAttribute([0, 0, 1, 0, 0, 1, 0, 0, 1], 3)]
    mesh.geometry.morphTargetsRelative = true
    scene.add(mesh)
    const clip = (name: string) => new AnimationClip(name, 0.3, [new NumberKeyframeTrack('tri.morphTargetInfluences', [0, 0.3], [0, 1])])
    const names = ['Run', 'run', 'Run!', 'pain1', 'pain2', 'A very long clip name indeed']
    const { model, clips } = bakeMD2(
      scene,
      names.map((name) => clip(name)),
      { meshes: ['tri'] },
    )
    expect(model.frameNames.every((name) => name.length <= 15)).toBe(true)
    const read = parseMD2(writeMD2(model))
    expect(read.animations.map(({ name, start, end }) => [name, start, end])).toEqual(
      clips.map(({ animation, start, end }) => [animation, start, end]),
    )
    expect(clips.map((c) => c.animation)).toEqual(['Run', 'run_2', 'Run_3', 'pain1', 'pain2', 'A_very_long_c'])
    expect(read.frameNames.slice(12, 14)).toEqual(['pain1_01', 'pain1_02'])
    expect(thrown(() => bakeMD2(scene, [clip('Run')], { clips: ['Jump'] }))).toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/no clip is named "Jump" \(the clips: "Run"\)/),
    })
    expect(thrown(() => bakeMD2(scene, [], { meshes: ['head'] }))).toMatchObject({ code: 'BAD_ARGUMENT', message: /"head"/ })
    // Without clips: the pose as it is, one frame.
    expect(bakeMD2(scene, []).model.frameNames).toEqual(['pose01'])
  })
})

describe('bakeMD2 and the skin', () => {
  it('measures st on the base-colour map, its offset and repeat applied, in the image as stored', () => {
    const pixels = new Uint8Array(64 * 32 * 4)
    const map = new DataTexture(pixels, 64, 32)
    map.repeat.set(0.5, 0.5)
    map.offset.set(0.5, 0)
    const mesh = new Mesh(
      new BufferGeometry().setAttribute('position', new Float32BufferAttribute([0, 0, 0, 1, 0, 0, 0, 1, 0], 3)),
      new MeshBasicMaterial({ map }),
    )
    mesh.geometry.setAttribute('uv', new Float32BufferAttribute([0, 0, 1, 0, 0, 1], 2))
    const { model, skinTexture } = bakeMD2(new Group().add(mesh), [])
    expect(skinTexture).toBe(map)
    expect([model.header.skinWidth, model.header.skinHeight]).toEqual([64, 32])
    // DataTexture keeps flipY false, as glTF's textures: v runs down the image, as MD2's t.
    const st = new Set<string>()
    for (let i = 0; i < model.st.length; i += 2) st.add(`${model.st[i]},${model.st[i + 1]}`)
    expect(st).toEqual(new Set(['32,0', '64,0', '32,16']))
  })
})

describe('MD2 limits, refused before writing', () => {
  it('frames: names the limit, the excess and a rate that fits', async () => {
    const gltf = await loadGLB(glb)
    // At 300 fps: 301 + 181 + 106 = 588 frames; at 261, 262 + 157 + 92 = 511.
    const error = thrown(() => bakeMD2(gltf.scene, gltf.animations, { fps: 300 }))
    expect(error.code).toBe('UNWRITABLE')
    expect(error.message).toMatch(/588 frames, 76 past MD2's 512 .*a rate of 261 fps fits them, or bake fewer clips \(3 clips at 300 fps\)/)
    expect(bakeMD2(gltf.scene, gltf.animations, { fps: 261 }).model.header.numFrames).toBe(511)
  })

  it('triangles and vertices: a clear refusal with the counts', () => {
    const { scene, clips } = buildRig({ segments: [64, 40] })
    expect(thrown(() => bakeMD2(scene, clips))).toMatchObject({
      code: 'UNWRITABLE',
      message: expect.stringMatching(
        /^triangles, vertices: 5260 triangles, 1164 past MD2's 4096; 2634 vertices, 586 past MD2's 2048 \(Quake II's limits\): simplify the mesh \(bakeMD2's simplify option, convert's --simplify\), or bake fewer meshes$/,
      ),
    })
    // 1,000 separate triangles: 3,000 vertices, few triangles.
    const positions = Array.from({ length: 9000 }, (_, i) => i * 0.001 + (i % 3))
    const soup = new Mesh(new BufferGeometry().setAttribute('position', new Float32BufferAttribute(positions, 3)))
    soup.geometry.setAttribute('uv', new Float32BufferAttribute(new Float32Array(6000), 2))
    const group: Object3D = new Group().add(soup)
    expect(thrown(() => bakeMD2(group, []))).toMatchObject({
      code: 'UNWRITABLE',
      message: expect.stringMatching(/3000 vertices, 952 past MD2's 2048/),
    })
  })

  it('skin paths past 63 bytes and bad options', () => {
    const { scene, clips } = buildRig()
    expect(thrown(() => bakeMD2(scene, clips, { skins: [`players/${'x'.repeat(60)}.pcx`] }))).toMatchObject({
      code: 'UNWRITABLE',
      message: expect.stringMatching(/is 72 bytes, 9 past MD2's 63/),
    })
    expect(thrown(() => bakeMD2(scene, clips, { fps: 0 }))).toMatchObject({ code: 'BAD_ARGUMENT', message: /fps 0/ })
    expect(thrown(() => bakeMD2(scene, clips, { scale: Number.NaN }))).toMatchObject({ code: 'BAD_ARGUMENT', message: /scale NaN/ })
  })
})
