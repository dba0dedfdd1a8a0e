/**
 * The engine-rules checker the convert tests use (test/support/quake2Rules.ts) holds real Quake II player
 * models to be loadable and refuses each rule broken in a copy: it can fail, so its passes mean something.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { encodePCX } from '../../src/core/images/encodePCX'
import { ASSETS_DIR, readAsset } from '../support/assets'
import { quake2Refusals } from '../support/quake2Rules'

/** Skins by their game path (players/ogro/x.pcx), found in the ogro's folder. */
const ogroSkin = (name: string) => {
  const file = join('quake2/ogro', name.replace(/^players\/ogro\//, ''))
  return existsSync(join(ASSETS_DIR, file)) ? readAsset(file) : undefined
}

function patched(bytes: Uint8Array, field: number, value: number): Uint8Array {
  const copy = bytes.slice()
  new DataView(copy.buffer).setInt32(field * 4, value, true)
  return copy
}

describe('quake2Refusals', () => {
  it('passes the ogro as Quake II ships it, with its skins', () => {
    expect(quake2Refusals(readAsset('quake2/ogro/tris.MD2'), ogroSkin)).toEqual([])
  })

  it('refuses each rule broken', () => {
    const ogro = readAsset('quake2/ogro/tris.MD2')
    expect(quake2Refusals(patched(ogro, 1, 7), ogroSkin)).toEqual(['version 7, not 8'])
    expect(quake2Refusals(patched(ogro, 3, 481), ogroSkin)).toEqual(['skin taller than 480 (481)'])
    expect(quake2Refusals(patched(ogro, 6, 2049), ogroSkin)).toContain('2049 vertices (1 to 2048)')
    expect(quake2Refusals(patched(ogro, 10, 0), ogroSkin)).toEqual(['0 frames (1 to 512)'])
    expect(quake2Refusals(ogro, () => undefined)[0]).toMatch(/^skin "players\/ogro\/igdosh\.pcx": no such file$/)
    const big = encodePCX({ width: 600, height: 300, data: new Uint8Array(600 * 300 * 4).fill(255) })
    expect(quake2Refusals(ogro, (name) => (name.endsWith('igdosh.pcx') ? big : ogroSkin(name)))).toEqual([
      'skin "players/ogro/igdosh.pcx": GL_Upload8: too large (600 × 300)',
    ])
  })
})
