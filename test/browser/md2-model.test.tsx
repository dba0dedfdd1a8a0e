/**
 * <MD2Model> in real Chromium (WebGL through ANGLE on SwiftShader): mounted with react-dom's
 * createRoot inside an R3F <Canvas>, checked by reading the drawn pixels and the renderer's own
 * resource counts.
 */
import { MeshBasicMaterial } from 'three'
import { describe, expect, test } from 'vitest'
import type { MD2ModelData } from '../../src/core/internal'
import { parseMD2, useMD2, MD2Model } from '../../src/index'
import { coverage, difference, type Picture } from '../../stories/support/pixels'
import { BLACK, mount, waitUntil } from './canvas'

const OGRO = '/assets/quake2/ogro/tris.MD2'
const OGRO_SKIN = '/assets/quake2/ogro/png/igdosh.png'
const RATAMAHATTA = '/assets/quake2/ratamahatta/tris.md2'

function pixelsOf(picture: Picture): Map<string, number> {
  const counts = new Map<string, number>()
  for (let i = 0; i < picture.data.length; i += 4) {
    const key = `${picture.data[i]},${picture.data[i + 1]},${picture.data[i + 2]}`
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return counts
}

const red = new MeshBasicMaterial({ color: '#ff0000' })

describe('Chromium', () => {
  test('gives WebGL2 through ANGLE on SwiftShader (no GPU needed)', () => {
    const gl = document.createElement('canvas').getContext('webgl2')
    expect(gl, 'a WebGL2 context').not.toBeNull()
    const info = gl!.getExtension('WEBGL_debug_renderer_info')
    const renderer = String(gl!.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl!.RENDERER))
    expect(renderer).toMatch(/SwiftShader/i)
  })
})

describe('<MD2Model> in a real WebGL canvas', () => {
  test('draws exact colours with flat + preserveDrawingBuffer: every pixel is the material or the background', async () => {
    const { stage } = await mount(<MD2Model url={OGRO} material={red} frame={0} />)
    await stage.expectModel(undefined, 0.02)
    const picture = await stage.settle(() => true, 'a still picture')
    const colours = pixelsOf(picture)
    const total = picture.width * picture.height
    const redShare = (colours.get('255,0,0') ?? 0) / total
    expect(redShare, 'share of exactly #ff0000 pixels').toBeGreaterThan(0.02)
    expect([...colours.keys()].sort()).toEqual(['0,0,0', '255,0,0'])
  })

  test('a skinned, lit model covers a meaningful share of the canvas', async () => {
    const { stage } = await mount(<MD2Model url={OGRO} skin={OGRO_SKIN} animation="stand" />)
    const picture = await stage.expectModel(undefined, 0.02)
    expect(coverage(picture, undefined, BLACK)).toBeGreaterThan(0.02)
    expect(coverage(picture, undefined, BLACK)).toBeLessThan(0.6)
  })

  test('`frame` shows the frame asked for: the same frame twice gives the same pixels, another frame does not', async () => {
    const { stage, render } = await mount(<MD2Model url={OGRO} material={red} frame={0} />)
    await stage.expectModel()
    const frame0 = await stage.settle(() => true, 'frame 0')
    render(<MD2Model url={OGRO} material={red} frame={123} />)
    const frame123 = await stage.settle((p) => difference(frame0, p) > 100, 'frame 123')
    render(<MD2Model url={OGRO} material={red} frame={0} />)
    const again = await stage.settle((p) => difference(frame123, p) > 100, 'frame 0 again')
    expect(difference(frame0, again)).toBe(0)
  })

  test('a one-frame animation shows exactly what `frame` shows', async () => {
    const { stage, render } = await mount(<MD2Model url={RATAMAHATTA} material={red} frame={50} />)
    await stage.expectModel()
    const still = await stage.settle(() => true, 'frame 50')
    render(<MD2Model url={RATAMAHATTA} material={red} frame={51} />)
    await stage.settle((p) => difference(still, p) > 50, 'frame 51')
    render(<MD2Model url={RATAMAHATTA} material={red} animation={{ start: 50, end: 50 }} />)
    const animated = await stage.settle((p) => difference(still, p) === 0, 'the one-frame animation to match frame 50', 30_000)
    expect(difference(still, animated)).toBe(0)
  })

  test('instances of one parsed model keep their own buffers', async () => {
    const model = parseMD2(await (await fetch(OGRO)).arrayBuffer(), { name: OGRO })
    const pair = (left: number, right: number) => (
      <>
        <MD2Model model={model} material={red} frame={left} position={[-28, 0, 0]} />
        <MD2Model model={model} material={red} frame={right} position={[28, 0, 0]} />
      </>
    )
    const { stage, render } = await mount(pair(0, 0))
    await stage.expectModel({ right: 0.5 })
    await stage.expectModel({ left: 0.5 })
    const same = await stage.settle(() => true, 'both on frame 0')
    render(pair(0, 178))
    const changed = await stage.settle((p) => difference(same, p, { left: 0.5 }) > 100, 'the right model to change')
    expect(difference(same, changed, { right: 0.5 }), 'pixels changed on the left').toBe(0)
  })

  test('playing changes the picture; playing={false} holds it', async () => {
    const { stage, render } = await mount(<MD2Model url={OGRO} material={red} animation="run" />)
    await stage.expectModel()
    await stage.expectAnimated()
    render(<MD2Model url={OGRO} material={red} animation="run" playing={false} />)
    await stage.expectStill(undefined, 30, 1000)
  })

  test('unmounting 100 instances disposes the 100 geometries they created; the cached model and skin stay', async () => {
    const Crowd = ({ count }: { count: number }) => {
      const model: MD2ModelData = useMD2(OGRO)
      return (
        <group scale={0.15}>
          {Array.from({ length: count }, (_, i) => (
            <MD2Model
              key={i}
              model={model}
              skin={OGRO_SKIN}
              animation={i % 20}
              position={[((i % 10) - 4.5) * 40, Math.floor(i / 10) * 60 - 270, 0]}
            />
          ))}
        </group>
      )
    }
    const { stage, renderer, render } = await mount(<Crowd count={0} />)
    await stage.next(3)
    const baseline = renderer.info.memory.geometries
    render(<Crowd count={100} />)
    await stage.expectModel(undefined, 0.02)
    await waitUntil(
      () => renderer.info.memory.geometries === baseline + 100,
      `100 more geometries (${renderer.info.memory.geometries - baseline})`,
    )
    const textures = renderer.info.memory.textures
    render(<Crowd count={0} />)
    await waitUntil(
      () => renderer.info.memory.geometries === baseline,
      `the geometries to be disposed (${renderer.info.memory.geometries - baseline} left)`,
    )
    await stage.next(3)
    expect(renderer.info.memory.textures, 'the shared skin texture is not disposed').toBe(textures)
    expect(useMD2.peek(OGRO), 'the cached model').toBeDefined()
  })
})

