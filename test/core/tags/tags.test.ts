import { describe, expect, it } from 'vitest'
import { decodeFrame, parseAnimationTable, parseMD2 } from '../../../src/core/internal'
import { createPose } from '../../../src/core/animation/pose'
import { findTag, parseMD2Tags, type MD2Tags } from '../../../src/core/tags/parseMD2Tags'
import { tagTransform } from '../../../src/core/tags/tagTransform'
import { readAsset } from '../../support/assets'
import { expectMD2Error } from '../../support/errors'

const FILES = ['ufoai/soldier-male/body.tag', 'ufoai/bloodspider/bloodspider.tag']

/** An independent reading of a JDP2 file: header fields, 64-byte names, 12 floats per tag per frame. */
function readIndependently(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const [numTags, numFrames, ofsNames, ofsTags] = [8, 12, 16, 20].map((offset) => view.getInt32(offset, true))
  const names = Array.from({ length: numTags! }, (_, i) => {
    const raw = new TextDecoder('latin1').decode(bytes.subarray(ofsNames! + i * 64, ofsNames! + (i + 1) * 64))
    return raw.slice(0, raw.indexOf('\0'))
  })
  const floats = Array.from({ length: numTags! * numFrames! * 12 }, (_, i) => view.getFloat32(ofsTags! + i * 4, true))
  return { names, numFrames: numFrames!, floats }
}

describe('parseMD2Tags', () => {
  for (const path of FILES) {
    it(`reads ${path} exactly as an independent reading of its bytes, every tag and frame`, () => {
      const bytes = readAsset(path)
      const tags = parseMD2Tags(bytes, { name: path })
      const expected = readIndependently(bytes)
      expect(tags.names).toEqual(expected.names)
      expect(tags.numFrames).toBe(expected.numFrames)
      expect(Array.from(tags.transforms)).toEqual(expected.floats)
    })
  }

  it('the soldier has the four tags UFO:AI places heads and weapons with, for all 1,007 frames', () => {
    const tags = parseMD2Tags(readAsset('ufoai/soldier-male/body.tag'))
    expect([...tags.names].sort()).toEqual(['tag_floor', 'tag_head', 'tag_lweapon', 'tag_rweapon'])
    expect(tags.numFrames).toBe(1007)
  })

  it('refuses damaged files with a coded error naming the part, before allocating', () => {
    const good = readAsset('ufoai/soldier-male/body.tag')
    expectMD2Error(() => parseMD2Tags(good.subarray(0, 20)), 'TRUNCATED', { section: 'header' })
    const magic = good.slice()
    magic[0] = 0x49
    expectMD2Error(() => parseMD2Tags(magic), 'BAD_MAGIC', { section: 'header' })
    const version = good.slice()
    version[4] = 2
    expectMD2Error(() => parseMD2Tags(version), 'BAD_VERSION', { section: 'header' })
    expect(expectMD2Error(() => parseMD2Tags(good.subarray(0, good.length - 48)), 'TRUNCATED', { section: 'tags' }).message).toContain(
      'past the end of the data',
    )
    const counts = good.slice()
    new DataView(counts.buffer).setInt32(12, 0x7fffffff, true)
    expectMD2Error(() => parseMD2Tags(counts), 'TRUNCATED', { section: 'tags' })
    const negative = good.slice()
    new DataView(negative.buffer).setInt32(8, -1, true)
    expectMD2Error(() => parseMD2Tags(negative), 'OUT_OF_RANGE', { section: 'header' })
    const names = good.slice()
    new DataView(names.buffer).setInt32(16, good.length - 10, true)
    expectMD2Error(() => parseMD2Tags(names), 'TRUNCATED', { section: 'names' })
    const nan = good.slice()
    new DataView(nan.buffer).setFloat32(288 + 4 * 5, Number.NaN, true)
    expect(expectMD2Error(() => parseMD2Tags(nan), 'BAD_VALUE', { section: 'tags' }).offset).toBe(288 + 20)
    const unterminated = good.slice()
    unterminated.fill(0x41, 32, 96)
    expectMD2Error(() => parseMD2Tags(unterminated), 'OUT_OF_RANGE', { section: 'names' })
  })
})

const soldierTags = parseMD2Tags(readAsset('ufoai/soldier-male/body.tag'), { name: 'body.tag' })
const stored = (tags: MD2Tags, tag: number, frame: number) =>
  Array.from(tags.transforms.subarray((tag * tags.numFrames + frame) * 12, (tag * tags.numFrames + frame + 1) * 12))

/** An independent interpolation: each of the 12 numbers lerped, then each axis scaled to length 1. */
function lerpedIndependently(a: number[], b: number[], t: number): number[] {
  const m = a.map((value, i) => value * (1 - t) + b[i]! * t)
  for (const o of [0, 3, 6]) {
    const length = Math.sqrt(m[o]! ** 2 + m[o + 1]! ** 2 + m[o + 2]! ** 2)
    for (let k = 0; k < 3; k++) m[o + k] = m[o + k]! / length
  }
  return m
}

