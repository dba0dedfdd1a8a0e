/**
 * Translucent surfaces blend as Quake II's did, over the sRGB values the canvas holds, on each of three.js's
 * renderers: a translucent model over a coloured wall, a shell over a model (both also under ACES Filmic,
 * R3F's default tone mapping), blob shadows on a floor, a translucent model with a shell over another's
 * shadow, and a translucent GPU crowd with shells and shadows, each the same picture on WebGPURenderer
 * (WebGPU and its WebGL2 backend) as on WebGLRenderer but for a few edge pixels and rounding, except where
 * one draw blends over itself, which is held to a looser bound (see `blendInSRGBTSL`).
 */
import { useFrame, useThree } from '@react-three/fiber'
import { useLayoutEffect, type ReactNode } from 'react'
import { ACESFilmicToneMapping, AdditiveBlending, NoToneMapping, type Material, type Mesh, type ToneMapping } from 'three'
import { expect, test } from 'vitest'
import { MD2BlobShadow, MD2Instance, MD2Instances, MD2Model, MD2Shell } from '../../src/index'
import { coverage, type Picture } from '../../stories/support/pixels'
import { RENDERER_KINDS } from '../../stories/support/renderers'
import { BLACK, expectRenderer, LookingDown, mount } from './canvas'
import { describeOn } from '../support/webgpu-three'

const OGRO = '/assets/quake2/ogro/tris.MD2'
const OGRO_SKIN = '/assets/quake2/ogro/igdosh.pcx'

const light = <directionalLight position={[30, 50, 80]} intensity={2.5} />

/** A blue-grey wall behind the models, so that what blends over it is not black. */
const wall = (
  <mesh position={[0, 0, -40]}>
    <planeGeometry args={[300, 200]} />
    <meshBasicMaterial color="#4f7fa8" />
  </mesh>
)

/** A mid-grey floor under the models, seen from above. */
const floor = (
  <>
    <LookingDown />
    <mesh rotation={[-Math.PI / 2, 0, 0]} position={[0, -40, 0]}>
      <planeGeometry args={[400, 400]} />
      <meshBasicMaterial color="#9a8a70" />
    </mesh>
  </>
)

const ogro = (x: number, yaw: number, props: { opacity?: number } = {}, layers: ReactNode = null) => (
  <MD2Model url={OGRO} skin={OGRO_SKIN} frame={42.5} position={[x, -8, 0]} rotation={[0, yaw, 0]} scale={0.8} {...props}>
    {layers}
  </MD2Model>
)

interface Case {
  scene: () => ReactNode
  /** Whether the canvas has a stencil buffer (blob shadows darken each pixel once). */
  stencil?: boolean
  /** The renderer's tone mapping (the canvas is made `flat`: none). */
  toneMapping?: ToneMapping
}

/** Sets the renderer's tone mapping (both renderers take a change at their next frame). */
function ToneMapped({ toneMapping }: { toneMapping: ToneMapping }) {
  const gl = useThree((state) => state.gl)
  useLayoutEffect(() => {
    gl.toneMapping = toneMapping
  }, [gl, toneMapping])
  return null
}

const translucentModels = () => (
  <>
    {light}
    {wall}
    {ogro(-20, 0.6, { opacity: 0.5 })}
    {ogro(24, -0.4, { opacity: 0.25 })}
  </>
)

const shelledModels = () => (
  <>
    {light}
    {wall}
    {ogro(-20, 0.6, {}, <MD2Shell color="blue" />)}
    {ogro(24, -0.4, {}, <MD2Shell color={['red', 'green']} />)}
  </>
)

const CASES: Record<string, Case> = {
  'a translucent model over a coloured wall': { scene: translucentModels },
  'a shell over a model': { scene: shelledModels },
  'a translucent model over a coloured wall, tone-mapped (ACES Filmic)': { scene: translucentModels, toneMapping: ACESFilmicToneMapping },
  'a shell over a model, tone-mapped (ACES Filmic)': { scene: shelledModels, toneMapping: ACESFilmicToneMapping },
  'blob shadows on a floor': {
    stencil: true,
    scene: () => (
      <>
        {light}
        {floor}
        {ogro(-20, 0.6, {}, <MD2BlobShadow />)}
        {ogro(12, -0.4, {}, <MD2BlobShadow />)}
      </>
    ),
  },
  "a translucent model with a shell over another's blob shadow": {
    stencil: true,
    scene: () => (
      <>
        {light}
        {floor}
        {ogro(-30, 0.6, {}, <MD2BlobShadow />)}
        {ogro(-4, -0.4, { opacity: 0.5 }, <MD2Shell color="double" />)}
      </>
    ),
  },
  'a translucent GPU crowd with shells and blob shadows': {
    stencil: true,
    scene: () => (
      <>
        {light}
        {floor}
        <MD2Instances url={OGRO} skin={OGRO_SKIN} limit={4} opacity={0.6}>
          <MD2Shell color="blue" />
          <MD2BlobShadow />
          {[-48, -16, 16, 48].map((x, i) => (
            <MD2Instance key={x} frame={i * 20} position={[x, -8, 0]} rotation={[0, 0.2 + i * 1.3, 0]} scale={0.55} />
          ))}
        </MD2Instances>
      </>
    ),
  },
}

/** What a material was before `CountLayers` changed it. */
const counted = new WeakSet<Material>()

/**
 * Turns the scene into a count of the translucent layers each draw puts on a pixel: every opaque surface
 * black, each translucent mesh adding 64 per layer to a channel of its own (the first mesh red, the next
 * green, then blue). A channel at 128 or more is a pixel where one draw blends over itself (a blob shadow
 * never does where its stencil darkens each pixel once).
 */