describe('a model out of the camera’s view', () => {
  /**
   * A floor in view, a low light from the left, and an ogro running far to the left: its all-frames
   * bounding sphere (with the margin the view test adds) lies wholly outside the camera's view.
   */
  const scene = (animateOffscreen?: boolean, caster = true) => (
    <>
      <directionalLight
        position={[-400, 80, 0]}
        intensity={3}
        castShadow
        shadow-mapSize={[1024, 1024]}
        shadow-camera-left={-300}
        shadow-camera-right={300}
        shadow-camera-top={300}
        shadow-camera-bottom={-300}
      />
      <mesh rotation={[-Math.PI / 2, 0, 0]} position={[0, -24, 0]} receiveShadow>
        <planeGeometry args={[400, 400]} />
        <meshLambertMaterial color="#808080" />
      </mesh>
      {caster && (
        <MD2Model url={OGRO} material={red} animation="run" castShadow position={[-260, 0, 0]} animateOffscreen={animateOffscreen} />
      )}
    </>
  )

  test('casting shadows, it keeps animating: its shadow on the floor in view moves between frames', async () => {
    const { stage } = await mount(scene(), { shadows: true })
    const first = await stage.next(4)
    // The caster itself is not drawn: no pixel of its red material.
    expect(pixelsOf(first).get('255,0,0') ?? 0).toBe(0)
    await stage.until((picture) => difference(first, picture) > 200, 'the off-screen caster’s shadow to move')
  })

  test('with animateOffscreen={false} it holds its pose while out of view, so its shadow stands still', async () => {
    // The bare floor first, then the caster: a picture counts only once the floor is drawn (while the model
    // loads, Suspense shows an empty canvas, which is still too) and the shadow has fallen on it.
    const floorDrawn = (picture: Picture) => coverage(picture, undefined, BLACK) > 0.2
    const { stage, render } = await mount(scene(false, false), { shadows: true })
    const bare = await stage.settle(floorDrawn, 'the bare floor')
    render(scene(false))
    await stage.settle((p) => floorDrawn(p) && difference(bare, p) > 200, 'the held pose’s shadow on the floor')
    await stage.expectStill()
  })
})
