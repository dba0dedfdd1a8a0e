import ReactThreeTestRenderer from '@react-three/test-renderer'
import type { ReactElement } from 'react'
import { afterEach } from 'vitest'

export type Renderer = Awaited<ReturnType<typeof ReactThreeTestRenderer.create>>

const mounted: Renderer[] = []

/** Renders into React Three Fiber's test renderer; unmounted after each test. */
export async function mount(element: ReactElement): Promise<Renderer> {
  const renderer = await ReactThreeTestRenderer.create(element)
  // A test may unmount early; the clean-up after it then has nothing left to do.
  const unmount = renderer.unmount.bind(renderer)
  let unmounted = false
  renderer.unmount = async () => {
    if (unmounted) return
    unmounted = true
    await unmount()
  }
  mounted.push(renderer)
  return renderer
}

afterEach(async () => {
  for (const renderer of mounted.splice(0)) await renderer.unmount()
})
