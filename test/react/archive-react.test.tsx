import { zipSync } from 'fflate'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { createRef, type RefObject } from 'react'
import type { BufferGeometry, DataTexture, Group, Mesh, MeshLambertMaterial } from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { archiveOfFiles } from '../../src/core/archive/openArchive'
import { parseMD2 } from '../../src/core/internal'
import { MD2Archive } from '../../src/react/MD2Archive'
import { useMD2Archive } from '../../src/react/loading/useMD2Archive'
import { MD2Instances } from '../../src/react/MD2Instances'
import { MD2Model } from '../../src/react/MD2Model'
import { MD2Player } from '../../src/react/MD2Player'
import { clearPlayerFiles } from '../../src/react/loading/playerFiles'
import { useMD2 } from '../../src/react/loading/useMD2'
import { useMD2Skin } from '../../src/react/loading/useMD2Skin'
import { useMD2Tags } from '../../src/react/loading/useMD2Tags'
import type { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { MD2ArchiveLoader } from '../../src/three/loaders/MD2ArchiveLoader'
import { readAsset } from '../support/assets'
import { assetFolderFiles, makePak, sameBytes } from '../support/archives'
import { Boundary } from '../support/boundary'
import { mount } from '../support/render'
import { HOST, serveAssets } from '../support/serve'

/** A pak0.pak-like archive of two bundled player folders, and the same as a .pk3. */
const FILES = [...assetFolderFiles('quake2/ogro', 'players/ogro/'), ...assetFolderFiles('quake2/pknight', 'players/pknight/')]
const PAK = makePak(FILES)
const PK3 = zipSync(Object.fromEntries(FILES.map((f) => [f.name, f.bytes])), { level: 6 })

afterEach(() => {
  vi.restoreAllMocks()
  clearPlayerFiles()
  useMD2.clear()
  useMD2Skin.clear()
  useMD2Archive.clear()
})

const meshOf = (group: Group) => group.children[0] as Mesh
const mapOf = (group: Group) => (meshOf(group).material as MeshLambertMaterial).map as DataTexture | null
const positions = (group: Group) => (meshOf(group).geometry as BufferGeometry).getAttribute('position').array as Float32Array
function weaponOf(body: Group): Group | undefined {
  const space = body.children.find((child) => child.name.endsWith('children'))
  return space?.children.find((child) => child.type === 'Group') as Group | undefined
}

describe('MD2ArchiveLoader', () => {
  it.each([
    ['pak0.pak', PAK],
    ['models.pk3', PK3],
  ])('%s: a server answering ranges sends the directory, then one file per read', async (name, bytes) => {
    const server = serveAssets({ [`/data/${name}`]: bytes }, undefined, { ranges: true })
    const archive = await new MD2ArchiveLoader().loadWith(`${HOST}/data/${name}`)
    expect(archive.ranged).toBe(true)
    expect(archive.size).toBe(bytes.length)
    expect(archive.entries).toHaveLength(FILES.length)
    const listed = server.bytesSent()
    expect(listed).toBeLessThan(bytes.length / 10)
    const tris = readAsset('quake2/pknight/tris.md2')
    expect(sameBytes(await archive.read('Players/PKnight/TRIS.MD2'), tris)).toBe(true)
    expect(server.bytesSent() - listed).toBeLessThan(tris.length + 2048)
    expect(archive.requests).toBe(server.requests.length)
  })

  it('a server without ranges sends the archive once; reads come from memory', async () => {
    const server = serveAssets({ '/data/pak0.pak': PAK })
    const archive = await new MD2ArchiveLoader().loadWith(`${HOST}/data/pak0.pak`)
    expect(archive.ranged).toBe(false)
    expect(sameBytes(await archive.read('players/ogro/tris.md2'), readAsset('quake2/ogro/tris.MD2'))).toBe(true)
    expect(server.requests).toEqual(['/data/pak0.pak'])
    expect(server.bytesSent()).toBe(PAK.length)
  })

  it('a missing or damaged archive is a coded error naming the URL', async () => {
    serveAssets({ '/data/cut.pak': PAK.subarray(0, PAK.length - 64) }, undefined, { ranges: true })
    await expect(new MD2ArchiveLoader().loadWith(`${HOST}/data/none.pak`)).rejects.toMatchObject({
      code: 'LOAD_FAILED',
      file: `${HOST}/data/none.pak`,
    })
    await expect(new MD2ArchiveLoader().loadWith(`${HOST}/data/cut.pak`)).rejects.toMatchObject({ code: 'TRUNCATED', section: 'pak' })
  })
})

describe('<MD2Archive>', () => {
  it('a player inside a range-read pak: body, skin, weapon and its skin, without fetching the archive whole', async () => {
    const server = serveAssets({ '/data/pak0.pak': PAK }, undefined, { ranges: true })
    const body = createRef<Group>()
    await mount(
      <MD2Archive url={`${HOST}/data/pak0.pak`}>
        <MD2Player ref={body} path="players/ogro" skin="IGDOSH" weapon="railgun" animation="run" />
      </MD2Archive>,
    )
    await vi.waitFor(() => expect(mapOf(weaponOf(body.current!)!)?.name).toContain('g_rail.pcx'))
    expect(mapOf(body.current!)!.name.toLowerCase()).toBe(`${HOST}/data/pak0.pak/players/ogro/igdosh.pcx`)
    expect(new Set(server.requests)).toEqual(new Set(['/data/pak0.pak']))
    expect(server.bytesSent()).toBeLessThan(PAK.length / 2)
  })

  it('an archive already open (dropped files) resolves models and their skins in any case, with no request', async () => {
    const server = serveAssets()
    const archive = archiveOfFiles(FILES.map((f) => [f.name, f.bytes] as const))
    const group = createRef<Group>()
    const knight = createRef<Group>()
    const alone = createRef<Group>()
    const r = await mount(
      <>
        <MD2Archive archive={archive}>
          <MD2Model ref={group} url="PLAYERS/ogro/Tris.md2" frame={10} />
          <MD2Model ref={knight} url="players/pknight/tris.md2" skin="players/PKNIGHT/evil.PCX" />
        </MD2Archive>
        <MD2Model ref={alone} model={parseMD2(readAsset('quake2/ogro/tris.MD2'))} frame={10} />
      </>,
    )
    await vi.waitFor(() => expect(group.current).toBeTruthy())
    await r.advanceFrames(1, 0.016)
    // Skin 0, named by the model as a game path, found next to it; a skin path given as a prop, from the archive's root.
    await vi.waitFor(() => expect(mapOf(group.current!)?.name.toLowerCase()).toMatch(/^md2-archive:\/\/\d+\/players\/ogro\/igdosh\.pcx$/))
    await vi.waitFor(() => expect(mapOf(knight.current!)?.name).toMatch(/^md2-archive:\/\/\d+\/players\/PKNIGHT\/evil\.PCX$/))
    // The same frame as the file's own bytes give, outside any archive.
    expect(positions(group.current!)).toEqual(positions(alone.current!))
    expect(server.requests).toEqual([])
  })

  it('a file the archive lacks goes to the boundary as LOAD_FAILED naming the archive', async () => {
    serveAssets({ '/data/pak0.pak': PAK }, undefined, { ranges: true })
    const onError = vi.fn()
    await mount(
      <Boundary onError={onError}>
        <MD2Archive url={`${HOST}/data/pak0.pak`}>
          <MD2Model url="players/nobody/tris.md2" />
        </MD2Archive>
      </Boundary>,
    )
    await vi.waitFor(() => expect(onError).toHaveBeenCalled())
    expect(onError.mock.calls[0]![0]).toMatchObject({
      code: 'LOAD_FAILED',
      message: expect.stringContaining('no such file in the archive'),
    })
  })
})

describe('the archive reader comes only with archives', () => {
  const ROOT = resolve(import.meta.dirname, '../..')
  /**
   * What `entry` imports at run time, transitively: project files (relative to the root) and packages,
   * as a bundler follows them. Type-only imports are erased, so skipped.
   */
  function runtimeImports(entry: string): Set<string> {
    const seen = new Set<string>()
    const visit = (file: string) => {
      if (seen.has(relative(ROOT, file))) return
      seen.add(relative(ROOT, file))
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'";]*?\bfrom\s*['"]([^'"]+)['"]/gm)) {
        if (!spec!.startsWith('.')) seen.add(spec!)
        else {
          const base = resolve(dirname(file), spec!).replace(/\.js$/, '')
          visit([`${base}.ts`, `${base}.tsx`].find((candidate) => existsSync(candidate))!)
        }
      }
    }
    visit(resolve(ROOT, entry))
    return seen
  }
  const READER = ['src/core/archive/openArchive.ts', 'src/three/loaders/MD2ArchiveLoader.ts', 'fflate']

  it.each(['src/react/MD2Model.tsx', 'src/react/MD2Instances.tsx', 'src/react/MD2Player.tsx', 'src/react/loading/useMD2Skin.ts'])(
    '%s imports neither the archive reader nor fflate',
    (entry) => {
      const imports = runtimeImports(entry)
      expect(imports.has('src/three/loaders/fetchBytes.ts')).toBe(true)
      expect(READER.filter((module) => imports.has(module))).toEqual([])
    },
  )

  it('<MD2Archive> does', () => {
    expect(READER.filter((module) => runtimeImports('src/react/MD2Archive.tsx').has(module))).toEqual(READER)
  })
})

