/**
 * What a running crowd sends to the GPU per frame, counted at the API the renderer calls (WebGL's
 * `bufferData`/`bufferSubData`, WebGPU's `queue.writeBuffer`): with every instance running and nothing told
 * anything, next to nothing (the frame's uniforms, never the rows); after `play` on a few instances, those
 * rows. WebGPURenderer uploads a buffer of `DynamicDrawUsage` whole at every draw: a crowd drawn from stored
 * rows must not give its buffers that usage there.
 */
import { useEffect } from 'react'
import { afterEach, expect, vi } from 'vitest'
import { useMD2 } from '../../src/react/loading/useMD2'
import { useMD2Crowd } from '../../src/react/MD2Instances'
import type { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { coverage } from '../../stories/support/pixels'
import { BLACK, expectRenderer, mount, waitUntil } from './canvas'
import { describeOn, testOn } from '../support/webgpu-three'

const OGRO = '/assets/quake2/ogro/tris.MD2'
const N = 1000
/** Bytes of one instance's rows: its matrix and its stored row, 16 floats each. */
const ROW_BYTES = 2 * 16 * 4

function Ogros({ onCrowd }: { onCrowd: (crowd: MD2Crowd) => void }) {
  // Posed by the shader (its stored rows uploaded when written), as on a GPU, whatever draws these tests.
  const crowd = useMD2Crowd(useMD2(OGRO), { limit: N, pose: 'shader' })
  useEffect(() => {
    for (let i = 0; i < N; i++) {
      // A grid in front of the camera, most of it out of view: culling does not change what is uploaded.
      crowd.setTransform(i, { position: [((i % 40) - 20) * 30, -20, -Math.floor(i / 40) * 30 - 20], rotation: i })
      crowd.play(i, i % 2 ? 'run' : 'stand')
    }
    onCrowd(crowd)
  }, [crowd, onCrowd])
  return <primitive object={crowd} />
}

/** Counts the bytes handed to the GPU's buffers from now on. */
function countUploads(): { bytes: number } {
  const counted = { bytes: 0 }
  const bytesOf = (data: ArrayBufferView | ArrayBuffer, offset = 0, size?: number) => {
    const element = ArrayBuffer.isView(data) && 'BYTES_PER_ELEMENT' in data ? (data.BYTES_PER_ELEMENT as number) : 1
    return size !== undefined ? size * element : data.byteLength - offset * element
  }
  if (typeof GPUQueue !== 'undefined') {
    const writeBuffer = GPUQueue.prototype.writeBuffer
    vi.spyOn(GPUQueue.prototype, 'writeBuffer').mockImplementation(function (this: GPUQueue, ...args: Parameters<GPUQueue['writeBuffer']>) {
      counted.bytes += bytesOf(args[2] as ArrayBufferView, args[3], args[4])
      return writeBuffer.apply(this, args)
    })
  }
  const subData = WebGL2RenderingContext.prototype.bufferSubData as (...args: unknown[]) => void
  vi.spyOn(WebGL2RenderingContext.prototype, 'bufferSubData').mockImplementation(function (
    this: WebGL2RenderingContext,
    ...args: unknown[]
  ) {
    counted.bytes += bytesOf(args[2] as ArrayBufferView, args[3] as number | undefined, args[4] as number | undefined)
    return subData.apply(this, args)
  } as never)
  const data = WebGL2RenderingContext.prototype.bufferData as (...args: unknown[]) => void
  vi.spyOn(WebGL2RenderingContext.prototype, 'bufferData').mockImplementation(function (this: WebGL2RenderingContext, ...args: unknown[]) {
    if (typeof args[1] === 'object' && args[1])
      counted.bytes += bytesOf(args[1] as ArrayBufferView, args[3] as number | undefined, args[4] as number | undefined)
    return data.apply(this, args)
  } as never)
  return counted
}

const frames = async (n: number) => {
  for (let f = 0; f < n; f++) await new Promise((resolve) => requestAnimationFrame(resolve))
}

afterEach(() => {
  vi.restoreAllMocks()
})

for (const renderer of ['webgl', 'webgpu'] as const) {
  describeOn(renderer)(`a running crowd's uploads (${renderer})`, () => {
    testOn(renderer)(
      `${N} running Ogros upload none of their rows while nothing changes, and the rows of the instances played`,
      async () => {
        let crowd: MD2Crowd | undefined
        const { stage } = await mount(<Ogros onCrowd={(made) => (crowd = made)} />, { renderer })
        await expectRenderer(stage.canvas, renderer)
        await waitUntil(() => crowd !== undefined, 'the crowd')
        // Running: the picture never settles; drawn once it covers some of the canvas, and a few frames more.
        await waitUntil(() => coverage(stage.read(), undefined, BLACK) > 0.02, 'the crowd drawn')
        await frames(5)
        const rows = N * ROW_BYTES
        const counted = countUploads()
        await frames(10)
        // A frame's uniforms (the crowd's time, the camera…), a small part of one upload of the rows.
        expect(counted.bytes / 10).toBeLessThan(rows / 10)
        counted.bytes = 0
        for (let i = 0; i < 10; i++) crowd!.play(i * 97, 'attack')
        await frames(3)
        // The ten rows played, each its matrix and row, and uniforms.
        expect(counted.bytes).toBeGreaterThanOrEqual(10 * ROW_BYTES)
        expect(counted.bytes / 3).toBeLessThan(rows / 10)
        expect(crowd!.count).toBe(N)
      },
    )
  })
}
