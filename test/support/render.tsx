import ReactThreeTestRenderer from '@react-three/test-renderer'
import { StrictMode, Suspense, type ReactElement, type ReactNode } from 'react'
import { afterEach } from 'vitest'

export type Renderer = Awaited<ReturnType<typeof ReactThreeTestRenderer.create>>

const mounted: Renderer[] = []

/**
 * `element` in `<StrictMode>`, as create-vite and Next.js apps render theirs: in development, components
 * render twice and their effects run, are cleaned up and run again on mount. Every React test renders so.
 */
export function strict(element: ReactNode): ReactElement {
  return (
    <StrictMode>
      <Suspense fallback={null}>{element}</Suspense>
    </StrictMode>
  )
}

/**
 * Renders into React Three Fiber's test renderer under `<StrictMode>` (updates too); unmounted after each test.
 * The scene goes in by an update of an empty root: React replays the effects of what an update mounts (cleans
 * them up and runs them again, state kept), as it does to a scene shown once its loads resolve, and not of
 * what the root's first, synchronous render mounts.
 */
export async function mount(element: ReactElement): Promise<Renderer> {
  const renderer = await ReactThreeTestRenderer.create(strict(<></>))
  const update = renderer.update.bind(renderer)
  renderer.update = (next: ReactNode) => update(strict(next))
  await renderer.update(element)
  // A test may unmount early; the clean-up after it then has nothing left to do.
  const unmount = renderer.unmount.bind(renderer)
  let unmounted = false
  renderer.unmount = async () => {
    if (unmounted) return
    unmounted = true
    // Let go of it: a test may wait for what it showed to be garbage-collected.
    mounted.splice(mounted.indexOf(renderer), 1)
    await unmount()
  }
  mounted.push(renderer)
  return renderer
}

afterEach(async () => {
  for (const renderer of mounted.splice(0)) await renderer.unmount()
})
