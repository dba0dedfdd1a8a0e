/**
 * The react-three-md2/webgpu entry: importing it provides the WebGPU side to the crowd and the view weapon,
 * on the three.js release it is written against; on an older one it provides nothing and says why, once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { testWebGPU } from '../support/webgpu-three'

afterEach(() => {
  vi.doUnmock('three')
  vi.resetModules()
  vi.restoreAllMocks()
})

async function importEntry(revision?: string) {
  vi.resetModules()
  if (revision !== undefined)
    vi.doMock('three', async (original) => ({ ...(await original<typeof import('three')>()), REVISION: revision }))
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const entry = await import('../../src/three/webgpu/index')
  const { webgpuSupport } = await import('../../src/three/crowd/gpu/webgpuSupport')
  const { webgpuMaterials } = await import('../../src/three/materials/webgpuMaterials')
  return { entry, crowd: webgpuSupport(), materials: webgpuMaterials(), warnings: warn.mock.calls.map((call) => String(call[0])) }
}

describe('react-three-md2/webgpu', () => {
  testWebGPU('provides the crowd and the materials their WebGPU side, silently, on the three it is written against', async () => {
    const { entry, crowd, materials, warnings } = await importEntry()
    expect(entry.WEBGPU_MIN_REVISION).toBe(187)
    expect(crowd?.createStorageMatrices(new Float32Array(16)).count).toBe(1)
    expect(typeof materials?.squeezeDepth).toBe('function')
    expect(warnings).toEqual([])
  })

  it('on an older three provides nothing and warns once, naming both releases and the code', async () => {
    const { crowd, materials, warnings } = await importEntry('170')
    expect(crowd).toBeUndefined()
    expect(materials).toBeUndefined()
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/needs three r187 or newer.*this is r170/)
    expect(warnings[0]).toMatch(/UNSUPPORTED: .*WebGLRenderer only/)
  })

  it('nothing else in the library provides it: without the entry the seams are empty', async () => {
    vi.resetModules()
    const { webgpuSupport } = await import('../../src/three/crowd/gpu/webgpuSupport')
    const { webgpuMaterials } = await import('../../src/three/materials/webgpuMaterials')
    await import('../../src/index')
    expect(webgpuSupport()).toBeUndefined()
    expect(webgpuMaterials()).toBeUndefined()
  })
})
