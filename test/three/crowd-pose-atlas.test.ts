/**
 * The atlas of poses (`PoseAtlas`): a crowd posed by the CPU for WebGLRenderer uploads each drawn pose once, one
 * texel a vertex, and its rows say where: the positions the CPU kernel writes (the one `<MD2Model>` and the crowd's
 * queries use), bit for bit, and the blended normals' directions; instances showing one pose share its slot; a pose
 * the atlas cannot hold leaves the decode reading the keyframes. Its pictures: `test/browser/crowd.test.tsx`.
 */
import { Vector3, type DataTexture } from 'three'
import { describe, expect, it } from 'vitest'
import { blendPoseYUp, blendVerticesYUp } from '../../src/core/animation/blendVertices'
import { createPose, type MD2Pose } from '../../src/core/animation/pose'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import type { CrowdRenderer } from '../../src/three/crowd/gpu/CrowdRenderer'
import { crowdParts } from '../../src/three/crowd/crowdParts'
import { INSTANCE_STRIDE, RANGE } from '../../src/three/crowd/gpu/rowLayout'
import { parseAsset } from '../support/assets'
import { HARDWARE, SWIFTSHADER, webglOn } from '../support/glRenderers'

const ogro = parseAsset('quake2/ogro/tris.MD2', 'ogro')
const vertices = ogro.header.numVertices

const rendererOf = (crowd: MD2Crowd) => (crowd as unknown as { renderer: CrowdRenderer }).renderer

/** A frame: the crowd met by `renderer`, then updated (no camera: every instance drawn). */
function frame(crowd: MD2Crowd, renderer: unknown): void {
  ;(crowd.onBeforeRender as unknown as (renderer: unknown) => void)(renderer)
  crowd.update(1 / 60)
}

/** Drawn slot `k`'s place in the atlas, as its row says: its first texel, its texture row. */
function slotOf(crowd: MD2Crowd, k: number): [number, number] {
  const rows = crowdParts.get(crowd)!.data.array as Float32Array
  return [rows[k * INSTANCE_STRIDE + RANGE]!, rows[k * INSTANCE_STRIDE + RANGE + 2]!]
}

/** The direction an atlas texel's normal word says (16 bits a coordinate, octahedral). */
function unpackNormal(word: number): [number, number, number] {
  const ex = (word & 0xffff) * (2 / 65535) - 1
  const ey = (word >>> 16) * (2 / 65535) - 1
  let x = ex
  let y = ey
  const z = 1 - Math.abs(ex) - Math.abs(ey)
  if (z < 0) {
    x = (1 - Math.abs(ey)) * (ex >= 0 ? 1 : -1)
    y = (1 - Math.abs(ex)) * (ey >= 0 ? 1 : -1)
  }
  const length = Math.hypot(x, y, z)
  return [x / length, y / length, z / length]
}

const poses: MD2Pose[] = [
  { ...createPose(0), from: 40, to: 41, t: 0.3 },
  { from: 5, to: 6, t: 0.25, fadeFrom: 30, fadeTo: 31, fadeT: 0.5, fadeWeight: 0.4 },
  { ...createPose(0), from: 100, to: 100, t: 0 },
]

