import { describe, expect, it } from 'vitest'
import { SKIN_EXTENSIONS, skinCandidateRounds, skinCandidates } from '../../../src/core/images/skinPaths'
import { parseMD2 } from '../../../src/core/internal'
import { listAssets, readAsset } from '../../support/assets'

/** Each spelling in `names` at each place in `places` (URL prefixes), place by place. */
const atEach = (places: string[], names: string[]) => places.flatMap((place) => names.map((name) => place + name))

describe('skinCandidates', () => {
  it('gives none for a model that names no skin (model.skins[0] undefined), as for an empty name', () => {
    const ratamahatta = parseMD2(readAsset('quake2/ratamahatta/tris.md2'))
    expect(ratamahatta.skins).toEqual([])
    expect(skinCandidates('/players/ratamahatta/tris.md2', ratamahatta.skins[0])).toEqual([])
    expect(skinCandidates('/players/ratamahatta/tris.md2', '')).toEqual([])
  })

  it('a Quake II game path: the file name next to the model first (where a player folder keeps it), then the path as written, in several spellings', () => {
    expect(skinCandidates('/models/quake2/ogro/tris.MD2', 'players/ogro/igdosh.pcx')).toEqual(
      atEach(['/models/quake2/ogro/', '/models/quake2/ogro/players/ogro/'], ['igdosh.pcx', 'igdosh.PCX', 'IGDOSH.PCX']),
    )
  })

  it('backslashes become slashes; the directory keeps its case, only the file name varies', () => {
    expect(skinCandidates('http://example.com/q2/faerie/weapon.md2', 'players\\Faerie\\Weapon.pcx')).toEqual(
      atEach(
        ['http://example.com/q2/faerie/', 'http://example.com/q2/faerie/players/Faerie/'],
        ['Weapon.pcx', 'weapon.pcx', 'Weapon.PCX', 'weapon.PCX', 'WEAPON.PCX'],
      ),
    )
  })

  it('an upper-case name written in the file still tries its lower-case spelling', () => {
    expect(skinCandidates('m/tris.md2', 'JACKET.PCX')).toEqual(['m/JACKET.PCX', 'm/jacket.pcx', 'm/jacket.PCX'])
  })

  it('UFO:AI ".name": the file name with .png, .jpg, .tga, .pcx in that order, next to the model', () => {
    const candidates = skinCandidates('/models/ufoai/bloodspider/bloodspider.md2', '.bloodspider')
    // First the name as written with each extension (tried together), then the other spellings.
    expect(candidates).toEqual([
      ...SKIN_EXTENSIONS.map((extension) => `/models/ufoai/bloodspider/bloodspider${extension}`),
      ...SKIN_EXTENSIONS.flatMap((extension) => [
        `/models/ufoai/bloodspider/bloodspider${extension.toUpperCase()}`,
        `/models/ufoai/bloodspider/BLOODSPIDER${extension.toUpperCase()}`,
      ]),
    ])
    expect(skinCandidateRounds('/models/ufoai/bloodspider/bloodspider.md2', '.bloodspider')[0]).toHaveLength(4)
    expect(SKIN_EXTENSIONS).toEqual(['.png', '.jpg', '.tga', '.pcx'])
    expect(candidates.indexOf('/models/ufoai/bloodspider/bloodspider.jpg')).toBeLessThan(
      candidates.indexOf('/models/ufoai/bloodspider/bloodspider.tga'),
    )
  })

  it('an extension-less path: the four extensions for each location', () => {
    const candidates = skinCandidates('/a/b/tris.md2', 'skins/red')
    expect(candidates.filter((url) => url === url.toLowerCase())).toEqual(
      atEach(['/a/b/', '/a/b/skins/'], ['red.png', 'red.jpg', 'red.tga', 'red.pcx']),
    )
  })

  it('ignores the model URL query and fragment; a bare file name resolves relative to the page', () => {
    expect(skinCandidates('/m/tris.md2?v=3#x', 'a.tga')[0]).toBe('/m/a.tga')
    expect(skinCandidates('tris.md2', 'players/x/a.tga')[0]).toBe('a.tga')
    expect(skinCandidates('tris.md2', 'players/x/a.tga')).toContain('players/x/a.tga')
    expect(skinCandidates('', 'a.tga')[0]).toBe('a.tga')
  })

  it('drops NUL padding, surrounding blanks and leading slashes; no duplicates', () => {
    expect(skinCandidates('/m/t.md2', ' /players/x/a.pcx\0\0garbage ')).toContain('/m/players/x/a.pcx')
    const all = skinCandidates('/m/t.md2', 'a.pcx')
    expect(new Set(all).size).toBe(all.length)
    expect(all).toEqual(['/m/a.pcx', '/m/a.PCX', '/m/A.PCX'])
  })

  it('a name with no file name in it gives nothing to try', () => {
    expect(skinCandidates('/m/t.md2', '')).toEqual([])
    expect(skinCandidates('/m/t.md2', 'players/ogro/')).toEqual([])
    expect(skinCandidates('/m/t.md2', '.')).toEqual([])
    expect(skinCandidates('/m/t.md2', '..')).toEqual([])
  })

  it('finds a file for every skin name of every bundled model whose skin file is bundled', () => {
    const files = new Set(
      listAssets('pcx')
        .concat(listAssets('png'), listAssets('jpg'), listAssets('tga'))
        .map((path) => `/${path}`),
    )
    const found: Record<string, string | undefined> = {}
    for (const path of listAssets('md2')) {
      const model = parseMD2(readAsset(path))
      for (const skin of model.skins) found[`${path}: ${skin}`] = skinCandidates(`/${path}`, skin).find((url) => files.has(url))
    }
    expect(found['quake2/ogro/tris.MD2: players/ogro/igdosh.pcx']).toBe('/quake2/ogro/igdosh.pcx')
    // Where a player folder keeps its skins, the first candidate is the file: one request.
    expect(skinCandidates('/quake2/ogro/tris.MD2', 'players/ogro/igdosh.pcx')[0]).toBe('/quake2/ogro/igdosh.pcx')
    expect(found['quake2/ratamahatta/weapon.MD2: players/Ratamahatta/weapon.pcx']).toBe('/quake2/ratamahatta/weapon.pcx')
    expect(found['quake2/faerie/weapon.md2: players\\faerie\\weapon.pcx']).toBe('/quake2/faerie/weapon.pcx')
    expect(found['quake2/sydney/weapon.md2: players/sydney/weapon.pcx']).toBe('/quake2/sydney/weapon.PCX')
    expect(found['ufoai/bloodspider/bloodspider.md2: .bloodspider']).toBe('/ufoai/bloodspider/bloodspider.jpg')
    expect(found['ufoai/bloodspider/bloodspider.md2: .bloodspider2']).toBe('/ufoai/bloodspider/bloodspider2.png')
    expect(found['ufoai/soldier-male/body.md2: .body']).toBe('/ufoai/soldier-male/body.png')
    // Every name resolves to a bundled file but bloodspider's third and fourth skins, which UFO:AI
    // does not ship in this folder.
    const missing = Object.entries(found)
      .filter(([, url]) => url === undefined)
      .map(([key]) => key)
    expect(missing).toEqual(['ufoai/bloodspider/bloodspider.md2: .bloodspider3', 'ufoai/bloodspider/bloodspider.md2: .bloodspider4'])
  })
})
