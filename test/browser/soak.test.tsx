/**
 * Soak in real Chromium: <MD2Model>s mounted and unmounted over and over with URL and skin switches,
 * slow, failing and damaged responses, StrictMode and transitions. Afterwards nothing is left: no
 * geometry, texture or GL program beyond the empty scene's, no request open, no model in the cache.
 */
import { Canvas, type RootState } from '@react-three/fiber'
import { Component, StrictMode, Suspense, createRef, startTransition, type ReactNode } from 'react'
import type { Group, Texture, WebGLRenderer } from 'three'
import { expect, test } from 'vitest'
import { MD2Model, getMissingSkinTexture, useMD2Skin, useMD2Tags } from '../../src/index'
import { models } from '../../src/react/loading/useMD2'
import { setAbandonedAfter } from '../../src/react/loading/assetCache'
import { openHost } from './canvas'

const Q2 = '/assets/quake2'
const URLS = [`${Q2}/ogro/tris.MD2`, `${Q2}/ratamahatta/tris.md2`, `${Q2}/sydney/tris.md2`, '/assets/ufoai/wc/wc.md2']
const MISSING = `${Q2}/nobody/tris.md2`
const DAMAGED = '/stories/fixtures/ratamahatta-truncated.md2'
const OGRO_SKINS = ['igdosh.pcx', 'khorne.pcx', 'grok.pcx', 'missing.pcx', `${Q2}/ogro/png/igdosh.png`]
/** Responses for these are held back, as from a slow server. */
const SLOW = /ratamahatta|khorne|wc\.md2/
/** A response that takes far longer than the test waits: only an abort ends it early. */
const HELD_BACK = /[?&]held-back/
const CYCLES = 60

/** fetch, counted: what is open, what was aborted, what failed. */
function instrumentFetch() {
  const real = window.fetch.bind(window)
  const counts = { requests: 0, open: 0, aborted: 0, failed: 0 }
  const started: string[] = []
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    counts.requests++
    counts.open++
    try {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
      started.push(url)
      if (HELD_BACK.test(url)) await delay(5000, init?.signal ?? undefined)
      else if (SLOW.test(url)) await delay(120, init?.signal ?? undefined)
      const response = await real(input, init)
      if (!response.ok) counts.failed++
      return response
    } catch (error) {
      if ((error as { name?: string }).name === 'AbortError') counts.aborted++
      throw error
    } finally {
      counts.open--
    }
  }
  return { counts, started, restore: () => (window.fetch = real) }
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => {
      clearTimeout(timer)
      reject(signal.reason as Error)
    })
  })
}

const frames = (n: number) =>
  new Promise<void>((resolve) => {
    const step = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1)))
    step(n)
  })

/** Model errors caught by the soak's boundaries. */
const boundaryCatches: unknown[] = []

class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  override componentDidCatch(error: unknown) {
    boundaryCatches.push(error)
  }
  override render() {
    return this.state.failed ? null : this.props.children
  }
}

/** Waits, frame by frame, for `condition`; fails naming `what` after 30 s. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 30_000
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await frames(1)
  }
}

/** Whether a texture has been uploaded by this renderer. */
function uploaded(gl: WebGLRenderer, texture: Texture): boolean {
  return (gl.properties.get(texture) as { __webglInit?: boolean }).__webglInit === true
}

/** A deterministic sequence (so a failure can be replayed). */
function random(seed: number) {
  let s = seed
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32
}

