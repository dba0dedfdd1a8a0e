/**
 * Three's geometry for AnimationMixer code (createMD2MorphGeometry) and three's animation lists
 * (threeAnimationGroups), on the real Quake II models: what three's MD2Loader gives, played by three's own
 * AnimationMixer, lands where the library's controller and writeMD2Pose put the model.
 */
import { AnimationMixer, Mesh, MeshBasicMaterial, Vector3, type AnimationClip, type BufferAttribute } from 'three'
import { MD2Loader as ThreeMD2Loader } from 'three/examples/jsm/loaders/MD2Loader.js'
import { describe, expect, it } from 'vitest'
import { MD2AnimationController } from '../../src/core/animation/MD2AnimationController'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { threeAnimationGroups } from '../../src/core/format/threeAnimationGroups'
import { createMD2Geometry, getMD2RenderData, writeMD2Pose } from '../../src/three/mesh/MD2Geometry'
import { createMD2MorphGeometry } from '../../src/three/mesh/createMD2MorphGeometry'
import { readAsset } from '../support/assets'
import { expectMD2Error } from '../support/errors'

const bytes = readAsset('quake2/ratamahatta/tris.md2')
const ratamahatta = parseMD2(bytes, { name: 'ratamahatta' })
const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2'), { name: 'ogro' })
const threeGeometry = new ThreeMD2Loader().parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer)

/** The largest quantization step of a model's frames (half of it is the most a decoded coordinate can be off). */
function largestStep(model: typeof ratamahatta): number {
  let step = 0
  for (let f = 0; f < model.header.numFrames; f++)
    for (let k = 0; k < 3; k++) step = Math.max(step, Math.abs(model.frameTransforms[f * 6 + k]!))
  return step
}

describe('createMD2MorphGeometry', () => {
  it("with handedness 'three' is what three's MD2Loader returns: the same attributes, morph targets and clips", () => {
    const geometry = createMD2MorphGeometry(ratamahatta, { handedness: 'three' })
    for (const name of ['position', 'normal', 'uv']) {
      const ours = geometry.getAttribute(name).array as Float32Array
      const theirs = threeGeometry.getAttribute(name).array as Float32Array
      expect(ours.length).toBe(theirs.length)
      let worst = 0
      for (let i = 0; i < ours.length; i++) worst = Math.max(worst, Math.abs(ours[i]! - theirs[i]!))
      expect(worst, name).toBeLessThan(1e-4)
    }
    expect(geometry.morphAttributes.position!.map((a) => a.name)).toEqual(threeGeometry.morphAttributes.position!.map((a) => a.name))
    const frame = 123
    const ours = geometry.morphAttributes.position![frame]!.array as Float32Array
    const theirs = threeGeometry.morphAttributes.position![frame]!.array as Float32Array
    let worst = 0
    for (let i = 0; i < ours.length; i++) worst = Math.max(worst, Math.abs(ours[i]! - theirs[i]!))
    expect(worst).toBeLessThan(1e-4)
    const clips = (geometry as unknown as { animations: AnimationClip[] }).animations
    const threeClips = (threeGeometry as unknown as { animations: AnimationClip[] }).animations
    expect(clips.map((c) => [c.name, c.duration])).toEqual(threeClips.map((c) => [c.name, c.duration]))
  })

  it("three's AnimationMixer playing it matches the library's controller + writeMD2Pose at the same times, within quantization", () => {
    const morph = createMD2MorphGeometry(ratamahatta)
    const mesh = new Mesh(morph, new MeshBasicMaterial())
    const mixer = new AnimationMixer(mesh)
    const clips = (morph as unknown as { animations: AnimationClip[] }).animations
    const groups = threeAnimationGroups(ratamahatta)
    const controller = new MD2AnimationController(ratamahatta, groups)
    const geometry = createMD2Geometry(ratamahatta)
    const { indices } = getMD2RenderData(ratamahatta).layout
    const tolerance = largestStep(ratamahatta) * 0.01 + 1e-3
    const ours = new Vector3()
    let compared = 0
    for (const name of ['run', 'attack', 'pain']) {
      const clip = clips.find((c) => c.name === name)!
      mixer.stopAllAction()
      mixer.setTime(0)
      mixer.clipAction(clip).play()
      controller.play(name)
      // Mid-keyframe times, the loop's seam (last frame back to the first) included.
      for (const dt of [0, 0.037, 0.21, 0.333, clip.duration - 0.35]) {
        mixer.update(dt)
        controller.update(dt)
        writeMD2Pose(geometry, controller.pose)
        const library = geometry.getAttribute('position') as BufferAttribute
        let worst = 0
        for (let c = 0; c < indices.length; c += 7) {
          mesh.getVertexPosition(c, ours)
          const slot = indices[c]!
          worst = Math.max(
            worst,
            Math.abs(ours.x - library.getX(slot)),
            Math.abs(ours.y - library.getY(slot)),
            Math.abs(ours.z - library.getZ(slot)),
          )
        }
        expect(worst, `${name} at frame ${controller.frame}`).toBeLessThan(tolerance)
        compared++
      }
      // The pose is not a still: the mixer moved the vertices off frame 0.
      expect(controller.pose.t > 0 || controller.pose.from !== controller.pose.to).toBe(true)
    }
    expect(compared).toBe(15)
  })

  it('costs what three pays: every frame as float positions and normals', () => {
    const geometry = createMD2MorphGeometry(ogro)
    const floats = geometry.morphAttributes.position!.length * 2 * ogro.header.numTris * 9
    expect(floats).toBe(ogro.header.numFrames * ogro.header.numTris * 18)
  })

  it('rejects an unknown handedness or a bad fps with an MD2Error naming the option', () => {
    expectMD2Error(() => createMD2MorphGeometry(ogro, { handedness: 'left' as never }), 'BAD_ARGUMENT', { text: /handedness "left"/ })
    expectMD2Error(() => createMD2MorphGeometry(ogro, { fps: 0 }), 'BAD_ARGUMENT', { text: /fps 0/ })
  })
})

describe('threeAnimationGroups', () => {
  it("lists Ratamahatta's animations as three does (16, aliases merged), where the library lists 27", () => {
    const names = threeAnimationGroups(ratamahatta).map((a) => a.name)
    const threeNames = (threeGeometry as unknown as { animations: AnimationClip[] }).animations.map((c) => c.name)
    expect(names).toEqual(threeNames)
    expect(names).toHaveLength(16)
    expect(ratamahatta.animations).toHaveLength(27)
    const pain = threeAnimationGroups(ratamahatta).find((a) => a.name === 'pain')!
    expect(pain.end - pain.start + 1).toBe(12)
  })
})
