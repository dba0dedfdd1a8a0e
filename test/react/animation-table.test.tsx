/**
 * useMD2AnimationTable: a UFO:AI `.anm` loaded by URL with Suspense (the soldier's own table, real bytes), cached
 * and shared, aborted when nobody wants it, timed out, preloaded and cleared as models and tags are; its
 * animations played by <MD2Model> and <MD2Instance>; an entry naming frames the model lacks warns, naming it.
 */
import { Suspense, createRef, type ReactNode } from 'react'
import type { Group } from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseAnimationTable } from '../../src/core/format/animationTable'
import type { MD2AnimationDef } from '../../src/core/format/types'
import { MD2Error } from '../../src/core/MD2Error'
import type { MD2AnimationController } from '../../src/core/animation/MD2AnimationController'
import { MD2Instance, MD2Instances } from '../../src/react/MD2Instances'
import { MD2Model } from '../../src/react/MD2Model'
import { useMD2 } from '../../src/react/loading/useMD2'
import { useMD2AnimationTable } from '../../src/react/loading/useMD2AnimationTable'
import type { MD2CrowdInstance } from '../../src/three/crowd/MD2CrowdInstance'
import { readAsset } from '../support/assets'
import { Boundary } from '../support/boundary'
import { mount } from '../support/render'
import { HOST, serveAssets } from '../support/serve'

const TABLE = '/a/ufoai/soldier-male/body.anm'
const BODY = `${HOST}/a/ufoai/soldier-male/body.md2`
const expected = parseAnimationTable(new TextDecoder().decode(readAsset('ufoai/soldier-male/body.anm')))

afterEach(() => {
  vi.restoreAllMocks()
  useMD2AnimationTable.clear()
  useMD2.clear()
})

function Reader({ url, into }: { url: string; into: MD2AnimationDef[][] }) {
  into.push(useMD2AnimationTable(url))
  return null
}

const inBoundary = (children: ReactNode, caught: unknown[]) => (
  <Boundary onError={(error) => caught.push(error)}>
    <Suspense fallback={null}>{children}</Suspense>
  </Boundary>
)

describe('useMD2AnimationTable', () => {
  it('loads and parses a .anm by URL with Suspense, once for every component that asks', async () => {
    const server = serveAssets()
    const read: MD2AnimationDef[][] = []
    await mount(
      <Suspense fallback={null}>
        <Reader url={`${HOST}${TABLE}`} into={read} />
        <Reader url={`${HOST}${TABLE}`} into={read} />
      </Suspense>,
    )
    await vi.waitFor(() => expect(read.length).toBeGreaterThan(0))
    expect(expected.length).toBeGreaterThan(10)
    for (const table of read) expect(table).toEqual(expected)
    expect(read[0]).toBe(read.at(-1))
    expect(server.requests).toEqual([TABLE])
    expect(useMD2AnimationTable.peek(`${HOST}${TABLE}`)).toBe(read[0])
  })

  it('preload starts the load and keeps it; clear forgets it and the next use fetches again', async () => {
    const server = serveAssets()
    const table = await useMD2AnimationTable.preload(`${HOST}${TABLE}`)
    expect(table).toEqual(expected)
    const read: MD2AnimationDef[][] = []
    await mount(<Reader url={`${HOST}${TABLE}`} into={read} />)
    expect(read.at(-1)).toBe(table)
    expect(server.requests).toEqual([TABLE])
    useMD2AnimationTable.clear(`${HOST}${TABLE}`)
    expect(useMD2AnimationTable.peek(`${HOST}${TABLE}`)).toBeUndefined()
    await useMD2AnimationTable.preload(`${HOST}${TABLE}`)
    expect(server.requests).toEqual([TABLE, TABLE])
  })

  it('a missing table, an HTML page and a damaged line reach the error boundary as MD2Errors naming the URL', async () => {
    serveAssets({
      '/t/page.anm': new TextEncoder().encode('<!doctype html><html><body>app</body></html>'),
      '/t/bad.anm': new TextEncoder().encode('stand 0 10 10\nrun five 9\n'),
    })
    for (const [path, code, says] of [
      ['/t/missing.anm', 'LOAD_FAILED', '404'],
      ['/t/page.anm', 'LOAD_FAILED', 'HTML page'],
      ['/t/bad.anm', 'BAD_ARGUMENT', 'line 2'],
    ] as const) {
      const caught: unknown[] = []
      const r = await mount(inBoundary(<Reader url={`${HOST}${path}`} into={[]} />, caught))
      await vi.waitFor(() => expect(caught).toHaveLength(1))
      const error = caught[0] as MD2Error
      expect(error, path).toBeInstanceOf(MD2Error)
      expect(error.code, path).toBe(code)
      expect(error.message, path).toContain(`${HOST}${path}`)
      expect(error.message, path).toContain(says)
      await r.unmount()
    }
  })

  it('a table that never answers fails after its timeout with LOAD_FAILED naming the time, and leaves the cache', async () => {
    let answer!: () => void
    const server = serveAssets({}, { path: TABLE, promise: new Promise<void>((resolve) => (answer = resolve)) })
    const caught: unknown[] = []
    function Timed() {
      useMD2AnimationTable(`${HOST}${TABLE}`, { timeout: 150 })
      return null
    }
    await mount(inBoundary(<Timed />, caught))
    await vi.waitFor(() => expect(caught).toHaveLength(1), { timeout: 3000 })
    expect((caught[0] as MD2Error).code).toBe('LOAD_FAILED')
    expect((caught[0] as MD2Error).message).toContain('150 ms')
    await vi.waitFor(() => expect(server.aborted).toEqual([TABLE]))
    expect(useMD2AnimationTable.peek(`${HOST}${TABLE}`)).toBeUndefined()
    answer()
  })

  it("plays on <MD2Model> and <MD2Instance> by the table's names; entries past the model's frames warn once, named", async () => {
    serveAssets()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const model = createRef<MD2AnimationController>()
    const instance = createRef<MD2CrowdInstance>()
    const body = createRef<Group>()
    function Soldier() {
      const table = useMD2AnimationTable(`${HOST}${TABLE}`)
      // One entry past the soldier's frames: skipped, and said so.
      const withExtra = [...table, { name: 'fly', start: 5000, end: 5010, fps: 10 }]
      return (
        <>
          <MD2Model ref={body} url={BODY} skin={null} animationTable={table} animation="walk1" controllerRef={model} />
          <MD2Instances url={BODY} skin={null} limit={1}>
            <MD2Instance animationTable={withExtra} animation="stand0" controllerRef={instance} />
          </MD2Instances>
        </>
      )
    }
    const r = await mount(
      <Suspense fallback={null}>
        <Soldier />
      </Suspense>,
    )
    await vi.waitFor(() => expect(body.current && instance.current).toBeTruthy())
    await r.advanceFrames(5, 0.05)
    const walk = expected.find((def) => def.name === 'walk1')!
    expect(model.current!.animation).toMatchObject({ name: 'walk1', start: walk.start, end: walk.end })
    expect(model.current!.frame).toBeGreaterThan(walk.start)
    expect(model.current!.frame).toBeLessThanOrEqual(walk.end)
    const stand = expected.find((def) => def.name === 'stand0')!
    expect(instance.current!.animation).toMatchObject({ name: 'stand0', start: stand.start, end: stand.end })
    const said = warn.mock.calls.map((call) => String(call[0])).filter((m) => m.includes('"fly"'))
    expect(said).toHaveLength(1)
    expect(said[0]).toContain('5000')
  })
})
