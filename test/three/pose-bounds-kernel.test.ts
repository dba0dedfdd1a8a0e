import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BufferAttribute, BufferGeometry } from 'three'
import { describe, expect, it } from 'vitest'
import { parseAnimationTable } from '../../src/core/format/animationTable'
import { createPose, type MD2Pose } from '../../src/core/animation/pose'
import { parseMD2 } from '../../src/core/format/parseMD2'
import type { MD2ModelData } from '../../src/core/format/types'
import { poseBox } from '../../src/core/animation/blendVerticesBounded'
import { quake2LightTable } from '../../src/core/lighting/quake2Light'
import { Quake2Lighting } from '../../src/three/materials/Quake2Lighting'
import { createMD2Geometry, writeMD2Pose, type CreateMD2GeometryOptions } from '../../src/three/mesh/MD2Geometry'
import { bytesPerCall, settled } from '../support/alloc'
import { ASSETS_DIR, readAsset } from '../support/assets'
import { boxOfPositions } from '../support/boxes'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2'), { name: 'ogro' })
const soldier = parseMD2(readAsset('ufoai/soldier-male/body.md2'), { name: 'soldier' })
const soldierTable = parseAnimationTable(readFileSync(join(ASSETS_DIR, 'ufoai/soldier-male/body.anm'), 'utf8'))

/** The ogro with its frames one byte off 4-byte alignment (a file read from an odd offset): the byte kernels. */
function unaligned(model: MD2ModelData): MD2ModelData {
  const bytes = new Uint8Array(model.frameData.length + 1)
  bytes.set(model.frameData, 1)
  return { ...model, frameData: bytes.subarray(1) }
}

/** Quake II's light at one yaw row and shadelight, with the kernels that write it. */
const light = new Quake2Lighting()
quake2LightTable(3, [0.9, 0.7, 0.5], false, light.table)

/**
 * A run through every animation: keyframes, blends between them, and crossfades from the previous
 * animation (the fade's outgoing pose held while the incoming one moves on, then a new fade).
 */
function* posesThrough(model: MD2ModelData, animations: readonly { start: number; end: number }[]): Generator<MD2Pose> {
  let previous = { start: model.header.numFrames - 1, end: model.header.numFrames - 1 }
  for (const { start, end } of animations) {
    const length = end - start + 1
    for (let step = 0; step < Math.min(length, 6); step++) {
      const from = start + step
      const to = start + ((step + 1) % length)
      yield { ...createPose(from), to, t: step / 6 }
      // Mid-fade: the same outgoing pose at several weights, as a crossfade runs.
      for (const fadeWeight of [0.8, 0.35]) {
        yield {
          from,
          to,
          t: 0.4,
          fadeFrom: previous.start,
          fadeTo: previous.end,
          fadeT: 0.25,
          fadeWeight,
        }
      }
    }
    previous = { start, end }
  }
}

function floats(geometry: BufferGeometry, name: string): Float32Array | undefined {
  return (geometry.getAttribute(name) as BufferAttribute | undefined)?.array as Float32Array | undefined
}

/** The first index where two float arrays differ in any bit (−0 from 0 too), or −1. */
function firstDifference(a: Float32Array | undefined, b: Float32Array | undefined): number {
  if (a === undefined || b === undefined) return a === b ? -1 : 0
  if (a.length !== b.length) return 0
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length)
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length)
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return i
  return -1
}

/** Min x, y, z then max x, y, z of the positions in the buffer: exactly what is drawn. */
const drawnBox = (geometry: BufferGeometry): number[] => boxOfPositions(floats(geometry, 'position')!)

function boxOf(geometry: BufferGeometry): number[] {
  const { min, max } = geometry.boundingBox!
  return [min.x, min.y, min.z, max.x, max.y, max.z]
}

const kinds: [string, MD2ModelData, readonly { start: number; end: number }[], CreateMD2GeometryOptions, Quake2Lighting | undefined][] = [
  ['ogro', ogro, ogro.animations, {}, undefined],
  ['UFO:AI soldier', soldier, soldierTable, {}, undefined],
  ['ogro without normals', ogro, ogro.animations, { normals: false }, undefined],
  ['ogro lit by the Quake II table', ogro, ogro.animations, { colors: true }, light],
  ['ogro with unaligned frames', unaligned(ogro), ogro.animations, {}, undefined],
]

/** One options object for every call: a literal per call would be the allocation measured. */
const POSE_BOUNDS = { bounds: poseBox } as const

describe('pose bounds from the blend kernels', () => {
  it.each([
    ['a blend', { ...createPose(40), to: 41, t: 0.3 }],
    ['a crossfade', { from: 40, to: 41, t: 0.3, fadeFrom: 0, fadeTo: 1, fadeT: 0.5, fadeWeight: 0.6 }],
  ] as const)('writing %s with its bounds allocates nothing (before the other paths have run)', async (_, pose) => {
    const geometry = createMD2Geometry(ogro)
    const write = () => writeMD2Pose(geometry, pose, POSE_BOUNDS)
    const perCall = await settled(() => bytesPerCall(write, 50), write)
    expect(perCall).toBeLessThan(8)
  })

  it('a steady-state write with bounds allocates nothing once its frame pairs were first seen', async () => {
    const geometry = createMD2Geometry(ogro)
    // The run animation's pairs, each met once before measuring (the first sight finds its candidates).
    const run = ogro.animations.find((animation) => animation.name === 'run')!
    const pose: MD2Pose = { from: run.start, to: run.start + 1, t: 0.3, fadeFrom: 0, fadeTo: 0, fadeT: 0, fadeWeight: 0 }
    let step = 0
    const write = () => {
      pose.from = run.start + step
      pose.to = pose.from === run.end ? run.start : pose.from + 1
      step = step === run.end - run.start ? 0 : step + 1
      writeMD2Pose(geometry, pose, POSE_BOUNDS)
    }
    for (let f = run.start; f <= run.end; f++) write()
    const perCall = await settled(() => bytesPerCall(write, 50), write)
    expect(perCall).toBeLessThan(8)
  })

  it.each(kinds)(
    '%s: writes the same bits as without bounds, and the box is exactly the min and max of them',
    (_, model, animations, options, table) => {
      const plain = createMD2Geometry(model, options)
      const boxed = createMD2Geometry(model, options)
      let poses = 0
      let fading = 0
      for (const pose of posesThrough(model, animations)) {
        writeMD2Pose(plain, pose, { light: table })
        writeMD2Pose(boxed, pose, { light: table, bounds: poseBox })
        const what = `${pose.from}→${pose.to} at ${pose.t}, fade ${pose.fadeWeight}`
        for (const name of ['position', 'normal', 'color']) {
          expect(firstDifference(floats(boxed, name), floats(plain, name)), `${what}: ${name}`).toBe(-1)
        }
        expect(boxOf(boxed), what).toEqual(drawnBox(boxed))
        const sphere = boxed.boundingSphere!
        expect(sphere.center.toArray(), what).toEqual(boxed.boundingBox!.getCenter(sphere.center.clone()).toArray())
        poses++
        if (pose.fadeWeight > 0) fading++
      }
      expect(fading).toBeGreaterThan(animations.length)
      expect(poses).toBeGreaterThan(fading)
    },
  )
})
