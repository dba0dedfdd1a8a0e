/**
 * <MD2ErrorBoundary> in real Chromium, under <StrictMode> as apps render: a model that 404s shows the
 * MD2Error's message in the boundary's fallback and reaches the page as nothing else (no window `error`, no
 * `unhandledrejection`: R3F reports the errors caught in its canvas through `reportError`, which the boundary
 * answers for those it caught); reset loads the file again and draws the model once the server has it.
 */
import { Canvas } from '@react-three/fiber'
import { Component, StrictMode, Suspense, type ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { MD2ErrorBoundary, MD2Model, isMD2Error, useMD2 } from '../../src/index'
import { coverage, findStage } from '../../stories/support/pixels'
import { canvasGl } from '../../stories/support/renderers'
import { BLACK, TIMEOUT, openHost, waitUntil } from './canvas'

const OGRO = '/assets/quake2/ogro/tris.MD2'
/** A path the "server" answers 404 for until `served` says otherwise; then the Ogro's bytes. */
const LATER = '/assets/quake2/ogro/later/tris.md2'
let served = false

/** Window `error` and `unhandledrejection` events the page saw (what a browser reports as uncaught). */
const reported: unknown[] = []
const onError = (event: ErrorEvent) => void reported.push(event.error ?? event.message)
const onRejection = (event: PromiseRejectionEvent) => void reported.push(event.reason)

const hosts: { unmount(): void; remove(): void }[] = []

beforeEach(() => {
  served = false
  reported.length = 0
  window.addEventListener('error', onError)
  window.addEventListener('unhandledrejection', onRejection)
  const realFetch = globalThis.fetch.bind(globalThis)
  // Vite's server for everything but LATER, which it does not have until the test says so.
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    if (!url.endsWith(LATER)) return realFetch(input, init)
    return served ? realFetch(OGRO, init) : Promise.resolve(new Response('not here', { status: 404, statusText: 'Not Found' }))
  })
})

afterEach(() => {
  for (const host of hosts.splice(0)) {
    host.unmount()
    host.remove()
  }
  window.removeEventListener('error', onError)
  window.removeEventListener('unhandledrejection', onRejection)
  vi.restoreAllMocks()
  useMD2.clear()
})

function render(scene: ReactNode): HTMLDivElement {
  const { host, root } = openHost(400, 300)
  hosts.push({ unmount: () => root.unmount(), remove: () => host.remove() })
  root.render(<StrictMode>{scene}</StrictMode>)
  return host
}

function Scene({ url, children }: { url: string; children?: ReactNode }) {
  return (
    <Canvas flat dpr={1} gl={canvasGl('webgl', { antialias: false })} camera={{ position: [0, 2, 100], fov: 50 }}>
      <color attach="background" args={['#000000']} />
      <ambientLight intensity={2} />
      <Suspense fallback={null}>
        <MD2Model url={url} frame={0} />
      </Suspense>
      {children}
    </Canvas>
  )
}

/** Long enough for an error held on its way out of a canvas to be reported again, were nobody to claim it. */
const pastClaim = () => new Promise((resolve) => setTimeout(resolve, 1500))

describe('<MD2ErrorBoundary> around the <Canvas>', () => {
  test('shows the 404 as the MD2Error, reports nothing as uncaught, and reset draws the model once the server has it', async () => {
    const host = render(
      <MD2ErrorBoundary data-testid="failure">
        <Scene url={LATER} />
      </MD2ErrorBoundary>,
    )
    await waitUntil(() => host.querySelector('[role="alert"]') !== null, 'the fallback')
    const alert = host.querySelector<HTMLElement>('[role="alert"]')!
    // The other props go to the fallback's root.
    expect(alert.dataset.testid).toBe('failure')
    expect(alert.querySelector('pre')!.textContent).toBe(`MD2Error LOAD_FAILED: ${LATER}: could not load: HTTP 404 Not Found`)
    await pastClaim()
    expect(reported).toEqual([])

    served = true
    alert.querySelector('button')!.click()
    const stage = await findStage(host, TIMEOUT, BLACK)
    await stage.expectModel()
    expect(host.querySelector('[role="alert"]')).toBeNull()
    await pastClaim()
    expect(reported).toEqual([])
  })

  test('resetKeys: a fixed URL draws the model, with no page error on the way', async () => {
    const scene = (url: string) => (
      <MD2ErrorBoundary resetKeys={[url]}>
        <Scene url={url} />
      </MD2ErrorBoundary>
    )
    const { host, root } = openHost(400, 300)
    hosts.push({ unmount: () => root.unmount(), remove: () => host.remove() })
    root.render(<StrictMode>{scene(LATER)}</StrictMode>)
    await waitUntil(() => host.querySelector('[role="alert"]') !== null, 'the fallback')
    root.render(<StrictMode>{scene(OGRO)}</StrictMode>)
    const stage = await findStage(host, TIMEOUT, BLACK)
    await stage.expectModel()
    await pastClaim()
    expect(reported).toEqual([])
  })

  test('an MD2Error that another boundary caught is still reported, once, as R3F reports it', async () => {
    class PlainBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
      override state = { failed: false }
      static getDerivedStateFromError() {
        return { failed: true }
      }
      override render() {
        return this.state.failed ? <p role="status">failed</p> : this.props.children
      }
    }
    const host = render(
      <>
        {/* Mounted, so the error is held on its way out of the canvas, and let go when nobody of ours claims it. */}
        <MD2ErrorBoundary>
          <p>fine</p>
        </MD2ErrorBoundary>
        <PlainBoundary>
          <Scene url={LATER} />
        </PlainBoundary>
      </>,
    )
    await waitUntil(() => host.querySelector('[role="status"]') !== null, 'the plain fallback')
    await waitUntil(() => reported.length > 0, 'the error reported', 5000)
    await pastClaim()
    expect(reported).toHaveLength(1)
    expect(isMD2Error(reported[0]) && reported[0].file).toBe(LATER)
  })
})

describe('<MD2ErrorBoundary> inside the <Canvas>', () => {
  test('draws nothing in place of the failed model (the rest of the scene draws), reports nothing; its fallback function resets', async () => {
    let reset: (() => void) | undefined
    const failures: string[] = []
    const host = render(
      <Scene url={OGRO}>
        <group position={[1000, 0, 0]}>
          <MD2ErrorBoundary onError={(error) => failures.push(error.message)}>
            <Suspense fallback={null}>
              <MD2Model url={LATER} />
            </Suspense>
          </MD2ErrorBoundary>
        </group>
        <group position={[45, 0, 0]}>
          <MD2ErrorBoundary
            fallback={(props) => {
              reset = props.reset
              return null
            }}
          >
            <Suspense fallback={null}>
              <MD2Model url={LATER} frame={0} />
            </Suspense>
          </MD2ErrorBoundary>
        </group>
      </Scene>,
    )
    const stage = await findStage(host, TIMEOUT, BLACK)
    await waitUntil(() => reset !== undefined && failures.length > 0, 'both boundaries to catch the 404')
    expect(failures[0]).toBe(`${LATER}: could not load: HTTP 404 Not Found`)
    // The healthy Ogro draws in the middle; the right quarter, where the failed model was to be, stays empty.
    await stage.expectModel({ left: 0.3, right: 0.7 })
    const right = { left: 0.78 }
    expect(coverage(await stage.settle(() => true, 'a still picture'), right, BLACK)).toBe(0)
    served = true
    reset!()
    await stage.expectModel(right)
    await pastClaim()
    expect(reported).toEqual([])
  })
})