describe('<MD2Instances> inside an archive', () => {
  function TaggedCrowd({ crowd }: { crowd: RefObject<MD2Crowd | null> }) {
    return (
      <MD2Instances ref={crowd} url="players/ogro/tris.md2" tags={useMD2Tags('models/soldier/body.tag')} skin="players/ogro/khorne.pcx" />
    )
  }

  it("its model, its tag file (useMD2Tags) and a skin path are the archive's files, with no request", async () => {
    const server = serveAssets()
    const tags = readAsset('ufoai/soldier-male/body.tag')
    const archive = archiveOfFiles([...FILES.map((f) => [f.name, f.bytes] as const), ['models/soldier/body.tag', tags] as const])
    const crowd = createRef<MD2Crowd>()
    await mount(
      <MD2Archive archive={archive}>
        <TaggedCrowd crowd={crowd} />
      </MD2Archive>,
    )
    await vi.waitFor(() =>
      expect((crowd.current?.material as MeshLambertMaterial | undefined)?.map?.name).toMatch(
        /^md2-archive:\/\/\d+\/players\/ogro\/khorne\.pcx$/,
      ),
    )
    expect(crowd.current!.tags?.name).toMatch(/^md2-archive:\/\/\d+\/models\/soldier\/body\.tag$/)
    expect(server.requests).toEqual([])
  })
})
