/**
 * An app that draws with `WebGPURenderer` but never imported `react-three-md2/webgpu` (the WebGPU side not
 * loaded: the seams return nothing), on both of its backends: the GPU crowd draws nothing and the view weapon
 * is drawn without its depth squeeze, each warning once with the import that fixes it, and the rest of the
 * scene (a CPU-path model beside it) is drawn as ever: no exception, no shader error, no blank canvas.
 */
import { afterAll, beforeAll, expect, test, vi, type MockInstance } from 'vitest'
import { MD2BlobShadow, MD2Instance, MD2Instances, MD2Model, MD2Quake2Lighting, MD2Shell, MD2ViewWeapon } from '../../src/index'
import type { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { provideWebGPUSupport, webgpuSupport } from '../../src/three/crowd/gpu/webgpuSupport'
import { provideWebGPUMaterials, webgpuMaterials } from '../../src/three/materials/webgpuMaterials'
import { coverage } from '../../stories/support/pixels'
import { BLACK, CrowdsIn, expectRenderer, mount } from './canvas'
import { describeWebGPU } from '../support/webgpu-three'

const OGRO = '/assets/quake2/ogro/tris.MD2'

describeWebGPU('a GPU crowd without its WebGPU side, drawn by WebGPURenderer', () => {
  const loaded = webgpuSupport()
  const loadedMaterials = webgpuMaterials()
  let warn: MockInstance
  let error: MockInstance
  beforeAll(() => {
    provideWebGPUSupport(undefined)
    provideWebGPUMaterials(undefined)
    warn = vi.spyOn(console, 'warn')
    error = vi.spyOn(console, 'error')
  })
  afterAll(() => {
    provideWebGPUSupport(loaded)
    provideWebGPUMaterials(loadedMaterials)
    vi.restoreAllMocks()
  })

  for (const renderer of ['webgpu', 'webgpu-webgl2'] as const) {
    test(`draws nothing, and the model beside it is drawn (${renderer})`, async () => {
      const crowds: MD2Crowd[] = []
      const { stage } = await mount(
        <>
          <directionalLight position={[30, 50, 80]} intensity={2.5} />
          <MD2Model url={OGRO} frame={0} position={[-30, -10, -40]} />
          <MD2Instances url={OGRO} limit={2} decode="compute">
            <MD2Quake2Lighting />
            <MD2Shell color="red" />
            <MD2BlobShadow />
            <MD2Instance animation="run" position={[30, -10, -40]} />
          </MD2Instances>
          <CrowdsIn into={crowds} />
        </>,
        { renderer },
      )
      await expectRenderer(stage.canvas, renderer)
      const picture = await stage.settle((p) => coverage(p, { right: 0.5 }, BLACK) > 0.05, 'the model on the left')
      expect(crowds).toHaveLength(1)
      expect(crowds[0]!.count).toBe(0)
      // The crowd's half of the canvas: its body, shell and shadow drawn nowhere.
      expect(coverage(picture, { left: 0.5 }, BLACK)).toBe(0)
      expect(error).not.toHaveBeenCalled()
    })
  }

  test('the view weapon is drawn without its depth squeeze (webgpu)', async () => {
    const { stage } = await mount(
      <>
        <directionalLight position={[30, 50, 80]} intensity={2.5} />
        <MD2ViewWeapon url="/assets/quake2/ogro/w_railgun.MD2" frame={0} position={[-6, -18, 36]} />
      </>,
      { renderer: 'webgpu' },
    )
    await expectRenderer(stage.canvas, 'webgpu')
    await stage.settle((p) => coverage(p, undefined, BLACK) > 0.01, 'the view weapon')
    expect(error).not.toHaveBeenCalled()
    const warnings = warn.mock.calls.map(([message]) => String(message)).filter((message) => message.includes('<MD2ViewWeapon>'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain("import 'react-three-md2/webgpu'")
  })

  test('warned once, saying so', () => {
    const warnings = warn.mock.calls.map(([message]) => String(message)).filter((message) => message.includes('MD2Crowd'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('this crowd draws nothing')
    // It names the line that fixes it.
    expect(warnings[0]).toContain("import 'react-three-md2/webgpu'")
  })
})
