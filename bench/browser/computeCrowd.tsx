/**
 * A benchmark-only prototype, not the library's path: the GPU crowd's keyframe blend done by a TSL
 * `compute()` pass on WebGPU, once per instance per MD2 vertex, into storage buffers (a blended position
 * and normal per instance-vertex) that the draw then reads by `instanceIndex` and the vertex's MD2
 * index: the vertex shader fetches two words instead of decoding two keyframes. The per-frame JS is
 * what MD2Crowd does without culling: each instance's keyframes and blend factor, written and uploaded.
 *
 * ?mode=animate&lib=md2-compute&renderer=webgpu&n=…
 */
import { useFrame, useThree } from '@react-three/fiber'
import { useEffect, useMemo } from 'react'
import type { Texture } from 'three'
import { Fn, float, instancedArray, instanceIndex, int, mix, normalLocal, positionGeometry, storage, uint, vec3, vec4 } from 'three/tsl'
import { Mesh, MeshLambertNodeMaterial, StorageBufferAttribute, type WebGPURenderer } from 'three/webgpu'
import { findAnimation } from '../../src/core/animation/animation-table'
import { ANORMS_256_YUP } from '../../src/core/animation/blend-vertices'
import { FRAME_HEADER_SIZE } from '../../src/core/format/spec'
import type { MD2Model } from '../../src/core/format/types'
import { acquireMD2GpuFrames, releaseMD2GpuFrames } from '../../src/three/crowd/gpuFrames'

export function ComputeOgros({
  model,
  skin,
  n,
  positions,
}: {
  model: MD2Model
  skin: Texture
  n: number
  positions: [number, number, number][]
}) {
  const gl = useThree((state) => state.gl) as unknown as WebGPURenderer
  const built = useMemo(() => {
    if ((gl.backend as { isWebGPUBackend?: boolean }).isWebGPUBackend !== true)
      throw new Error('lib=md2-compute: a prototype for WebGPURenderer on WebGPU only (renderer=webgpu)')
    const { numVertices: vertices, numFrames } = model.header
    // The file's vertex bytes as words (x, y, z, normal index), and each frame's scale and translate.
    const words = new Uint32Array(numFrames * vertices)
    const table = new Float32Array(numFrames * 8)
    for (let f = 0; f < numFrames; f++) {
      const start = model.frameData.byteOffset + f * model.frameStride + FRAME_HEADER_SIZE
      const view = new DataView(model.frameData.buffer, start, vertices * 4)
      for (let v = 0; v < vertices; v++) words[f * vertices + v] = view.getUint32(v * 4, true)
      const m = model.frameTransforms
      table.set([m[f * 6]!, m[f * 6 + 1]!, m[f * 6 + 2]!, 0, m[f * 6 + 3]!, m[f * 6 + 4]!, m[f * 6 + 5]!, 0], f * 8)
    }
    const normals = new Float32Array(256 * 4)
    for (let i = 0; i < 256; i++) normals.set(ANORMS_256_YUP.subarray(i * 3, i * 3 + 3), i * 4)
    const frameWords = storage(new StorageBufferAttribute(words, 1), 'uint', words.length).toReadOnly()
    const frameTable = storage(new StorageBufferAttribute(table, 4), 'vec4', numFrames * 2).toReadOnly()
    const normalTable = storage(new StorageBufferAttribute(normals, 4), 'vec4', 256).toReadOnly()

    // Per instance: keyframes a, b and the blend factor (written each frame), and where it stands.
    const total = n * vertices
    const padded = Math.ceil(total / 64) * 64
    const stateData = new Float32Array((Math.ceil(padded / vertices) + 1) * 4)
    const state = instancedArray(stateData, 'vec4')
    const placeData = new Float32Array(stateData.length)
    positions.forEach(([x, y, z], i) => placeData.set([x, y, z, 0], i * 4))
    const place = instancedArray(placeData, 'vec4').toReadOnly()
    // Out: a blended, placed position and normal per instance per MD2 vertex.
    const outPositions = instancedArray(padded, 'vec4')
    const outNormals = instancedArray(padded, 'vec4')

    const kernel = Fn(() => {
      const id = instanceIndex
      const instance = id.div(uint(vertices))
      const v = id.mod(uint(vertices))
      const s = state.element(instance)
      const t = s.z
      const decode = (frame: ReturnType<typeof uint>) => {
        const word = frameWords.element(frame.mul(uint(vertices)).add(v))
        const q = vec3(
          float(word.bitAnd(uint(255))),
          float(word.shiftRight(uint(8)).bitAnd(uint(255))),
          float(word.shiftRight(uint(16)).bitAnd(uint(255))),
        )
        const scaled = q.mul(frameTable.element(frame.mul(uint(2))).xyz).add(frameTable.element(frame.mul(uint(2)).add(uint(1))).xyz)
        return { p: vec3(scaled.y, scaled.z, scaled.x), n: normalTable.element(word.shiftRight(uint(24))).xyz }
      }
      const a = decode(uint(s.x))
      const b = decode(uint(s.y))
      outPositions.element(id).assign(vec4(mix(a.p, b.p, t).add(place.element(instance).xyz), 1))
      outNormals.element(id).assign(vec4(mix(a.n, b.n, t), 0))
    })().compute(padded, [64])

    // The crowd's shared geometry: its position is the MD2 vertex each drawn vertex reads.
    const frames = acquireMD2GpuFrames(model, 8192)
    const material = new MeshLambertNodeMaterial({ map: skin })
    material.positionNode = Fn(() => {
      const at = instanceIndex.mul(uint(vertices)).add(uint(int(positionGeometry.x)))
      normalLocal.assign(outNormals.element(at).xyz)
      return outPositions.element(at).xyz
    })()
    const mesh = new Mesh(frames.geometry, material)
    mesh.count = n
    mesh.frustumCulled = false
    return { mesh, frames, kernel, state, stateData }
  }, [gl, model, skin, n, positions])
  useEffect(
    () => () => {
      releaseMD2GpuFrames(model, built.frames)
      built.mesh.material.dispose()
    },
    [built, model],
  )
  const run = useMemo(() => findAnimation(model, 'run'), [model])
  useFrame((state) => {
    if (!run) return
    const { stateData } = built
    const time = state.clock.elapsedTime
    const length = run.end - run.start + 1
    for (let i = 0; i < n; i++) {
      // A phase per instance, as a crowd whose Ogros started at different times.
      const at = (time * run.fps + i * 0.37) % length
      const whole = Math.floor(at)
      const o = i * 4
      stateData[o] = run.start + whole
      stateData[o + 1] = run.start + ((whole + 1) % length)
      stateData[o + 2] = at - whole
    }
    built.state.value.needsUpdate = true
    gl.compute(built.kernel)
  })
  return <primitive object={built.mesh} />
}
