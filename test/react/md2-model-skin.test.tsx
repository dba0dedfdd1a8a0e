import ReactThreeTestRenderer from '@react-three/test-renderer'
import { Suspense, createRef } from 'react'
import { DataTexture, MeshLambertMaterial, Texture, type Group, type Mesh } from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MD2Error, parseMD2 } from '../../src/core/internal'
import { MD2Model } from '../../src/react/MD2Model'
import { useMD2 } from '../../src/react/loading/useMD2'
import { useMD2Skin } from '../../src/react/loading/useMD2Skin'
import { MD2Loader, md2SourceUrl } from '../../src/three/loaders/MD2Loader'
import { getMissingSkinTexture } from '../../src/three/loaders/MD2SkinLoader'
import { readAsset } from '../support/assets'
import { Boundary } from '../support/boundary'
import { mount } from '../support/render'
import { BLOODSPIDER, HOST, OGRO, RATAMAHATTA, mapOf, meshOf, serve, until } from '../support/skin-server'

afterEach(async () => {
  vi.restoreAllMocks()
  useMD2Skin.clear()
  useMD2.clear()
})

describe('<MD2Model skin>', () => {
  it('by default shows skin 0 of a model loaded from a URL, resolved next to it', async () => {
    const server = serve()
    const ref = createRef<Group>()
    const r = await mount(
      <Suspense fallback={null}>
        <MD2Model ref={ref} url={OGRO} />
      </Suspense>,
    )
    await until(r, () => expect(ref.current).toBeTruthy())
    const map = mapOf(ref.current!)
    expect(map).toBeInstanceOf(DataTexture)
    expect(map!.name).toBe(`${HOST}/a/quake2/ogro/igdosh.pcx`)
    expect(server.requests.filter((path) => path.toLowerCase().endsWith('.md2'))).toHaveLength(1)
  })

  it('the same for a model from useMD2 given as `model`; the checkerboard, warned once each, for a parsed model or one naming no skin', async () => {
    serve()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const model = await useMD2.preload(OGRO)
    const parsed = parseMD2(readAsset('quake2/ogro/tris.MD2'), { name: 'ogro/tris.MD2' })
    const a = createRef<Group>()
    const b = createRef<Group>()
    const c = createRef<Group>()
    const r = await mount(
      <Suspense fallback={null}>
        <MD2Model ref={a} model={model} />
        <MD2Model ref={b} model={parsed} />
        <MD2Model ref={c} url={RATAMAHATTA} />
      </Suspense>,
    )
    await until(r, () => expect(a.current && c.current).toBeTruthy())
    expect(mapOf(a.current!)!.name).toBe(`${HOST}/a/quake2/ogro/igdosh.pcx`)
    // Nothing silent: not a plain white model, but the missing skin's checkerboard, with one warning each.
    expect(mapOf(b.current!)).toBe(getMissingSkinTexture())
    expect(mapOf(c.current!)).toBe(getMissingSkinTexture())
    const messages = warn.mock.calls.map(([message]) => String(message))
    expect(
      messages.filter((m) =>
        /ogro\/tris\.MD2 has no skin to show \(given parsed, without its URL\) and none was given.*checkerboard/.test(m),
      ),
    ).toHaveLength(1)
    expect(
      messages.filter((m) => /ratamahatta.*has no skin to show and none was given \(it names no skins\).*checkerboard/.test(m)),
    ).toHaveLength(1)
    // skin={null} is a choice: no skin, no warning.
    warn.mockClear()
    await r.update(
      <Suspense fallback={null}>
        <MD2Model ref={c} url={RATAMAHATTA} skin={null} />
      </Suspense>,
    )
    await r.advanceFrames(1, 0.016)
    expect(mapOf(c.current!)).toBeNull()
    expect(warn).not.toHaveBeenCalled()
  })

  it('the same for a model from MD2Loader.loadAsync (as useLoader(MD2Loader) gives it)', async () => {
    serve()
    const model = await new MD2Loader().setPath(`${HOST}/a/quake2/`).loadAsync('ogro/tris.MD2')
    expect(md2SourceUrl(model)).toBe(`${HOST}/a/quake2/ogro/tris.MD2`)
    const ref = createRef<Group>()
    const r = await mount(
      <Suspense fallback={null}>
        <MD2Model ref={ref} model={model} />
      </Suspense>,
    )
    await until(r, () => expect(mapOf(ref.current!)?.name).toBe(`${HOST}/a/quake2/ogro/igdosh.pcx`))
  })

  it('accepts an index, a name from the list, a URL, a Texture and null', async () => {
    serve()
    const ref = createRef<Group>()
    const texture = new Texture()
    const scene = (skin: number | string | Texture | null) => (
      <Suspense fallback={null}>
        <MD2Model ref={ref} url={OGRO} skin={skin} />
      </Suspense>
    )
    const r = await mount(scene(8))
    await until(r, () => expect(mapOf(ref.current!)?.name).toBe(`${HOST}/a/quake2/ogro/khorne.pcx`))
    await r.update(scene('players/ogro/ctf_b.pcx'))
    await until(r, () => expect(mapOf(ref.current!)?.name).toBe(`${HOST}/a/quake2/ogro/ctf_b.pcx`))
    await r.update(scene(`${HOST}/a/quake2/ratamahatta/Ratamahatta.pcx`))
    await until(r, () => expect(mapOf(ref.current!)?.name).toBe(`${HOST}/a/quake2/ratamahatta/Ratamahatta.pcx`))
    await r.update(scene(texture))
    await until(r, () => expect(mapOf(ref.current!)).toBe(texture))
    await r.update(scene(null))
    await until(r, () => expect(mapOf(ref.current!)).toBeNull())
  })

  it('an index the model does not have shows the checkerboard and warns once', async () => {
    serve()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const ref = createRef<Group>()
    const r = await mount(
      <Suspense fallback={null}>
        <MD2Model ref={ref} url={RATAMAHATTA} skin={0} />
      </Suspense>,
    )
    await until(r, () => expect(mapOf(ref.current!)).toBe(getMissingSkinTexture()))
    await r.advanceFrames(3, 0.1)
    const calls = warn.mock.calls.filter(([message]) => String(message).includes('has no skin 0'))
    expect(calls).toHaveLength(1)
    expect(String(calls[0]![0])).toContain('names no skins')
  })

  it('switching skins keeps the parsed model and the geometry; only the material map changes', async () => {
    let release!: () => void
    const gate = { path: '/a/quake2/ogro/khorne.pcx', promise: new Promise<void>((resolve) => (release = resolve)) }
    const server = serve({}, gate)
    const ref = createRef<Group>()
    const scene = (skin: number) => (
      <Suspense fallback={null}>
        <MD2Model ref={ref} url={OGRO} skin={skin} animation="stand" />
      </Suspense>
    )
    const r = await mount(scene(0))
    await until(r, () => expect(mapOf(ref.current!)).toBeTruthy())
    const mesh = meshOf(ref.current!)
    const { geometry, material } = mesh
    const model = useMD2.peek(OGRO)
    const igdosh = mapOf(ref.current!)

    await r.update(scene(8))
    await r.advanceFrames(2, 0.05)
    // While khorne.pcx is still downloading, igdosh stays on screen (the model is not hidden).
    expect(mapOf(ref.current!)).toBe(igdosh)
    expect(ref.current!.visible).toBe(true)
    await ReactThreeTestRenderer.act(async () => {
      release()
      await gate.promise
    })
    await until(r, () => expect(mapOf(ref.current!)!.name).toBe(`${HOST}/a/quake2/ogro/khorne.pcx`))

    await r.update(scene(0))
    await until(r, () => expect(mapOf(ref.current!)).toBe(igdosh))
    expect(meshOf(ref.current!)).toBe(mesh)
    expect(mesh.geometry).toBe(geometry)
    expect(mesh.material).toBe(material)
    expect(useMD2.peek(OGRO)).toBe(model)
    expect(server.requests.filter((path) => path.toLowerCase().endsWith('.md2'))).toHaveLength(1)
    expect(server.requests.filter((path) => path === '/a/quake2/ogro/igdosh.pcx')).toHaveLength(1)
  })

  it('unmounting disposes neither cached skins nor the checkerboard', async () => {
    serve()
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const dispose = vi.spyOn(Texture.prototype, 'dispose')
    const a = createRef<Group>()
    const b = createRef<Group>()
    const r = await mount(
      <Suspense fallback={null}>
        <MD2Model ref={a} url={OGRO} skin={3} />
        <MD2Model ref={b} url={BLOODSPIDER} skin=".bloodspider4" />
      </Suspense>,
    )
    await until(r, () => expect(a.current && b.current).toBeTruthy())
    expect(mapOf(b.current!)).toBe(getMissingSkinTexture())
    const freedom = mapOf(a.current!)
    expect(freedom!.name).toBe(`${HOST}/a/quake2/ogro/freedom.pcx`)
    await r.unmount()
    expect(dispose).not.toHaveBeenCalled()
    useMD2Skin.clear()
    // Only an explicit clear() disposes cached textures, and never the shared checkerboard.
    expect(dispose.mock.contexts).toContain(freedom)
    expect(dispose.mock.contexts).not.toContain(getMissingSkinTexture())
  })

  it('a skin URL that fails draws the model with the checkerboard, warns once and calls onSkinError; the boundary stays quiet', async () => {
    serve()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const caught: unknown[] = []
    const skinErrors: MD2Error[] = []
    const url = `${HOST}/a/quake2/ogro/nobody.pcx`
    const ref = createRef<Group>()
    const r = await mount(
      <Boundary onError={(error) => caught.push(error)}>
        <Suspense fallback={null}>
          <MD2Model ref={ref} url={OGRO} skin={url} onSkinError={(error) => skinErrors.push(error)} />
        </Suspense>
      </Boundary>,
    )
    await until(r, () => expect(skinErrors).toHaveLength(1))
    expect(caught).toEqual([])
    expect(skinErrors[0]!.code).toBe('LOAD_FAILED')
    expect(skinErrors[0]!.message).toContain(url)
    expect(((ref.current!.children[0] as Mesh).material as MeshLambertMaterial).map).toBe(getMissingSkinTexture())
    expect(warn.mock.calls.filter(([message]) => String(message).includes(url))).toHaveLength(1)
  })

  it('a bare skin file name is looked for next to the model, not the page', async () => {
    const server = serve()
    const ref = createRef<Group>()
    const r = await mount(
      <Suspense fallback={null}>
        <MD2Model ref={ref} url={OGRO} skin="khorne.pcx" />
      </Suspense>,
    )
    await until(r, () =>
      expect(((ref.current?.children[0] as Mesh | undefined)?.material as MeshLambertMaterial | undefined)?.map?.name).toBe(
        `${HOST}/a/quake2/ogro/khorne.pcx`,
      ),
    )
    expect(server.requests).toContain('/a/quake2/ogro/khorne.pcx')
  })
})