function CountLayers({ on }: { on: boolean }) {
  const scene = useThree((state) => state.scene)
  useFrame(() => {
    if (!on) return
    let channel = 0
    scene.traverse((object) => {
      const mesh = object as Mesh
      if (!mesh.isMesh) return
      const material = mesh.material as Material
      if (counted.has(material)) {
        if (material.transparent) channel++
        return
      }
      counted.add(material)
      let output = 'vec4(0.0, 0.0, 0.0, 1.0)'
      if (material.transparent) {
        if (channel > 2) throw new Error('CountLayers counts three translucent meshes at most')
        output = `vec4(${[0, 1, 2].map((c) => (c === channel ? '0.25' : '0.0')).join(', ')}, 1.0)`
        material.blending = AdditiveBlending
        material.premultipliedAlpha = false
        channel++
      }
      const previous = material.onBeforeCompile.bind(material)
      material.onBeforeCompile = (shader, renderer) => {
        previous(shader, renderer)
        shader.fragmentShader = shader.fragmentShader.replace(/}\s*$/, `gl_FragColor = ${output};\n}`)
      }
      const key = material.customProgramCacheKey()
      material.customProgramCacheKey = () => `${key}:count:${output}`
      material.needsUpdate = true
    })
  })
  return null
}

/** A picture where every pixel is a count of layers (each channel a multiple of 64). */
const isCount = (p: Picture) => {
  for (let i = 0; i < p.data.length; i += 4)
    for (let c = 0; c < 3; c++) {
      const v = p.data[i + c]!
      if (Math.abs(v - Math.round(v / 64) * 64) > 2 && v < 253) return false
    }
  return true
}

/** Pixels (and their neighbours) where one draw blends over itself: 1, else 0. */
function overlapMask(count: Picture): Uint8Array {
  const { width, height, data } = count
  const mask = new Uint8Array(width * height)
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4
      if (Math.max(data[i]!, data[i + 1]!, data[i + 2]!) < 100) continue
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx
          const ny = y + dy
          if (nx >= 0 && ny >= 0 && nx < width && ny < height) mask[ny * width + nx] = 1
        }
    }
  return mask
}

interface Apart {
  /** Pixels differing by more than the tolerance in some channel, and the largest difference. */
  pixels: number
  most: number
  /** The mean over these pixels of each one's largest channel difference, and how many pixels there are. */
  mean: number
  count: number
}

/** How far two pictures are apart where `mask` is 0 (`outside`) and where it is 1 (`inside`). */
function apart(a: Picture, b: Picture, mask: Uint8Array, tolerance: number): { outside: Apart; inside: Apart } {
  const outside = { pixels: 0, most: 0, mean: 0, count: 0 }
  const inside = { pixels: 0, most: 0, mean: 0, count: 0 }
  for (let p = 0; p < mask.length; p++) {
    let most = 0
    for (let c = 0; c < 3; c++) most = Math.max(most, Math.abs(a.data[p * 4 + c]! - b.data[p * 4 + c]!))
    const where = mask[p] ? inside : outside
    where.most = Math.max(where.most, most)
    where.mean += most
    where.count++
    if (most > tolerance) where.pixels++
  }
  for (const where of [outside, inside]) where.mean = where.count > 0 ? where.mean / where.count : 0
  return { outside, inside }
}

/** Each scene on WebGLRenderer, which the other renderers' pictures are held to, and where a draw blends over itself. */
const webglPictures = new Map<string, { picture: Picture; overlaps: Uint8Array; translucent: number }>()

for (const renderer of RENDERER_KINDS)
  describeOn(renderer)(`translucent surfaces blend as on WebGLRenderer (${renderer})`, () => {
    for (const [name, { scene, stencil = false, toneMapping = NoToneMapping }] of Object.entries(CASES)) {
      test(name, async () => {
        const drawn = (counting: boolean) => (
          <>
            <ToneMapped toneMapping={toneMapping} />
            {scene()}
            <CountLayers on={counting} />
          </>
        )
        const { stage, render } = await mount(drawn(false), { renderer, stencil })
        await expectRenderer(stage.canvas, renderer)
        const picture = await stage.settle((p) => coverage(p, undefined, BLACK) > 0.3, name)
        if (renderer === 'webgl') {
          render(drawn(true))
          const count = await stage.settle(isCount, `${name}, its layers counted`)
          const translucent = coverage(count, undefined, BLACK) * count.width * count.height
          expect(translucent, 'translucent pixels').toBeGreaterThan(1000)
          webglPictures.set(name, { picture, overlaps: overlapMask(count), translucent })
          return
        }
        const reference = webglPictures.get(name)
        expect(reference, "WebGLRenderer's picture, taken first").toBeDefined()
        const { outside, inside } = apart(reference!.picture, picture, reference!.overlaps, 3)
        const figures = `${Math.round(reference!.translucent)} translucent pixels: elsewhere ${outside.pixels} differ from WebGLRenderer's by more than 3 levels (at most ${outside.most}); where a draw overlaps itself ${inside.pixels} of ${inside.count} (at most ${inside.most}, ${inside.mean.toFixed(1)} on average)`
        // A few edge pixels; elsewhere within 3 levels (half floats against the canvas's bytes).
        expect(outside.pixels, figures).toBeLessThanOrEqual(Math.max(12, reference!.translucent * 0.002))
        // Where one draw blends over itself, its later layers blend over a copy taken before the draw: near.
        expect(inside.mean, figures).toBeLessThanOrEqual(20)
      })
    }
  })
