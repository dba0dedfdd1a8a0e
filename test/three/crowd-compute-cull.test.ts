/**
 * The compute pass culling a crowd drawn from stored rows on real WebGPU (`CrowdComputeCull`): when it is
 * taken, that the crowd's draws become indirect through its list, that it runs once per change of what it
 * reads over the instances in use (the crowd's time among them: the pass poses the instances it lists; not
 * again for a shadow-map draw, not at all when nothing changed), that the
 * rows written for the vertex buffer reach its storage, and that it steps aside where it cannot run or the
 * crowd is drawn from posed rows. (Its pictures and its count are checked on real WebGPU in
 * test/browser/crowd-cull.test.tsx.)
 */
import { PerspectiveCamera, Vector3 } from 'three'
import type { ComputeNode } from 'three/webgpu'
import { expect, it, vi } from 'vitest'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { followCrowd } from '../../src/three/crowd/followCrowd'
import '../../src/three/webgpu/index'
import { INSTANCE_STRIDE } from '../../src/three/crowd/gpu/instanceRows'
import type { CrowdRenderer } from '../../src/three/crowd/gpu/CrowdRenderer'
import type { CrowdComputeCull } from '../../src/three/webgpu/CrowdComputeCull'
import { readAsset } from '../support/assets'
import { describeWebGPU } from '../support/webgpu-three'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2').slice(), { name: 'ogro' })

/** What a `WebGPURenderer` on its WebGPU backend offers the crowd as it draws it, recording each `compute`. */
function webgpuRenderer(isWebGPUBackend = true, maxStorageBufferBindingSize = 128 * 2 ** 20) {
  const computed: { node: ComputeNode; count: number }[] = []
  return {
    isWebGPURenderer: true,
    backend: { isWebGPUBackend, device: { limits: { maxStorageBufferBindingSize } } },
    compute(node: ComputeNode) {
      computed.push({ node, count: node.count as number })
      this.onCompute?.()
    },
    computed,
    /** Called as a run's kernel is computed: when three uploads what it reads. */
    onCompute: undefined as (() => void) | undefined,
  }
}

/**
 * The crowd drawn once by `renderer`, as three calls it before each draw (main or shadow-map pass), then what
 * three's draw does with the buffers it reads: uploads them, which clears their ranges.
 */
function draw(crowd: MD2Crowd, renderer: unknown): void {
  ;(crowd.onBeforeRender as (renderer: unknown) => void)(renderer)
  crowd.instanceMatrix.clearUpdateRanges()
  if (crowd.culledBy === 'compute') storageOf(crowd).rows.updateRanges.length = 0
}

function ogros(limit: number, placed: number): MD2Crowd {
  const crowd = new MD2Crowd(ogro, { limit })
  for (let i = 0; i < placed; i++) {
    crowd.setTransform(i, { position: new Vector3(i * 60, 0, 0) })
    crowd.play(i, 'run')
  }
  return crowd
}

const passOf = (crowd: MD2Crowd) => (crowd as unknown as { renderer: CrowdRenderer }).renderer.culled as CrowdComputeCull
const storageOf = (crowd: MD2Crowd) =>
  (
    passOf(crowd) as unknown as {
      built: { rows: { updateRanges: { start: number; count: number }[]; array: Float32Array; version: number } }
    }
  ).built

