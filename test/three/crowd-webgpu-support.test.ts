/**
 * The crowd's WebGPU side (the TSL decode, storage matrices, the compute pass) is reached through one
 * seam, `webgpuSupport()`. Where it is not loaded (a WebGL-only bundle), a crowd still draws on
 * `WebGLRenderer`; drawn by a `WebGPURenderer`, on either backend, it warns once and draws nothing (nor
 * do its shells, shadows and followers) instead of throwing or drawing garbage.
 */
import { Vector3, type Material } from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { followCrowd } from '../../src/three/crowd/followCrowd'
import { provideWebGPUSupport, webgpuSupport } from '../../src/three/crowd/gpu/webgpuSupport'
import '../../src/three/webgpu/index'
import { parseAsset } from '../support/assets'
import { describeWebGPU } from '../support/webgpu-three'
import { SWIFTSHADER, webglOn } from '../support/glRenderers'

const loaded = webgpuSupport()

afterEach(() => {
  provideWebGPUSupport(loaded)
  vi.restoreAllMocks()
})

/** What three's renderers tell the crowd as they draw it. */
const RENDERERS = {
  webgl: { isWebGPURenderer: false },
  webgpu: {
    isWebGPURenderer: true,
    backend: { isWebGPUBackend: true, device: { limits: { maxStorageBufferBindingSize: 2 ** 30 } } },
    compute() {},
  },
  'webgpu-webgl2': { isWebGPURenderer: true, backend: { isWebGPUBackend: false } },
}

/** The crowd (or one of its layers) drawn once by `renderer`, as three calls it before each draw. */
function draw(mesh: { onBeforeRender: unknown }, renderer: unknown): void {
  ;(mesh.onBeforeRender as (renderer: unknown) => void)(renderer)
}

/** Three shelled, shadowed Ogros in Quake II light blending by compute, with a weapon following each. */
function armedOgros(model: string): { body: MD2Crowd; weapon: MD2Crowd } {
  const body = new MD2Crowd(parseAsset('quake2/ogro/tris.MD2', model), {
    limit: 4,
    lighting: 'quake2',
    shell: 'red',
    shadow: 'blob',
    decode: 'compute',
  })
  const weapon = new MD2Crowd(parseAsset('quake2/ogro/weapon.md2', `${model} weapon`), { limit: 4 })
  followCrowd(weapon, body)
  for (let i = 0; i < 3; i++) {
    body.setTransform(i, { position: new Vector3(i * 60, 0, 0) })
    body.play(i, 'run')
  }
  return { body, weapon }
}

const tslOf = (material: Material) => (material as Material & { positionNode?: unknown }).positionNode

describe('a crowd without its WebGPU side', () => {
  it.each(['webgpu', 'webgpu-webgl2'] as const)('drawn by WebGPURenderer (%s) warns once and draws nothing', (kind) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    provideWebGPUSupport(undefined)
    const { body, weapon } = armedOgros(`ogro without WebGPU (${kind})`)
    expect(tslOf(body.material)).toBeUndefined()
    body.update(0.05)
    expect([body.count, weapon.count, body.shell.count, body.shadow.count]).toEqual([3, 3, 3, 3])
    for (let frame = 0; frame < 3; frame++) {
      body.update(0.05)
      // The shadows first, as three draws them, then the body, the shells and the follower.
      for (const mesh of [body.shadow, body, body.shell, weapon]) {
        expect(() => draw(mesh, RENDERERS[kind])).not.toThrow()
        expect(mesh.count).toBe(0)
      }
    }
    expect([body.count, weapon.count, body.shell.count, body.shadow.count, weapon.shell.count]).toEqual([0, 0, 0, 0, 0])
    expect(body.decodedBy).toBe('vertex')
    // Once per model.
    const warnings = warn.mock.calls.map(([message]) => String(message)).filter((message) => message.includes('not loaded'))
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toMatch(
      /MD2Crowd \(ogro without WebGPU .*\): WebGPURenderer needs the GPU crowd's WebGPU side .* this crowd draws nothing\. Add `import 'react-three-md2\/webgpu'` once/,
    )
    body.dispose()
    weapon.dispose()
  })

  it('draws as ever on WebGLRenderer, silently', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    provideWebGPUSupport(undefined)
    const { body, weapon } = armedOgros('ogro on WebGL without WebGPU')
    body.update(0.05)
    for (const mesh of [body.shadow, body, body.shell, weapon]) draw(mesh, RENDERERS.webgl)
    expect([body.count, weapon.count, body.shell.count, body.shadow.count]).toEqual([3, 3, 3, 3])
    expect(body.material.customProgramCacheKey()).toContain('md2-gpu')
    expect(warn).not.toHaveBeenCalled()
    body.dispose()
    weapon.dispose()
  })
})

