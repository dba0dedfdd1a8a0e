import { describe, expect, it } from 'vitest'
import { MD2Error } from '../src/core/errors'
import { parseMD2Tags } from '../src/core/tags'
import { readAsset } from './assets'

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

function expectCode(run: () => unknown, code: string, part: string): MD2Error {
  let caught: unknown
  try {
    run()
  } catch (error) {
    caught = error
  }
  expect(caught).toBeInstanceOf(MD2Error)
  expect((caught as MD2Error).code).toBe(code)
  expect((caught as MD2Error).section).toBe(part)
  return caught as MD2Error
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
    expectCode(() => parseMD2Tags(good.subarray(0, 20)), 'TRUNCATED', 'header')
    const magic = good.slice()
    magic[0] = 0x49
    expectCode(() => parseMD2Tags(magic), 'BAD_MAGIC', 'header')
    const version = good.slice()
    version[4] = 2
    expectCode(() => parseMD2Tags(version), 'BAD_VERSION', 'header')
    expect(expectCode(() => parseMD2Tags(good.subarray(0, good.length - 48)), 'TRUNCATED', 'tags').message).toContain(
      'past the end of the data',
    )
    const counts = good.slice()
    new DataView(counts.buffer).setInt32(12, 0x7fffffff, true)
    expectCode(() => parseMD2Tags(counts), 'TRUNCATED', 'tags')
    const negative = good.slice()
    new DataView(negative.buffer).setInt32(8, -1, true)
    expectCode(() => parseMD2Tags(negative), 'OUT_OF_RANGE', 'header')
    const names = good.slice()
    new DataView(names.buffer).setInt32(16, good.length - 10, true)
    expectCode(() => parseMD2Tags(names), 'TRUNCATED', 'names')
    const nan = good.slice()
    new DataView(nan.buffer).setFloat32(288 + 4 * 5, Number.NaN, true)
    expect(expectCode(() => parseMD2Tags(nan), 'BAD_VALUE', 'tags').offset).toBe(288 + 20)
    const unterminated = good.slice()
    unterminated.fill(0x41, 32, 96)
    expectCode(() => parseMD2Tags(unterminated), 'OUT_OF_RANGE', 'names')
  })
})
