/**
 * Bad input in a running app, in real Chromium: props that would put NaN in a buffer, skins that fail
 * or are too large, requests that nobody wants any more, and what the LoadingManager hears.
 */
import { createRef } from 'react'
import { DefaultLoadingManager, type BufferGeometry, type DataTexture, type Group, type Mesh, type MeshLambertMaterial } from 'three'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { MD2Model, getMissingSkinTexture, useMD2, useMD2Skin, type MD2Error } from '../../src/index'
import { makePCX, encodeRLE } from '../support/pcx'
import { mount, waitUntil } from './canvas'

const OGRO = '/assets/quake2/ogro/tris.MD2'
const RATAMAHATTA = '/assets/quake2/ratamahatta/tris.md2'
const SYDNEY = '/assets/quake2/sydney/tris.md2'

afterEach(() => {
  vi.restoreAllMocks()
  useMD2.clear()
  useMD2Skin.clear()
})

const meshOf = (group: Group) => group.children[0] as Mesh
const positionsOf = (group: Group) => (meshOf(group).geometry as BufferGeometry).getAttribute('position').array as Float32Array
const mapOf = (group: Group) => (meshOf(group).material as MeshLambertMaterial).map as DataTexture | null
const frames = (n: number) =>
  new Promise<void>((resolve) => (n <= 0 ? resolve() : requestAnimationFrame(() => void frames(n - 1).then(resolve))))

function objectUrl(bytes: Uint8Array): string {
  return URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>]))
}

describe('props that would break the buffers', () => {
  test('fps={Infinity}, speed={NaN}, an infinite range and a NaN frame warn once each and never put NaN in a buffer', async () => {
    const warn = vi.spyOn(console, 'warn')
    const refs = [createRef<Group>(), createRef<Group>(), createRef<Group>(), createRef<Group>()]
    const { stage } = await mount(
      <>
        <MD2Model ref={refs[0]} url={OGRO} fps={Infinity} position={[-30, 0, 0]} />
        <MD2Model ref={refs[1]} url={OGRO} speed={Number.NaN} position={[-10, 0, 0]} />
        <MD2Model ref={refs[2]} url={OGRO} animation={{ start: 0, end: Infinity }} position={[10, 0, 0]} />
        <MD2Model ref={refs[3]} url={OGRO} frame={Number.NaN} position={[30, 0, 0]} />
      </>,
    )
    await stage.expectModel()
    await frames(10)
    for (const ref of refs) expect(positionsOf(ref.current!).every(Number.isFinite)).toBe(true)
    const messages = warn.mock.calls.map(([message]) => String(message))
    for (const prop of ['fps={Infinity}', 'speed={NaN}', 'Infinity', 'frame={NaN}']) {
      expect(messages.filter((message) => message.includes(prop)).length, prop).toBeGreaterThanOrEqual(1)
    }
  })
})

describe('skins that fail', () => {
  test('an explicit skin URL that fails draws the model with the checkerboard and calls onSkinError', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const ref = createRef<Group>()
    const onSkinError = vi.fn<(error: MD2Error) => void>()
    const { stage } = await mount(<MD2Model ref={ref} url={OGRO} skin="/assets/nothing-here.pcx" onSkinError={onSkinError} frame={0} />)
    await stage.expectModel()
    await waitUntil(() => onSkinError.mock.calls.length === 1, 'onSkinError')
    expect(onSkinError.mock.calls[0]![0].code).toBe('LOAD_FAILED')
    expect(mapOf(ref.current!)).toBe(getMissingSkinTexture())
  })

  test('a PCX past maxPixels is refused from its header (BAD_IMAGE), before anything is allocated; the model still draws', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const huge = makePCX({ width: 16384, height: 16384, body: encodeRLE(new Uint8Array(1024)), palette: new Uint8Array(768) })
    const ref = createRef<Group>()
    const onSkinError = vi.fn<(error: MD2Error) => void>()
    const { stage } = await mount(<MD2Model ref={ref} url={OGRO} skin={objectUrl(huge)} onSkinError={onSkinError} frame={0} />)
    await stage.expectModel()
    await waitUntil(() => onSkinError.mock.calls.length === 1, 'onSkinError')
    expect(onSkinError.mock.calls[0]![0].code).toBe('BAD_IMAGE')
    expect(mapOf(ref.current!)).toBe(getMissingSkinTexture())
  })

  test("a skin wider than the renderer's MAX_TEXTURE_SIZE is resampled to fit, with a warning", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const ref = createRef<Group>()
    const probe = await mount(<MD2Model url={OGRO} skin={null} frame={0} />)
    const max = probe.renderer.capabilities.maxTextureSize
    const width = max * 2
    const rows = Array.from({ length: 4 }, () => encodeRLE(Uint8Array.from({ length: width }, (_, x) => (x >> 6) & 0xff))).flat()
    const wide = makePCX({ width, height: 4, body: rows, palette: Uint8Array.from({ length: 768 }, (_, i) => i % 256) })
    const { stage } = await mount(<MD2Model ref={ref} url={OGRO} skin={objectUrl(wide)} frame={0} />)
    await stage.expectModel()
    await waitUntil(() => (mapOf(ref.current!)?.image.width ?? 0) > 0 && mapOf(ref.current!) !== getMissingSkinTexture(), 'the skin')
    expect(mapOf(ref.current!)!.image.width).toBeLessThanOrEqual(max)
    expect(warn.mock.calls.some(([message]) => String(message).includes(String(width)))).toBe(true)
  })
})

describe('requests', () => {
  test('a model URL switched away from before it arrived is aborted; the LoadingManager hears each item once', async () => {
    const real = window.fetch.bind(window)
    const aborted: string[] = []
    vi.spyOn(window, 'fetch').mockImplementation(async (input, init) => {
      const url = String(input instanceof Request ? input.url : input)
      if (url.includes('ratamahatta')) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, 5000)
          init?.signal?.addEventListener('abort', () => {
            clearTimeout(timer)
            aborted.push(url)
            reject(init.signal!.reason as Error)
          })
        })
      }
      return real(input, init)
    })
    const started: string[] = []
    const errors: string[] = []
    vi.spyOn(DefaultLoadingManager, 'itemStart').mockImplementation((url) => void started.push(url))
    vi.spyOn(DefaultLoadingManager, 'itemError').mockImplementation((url) => void errors.push(url))
    const ref = createRef<Group>()
    const { render, stage } = await mount(<MD2Model ref={ref} url={OGRO} skin={null} />)
    await stage.expectModel()
    const ogro = meshOf(ref.current!).geometry
    render(<MD2Model ref={ref} url={RATAMAHATTA} skin={null} />)
    await waitUntil(() => started.some((url) => url.includes('ratamahatta')), 'the slow request')
    render(<MD2Model ref={ref} url={SYDNEY} skin={null} />)
    await waitUntil(() => meshOf(ref.current!).geometry !== ogro, 'Sydney to replace the ogro')
    await waitUntil(() => aborted.length === 1, 'the abort')
    expect(aborted[0]).toContain('ratamahatta')
    expect(started.filter((url) => url.includes('ratamahatta'))).toHaveLength(1)
    expect(errors.filter((url) => url.includes('ratamahatta'))).toHaveLength(1)
  })
})