describeWebGPU('a crowd with its WebGPU side', () => {
  it('draws on WebGPURenderer, its matrices in storage and its poses blended by the compute pass', () => {
    const { body, weapon } = armedOgros('ogro with WebGPU')
    expect(tslOf(body.material)).toBeDefined()
    body.update(0.05)
    for (const mesh of [body.shadow, body, body.shell, weapon]) draw(mesh, RENDERERS.webgpu)
    expect([body.count, weapon.count, body.shell.count, body.shadow.count]).toEqual([3, 3, 3, 3])
    expect((body.instanceMatrix as { isStorageInstancedBufferAttribute?: boolean }).isStorageInstancedBufferAttribute).toBe(true)
    expect(body.decodedBy).toBe('compute')
    body.dispose()
    weapon.dispose()
  })
})

describeWebGPU("on WebGPURenderer's WebGL2 backend", () => {
  it('a crowd is posed on the CPU where that backend draws in software (pose "auto"), by its shader when asked', () => {
    const gl = (webglOn(SWIFTSHADER) as { getContext(): unknown }).getContext()
    const software = { isWebGPURenderer: true, backend: { isWebGPUBackend: false, gl } }
    const [auto, shader] = (['auto', 'shader'] as const).map((pose) => {
      const crowd = new MD2Crowd(parseAsset('quake2/ogro/tris.MD2', `ogro, pose ${pose}, WebGL2 backend`), { limit: 4, pose })
      crowd.play(0, 'run')
      crowd.update(0.05)
      draw(crowd, software)
      crowd.update(0.05)
      return crowd
    })
    expect([auto!.drawnFrom, shader!.drawnFrom]).toEqual(['posed', 'stored'])
    for (const crowd of [auto!, shader!]) crowd.dispose()
  })

  /** `n` Ogros running in a row, in a crowd of `limit`, with a weapon following each and a tenth shelled. */
  function row(limit: number, n: number, name: string): { body: MD2Crowd; weapon: MD2Crowd } {
    const body = new MD2Crowd(parseAsset('quake2/ogro/tris.MD2', name), { limit, lighting: 'quake2', shadow: 'blob' })
    const weapon = new MD2Crowd(parseAsset('quake2/ogro/weapon.md2', `${name} weapon`), { limit })
    followCrowd(weapon, body)
    for (let i = 0; i < n; i++) {
      body.setTransform(i, { position: new Vector3(i * 60, 0, 0) })
      body.play(i, 'run')
      if (i % 10 === 0) body.setShell(i, 'red')
    }
    return { body, weapon }
  }

  it('a crowd its uniform block holds is drawn from stored rows, every instance in its slot; a larger one is posed', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    // The fake backend has no context: three's least uniform block, 256 matrices.
    const small = row(200, 150, 'ogro on the WebGL2 backend')
    const large = row(300, 280, 'ogro past the WebGL2 backend')
    for (const { body, weapon } of [small, large]) {
      body.update(0.05)
      for (const mesh of [body.shadow, body, body.shell, weapon]) draw(mesh, RENDERERS['webgpu-webgl2'])
      body.update(0.05)
    }
    expect([small.body.drawnFrom, small.weapon.drawnFrom]).toEqual(['stored', 'stored'])
    expect([small.body.count, small.weapon.count, small.body.shell.count, small.body.shadow.count]).toEqual([150, 150, 15, 150])
    // A stored row's slot is its instance: nothing written again while nobody is told anything (once the renderer
    // has taken the ranges written, as it does when it uploads them).
    small.body.instanceMatrix.clearUpdateRanges()
    ;(small.body.geometry.getAttribute('md2Clock') as unknown as { data: { clearUpdateRanges(): void } }).data.clearUpdateRanges()
    const version = small.body.instanceMatrix.version
    small.body.update(0.05)
    expect(small.body.instanceMatrix.version).toBe(version)
    // Past the block, the first 256 in view are drawn, posed each frame.
    expect([large.body.drawnFrom, large.weapon.drawnFrom]).toEqual(['posed', 'posed'])
    expect([large.body.count, large.weapon.count]).toEqual([256, 256])
    // Drawn by WebGLRenderer afterwards: every instance again, from stored rows, with matrices for all of them.
    for (const mesh of [large.body.shadow, large.body, large.body.shell, large.weapon]) draw(mesh, RENDERERS.webgl)
    large.body.update(0.05)
    expect([large.body.drawnFrom, large.weapon.drawnFrom]).toEqual(['stored', 'stored'])
    expect([large.body.count, large.weapon.count, large.body.instanceMatrix.count]).toEqual([280, 280, 300])
    for (const { body, weapon } of [small, large]) {
      body.dispose()
      weapon.dispose()
    }
  })
})