test('mount/unmount churn with switches, slow and failing responses, StrictMode and transitions leaks nothing', async () => {
  setAbandonedAfter(300)
  const fetches = instrumentFetch()
  const warn = console.warn
  const error = console.error
  // Missing skins and models warn and log by design; the soak counts what is left, not what was said.
  console.warn = () => {}
  console.error = () => {}
  // Damaged and missing models reach their error boundaries, which R3F also reports as window errors.
  const expectedError = (event: ErrorEvent) => {
    if ((event.error as { name?: string } | undefined)?.name === 'MD2Error') {
      event.preventDefault()
      event.stopImmediatePropagation()
    }
  }
  window.addEventListener('error', expectedError, true)
  const { host, root } = openHost(320, 240)
  let state: RootState | undefined
  const render = (scene: ReactNode) =>
    root.render(
      <StrictMode>
        <Canvas dpr={1} camera={{ position: [0, 10, 120] }} onCreated={(created) => (state = created)}>
          <ambientLight />
          {scene}
        </Canvas>
      </StrictMode>,
    )
  try {
    render(null)
    while (!state) await frames(1)
    await frames(5)
    const gl = state.gl
    const empty = { geometries: gl.info.memory.geometries, textures: gl.info.memory.textures }

    const next = random(7)
    const pick = <T,>(list: readonly T[]) => list[Math.floor(next() * list.length)]!
    let mounts = 0
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const count = 1 + Math.floor(next() * 4)
      const scene = Array.from({ length: count }, (_, i) => {
        const roll = next()
        const url = cycle === 0 && i === 0 ? URLS[0]! : roll < 0.08 ? MISSING : roll < 0.14 ? DAMAGED : pick(URLS)
        // The first model wears a missing skin: the shared checkerboard is drawn at least once.
        const skin = cycle === 0 && i === 0 ? 'missing.pcx' : url.includes('/ogro/') ? pick(OGRO_SKINS) : undefined
        mounts++
        return (
          <Boundary key={`${cycle}-${i}`}>
            <Suspense fallback={null}>
              <MD2Model url={url} skin={skin} position={[i * 30 - 45, 0, 0]} animation={next() < 0.5 ? 'run' : undefined} />
            </Suspense>
          </Boundary>
        )
      })
      // Keys that persist across cycles switch URL and skin in place; others mount and unmount.
      const persistent = (
        <Boundary key="persistent">
          <Suspense fallback={null}>
            <MD2Model url={pick(URLS.slice(0, 1))} skin={pick(OGRO_SKINS)} position={[0, 30, 0]} />
            <MD2Model url={pick(URLS)} position={[40, 30, 0]} />
          </Suspense>
        </Boundary>
      )
      if (cycle % 3 === 0) startTransition(() => render([persistent, ...scene]))
      else render([persistent, ...scene])
      // Sometimes long enough for loads to land, sometimes cut off mid-flight.
      await frames(next() < 0.5 ? 1 : 8)
    }

    // However the timing of the churn went, these happen every run: a load switched away from while
    // held back is aborted, and a missing and a damaged model each reach their boundary.
    const heldBack = `${URLS[2]}?held-back`
    const shown = createRef<Group>()
    const switching = (url: string) => (
      <Boundary key="switching">
        <Suspense fallback={null}>
          <MD2Model ref={shown} url={url} skin={null} />
        </Suspense>
      </Boundary>
    )
    render(switching(URLS[0]!))
    // Mounted first (a load whose only reader never committed cannot be aborted: React gives no cleanup).
    await until(() => shown.current !== null, 'the first model to be drawn')
    render(switching(heldBack))
    await until(() => fetches.started.some((url) => url.includes('held-back')), 'the held-back request')
    const abortsBefore = fetches.counts.aborted
    render(switching(URLS[1]!))
    await until(() => fetches.counts.aborted > abortsBefore, 'the held-back request to be aborted')
    render(
      [MISSING, DAMAGED].map((url) => (
        <Boundary key={url}>
          <Suspense fallback={null}>
            <MD2Model url={url} />
          </Suspense>
        </Boundary>
      )),
    )
    const caughtBefore = boundaryCatches.length
    await until(() => boundaryCatches.length >= caughtBefore + 2, 'the missing and damaged models to reach their boundaries')

    render(null)
    // Slow responses finish, released holds and abandoned loads are dropped.
    const deadline = performance.now() + 10_000
    while ((fetches.counts.open > 0 || models.keys().length > 0) && performance.now() < deadline) await frames(5)
    await new Promise((resolve) => setTimeout(resolve, 700))
    await frames(5)
    // Textures stay cached for reuse until cleared (a GPU texture shared by many models has no single owner).
    useMD2Skin.clear()
    useMD2Tags.clear()
    await frames(5)

    const left = {
      geometries: gl.info.memory.geometries - empty.geometries,
      // The checkerboard for missing skins is shared by every model and never disposed (if it was drawn).
      textures: gl.info.memory.textures - empty.textures - (uploaded(gl, getMissingSkinTexture()) ? 1 : 0),
      open: fetches.counts.open,
      cached: models.keys(),
    }
    console.log(
      `soak: ${CYCLES} cycles, ${mounts} mounts, ${fetches.counts.requests} requests (${fetches.counts.aborted} aborted, ` +
        `${fetches.counts.failed} failed, ${boundaryCatches.length} model errors caught by boundaries); left: ${left.geometries} geometries, ` +
        `${left.textures} textures beside the shared checkerboard, ${left.open} open requests, ${left.cached.length} cached models`,
    )
    expect(mounts).toBeGreaterThan(100)
    expect(boundaryCatches.every((error) => (error as { name?: string }).name === 'MD2Error')).toBe(true)
    expect(fetches.counts.aborted, 'loads switched away from were aborted').toBeGreaterThan(0)
    expect(left).toEqual({ geometries: 0, textures: 0, open: 0, cached: [] })
  } finally {
    root.unmount()
    host.remove()
    fetches.restore()
    window.removeEventListener('error', expectedError, true)
    console.warn = warn
    console.error = error
    setAbandonedAfter(5000)
  }
})
