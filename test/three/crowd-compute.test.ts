/**
 * `decode: "compute"`: when the pass is taken (a WebGPU renderer whose device can bind the storage), how
 * much it holds, that it runs once per change of the rows over exactly the instances drawn, and that it
 * steps aside, warning once, where it cannot run. (Its pictures are compared with the CPU path's and the
 * vertex shader's on real WebGPU in test/browser/crowd.test.tsx and crowd-armed.test.tsx.)
 */
import { PerspectiveCamera, Vector3 } from 'three'
import type { ComputeNode } from 'three/webgpu'
import { afterEach, expect, it, vi } from 'vitest'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import '../../src/three/webgpu/index'
import { INSTANCE_STRIDE } from '../../src/three/crowd/gpu/instanceRows'
import { readAsset } from '../support/assets'
import { describeWebGPU } from '../support/webgpu-three'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2').slice(), { name: 'ogro' })
const vertices = ogro.header.numVertices

/** What a `WebGPURenderer` offers the crowd as it draws it: its backend, its device's limits, `compute`. */
function webgpuRenderer(maxStorageBufferBindingSize = 128 * 2 ** 20) {
  const computed: { node: ComputeNode; count: number }[] = []
  return {
    isWebGPURenderer: true,
    backend: { isWebGPUBackend: true, device: { limits: { maxStorageBufferBindingSize } } },
    compute(node: ComputeNode) {
      computed.push({ node, count: node.count as number })
    },
    computed,
  }
}

/** The crowd drawn once by `renderer`, as three calls it before each draw (main or shadow-map pass). */
function draw(crowd: MD2Crowd, renderer: unknown): void {
  ;(crowd.onBeforeRender as (renderer: unknown) => void)(renderer)
}

function ogros(limit: number, placed: number, decode?: 'compute'): MD2Crowd {
  const crowd = new MD2Crowd(ogro, { limit, decode })
  for (let i = 0; i < placed; i++) {
    crowd.setTransform(i, { position: new Vector3(i * 60, 0, 0) })
    crowd.play(i, 'run')
  }
  return crowd
}

afterEach(() => vi.restoreAllMocks())

describeWebGPU('MD2Crowd decode: "compute"', () => {
  it('is taken by the first WebGPU renderer to draw the crowd, which then blends only the instances drawn, once per update', () => {
    const crowd = ogros(100, 10, 'compute')
    expect(crowd.decode).toBe('compute')
    // Nothing is made or run before a renderer draws it.
    crowd.update(0.05)
    expect(crowd.decodedBy).toBe('vertex')
    const renderer = webgpuRenderer()
    draw(crowd, renderer)
    expect(crowd.decodedBy).toBe('compute')
    expect(renderer.computed).toHaveLength(1)
    // One invocation per drawn instance per MD2 vertex, however large the limit.
    expect(renderer.computed[0]!.count).toBe(10 * vertices)
    // The shadow-map pass and the main pass of one frame share one run.
    draw(crowd, renderer)
    expect(renderer.computed).toHaveLength(1)
    // A camera that sees three of them: the next run blends those three.
    const camera = new PerspectiveCamera(30, 1, 1, 1000)
    camera.position.set(60, 0, 300)
    camera.lookAt(60, 0, 0)
    camera.updateMatrixWorld()
    crowd.update(0.05, camera)
    expect(crowd.count).toBeGreaterThan(0)
    expect(crowd.count).toBeLessThan(10)
    draw(crowd, renderer)
    expect(renderer.computed).toHaveLength(2)
    expect(renderer.computed[1]!.count).toBe(crowd.count * vertices)
    // The same kernel each time: built once.
    expect(renderer.computed[1]!.node).toBe(renderer.computed[0]!.node)
    crowd.dispose()
  })

  it('uploads the rows it blends from, the drawn ones only', () => {
    const crowd = ogros(50, 7, 'compute')
    const renderer = webgpuRenderer()
    draw(crowd, renderer)
    crowd.update(0.05)
    const rows = (
      crowd as unknown as {
        renderer: { computed: { built: { rows: { updateRanges: { start: number; count: number }[]; array: Float32Array } } } }
      }
    ).renderer.computed.built.rows
    expect(rows.updateRanges).toEqual([{ start: 0, count: 7 * INSTANCE_STRIDE }])
    // The pass reads the very rows the vertex attributes hold.
    expect(rows.array).toBe((crowd.geometry.getAttribute('md2Clock') as unknown as { data: { array: Float32Array } }).data.array)
    crowd.dispose()
  })

  it('leaves the vertex shader to blend on WebGLRenderer, on WebGPU’s WebGL2 backend, and without the option', () => {
    const webgl = ogros(10, 3, 'compute')
    draw(webgl, { isWebGPURenderer: false })
    webgl.update(0.05)
    expect(webgl.decodedBy).toBe('vertex')
    const backend = webgpuRenderer()
    const fallback = { ...backend, backend: { isWebGPUBackend: false } }
    const webgl2 = ogros(10, 3, 'compute')
    draw(webgl2, fallback)
    webgl2.update(0.05)
    draw(webgl2, fallback)
    expect(webgl2.decodedBy).toBe('vertex')
    expect(backend.computed).toHaveLength(0)
    const plain = ogros(10, 3)
    const renderer = webgpuRenderer()
    draw(plain, renderer)
    expect(plain.decode).toBe('vertex')
    expect(plain.decodedBy).toBe('vertex')
    // Drawn from stored rows, it is culled by a pass of its own: one invocation per instance in use, not per vertex.
    expect(renderer.computed.map(({ count }) => count)).toEqual([3])
    expect(plain.culledBy).toBe('compute')
    for (const crowd of [webgl, webgl2, plain]) crowd.dispose()
  })

  it('past the storage the device can bind, warns once, naming the sizes, and the vertex shader blends', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    // 16 bytes per instance per vertex in each buffer: a limit of 1,000 Ogros needs more than 4 MB.
    const crowd = ogros(1000, 5, 'compute')
    const small = webgpuRenderer(4 * 2 ** 20)
    draw(crowd, small)
    draw(crowd, small)
    expect(crowd.decodedBy).toBe('vertex')
    expect(small.computed).toHaveLength(0)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]![0])).toMatch(
      /limit 1000\): decode "compute" needs \d+ MB storage buffers, past this device's 4 MB; the vertex shader decodes instead/,
    )
    crowd.dispose()
  })

  it('an unknown decode warns once, saying what is used instead', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const crowds = [0, 1].map(() => new MD2Crowd(ogro, { limit: 2, decode: 'gpu' as 'compute' }))
    const renderer = webgpuRenderer()
    for (const crowd of crowds) draw(crowd, renderer)
    expect(crowds.map((crowd) => [crowd.decode, crowd.decodedBy])).toEqual([
      ['vertex', 'vertex'],
      ['vertex', 'vertex'],
    ])
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]![0])).toMatch(/decode "gpu" is not "vertex" or "compute"; using "vertex"/)
    for (const crowd of crowds) crowd.dispose()
  })
})
