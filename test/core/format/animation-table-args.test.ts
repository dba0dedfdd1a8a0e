/**
 * Careless calls with animation tables (issue #51): answered as the rest of the library answers, a bad entry
 * warned about once and left out (the rest kept), a rate of 0 on a range of frames or a rate that is not a
 * number refused, wrong argument types a coded `MD2Error`, never a bare TypeError or a table silently dropped.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MD2Error, parseAnimationTable } from '../../../src/core'
import { MD2Loader } from '../../../src/three/loaders/MD2Loader'
import { readAsset } from '../../support/assets'

const ogro = readAsset('quake2/ogro/tris.MD2')

afterEach(() => vi.restoreAllMocks())

/** The error `call` throws, or undefined. */
function thrown(call: () => unknown): unknown {
  try {
    call()
  } catch (error) {
    return error
  }
  return undefined
}

describe('MD2Loader.setAnimationTable', () => {
  it('one bad entry: warned about once and left out, the others kept and used', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const table = [
      { name: 'stand', start: 0, end: 39, fps: 9 },
      { name: 'backwards', start: 45, end: 40, fps: 10 },
      { name: 'run', start: 40, end: 45 },
    ]
    const loader = new MD2Loader().setAnimationTable(table)
    const model = loader.parse(ogro)
    expect(model.animations).toEqual([
      { name: 'stand', start: 0, end: 39, fps: 9, source: 'table' },
      { name: 'run', start: 40, end: 45, fps: 10, source: 'table' },
    ])
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]![0]).toBe(
      'react-three-md2: MD2Loader.setAnimationTable: entry 1 {"name":"backwards","start":45,"end":40,"fps":10} is not ' +
        '{ name, start, end } with whole frame numbers from 0, start up to end; left out, the other entries kept',
    )
    // Once: the same table set again says nothing more.
    new MD2Loader().setAnimationTable(table)
    expect(warn).toHaveBeenCalledTimes(1)
  })

  it.each([
    [0, ' (0 freezes the animation)'],
    [-5, ''],
    [Number.NaN, ''],
    [Infinity, ''],
    ['10', ''],
  ])('a rate of %s on a range of frames: BAD_ARGUMENT naming the entry', (fps, note) => {
    const error = thrown(() => new MD2Loader().setAnimationTable([{ name: 'run', start: 40, end: 45, fps: fps as number }]))
    expect(error).toBeInstanceOf(MD2Error)
    expect(error).toMatchObject({
      code: 'BAD_ARGUMENT',
      section: 'animation table',
      reason: `MD2Loader.setAnimationTable: entry 0 ("run") has the rate ${typeof fps === 'string' ? `the string "${fps}"` : String(fps)}: a rate is a number of frames a second above 0${note}`,
    })
  })

  it('a rate of 0 on one frame held (UFO:AI\u2019s death poses) is kept', () => {
    const model = new MD2Loader().setAnimationTable([{ name: 'dead', start: 197, end: 197, fps: 0 }]).parse(ogro)
    expect(model.animations).toEqual([{ name: 'dead', start: 197, end: 197, fps: 0, source: 'table' }])
  })

  it.each([null, 'stand 0 39 10', { name: 'stand', start: 0, end: 39 }, 7])('%j instead of an array: BAD_ARGUMENT', (table) => {
    const error = thrown(() => new MD2Loader().setAnimationTable(table as never))
    expect(error).toBeInstanceOf(MD2Error)
    expect((error as MD2Error).code).toBe('BAD_ARGUMENT')
    expect((error as MD2Error).reason).toMatch(/^MD2Loader\.setAnimationTable takes an array of \{ name, start, end, fps \} entries, got /)
  })

  it('undefined clears the table', () => {
    const loader = new MD2Loader().setAnimationTable([{ name: 'all', start: 0, end: 10 }]).setAnimationTable(undefined)
    expect(loader.parse(ogro).animations.some((animation) => animation.source === 'table')).toBe(false)
  })
})

describe('parseAnimationTable with wrong arguments', () => {
  it.each([
    [null, 'null'],
    [undefined, 'undefined'],
    [42, 'a number'],
    [new Uint8Array(4), 'bytes (decode them to text first)'],
    [['stand 0 39 10'], 'an array'],
  ])('%j: BAD_ARGUMENT naming what it got, not a TypeError', (text, got) => {
    const error = thrown(() => parseAnimationTable(text as never, 'body.anm'))
    expect(error).toBeInstanceOf(MD2Error)
    expect(error).toMatchObject({
      code: 'BAD_ARGUMENT',
      file: 'body.anm',
      reason: `parseAnimationTable takes the table's text (a string), got ${got}`,
    })
  })

  it('a file name that is not a string: BAD_ARGUMENT', () => {
    const error = thrown(() => parseAnimationTable('stand 0 39 10', 3 as never))
    expect(error).toMatchObject({ code: 'BAD_ARGUMENT', reason: "parseAnimationTable's file takes a name (a string), got a number" })
  })
})
