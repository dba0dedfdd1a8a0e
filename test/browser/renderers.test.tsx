/**
 * What only the CPU path draws, on each of three.js's renderers: the view weapon (its depth squeezed
 * into the nearest 30%, RF_DEPTHHACK) in front of a wall it reaches through, and a model in both
 * lightings, each the same picture as WebGLRenderer's but for a few edge pixels and rounding.
 */
import { expect, test, vi } from 'vitest'
import { MD2Instance, MD2Instances, MD2Model, MD2Quake2Lighting, MD2ViewWeapon } from '../../src/index'
import { coverage, difference, type Picture } from '../../stories/support/pixels'
import { RENDERER_KINDS } from '../../stories/support/renderers'
import { BLACK, expectRenderer, mount } from './canvas'
import { describeOn, testWebGPU } from '../support/webgpu-three'

const OGRO = '/assets/quake2/ogro/tris.MD2'
const RAILGUN = '/assets/quake2/ogro/w_railgun.MD2'

function ViewWeaponScene({ hand }: { hand: 'right' | 'center' }) {
  return (
    <>
      <directionalLight position={[30, 50, 80]} intensity={2.5} />
      <MD2Model url={OGRO} frame={0} position={[0, -10, -40]} />
      {/* 30 units in front of the eye: the gun reaches further, so without the depth hack the wall hides it. */}
      <mesh position={[10, 0, 70]}>
        <planeGeometry args={[16, 14]} />
        <meshBasicMaterial color="#5b6b7c" />
      </mesh>
      <MD2ViewWeapon url={RAILGUN} hand={hand} frame={0} position={[-6, -18, 36]} />
    </>
  )
}

function LitScene({ lighting }: { lighting: 'lambert' | 'quake2' }) {
  return (
    <>
      <directionalLight position={[30, 50, 80]} intensity={2.5} />
      <MD2Model url={OGRO} frame={42.5} rotation={[0, 0.6, 0]}>
        {lighting === 'quake2' && <MD2Quake2Lighting shadelight={0.8} />}
      </MD2Model>
    </>
  )
}

const SCENES = {
  'the view weapon in front of a wall': () => <ViewWeaponScene hand="right" />,
  'a model in Lambert lighting': () => <LitScene lighting="lambert" />,
  'a model in Quake II lighting': () => <LitScene lighting="quake2" />,
}

const webglPictures = new Map<string, Picture>()

for (const renderer of RENDERER_KINDS)
  describeOn(renderer)(`the CPU path on ${renderer}`, () => {
    for (const [name, scene] of Object.entries(SCENES)) {
      test(name, async () => {
        const { stage, render } = await mount(scene(), { renderer })
        await expectRenderer(stage.canvas, renderer)
        const picture = await stage.settle((p) => coverage(p, undefined, BLACK) > 0.02, name)
        const drawn = coverage(picture, undefined, BLACK) * picture.width * picture.height
        if (renderer === 'webgl') webglPictures.set(name, picture)
        const reference = webglPictures.get(name)
        if (reference && renderer !== 'webgl') {
          const across = difference(reference, picture, undefined, 8)
          expect(across, `${across} of ${Math.round(drawn)} drawn pixels differ from WebGLRenderer's`).toBeLessThanOrEqual(
            Math.max(12, drawn * 0.002),
          )
        }
        if (name.startsWith('the view weapon')) {
          // The gun is drawn over the wall: without it, the wall shows where it was.
          render(<ViewWeaponScene hand="center" />)
          const unarmed = await stage.settle((p) => difference(picture, p) > 0, 'the scene without the gun')
          expect(difference(picture, unarmed, { left: 0.5, top: 0.5 })).toBeGreaterThan(300)
        }
      })
    }
  })

testWebGPU('on WebGPU no WebGL context is made at all: a model, its skin, the view weapon and a GPU crowd', async () => {
  const getContext = vi.spyOn(HTMLCanvasElement.prototype, 'getContext')
  const { stage } = await mount(
    <>
      <ViewWeaponScene hand="right" />
      <MD2Instances url={OGRO} limit={2}>
        <MD2Instance animation="run" position={[40, -10, -40]} />
      </MD2Instances>
    </>,
    { renderer: 'webgpu' },
  )
  await expectRenderer(stage.canvas, 'webgpu')
  await stage.settle((p) => coverage(p, undefined, BLACK) > 0.02, 'the scene')
  const kinds = getContext.mock.calls.map(([kind]) => String(kind))
  getContext.mockRestore()
  expect(kinds).toContain('webgpu')
  expect(kinds.filter((kind) => /webgl/i.test(kind))).toEqual([])
})