describe('tagTransform', () => {
  const head = findTag(soldierTags, 'tag_head')
  const rweapon = findTag(soldierTags, 'tag_rweapon')

  it('finds tags by name, and -1 for a name the file lacks', () => {
    expect([head, rweapon, findTag(soldierTags, 'tag_floor'), findTag(soldierTags, 'tag_tail')]).toEqual([0, 2, 3, -1])
  })

  // Keyframe pairs: neighbours in walk1, far apart in death1, and dead1 held into death2.
  // prettier-ignore
  const PAIRS = [[0, 1], [830, 840], [856, 857]] as const

  it("is the file's transform on a keyframe, and the lerped, renormalised pair between two", () => {
    for (const [from, to] of PAIRS) {
      const pose = { ...createPose(from), to }
      expect(Array.from(tagTransform(soldierTags, rweapon, pose))).toEqual(stored(soldierTags, rweapon, from).map(Math.fround))
      for (const t of [0.25, 0.5, 0.9]) {
        const got = Array.from(tagTransform(soldierTags, rweapon, { ...pose, t }))
        const want = lerpedIndependently(stored(soldierTags, rweapon, from), stored(soldierTags, rweapon, to), t)
        got.forEach((value, i) => expect(value).toBeCloseTo(want[i]!, 5))
        for (const o of [0, 3, 6]) expect(Math.hypot(got[o]!, got[o + 1]!, got[o + 2]!)).toBeCloseTo(1, 5)
      }
    }
  })

  it('blends in the outgoing pose of a crossfade by its weight', () => {
    const incoming = { ...createPose(10), to: 11, t: 0.5 }
    const outgoing = { ...createPose(860), to: 861, t: 0.3 }
    const a = lerpedIndependently(stored(soldierTags, head, 10), stored(soldierTags, head, 11), 0.5)
    const b = lerpedIndependently(stored(soldierTags, head, 860), stored(soldierTags, head, 861), 0.3)
    const pose = { ...incoming, fadeFrom: outgoing.from, fadeTo: outgoing.to, fadeT: outgoing.t, fadeWeight: 0.4 }
    const got = Array.from(tagTransform(soldierTags, head, pose))
    const want = lerpedIndependently(a, b, 0.4)
    got.forEach((value, i) => expect(value).toBeCloseTo(want[i]!, 5))
    // Weight 1: all outgoing; weight 0: the fade is ignored.
    Array.from(tagTransform(soldierTags, head, { ...pose, fadeWeight: 1 })).forEach((value, i) => expect(value).toBeCloseTo(b[i]!, 5))
    Array.from(tagTransform(soldierTags, head, { ...pose, fadeWeight: 0 })).forEach((value, i) => expect(value).toBeCloseTo(a[i]!, 5))
  })

  it("clamps frames past the file's last to it, and refuses a tag that does not exist", () => {
    const last = soldierTags.numFrames - 1
    expect(Array.from(tagTransform(soldierTags, head, createPose(last + 50)))).toEqual(stored(soldierTags, head, last).map(Math.fround))
    expectMD2Error(() => tagTransform(soldierTags, 9, createPose(0)), 'BAD_INDEX', { section: 'tags' })
    expectMD2Error(() => tagTransform(soldierTags, -1, createPose(0)), 'BAD_INDEX', { section: 'tags' })
  })

  it('writes into the array it is given', () => {
    const out = new Float32Array(12)
    expect(tagTransform(soldierTags, head, createPose(3), out)).toBe(out)
  })
})

describe('the tag layout, from the data', () => {
  // The three floats that come first are the image of the attached model's x axis (a column of the
  // matrix), not the first row: with that reading a head's up axis follows the soldier's spine
  // through every animation, lying down included; read as rows it points the other way whenever the
  // body leans or lies.
  const body = parseMD2(readAsset('ufoai/soldier-male/body.md2'))
  const head = findTag(soldierTags, 'tag_head')
  const table = parseAnimationTable(new TextDecoder().decode(readAsset('ufoai/soldier-male/body.anm')), 'body.anm')
  const frames = [...new Set(table.flatMap((a) => Array.from({ length: a.end - a.start + 1 }, (_, i) => a.start + i)))].filter(
    (f) => f < body.header.numFrames,
  )

  function spineAgreement(upAxis: (m: number[]) => number[]): number {
    let agree = 0
    for (const frame of frames) {
      const vertices = decodeFrame(body, frame)
      const centre = [0, 0, 0]
      for (let i = 0; i < vertices.length; i += 3) for (let k = 0; k < 3; k++) centre[k]! += vertices[i + k]! / (vertices.length / 3)
      const m = stored(soldierTags, head, frame)
      const spine = [m[9]! - centre[0]!, m[10]! - centre[1]!, m[11]! - centre[2]!]
      const up = upAxis(m)
      const cos = (spine[0]! * up[0]! + spine[1]! * up[1]! + spine[2]! * up[2]!) / Math.hypot(...spine)
      if (cos > 0.5) agree++
    }
    return agree / frames.length
  }

  it('puts the head upright along the spine in the frames of every animation of body.anm', () => {
    expect(frames.length).toBeGreaterThan(500)
    const columns = spineAgreement((m) => [m[6]!, m[7]!, m[8]!])
    const rows = spineAgreement((m) => [m[2]!, m[5]!, m[8]!])
    expect(columns).toBeGreaterThan(0.95)
    expect(rows).toBeLessThan(0.9)
  })
})