describe('the atlas of poses', () => {
  it('holds each drawn pose as the CPU kernel blends it: positions bit for bit, normals within 0.01°', () => {
    const crowd = new MD2Crowd(ogro, { limit: 8, pose: 'cpu' })
    poses.forEach((pose, i) => {
      crowd.setTransform(i, { position: new Vector3(i * 60, 0, 0) })
      crowd.setPose(i, pose)
    })
    frame(crowd, webglOn(HARDWARE))
    const state = rendererOf(crowd).state
    expect(crowd.drawnFrom).toBe('posed')
    expect(state.atlas !== undefined).toBe(true)
    const texture = state.uniforms.md2PoseAtlas.value as DataTexture
    const words = texture.image.data as Uint32Array
    const floats = new Float32Array(words.buffer)
    const width = texture.image.width
    const positions = new Float32Array(vertices * 3)
    const normals = new Float32Array(vertices * 3)
    const xyzIndex = Uint16Array.from({ length: vertices }, (_, v) => v)
    let worst = 0
    for (let k = 0; k < crowd.count; k++) {
      const pose = poses[crowd.instanceAt(k)]!
      if (pose.fadeWeight > 0) blendPoseYUp(ogro, pose, { xyzIndex, positions, normals })
      else blendVerticesYUp(ogro, pose, { xyzIndex, positions, normals })
      const [first, row] = slotOf(crowd, k)
      for (let v = 0; v < vertices; v++) {
        const o = (row * width + first + v) * 4
        expect([floats[o], floats[o + 1], floats[o + 2]]).toEqual([positions[v * 3], positions[v * 3 + 1], positions[v * 3 + 2]])
        const [x, y, z] = unpackNormal(words[o + 3]!)
        const length = Math.hypot(normals[v * 3]!, normals[v * 3 + 1]!, normals[v * 3 + 2]!)
        const cos = (x * normals[v * 3]! + y * normals[v * 3 + 1]! + z * normals[v * 3 + 2]!) / length
        worst = Math.max(worst, (Math.acos(Math.min(1, cos)) * 180) / Math.PI)
      }
    }
    expect(crowd.count).toBe(3)
    expect(worst).toBeLessThan(0.01)
    crowd.dispose()
  })

  it('blends a pose shown by many instances once: they share its slot, the others each have their own', () => {
    const crowd = new MD2Crowd(ogro, { limit: 64, pose: 'cpu' })
    for (let i = 0; i < 60; i++) {
      crowd.setTransform(i, { position: new Vector3((i % 10) * 60, 0, -Math.floor(i / 10) * 60) })
      // Two poses for 50 of them; the last ten each their own.
      crowd.setPose(i, i < 50 ? poses[i % 2]! : { ...createPose(0), from: i, to: i + 1, t: 0.5 })
    }
    frame(crowd, webglOn(HARDWARE))
    const places = Array.from({ length: crowd.count }, (_, k) => slotOf(crowd, k).join())
    expect(crowd.count).toBe(60)
    expect(new Set(places).size).toBe(12)
    for (let k = 0; k < crowd.count; k++) {
      const i = crowd.instanceAt(k)
      if (i < 50) expect(places[k]).toBe(places[crowd.instanceAt(0) === i % 2 ? 0 : 1])
    }
    crowd.dispose()
  })

  it('is read while the CPU poses for WebGLRenderer, its materials given the program reading it, and left when it stops', () => {
    const crowd = new MD2Crowd(ogro, { limit: 4 })
    crowd.setTransform(0, { position: new Vector3(0, 0, 0) })
    crowd.play(0, 'run')
    const state = rendererOf(crowd).state
    const material = crowd.material as { version: number }
    const depth = crowd.customDepthMaterial as { version: number }
    const versions = () => [material.version, depth.version]
    // On a software renderer "auto" poses on the CPU: the materials take the atlas's program.
    const before = versions()
    frame(crowd, webglOn(SWIFTSHADER))
    expect([crowd.drawnFrom, state.atlas !== undefined]).toEqual(['posed', true])
    const reading = versions()
    expect(reading.every((version, k) => version > before[k]!)).toBe(true)
    crowd.pose = 'shader'
    frame(crowd, webglOn(SWIFTSHADER))
    expect([crowd.drawnFrom, state.atlas !== undefined]).toEqual(['stored', false])
    expect(versions().every((version, k) => version > reading[k]!)).toBe(true)
    // Another frame the same: no program to change.
    const settled = versions()
    frame(crowd, webglOn(SWIFTSHADER))
    expect(versions()).toEqual(settled)
    crowd.dispose()
    // Posed for a GPU that decodes quickly itself (asked for): the rows carry the poses, no atlas.
    const asked = new MD2Crowd(ogro, { limit: 4, pose: 'cpu' })
    asked.setTransform(0, { position: new Vector3(0, 0, 0) })
    frame(asked, { isWebGPURenderer: true, backend: { isWebGPUBackend: true } })
    expect([asked.drawnFrom, rendererOf(asked).state.atlas !== undefined]).toEqual(['posed', false])
    asked.dispose()
  })

  it('leaves the poses it cannot hold to the decode: past its largest side it reads the keyframes', () => {
    // A device whose largest texture side is 512: one Ogro pose a row (a row holds 358 vertices), 512 rows.
    const crowd = new MD2Crowd(ogro, { limit: 600, pose: 'cpu', maxTextureSize: 512 })
    for (let i = 0; i < 600; i++) {
      crowd.setTransform(i, { position: new Vector3(i * 60, 0, 0) })
      crowd.setPose(i, { ...createPose(0), from: i % 198, to: (i % 198) + 1, t: 0.05 + (0.9 * i) / 600 })
    }
    crowd.update(1 / 60)
    expect(crowd.count).toBe(600)
    expect(rendererOf(crowd).state.atlas !== undefined).toBe(false)
    for (let i = 512; i < 600; i++) crowd.hide(i)
    crowd.update(1 / 60)
    expect(crowd.count).toBe(512)
    expect(rendererOf(crowd).state.atlas !== undefined).toBe(true)
    crowd.dispose()
  })
})
