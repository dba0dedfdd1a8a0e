import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseAnimationTable } from '../../../src/core/format/animationTable'
import { blendVerticesYUp } from '../../../src/core/animation/blendVertices'
import { poseBox } from '../../../src/core/animation/blendVerticesBounded'
import { boundsFromCandidates, pairCandidates } from '../../../src/core/animation/poseBounds'
import { parseMD2 } from '../../../src/core/format/parseMD2'
import { FRAME_HEADER_SIZE } from '../../../src/core/format/spec'
import type { MD2ModelData } from '../../../src/core/format/types'
import { buildVertexLayout } from '../../../src/core/format/vertexLayout'
import { ASSETS_DIR, readAsset } from '../../support/assets'
import { boxOfPositions } from '../../support/boxes'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2'), { name: 'ogro' })
const soldier = parseMD2(readAsset('ufoai/soldier-male/body.md2'), { name: 'soldier' })
const soldierTable = parseAnimationTable(readFileSync(join(ASSETS_DIR, 'ufoai/soldier-male/body.anm'), 'utf8'))

/**
 * The ogro with negative scales, the same shapes: on every odd frame Quake x is stored mirrored (byte
 * 255 − b, scale −s, translate moved by 255 s), and on every frame from 100 on Quake z too. So pairs
 * mix a negative scale with a positive one on an axis, or have both negative.
 */
function mirrored(model: MD2ModelData): MD2ModelData {
  const data = model.frameData.slice()
  const transforms = model.frameTransforms.slice()
  const flip = (frame: number, axis: number) => {
    const scale = transforms[frame * 6 + axis]!
    transforms[frame * 6 + 3 + axis] = transforms[frame * 6 + 3 + axis]! + 255 * scale
    transforms[frame * 6 + axis] = -scale
    const start = frame * model.frameStride + FRAME_HEADER_SIZE
    for (let v = 0; v < model.header.numVertices; v++) data[start + v * 4 + axis] = 255 - data[start + v * 4 + axis]!
  }
  for (let f = 0; f < model.header.numFrames; f++) {
    if (f % 2 === 1) flip(f, 0)
    if (f >= 100) flip(f, 2)
  }
  return { ...model, frameData: data, frameTransforms: transforms }
}

/** Each animation's consecutive pairs, its loop back to the start included. */
function consecutivePairs(animations: readonly { start: number; end: number }[]): [number, number][] {
  const pairs: [number, number][] = []
  for (const { start, end } of animations) {
    for (let f = start; f < end; f++) pairs.push([f, f + 1])
    pairs.push([end, start])
  }
  return pairs
}

/** Pairs of any two frames, from a fixed seed. */
function randomPairs(count: number, numFrames: number): [number, number][] {
  let seed = 0x2545f491
  const next = () => {
    seed ^= seed << 13
    seed ^= seed >>> 17
    seed ^= seed << 5
    return (seed >>> 0) % numFrames
  }
  return Array.from({ length: count }, () => [next(), next()] as [number, number])
}

const BLENDS = [0, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 1, 1 / 3, 0.999]

const models: [string, MD2ModelData, readonly { start: number; end: number }[]][] = [
  ['ogro', ogro, ogro.animations],
  ['UFO:AI soldier', soldier, soldierTable],
  ['ogro with negative scales', mirrored(ogro), ogro.animations],
]

describe('pose bounds from the candidates of a frame pair', () => {
  it.each(models)('%s: the candidates give exactly the box of every blend drawn', (_, model, animations) => {
    const { xyzIndex } = buildVertexLayout(model)
    const positions = new Float32Array(xyzIndex.length * 3)
    const bounds = new Float64Array(6)
    const pairs = [...consecutivePairs(animations), ...randomPairs(150, model.header.numFrames)]
    let candidates = 0
    for (const [from, to] of pairs) {
      const list = pairCandidates(model, from, to, xyzIndex)
      expect(list.length).toBeGreaterThan(6)
      candidates = Math.max(candidates, list.length - 6)
      for (const t of BLENDS) {
        blendVerticesYUp(model, { from, to, t }, { xyzIndex, positions })
        boundsFromCandidates(positions, list, bounds)
        expect(Array.from(bounds), `${from}→${to} at ${t}`).toEqual(boxOfPositions(positions))
      }
    }
    // A handful of vertices, not a walk: well under the drawn count on every pair.
    expect(candidates).toBeLessThan(xyzIndex.length / 4)
  })

  it('the ogro with negative scales is the ogro (to float rounding)', () => {
    const { xyzIndex } = buildVertexLayout(ogro)
    const a = new Float32Array(xyzIndex.length * 3)
    const b = new Float32Array(xyzIndex.length * 3)
    blendVerticesYUp(ogro, { from: 101, to: 102, t: 0.5 }, { xyzIndex, positions: a })
    blendVerticesYUp(mirrored(ogro), { from: 101, to: 102, t: 0.5 }, { xyzIndex, positions: b })
    for (let i = 0; i < a.length; i++) expect(b[i]).toBeCloseTo(a[i]!, 3)
  })

  it('a pair is found once and then read from the cache', () => {
    const { xyzIndex } = buildVertexLayout(ogro)
    expect(pairCandidates(ogro, 3, 4, xyzIndex)).toBe(pairCandidates(ogro, 3, 4, xyzIndex))
    expect(pairCandidates(ogro, 4, 3, xyzIndex)).not.toBe(pairCandidates(ogro, 3, 4, xyzIndex))
  })

  it.each([-0.5, 1.5, 2])('a blend factor outside [0, 1] (%s) still gets the box of what is drawn', (t) => {
    const { xyzIndex } = buildVertexLayout(ogro)
    const positions = new Float32Array(xyzIndex.length * 3)
    const bounds = new Float64Array(6)
    for (const model of [ogro, mirrored(ogro)]) {
      const target = { xyzIndex, positions, bounds }
      blendVerticesYUp(model, { from: 10, to: 11, t }, target)
      poseBox.afterPair(model, { from: 10, to: 11, t }, target)
      expect(Array.from(bounds)).toEqual(boxOfPositions(positions))
    }
  })
})