describeWebGPU('MD2Crowd culled by a compute pass', () => {
  it('draws indirectly through its list on WebGPU, running once per change of the view, the rows or the instances in use', () => {
    const crowd = ogros(100, 10)
    const renderer = webgpuRenderer()
    crowd.update(0.05)
    expect(crowd.culledBy).toBe('vertex')
    expect(crowd.geometry.indirect).toBeNull()
    draw(crowd, renderer)
    expect(crowd.culledBy).toBe('compute')
    // The draw's five words: the model's index count, and the instances counted on the GPU.
    const indirect = crowd.geometry.indirect!
    expect(Array.from(indirect.array as Uint32Array)).toEqual([crowd.geometry.index!.count, 0, 0, 0, 0])
    // One invocation per instance in use, however large the limit.
    expect(renderer.computed.map(({ count }) => count)).toEqual([10])
    // The shadow-map pass and the main pass of one frame share one run; an update that changes nothing runs none.
    draw(crowd, renderer)
    crowd.update(0)
    draw(crowd, renderer)
    expect(renderer.computed).toHaveLength(1)
    // The crowd's time moved: the listed instances' poses are of it, a run.
    crowd.update(0.05)
    draw(crowd, renderer)
    draw(crowd, renderer)
    expect(renderer.computed.map(({ count }) => count)).toEqual([10, 10])
    // A camera: the next frame's run culls against it, over the same instances.
    const camera = new PerspectiveCamera(30, 1, 1, 1000)
    camera.position.set(60, 0, 300)
    camera.lookAt(60, 0, 0)
    camera.updateMatrixWorld()
    crowd.update(0, camera)
    draw(crowd, renderer)
    expect(renderer.computed.map(({ count }) => count)).toEqual([10, 10, 10])
    expect(crowd.inView).toBeGreaterThan(0)
    expect(crowd.inView).toBeLessThan(10)
    // The same camera again, time held: nothing to run. One instance more in use: a run over 11.
    crowd.update(0, camera)
    draw(crowd, renderer)
    expect(renderer.computed).toHaveLength(3)
    crowd.play(10, 'stand')
    crowd.update(0, camera)
    draw(crowd, renderer)
    expect(renderer.computed.map(({ count }) => count)).toEqual([10, 10, 10, 11])
    // The same kernel each time: built once.
    expect(new Set(renderer.computed.map(({ node }) => node)).size).toBe(1)
    crowd.dispose()
    // Disposed: the draw is no longer indirect.
    expect(crowd.geometry.indirect).toBeNull()
  })

  it('uploads the rows written for the vertex buffer to its storage, the written rows only', () => {
    const crowd = ogros(64, 40)
    const renderer = webgpuRenderer()
    crowd.update(0.05)
    draw(crowd, renderer)
    const rows = storageOf(crowd).rows
    // The pass reads the very rows the vertex attributes hold.
    const data = (crowd.geometry.getAttribute('md2Clock') as unknown as { data: { array: Float32Array; updateRanges: unknown[] } }).data
    expect(rows.array).toBe(data.array)
    // A play on instance 3: its row alone goes to the storage (as three finds it before uploading it).
    const version = rows.version
    let uploaded: unknown[] = []
    renderer.onCompute = () => (uploaded = rows.updateRanges.map((range) => ({ ...range })))
    crowd.play(3, 'attack')
    crowd.update(0.05)
    ;(crowd.onBeforeRender as (renderer: unknown) => void)(renderer)
    expect(rows.version).toBeGreaterThan(version)
    expect(uploaded).toEqual([{ start: 3 * INSTANCE_STRIDE, count: INSTANCE_STRIDE }])
    // None left after the run (three's first upload of a storage is of it whole, and leaves them): the next rows
    // written would be taken for a frame's not uploaded yet, and go up whole.
    expect(rows.updateRanges).toHaveLength(0)
    // Moved off the vertex buffer, which this path does not draw: it would otherwise upload them all next frame.
    expect(data.updateRanges).toHaveLength(0)
    crowd.dispose()
  })

  it('steps aside on WebGPU’s WebGL2 backend, on WebGLRenderer, and while the crowd is drawn from posed rows', () => {
    const webgl2 = ogros(10, 3)
    const fallback = webgpuRenderer(false)
    webgl2.update(0.05)
    draw(webgl2, fallback)
    const webgl = ogros(10, 3)
    webgl.update(0.05)
    draw(webgl, { isWebGPURenderer: false })
    for (const crowd of [webgl2, webgl]) {
      expect(crowd.culledBy).toBe('vertex')
      expect(crowd.geometry.indirect).toBeNull()
    }
    expect(fallback.computed).toHaveLength(0)
    // Drawn by WebGLRenderer after WebGPU: drawn directly, culled by the vertex stage.
    const both = ogros(10, 3)
    both.update(0.05)
    draw(both, webgpuRenderer())
    expect(both.culledBy).toBe('compute')
    draw(both, { isWebGPURenderer: false })
    expect(both.culledBy).toBe('vertex')
    expect(both.geometry.indirect).toBeNull()
    both.dispose()
    // A shell keeps the crowd on its stored rows, listed; following another crowd synced, with listeners of its own,
    // puts it on posed rows (culled on the CPU): drawn directly again.
    const crowd = ogros(10, 3)
    const renderer = webgpuRenderer()
    crowd.update(0.05)
    draw(crowd, renderer)
    expect(crowd.culledBy).toBe('compute')
    crowd.setShell(1, 'red')
    crowd.update(0.05)
    draw(crowd, renderer)
    expect([crowd.drawnFrom, crowd.culledBy]).toEqual(['stored', 'compute'])
    const version = crowd.material.version
    const leader = ogros(10, 3)
    crowd.events = { onLoop() {} }
    followCrowd(crowd, leader)
    leader.update(0.05)
    draw(crowd, renderer)
    expect(crowd.drawnFrom).toBe('posed')
    expect(crowd.culledBy).toBe('vertex')
    expect(crowd.geometry.indirect).toBeNull()
    expect(crowd.geometry.getAttribute('md2Listed')).toBeUndefined()
    // Its materials are built again for the other path.
    expect(crowd.material.version).toBeGreaterThan(version)
    for (const each of [webgl2, webgl, crowd, leader]) each.dispose()
  })

  it("steps aside, saying so, when the poses of the crowd's limit would pass the device's storage binding size", () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    // 5 vec4s (80 bytes) of pose per instance of the limit: 777 need 62,160 bytes.
    const crowd = ogros(777, 3)
    const renderer = webgpuRenderer(true, 777 * 80 - 16)
    crowd.update(0.05)
    draw(crowd, renderer)
    expect(crowd.culledBy).toBe('vertex')
    expect(renderer.computed).toHaveLength(0)
    expect(warn.mock.calls.map(([message]) => String(message))).toEqual([
      expect.stringMatching(/limit 777\).*the vertex stage culls instead/),
    ])
    const fits = ogros(777, 3)
    const roomy = webgpuRenderer(true, 777 * 80)
    fits.update(0.05)
    draw(fits, roomy)
    expect(fits.culledBy).toBe('compute')
    for (const each of [crowd, fits]) each.dispose()
    warn.mockRestore()
  })
})
