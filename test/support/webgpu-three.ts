/**
 * Whether the installed three.js has the `three/webgpu` and `three/tsl` that react-three-md2/webgpu is written
 * against. CI also runs the tests on the oldest three the main entry claims, which has neither: there
 * vitest.config.ts points both at `three-webgpu-stub.ts`, and the tests that need them are skipped, each
 * title saying why.
 */
import { REVISION } from 'three'
import { describe, test } from 'vitest'
import { WEBGPU_MIN_REVISION } from '../../src/three/webgpu/minRevision'

export const HAS_WEBGPU_THREE = Number.parseInt(REVISION, 10) >= WEBGPU_MIN_REVISION

/** What the title of a test skipped for it says (the left-out reporter lists these). */
export const WITHOUT_WEBGPU_THREE = `left out: three r${REVISION} is older than r${WEBGPU_MIN_REVISION}, whose three/webgpu and three/tsl react-three-md2/webgpu needs`

const titled = (title: string) => `${title} [${WITHOUT_WEBGPU_THREE}]`

/** `describe` for tests that need three's WebGPU side: skipped on an older three. */
export function describeWebGPU(title: string, body: () => void): void {
  if (HAS_WEBGPU_THREE) describe(title, body)
  else describe.skip(titled(title), body)
}

/** `test` for a test that needs three's WebGPU side: skipped on an older three. */
export function testWebGPU(title: string, body: () => unknown, timeout?: number): void {
  if (HAS_WEBGPU_THREE) test(title, body, timeout)
  else test.skip(titled(title), body, timeout)
}

/** `describe` for the tests of one of three's renderers: WebGPURenderer's (either backend) need its WebGPU side. */
export function describeOn(renderer: string): (title: string, body: () => void) => void {
  return renderer === 'webgl' ? (title, body) => describe(title, body) : describeWebGPU
}

/** `test` for one of three's renderers, likewise. */
export function testOn(renderer: string): (title: string, body: () => unknown, timeout?: number) => void {
  return renderer === 'webgl' ? (title, body, timeout) => test(title, body, timeout) : testWebGPU
}
